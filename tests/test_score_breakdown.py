"""How a deal's score adds up (:func:`rebelote.scoring.explain_deal`, the
``breakdown`` of :func:`rebelote.record.deal_summary`), line by line, with
exact points for known deals: the deals of ``test_scoring.py``, whose trick
points were counted by hand there from the card tables of RULES.md.

Each breakdown names the points each side made (cards, dix de der, capot,
declarations, belote), the contract's verdict and why, and what each side
scores, multipliers and rounding included; the scored lines add up to the
deal's score."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from rebelote.record import replay
from rebelote.rules import PRESETS, Rules, preset
from rebelote.scoring import DealResult, explain_deal
from rebelote.simulate import random_deal
from test_options import (
    CAPOT_DECL,
    CAPOT_DECL_SCRIPT,
    COINCHE_SCRIPT,
    TWO,
    finished,
    play,
)
from test_options import deal as options_deal
from test_scoring import (
    B_TAKE,
    H3,
    H3_PLAY,
    L_PLAY,
    L_TAKE,
    N_TAKES,
    P1,
    P1_CAPOT,
    P1_PLAY,
    SA_PLAY,
    TA_PLAY,
    W_TAKES,
    B,
    L,
    deal,
    run,
)


def breakdown(record: dict[str, Any]) -> dict[str, Any]:
    """The summary's breakdown of a replayed deal; its scored lines add up
    to the summary's score."""
    s = run(record)
    b: dict[str, Any] = s["breakdown"]
    assert b is not None
    for side, points in s["score"].items():
        assert sum(line["points"][side] for line in b["scored"]) == points
        assert b["score"][side] == points
    for side, points in b["made_totals"].items():
        assert sum(line["points"][side] for line in b["made"]) == points
    return b


