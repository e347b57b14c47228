"""Scoring of whole deals, replayed from deal records with exact expected values.

Every deal below is a JSON deal record (``hands`` + ``turned`` + ``bids`` +
``play``) run through :func:`rebelote.record.replay`.  The expected trick
winners, trick points and scores were computed by hand from the card tables
of RULES.md (trump J 20, 9 14, A 11, 10 10, K 4, Q 3; other suits A 11, 10 10,
K 4, Q 3, J 2; Tout Atout J 14, 9 9, A 6, 10 5, K 3, Q 1; Sans Atout A 19,
10 10, K 4, Q 3, J 2), never read back from the engine.

Seats play counter-clockwise N, W, S, E; with the dealer E, N speaks first and
leads the first trick (dealer's right), except in seed 002 where the dealer
leads.
"""

from __future__ import annotations

from typing import Any

import pytest

from rebelote.record import replay

Record = dict[str, Any]


def cards(text: str) -> list[str]:
    """Cards from their text."""
    return text.split()


def hands(n: str, w: str, s: str, e: str) -> dict[str, list[str]]:
    """Four hands from their text."""
    return {"N": cards(n), "W": cards(w), "S": cards(s), "E": cards(e)}


def deal(
    rules: str | dict[str, Any],
    held: dict[str, list[str]],
    play: str,
    *,
    bids: list[str],
    turned: str | None = None,
    dealer: str = "E",
    **extra: Any,
) -> Record:
    """A deal record given by its hands."""
    record: Record = {"format": 1, "rules": rules, "dealer": dealer, "hands": held}
    if turned is not None:
        record["turned"] = turned
    record.update(bids=bids, play=play.split(), **extra)
    return record


def run(record: Record) -> dict[str, Any]:
    """Replay a record; check that a played deal's card points and dix de der
    make 162 (RULES.md common ground: 152 + 10)."""
    summary = replay(record)
    assert summary["complete"] is True
    if summary["tricks"]:
        assert len(summary["tricks"]) == 8
        assert sum(summary["card_points"].values()) + 10 == 162
        assert sum(t["points"] for t in summary["tricks"]) == 152
    return summary


def winners(summary: dict[str, Any]) -> list[str]:
    """The winner of each trick."""
    return [t["winner"] for t in summary["tricks"]]


def points(summary: dict[str, Any]) -> list[int]:
    """The card points of each trick."""
    return [t["points"] for t in summary["tricks"]]


# --- P1: two cards of each suit per hand; every trick follows suit ----------
# Hearts trump.  N: J 9 of trump; S holds the belote (K Q of hearts).
P1 = hands(
    "JH 9H AS KS AD 10D AC 7C",
    "AH 10H QS 10S KD QD KC 9C",
    "KH QH JS 9S JD 9D QC 10C",
    "8H 7H 8S 7S 8D 7D JC 8C",
)
# N J 10 K 7 -> N 34; 9 A Q 8 -> N 28; AS QS 9S 7S -> N 14; KS 10S JS 8S -> W 16;
# W leads KD JD 8D AD -> N 17; 10D QD 9D 7D -> N 13; AC 9C QC 8C -> N 14;
# 7C KC 10C JC -> S 16.  NS 136, EW 16.
P1_PLAY = (
    "JH 10H KH 7H  9H AH QH 8H  AS QS 9S 7S  KS 10S JS 8S "
    "KD JD 8D AD  10D QD 9D 7D  AC 9C QC 8C  7C KC 10C JC"
)
# The same hands, EW win no trick: NS 152.
P1_CAPOT = (
    "JH 10H KH 7H  9H AH QH 8H  AS 10S 9S 7S  KS QS JS 8S "
    "AD KD 9D 7D  10D QD JD 8D  AC 9C QC 8C  7C KC 10C JC"
)
N_TAKES: dict[str, Any] = {"turned": "9H", "bids": ["take"]}
W_TAKES: dict[str, Any] = {"turned": "10H", "bids": ["pass", "take"]}

# P1b: P1 with the belote (K Q of hearts) in W's hand and A 10 in S's.
P1B = hands(
    "JH 9H AS KS AD 10D AC 7C",
    "KH QH QS 10S KD QD KC 9C",
    "AH 10H JS 9S JD 9D QC 10C",
    "8H 7H 8S 7S 8D 7D JC 8C",
)
# N J K A 7 -> N 35; 9 Q 10 8 -> N 27; then as P1_PLAY: NS 136, EW 16 (W wins trick 4).
P1B_PLAY = (
    "JH KH AH 7H  9H QH 10H 8H  AS QS 9S 7S  KS 10S JS 8S "
    "KD JD 8D AD  10D QD 9D 7D  AC 9C QC 8C  7C KC 10C JC"
)
# EW win no trick: NS 152.
P1B_CAPOT = (
    "JH KH AH 7H  9H QH 10H 8H  AS 10S 9S 7S  KS QS JS 8S "
    "AD KD 9D 7D  10D QD JD 8D  AC 9C QC 8C  7C KC 10C JC"
)
W_TAKES_B: dict[str, Any] = {"turned": "QH", "bids": ["pass", "take"]}

