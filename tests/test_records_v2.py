"""Records of format 2: a deal is its rules, dealer, deck (or pack) and the
ordered list of its actions in the one notation, optionally with the typed
events the replay produced (the docstring of :mod:`rebelote.record`).

Format 1 records are still read: a deal written in both formats replays to
the same final state, and :func:`rebelote.record.convert` writes format 1 in
format 2."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rebelote.cards import card_name
from rebelote.events import Event, MatchEnded
from rebelote.match import Match
from rebelote.record import (
    FORMAT,
    IllegalRecordError,
    RecordError,
    convert,
    deal_summary,
    new_deal_record,
    replay,
    replay_deal,
    state_to_record,
)
from rebelote.rules import PRESETS, preset
from rebelote.seats import Seat
from rebelote.simulate import random_deal, random_match
from rebelote.state import State

Record = dict[str, Any]

# seed001 (belote must be said, declarations chosen), seed 17: the dealer E
# deals 3-2 (both patterns allowed: his choice is an action), N takes the
# turned AS, S declares nothing, E declares his tierce and says belote with
# the KS; N's side fails (dedans): EW score 162 + 20 + 20.
SEED001_17: Record = {
    "format": 2,
    "rules": "seed001",
    "dealer": "E",
    "deck": [
        *("KC", "10D", "KH", "9D", "JD", "JS", "QC", "JC"),
        *("8S", "AC", "9S", "KS", "9H", "10C", "AD", "AH"),
        *("7D", "9C", "QH", "JH", "AS", "7S", "10S", "7H"),
        *("QD", "8D", "8C", "KD", "7C", "QS", "8H", "10H"),
    ],
    "actions": [
        {"seat": "E", "action": "deal 3-2"},
        {"seat": "N", "action": "take"},
        {"seat": "N", "action": "10C"},
        {"seat": "W", "action": "JS"},
        {"seat": "S", "action": "declare none"},
        {"seat": "S", "action": "QC"},
        {"seat": "E", "action": "declare tierce-QH"},
        {"seat": "E", "action": "AC"},
        {"seat": "W", "action": "AD"},
        {"seat": "S", "action": "KD"},
        {"seat": "E", "action": "9S"},
        {"seat": "N", "action": "10D"},
        {"seat": "E", "action": "10H"},
        {"seat": "N", "action": "9H"},
        {"seat": "W", "action": "AH"},
        {"seat": "S", "action": "8S"},
        {"seat": "S", "action": "9C"},
        {"seat": "E", "action": "KS belote"},
        {"seat": "N", "action": "KC"},
        {"seat": "W", "action": "JD"},
        {"seat": "E", "action": "8H"},
        {"seat": "N", "action": "KH"},
        {"seat": "W", "action": "7H"},
        {"seat": "S", "action": "7C"},
        {"seat": "N", "action": "AS"},
        {"seat": "W", "action": "9D"},
        {"seat": "S", "action": "7D"},
        {"seat": "E", "action": "QS"},
        {"seat": "N", "action": "7S"},
        {"seat": "W", "action": "QD"},
        {"seat": "S", "action": "8C"},
        {"seat": "E", "action": "JH"},
        {"seat": "N", "action": "10S"},
        {"seat": "W", "action": "8D"},
        {"seat": "S", "action": "JC"},
        {"seat": "E", "action": "QH"},
    ],
}


def _deal(name: str, seed: int) -> State:
    return random_deal(preset(name), random.Random(seed))


def test_the_format_2_record_of_a_seeded_deal() -> None:
    state = _deal("seed001", 17)
    record = state_to_record(state)
    assert FORMAT == 2
    assert record == SEED001_17
    assert json.loads(json.dumps(record)) == record  # JSON through and through
    summary = replay(record)
    assert (summary["trump"], summary["taker"], summary["result"]) == ("S", "N", "dedans")
    assert summary["score"] == {"NS": 0, "EW": 202}
    assert summary["belote"] == "EW"
    assert summary["declarations"] == {"NS": [], "EW": ["tierce-QH"]}
    assert summary == deal_summary(state)
    # the same deal in format 1: the pattern, the declarations and the belote
    # beside the bids and cards
    old = state_to_record(state, format=1)
    assert {k: v for k, v in old.items() if k not in ("deck", "play")} == {
        "format": 1,
        "rules": "seed001",
        "dealer": "E",
        "pattern": "3-2",
        "turned": "AS",
        "bids": ["take"],
        "declarations": {"E": ["tierce-QH"], "S": []},
        "belote": {"E": True},
    }
    assert old["deck"] == SEED001_17["deck"]
    assert convert(old) == SEED001_17


def test_the_events_of_a_seeded_deal() -> None:
    """seed002 deals 3-2 only: dealing the deck is no action, its events are
    the deal's; each action carries the events it caused."""
    record = state_to_record(_deal("seed002", 5), events=True)
    assert record["deck"][:21] == [
        *("JC", "AS", "KH", "7S", "7D", "JD", "AD", "9C", "AC", "8C", "KD"),
        *("JS", "KC", "8D", "10D", "QH", "JH", "9S", "10C", "9H", "7C"),
    ]
    assert record["events"] == [
        {"kind": "pattern", "seat": "S", "pattern": "3-2"},
        {"kind": "dealt", "seat": "E", "cards": ["AS", "KH", "JC"]},
        {"kind": "dealt", "seat": "N", "cards": ["7S", "7D", "JD"]},
        {"kind": "dealt", "seat": "W", "cards": ["AD", "9C", "AC"]},
        {"kind": "dealt", "seat": "S", "cards": ["JS", "KD", "8C"]},
        {"kind": "dealt", "seat": "E", "cards": ["8D", "KC"]},
        {"kind": "dealt", "seat": "N", "cards": ["QH", "10D"]},
        {"kind": "dealt", "seat": "W", "cards": ["9S", "JH"]},
        {"kind": "dealt", "seat": "S", "cards": ["9H", "10C"]},
        {"kind": "turned", "card": "7C", "seat": None},
    ]
    assert len(record["actions"]) == 33
    contract = {"taker": "E", "strain": "C", "value": None, "multiplier": 1}
    assert record["actions"][0] == {
        "seat": "E",
        "action": "take",
        "events": [
            {"kind": "bid", "seat": "E", "bid": "take"},
            {"kind": "contract", "seat": "E", "contract": contract},
            {"kind": "completed", "seat": "E", "cards": ["7C"]},
            {"kind": "dealt", "seat": "E", "cards": ["8H", "9D"]},
            {"kind": "dealt", "seat": "N", "cards": ["KS", "7H", "QD"]},
            {"kind": "dealt", "seat": "W", "cards": ["10H", "AH", "QC"]},
            {"kind": "dealt", "seat": "S", "cards": ["8S", "10S", "QS"]},
        ],
    }
    assert record["actions"][1] == {
        "seat": "S",
        "action": "JS",
        "events": [{"kind": "played", "seat": "S", "card": "JS"}],
    }
    result = {
        "result": "made",
        "contract": contract,
        "card_points": [29, 123],
        "dix_de_der": 1,
        "declarations": [[], []],
        "belote": [],
        "belote_points": [0, 0],
        "capot": None,
        "solo_capot": False,
        "score": [29, 133],
        "held_over": 0,
        "winner": 1,
    }
    assert record["actions"][-1] == {
        "seat": "S",
        "action": "10S",
        "events": [
            {"kind": "played", "seat": "S", "card": "10S"},
            {
                "kind": "trick_won",
                "seat": "W",
                "number": 8,
                "cards": ["KC", "7D", "AC", "10S"],
                "points": 25,
            },
            {"kind": "deal_scored", "result": result, "seat": None},
        ],
    }
    # the events read back as typed events, and the record replays with them
    assert Event.from_json(record["actions"][-1]["events"][2]).to_json()["result"] == result
    assert replay(record)["score"] == {"NS": 29, "EW": 133}
    assert state_to_record(replay_deal(record).state, events=True) == record


