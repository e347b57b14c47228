"""Typed events: one frozen dataclass per kind, exactly as a fixed deal
produces them, with their JSON form read back (``Event.from_json``).

The fixed deal: the pack in card order (7S 8S ... AC), dealer N; E, on the
dealer's left, cuts 16 (seed 001: "le joueur situé à gauche du joueur
donneur doit effectuer la coupe"); N deals 3-2 from his right (W S E N),
turns the JS; W takes spades.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.actions import Bid, ChoosePattern, Cut, Declare, Play
from rebelote.auction import Contract
from rebelote.cards import DECK_24, DECK_32, CardSet, cards_of, parse_card, parse_cards
from rebelote.events import (
    AllPassed,
    BeloteSaid,
    BidMade,
    CardPlayed,
    CardTurned,
    ContractMade,
    DealCancelled,
    DealCompleted,
    DealScored,
    Dealt,
    Declared,
    Declined,
    Event,
    EventError,
    MatchEnded,
    PackCut,
    PatternChosen,
    TrickWon,
)
from rebelote.rules import PRESETS, preset
from rebelote.seats import Seat
from rebelote.state import State
from rebelote.trump import Strain
from test_options import PACK

FFB = preset("ffb")
N, W, S, E = Seat.N, Seat.W, Seat.S, Seat.E


def m(text: str) -> int:
    """The mask of the cards ``text``."""
    return CardSet.parse(text).mask


def card(text: str) -> int:
    """Shorthand for ``parse_card``."""
    return parse_card(text)


def fixed_deal() -> State:
    """The module's deal, before the cut."""
    return State.new(FFB, N, PACK)


def test_events_of_the_cut_the_deal_and_the_taking_seed001() -> None:
    """Seed 001: the cut, 3 then 2 cards from the dealer's right, the turned
    card; the taker gets it and 2 more, the others 3."""
    state = fixed_deal()
    assert state.apply(Cut(16)) == [PackCut(E, 16)]
    assert state.apply(ChoosePattern("3-2")) == [
        PatternChosen(N, "3-2"),
        Dealt(W, m("7D 8D 9D")),
        Dealt(S, m("10D JD QD")),
        Dealt(E, m("KD AD 7C")),
        Dealt(N, m("8C 9C 10C")),
        Dealt(W, m("JC QC")),
        Dealt(S, m("KC AC")),
        Dealt(E, m("7S 8S")),
        Dealt(N, m("9S 10S")),
        CardTurned(card("JS")),
    ]
    assert state.apply(Bid("take")) == [
        BidMade(W, Bid("take")),
        ContractMade(W, Contract(W, Strain.S)),
        DealCompleted(W, m("JS")),
        Dealt(W, m("QS KS")),
        Dealt(S, m("AS 7H 8H")),
        Dealt(E, m("9H 10H JH")),
        Dealt(N, m("QH KH AH")),
    ]


def test_events_of_the_play_seed001() -> None:
    """W declares his two tierces with his first card (FFB, declarations by
    choice; S and N decline theirs, E declares), says belote with the QS
    (seed 001: "Elle est annoncée en déposant le roi"), and the trick goes
    to the highest trump (J 9 A 10 K Q 8 7): N's 9S."""
    state = fixed_deal()
    for action in (Cut(16), ChoosePattern("3-2"), Bid("take")):
        state.apply(action)
    found = state.found[W]
    assert [d.text for d in found] == ["tierce-KS", "tierce-9D"]
    assert state.apply(Declare(found)) == [Declared(W, found)]
    assert state.apply(Play(card("QS"))) == [
        BeloteSaid(W, card("QS"), "belote"),
        CardPlayed(W, card("QS")),
    ]
    assert state.apply(Declare(())) == [Declined(S)]
    assert state.apply(Play(card("AS"))) == [CardPlayed(S, card("AS"))]
    found_e = state.found[E]
    assert [d.text for d in found_e] == ["tierce-JH"]
    assert state.apply(Declare(found_e)) == [Declared(E, found_e)]
    assert state.apply(Play(card("7S"))) == [CardPlayed(E, card("7S"))]
    assert state.apply(Declare(())) == [Declined(N)]
    assert state.apply(Play(card("9S"))) == [
        CardPlayed(N, card("9S")),
        TrickWon(N, 1, tuple(parse_cards("QS AS 7S 9S")), 3 + 11 + 0 + 14),
    ]