# L: a deal that ends 81 to 81 (hearts trump, N takes, no belote, no declarations).
L = hands(
    "10S AS 10H QH 8D JD 10C 8C",
    "JS KS 7H JH QD 10D AC KC",
    "QS 7S 8H KH AD 7D QC 9C",
    "8S 9S AH 9H 9D KD 7C JC",
)
# N JD 10D AD KD -> S 27; S 7D 9D 8D QD -> W 3; W KC 9C 7C 10C -> N 14;
# N 10S JS 7S 8S -> N 12; N 8C AC QC JC -> W 16; W 7H 8H 9H QH -> E 17;
# E AH 10H JH KH -> W 45; W KS QS 9S AS -> N 18 + 10.  NS 71 + 10 = 81, EW 81.
L_PLAY = (
    "JD 10D AD KD  7D 9D 8D QD  KC 9C 7C 10C  10S JS 7S 8S "
    "8C AC QC JC  7H 8H 9H QH  AH 10H JH KH  KS QS 9S AS"
)
L_TAKE: dict[str, Any] = {"turned": "10H", "bids": ["take"]}


# --- made, dix de der, dedans -----------------------------------------------


def test_made_takers_and_defenders_score_their_points_ffb() -> None:
    """RULES.md common ground: "the taking team must score more than the
    defenders"; seed 001: "Si elle a gagné la donne, l'équipe qui a pris marque
    le score de son total de points. L'équipe adverse marque le score de son
    total de points."  Belote automatic in ffb."""
    s = run(deal("ffb", P1, P1_PLAY, **N_TAKES))
    assert s["trump"] == "H"
    assert s["taker"] == "N"
    assert s["contract"] is None
    assert winners(s) == ["N", "N", "N", "W", "N", "N", "N", "S"]
    assert points(s) == [34, 28, 14, 16, 17, 13, 14, 16]
    assert [t["leader"] for t in s["tricks"]] == ["N", "N", "N", "N", "W", "N", "N", "N"]
    assert s["card_points"] == {"NS": 136, "EW": 16}
    assert s["dix_de_der"] == "NS"
    assert s["belote"] == "NS"
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["declarations"] == {"NS": [], "EW": []}
    assert s["capot"] is None
    assert s["result"] == "made"
    assert s["held_over"] == 0
    assert s["score"] == {"NS": 166, "EW": 16}


def test_dix_de_der_goes_to_the_last_trick_winner_seed001() -> None:
    """Seed 001: "L'équipe qui a emporté le dernier pli ajoute 10 points au
    total de ses points. Il s'agit de la règle du dix de der."  Here W wins the
    last trick: EW's 16 card points become 26; card_points stay without it."""
    play = (
        "JH 10H KH 7H  9H AH QH 8H  AS QS 9S 7S  AD KD JD 8D "
        "10D QD 9D 7D  AC 9C QC 8C  7C KC 10C JC  JS 8S KS 10S"
    )
    s = run(deal("ffb", P1, play, **N_TAKES))
    assert winners(s) == ["N", "N", "N", "N", "N", "N", "S", "W"]
    assert points(s) == [34, 28, 14, 17, 13, 14, 16, 16]
    assert s["tricks"][7]["leader"] == "S"
    assert s["card_points"] == {"NS": 136, "EW": 16}
    assert s["dix_de_der"] == "EW"
    assert s["result"] == "made"
    assert s["score"] == {"NS": 156, "EW": 26}


def test_dedans_defenders_score_162_plus_their_belote_ffb() -> None:
    """Seed 001: "Si elle a perdu la donne, l'équipe qui a pris ne marque aucun
    point hors belote. L'équipe adverse marque 162 points."  W takes and EW
    make 16; NS also keep their belote (RULES.md: belote always to its holder)."""
    s = run(deal("ffb", P1, P1_PLAY, **W_TAKES))
    assert s["taker"] == "W"
    assert s["card_points"] == {"NS": 136, "EW": 16}
    assert s["result"] == "dedans"
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["score"] == {"NS": 182, "EW": 0}


