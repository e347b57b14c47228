"""The expert's decision time on one core, in CPU time and in wall time.

Plays arena boards (the pack, dealer and pattern of ``rebelote arena``'s
board ``b`` for ``--seed``) as one deal with the expert at North-South and
the intermediate at East-West, and times every expert decision that has more
than one legal action, split into bids, cards and the rest (cut,
declarations).  The kernel is compiled
first (:func:`rebelote.solver.warm_up`), so its one-off compilation (about
7 s) is not counted.

CPU time (``time.process_time``) is what one core spends, whatever else runs
on the machine; wall time grows with the machine's load.  Both are printed
with the load average.

    uv run python benchmarks/expert_decision_time.py --rules coinche --boards 40 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from rebelote.bots import Budget, decision_seed, make_bot
from rebelote.bots.arena import board_seed, board_setup
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.solver import warm_up
from rebelote.state import Phase, State


def _summary(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"decisions": 0}
    ordered = sorted(values)
    return {
        "decisions": len(ordered),
        "median": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(ordered[-1], 2),
        "mean": round(statistics.fmean(ordered), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="coinche")
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--time-ms",
        type=float,
        default=None,
        help="the decisions' safety cap (default: the expert's, 3000 ms of wall time; "
        "raise it on a loaded machine so that no decision is cut short)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = preset(args.rules)
    expert, inter = make_bot("expert"), make_bot("intermediate")
    bots = {Seat.N: expert, Seat.S: expert, Seat.W: inter, Seat.E: inter}
    warm_up()
    times: dict[str, dict[str, list[float]]] = {
        kind: {"cpu": [], "wall": []} for kind in ("bid", "card", "other", "all")
    }
    budget = Budget(time_ms=args.time_ms)
    for board in range(args.boards):
        pack, dealer, pattern = board_setup(rules, args.seed, board)
        state = State.from_deck(rules, dealer, pack, pattern)
        deal_seed = board_seed(args.seed, board)
        index = 0
        while not state.is_terminal:
            seat = state.current
            assert seat is not None
            legal = state.legal_actions()
            view = observe(state, seat)
            bot = bots[seat]
            cpu, wall = time.process_time(), time.perf_counter()
            action = bot.act(view, legal, seed=decision_seed(deal_seed, seat, index), budget=budget)
            cpu_ms = (time.process_time() - cpu) * 1000.0
            wall_ms = (time.perf_counter() - wall) * 1000.0
            if bot is expert and len(legal) > 1:
                kind = {Phase.PLAYING: "card", Phase.BIDDING: "bid"}.get(state.phase, "other")
                for k in (kind, "all"):
                    times[k]["cpu"].append(cpu_ms)
                    times[k]["wall"].append(wall_ms)
            state.apply(action, seat)
            index += 1
    out = {
        "rules": args.rules,
        "boards": args.boards,
        "seed": args.seed,
        "time_ms": args.time_ms,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "ms": {
            kind: {clock: _summary(v) for clock, v in by_clock.items()}
            for kind, by_clock in times.items()
        },
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
