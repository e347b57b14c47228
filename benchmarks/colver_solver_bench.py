"""Solver speed side by side: rebelote's double-dummy solver against colver's.

colver (``pip install colver``, a Rust engine with Python bindings) is not a
dependency of rebelote.  This script runs in a virtual environment that has
colver, numba and rebelote's source on the path, so that both solvers are
timed in one process, on the same positions, one after the other::

    python3 -m venv /tmp/colver && /tmp/colver/bin/pip install colver numba==0.68.1
    RAYON_NUM_THREADS=1 PYTHONPATH=src /tmp/colver/bin/python \\
        benchmarks/colver_solver_bench.py --deals 20 --json

Positions: random deals (seeded), coinche rules as colver plays them (no
under-trumping, a suit contract), the first player of the deal to lead; and
the same deals after three tricks played by colver's heuristic (mid-game).
For each position both solvers value every legal card of the player to
move: colver with ``Env.solve_scores()``, rebelote with
:func:`rebelote.solver.solve_moves` (numba kernel, and the pure-Python path
on the mid-game positions).  The values are compared too: colver's card
points of N-S at the end of the deal against rebelote's points difference
for the side to move, converted (capots left out: colver counts 252,
rebelote's coinche preset 250).

Reported: median and mean seconds per position for each solver, their
ratio, rebelote's nodes per second, and how many positions agreed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import colver  # type: ignore[import-not-found, unused-ignore]

from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.solver import Position, kernel_available, search, solve_moves, warm_up
from rebelote.trump import Strain

# colver's ranks within a suit: 7 8 9 J Q K 10 A; rebelote's: 7 8 9 10 J Q K A.
_COLVER_RANK_TO_NATURAL = (0, 1, 2, 4, 5, 6, 3, 7)
_NATURAL_TO_COLVER = tuple(_COLVER_RANK_TO_NATURAL.index(r) for r in range(8))


def to_rebelote(card: int) -> int:
    """A colver card index as a rebelote card."""
    return (card & ~7) | _COLVER_RANK_TO_NATURAL[card & 7]


def to_colver(card: int) -> int:
    """A rebelote card as a colver card index."""
    return (card & ~7) | _NATURAL_TO_COLVER[card & 7]


def position_of(env: Any, trump: int) -> Position:
    """The rebelote position of a colver environment in its card play."""
    hands = [0, 0, 0, 0]
    for seat, cards in enumerate(env.get_hands()):
        for c in cards:
            hands[seat] |= 1 << to_rebelote(c)
    by_seat = env.get_current_trick()  # indexed by seat, -1: no card yet
    turn = env.current_player()
    lead = env.get_trick_lead()
    seats = [(lead + i) % 4 for i in range(4) if by_seat[(lead + i) % 4] >= 0]
    trick = [by_seat[s] for s in seats]
    won = env.get_tricks_won()
    points = env.get_points()
    return Position.from_hands(
        preset("coinche"),
        Strain(trump),
        hands,
        trick=[(Seat(s), to_rebelote(c)) for s, c in zip(seats, trick, strict=True)],
        turn=Seat(turn),
        side_tricks=[int(won[0]), int(won[1])],
        side_points=[int(points[0]), int(points[1])],
    )


def bench(deals: int, seed: int, mid_tricks: int) -> dict[str, Any]:
    """Time both solvers on ``deals`` full deals and as many mid-game
    positions; see the module."""
    warm_up()
    rows: dict[str, list[dict[str, float]]] = {"full": [], "mid": []}
    agree = {"full": [0, 0], "mid": [0, 0]}
    for i in range(deals):
        trump = i % 4
        base = colver.Env.deal(dealer=i % 4, seed=seed + i)
        for kind in ("full", "mid"):
            env = colver.Env.deal_with_hands(i % 4, base.get_hands())
            env.set_contract(trump, 80, 0, 0)
            env.set_phase_playing()
            if kind == "mid":
                for _ in range(4 * mid_tricks):
                    env.step(env.action_heuristic_play())
            pos = position_of(env, trump)
            start = time.perf_counter()
            theirs = env.solve_scores()
            t_colver = time.perf_counter() - start
            ours = solve_moves(pos, kernel="numba")
            row = {"colver_s": t_colver, "numba_s": ours.seconds, "numba_nodes": ours.nodes}
            if kind == "mid":
                pure = search.solve_moves(pos)
                row["python_s"] = pure.seconds
                row["python_nodes"] = pure.nodes
            rows[kind].append(row)
            # Compare the values where no capot is in play.
            rest = pos.remaining_points()
            ok = True
            mover = env.current_player() & 1
            won_ns = env.get_points()[0]
            for c, pts in theirs["scores"]:
                # colver: the card points of team 0 (N-S, the takers here) at
                # the end of the deal; rebelote: the mover's side's difference
                # over the rest of the deal.
                value = ours.values[to_rebelote(c)]
                if abs(value) > rest:
                    continue  # a capot: valued differently
                future_mover = (rest + value) // 2
                future_ns = future_mover if mover == 0 else rest - future_mover
                if future_ns + won_ns != pts:
                    ok = False
            agree[kind][0] += ok
            agree[kind][1] += 1
    out: dict[str, Any] = {
        "deals": deals,
        "seed": seed,
        "mid_after_tricks": mid_tricks,
        "kernel": kernel_available(),
        "rayon_threads": os.environ.get("RAYON_NUM_THREADS"),
    }
    for kind, data in rows.items():
        summary: dict[str, Any] = {"positions": len(data), "values_agree": agree[kind][0]}
        for key in ("colver_s", "numba_s", "python_s"):
            values = [r[key] for r in data if key in r]
            if values:
                summary[key.replace("_s", "_median_ms")] = round(statistics.median(values) * 1e3, 2)
                summary[key.replace("_s", "_mean_ms")] = round(statistics.fmean(values) * 1e3, 2)
        nodes = sum(r["numba_nodes"] for r in data)
        secs = sum(r["numba_s"] for r in data)
        summary["numba_nodes_per_s"] = int(nodes / secs) if secs else None
        if any("python_s" in r for r in data):
            pn = sum(r["python_nodes"] for r in data)
            ps = sum(r["python_s"] for r in data)
            summary["python_nodes_per_s"] = int(pn / ps) if ps else None
        ratios = [r["numba_s"] / r["colver_s"] for r in data if r["colver_s"] > 0]
        summary["numba_over_colver_median_ratio"] = round(statistics.median(ratios), 2)
        out[kind] = summary
    return out


def main() -> None:
    """Command line: ``--deals``, ``--seed``, ``--mid-tricks``, ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mid-tricks", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = bench(args.deals, args.seed, args.mid_tricks)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
