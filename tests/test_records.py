"""Deal and match records: replay, round trip, and errors.

The record format and the replay summary are an external contract (the
docstring of :mod:`rebelote.record`).  Expected values were computed by hand
from the card tables of RULES.md; the match rules (litige, target) come from
seed 003 ("Litige") and seeds 000 / 001 (the end of a match).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rebelote.actions import Play
from rebelote.cards import parse_card
from rebelote.record import (
    IllegalRecordError,
    RecordError,
    deal_summary,
    replay,
    replay_deal,
    state_to_record,
)
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.simulate import random_deal, random_match
from rebelote.state import IllegalActionError, State

Record = dict[str, Any]
SEATS = "NWSE"  # counter-clockwise playing order

# Hearts trump, dealer E: N speaks first and leads.  S holds the belote.
P1 = {
    "N": "JH 9H AS KS AD 10D AC 7C",
    "W": "AH 10H QS 10S KD QD KC 9C",
    "S": "KH QH JS 9S JD 9D QC 10C",
    "E": "8H 7H 8S 7S 8D 7D JC 8C",
}
# Tricks: N 34, N 28, N 14, W 16, N 17, N 13, N 14, S 16: NS 136 + 10 + belote
# 20 = 166, EW 16.
P1_PLAY = (
    "JH 10H KH 7H  9H AH QH 8H  AS QS 9S 7S  KS 10S JS 8S "
    "KD JD 8D AD  10D QD 9D 7D  AC 9C QC 8C  7C KC 10C JC"
)
# N takes, 81 to 81: a litige (NS hold 81 over, EW score 81).
L = {
    "N": "10S AS 10H QH 8D JD 10C 8C",
    "W": "JS KS 7H JH QD 10D AC KC",
    "S": "QS 7S 8H KH AD 7D QC 9C",
    "E": "8S 9S AH 9H 9D KD 7C JC",
}
L_PLAY = (
    "JD 10D AD KD  7D 9D 8D QD  KC 9C 7C 10C  10S JS 7S 8S "
    "8C AC QC JC  7H 8H 9H QH  AH 10H JH KH  KS QS 9S AS"
)

SUMMARY_KEYS = {
    "trump",
    "taker",
    "contract",
    "tricks",
    "card_points",
    "dix_de_der",
    "declarations",
    "belote",
    "belote_points",
    "capot",
    "result",
    "held_over",
    "score",
}


def deal(
    held: dict[str, str],
    play: str,
    *,
    turn: int = 0,
    rules: str | dict[str, Any] | None = "ffb",
    dealer: str = "E",
    turned: str = "9H",
    bids: list[str] | None = None,
) -> Record:
    """A deal record; ``turn`` moves every seat (and the dealer) that many
    places to the right, so that the same cards are played by the next seats
    (one place: the sides swap)."""

    def moved(seat: str) -> str:
        return SEATS[(SEATS.index(seat) + turn) % 4]

    record: Record = {"format": 1}
    if rules is not None:
        record["rules"] = rules
    record.update(
        dealer=moved(dealer),
        hands={moved(seat): cards.split() for seat, cards in held.items()},
        turned=turned,
        bids=["take"] if bids is None else bids,
        play=play.split(),
    )
    return record


def p1(turn: int = 0, **kw: Any) -> Record:
    """P1: N (or the seat ``turn`` places right of N) takes and makes 166 to 16."""
    return deal(P1, P1_PLAY, turn=turn, **kw)


def litige(turn: int = 0) -> Record:
    """L: a litige, 81 to 81."""
    return deal(L, L_PLAY, turn=turn, turned="10H")


def passed(turn: int) -> Record:
    """A deal where all pass twice."""
    return deal(P1, "", turn=turn, bids=["pass"] * 8)


def match(*deals: Record, rules: str | dict[str, Any] = "ffb") -> Record:
    """A match record; its deals inherit the rules."""
    return {"format": 1, "rules": rules, "deals": [dict(d, rules=rules) for d in deals]}


# --- deal records --------------------------------------------------------------


def test_replay_deal_record_summary() -> None:
    """record.py docstring: a deal record replays to one summary with trump,
    taker, contract, tricks (leader, cards from the leader, winner, points),
    card points, dix de der, declarations, belote, capot, result, held_over,
    score."""
    s = replay(p1())
    assert set(s) >= SUMMARY_KEYS
    assert s["trump"] == "H"
    assert s["taker"] == "N"
    assert s["contract"] is None
    assert s["tricks"][0] == {
        "leader": "N",
        "cards": ["JH", "10H", "KH", "7H"],
        "winner": "N",
        "points": 34,
    }
    assert s["tricks"][4] == {
        "leader": "W",
        "cards": ["KD", "JD", "8D", "AD"],
        "winner": "N",
        "points": 17,
    }
    assert s["card_points"] == {"NS": 136, "EW": 16}
    assert s["dix_de_der"] == "NS"
    assert s["declarations"] == {"NS": [], "EW": []}
    assert s["belote"] == "NS"
    assert s["belote_points"] == {"NS": 20, "EW": 0}
    assert s["capot"] is None
    assert s["result"] == "made"
    assert s["held_over"] == 0
    assert s["score"] == {"NS": 166, "EW": 16}


def test_turned_deal_swaps_the_sides() -> None:
    """Seats play counter-clockwise N W S E: the same deal moved one seat to
    the right is played by W (EW take) and scores 16 to 166."""
    s = replay(p1(1))
    assert s["dealer"] == "N"
    assert s["taker"] == "W"
    assert s["tricks"][0]["leader"] == "W"
    assert s["score"] == {"NS": 16, "EW": 166}


def test_passed_deal() -> None:
    """RULES.md: "If all pass again, the cards are gathered and the next deal
    starts": result ``passed``, nothing scored."""
    s = replay(passed(0))
    assert s["result"] == "passed"
    assert s["taker"] is None
    assert s["tricks"] == []
    assert s["score"] == {"NS": 0, "EW": 0}