def test_written_events_must_be_the_replays() -> None:
    record = state_to_record(_deal("seed002", 5), events=True)
    bad = copy.deepcopy(record)
    bad["actions"][1]["events"][0]["card"] = "QS"
    with pytest.raises(RecordError, match="the events of action 2 are not the replay's: event 1"):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["events"] = bad["events"][:-1]
    with pytest.raises(RecordError, match="the events of the deal are not the replay's: event 10"):
        replay(bad)


def _same_state(a: State, b: State) -> None:
    assert a.hands == b.hands
    assert a.tricks == b.tricks
    assert a.trick_cards == b.trick_cards
    assert a.declared == b.declared
    assert a.belotes == b.belotes
    assert a.belote_said == b.belote_said
    assert a.contract == b.contract
    assert a.result == b.result
    assert a.phase == b.phase and a.current == b.current
    assert a.auction is not None and b.auction is not None
    assert a.auction.bids == b.auction.bids


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_format_1_and_format_2_replay_to_the_same_state(name: str) -> None:
    """Every preset, 12 seeded deals: the format 1 record and the format 2
    record of a deal replay to the same final state and summary, and the
    format 1 record converts to the format 2 one."""
    for seed in range(12):
        state = _deal(name, seed)
        old = state_to_record(state, format=1)
        new = state_to_record(state)
        assert old["format"] == 1 and new["format"] == 2
        first, second = replay_deal(old), replay_deal(new)
        assert first.complete and second.complete
        _same_state(first.state, second.state)
        _same_state(second.state, state)
        assert replay(old) == replay(new) == deal_summary(state)
        assert convert(old) == new
        assert [a.to_json() for a in first.actions] == new["actions"]


