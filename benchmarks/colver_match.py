"""Duplicate boards: a rebelote bot level against one of colver's bots.

colver (``pip install colver``; Rust engine, Python bindings) is not a
dependency of rebelote: install it in a virtual environment of its own and
give its Python with ``--agent-python``; its bots run in a subprocess
(``benchmarks/colver_agent.py``).  Like every rebelote bot, a colver bot
learns only what its seat's :class:`PlayerView` shows: its hand, the bids
and the cards played.  colver's ``Env`` needs four hands, so the others'
cards are drawn at random consistently with the view (the cards each seat
played, the voids shown), anew for each decision: a bot that looked at them
would learn nothing.

Bots (``--colver``), the strongest that run offline (colver's neural
weights are downloaded from a model hub, which cannot be reached here); all
bid with colver's rule-based ``improved_v2`` auction:

- ``heuristic``: colver's heuristic card play;
- ``ismcts``: its Smart IS-MCTS with card beliefs, 20 ms a card (its own
  arena's ``improved_ismcts`` bot);
- ``isdd``: its IS-DD search (double-dummy solves over sampled worlds) with
  constraint-uniform worlds, 20 worlds a card, one thread.

Rules: rebelote's ``coinche`` preset, which plays as colver does (contracts
80..160 and capot in a suit, no Tout Atout / Sans Atout, no declarations,
discarding allowed instead of under-trumping, belote to its holders).  The
board's score is rebelote's (a failed contract gives 160 + the contract x
multiplier; colver's own scoring gives 162 + the contract and counts a
surcoinche x3): both sides are scored alike.  An answer that is not legal
here is replaced by the intermediate's choice and counted
(``colver_fallbacks``).

Usage (from the repository root)::

    python3 -m venv /tmp/colver && /tmp/colver/bin/pip install colver
    uv run python benchmarks/colver_match.py --level expert --colver isdd \\
        --boards 1000 --jobs 2 --agent-python /tmp/colver/bin/python --out colver-isdd.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rebelote.actions import CAPOT_VALUE, Action, Bid, Play
from rebelote.bots import Budget, make_bot
from rebelote.bots.arena import (
    ArenaSettings,
    BoardResult,
    board_seed,
    board_setup,
    play_deal,
    summarize,
)
from rebelote.bots.knowledge import infer
from rebelote.bots.sampling import deal_hidden, played_by
from rebelote.cards import Card, cards_of
from rebelote.observation import PlayerView
from rebelote.rules import preset
from rebelote.seats import Seat

AGENT = Path(__file__).with_name("colver_agent.py")

SPECS: dict[str, str] = {
    "heuristic": '[bid]\nstrategy = "improved_v2"\n[play]\nmethod = "heuristic"\n',
    "ismcts": '[bid]\nstrategy = "improved_v2"\n[play]\nmethod = "smart_ismcts"\ntime_ms = 20\n',
    "isdd": (
        '[bid]\nstrategy = "improved_v2"\n[play]\nmethod = "isdd"\ntime_ms = 0\n'
        'determinizations = 20\nparallel = false\n[worlds]\nsource = "uniform"\n'
    ),
}
"""colver bot specs (its TOML format) by name."""

# colver's ranks within a suit: 7 8 9 J Q K 10 A; rebelote's: 7 8 9 10 J Q K A.
_COLVER_RANK_TO_NATURAL = (0, 1, 2, 4, 5, 6, 3, 7)
_NATURAL_TO_COLVER = tuple(_COLVER_RANK_TO_NATURAL.index(r) for r in range(8))


def to_colver_card(card: Card) -> int:
    """A rebelote card as colver's card index."""
    return (card & ~7) | _NATURAL_TO_COLVER[card & 7]


def to_rebelote_card(card: int) -> Card:
    """A colver card index as a rebelote card."""
    return (card & ~7) | _COLVER_RANK_TO_NATURAL[card & 7]


def to_colver_bid(bid: Bid) -> int:
    """A coinche bid as colver's action (0 pass, 1..36 contracts 80..160 by
    value then suit S H D C, 37..40 capot, 41 coinche, 42 surcoinche)."""
    if bid.kind == "pass":
        return 0
    if bid.kind == "coinche":
        return 41
    if bid.kind == "surcoinche":
        return 42
    assert bid.kind == "contract" and bid.strain is not None and bid.value is not None
    if bid.value == CAPOT_VALUE:
        return 37 + int(bid.strain)
    return 1 + (bid.value - 80) // 10 * 4 + int(bid.strain)