def test_record_that_stops_early_replays_to_where_it_stops() -> None:
    """record.py: "Fewer bids or cards than a whole deal stop the replay
    there": 13 cards are 3 tricks and one card; no result yet."""
    s = replay(deal(P1, " ".join(P1_PLAY.split()[:13])))
    assert s["complete"] is False
    assert s["result"] is None
    assert [t["winner"] for t in s["tricks"]] == ["N", "N", "N"]
    assert s["score"] == {"NS": 0, "EW": 0}


def test_round_two_may_name_the_turned_suit_seed001_only() -> None:
    """Seed 001: round two, "chacun peut choisir une quelconque couleur";
    ffb (and seeds 000, 002: "sauf la couleur de la carte") refuse it."""
    bids = ["pass"] * 4 + ["H"]
    s = replay(p1(bids=bids, rules="seed001"))
    assert s["trump"] == "H"
    assert s["score"] == {"NS": 166, "EW": 16}
    with pytest.raises(IllegalRecordError) as info:
        replay(p1(bids=bids))
    assert info.value.payload == {
        "error": "illegal bid",
        "message": "illegal bid 'H' by N",
        "seat": "N",
        "bid": "H",
        "legal": ["pass", "S", "D", "C"],
    }


# --- match records -------------------------------------------------------------


def test_litige_points_go_to_next_deal_winner_seed003() -> None:
    """Seed 003: "En cas d'égalité, l'équipe qui a pris l'atout ne marque pas de
    points et ceux-ci sont reportés sur la manche suivante au profit du
    vainqueur."  The 81 wait through a passed deal; NS win the third deal and
    its score includes them: 166 + 81."""
    s = replay(match(litige(0), passed(1), p1(2)))
    d1, d2, d3 = s["deals"]
    assert d1["result"] == "litige"
    assert d1["held_over"] == 81
    assert d1["score"] == {"NS": 0, "EW": 81}
    assert d1["totals"] == {"NS": 0, "EW": 81}
    assert d2["result"] == "passed"
    assert d2["score"] == {"NS": 0, "EW": 0}
    assert d2["totals"] == {"NS": 0, "EW": 81}
    assert d3["result"] == "made"
    assert d3["taker"] == "S"
    assert d3["score"] == {"NS": 247, "EW": 16}
    assert d3["released"] == 81
    assert s["totals"] == {"NS": 247, "EW": 97}
    assert s["held_over"] == 0
    assert s["winner"] is None