@pytest.mark.parametrize("rules", ["ffb", "seed001", "seed003"])
def test_belote_kept_by_its_holders_when_the_takers_fail(rules: str) -> None:
    """Seed 001: "ne marque aucun point hors belote"; seed 003: "tous ses
    points reviennent à l'équipe adverse (à l'exception des points de la belote
    et de la rebelote)".  W (takers EW) holds K Q of hearts; EW fail."""
    s = run(deal(rules, P1B, P1B_PLAY, **W_TAKES_B))
    assert winners(s) == ["N", "N", "N", "W", "N", "N", "N", "S"]
    assert points(s) == [35, 27, 14, 16, 17, 13, 14, 16]
    assert s["belote"] == "EW"
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 162, "EW": 20}


# --- litige ------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["ffb", "seed003"])
def test_litige_takers_points_held_over_ffb_seed003(rules: str) -> None:
    """Seed 003, "Litige": "En cas d'égalité, l'équipe qui a pris l'atout ne
    marque pas de points et ceux-ci sont reportés sur la manche suivante au
    profit du vainqueur."  81 to 81: the defenders score their 81, the takers'
    81 are held over."""
    s = run(deal(rules, L, L_PLAY, **L_TAKE))
    assert winners(s) == ["S", "W", "N", "N", "W", "E", "W", "N"]
    assert points(s) == [27, 3, 14, 12, 16, 17, 45, 18]
    assert s["card_points"] == {"NS": 71, "EW": 81}
    assert s["dix_de_der"] == "NS"
    assert s["result"] == "litige"
    assert s["held_over"] == 81
    assert s["score"] == {"NS": 0, "EW": 81}


def test_tie_takers_fail_seed001() -> None:
    """Seed 001: the takers' "total doit donc dépasser 81" (must exceed): at 81
    to 81 they fail and the defenders score 162; nothing is held over."""
    s = run(deal("seed001", L, L_PLAY, **L_TAKE))
    assert s["result"] == "dedans"
    assert s["held_over"] == 0
    assert s["score"] == {"NS": 0, "EW": 162}


# --- capot -------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["ffb", "seed000", "seed001", "seed003"])
def test_capot_by_the_takers_252_plus_belote(rules: str) -> None:
    """Seed 001: "Un capot est réussi par une équipe si elle remporte les 8 plis
    de la donne. Valeur 252 points ou 272 s'il a la belote."  Seed 000: 100
    instead of the dix de der; seed 003: 90 on top of it: 252 in every text."""
    s = run(deal(rules, P1, P1_CAPOT, **N_TAKES))
    assert winners(s) == ["N"] * 7 + ["S"]
    assert points(s) == [34, 28, 21, 9, 15, 15, 14, 16]
    assert s["card_points"] == {"NS": 152, "EW": 0}
    assert s["capot"] == "NS"
    assert s["result"] == "capot"
    assert s["score"] == {"NS": 272, "EW": 0}


@pytest.mark.parametrize(("rules", "ns"), [("ffb", 272), ("seed003", 272), ("seed001", 182)])
def test_capot_against_the_takers_252_ffb_162_seed001(rules: str, ns: int) -> None:
    """Seed 001: "si c'est l'équipe qui a pris qui est mise capot, on compte
    alors simplement un dedans 162 pour l'équipe adverse"; FFB: 252.  W takes,
    NS take all 8 tricks and hold the belote (+20)."""
    s = run(deal(rules, P1, P1_CAPOT, **W_TAKES))
    assert s["capot"] == "NS"
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": ns, "EW": 0}


SOLO = hands(
    "JH 9H AH 10H KH AS AD AC",
    "QH 7S 8S 9S 7D 8D 9D 7C",
    "8H 10S JS QS 10D JD QD 8C",
    "7H KS KD 9C 10C JC QC KC",
)
# Seed 002: the dealer N leads.  N: J Q 8 7 -> 23; 9 7S 10S KS -> 28;
# A 8S JS KD -> 17; 10 9S QS 9C -> 13; K 7D 10D 10C -> 24; AS 8D JD JC -> 15;
# AD 9D QD QC -> 17; AC 7C 8C KC -> 15.  N takes all 8 tricks himself.
SOLO_PLAY = (
    "JH QH 8H 7H  9H 7S 10S KS  AH 8S JS KD  10H 9S QS 9C "
    "KH 7D 10D 10C  AS 8D JD JC  AD 9D QD QC  AC 7C 8C KC"
)
SOLO_BIDS: dict[str, Any] = {
    "turned": "KH",
    "bids": ["pass", "pass", "pass", "take"],
    "dealer": "N",
}


