"""What a seat may see (imperfect information): ``observe(state, seat)``."""

from __future__ import annotations

from rebelote.actions import Declare, Play, parse_bid
from rebelote.cards import CardSet, parse_card
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.state import State

HANDS = {
    Seat.N: "7S 8S 9S 10S JS QS KS AS",
    Seat.W: "7H 8H 9H 10H JH QH KH AH",
    Seat.S: "7D 8D 9D 10D JD QD KD AD",
    Seat.E: "7C 8C 9C 10C JC QC KC AC",
}


def _deal() -> State:
    hands = {seat: list(CardSet.parse(text)) for seat, text in HANDS.items()}
    # Dealer N: W speaks first and takes the turned 7H (W holds it).
    state = State.from_hands(preset("ffb"), Seat.N, hands, parse_card("7H"))
    state.apply(parse_bid("take"))
    return state


def test_own_hand_only_and_hand_sizes() -> None:
    """Each seat sees its own 8 cards and the others' counts only."""
    state = _deal()
    for seat in state.seats:
        view = observe(state, seat)
        assert view.hand == state.hands[seat]
        assert dict(view.hand_sizes) == {s: 8 for s in state.seats}
        assert view.legal == (tuple(state.legal_actions()) if seat == state.current else ())


def test_declining_a_declaration_is_not_public_seed000() -> None:
    """Seed 000: "Cette annonce n'est pas obligatoire": a player who keeps
    his declaration to himself reveals nothing, not even that he had one."""
    state = _deal()
    assert state.current == Seat.W  # W leads (dealer's right) and holds a quinte
    events = state.apply(Declare(()))
    assert [e.kind for e in events] == ["declined"] and events[0].private
    for seat in (Seat.N, Seat.S, Seat.E):
        assert observe(state, seat).declarations == ()
    state.apply(Play(parse_card("AH")))
    assert observe(state, Seat.S).declarations == ()


def test_declaration_made_is_public() -> None:
    """FFB coinche 2015, 8.2 and 8.3 (RULES.md "Declarations"): the table
    hears the nature of a declaration when it is made; the cards of the side
    that scores are shown to all once the first card of the second trick is
    played."""
    state = _deal()
    (everything, *_rest) = state.legal_actions()
    assert isinstance(everything, Declare) and everything.declarations
    state.apply(everything)
    assert observe(state, Seat.W).declarations == ((Seat.W, everything.declarations),)
    for seat in state.seats:
        view = observe(state, seat)
        assert view.declared_kinds == ((Seat.W, ("quinte",)),)
        if seat != Seat.W:
            assert view.declarations == ()
            assert view.to_json()["declarations"] == []
    while not (len(state.tricks) == 1 and state.trick_cards):
        legal = state.legal_actions()
        if isinstance(legal[-1], Declare):
            state.apply(Declare(()))  # the others keep theirs to themselves
            continue
        state.apply(next(a for a in legal if isinstance(a, Play)))
    for seat in state.seats:
        assert [s for s, _ in observe(state, seat).declarations] == [Seat.W]
        assert observe(state, seat).to_json()["declarations"] == [["W", ["quinte-AH"]]]