class ColverBot:
    """A :class:`~rebelote.bots.Bot` that asks a colver bot in a subprocess."""

    def __init__(self, python: str, name: str) -> None:
        self.name = name
        self.spec = SPECS[name]
        self.proc = subprocess.Popen(
            [python, str(AGENT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.fallbacks = 0
        self.errors: list[str] = []
        self._fallback = make_bot("intermediate")

    @property
    def level(self) -> str:
        """``colver-NAME``."""
        return f"colver-{self.name}"

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def _hands(self, view: PlayerView, seed: int) -> list[list[int]]:
        """Four hands at the deal: the seat's own, the others drawn
        consistently with the view (see the module)."""
        k = infer(view)
        played = played_by(view)
        sizes = [0, 0, 0, 0]
        for s, n in view.hand_sizes:
            if s != view.seat:
                sizes[s] = n
        known = [k.known[s] if s != view.seat else 0 for s in range(4)]
        possible = [k.possible[s] if s != view.seat else 0 for s in range(4)]
        hands = deal_hidden(k.unseen, known, possible, sizes, random.Random(seed))
        hands[view.seat] = view.hand
        return [[to_colver_card(c) for c in cards_of(hands[s] | played[s])] for s in range(4)]

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        """Ask colver; fall back to the intermediate on an answer not legal here."""
        if len(legal) == 1:
            return legal[0]
        actions = [[int(s), to_colver_bid(b)] for s, b in view.bids]
        for t in view.tricks:
            actions += [[int(s), to_colver_card(c)] for s, c in zip(t.seats, t.cards, strict=True)]
        actions += [[int(s), to_colver_card(c)] for s, c in view.trick]
        answer = self._ask(
            {
                "spec": self.spec,
                "seat": int(view.seat),
                "dealer": int(view.dealer),
                "hands": self._hands(view, seed),
                "actions": actions,
                "auction_over": view.contract is not None,
                "seed": seed & 0xFFFFFFFF,
            }
        )
        if "action" in answer:
            code = int(answer["action"])
            for action in legal:
                if isinstance(action, Bid) and to_colver_bid(action) == code:
                    return action
                if isinstance(action, Play) and to_colver_card(action.card) == code:
                    return action
            self.errors.append(f"illegal here: {code}")
        else:
            self.errors.append(str(answer.get("error")))
        self.fallbacks += 1
        return self._fallback.act(view, legal, seed=seed, budget=budget)


_OPPONENT: ColverBot | None = None


def _init(python: str, name: str) -> None:
    global _OPPONENT
    _OPPONENT = ColverBot(python, name)


def _board(args: tuple[str, int, int]) -> tuple[BoardResult, int, list[str]]:
    level, seed, board = args
    assert _OPPONENT is not None
    rules = preset("coinche")
    pack, dealer, pattern = board_setup(rules, seed, board)
    deal_seed = board_seed(seed, board)
    ours = make_bot(level)
    ns, ew = (Seat.N, Seat.S), (Seat.W, Seat.E)
    before = _OPPONENT.fallbacks
    errors_before = len(_OPPONENT.errors)
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
    return result, _OPPONENT.fallbacks - before, _OPPONENT.errors[errors_before:]


def main(argv: list[str] | None = None) -> None:
    """Command line (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", help="rebelote level (team 1)")
    parser.add_argument("--colver", default="isdd", choices=sorted(SPECS), help="colver bot")
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--agent-python", required=True, help="Python of colver's venv")
    parser.add_argument(
        "--out", type=Path, help="board results (JSONL), appended as they come; a run resumes"
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    settings = ArenaSettings(args.level, f"colver-{args.colver}", "coinche", args.seed)
    # Resume: boards already in --out are kept (with their fallback counts).
    done: dict[int, BoardResult] = {}
    fallbacks = 0
    if args.out is not None and args.out.exists():
        lines = [json.loads(x) for x in args.out.read_text(encoding="utf-8").splitlines() if x]
        if lines and lines[0] != settings.header():
            raise SystemExit(f"{args.out} holds another run")
        for line in lines[1:]:
            done[int(line["board"])] = BoardResult.from_json(line)
            fallbacks += int(line.get("fallbacks", 0))
    sink = None
    if args.out is not None:
        sink = args.out.open("a", encoding="utf-8")
        if not done:
            sink.write(json.dumps(settings.header()) + "\n")
    tasks = [(args.level, args.seed, b) for b in range(args.boards) if b not in done]
    ctx = multiprocessing.get_context("fork")
    results: list[BoardResult] = [r for b, r in done.items() if b < args.boards]
    errors: list[str] = []
    with ctx.Pool(args.jobs, initializer=_init, initargs=(args.agent_python, args.colver)) as pool:
        for result, fb, errs in pool.imap_unordered(_board, tasks, chunksize=2):
            results.append(result)
            fallbacks += fb
            errors += errs
            if sink is not None:
                sink.write(json.dumps({**result.to_json(), "fallbacks": fb}) + "\n")
                sink.flush()
            if len(results) % 50 == 0:
                print(f"{len(results)}/{args.boards} boards", file=sys.stderr)
    if sink is not None:
        sink.close()
    report = summarize(settings, results)
    report["colver_fallbacks"] = fallbacks
    report["colver_errors"] = sorted(set(errors))[:10]
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
