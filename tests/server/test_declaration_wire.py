"""What the table is told of a declaration (FFB coinche 2015, 8.2 and 8.3;
docs/rules/RULES.md "Declarations"): the nature alone when it is made, the
winning side's cards once the declarations are resolved (after the first
card of the second trick), a losing declaration's cards never.

The deals are the reviewer's repro: every seat declares what it can, the
other actions are drawn from ``random.Random(seed)``."""

from __future__ import annotations

import random
from typing import Any

from rebelote.actions import Declare
from rebelote.cards import parse_card
from rebelote.match import Match
from rebelote.observation import (
    declarations_resolved,
    observe,
    public_declaration_cards,
    shown_declarations,
)
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.server.protocol.messages import DeclaredEvent, ShownEvent
from rebelote.server.protocol.redact import event_wire, public_mask, shown_wire
from rebelote.state import State


def _mask(*names: str) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def _play(name: str, seed: int, tricks: int) -> tuple[State, list[tuple[Any, ...]]]:
    """Play ``name``'s deal of ``seed`` until ``tricks`` tricks are done;
    return the state and the ``declared`` / ``shown`` wire data in order."""
    rng = random.Random(seed)
    state = Match(preset(name)).deal(rng=rng)
    out: list[tuple[Any, ...]] = []
    while not state.is_terminal and len(state.tricks) < tricks:
        legal = state.legal_actions()
        declare = [a for a in legal if isinstance(a, Declare) and a.text != "declare none"]
        action = declare[0] if declare else rng.choice(legal)
        before = declarations_resolved(state)
        for event in state.apply(action):
            public, own = event_wire(event, state, match=1, deal=1)
            if event.kind == "declared":
                assert public is not None and own is not None
                out.append(("declared", public.data, own.data))
        shown = shown_wire(state, before, match=1, deal=1)
        if shown is not None:
            out.append(("shown", shown.data, len(state.tricks), len(state.trick_cards)))
    return state, out


def test_two_players_seed_13_the_losing_tierce_stays_hidden() -> None:
    state, wire = _play("two-players", 13, 1)
    assert wire == [
        (
            "declared",
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "S",
                "declarations": ["tierce"],
                "cards": [],
            },
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "S",
                "declarations": ["tierce-JC"],
                "cards": ["9C", "10C", "JC"],
            },
        ),
        (
            "declared",
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "W",
                "declarations": ["tierce"],
                "cards": [],
            },
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "W",
                "declarations": ["tierce-KS"],
                "cards": ["JS", "QS", "KS"],
            },
        ),
    ]
    # trick 1 over, trick 2 not begun: nothing shown yet
    assert not declarations_resolved(state)
    assert public_declaration_cards(state) == 0
    west = observe(state, Seat.W)
    assert [(s.letter, [d.text for d in ds]) for s, ds in west.declarations] == [
        ("W", ["tierce-KS"])
    ]
    assert [(s.letter, list(k)) for s, k in west.declared_kinds] == [
        ("S", ["tierce"]),
        ("W", ["tierce"]),
    ]
    assert "JC" not in str(west.to_json()["declarations"])
    for event in wire:
        DeclaredEvent.model_validate(event[1])
        DeclaredEvent.model_validate(event[2])


def test_two_players_seed_13_the_winner_shows_after_the_first_card_of_trick_2() -> None:
    state, wire = _play("two-players", 13, 2)
    assert wire[2:] == [
        (
            "shown",
            {
                "match": 1,
                "deal": 1,
                "kind": "shown",
                "declarations": [["W", ["tierce-KS"], ["JS", "QS", "KS"]]],
                "side": ["W"],
            },
            1,
            1,
        )
    ]
    ShownEvent.model_validate(wire[2][1])
    # South's losing tierce of clubs: 9C 10C never public unless played (JC
    # is the turned card South took: public from the start)
    public = public_mask(state)
    assert state.turned == parse_card("JC")
    assert public_declaration_cards(state) == _mask("JS", "QS", "KS")
    assert public & _mask("9C", "10C") == state.played & _mask("9C", "10C")
    assert [(s.letter, [d.text for d in ds]) for s, ds in shown_declarations(state)] == [
        ("W", ["tierce-KS"])
    ]


def test_ffb_coinche_seed_0_west_s_tierce_never_reaches_north() -> None:
    state, wire = _play("ffb-coinche", 0, 2)
    assert wire == [
        (
            "declared",
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "W",
                "declarations": ["tierce"],
                "cards": [],
            },
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "W",
                "declarations": ["tierce-9S"],
                "cards": ["7S", "8S", "9S"],
            },
        ),
        (
            "declared",
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "S",
                "declarations": ["tierce"],
                "cards": [],
            },
            {
                "match": 1,
                "deal": 1,
                "kind": "declared",
                "seat": "S",
                "declarations": ["tierce-9C"],
                "cards": ["7C", "8C", "9C"],
            },
        ),
        # two tierces to the nine, neither in trump: "égalité", no side
        # scores (8.3), no one shows
        ("shown", {"match": 1, "deal": 1, "kind": "shown", "declarations": [], "side": []}, 1, 1),
    ]
    north = observe(state, Seat.N)
    assert north.declarations == ()
    assert public_declaration_cards(state) == 0