def test_all_passed_and_deal_scored() -> None:
    """Seed 001: all pass twice, the deal is void: ``all_passed`` then
    nothing; a deal played to the end ends with ``deal_scored``."""
    state = State.from_deck(FFB, N, PACK, "3-2")
    events: list[Event] = []
    for _ in range(8):
        events += state.apply(Bid("pass"))
    assert events[-2:] == [BidMade(N, Bid("pass")), AllPassed()]  # the dealer speaks last
    assert state.is_terminal
    played = State.from_deck(FFB, N, PACK, "3-2")
    out: list[Event] = []
    rng = random.Random(5)
    while not played.is_terminal:
        out += played.apply(rng.choice(played.legal_actions()))
    assert played.result is not None
    assert out[-1] == DealScored(played.result)
    assert [e.number for e in out if isinstance(e, TrickWon)] == list(range(1, 9))


def test_carre_of_sevens_cancels_seed001() -> None:
    """Seed 001 "Un carré de 7 annule la partie": the deal is cancelled by
    the holder of the four 7s."""
    hands = {
        N: "7S 7H 7D 7C AS AH AD 10C",
        W: "8S 10S QS 8H 10H 8D 10D QC",
        S: "9S JS KS 9H JH 9D JD 8C",
        E: "QH KH QD KD 9C JC KC AC",
    }
    state = State.from_hands(
        preset("seed001"), N, {s: parse_cards(h) for s, h in hands.items()}, card("8S")
    )
    events = state.apply(Bid("take"))
    assert events[-1] == DealCancelled(N, "carre of 7s", m("7S 7H 7D 7C"))
    assert state.is_terminal


def test_private_events() -> None:
    """Only the cards dealt to a seat and a declined declaration are
    private."""
    private = {cls.kind for cls in (Dealt, DealCompleted, Declined)}
    for event in all_kinds():
        assert event.private == (event.kind in private), event.kind


def all_kinds() -> list[Event]:
    """One event of each kind."""
    state = fixed_deal()
    events: list[Event] = []
    for action in (Cut(16), ChoosePattern("3-2"), Bid("take")):
        events += state.apply(action)
    events += state.apply(Declare(state.found[W]))
    rng = random.Random(2)
    while not state.is_terminal:
        legal = state.legal_actions()
        events += state.apply(legal[-1] if isinstance(legal[0], Declare) else rng.choice(legal))
    events += [AllPassed(), DealCancelled(N, "carre of 7s", m("7S 7H 7D 7C"))]
    kinds = {e.kind: e for e in events}
    return list(kinds.values())


def test_every_kind_is_met_once() -> None:
    """The kinds, as JSON names them."""
    assert sorted(e.kind for e in all_kinds()) == sorted(
        [
            "cut",
            "pattern",
            "dealt",
            "turned",
            "bid",
            "all_passed",
            "contract",
            "completed",
            "cancelled",
            "declared",
            "declined",
            "belote_said",
            "played",
            "trick_won",
            "deal_scored",
        ]
    )


@pytest.mark.parametrize(
    ("event", "data"),
    [
        (PackCut(E, 16), {"kind": "cut", "seat": "E", "packet": 16}),
        (PatternChosen(N, "2-3"), {"kind": "pattern", "seat": "N", "pattern": "2-3"}),
        (Dealt(W, m("7D 8D 9D")), {"kind": "dealt", "seat": "W", "cards": ["7D", "8D", "9D"]}),
        (CardTurned(card("JS")), {"kind": "turned", "card": "JS", "seat": None}),
        (BidMade(S, Bid("contract", Strain.H, 250)), {"kind": "bid", "seat": "S", "bid": "capotH"}),
        (AllPassed(), {"kind": "all_passed", "seat": None}),
        (
            ContractMade(W, Contract(W, Strain.S, 120, 2)),
            {
                "kind": "contract",
                "seat": "W",
                "contract": {"taker": "W", "strain": "S", "value": 120, "multiplier": 2},
            },
        ),
        (DealCompleted(W, m("JS")), {"kind": "completed", "seat": "W", "cards": ["JS"]}),
        (
            DealCancelled(N, "carre of 7s", m("7S 7H 7D 7C")),
            {
                "kind": "cancelled",
                "seat": "N",
                "reason": "carre of 7s",
                "cards": ["7S", "7H", "7D", "7C"],
            },
        ),
        (Declined(N), {"kind": "declined", "seat": "N"}),
        (
            BeloteSaid(W, card("KS"), "rebelote"),
            {"kind": "belote_said", "seat": "W", "card": "KS", "word": "rebelote"},
        ),
        (CardPlayed(E, card("10H")), {"kind": "played", "seat": "E", "card": "10H"}),
        (
            TrickWon(N, 1, tuple(parse_cards("QS AS 7S 9S")), 28),
            {
                "kind": "trick_won",
                "seat": "N",
                "number": 1,
                "cards": ["QS", "AS", "7S", "9S"],
                "points": 28,
            },
        ),
        (
            MatchEnded(0, (1012, 540), 1000, 9),
            {
                "kind": "match_ended",
                "winner": 0,
                "totals": [1012, 540],
                "target": 1000,
                "deals": 9,
                "seat": None,
            },
        ),
    ],
)
def test_json_forms(event: Event, data: dict[str, Any]) -> None:
    """Seats as letters, cards as names, masks as lists in card order."""
    assert event.to_json() == data
    assert Event.from_json(data) == event


