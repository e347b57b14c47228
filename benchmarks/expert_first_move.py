"""The expert's first move in a fresh process, with numba's disk cache
empty (cold: the kernel is compiled and the cache written) and then full
(warm: the kernel is loaded from the cache).

Each measure runs a new Python process (``--child``) with
``NUMBA_CACHE_DIR`` set to a directory of its own: the first run finds it
empty, the next ones find the cache the first wrote.  The child imports the
bots, builds one card decision of a seeded deal (the expert at South, in
the card play, more than one legal card) and times ``Bot.act`` twice: the
first call pays the kernel's compilation or loading, the second is the
decision alone.  The parent also times the child process from its start to
its end.

    uv run python benchmarks/expert_first_move.py --runs 3 --json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def child(rules_name: str, seed: int, trick: int) -> None:
    """Time the first and second expert decisions of one position; print JSON."""
    start = time.perf_counter()
    import random

    from rebelote.bots import Budget, make_bot
    from rebelote.cards import DECK_24, DECK_32, cards_of
    from rebelote.observation import observe
    from rebelote.rules import preset
    from rebelote.seats import Seat
    from rebelote.state import Phase, State

    imported = time.perf_counter()
    rules = preset(rules_name)
    rng = random.Random(seed)
    while True:
        pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
        rng.shuffle(pack)
        state = State.from_deck(rules, Seat.N, pack, rules.patterns[0])
        while not state.is_terminal:
            if (
                state.phase is Phase.PLAYING
                and state.current == Seat.S
                and len(state.tricks) == trick - 1
                and bin(state.legal_play_mask()).count("1") > 1
            ):
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            break
    expert = make_bot("expert")
    view = observe(state, Seat.S)
    legal = state.legal_actions()
    times = []
    cpu = []
    for _ in range(2):
        t0, c0 = time.perf_counter(), time.process_time()
        expert.act(view, legal, seed=seed, budget=Budget())
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    print(
        json.dumps(
            {
                "import_s": round(imported - start, 3),
                "first_move_s": round(times[0], 3),
                "first_move_cpu_s": round(cpu[0], 3),
                "second_move_s": round(times[1], 3),
                "second_move_cpu_s": round(cpu[1], 3),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="ffb")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--trick", type=int, default=3, help="the trick of the decision (1-8)")
    parser.add_argument("--runs", type=int, default=3, help="warm runs after the cold one")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.rules, args.seed, args.trick)
        return
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for run in range(1 + args.runs):
            t0 = time.perf_counter()
            out = subprocess.run(
                [sys.executable, __file__, "--child", "--rules", args.rules,
                 "--seed", str(args.seed), "--trick", str(args.trick)],
                env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            row = {
                "cache": "cold" if run == 0 else "warm",
                "process_s": round(time.perf_counter() - t0, 3),
                **json.loads(out.stdout.strip().splitlines()[-1]),
                "load_average": round(os.getloadavg()[0], 2),
            }
            print(json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
