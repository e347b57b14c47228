"""Engine benchmarks: random full deals per second and legal-move
generations per second on one core (``rebelote bench engine``).

Figures are rates measured on this machine, for comparison between versions
and engines; they are never asserted in tests.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .cards import DECK_24, DECK_32, cards_of
from .rules import Rules
from .seats import SEATS_3, SEATS_4
from .simulate import play_randomly
from .state import Phase, State

__all__ = ["bench_engine"]


def bench_engine(rules: Rules, *, deals: int = 2000, seed: int = 1) -> dict[str, Any]:
    """Play ``deals`` random deals (shuffle, cut, taking, 8 tricks, scoring)
    through the public, checked API, then time legal-move generation on the
    positions met.  Returns rates per second on one core."""
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    base = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    positions: list[State] = []
    start = time.perf_counter()
    played = 0
    for i in range(deals):
        pack = base[:]
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[i % len(seats)], pack, rules.patterns[0])
        play_randomly(state, rng)
        if state.contract is not None:
            played += 1
    elapsed = time.perf_counter() - start

    # Positions for the legal-move timing: replay some deals, keeping copies.
    rng = random.Random(seed)
    while len(positions) < 2000:
        pack = base[:]
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[0], pack, rules.patterns[0])
        while not state.is_terminal:
            if state.phase == Phase.PLAYING and state.legal_play_mask():
                positions.append(state.copy())
            state.apply(rng.choice(state.legal_actions()))
    rounds = 0
    start_legal = time.perf_counter()
    while True:
        for position in positions:
            position.legal_play_mask()
        rounds += 1
        if time.perf_counter() - start_legal > 1.0:
            break
    legal_elapsed = time.perf_counter() - start_legal
    return {
        "rules": rules.preset,
        "deals": deals,
        "deals_played_out": played,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(deals / elapsed, 1),
        "legal_moves_per_second": round(rounds * len(positions) / legal_elapsed, 1),
    }