def test_solo_capot_350_seed002() -> None:
    """Seed 002: "Si un joueur a remportés tous les plis par lui-même dans le
    tour, 350 points supplémentaires seront attribués à son équipe."  Read (as
    Rules.solo_capot_points documents) as 350 for the cards instead of 162."""
    s = run(deal("seed002", SOLO, SOLO_PLAY, **SOLO_BIDS))
    assert winners(s) == ["N"] * 8
    assert points(s) == [23, 28, 17, 13, 24, 15, 17, 15]
    assert s["capot"] == "NS"
    assert s["result"] == "capot"
    assert s["score"] == {"NS": 350, "EW": 0}


def test_solo_capot_by_a_defender_350_seed002() -> None:
    """Seed 002: "Si un joueur a remportés tous les plis par lui-même dans le
    tour, 350 points supplémentaires seront attribués à son équipe": any
    player, a defender too.  The same cards one seat to the right: the dealer W
    leads, S takes the turned QH, and W takes all 8 tricks alone: EW 350."""
    moved = {"W": SOLO["N"], "S": SOLO["W"], "E": SOLO["S"], "N": SOLO["E"]}
    s = run(deal("seed002", moved, SOLO_PLAY, turned="QH", bids=["take"], dealer="W"))
    assert s["taker"] == "S"
    assert winners(s) == ["W"] * 8
    assert points(s) == [23, 28, 17, 13, 24, 15, 17, 15]
    assert s["capot"] == "EW"
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 0, "EW": 350}


def test_capot_shared_by_partners_252_seed002() -> None:
    """Seed 002: "Si le tour est remporté en obtenant toutes les levées, 252
    points supplémentaires sont attribués"; S wins the last trick, so no solo
    capot: 252.  Without seed 002's option the solo capot is a plain 252 too."""
    shared = dict(SOLO, N=cards("JH 9H AH 10H KH AS AD 8C"), S=cards("8H 10S JS QS 10D JD QD AC"))
    play = SOLO_PLAY.replace("AC 7C 8C KC", "8C 7C AC KC")
    s = run(deal("seed002", shared, play, **SOLO_BIDS))
    assert winners(s) == ["N"] * 7 + ["S"]
    assert s["capot"] == "NS"
    assert s["score"] == {"NS": 252, "EW": 0}
    plain = {"preset": "ffb-no-declarations", "first_lead": "dealer"}
    s = run(deal(plain, SOLO, SOLO_PLAY, **SOLO_BIDS))
    assert s["score"] == {"NS": 252, "EW": 0}


# --- belote ------------------------------------------------------------------


def test_belote_must_be_said_seed001() -> None:
    """Seed 001: "Attention, sans annonce la belote n'est pas comptabilisée !"
    S does not say belote (record key "belote": {"S": false}): no 20 points;
    said (or not recorded: said), it counts."""
    unsaid = deal("seed001", P1, P1_PLAY, belote={"S": False}, **N_TAKES)
    s = run(unsaid)
    assert s["belote"] == "NS"
    assert s["belote_points"] == {"NS": 0, "EW": 0}
    assert s["score"] == {"NS": 146, "EW": 16}
    s = run(deal("seed001", P1, P1_PLAY, belote={"S": True}, **N_TAKES))
    assert s["score"] == {"NS": 166, "EW": 16}
    s = run(deal("seed001", P1, P1_PLAY, **N_TAKES))
    assert s["score"] == {"NS": 166, "EW": 16}


def test_belote_automatic_in_ffb_even_if_not_said() -> None:
    """RULES.md presets: "belote must be said when played: no (automatic)" in
    ffb: the record's "belote": {"S": false} changes nothing."""
    s = run(deal("ffb", P1, P1_PLAY, belote={"S": False}, **N_TAKES))
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["score"] == {"NS": 166, "EW": 16}


def test_belote_needs_a_trick_seed000() -> None:
    """Seed 000: the belote "vaut 20 points si l'équipe marque des points grâce
    à ses plis".  W holds it; when EW take no trick it scores nothing (ffb:
    20); when W wins a trick it counts."""
    s = run(deal("seed000", P1B, P1B_CAPOT, **W_TAKES_B))
    assert s["capot"] == "NS"
    assert s["belote"] == "EW"
    assert s["belote_points"] == {"NS": 0, "EW": 0}
    assert s["score"] == {"NS": 252, "EW": 0}
    s = run(deal("ffb", P1B, P1B_CAPOT, **W_TAKES_B))
    assert s["belote_points"] == {"NS": 0, "EW": 20}
    assert s["score"] == {"NS": 252, "EW": 20}
    s = run(deal("seed000", P1B, P1B_PLAY, **W_TAKES_B))
    assert s["card_points"] == {"NS": 136, "EW": 16}
    assert s["belote_points"] == {"NS": 0, "EW": 20}
    assert s["score"] == {"NS": 162, "EW": 20}


