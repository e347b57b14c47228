"""The expert's analysis of a finished deal (``rebelote analyse``): each
card's values are the solver's, computed directly on the same position;
the last trick of a deal worked out by hand; the costs add up to the
deal's result; the bids are the expert's."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rebelote.actions import Play
from rebelote.bots.analysis import ANALYSIS_VERSION, analyse_deal, analyse_match
from rebelote.cards import card_name, parse_card
from rebelote.record import RecordError, replay_deal, state_to_record
from rebelote.rules import preset
from rebelote.simulate import random_deal
from rebelote.solver import Position, solve_moves

# Hearts trump, dealer E: N takes and leads first (tests/test_cli.py's record).
# The tricks, by hand: N 34, N 28, N 14, W 16, N 17, N 13, N 14, then S
# wins the last (10C 10, KC 4, JC 2, 7C 0, and the dix de der 10 = 26): NS
# 146, EW 16, a difference of 130 for NS.
RECORD: dict[str, Any] = {
    "format": 1,
    "rules": "ffb",
    "dealer": "E",
    "hands": {
        "N": ["JH", "9H", "AS", "KS", "AD", "10D", "AC", "7C"],
        "W": ["AH", "10H", "QS", "10S", "KD", "QD", "KC", "9C"],
        "S": ["KH", "QH", "JS", "9S", "JD", "9D", "QC", "10C"],
        "E": ["8H", "7H", "8S", "7S", "8D", "7D", "JC", "8C"],
    },
    "turned": "9H",
    "bids": ["take"],
    "play": [
        *("JH", "10H", "KH", "7H"),
        *("9H", "AH", "QH", "8H"),
        *("AS", "QS", "9S", "7S"),
        *("KS", "10S", "JS", "8S"),
        *("KD", "JD", "8D", "AD"),
        *("10D", "QD", "9D", "7D"),
        *("AC", "9C", "QC", "8C"),
        *("7C", "KC", "10C", "JC"),
    ],
}


def _random_record(rules: str, seed: int) -> dict[str, Any]:
    return state_to_record(random_deal(preset(rules), random.Random(seed)))


def test_the_last_trick_worked_out_by_hand() -> None:
    report = analyse_deal(RECORD)
    assert report["version"] == ANALYSIS_VERSION
    assert report["contract"] == "H by N" and report["result"] == "made"
    assert report["bids"] is None  # a classic record by "hands": the auction's cards are unknown
    last = report["cards"][-4:]
    assert [(c["seat"], c["card"], c["trick"]) for c in last] == [
        ("N", "7C", 8),
        ("W", "KC", 8),
        ("S", "10C", 8),
        ("E", "JC", 8),
    ]
    # NS won 120 in the first seven tricks, EW 16; the last is worth 26 to NS
    assert [(c["points"], c["before"], c["after"], c["cost"]) for c in last] == [
        (104, 130, 130, 0),
        (-104, -130, -130, 0),
        (104, 130, 130, 0),
        (-104, -130, -130, 0),
    ]
    assert [c["best"] for c in last] == [["7C"], ["KC"], ["10C"], ["JC"]]


@pytest.mark.parametrize(
    ("record", "name"),
    [
        (RECORD, "by hand"),
        (_random_record("ffb", 1), "ffb 1"),
        (_random_record("coinche", 3), "coinche 3"),
    ],
)
def test_each_card_is_the_solvers_value_of_its_position(record: dict[str, Any], name: str) -> None:
    report = analyse_deal(record, bids=False)
    replayed = replay_deal(record)
    # the state before each card, from the record's first actions
    plays = [(i, a) for i, a in enumerate(replayed.actions) if isinstance(a.action, Play)]
    assert [c["index"] for c in report["cards"]] == [i for i, _ in plays], name
    assert len(report["cards"]) == 32
    start = {**record, "bids": [], "play": []} if "play" in record else {**record, "actions": []}
    state = replay_deal(start).state
    cards = iter(report["cards"])
    for done in replayed.actions:
        if isinstance(done.action, Play):
            line = next(cards)
            values = solve_moves(Position.from_state(state), kernel="python").values
            best = max(values.values())
            played = values[done.action.card]
            assert line["before"] - line["points"] == best, (name, line)
            assert line["after"] - line["points"] == played, (name, line)
            assert line["cost"] == best - played
            assert line["best"] == sorted(
                (card_name(c) for c, v in values.items() if v == best),
                key=lambda n: parse_card(n),
            )
        state.apply(done.action, done.seat)


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_costs_add_up_to_the_deal(seed: int) -> None:
    """From the first card's value under best play, each side's mistakes
    move the deal's points difference to what the deal ended with; each
    position's value is the one the card before it left."""
    record = _random_record("ffb", seed)
    report = analyse_deal(record, bids=False)
    cards = report["cards"]
    for a, b in itertools.pairwise(cards):
        same = a["side"] == b["side"]
        assert b["before"] == (a["after"] if same else -a["after"])
    first = cards[0]
    sign = 1 if first["side"] == "NS" else -1
    ns_start = sign * first["before"]
    ns_end = ns_start - report["cost"]["NS"] + report["cost"]["EW"]
    last = cards[-1]
    assert ns_end == (last["after"] if last["side"] == "NS" else -last["after"])
    state = replay_deal(record).state
    won = {"NS": 0, "EW": 0}
    for trick in state.tricks:
        won[state.side_name(state.side_of[trick.winner])] += trick.points
    won[state.side_name(state.side_of[state.tricks[-1].winner])] += 10  # dix de der
    taken = [sum(1 for t in state.tricks if state.side_of[t.winner] == s) for s in (0, 1)]
    capot = 90 if taken[1] == 0 else -90 if taken[0] == 0 else 0
    assert ns_end == won["NS"] - won["EW"] + capot
    # mistakes: the cards that cost something, costliest first
    costs = [cards[i]["cost"] for i in report["mistakes"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    assert len(report["mistakes"]) == sum(1 for c in cards if c["cost"] > 0)


def test_the_bids_are_the_experts() -> None:
    # ffb, seed 1: S speaks first and passes; its take value is 4.5 points
    # over the threshold, so the expert takes (tests/test_hint.py)
    report = analyse_deal(_random_record("ffb", 1))
    assert report["bids"] is not None
    assert report["bids"][0] == {
        "index": 1,
        "seat": "S",
        "bid": "pass",
        "expert": "take",
        "same": False,
        "basis": "take values",
    }


def test_a_match_record_is_analysed_deal_by_deal() -> None:
    deals = [_random_record("ffb", s) for s in (1, 2)]
    for d in deals:
        del d["rules"], d["format"]
    seen: list[tuple[int, int]] = []
    report = analyse_match(
        {"format": 2, "rules": "ffb", "deals": deals},
        bids=False,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 2), (2, 2)]
    assert [len(d["cards"]) for d in report["deals"]] == [32, 32]
    assert report["deals"][0] == analyse_deal(_random_record("ffb", 1), bids=False)


def test_a_bad_record_is_refused() -> None:
    with pytest.raises(RecordError):
        analyse_match({"format": 2, "rules": "ffb", "dealer": "N", "deck": ["AS"], "actions": []})


def test_the_command(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RECORD))
    done = subprocess.run(
        [sys.executable, "-m", "rebelote", "analyse", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == {"version": ANALYSIS_VERSION, "deals": [analyse_deal(RECORD)]}
    path.write_text("{}")
    bad = subprocess.run(
        [sys.executable, "-m", "rebelote", "analyse", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert json.loads(bad.stdout)["error"] == "malformed record"