def test_declared_and_scored_json() -> None:
    """A declaration as its kind, cards, top card and points; a deal result
    as its fields; both read back."""
    state = fixed_deal()
    for action in (Cut(16), ChoosePattern("3-2"), Bid("take")):
        state.apply(action)
    declared = state.apply(Declare(state.found[W]))[0]
    assert declared.to_json() == {
        "kind": "declared",
        "seat": "W",
        "declarations": [
            {"kind": "tierce", "cards": ["JS", "QS", "KS"], "top": "KS", "points": 20},
            {"kind": "tierce", "cards": ["7D", "8D", "9D"], "top": "9D", "points": 20},
        ],
    }
    assert isinstance(declared, Declared) and declared.cards == m("JS QS KS 7D 8D 9D")
    rng = random.Random(8)
    events: list[Event] = []
    while not state.is_terminal:
        events += state.apply(rng.choice(state.legal_actions()))
    scored = events[-1]
    assert isinstance(scored, DealScored) and state.result is not None
    data = scored.to_json()
    assert data["result"]["score"] == list(state.result.score)
    assert data["result"]["contract"] == {
        "taker": "W",
        "strain": "S",
        "value": None,
        "multiplier": 1,
    }
    assert Event.from_json(data) == scored


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "shuffled"}, "unknown event kind 'shuffled'"),
        ({"seat": "N"}, "unknown event kind None"),
        ({"kind": "cut", "seat": "N"}, "event 'cut' needs 'packet'"),
        ({"kind": "cut", "seat": "X", "packet": 3}, "event 'cut': bad 'seat'"),
        ({"kind": "cut", "seat": "N", "packet": "3"}, "event 'cut': bad 'packet'"),
        ({"kind": "played", "seat": "N", "card": "1Z"}, "event 'played': bad 'card'"),
        ({"kind": "bid", "seat": "N", "bid": "85H"}, "event 'bid': bad 'bid'"),
        ({"kind": "belote_said", "seat": "N", "card": "KS", "word": "x"}, "bad 'word'"),
        ({"kind": "all_passed", "seat": "N"}, "event 'all_passed': bad 'seat'"),
        (
            {"kind": "match_ended", "winner": 0, "totals": "1012", "target": 1000, "deals": 9},
            "event 'match_ended': bad 'totals'",
        ),
        ({"kind": "match_ended", "winner": 0, "totals": [1]}, "event 'match_ended' needs"),
    ],
)
def test_bad_json(data: dict[str, Any], message: str) -> None:
    """Unknown kinds, missing and unreadable fields raise EventError (a
    ValueError)."""
    with pytest.raises(EventError, match=message.replace("(", r"\(")):
        Event.from_json(data)


def test_events_are_frozen() -> None:
    """Events cannot change once made."""
    event = CardPlayed(N, card("AS"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.card = 3  # type: ignore[misc]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1))
def test_every_event_reads_back(name: str, seed: int) -> None:
    """Every event of a random deal of any preset reads back from its JSON;
    the cards played, in order, are the tricks' cards."""
    rules = preset(name)
    rng = random.Random(seed)
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    dealer = W if rules.players == 3 else N
    state = State.new(rules, dealer, pack)
    events: list[Event] = []
    while not state.is_terminal:
        events += state.apply(rng.choice(state.legal_actions()))
    for event in events:
        assert Event.from_json(event.to_json()) == event
    played = [e.card for e in events if isinstance(e, CardPlayed)]
    assert played == [c for t in state.tricks for c in t.cards]
