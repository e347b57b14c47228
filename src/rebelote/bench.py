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
- ``rollouts_per_s``: random full deals per second of the compiled
  rollouts (:func:`rebelote.rollout.random_deals`: shuffle, the first
  distribution, the auction, the rest of the deal, declarations, 8 tricks,
  scoring, every action drawn uniformly from the legal ones), in CPU time
  of one core; ``None`` without numba (``rollouts: "numba is not
  installed"``).
- ``play_outs_per_s``: the compiled rollouts of the card play of one deal
  (:func:`rebelote.rollout.play_out` of the first deal whose card play
  starts, random cards), per CPU second.
- ``colver_rollouts_per_s``, ``colver_play_outs_per_s``: colver's native
  ``Env.rollout`` (random coinche deals in Rust) in the same run, from a
  deal's bidding and from its card play (a contract set), per CPU second;
  ``None`` (``colver: "not installed"``) where ``import colver`` fails:
  colver is not a dependency (``pip install colver`` beside rebelote).

Figures are rates measured on this machine, for comparison between versions
and engines; they are never asserted in tests.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .cards import DECK_24, DECK_32, cards_of
from .rules import Rules
from .seats import seats_of
from .simulate import play_randomly
from .state import Phase, State

__all__ = ["bench_engine"]


def _deals(rules: Rules, deals: int, seed: int, *, checked: bool) -> tuple[float, int]:
    """Seconds to play ``deals`` random deals from ``seed``, and how many
    were played out (a contract was made)."""
    rng = random.Random(seed)
    seats = seats_of(rules.players)
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


def _rollouts(rules: Rules, seed: int, count: int) -> dict[str, Any]:
    """The compiled rollouts' rates (``rollouts_per_s``, ``play_outs_per_s``),
    after a first call that loads (or compiles) them."""
    from . import rollout

    if not rollout.AVAILABLE:
        return {
            "rollouts_per_s": None,
            "play_outs_per_s": None,
            "rollouts": "numba is not installed",
        }
    rollout.random_deals(rules, 10, seed)
    start = time.process_time()
    rollout.random_deals(rules, count, seed)
    deals_elapsed = time.process_time() - start
    rng = random.Random(seed)
    seats = seats_of(rules.players)
    base = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    while True:
        pack = base[:]
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[0], pack, rules.patterns[0])
        while state.phase is Phase.BIDDING:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase in (Phase.PLAYING, Phase.DECLARING):
            break
    rollout.play_out(state, 10, seed)
    start = time.process_time()
    rollout.play_out(state, count, seed)
    play_elapsed = time.process_time() - start
    return {
        "rollouts_per_s": round(count / deals_elapsed, 1),
        "play_outs_per_s": round(count / play_elapsed, 1),
    }


def _colver(seed: int, count: int) -> dict[str, Any]:
    """colver's ``Env.rollout`` rates from a deal's bidding and from its card
    play, per CPU second; ``None`` where colver cannot be imported."""
    try:
        import colver  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return {
            "colver_rollouts_per_s": None,
            "colver_play_outs_per_s": None,
            "colver": "not installed",
        }
    env = colver.Env.deal(dealer=0, seed=seed)
    env.rollout(10)
    start = time.process_time()
    env.rollout(count)
    bidding_elapsed = time.process_time() - start
    env = colver.Env.deal(dealer=0, seed=seed)
    env.set_contract(0, 80, 0, 0)  # 80 in spades by North-South, not coinched
    env.set_phase_playing()
    env.rollout(10)
    start = time.process_time()
    env.rollout(count)
    play_elapsed = time.process_time() - start
    return {
        "colver_rollouts_per_s": round(count / bidding_elapsed, 1),
        "colver_play_outs_per_s": round(count / play_elapsed, 1),
        "colver_version": getattr(colver, "__version__", None),
    }


def bench_engine(
    rules: Rules, *, deals: int = 2000, seed: int = 1, rollouts: int = 200_000
) -> dict[str, Any]:
    """Play ``deals`` random deals on the fast path and the same deals on
    the checked path, time legal-move generation on positions met, then
    ``rollouts`` compiled rollouts (and colver's, where it is installed).

    Returns ``{"rules", "deals", "deals_played_out", "seconds",
    "deals_per_s", "checked_deals_per_s", "legal_per_s",
    "rollouts_per_s", "play_outs_per_s", "colver_rollouts_per_s",
    "colver_play_outs_per_s"}`` (``"rollouts"`` / ``"colver"`` say why a
    rate is ``None``; ``"colver_version"`` where it ran); ``seconds`` is the
    fast path's time, rates are per second on one core (the rollouts' in
    CPU time).
    """
    elapsed, played = _deals(rules, deals, seed, checked=False)
    checked_elapsed, _ = _deals(rules, deals, seed, checked=True)

    # Positions for the legal-move timing: replay some deals, keeping copies.
    rng = random.Random(seed)
    seats = seats_of(rules.players)
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
    result: dict[str, Any] = {
        "rules": rules.preset,
        "deals": deals,
        "deals_played_out": played,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "checked_deals_per_s": round(deals / checked_elapsed, 1),
        "legal_per_s": round(rounds * len(positions) / legal_elapsed, 1),
    }
    result.update(_rollouts(rules, seed, rollouts))
    result.update(_colver(seed, rollouts))
    return result
