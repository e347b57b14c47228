"""Deals for the bot tests, built from card texts (``"JH 9H AH"``): every
hand given in full, or the pack shuffled by a seed.

Shared by ``test_heuristic.py``, ``test_ddbid.py``, ``test_bots.py`` and
``test_expert_classic_bids.py``; imported as
``deals`` (``tests/`` is on the path of the modules at its top level)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rebelote.actions import Play, parse_bid
from rebelote.cards import DECK_32, Card, CardSet, cards_of, parse_card, parse_cards
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.state import State


def deal_from_hands(
    rules_name: str,
    dealer: Seat,
    hands: Mapping[Seat, str],
    turned: str | None = None,
    actions: str = "",
) -> State:
    """A deal of ``rules_name`` from each seat's final eight cards and, in
    the classic games, the turned card; ``actions`` (bids ``pass`` and
    ``take``, then cards) are applied in order."""
    state = State.from_hands(
        preset(rules_name),
        dealer,
        {seat: parse_cards(text) for seat, text in hands.items()},
        None if turned is None else parse_card(turned),
    )
    for text in actions.split():
        state.apply(parse_bid(text) if text in ("pass", "take") else Play(parse_card(text)))
    return state


def shuffled_pack(seed: int) -> list[Card]:
    """The 32 cards in the order ``random.Random(seed)`` shuffles them."""
    pack = list(cards_of(DECK_32))
    random.Random(seed).shuffle(pack)
    return pack


def classic_pack(
    dealer: Seat, first: Mapping[Seat, str], turned: str, rest: Sequence[int] = ()
) -> list[Card]:
    """A pack (3-2 distribution) giving each seat its five ``first`` cards
    and turning ``turned``; the other cards follow in the order of ``rest``
    (default: card order)."""
    order = [Seat((dealer + 1 + i) & 3) for i in range(4)]
    hands = {s: parse_cards(first[s]) for s in order}
    deck: list[Card] = []
    for s in order:
        deck += hands[s][:3]
    for s in order:
        deck += hands[s][3:5]
    deck.append(parse_card(turned))
    used = set(deck)
    deck += [c for c in (rest or range(32)) if c not in used]
    return deck


SPEAKING_ORDER = (Seat.N, Seat.W, Seat.S, Seat.E)
"""Dealer E: the seats in the order they speak (E, the dealer, last)."""


def classic_deal(rules_name: str, hand: str, turned: str, position: int = 0) -> State:
    """A classic deal of ``rules_name``, dealer E, where the seat speaking
    at ``position`` (0..3) of each round holds ``hand`` with ``turned``
    turned; the other seats get the other cards in card order."""
    target = SPEAKING_ORDER[position]
    used = set(CardSet.parse(hand + " " + turned))
    names = [str(CardSet([c])) for c in range(32) if c not in used]
    first: dict[Seat, str] = {}
    k = 0
    for seat in SPEAKING_ORDER:
        if seat == target:
            first[seat] = hand
        else:
            first[seat] = " ".join(names[k : k + 5])
            k += 5
    state = State.from_deck(preset(rules_name), Seat.E, classic_pack(Seat.E, first, turned), "3-2")
    assert state.current == Seat.N
    return state
