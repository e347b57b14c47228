"""Deals and matches played by uniformly random legal actions, from a seed.

Used by ``rebelote demo``, ``rebelote record`` and the benchmarks and
simulation tests; every run is reproducible from its ``random.Random``.
"""

from __future__ import annotations

import random

from .match import Match
from .rules import Rules
from .seats import Seat, seats_of
from .state import State

__all__ = ["play_randomly", "random_deal", "random_match"]


def play_randomly(state: State, rng: random.Random) -> State:
    """Play ``state`` to its end with uniformly random legal actions.

    Each action is ``rng.choice`` of :meth:`State.legal_actions`, as in::

        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))

    which this plays exactly (the same actions, the same ``rng`` draws),
    on the engine's fast path: the action drawn from the legal ones is not
    checked again, and no event is built.
    """
    state._play_out(rng.choice)
    return state


def random_deal(rules: Rules, rng: random.Random, dealer: Seat | None = None) -> State:
    """A whole deal (cut, pattern, bidding, declarations, play) with a pack
    shuffled by ``rng`` and random legal actions; ``dealer`` random if ``None``."""
    seats = seats_of(rules.players)
    if dealer is None:
        dealer = rng.choice(seats)
    match = Match(rules, dealer)
    return play_randomly(match.deal(rng=rng), rng)


def random_match(
    rules: Rules, rng: random.Random, max_deals: int = 1000
) -> tuple[Match, list[State]]:
    """A whole match by random legal actions; returns the match and its deals.

    Stops after ``max_deals`` deals even if no side has won.
    """
    seats = seats_of(rules.players)
    match = Match(rules, rng.choice(seats))
    states: list[State] = []
    while not match.is_over and len(states) < max_deals:
        state = play_randomly(match.deal(rng=rng), rng)
        states.append(state)
        assert state.result is not None
        match.add(state.result)
    return match, states