# --- declarations --------------------------------------------------------------

# B: N tierce K Q J of hearts (belotée); W tierce A K Q of diamonds; E quarte 10
# 9 8 7 of spades.  Hearts trump, N takes.
B = hands(
    "JH QH KH AS 9D 8D 7C AC",
    "QD KD AD JS QS 8H 9C JC",
    "KS 9H 10H 7D 10D 10C QC KC",
    "7S 8S 9S 10S 7H AH JD 8C",
)
B_TAKE: dict[str, Any] = {"turned": "JH", "bids": ["take"]}
# S wins 10C (12); S 10D JD 9D KD -> S 16; S 7D AH 8D QD -> E 14 (E trumps);
# E 9S AS JS KS -> N 17; N QH 8H 9H 7H -> S 17; S KC 8S AC 9C -> N 15;
# N KH AD 10H 7S -> S 25; S QC 10S JH QS -> N 36.  NS 138, EW 14.
B_MADE = (
    "7C JC 10C 8C  10D JD 9D KD  7D AH 8D QD  9S AS JS KS "
    "QH 8H 9H 7H  KC 8S AC 9C  KH AD 10H 7S  QC 10S JH QS"
)


def test_only_the_best_side_scores_all_its_declarations_ffb() -> None:
    """Seed 000: "Uniquement les annonces de l'équipe ayant la plus forte
    comptent, exceptée la belote qui est toujours valide" and "Toutes les
    annonces de l'équipe possédant l'annonce la plus forte seront
    comptabilisées": E's quarte (50) beats N's tierce, so EW score W's tierce
    too (70); NS keep only the belote."""
    s = run(deal("ffb", B, B_MADE, **B_TAKE))
    assert winners(s) == ["S", "S", "E", "N", "S", "N", "S", "N"]
    assert points(s) == [12, 16, 14, 17, 17, 15, 25, 36]
    assert s["card_points"] == {"NS": 138, "EW": 14}
    assert s["declarations"] == {"NS": [], "EW": ["tierce-AD", "quarte-10S"]}
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["result"] == "made"
    assert s["score"] == {"NS": 168, "EW": 84}


def test_tierce_belotee_scores_20_plus_20_ffb() -> None:
    """Seed 000: "la possession des cartes Valet, Dame, Roi à l'atout donne une
    Tierce Belotée, soit 40 points"; seed 001: "On peut également avoir des
    suites belotées, dans ce cas, on rajoutera la valeur de la belote à celle
    de la suite".  EW choose to declare nothing: N's tierce counts."""
    s = run(deal("ffb", B, B_MADE, declarations={"N": ["tierce"]}, **B_TAKE))
    assert s["declarations"] == {"NS": ["tierce-KH"], "EW": []}
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["score"] == {"NS": 188, "EW": 14}


def test_takers_declarations_go_to_the_defenders_on_dedans_ffb() -> None:
    """FFB: when the takers fail, the defenders score 162 plus all the
    declarations; the belote stays with its holders (seed 001 "hors belote").
    NS 60 + 20 + 20 = 100 against EW 92 + 10 = 102: dedans."""
    play = (
        "KH 8H 10H AH  8S AS JS KS  JH JC 9H 7H  QH KD 7D 7S "
        "8D AD 10D JD  QD 10C 8C 9D  QS KC 10S 7C  9S AC 9C QC"
    )
    s = run(deal("ffb", B, play, declarations={"N": ["tierce"]}, **B_TAKE))
    assert winners(s) == ["E", "N", "N", "N", "W", "W", "E", "E"]
    assert points(s) == [25, 17, 36, 7, 23, 13, 17, 14]
    assert s["card_points"] == {"NS": 60, "EW": 92}
    assert s["dix_de_der"] == "EW"
    assert s["declarations"] == {"NS": ["tierce-KH"], "EW": []}
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 20, "EW": 182}


# R: N tierce J 10 9 of spades, E tierce J 10 9 of diamonds: equal.
R = hands(
    "9S 10S JS AH 10H AD KC 7C",
    "AS QS KH 9H KD 7D AC 9C",
    "KS 7S QH 8H QD 8D 10C JC",
    "9D 10D JD 8S JH 7H QC 8C",
)
R_PLAY_H = (
    "JS AS 7S 8S  KD 8D 10D AD  10H 9H QH JH  8C KC 9C 10C "
    "8H 7H AH KH  10S QS KS QC  7C AC JC JD  7D QD 9D 9S"
)