@pytest.mark.parametrize(
    ("second", "score", "totals"),
    [
        # EW (the defenders of the litige) take and make 166: 166 + 81.
        (p1(1), {"NS": 16, "EW": 247}, {"NS": 16, "EW": 328}),
        # S takes and fails: EW (defenders, holding the belote) score 162 + 20,
        # and the 81.
        (p1(1, turned="10H", bids=["pass", "take"]), {"NS": 0, "EW": 263}, {"NS": 0, "EW": 344}),
    ],
)
def test_litige_points_go_to_the_next_deal_winner_whoever_took_seed003(
    second: Record, score: dict[str, int], totals: dict[str, int]
) -> None:
    """Seed 003: held points go "au profit du vainqueur" of the next deal: the
    takers when they make it, the defenders when the takers fail."""
    s = replay(match(litige(0), second))
    assert s["deals"][1]["score"] == score
    assert s["totals"] == totals


def test_two_litiges_in_a_row_hold_both() -> None:
    """Seed 003: each tie's takers' points are held over; a second tie adds its
    own (81 + 81) for the next deal's winner."""
    s = replay(match(litige(0), litige(2), p1(0)))
    assert [d["held_over"] for d in s["deals"]] == [81, 81, 0]
    assert s["deals"][1]["score"] == {"NS": 0, "EW": 81}
    assert s["deals"][2]["score"] == {"NS": 166 + 162, "EW": 16}
    assert s["totals"] == {"NS": 328, "EW": 178}


def test_match_target_both_past_higher_total_wins_equal_totals_one_more_deal() -> None:
    """Seed 000: "Dans le cas où les deux équipes atteignent dans le même tour
    ce score, celle ayant le plus de points est gagnante"; seed 001: "Si leur
    total est identique, une donne supplémentaire est effectuée pour les
    départager".  Target 170: 166 | 182 = 182 (no winner) | 348 > 198: NS."""
    rules = {"preset": "ffb", "target": 170}
    s = replay(match(p1(0), p1(1), rules=rules))
    assert s["totals"] == {"NS": 182, "EW": 182}
    assert s["winner"] is None
    s = replay(match(p1(0), p1(1), p1(2), rules=rules))
    assert [d["totals"] for d in s["deals"]] == [
        {"NS": 166, "EW": 16},
        {"NS": 182, "EW": 182},
        {"NS": 348, "EW": 198},
    ]
    assert s["winner"] == "NS"
    assert s["rules"] == {"preset": "ffb", "target": 170}
    with pytest.raises(RecordError, match="deal 4 comes after the match was won") as info:
        replay(match(p1(0), p1(1), p1(2), p1(3), rules=rules))
    assert info.value.payload["deal"] == 4


def test_match_reaching_the_target_wins_seed002() -> None:
    """Seed 002: "Quand une équipe a atteint 501 points, la partie est gagnée"
    (checked with a target of 300: 166, then 332)."""
    rules = {"preset": "ffb", "target": 300}
    s = replay(match(p1(0), p1(2), rules=rules))
    assert s["totals"] == {"NS": 332, "EW": 32}
    assert s["winner"] == "NS"


def test_match_error_names_the_deal() -> None:
    """A match record with an illegal card in its second deal: the error names
    the deal (1-based) and nothing is returned."""
    bad = p1(2)
    bad["play"][9] = "KD"  # E, second to play in trick 3, holds spades
    with pytest.raises(IllegalRecordError) as info:
        replay(match(p1(0), bad))
    assert info.value.payload["deal"] == 2
    assert info.value.payload["error"] == "illegal card"
    assert info.value.payload["seat"] == "E"
    assert info.value.payload["trick"] == 3


def test_match_deal_with_other_rules_is_refused() -> None:
    """A match is played under one rule set."""
    record = match(p1(0), p1(1))
    record["deals"][1]["rules"] = "seed001"
    with pytest.raises(RecordError, match="a deal's rules differ from the match's"):
        replay(record)


