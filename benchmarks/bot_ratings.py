"""Fixed ratings of the computer levels from arena runs against the intermediate.

The server rates humans with OpenSkill (Plackett-Luce) and gives each
computer level a fixed ``(mu, sigma)`` (``rebelote.server.people.ratings.BOT_RATINGS``),
the intermediate at a new player's 25.  This script turns a measured arena
run of a level against the intermediate into that level's ``mu``:

1. Each board of a ``rebelote arena --team1 LEVEL --team2 intermediate ... --out
   FILE`` run gives two deals with their scores (LEVEL's side, the
   intermediate's side).
2. Matches are drawn from these deals (with replacement, the preset's target
   score, a match ends when one side reaches it and holds the higher total;
   held-over litige points are not modelled): the share of matches LEVEL's
   team wins (a share of 0 counts as half a match of the draw).
3. ``mu`` is the rating at which OpenSkill predicts that share for a team of
   two LEVEL players against two intermediates, every sigma 1 (the fixed
   sigma of the computer levels).

    uv run python benchmarks/bot_ratings.py coinche-expert.jsonl ffb-expert.jsonl

Prints one JSON object: per file the deals, the match win share and ``mu``,
and the mean ``mu`` by level.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from openskill.models import PlackettLuce

from rebelote.rules import preset

INTERMEDIATE_MU = 25.0
SIGMA = 1.0


def read_run(path: Path) -> tuple[dict[str, object], list[tuple[int, int]]]:
    """The run's header and its deals as (team 1's score, team 2's score)."""
    header: dict[str, object] = {}
    deals: list[tuple[int, int]] = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if "board" not in row:
                header = row
                continue
            a, b = row["score_a"], row["score_b"]
            deals.append((a[0], a[1]))  # team 1 at North-South
            deals.append((b[1], b[0]))  # team 1 at East-West
    if header.get("team2") != "intermediate":
        raise SystemExit(f"{path}: team 2 must be the intermediate")
    return header, deals


def match_share(deals: list[tuple[int, int]], target: int, matches: int, seed: int) -> float:
    """The share of bootstrap matches to ``target`` points that team 1 wins."""
    rng = random.Random(seed)
    won = 0.0
    for _ in range(matches):
        mine = theirs = 0
        while True:
            x, y = deals[rng.randrange(len(deals))]
            mine += x
            theirs += y
            if max(mine, theirs) >= target and mine != theirs:
                break
        won += 1.0 if mine > theirs else 0.0
    return won / matches


def mu_for_share(share: float) -> float:
    """The ``mu`` of a level whose team of two beats two intermediates with
    probability ``share`` under OpenSkill's Plackett-Luce prediction."""
    model = PlackettLuce()
    theirs = [model.rating(mu=INTERMEDIATE_MU, sigma=SIGMA)] * 2
    lo, hi = INTERMEDIATE_MU - 60.0, INTERMEDIATE_MU + 60.0
    for _ in range(80):
        mid = (lo + hi) / 2
        mine = [model.rating(mu=mid, sigma=SIGMA)] * 2
        if model.predict_win([mine, theirs])[0] < share:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="arena JSONL files (--out)")
    parser.add_argument("--matches", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out: dict[str, object] = {"runs": []}
    by_level: dict[str, list[float]] = {}
    for path in args.runs:
        header, deals = read_run(path)
        rules = preset(str(header["rules"]))
        share = match_share(deals, rules.target, args.matches, args.seed)
        # No match won (or lost) in the draw: the share is below 1 / matches;
        # half of that stands for it so that mu stays finite.
        floor = 0.5 / args.matches
        mu = mu_for_share(min(max(share, floor), 1.0 - floor))
        level = str(header["team1"])
        by_level.setdefault(level, []).append(mu)
        out["runs"].append(  # type: ignore[attr-defined]
            {
                "file": str(path),
                "level": level,
                "rules": header["rules"],
                "deals": len(deals),
                "target": rules.target,
                "match_share": round(share, 4),
                "mu": round(mu, 2),
            }
        )
    out["mu"] = {k: round(sum(v) / len(v), 2) for k, v in by_level.items()}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
