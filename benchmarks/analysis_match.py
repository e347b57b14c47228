"""How long the expert's analysis of one whole match takes (issue 16).

Plays one match of four intermediate computer players (``--preset``, its
own target unless ``--target``; ``--seed``), writes its match record (format
2, as ``GET /api/tables/{id}/record`` gives it) to ``--out``, then runs
``rebelote analyse FILE --json`` on it as a separate process (the
command the server's analysis job runs deal by deal, in a process of its
own) and prints the deals, the wall time and the load average before and
after (the machine is shared).

    uv run python benchmarks/analysis_match.py --preset ffb --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from rebelote.bots import Budget, make_bot
from rebelote.match import Match
from rebelote.observation import observe
from rebelote.record import new_deal_record
from rebelote.rules import preset
from rebelote.seats import SEATS_3, SEATS_4


def play_match(name: str, target: int | None, seed: int) -> dict[str, object]:
    """A match of intermediate players, as a format 2 match record."""
    rules = preset(name) if target is None else preset(name).replace(target=target)
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    match = Match(rules, rng.choice(seats))
    bot = make_bot("intermediate")
    deals = []
    while not match.is_over:
        pack = match.shuffled_pack(rng)
        dealer = match.dealer
        state = match.deal(pack)
        actions = []
        while not state.is_terminal:
            seat = state.current
            assert seat is not None
            view = observe(state, seat)
            action = bot.act(view, view.legal, seed=rng.randrange(1 << 30), budget=Budget())
            actions.append((seat, action.text))
            state.apply(action, seat)
        assert state.result is not None
        match.add(state.result)
        record = new_deal_record(rules, dealer, actions, pack=pack)
        del record["format"], record["rules"]
        deals.append(record)
    return {"format": 2, "rules": rules.to_record(), "deals": deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="ffb")
    parser.add_argument("--target", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="/tmp/rebelote-analysis-match.json")
    parser.add_argument("--no-bids", action="store_true", help="analyse the cards only")
    args = parser.parse_args()
    record = play_match(args.preset, args.target, args.seed)
    out = Path(args.out)
    out.write_text(json.dumps(record))
    load_before = os.getloadavg()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rebelote",
            "analyse",
            str(out),
            "--json",
            *(["--no-bids"] if args.no_bids else []),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    load_after = os.getloadavg()
    report = json.loads(done.stdout)
    cards = sum(len(d["cards"]) for d in report["deals"])
    bids = sum(len(d["bids"] or []) for d in report["deals"])
    print(
        f"{args.preset} (rules {record['rules']}): {len(report['deals'])} deals, "
        f"{cards} cards, {bids} bids analysed in {seconds:.1f} s "
        f"({seconds / len(report['deals']):.2f} s a deal, process start included; "
        f"{cpu:.1f} s of CPU); "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )


if __name__ == "__main__":
    main()