# --- round trip ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("ffb", 7),
        ("ffb", 11),
        ("seed000", 3),
        ("seed000-tout-atout", 5),
        ("seed001", 2),
        ("seed002", 4),
        ("seed003", 6),
        ("coinche", 8),
        ("three-players", 9),
        ("ffb-coinche", 10),
    ],
)
def test_round_trip_state_to_record_replays_to_the_same_summary(name: str, seed: int) -> None:
    """record.py: ``state_to_record`` of a deal played from its deck replays (also
    through JSON text) to the same summary."""
    state = random_deal(preset(name), random.Random(seed))
    record = state_to_record(state)
    assert record["rules"] == name
    assert len(record["deck"]) == preset(name).cards_per_deal
    again = json.loads(json.dumps(record))
    assert replay(again) == deal_summary(state)
    assert state_to_record(replay_deal(again).state) == record


def test_round_trip_match_record() -> None:
    """A whole random match written deal by deal replays to the same totals
    and winner (seed 002: 501 points)."""
    played, states = random_match(preset("seed002"), random.Random(3))
    record = {
        "format": 2,
        "rules": "seed002",
        "deals": [state_to_record(s) for s in states],
    }
    s = replay(json.loads(json.dumps(record)))
    assert len(s["deals"]) == len(states)
    assert s["totals"] == {"NS": played.totals[0], "EW": played.totals[1]}
    assert played.winner is not None
    assert s["winner"] == ("NS", "EW")[played.winner]
    assert max(played.totals) >= 501


# --- errors: illegal card and bid ----------------------------------------------


def test_illegal_card_payload_names_trick_seat_card_and_legal_cards() -> None:
    """Seed 001: "si le joueur possède au moins une carte de la couleur d'entame
    ... il doit jouer l'une de ces cartes": trick 3, N leads AS, W holds QS
    10S and plays KD."""
    record = p1()
    record["play"][9] = "KD"
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload == {
        "error": "illegal card",
        "message": "illegal card KD by W at trick 3",
        "trick": 3,
        "seat": "W",
        "card": "KD",
        "legal": ["10S", "QS"],
    }


def test_illegal_card_must_follow_trump_led() -> None:
    """Seed 001: "il doit jouer l'une de ces cartes" (the trump led): trick 1,
    N leads JH, W (AH 10H, none higher than the jack) plays KC instead."""
    record = p1()
    record["play"][1] = "KC"
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload["trick"] == 1
    assert info.value.payload["seat"] == "W"
    assert info.value.payload["card"] == "KC"
    assert info.value.payload["legal"] == ["10H", "AH"]


def test_card_not_in_hand_is_illegal() -> None:
    """A card of another hand: trick 1, W plays S's KH."""
    record = p1()
    record["play"][1] = "KH"
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload["legal"] == ["10H", "AH"]
    assert info.value.payload["card"] == "KH"


def test_illegal_bid_payload_names_seat_bid_and_legal_bids() -> None:
    """Round one offers only the turned suit ("take") or pass (RULES.md
    common ground): N names D in round one."""
    with pytest.raises(IllegalRecordError) as info:
        replay(p1(bids=["D"]))
    assert info.value.payload == {
        "error": "illegal bid",
        "message": "illegal bid 'D' by N",
        "seat": "N",
        "bid": "D",
        "legal": ["pass", "take"],
    }


def test_illegal_coinche_bid_must_beat_the_last() -> None:
    """RULES.md coinche: "A bid must beat the last one": after 90S, W's 80H is
    refused; the legal bids start at 100."""
    record = p1(rules="coinche", bids=["90S", "80H"])
    del record["turned"]
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    payload = info.value.payload
    assert (payload["error"], payload["seat"], payload["bid"]) == ("illegal bid", "W", "80H")
    assert payload["legal"][:6] == ["pass", "100S", "100H", "100D", "100C", "110S"]
    assert payload["legal"][-2:] == ["capotC", "coinche"]
    assert len(payload["legal"]) == 1 + 8 * 4 + 1


B = {
    "N": "JH QH KH AS 9D 8D 7C AC",
    "W": "QD KD AD JS QS 8H 9C JC",
    "S": "KS 9H 10H 7D 10D 10C QC KC",
    "E": "7S 8S 9S 10S 7H AH JD 8C",
}
B_PLAY = (
    "7C JC 10C 8C  10D JD 9D KD  7D AH 8D QD  9S AS JS KS "
    "QH 8H 9H 7H  KC 8S AC 9C  KH AD 10H 7S  QC 10S JH QS"
)