def test_a_match_record_of_format_2() -> None:
    played, states = random_match(preset("seed002"), random.Random(3))
    deals = []
    for state in states:
        deal = state_to_record(state)
        del deal["format"], deal["rules"]  # the match's
        deals.append(deal)
    record = {"format": 2, "rules": "seed002", "deals": deals}
    summary = replay(record)
    assert summary["totals"] == {"NS": played.totals[0], "EW": played.totals[1]}
    assert played.winner is not None and summary["winner"] == ("NS", "EW")[played.winner]
    old = {
        "format": 1,
        "rules": "seed002",
        "deals": [state_to_record(s, format=1) for s in states],
    }
    assert replay(old) == summary
    assert convert(old) == record


MATCH_ENDED: dict[str, Any] = {
    "kind": "match_ended",
    "winner": 1,
    "totals": [239, 571],
    "target": 501,
    "deals": 5,
    "seat": None,
}
"""The end of seed002's random match of seed 3: EW win 571 to 239 in five
deals."""


def test_a_match_record_carries_the_match_ended_event() -> None:
    """A match record written with events carries the match's own beside
    its deals: the typed ``MatchEnded`` (winner, final totals, target,
    deals), the replay's exactly; it reads back, replays, and a wrong one is
    refused.  Without events, none."""
    played, states = random_match(preset("seed002"), random.Random(3))
    assert played.ended == MatchEnded(1, (239, 571), 501, 5)
    deals = []
    for state in states:
        deal = state_to_record(state, events=True)
        del deal["format"], deal["rules"]
        deals.append(deal)
    record: dict[str, Any] = {
        "format": 2,
        "rules": "seed002",
        "deals": deals,
        "events": [MATCH_ENDED],
    }
    assert convert(record, events=True) == record
    assert "events" not in convert(record)
    assert Event.from_json(MATCH_ENDED) == played.ended
    summary = replay(json.loads(json.dumps(record)))
    assert (summary["winner"], summary["totals"]) == ("EW", {"NS": 239, "EW": 571})
    bad = copy.deepcopy(record)
    bad["events"][0]["totals"] = [239, 570]
    with pytest.raises(RecordError, match="the events of the match are not the replay's: event 1"):
        replay(bad)
    # a match not over yet: no MatchEnded
    unfinished = {**record, "deals": deals[:2], "events": []}
    assert convert(unfinished, events=True) == unfinished
    with pytest.raises(RecordError, match="the events of the match are not the replay's"):
        replay({**unfinished, "events": [MATCH_ENDED]})


def test_match_add_emits_match_ended_once() -> None:
    """``Match.add`` gives ``MatchEnded`` to its ``events`` list with the
    deal that reaches the target, and with no other."""
    played, states = random_match(preset("three-players"), random.Random(3))
    match = Match(preset("three-players"), states[0].dealer)
    seen: list[list[Event]] = []
    for state in states:
        assert state.result is not None
        events: list[Event] = []
        match.add(state.result, events)
        seen.append(events)
    assert seen[:-1] == [[]] * 14
    assert seen[-1] == [MatchEnded(2, (826, 986, 1058), 1000, 15)]
    assert seen[-1][0].to_json() == {
        "kind": "match_ended",
        "winner": 2,
        "totals": [826, 986, 1058],
        "target": 1000,
        "deals": 15,
        "seat": None,
    }
    assert match.ended == played.ended == seen[-1][0]