def test_equal_best_declarations_none_ffb_first_declared_seed000() -> None:
    """RULES.md presets: equal best declarations: "neither team scores" (ffb);
    seed 000: "Enfin, si rien ne départage les annonces, la première annoncée
    est celle retenue" (N declares first, from the dealer's right)."""
    s = run(deal("ffb", R, R_PLAY_H, turned="10H", bids=["take"]))
    assert winners(s) == ["W", "N", "E", "S", "N", "N", "W", "S"]
    assert points(s) == [13, 25, 47, 14, 15, 20, 15, 3]
    assert s["card_points"] == {"NS": 77, "EW": 75}
    assert s["declarations"] == {"NS": [], "EW": []}
    assert s["score"] == {"NS": 87, "EW": 75}
    s = run(deal("seed000", R, R_PLAY_H, turned="10H", bids=["take"]))
    assert s["declarations"] == {"NS": ["tierce-JS"], "EW": []}
    assert s["score"] == {"NS": 107, "EW": 75}


def test_trump_sequence_beats_an_equal_sequence_seed000() -> None:
    """Seed 000: "Si l'égalité persiste, la séquence à l'atout est la plus
    forte"; seed 001: "A hauteur et longueur égales, c'est la suite à l'atout
    qui sera la plus forte".  N names diamonds in round two: E's tierce wins."""
    play = (
        "10S QS KS 8S  JS AS 7S JD  QC 7C AC JC  9C 10C 8C KC "
        "QH JH AH KH  9S 7D 8D 9D  7H 10H 9H 8H  AD KD QD 10D"
    )
    s = run(deal("ffb", R, play, turned="10H", bids=["pass"] * 4 + ["D"]))
    assert s["trump"] == "D"
    assert winners(s) == ["N", "E", "W", "S", "N", "E", "N", "N"]
    assert points(s) == [17, 33, 16, 14, 20, 14, 10, 28]
    assert s["card_points"] == {"NS": 89, "EW": 63}
    assert s["declarations"] == {"NS": [], "EW": ["tierce-JD"]}
    assert s["score"] == {"NS": 99, "EW": 83}


# Q: every hand holds two carrés.  N: aces and tens; W: kings and queens (and
# the belote); S: jacks and nines; E: eights and sevens.
Q = hands(
    "AS 10S AH 10H AD 10D AC 10C",
    "KS QS KH QH KD QD KC QC",
    "JS 9S JH 9H JD 9D JC 9C",
    "8S 7S 8H 7H 8D 7D 8C 7C",
)
# N AH, W KH, S JH, E 7H -> S 35; S 9H 8H 10H QH -> S 27; S JS 8S AS KS -> N 17;
# then N wins 10S, AD, 10D, AC, 10C: 13 17 13 17 13.  NS capot.
Q_PLAY = (
    "AH KH JH 7H  9H 8H 10H QH  JS 8S AS KS  10S QS 9S 7S "
    "AD KD JD 8D  10D QD 9D 7D  AC KC JC 8C  10C QC 9C 7C"
)


def test_carre_values_and_capot_with_declarations_ffb() -> None:
    """Seed 000: carrés "Valet 200 points Neuf 150 points As, 10, Rois, Dames
    100 points"; S's carré of jacks is the best, so NS score their four carrés
    (100 + 100 + 200 + 150 = 550) on top of the capot (252); W's carrés of
    kings and queens do not count, his belote does.  E's carrés of 8s and 7s
    score nothing (seed 001: "Carré de 8 aucun point")."""
    s = run(deal("ffb", Q, Q_PLAY, turned="AH", bids=["take"]))
    assert winners(s) == ["S", "S", "N", "N", "N", "N", "N", "N"]
    assert points(s) == [35, 27, 17, 13, 17, 13, 17, 13]
    assert s["declarations"] == {
        "NS": ["carre-A", "carre-10", "carre-J", "carre-9"],
        "EW": [],
    }
    assert s["belote"] == "EW"
    assert s["belote_points"] == {"NS": 0, "EW": 20}
    assert s["capot"] == "NS"
    assert s["result"] == "capot"
    assert s["score"] == {"NS": 802, "EW": 20}


def test_carre_of_sevens_cancels_the_deal_seed001() -> None:
    """Seed 001: "Un carré de 7 annule la partie."  E holds the four 7s: the
    deal ends after the auction, nothing is scored and no card is played."""
    s = run(deal("seed001", Q, "", turned="AH", bids=["take"]))
    assert s["result"] == "cancelled"
    assert s["tricks"] == []
    assert s["score"] == {"NS": 0, "EW": 0}
    assert s["held_over"] == 0


# --- Tout Atout / Sans Atout (seed 000) ---------------------------------------