def test_record_declarations_choose_what_is_declared_seed000() -> None:
    """Seed 000: "Cette annonce n'est pas obligatoire": the record's
    "declarations" say what each seat declared (absent: everything).  N
    tierce K Q J of hearts, W tierce A K Q of diamonds, E quarte 10 9 8 7 of
    spades: E's quarte is the best, EW score 70; if only N declares, NS 20."""
    s = replay(deal(B, B_PLAY, turned="JH"))
    assert s["declarations"] == {"NS": [], "EW": ["tierce-AD", "quarte-10S"]}
    assert s["score"] == {"NS": 168, "EW": 84}
    record = deal(B, B_PLAY, turned="JH")
    record["declarations"] = {"N": ["tierce-KH"], "W": [], "E": []}
    s = replay(record)
    assert s["declarations"] == {"NS": ["tierce-KH"], "EW": []}
    assert s["score"] == {"NS": 188, "EW": 14}


def test_illegal_declaration_the_hand_does_not_hold() -> None:
    """A record may not declare what a hand does not hold: N has only a
    tierce, not a quarte; W has no declaration at all (this used to be
    ignored silently); and ffb-no-declarations has none."""
    record = deal(B, B_PLAY, turned="JH")
    record["declarations"] = {"N": ["quarte"]}
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload == {
        "error": "illegal declaration",
        "message": "illegal declaration by N: no 'quarte' in this hand "
        "(its declarations: tierce-KH)",
        "seat": "N",
        "declarations": ["quarte"],
        "legal": ["tierce-KH"],
    }
    record = p1()
    record["declarations"] = {"W": ["tierce"]}
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload["seat"] == "W"
    assert info.value.payload["legal"] == []
    record = deal(B, B_PLAY, turned="JH", rules="ffb-no-declarations")
    record["declarations"] = {"N": ["tierce"]}
    with pytest.raises(IllegalRecordError, match="illegal declaration by N"):
        replay(record)


# --- errors: malformed records -------------------------------------------------


def malformed(record: Record) -> str:
    """The message of the RecordError (not an illegal move) a record raises."""
    with pytest.raises(RecordError) as info:
        replay(record)
    assert not isinstance(info.value, IllegalRecordError)
    assert info.value.payload["error"] == "malformed record"
    return str(info.value)