def test_a_format_2_record_from_the_pack_starts_with_the_cut() -> None:
    """``pack`` (before the cut): the cutter's cut is the first action, as in
    a table's log."""
    rules = preset("ffb")
    pack = State.new(rules, Seat.N, list(range(32))).pack
    record = new_deal_record(
        rules, Seat.N, [(Seat.E, "cut 5"), (Seat.N, "deal 2-3"), (Seat.W, "pass")], pack=pack
    )
    assert record == {
        "format": 2,
        "rules": "ffb",
        "dealer": "N",
        "pack": [
            *("7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"),
            *("7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"),
            *("7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"),
            *("7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"),
        ],
        "actions": [
            {"seat": "E", "action": "cut 5"},
            {"seat": "N", "action": "deal 2-3"},
            {"seat": "W", "action": "pass"},
        ],
    }
    replayed = replay_deal(record)
    assert replayed.complete is False
    assert replayed.state.deck[:3] == [5, 6, 7]  # QS KS AS: the 5 cut under
    assert replayed.state.current == Seat.S
    assert [a.action.text for a in replayed.actions] == ["cut 5", "deal 2-3", "pass"]
    assert [e.kind for e in replayed.actions[0].events] == ["cut"]
    # written back from the replay: the pack again, the cut its first action
    assert convert(record) == record


def test_format_2_errors() -> None:
    record = copy.deepcopy(SEED001_17)
    record["actions"][9]["action"] = "8s"  # W led the AD: S holds the KD and 7D
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload == {
        "error": "illegal card",
        "message": "action 10: illegal card '8s' by S at trick 2 (must follow suit)",
        "action": 10,
        "seat": "S",
        "text": "8s",
        "reason": "must_follow_suit",
        "trick": 2,
        "legal": ["7D", "KD"],
    }
    record = copy.deepcopy(SEED001_17)
    record["actions"][6]["action"] = "declare quarte"  # E holds a tierce
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload == {
        "error": "illegal declaration",
        "message": "action 7: illegal declaration 'declare quarte' by E at trick 1 "
        "(declaration not held)",
        "action": 7,
        "seat": "E",
        "text": "declare quarte",
        "reason": "declaration_not_held",
        "trick": 1,
        "legal": ["declare tierce-QH", "declare none"],
    }
    record = copy.deepcopy(SEED001_17)
    record["actions"][1]["seat"] = "W"
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload["message"] == "action 2: 'take' by W, but it is N's turn"
    assert info.value.payload["reason"] == "not_your_turn"
    record = copy.deepcopy(SEED001_17)
    record["actions"][17]["action"] = "KS"  # the belote choice is E's to make
    with pytest.raises(IllegalRecordError) as info:
        replay(record)
    assert info.value.payload == {
        "error": "belote choice needed",
        "message": "action 18: E must say whether he says belote: "
        "KS belote or KS no-belote, not 'KS'",
        "action": 18,
        "seat": "E",
        "text": "KS",
        "legal": ["KS belote", "KS no-belote"],
    }
    record = copy.deepcopy(SEED001_17)
    record["actions"][1]["action"] = "hold"
    with pytest.raises(RecordError, match="action 2: not an action: 'hold'"):
        replay(record)
    record = dict(SEED001_17, actions=[*SEED001_17["actions"], {"seat": "N", "action": "pass"}])
    with pytest.raises(RecordError, match=r"action 37 \('pass'\) comes after the deal ended"):
        replay(record)
    with pytest.raises(RecordError, match="needs either 'deck' or 'pack'"):
        replay(dict(SEED001_17, pack=SEED001_17["deck"]))
    with pytest.raises(RecordError, match="'play': format 1 keys in a format 2 record"):
        replay(dict(SEED001_17, play=[]))
    with pytest.raises(RecordError, match="action 1 must be an object"):
        replay(dict(SEED001_17, actions=["deal 3-2"]))
    with pytest.raises(RecordError, match="the seat of action 1 must be a seat letter"):
        replay(dict(SEED001_17, actions=[{"action": "deal 3-2"}]))
    # a record without "format" that lists actions is format 2
    assert replay({k: v for k, v in SEED001_17.items() if k != "format"})["result"] == "dedans"
    warned = replay(dict(SEED001_17, note="x"))
    assert warned["warnings"] == ["unknown key 'note' not used"]


def test_a_deal_given_by_hands_has_no_format_2_record() -> None:
    record = state_to_record(_deal("ffb", 1), format=1)
    hands: dict[str, list[str]] = {"N": [], "W": [], "S": [], "E": []}
    for trick in replay_deal(record).state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[seat.letter].append(card_name(card))
    by_hands = {
        "format": 1,
        "rules": "ffb",
        "dealer": record["dealer"],
        "hands": hands,
        "turned": record["turned"],
        "bids": record["bids"],
        "play": record["play"],
    }
    assert replay(by_hands) == replay(record)  # readable in format 1
    with pytest.raises(RecordError, match="has no deck: it can be written in format 1 only"):
        convert(by_hands)