TA_PLAY = (
    "7C KC 10C JC  7D AD KD JD  KH 8H 9H 10H  JH AH QH 7H "
    "AS QS 9S 7S  QC 8C AC 9C  QD 9D 8D 10D  JS 8S KS 10S"
)
SA_PLAY = (
    "7C KC 10C JC  9D 8D AD KD  JH AH QH 7H  10H KH 8H 9H "
    "QS JS 7S KS  AC 9C QC 8C  10D QD JD 7D  AS 10S 9S 8S"
)


def test_tout_atout_made_counts_triple_seed000() -> None:
    """Seed 000: "Les parties Tout Atout comptent le triple des points"; every
    suit ranks like trump (J 9 A 10 K Q 8 7) with the usual Tout Atout points
    (J 14, 9 9, A 6, 10 5, K 3, Q 1: 152); "A Tout Atout, il peut y avoir 4
    Belotes": S (hearts) and W (diamonds) each hold one."""
    s = run(deal("seed000-tout-atout", P1, TA_PLAY, turned="9H", bids=["TA"] + ["pass"] * 3))
    assert s["trump"] == "TA"
    assert winners(s) == ["E", "S", "N", "N", "S", "W", "S", "S"]
    assert points(s) == [22, 23, 17, 21, 16, 16, 15, 22]
    assert s["card_points"] == {"NS": 114, "EW": 38}
    assert s["belote"] == ["NS", "EW"]
    assert s["belote_points"] == {"NS": 20, "EW": 20}
    assert s["result"] == "made"
    assert s["score"] == {"NS": 3 * 144, "EW": 3 * 58}


def test_tout_atout_dedans_counts_triple_seed000() -> None:
    """Seed 000 (triple) with the dedans of seed 001 ("L'équipe adverse marque
    162 points"): W bids TA and fails: NS (162 + 20) x 3, EW keep their belote
    x 3."""
    s = run(
        deal(
            "seed000-tout-atout",
            P1,
            TA_PLAY,
            turned="AH",
            bids=["pass", "TA", "pass", "pass", "pass"],
        )
    )
    assert s["taker"] == "W"
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 546, "EW": 60}


def test_sans_atout_made_counts_double_seed000() -> None:
    """Seed 000: "Les parties Sans Atout comptent le double des points" and "A
    Sans Atout, il n'y a évidemment pas de Belote"; usual points A 19, 10 10,
    K 4, Q 3, J 2 (152)."""
    s = run(deal("seed000-tout-atout", P1, SA_PLAY, turned="9H", bids=["SA"] + ["pass"] * 3))
    assert s["trump"] == "SA"
    assert winners(s) == ["S", "N", "W", "W", "N", "N", "N", "N"]
    assert points(s) == [16, 23, 24, 14, 9, 22, 15, 29]
    assert s["card_points"] == {"NS": 114, "EW": 38}
    assert s["belote"] is None
    assert s["belote_points"] == {"NS": 0, "EW": 0}
    assert s["score"] == {"NS": 248, "EW": 76}


def test_sans_atout_dedans_counts_double_seed000() -> None:
    """Seed 000 (double): W bids SA and fails: NS score 162 x 2."""
    s = run(
        deal(
            "seed000-tout-atout",
            P1,
            SA_PLAY,
            turned="AH",
            bids=["pass", "SA", "pass", "pass", "pass"],
        )
    )
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 324, "EW": 0}


# --- coinche (club rules, RULES.md "Coinche") ---------------------------------


@pytest.mark.parametrize(
    ("bids", "multiplier", "ns"),
    [
        (["80H", "pass", "pass", "pass"], 1, 80 + 146 + 20),
        (["80H", "coinche", "pass", "pass"], 2, 160 + 146 + 20),
        (["80H", "coinche", "surcoinche"], 4, 320 + 146 + 20),
    ],
)
def test_coinche_made_contract_plus_points(bids: list[str], multiplier: int, ns: int) -> None:
    """RULES.md coinche: "made: takers score contract + points made, defenders
    their points ... coinche x2, surcoinche x4 on the contract; belote always
    to its holders, outside the multiplier"."""
    s = run(deal("coinche", P1, P1_PLAY, bids=bids))
    assert s["contract"] == "80H"
    assert s["multiplier"] == multiplier
    assert s["trump"] == "H"
    assert s["result"] == "made"
    assert s["score"] == {"NS": ns, "EW": 16}


