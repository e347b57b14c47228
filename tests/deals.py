"""Deals for the bot tests, built from card texts (``"JH 9H AH"``): every
hand given in full, or the pack shuffled by a seed.

Shared by ``test_heuristic.py`` and ``test_ddbid.py``; imported as
``deals`` (``tests/`` is on the path of the modules at its top level)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from rebelote.actions import Play, parse_bid
from rebelote.cards import DECK_32, Card, cards_of, parse_card, parse_cards
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
