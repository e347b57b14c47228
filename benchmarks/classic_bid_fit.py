"""How the expert's classic thresholds were chosen (``expert.CLASSIC_TAKE_OFFSETS``
and ``expert.CLASSIC_SWITCH_MARGIN``), by simulation.

``gen``: the intermediate plays the auctions of ``--deals`` ``ffb`` deals
(``board_setup(ffb, seed, 0..deals-1)``, one deal per board).  At each
decision where some take comes within ``--near`` points of the threshold
(:func:`rebelote.bots.heuristic.take_value` of -near or more), every
candidate bid is played out on the true deal: the rest of the auction and
the card play by the intermediate.  The true deal is a draw from the worlds
the seat cannot tell apart, so the mean over many decisions of
``score(bid) - score(pass)`` is the value of the bid given what the seat
knew.  One JSON line per decision.

``select``: for each round and number of seats that passed before, the
taking threshold (points of ``take_value``) and, in round one, the margin by
which another suit must beat the turned suit to pass and name it in round
two, that gain the most points over the intermediate's own bids on the
decisions; with the gain's z (total over the root of the sum of squares).

    uv run python benchmarks/classic_bid_fit.py gen --seed 21 --deals 30000 --out g21.jsonl
    (seeds 21 to 26)
    uv run python benchmarks/classic_bid_fit.py select g2?.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from rebelote.actions import Action, Bid
from rebelote.bots.arena import board_seed, board_setup
from rebelote.bots.base import Budget, decision_seed
from rebelote.bots.heuristic import HeuristicBot, take_value
from rebelote.cards import bit
from rebelote.declarations import find_declarations
from rebelote.observation import observe
from rebelote.rules import Rules, preset
from rebelote.seats import Seat
from rebelote.state import Phase, State
from rebelote.trump import Strain

BOT = HeuristicBot.intermediate()


def _value(rules: Rules, hand6: int, strain: Strain) -> float:
    """The intermediate's take value of ``strain`` (declarations counted)."""
    points = 0
    if rules.declarations != "off":
        points = sum(d.points for d in find_declarations(hand6, strain))
    mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(strain)
    return take_value(hand6, strain, multiplier=mult, declarations=points)


def _play_out(
    rules: Rules,
    deal: tuple[list[int], Seat, str],
    prefix: list[tuple[Seat, Action]],
    seed: int,
) -> tuple[int, ...]:
    """The deal's score when ``prefix`` is applied and the intermediate
    plays everything after it."""
    pack, dealer, pattern = deal
    state = State.from_deck(rules, dealer, pack, pattern)
    for who, done in prefix:
        state.apply(done, who)
    index = 100
    budget = Budget()
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            action = BOT.act(
                observe(state, seat), legal, seed=decision_seed(seed, seat, index), budget=budget
            )
        state.apply(action, seat)
        index += 1
    assert state.result is not None
    return tuple(state.result.score)


def generate(seed: int, deals: int, near: float, out: TextIO) -> None:
    """Write the decisions of ``deals`` deals of seed ``seed`` to ``out``."""
    rules = preset("ffb")
    for board in range(deals):
        deal = board_setup(rules, seed, board)
        pack, dealer, pattern = deal
        deal_seed = board_seed(seed, board)
        state = State.from_deck(rules, dealer, pack, pattern)
        prefix: list[tuple[Seat, Action]] = []
        while state.phase is Phase.BIDDING:
            seat = state.current
            assert seat is not None
            legal = state.legal_actions()
            view = observe(state, seat)
            default = legal[0] if len(legal) == 1 else BOT.choose_bid(view, legal)
            bids = [a for a in legal if isinstance(a, Bid)]
            assert view.turned is not None
            hand6 = view.hand | bit(view.turned)
            turned_suit = Strain(view.turned >> 3)
            takes: list[tuple[Bid, float]] = []
            for bid in bids[1:]:
                strain = turned_suit if bid.kind == "take" else bid.strain
                if strain is not None:
                    takes.append((bid, _value(rules, hand6, strain)))
            if takes and max(v for _, v in takes) >= -near:
                mine = int(seat) & 1
                row: dict[str, Any] = {
                    "board": board,
                    "seat": int(seat),
                    "bids_before": len(prefix),
                    "default": str(default),
                    "hand": view.hand,
                    "turned": view.turned,
                    "other": max(
                        _value(rules, hand6, Strain(s)) for s in range(4) if s != turned_suit
                    ),
                    "candidates": {},
                }
                for bid, value in [(bids[0], None), *takes]:
                    score = _play_out(rules, deal, [*prefix, (seat, bid)], deal_seed)
                    row["candidates"][str(bid)] = [value, score[mine] - score[1 - mine]]
                out.write(json.dumps(row) + "\n")
            prefix.append((seat, default))
            state.apply(default, seat)


def select(paths: list[Path]) -> dict[str, Any]:
    """The best threshold (and round-one margin) by round and position."""
    groups: dict[tuple[int, int], list[tuple[float, float, float, float]]] = defaultdict(list)
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                c = row["candidates"]
                passed = c["pass"][1]
                best = max((k for k in c if k != "pass"), key=lambda k: c[k][0])
                value, score = c[best]
                n = row["bids_before"]
                groups[(n // 4, n % 4)].append(
                    (value, score - passed, row["other"], c[row["default"]][1] - passed)
                )

    def gains(
        rows: list[tuple[float, float, float, float]], t: float, margin: float | None
    ) -> Iterator[float]:
        for value, gain, other, default_gain in rows:
            take = value >= t and not (margin is not None and other - value >= margin)
            yield (gain if take else 0.0) - default_gain

    out: dict[str, Any] = {}
    for (rnd, pos), rows in sorted(groups.items()):
        best = None
        for t in range(-40, 21, 5):
            for margin in [None, 40, 60, 80, 100] if rnd == 0 else [None]:
                g = list(gains(rows, t, margin))
                total = sum(g)
                z = total / max(1.0, math.sqrt(sum(x * x for x in g)))
                if best is None or total > best["gain"]:
                    best = {"threshold": t, "margin": margin, "gain": total, "z": round(z, 1)}
        assert best is not None
        out[f"round {rnd + 1}, {pos} passed before"] = {"decisions": len(rows), **best}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gen", help="simulate bidding decisions")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--deals", type=int, default=30000)
    g.add_argument("--near", type=float, default=80.0)
    g.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("select", help="choose thresholds from decision files")
    s.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    if args.command == "gen":
        with args.out.open("w", encoding="utf-8") as f:
            generate(args.seed, args.deals, args.near, f)
    else:
        print(json.dumps(select(args.files), indent=2))


if __name__ == "__main__":
    main()