def made(b: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The made lines by kind."""
    return {line["kind"]: line["points"] for line in b["made"]}


def scored(b: dict[str, Any]) -> list[tuple[str, dict[str, int]]]:
    """The scored lines in order."""
    return [(line["kind"], line["points"]) for line in b["scored"]]


def test_made_contract_each_side_scores_its_points_ffb() -> None:
    """Seed 001: "l'équipe qui a pris marque le score de son total de points.
    L'équipe adverse marque le score de son total de points."  N takes hearts:
    NS 136 + 10 + belote 20 = 166 against EW 16."""
    b = breakdown(deal("ffb", P1, P1_PLAY, **N_TAKES))
    assert made(b) == {
        "cards": {"NS": 136, "EW": 16},
        "dix_de_der": {"NS": 10, "EW": 0},
        "to_162": {"NS": 0, "EW": 0},
        "capot": {"NS": 0, "EW": 0},
        "declarations": {"NS": 0, "EW": 0},
        "belote": {"NS": 20, "EW": 0},
    }
    assert b["made_totals"] == {"NS": 166, "EW": 16}
    assert (b["taker"], b["taker_points"], b["defence_points"]) == ("NS", 166, 16)
    assert (b["contract_value"], b["multiplier"], b["strain_multiplier"]) == (None, 1, 1)
    assert (b["verdict"], b["result"], b["winner"]) == ("made", "made", "NS")
    assert scored(b) == [
        ("points", {"NS": 146, "EW": 16}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 166, "EW": 16}
    assert b["held_over"] == 0


def test_dedans_defence_higher_defenders_score_162_ffb() -> None:
    """Seed 001: "l'équipe qui a pris ne marque aucun point hors belote.
    L'équipe adverse marque 162 points."  W takes: EW 16 against NS 166."""
    b = breakdown(deal("ffb", P1, P1_PLAY, **W_TAKES))
    assert (b["taker"], b["taker_points"], b["defence_points"]) == ("EW", 16, 166)
    assert (b["verdict"], b["result"], b["winner"]) == ("defence_higher", "dedans", "NS")
    assert scored(b) == [
        ("defence", {"NS": 162, "EW": 0}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 182, "EW": 0}


def test_dedans_takers_declarations_go_to_the_defenders_ffb() -> None:
    """FFB: the defenders score 162 plus all the declarations; the belote
    stays with its holders (seed 001 "hors belote").  NS (takers) 60 + 20
    (tierce) + 20 (belote) = 100 against EW 92 + 10 = 102."""
    play = (
        "KH 8H 10H AH  8S AS JS KS  JH JC 9H 7H  QH KD 7D 7S "
        "8D AD 10D JD  QD 10C 8C 9D  QS KC 10S 7C  9S AC 9C QC"
    )
    b = breakdown(deal("ffb", B, play, declarations={"N": ["tierce"]}, **B_TAKE))
    assert made(b) == {
        "cards": {"NS": 60, "EW": 92},
        "dix_de_der": {"NS": 0, "EW": 10},
        "to_162": {"NS": 0, "EW": 0},
        "capot": {"NS": 0, "EW": 0},
        "declarations": {"NS": 20, "EW": 0},
        "belote": {"NS": 20, "EW": 0},
    }
    assert (b["taker_points"], b["defence_points"], b["verdict"]) == (100, 102, "defence_higher")
    assert scored(b) == [
        ("defence", {"NS": 0, "EW": 162}),
        ("taker_declarations", {"NS": 0, "EW": 20}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 20, "EW": 182}


def test_litige_takers_points_held_over_ffb() -> None:
    """Seed 003, "Litige": "l'équipe qui a pris l'atout ne marque pas de
    points et ceux-ci sont reportés sur la manche suivante au profit du
    vainqueur": 81 to 81, EW score their 81, NS's 81 are held over."""
    b = breakdown(deal("ffb", L, L_PLAY, **L_TAKE))
    assert b["made_totals"] == {"NS": 81, "EW": 81}
    assert made(b)["cards"] == {"NS": 71, "EW": 81}
    assert made(b)["dix_de_der"] == {"NS": 10, "EW": 0}
    assert (b["taker"], b["taker_points"], b["defence_points"]) == ("NS", 81, 81)
    assert (b["verdict"], b["result"], b["winner"]) == ("tie", "litige", None)
    assert scored(b) == [("points", {"NS": 0, "EW": 81})]
    assert b["held_over"] == 81
    assert b["score"] == {"NS": 0, "EW": 81}


def test_tie_takers_fail_seed001() -> None:
    """Seed 001: the takers' "total doit donc dépasser 81": 81 to 81 is a
    dedans for the same reason, a tie."""
    b = breakdown(deal("seed001", L, L_PLAY, **L_TAKE))
    assert (b["verdict"], b["result"], b["held_over"]) == ("tie", "dedans", 0)
    assert scored(b) == [("defence", {"NS": 0, "EW": 162})]


def test_capot_line_makes_the_cards_252_ffb() -> None:
    """Seed 000: "100 au lieu du dix de der"; seed 003 "+90": the capot line
    adds 90 to the 152 card points and the dix de der (252), belote beside."""
    b = breakdown(deal("ffb", P1, P1_CAPOT, **N_TAKES))
    assert made(b) == {
        "cards": {"NS": 152, "EW": 0},
        "dix_de_der": {"NS": 10, "EW": 0},
        "to_162": {"NS": 0, "EW": 0},
        "capot": {"NS": 90, "EW": 0},
        "declarations": {"NS": 0, "EW": 0},
        "belote": {"NS": 20, "EW": 0},
    }
    assert (b["verdict"], b["result"]) == ("made", "capot")
    assert scored(b) == [("points", {"NS": 252, "EW": 0}), ("belote", {"NS": 20, "EW": 0})]
    assert b["score"] == {"NS": 272, "EW": 0}


def test_coinche_multiplier_on_the_contract_line() -> None:
    """RULES.md, "Coinche": made, the takers score contract + points made;
    coinche x2 on the contract, belote outside the multiplier: 80 x 2 = 160,
    146 points, 20 belote."""
    b = breakdown(deal("coinche", P1, P1_PLAY, bids=["80H", "coinche", "pass", "pass"]))
    assert (b["contract_value"], b["multiplier"], b["verdict"]) == (80, 2, "made")
    assert scored(b) == [
        ("contract", {"NS": 160, "EW": 0}),
        ("points", {"NS": 146, "EW": 16}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 326, "EW": 16}


def test_coinche_surcoinche_failed_bid_not_reached() -> None:
    """RULES.md, "Coinche": "failed: the defenders score 160 + contract",
    surcoinche x4: W's 80 (EW make 16) is not reached: NS 160 + 320, and
    their belote."""
    b = breakdown(deal("coinche", P1, P1_PLAY, bids=["pass", "80H", "coinche", "surcoinche"]))
    assert (b["taker"], b["taker_points"], b["defence_points"]) == ("EW", 16, 166)
    assert (b["contract_value"], b["multiplier"]) == (80, 4)
    assert (b["verdict"], b["result"]) == ("bid_not_reached", "dedans")
    assert scored(b) == [
        ("contract", {"NS": 320, "EW": 0}),
        ("defence", {"NS": 160, "EW": 0}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 500, "EW": 0}


def test_coinche_capot_contract_made_has_its_contract_line() -> None:
    """Issue 16: a coinche capot showed +520 with no contract line.  RULES.md
    "capot (250)": the capot counts 250 (152 + 10 + 88) and the capot
    contract 250: 250 + 250 + belote 20."""
    b = breakdown(deal("coinche", P1, P1_CAPOT, bids=["capotH", "pass", "pass", "pass"]))
    assert made(b)["capot"] == {"NS": 88, "EW": 0}
    assert (b["contract_value"], b["verdict"], b["result"]) == (250, "made", "capot")
    assert scored(b) == [
        ("contract", {"NS": 250, "EW": 0}),
        ("points", {"NS": 250, "EW": 0}),
        ("belote", {"NS": 20, "EW": 0}),
    ]
    assert b["score"] == {"NS": 520, "EW": 0}


def test_coinche_capot_contract_failed_when_a_trick_is_lost() -> None:
    """A capot contract needs all 8 tricks: one lost, it fails whatever the
    points (166 against 16)."""
    b = breakdown(deal("coinche", P1, P1_PLAY, bids=["capotH", "coinche", "pass", "pass"]))
    assert (b["verdict"], b["result"], b["taker_points"]) == ("capot_not_made", "dedans", 166)
    assert scored(b) == [
        ("contract", {"NS": 0, "EW": 500}),
        ("defence", {"NS": 0, "EW": 160}),
        ("belote", {"NS": 20, "EW": 0}),
    ]


def test_coinche_contract_reached_but_tied_fails() -> None:
    """RULES.md, "Coinche": reach the contract "and beat the defenders'":
    81 reaches 80 but ties 81."""
    b = breakdown(deal("coinche", L, L_PLAY, bids=["80H", "pass", "pass", "pass"]))
    assert (b["verdict"], b["result"]) == ("tie", "dedans")
    assert scored(b) == [("contract", {"NS": 0, "EW": 80}), ("defence", {"NS": 0, "EW": 160})]


def test_sans_atout_multiplier_line_seed000() -> None:
    """Seed 000: "Les parties Sans Atout comptent le double des points": the
    multiplier's line adds as much again."""
    b = breakdown(deal("seed000-tout-atout", P1, SA_PLAY, turned="9H", bids=["SA"] + ["pass"] * 3))
    assert b["strain_multiplier"] == 2
    assert scored(b) == [
        ("points", {"NS": 124, "EW": 38}),
        ("strain_multiplier", {"NS": 124, "EW": 38}),
    ]
    assert b["score"] == {"NS": 248, "EW": 76}


def test_tout_atout_dedans_triple_seed000() -> None:
    """Seed 000 (triple): W bids TA and fails: NS (162 + 20) x 3, EW keep
    their belote x 3."""
    b = breakdown(
        deal(
            "seed000-tout-atout",
            P1,
            TA_PLAY,
            turned="AH",
            bids=["pass", "TA", "pass", "pass", "pass"],
        )
    )
    assert (b["verdict"], b["strain_multiplier"]) == ("defence_higher", 3)
    assert scored(b) == [
        ("defence", {"NS": 162, "EW": 0}),
        ("belote", {"NS": 20, "EW": 20}),
        ("strain_multiplier", {"NS": 364, "EW": 40}),
    ]
    assert b["score"] == {"NS": 546, "EW": 60}


def test_three_players_dedans_81_each() -> None:
    """RULES.md, "Three players": "The taker must score more than each
    opponent, else each opponent scores 81."  S (23) against W (125)."""
    b = breakdown(deal("three-players", H3, H3_PLAY, turned="KH", bids=["pass", "take"]))
    assert b["made_totals"] == {"W": 125, "S": 23, "E": 14}
    assert (b["taker"], b["taker_points"], b["defence_points"]) == ("S", 23, 125)
    assert (b["verdict"], b["winner"]) == ("defence_higher", None)
    assert scored(b) == [("defence", {"W": 81, "S": 0, "E": 81})]


def test_a_deal_not_played_has_no_breakdown() -> None:
    """Everyone passed: nothing to explain."""
    s = replay(deal("ffb", P1, "", turned="9H", bids=["pass"] * 8) | {"play": []})
    assert s["result"] == "passed"
    assert s["breakdown"] is None


# --- the FFB's coinche (docs/rules/FFB.md; the deals of test_ffb_coinche.py) ---

FFB_COINCHE = preset("ffb-coinche")


def ffb(hands: dict[Any, str], bids: str, script: str) -> tuple[DealResult, Any]:
    """A fixed deal of test_options.py under ffb-coinche: its result and
    breakdown (NS side 0, EW side 1)."""
    state = options_deal(FFB_COINCHE, hands, None, bids)
    play(state, script)
    result = finished(state)
    return result, explain_deal(FFB_COINCHE, result)


def lines(b: Any) -> list[tuple[str, tuple[int, ...]]]:
    """A ScoreBreakdown's scored lines."""
    return [(x.kind, x.points) for x in b.scored]


def test_rounding_line_ffb_coinche() -> None:
    """FFB coinche 2015, 10.1.1 "Leur total + Le montant du contrat demandé"
    and 10.2 "arrondis à la dizaine la plus proche": 80H by W made with 114
    (NS 48): EW 80 + 114 = 194, rounded by -4 to 190; NS 48 by +2 to 50."""
    result, b = ffb(TWO, "80H pass pass pass", COINCHE_SCRIPT)
    assert b.made_totals == (48, 114)
    assert (b.verdict, b.result, b.rounding, b.coinche_multiplier) == (
        "made",
        "made",
        "nearest_ten",
        1,
    )
    assert lines(b) == [
        ("contract", (0, 80)),
        ("points", (48, 114)),
        ("rounding", (2, -4)),
    ]
    assert b.score == result.score == (50, 190)


def test_whole_deal_multiplied_when_coinched_ffb_coinche() -> None:
    """FFB coinche 2015, 10.1.1: "(160 points + ... + Le montant du contrat
    demandé) x 2 (resp. 4)", the defenders score nothing: EW 160 + 80 = 240,
    and the coinche adds 240 (480); surcoinched, it adds 720 (960)."""
    _, b = ffb(TWO, "80H coinche pass pass pass", COINCHE_SCRIPT)
    assert (b.multiplier, b.coinche_multiplier) == (2, 2)
    assert lines(b) == [
        ("contract", (0, 80)),
        ("deal", (0, 160)),
        ("coinche_multiplier", (0, 240)),
    ]
    assert b.score == (0, 480)
    _, b = ffb(TWO, "80H coinche surcoinche", COINCHE_SCRIPT)
    assert lines(b)[-1] == ("coinche_multiplier", (0, 720))
    assert b.score == (0, 960)


def test_failed_and_coinched_defence_doubled_ffb_coinche() -> None:
    """FFB coinche 2015, 10.1.2: "160 points de chute + ... + Le montant du
    contrat demandé", doubled when coinched: S's 80H, NS make 48: EW 160 +
    80, and the coinche adds 240 (480)."""
    _, b = ffb(TWO, "pass 80H coinche pass pass pass", COINCHE_SCRIPT)
    assert (b.taker, b.taker_points, b.verdict, b.result) == (0, 48, "bid_not_reached", "dedans")
    assert lines(b) == [
        ("contract", (0, 80)),
        ("defence", (0, 160)),
        ("coinche_multiplier", (0, 240)),
    ]
    assert b.score == (0, 480)


def test_capot_takes_the_defenders_declarations_ffb_coinche() -> None:
    """FFB coinche 2015, 10.1.1 "Cas particulier": after the takers' capot
    the defenders' declarations (quarte 50 + tierce 20) count for them; a
    capot counts 252 (9.2: 152 + 10 + 90); capot contract 250: EW 252 + 70
    + 250 = 572, rounded to 570; NS their belote.  Coinched by S: (250 + 70
    + 250) x 2 = 1140."""
    _, b = ffb(CAPOT_DECL, "capotH pass pass pass", CAPOT_DECL_SCRIPT)
    made_lines = {x.kind: x.points for x in b.made}
    assert made_lines["capot"] == (0, 90)
    assert made_lines["declarations"] == (0, 70)
    assert lines(b) == [
        ("contract", (0, 250)),
        ("points", (0, 322)),
        ("belote", (20, 0)),
        ("rounding", (0, -2)),
    ]
    assert b.score == (20, 570)
    _, b = ffb(CAPOT_DECL, "capotH coinche pass pass pass", CAPOT_DECL_SCRIPT)
    assert lines(b) == [
        ("contract", (0, 250)),
        ("deal", (0, 250)),
        ("declarations", (0, 70)),
        ("belote", (20, 0)),
        ("coinche_multiplier", (0, 570)),
    ]
    assert b.score == (20, 1140)


VARIANTS: dict[str, Rules] = {
    **PRESETS,
    # Tout Atout with the trump values in every suit (258), converted to
    # 162 (FFB classique 2016, 11.3), and the house rounding
    "ta-to-162-house": dataclasses.replace(
        PRESETS["seed000-tout-atout"],
        ta_points=(0, 0, 14, 10, 20, 3, 4, 11),
        ta_sa_points_to_162=True,
        rounding="house",
    ),
    "ffb-coinche-house": dataclasses.replace(FFB_COINCHE, rounding="house", tie="litige"),
}
"""Every preset, and variants that use the other scoring options."""


@pytest.mark.parametrize("preset", sorted(VARIANTS))
def test_every_random_deal_is_explained(preset: str) -> None:
    """200 random deals of each preset (and variant): the breakdown's
    scored lines add up to the deal's score (explain_deal checks its score
    against the result's, and raises when they differ)."""
    rules = VARIANTS[preset]
    rng = random.Random(16)
    verdicts = set()
    kinds: set[str] = set()
    for _ in range(200):
        state = random_deal(rules, rng)
        result = state.result
        assert result is not None
        b = explain_deal(rules, result)
        if result.result in ("passed", "cancelled"):
            assert b is None
            continue
        assert b is not None
        for side in range(len(result.score)):
            assert sum(line.points[side] for line in b.scored) == result.score[side]
        verdicts.add(b.verdict)
        kinds.update(x.kind for x in (*b.made, *b.scored) if any(x.points))
    assert "made" in verdicts and len(verdicts) >= 2, verdicts
    wanted = {
        "ta-to-162-house": {"to_162", "rounding", "strain_multiplier"},
        "ffb-coinche": {"coinche_multiplier", "deal", "defence"},
        "ffb-coinche-house": {"coinche_multiplier"},
        "coinche": {"contract", "defence", "capot"},
    }.get(preset, set())
    assert wanted <= kinds, kinds


def test_a_result_scored_under_other_rules_is_refused() -> None:
    """explain_deal raises when the result does not follow from the rules:
    the coinche deal's score is not a classic one."""
    rules = PRESETS["coinche"]
    rng = random.Random(3)
    result: DealResult | None = None
    while result is None or result.result in ("passed", "cancelled"):
        result = random_deal(rules, rng).result
    with pytest.raises(ValueError, match="was not scored under these rules"):
        explain_deal(PRESETS["ffb"], result)
