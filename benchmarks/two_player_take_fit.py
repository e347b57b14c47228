"""How the two-player take weights were fitted
(``evaluation.two_player_take_value``), by simulation.

``gen``: for each pack ``board_setup(two-players, seed, 0..packs-1)``, four
forced contracts, each played out by the intermediate at both seats: the
first speaker takes the turned suit in round one; the dealer does (the first
speaker passed); the first speaker names a random other suit in round two
(both passed in round one); the dealer does.  One JSON line per contract:
the taker's five cards and the turned card (``hand``, a card mask), the
``strain`` (0..3) and ``diff``, the deal's score of the taker less the
opponent's (declarations and belote included).

``fit``: the least-squares weights of ``diff`` on the features of
``two_player_take_value`` (trumps held 0..6, the trump jack, nine, ace and
ten, belote, side aces, side ace-ten, guarded side tens, voids, points of
declarations), and how much taking above 0 gains per contract on the half
of the contracts not fitted, against ``take_value`` (four-player weights).

The weights in ``evaluation.py`` come from ``--seed 100 --packs 12000``
(48,000 contracts), played by the intermediate before its two-player
changes (commit e9555f6; its play is the same in the first tricks of many
deals, not in all).  Needs numpy (not a dependency of the package: ``uv run
--with numpy``).

    uv run python benchmarks/two_player_take_fit.py gen --seed 100 --packs 12000 --out g.jsonl
    uv run --with numpy python benchmarks/two_player_take_fit.py fit g.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from rebelote.actions import Bid
from rebelote.bots.arena import board_setup
from rebelote.bots.base import Budget, decision_seed
from rebelote.bots.evaluation import take_value
from rebelote.bots.heuristic import HeuristicBot
from rebelote.cards import Rank, bit
from rebelote.declarations import find_declarations
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.state import Phase, State
from rebelote.trump import Strain

RULES = preset("two-players")
SUITS = ("S", "H", "D", "C")


def forced_contract(
    pack: list[int], dealer: Any, pattern: str, mode: int, board: int, rng: random.Random
) -> dict[str, int] | None:
    """Play one forced contract (``mode`` 0..3, see the module); ``None``
    when the forced auction cannot happen."""
    bot = HeuristicBot.intermediate()
    state = State.from_deck(RULES, dealer, pack, pattern)
    record: dict[str, int] | None = None
    taker = None
    bids = 0
    index = 0
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        view = observe(state, seat)
        if state.phase == Phase.BIDDING:
            texts = [a.text for a in legal if isinstance(a, Bid)]
            want = None
            if mode in (0, 1) and "take" in texts and bids == mode:
                want = "take"
            if mode in (2, 3) and "take" not in texts and bids == mode:
                want = rng.choice([t for t in texts if t in SUITS])
            action = legal[texts.index(want)] if want else legal[0]
            if want:
                assert view.turned is not None and isinstance(action, Bid)
                strain = Strain(view.turned >> 3) if want == "take" else action.strain
                assert strain is not None
                record = {"hand": view.hand | bit(view.turned), "strain": int(strain), "mode": mode}
                taker = seat
            bids += 1
        else:
            action = bot.act(view, legal, seed=decision_seed(board, seat, index), budget=Budget())
        state.apply(action, seat)
        index += 1
    result = state.result
    if record is None or result is None or taker is None or state.contract is None:
        return None
    side = int(taker) - 1
    record["diff"] = result.score[side] - result.score[1 - side]
    return record


def gen(seed: int, packs: int, out: Path) -> None:
    """Write the forced contracts of ``packs`` packs to ``out``."""
    with out.open("w", encoding="utf-8") as f:
        for board in range(packs):
            pack, dealer, pattern = board_setup(RULES, seed, board)
            rng = random.Random(board * 7 + seed)
            for mode in range(4):
                record = forced_contract(pack, dealer, pattern, mode, board, rng)
                if record is not None:
                    f.write(json.dumps(record) + "\n")


def features(hand: int, suit: int) -> dict[str, float]:
    """The features ``two_player_take_value`` weighs."""

    def has(s: int, rank: int) -> bool:
        return bool(hand >> (s * 8 + rank) & 1)

    def count(s: int) -> int:
        return (hand >> (s * 8) & 0xFF).bit_count()

    n = count(suit)
    f: dict[str, float] = {f"trumps{k}": float(min(n, 6) == k) for k in range(7)}
    f["jack"] = has(suit, Rank.JACK)
    f["nine"] = has(suit, Rank.NINE)
    f["ace"] = has(suit, Rank.ACE)
    f["ten"] = has(suit, Rank.TEN)
    f["belote"] = has(suit, Rank.KING) and has(suit, Rank.QUEEN)
    for key in ("side_ace", "side_ace_ten", "side_guarded_ten", "void"):
        f[key] = 0.0
    for s in range(4):
        if s == suit:
            continue
        if has(s, Rank.ACE):
            f["side_ace"] += 1
            f["side_ace_ten"] += has(s, Rank.TEN)
        elif has(s, Rank.TEN) and count(s) >= 2:
            f["side_guarded_ten"] += 1
        f["void"] += count(s) == 0
    f["declarations"] = sum(d.points for d in find_declarations(hand, Strain(suit)))
    return f


def fit(paths: list[Path]) -> None:
    """Print the fitted weights and the out-of-sample gains."""
    import numpy as np

    rows = [json.loads(line) for p in paths for line in p.open(encoding="utf-8")]
    feats = [features(r["hand"], r["strain"]) for r in rows]
    names = list(feats[0])
    x = np.array([[f[k] for k in names] for f in feats])
    y = np.array([r["diff"] for r in rows], dtype=float)
    four = np.array(
        [
            take_value(r["hand"], Strain(r["strain"]), declarations=int(f["declarations"]))
            for r, f in zip(rows, feats, strict=True)
        ]
    )
    half = len(y) // 2
    weights = np.linalg.lstsq(x, y, rcond=None)[0]
    print(f"{len(y)} contracts")
    for name, w in zip(names, weights, strict=True):
        print(f"  {name}: {w:.1f}")
    train = np.linalg.lstsq(x[:half], y[:half], rcond=None)[0]
    test_y = y[half:]
    for label, pred in (("two-player fit", x[half:] @ train), ("take_value", four[half:])):
        for th in (-20, -10, 0, 10, 20):
            gain = float(np.where(pred > th, test_y, 0).mean())
            rate = float((pred > th).mean())
            print(f"{label} take above {th:+d}: {gain:.2f} a contract, take rate {rate:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", type=int, default=100)
    g.add_argument("--packs", type=int, default=12000)
    g.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("paths", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "gen":
        gen(args.seed, args.packs, args.out)
    else:
        fit(args.paths)


if __name__ == "__main__":
    main()
