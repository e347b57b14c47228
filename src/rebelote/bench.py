"""Engine benchmarks on one core (``rebelote bench engine``).

- ``deals_per_s``: random full deals (shuffle, the cut pack dealt, taking,
  declarations, 8 tricks, scoring) played by
  :func:`~rebelote.simulate.play_randomly`, the engine's fast path (the
  legal actions from the play tables, the action drawn from them applied
  without a second check, no events).
- ``checked_deals_per_s``: the same deals through the checked, listening
  API, ``state.apply(rng.choice(state.legal_actions()))``, each action
  checked again and its events built (what a server does with a player's
  action).
- ``legal_per_s``: :meth:`State.legal_play_mask` on positions met in
  random deals.
- ``rollouts_per_s``: a compiled rollout's deals per second; ``None``
  (with ``rollouts: "not built"``) while there is none.

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


def _deals(rules: Rules, deals: int, seed: int, *, checked: bool) -> tuple[float, int]:
    """Seconds to play ``deals`` random deals from ``seed``, and how many
    were played out (a contract was made)."""
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    base = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    played = 0
    start = time.perf_counter()
    for i in range(deals):
        pack = base[:]
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[i % len(seats)], pack, rules.patterns[0])
        if checked:
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
        else:
            play_randomly(state, rng)
        if state.contract is not None:
            played += 1
    return time.perf_counter() - start, played


def _rollouts_per_s(rules: Rules, seed: int) -> float | None:
    """Random full deals per second of a compiled rollout; ``None``: no
    compiled rollout is built yet."""
    return None


def bench_engine(rules: Rules, *, deals: int = 2000, seed: int = 1) -> dict[str, Any]:
    """Play ``deals`` random deals on the fast path and the same deals on
    the checked path, then time legal-move generation on positions met.

    Returns ``{"rules", "deals", "deals_played_out", "seconds",
    "deals_per_s", "checked_deals_per_s", "legal_per_s",
    "rollouts_per_s"}`` (and ``"rollouts": "not built"`` when
    ``rollouts_per_s`` is ``None``); ``seconds`` is the fast path's time,
    rates are per second on one core.
    """
    elapsed, played = _deals(rules, deals, seed, checked=False)
    checked_elapsed, _ = _deals(rules, deals, seed, checked=True)

    # Positions for the legal-move timing: replay some deals, keeping copies.
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    base = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    positions: list[State] = []
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
    rollouts = _rollouts_per_s(rules, seed)
    result: dict[str, Any] = {
        "rules": rules.preset,
        "deals": deals,
        "deals_played_out": played,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "checked_deals_per_s": round(deals / checked_elapsed, 1),
        "legal_per_s": round(rounds * len(positions) / legal_elapsed, 1),
        "rollouts_per_s": rollouts,
    }
    if rollouts is None:
        result["rollouts"] = "not built"
    return result