SORTED_DECK = [f"{r}{s}" for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def deck_record(**changes: Any) -> Record:
    """A deal record given by its (sorted) deck; dealer E, 3-2: 20 cards dealt,
    the turned card is JD (the 21st card)."""
    record: Record = {
        "format": 1,
        "rules": "ffb",
        "dealer": "E",
        "deck": list(SORTED_DECK),
        "pattern": "3-2",
        "bids": [],
        "play": [],
    }
    record.update(changes)
    return record


def test_deck_record_deals_3_then_2_from_the_dealers_right() -> None:
    """Seed 001: "le donneur distribue les cartes ... en commençant par son
    voisin de droite ... trois cartes ... puis deux", then turns the next card."""
    state = replay_deal(deck_record()).state
    assert state.turned == parse_card("JD")
    assert state.hands[0] == sum(1 << parse_card(c) for c in ["7S", "8S", "9S", "JH", "QH"])
    assert replay(deck_record(turned="JD"))["complete"] is False


def test_malformed_card_twice() -> None:
    """A card twice in the hands."""
    record = p1()
    record["hands"]["E"][0] = "JH"
    assert malformed(record) == "the hands: JH appears twice"
    assert malformed(deck_record(deck=[*SORTED_DECK[:31], "7S"])) == "the deck: 7S appears twice"


def test_malformed_hand_of_7() -> None:
    """Each player has 8 cards (seed 001: "Chaque joueur dispose donc de 8
    cartes")."""
    record = p1()
    record["hands"]["W"] = record["hands"]["W"][:7]
    assert malformed(record) == "the hand of W has 7 cards, not 8"


def test_malformed_unknown_preset() -> None:
    """An unknown preset is named, with the known ones."""
    message = malformed(p1(rules="belote-x"))
    assert message.startswith("unknown preset 'belote-x': known presets are ffb, ")
    assert "three-players" in message


def test_malformed_unknown_option() -> None:
    """An unknown rule option is named."""
    assert "unknown rule option(s): colour" in malformed(p1(rules={"preset": "ffb", "colour": 1}))


def test_malformed_deck_of_31() -> None:
    """RULES.md: 32 cards."""
    assert (
        malformed(deck_record(deck=SORTED_DECK[:31])) == "the deck has 31 cards; this game needs 32"
    )


def test_malformed_bad_seat() -> None:
    """Seats are N, W, S, E; the three-player game has no N."""
    assert malformed(dict(p1(), dealer="X")) == "dealer must be a seat letter N, E, S or W, not 'X'"
    record = p1()
    record["hands"]["Q"] = record["hands"].pop("E")
    assert malformed(record) == "hands must be a seat letter N, E, S or W, not 'Q'"
    three = deck_record(rules="three-players", dealer="N", deck=SORTED_DECK[:24])
    assert malformed(three) == "dealer: seat N is not at this table"


def test_malformed_bad_pattern() -> None:
    """Seeds 000 and 001: 3 then 2 or 2 then 3; seed 002: 3 then 2 only."""
    expected = "pattern must be '3-2', '2-3' or '3-3-2', not '4-1'"
    assert malformed(deck_record(pattern="4-1")) == expected
    seed002 = deck_record(rules="seed002", pattern="2-3")
    assert malformed(seed002) == "pattern '2-3' is not allowed here (use 3-2)"


def test_malformed_other_errors() -> None:
    """Unreadable cards and bids, a wrong turned card, a turned card that the
    taker does not hold, cards played in a deal not played."""
    assert malformed(deck_record(deck=[*SORTED_DECK[:31], "1C"])).startswith(
        "deck: not a card: '1C'"
    )
    assert malformed(deck_record(turned="AC")) == "turned is AC but this deck turns JD"
    assert malformed(deck_record(bids=["pass", "hold"])).startswith("bid 2: not a bid: 'hold'")
    assert malformed(p1(turned="8H")) == "the turned card 8H is not in the hand of the taker N"
    assert malformed(dict(p1(), format=3)) == "unknown record format 3: this reads formats 1 and 2"
    assert malformed(dict(p1(), format=2)) == (
        "'bids', 'hands', 'play', 'turned': format 1 keys in a format 2 record, "
        "which lists its 'actions'"
    )
    both = dict(deck_record(), hands=p1()["hands"])
    assert malformed(both) == "a deal record needs either 'deck' or 'hands' (not both)"
    early = p1(bids=["pass"])
    assert malformed(early) == "the record plays cards before the auction ended"
    void = passed(0)
    void["play"] = ["JH"]
    assert malformed(void) == "the record plays cards in a deal that was not played"


# --- nothing is half-applied ---------------------------------------------------


def test_illegal_action_leaves_the_state_unchanged() -> None:
    """An illegal card changes nothing: same hands, same trick, same turn, and
    the legal card is then accepted."""
    state = replay_deal(deal(P1, " ".join(P1_PLAY.split()[:9]))).state
    before = (list(state.hands), list(state.trick_cards), state.current, len(state.tricks))
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(parse_card("KD")))
    assert info.value.legal == ["10S", "QS"]
    assert info.value.trick == 3
    assert (list(state.hands), list(state.trick_cards), state.current, len(state.tricks)) == before
    assert state.legal_actions() == legal
    state.apply(Play(parse_card("QS")))
    assert state.trick_cards == [parse_card("AS"), parse_card("QS")]


def test_failed_replay_does_not_touch_the_record() -> None:
    """A replay that fails returns nothing and leaves its record as it was."""
    record = match(litige(0), p1(1))
    record["deals"][1]["play"][1] = "KC"
    kept = copy.deepcopy(record)
    with pytest.raises(IllegalRecordError):
        replay(record)
    assert record == kept


def test_three_player_deck_without_7s_and_8s() -> None:
    """Three-player hands must not hold 7s or 8s (RULES.md: "Remove the 7s and
    8s")."""
    rules = preset("three-players")
    with pytest.raises(ValueError, match="the three-player game uses no 7s or 8s"):
        State.from_deck(rules, Seat.E, [parse_card(c) for c in SORTED_DECK[8:]])
