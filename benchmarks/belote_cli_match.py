"""Duplicate boards: a rebelote bot level against belote-cli's AI.

belote-cli (``pip install belote-cli``, import name ``belote``) is not a
dependency of rebelote: install it in a virtual environment of its own and
give its Python with ``--agent-python``; its AI runs in a subprocess
(``benchmarks/belote_cli_agent.py``) and sees, like every rebelote bot, only
what the seat's :class:`PlayerView` shows (its hand, the bids, the turned
card, the tricks), translated to a belote-cli ``GameState``.

Rules: rebelote's ``ffb`` preset, which matches belote-cli's classic game
(two rounds of taking, declarations and belote, must overtrump even a
partner on a trump lead, must under-trump, the partner-winning exemption,
litige).  Differences, all outside what the boards exercise or neutral:
belote-cli also allows Tout Atout / Sans Atout in round two (its AI's
choice falls back to its best suit); its table shows the partner's hand
(hidden here, as in rebelote).

Usage (from the repository root)::

    python3 -m venv /tmp/belotecli && /tmp/belotecli/bin/pip install belote-cli
    uv run python benchmarks/belote_cli_match.py --boards 500 --jobs 2 \\
        --agent-python /tmp/belotecli/bin/python --out belote_cli.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rebelote.actions import Action, Bid, Play
from rebelote.bots import Budget, make_bot
from rebelote.bots.arena import (
    ArenaSettings,
    BoardResult,
    board_seed,
    board_setup,
    play_deal,
    summarize,
)
from rebelote.observation import PlayerView
from rebelote.rules import preset
from rebelote.seats import Seat

AGENT = Path(__file__).with_name("belote_cli_agent.py")


class BeloteCliBot:
    """A :class:`~rebelote.bots.Bot` that asks belote-cli's AI in a subprocess."""

    def __init__(self, python: str, difficulty: str = "hard") -> None:
        self.difficulty = difficulty
        self.proc = subprocess.Popen(
            [python, str(AGENT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.fallbacks = 0

    @property
    def level(self) -> str:
        return f"belote-cli-{self.difficulty}"

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        first = legal[0]
        hand = [c for c in range(32) if view.hand >> c & 1]
        if isinstance(first, Bid):
            assert view.turned is not None
            round_two = any(isinstance(b, Bid) and b.kind == "strain" for b in legal)
            bids = [b.text for _, b in view.bids]
            round_bids = bids[4:] if round_two else bids
            answer = self._ask(
                {
                    "kind": "bid",
                    "seat": int(view.seat),
                    "dealer": int(view.dealer),
                    "hand": hand,
                    "up": view.turned,
                    "round": 2 if round_two else 1,
                    "round_bids": round_bids,
                    "seed": seed,
                    "level": self.difficulty,
                }
            )
            text = answer.get("bid", "pass")
            wanted = Bid("take") if (text != "pass" and not round_two) else None
            for action in legal:
                if isinstance(action, Bid) and (action == wanted or action.text == text):
                    return action
            self.fallbacks += text != "pass"
            return first
        if isinstance(first, Play):
            assert view.contract is not None
            answer = self._ask(
                {
                    "kind": "play",
                    "seat": int(view.seat),
                    "dealer": int(view.dealer),
                    "hand": hand,
                    "trump": int(view.contract.strain),
                    "taker": int(view.contract.taker),
                    "trick": [[int(s), c] for s, c in view.trick],
                    "tricks": [
                        [[int(s), c] for s, c in zip(t.seats, t.cards, strict=True)]
                        for t in view.tricks
                    ],
                    "seed": seed,
                    "level": self.difficulty,
                }
            )
            card = answer.get("card")
            for action in legal:
                if isinstance(action, Play) and action.card == card:
                    return action
            self.fallbacks += 1
            return first
        return first  # declarations: all (as belote-cli declares automatically)


_OPPONENT: BeloteCliBot | None = None


def _init(python: str, difficulty: str) -> None:
    global _OPPONENT
    _OPPONENT = BeloteCliBot(python, difficulty)


def _board(args: tuple[str, str, int, int]) -> tuple[BoardResult, int]:
    level, rules_name, seed, board = args
    assert _OPPONENT is not None
    rules = preset(rules_name)
    pack, dealer, pattern = board_setup(rules, seed, board)
    deal_seed = board_seed(seed, board)
    ours = make_bot(level)
    ns, ew = (Seat.N, Seat.S), (Seat.W, Seat.E)
    before = _OPPONENT.fallbacks
    times: dict[Seat, list[float]] = {s: [] for s in Seat}
    bots: dict[Seat, Any] = {s: ours for s in ns} | {s: _OPPONENT for s in ew}
    a = play_deal(rules, dealer, pack, pattern, bots, deal_seed, times).result
    ms1 = [x for s in ns for x in times[s]]
    ms2 = [x for s in ew for x in times[s]]
    times = {s: [] for s in Seat}
    bots = {s: _OPPONENT for s in ns} | {s: ours for s in ew}
    b = play_deal(rules, dealer, pack, pattern, bots, deal_seed, times).result
    ms1 += [x for s in ew for x in times[s]]
    ms2 += [x for s in ns for x in times[s]]
    assert a is not None and b is not None
    sa, sb = (a.score[0], a.score[1]), (b.score[0], b.score[1])
    diff = (sa[0] - sa[1]) + (sb[1] - sb[0])
    result = BoardResult(board, diff, sa, sb, tuple(ms1), tuple(ms2))
    return result, _OPPONENT.fallbacks - before


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="intermediate", help="rebelote level (team 1)")
    parser.add_argument("--difficulty", default="hard", help="belote-cli AI: easy, medium, hard")
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--rules", default="ffb")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent-python", required=True, help="Python of belote-cli's venv")
    parser.add_argument("--out", type=Path, help="write the board results (JSONL) here")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    tasks = [(args.level, args.rules, args.seed, b) for b in range(args.boards)]
    ctx = multiprocessing.get_context("fork")
    results: list[BoardResult] = []
    fallbacks = 0
    with ctx.Pool(
        args.jobs, initializer=_init, initargs=(args.agent_python, args.difficulty)
    ) as pool:
        for result, fb in pool.imap_unordered(_board, tasks, chunksize=4):
            results.append(result)
            fallbacks += fb
            if len(results) % 50 == 0:
                print(f"{len(results)}/{args.boards} boards", file=sys.stderr)
    settings = ArenaSettings(args.level, f"belote-cli-{args.difficulty}", args.rules, args.seed)
    report = summarize(settings, results)
    report["belote_cli_fallbacks"] = fallbacks
    report["seconds"] = round(time.perf_counter() - start, 1)
    if args.out is not None:
        with args.out.open("w", encoding="utf-8") as f:
            f.write(json.dumps(settings.header()) + "\n")
            for r in sorted(results, key=lambda r: r.board):
                f.write(json.dumps(r.to_json()) + "\n")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