@pytest.mark.parametrize(
    ("bids", "ew_side"),
    [
        (["pass", "80H", "pass", "pass", "pass"], 160 + 80),
        (["pass", "80H", "coinche", "pass", "pass"], 160 + 160),
        (["pass", "80H", "coinche", "surcoinche"], 160 + 320),
    ],
)
def test_coinche_failed_defenders_160_plus_contract(bids: list[str], ew_side: int) -> None:
    """RULES.md coinche: "failed: defenders score 160 + contract; coinche x2,
    surcoinche x4 on the contract"; the defenders NS keep their belote (+20)."""
    s = run(deal("coinche", P1, P1_PLAY, bids=bids))
    assert s["taker"] == "W"
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": ew_side + 20, "EW": 0}


def test_coinche_belote_helps_reach_the_contract() -> None:
    """RULES.md coinche: "made when the takers' points (cards, dix de der,
    belote) reach the contract": 146 + 20 = 166 reaches 160."""
    s = run(deal("coinche", P1, P1_PLAY, bids=["160H", "pass", "pass", "pass"]))
    assert s["result"] == "made"
    assert s["score"] == {"NS": 160 + 146 + 20, "EW": 16}


def test_coinche_contract_reached_but_tied_fails() -> None:
    """RULES.md coinche: the takers must reach the contract "and beat the
    defenders'": 81 reaches 80 but ties 81, so the contract fails."""
    s = run(deal("coinche", L, L_PLAY, bids=["80H", "pass", "pass", "pass"]))
    assert s["card_points"] == {"NS": 71, "EW": 81}
    assert s["result"] == "dedans"
    assert s["held_over"] == 0
    assert s["score"] == {"NS": 0, "EW": 240}


def test_coinche_capot_contract() -> None:
    """RULES.md coinche: "capot (250)" is a contract for all 8 tricks.  Made:
    250 + the capot's 250 + belote; one trick lost: the defenders score
    160 + 250 (x2 when coinched), the takers keep their belote."""
    s = run(deal("coinche", P1, P1_CAPOT, bids=["capotH", "pass", "pass", "pass"]))
    assert s["contract"] == "capotH"
    assert s["capot"] == "NS"
    assert s["result"] == "capot"
    assert s["score"] == {"NS": 520, "EW": 0}
    s = run(deal("coinche", P1, P1_PLAY, bids=["capotH", "pass", "pass", "pass"]))
    assert s["result"] == "dedans"
    assert s["score"] == {"NS": 20, "EW": 410}
    s = run(deal("coinche", P1, P1_PLAY, bids=["capotH", "coinche", "pass", "pass"]))
    assert s["multiplier"] == 2
    assert s["score"] == {"NS": 20, "EW": 660}


# --- three players (seeds 000 and 003) ----------------------------------------

H3 = {
    "W": cards("AS KS JH 9H AD QD 10C 9C"),
    "S": cards("10S JS AH KH 10D 9D AC QC"),
    "E": cards("QS 9S 10H QH KD JD KC JC"),
}
# W AS 10S QS -> W 24; AD 10D JD -> W 23; JH AH 10H -> W 41; 10C AC JC -> S 23;
# S 9D KD QD -> E 7; E KC 9C QC -> E 7; E 9S KS JS -> W 6; W 9H KH QH -> W 21.
H3_PLAY = "AS 10S QS  AD 10D JD  JH AH 10H  10C AC JC  9D KD QD  KC 9C QC  9S KS JS  9H KH QH"


def test_three_players_taker_beats_each_opponent() -> None:
    """RULES.md "Three players": 24 cards without 7s and 8s (still 152 + 10),
    each for himself; the taker W (125) beats S (23) and E (14): each scores
    his points."""
    s = run(deal("three-players", H3, H3_PLAY, turned="9H", bids=["take"]))
    assert [t["leader"] for t in s["tricks"]][:2] == ["W", "W"]
    assert winners(s) == ["W", "W", "W", "S", "E", "E", "W", "W"]
    assert points(s) == [24, 23, 41, 23, 7, 7, 6, 21]
    assert s["card_points"] == {"W": 115, "S": 23, "E": 14}
    assert s["dix_de_der"] == "W"
    assert s["result"] == "made"
    assert s["score"] == {"W": 125, "S": 23, "E": 14}


def test_three_players_taker_must_beat_each_opponent_else_81_each() -> None:
    """RULES.md "Three players": "The taker must score more than each opponent,
    else each opponent scores 81."  S takes: 23 beats E's 14 but not W's 125."""
    s = run(deal("three-players", H3, H3_PLAY, turned="KH", bids=["pass", "take"]))
    assert s["taker"] == "S"
    assert s["card_points"] == {"W": 115, "S": 23, "E": 14}
    assert s["result"] == "dedans"
    assert s["score"] == {"W": 81, "S": 0, "E": 81}
