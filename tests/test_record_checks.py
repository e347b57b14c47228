"""Records are checked before anything is applied: option types, hands
inconsistent with the bidding, content that would be silently ignored."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rebelote.actions import parse_bid
from rebelote.cards import CardSet, parse_card
from rebelote.record import RecordError, replay, state_to_record
from rebelote.rules import Rules, RulesError, preset
from rebelote.seats import Seat
from rebelote.simulate import random_deal, random_match
from rebelote.state import DealError, State

SUITED = {
    "N": "7S 8S 9S 10S JS QS KS AS",
    "W": "7H 8H 9H 10H JH QH KH AH",
    "S": "7D 8D 9D 10D JD QD KD AD",
    "E": "7C 8C 9C 10C JC QC KC AC",
}


def _record(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": 1,
        "rules": "ffb-no-declarations",
        "dealer": "E",
        "hands": {k: v.split() for k, v in SUITED.items()},
        "turned": "7S",
        "bids": ["take"],
    }
    base.update(extra)
    return base


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("capot_points", "252"),
        ("capot_points", None),
        ("ta_multiplier", 2.5),
        ("must_undertrump", "no"),
        ("target", "1000"),
        ("patterns", ("3-2", 4)),
        ("capot_against_takers", -1),
        ("sa_multiplier", 0),
    ],
)
def test_rule_options_of_the_wrong_type_are_refused(option: str, value: object) -> None:
    """A record's ``{"capot_points": "252"}`` must not reach the scoring."""
    with pytest.raises(RulesError, match=option):
        Rules(**{option: value})  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=option):
        replay(_record(rules={"preset": "ffb", option: value}))


def test_a_take_by_a_seat_without_the_turned_card_changes_nothing() -> None:
    """With hands, the turned card must be in the taker's hand; a bid that
    would make another seat the taker is refused and the auction is intact."""
    hands = {Seat[k]: list(CardSet.parse(v)) for k, v in SUITED.items()}
    state = State.from_hands(preset("ffb"), Seat.E, hands, parse_card("7S"))
    state.apply(parse_bid("pass"))  # N, who holds 7S, passes
    with pytest.raises(DealError, match="not in the hand of the taker W"):
        state.apply(parse_bid("take"))
    assert state.current == Seat.W
    assert [a.text for a in state.legal_actions()] == ["pass", "take"]
    assert state.auction is not None and len(state.auction.bids) == 1
    assert state.contract is None


def test_unused_record_content_is_reported() -> None:
    """A typo such as ``plays`` is not silently taken for an unfinished deal."""
    summary = replay(_record(bids=["take"], plays=["7S"], pattern="3-2"))
    assert summary["complete"] is False
    assert summary["warnings"] == [
        "unknown key 'plays' not used",
        "'pattern' is not used with 'hands'",
    ]


def test_coinche_deck_record_with_a_turned_card_is_malformed() -> None:
    deck = [c for k in "NWSE" for c in SUITED[k].split()]
    with pytest.raises(RecordError, match="coinche turns no card"):
        replay({"rules": "coinche", "dealer": "N", "deck": deck, "turned": "7S"})


def test_declaring_under_rules_without_declarations_says_so() -> None:
    with pytest.raises(RecordError, match="declarations are off under these rules"):
        replay(_record(declarations={"N": ["quinte"]}, play=["AS"]))


def test_unfinished_trick_is_in_the_summary() -> None:
    """Dealer E, N takes the turned 7S and leads (N is right of E)."""
    summary = replay(_record(play=["AS", "AH", "AD"]))
    assert summary["tricks"] == []
    assert summary["trick"] == {"leader": "N", "cards": ["AS", "AH", "AD"]}


def test_tout_atout_belotes_said_per_pair_round_trip() -> None:
    """Tout Atout: a seat may hold two belotes and say one but not the other
    (seed 001's rule that belote counts only when said)."""
    rules = preset("seed000-tout-atout").replace(belote_must_be_said=True)
    found = 0
    for seed in range(400):
        state = random_deal(rules, random.Random(seed))
        record = state_to_record(state, format=1)
        if any(isinstance(v, list) for v in record.get("belote", {}).values()):
            found += 1
            summary = replay(json.loads(json.dumps(record)))
            assert state.result is not None
            assert list(summary["score"].values()) == list(state.result.score)
            # format 2 says it with the cards: a word per belote decided
            texts = [a["action"] for a in state_to_record(state)["actions"]]
            said = [t.endswith(" belote") for t in texts if t.endswith("belote")]
            flags = [
                f for v in record["belote"].values() for f in (v if isinstance(v, list) else [v])
            ]
            assert sorted(said) == sorted(flags)
            assert replay(state_to_record(state)) == summary
    assert found > 0


def test_match_record_with_the_wrong_dealer_is_reported() -> None:
    """Seeds 001 and 002: after a deal, the player who got the first card
    (the dealer's right) deals."""
    rng = random.Random(14)
    _, states = random_match(preset("ffb"), rng, max_deals=3)
    deals = [state_to_record(s) for s in states]
    first = deals[0]
    record = {"format": 2, "rules": "ffb", "deals": [first, first]}
    summary = replay(record)
    played = summary["deals"][0]["result"] not in ("passed", "cancelled")
    warnings = summary["deals"][1].get("warnings", [])
    assert bool(warnings) == played


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rebelote", *args], input=stdin, capture_output=True, check=False
    )


def test_cli_refuses_binary_and_deeply_nested_input(tmp_path: Path) -> None:
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00bad")
    done = _cli("replay", str(binary), "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == "malformed record"
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100000)
    done = _cli("replay", str(nested), "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == "malformed record"
    assert b"Traceback" not in done.stderr
