"""Duplicate play between two bot levels (``rebelote arena``).

A *board* is one shuffled pack, a dealer and a first distribution (3-2 or
2-3), all drawn from the board's seed.  The board is played as one whole
deal twice: deal A with team 1 at North-South and team 2 at East-West, deal B
with the teams swapped and the same pack, dealer and distribution, so that
each team holds each side's cards once and the luck of the deal cancels.
The deal starts from the pack already cut (:meth:`State.from_deck`), so both
deals see the same cards.

The board's result is team 1's score minus team 2's score in deal A plus the
same in deal B, from :attr:`DealResult.score` (points of the deal only: the
*litige* points held over after a tie are ignored, as they go to the winner
of a later deal; a deal where all pass counts 0).  Bots' seeds come from the
board's seed, the seat and the action index (:func:`decision_seed`), the
same in both deals, so that a level playing itself scores exactly 0.

Results go to a JSONL file, one line per board after a header holding the
settings, so that a run resumes (boards already in the file are skipped) and
extends (a larger ``boards`` adds boards to it).  A last line cut short by
an interrupted run is removed before new boards are appended, and its board
is played again.  Decision times are the
milliseconds each bot spent in :meth:`Bot.act` on decisions with more than
one legal action (a forced move is not a decision).  They leave out the
compilation of the solver's kernel (about 7 seconds, once per process): when
a team is a level that uses the solver (:data:`SOLVER_LEVELS`), each process
compiles it (:func:`rebelote.solver.warm_up`) before its first board.

The three-player preset has no teams: the arena refuses it
(:class:`ArenaError`).  The two-player preset (``--rules two-players``,
RULES.md "Two players") is played the same way with one bot a side: team 1
at W in deal A, at S in deal B; the dealer alternates W, S by board.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import DECK_32, cards_of
from ..observation import observe
from ..rules import Rules, preset
from ..scoring import DealResult
from ..seats import Seat, seats_of
from ..state import State
from .base import Bot, Budget, decision_seed
from .registry import BOT_LEVELS, make_bot

__all__ = [
    "SOLVER_LEVELS",
    "ArenaError",
    "ArenaSettings",
    "BoardResult",
    "board_seed",
    "board_setup",
    "check_out",
    "check_run",
    "load_results",
    "play_board",
    "play_deal",
    "run_arena",
    "summarize",
]

FORMAT = 1
"""Version of the result file's format."""

SOLVER_LEVELS = frozenset({"expert", "expert-bidder"})
"""The bot levels whose decisions use the double-dummy solver."""


class ArenaError(ValueError):
    """Bad arena settings, or a result file made with other settings."""


@dataclass(frozen=True, slots=True)
class ArenaSettings:
    """What a run plays: two bot levels, a rule preset and the base seed."""

    team1: str
    team2: str
    rules: str
    seed: int

    def check(self) -> Rules:
        """The rule set; raises :class:`ArenaError` for an unknown level or
        preset, or a three-player preset (the arena plays two sides: two
        teams of two, or the two players of ``two-players``)."""
        for level in (self.team1, self.team2):
            if level not in BOT_LEVELS:
                raise ArenaError(f"unknown bot level {level!r}: use one of {', '.join(BOT_LEVELS)}")
        try:
            rules = preset(self.rules)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None
        if rules.players == 3:
            raise ArenaError(
                f"the arena plays duplicate boards between two sides; the preset "
                f"{self.rules!r} is a {rules.players}-player game (each for himself)"
            )
        return rules

    def header(self) -> dict[str, Any]:
        """The result file's first line."""
        return {
            "arena": FORMAT,
            "team1": self.team1,
            "team2": self.team2,
            "rules": self.rules,
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board: ``diff`` (team 1 minus team 2, both deals), each deal's
    ``score_a`` / ``score_b`` as (NS, EW), and the decision times in ms of
    team 1 and team 2 (``ms1``, ``ms2``)."""

    board: int
    diff: int
    score_a: tuple[int, int]
    score_b: tuple[int, int]
    ms1: tuple[float, ...]
    ms2: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        """The board's line in the result file."""
        return {
            "board": self.board,
            "diff": self.diff,
            "score_a": list(self.score_a),
            "score_b": list(self.score_b),
            "ms1": [round(x, 4) for x in self.ms1],
            "ms2": [round(x, 4) for x in self.ms2],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardResult:
        """Read a board's line.  Raises ``KeyError`` / ``TypeError`` /
        ``ValueError`` on a malformed line."""
        a, b = data["score_a"], data["score_b"]
        return cls(
            board=int(data["board"]),
            diff=int(data["diff"]),
            score_a=(int(a[0]), int(a[1])),
            score_b=(int(b[0]), int(b[1])),
            ms1=tuple(float(x) for x in data["ms1"]),
            ms2=tuple(float(x) for x in data["ms2"]),
        )


def board_seed(seed: int, board: int) -> int:
    """The seed of board number ``board`` (0-based) of a run seeded ``seed``."""
    return decision_seed(seed, 0xB0, board)


def board_setup(rules: Rules, seed: int, board: int) -> tuple[list[int], Seat, str]:
    """The board's pack (top card first), dealer and first distribution."""
    rng = random.Random(board_seed(seed, board))
    pack = list(cards_of(DECK_32))
    rng.shuffle(pack)
    seats = seats_of(rules.players)
    dealer = seats[board % len(seats)]
    pattern = rules.patterns[rng.randrange(len(rules.patterns))]
    return pack, dealer, pattern


def play_deal(
    rules: Rules,
    dealer: Seat,
    pack: list[int],
    pattern: str,
    bots: dict[Seat, Bot],
    deal_seed: int,
    times: dict[Seat, list[float]] | None = None,
    budget: Budget | None = None,
) -> State:
    """Play one deal from the cut ``pack`` with one bot per seat; returns the
    finished state.  Each bot gets ``observe(state, seat)`` and its legal
    actions; ``times[seat]`` collects its decision times in ms."""
    state = State.from_deck(rules, dealer, pack, pattern)
    budget = budget or Budget()
    index = 0
    clock = time.perf_counter
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        view = observe(state, seat)
        start = clock()
        action = bots[seat].act(
            view, legal, seed=decision_seed(deal_seed, seat, index), budget=budget
        )
        elapsed = (clock() - start) * 1000.0
        if times is not None and len(legal) > 1:
            times[seat].append(elapsed)
        state.apply(action, seat)
        index += 1
    return state


def _score(state: State) -> tuple[int, int]:
    result: DealResult | None = state.result
    assert result is not None
    return result.score[0], result.score[1]


def play_board(settings: ArenaSettings, board: int) -> BoardResult:
    """Play board number ``board`` twice, teams swapped; see the module."""
    rules = settings.check()
    if SOLVER_LEVELS & {settings.team1, settings.team2}:
        # Compiled here (once per process: warm_up returns at once after its
        # first call), not in the first decision it would otherwise inflate.
        from .. import solver

        solver.warm_up()
    pack, dealer, pattern = board_setup(rules, settings.seed, board)
    deal_seed = board_seed(settings.seed, board)
    bot1, bot2 = make_bot(settings.team1), make_bot(settings.team2)
    # The seats of side 0 and side 1 (result.score's order): NS and EW, or
    # W and S in the two-player game.
    ns, ew = ((Seat.N, Seat.S), (Seat.W, Seat.E)) if rules.players == 4 else ((Seat.W,), (Seat.S,))
    ms1: list[float] = []
    ms2: list[float] = []

    times: dict[Seat, list[float]] = {s: [] for s in Seat}
    bots = {s: bot1 for s in ns} | {s: bot2 for s in ew}
    score_a = _score(play_deal(rules, dealer, pack, pattern, bots, deal_seed, times))
    for s in ns:
        ms1 += times[s]
    for s in ew:
        ms2 += times[s]

    times = {s: [] for s in Seat}
    bots = {s: bot2 for s in ns} | {s: bot1 for s in ew}
    score_b = _score(play_deal(rules, dealer, pack, pattern, bots, deal_seed, times))
    for s in ew:
        ms1 += times[s]
    for s in ns:
        ms2 += times[s]

    diff = (score_a[0] - score_a[1]) + (score_b[1] - score_b[0])
    return BoardResult(board, diff, score_a, score_b, tuple(ms1), tuple(ms2))


def _play_board_task(args: tuple[ArenaSettings, int]) -> BoardResult:
    return play_board(*args)


def check_out(path: Path) -> None:
    """Raise :class:`ArenaError` unless ``path`` can be a result file: not a
    directory, in a folder that exists."""
    if path.is_dir():
        raise ArenaError(f"{path} is a directory: --out needs a file name")
    parent = path.parent
    if not parent.is_dir():
        raise ArenaError(f"{path}: the folder {parent} does not exist")


def check_run(boards: int, jobs: int, out: Path | None = None) -> None:
    """Raise :class:`ArenaError` for a run that cannot start: fewer than one
    board or one job, or an ``out`` that :func:`check_out` refuses."""
    if boards < 1:
        raise ArenaError("boards must be at least 1")
    if jobs < 1:
        raise ArenaError("jobs must be at least 1")
    if out is not None:
        check_out(out)


def load_results(path: Path, settings: ArenaSettings) -> dict[int, BoardResult]:
    """The boards already in the result file ``path`` (none if it does not
    exist).  Raises :class:`ArenaError` if the file was made with other
    settings, is not a result file, or cannot be read."""
    check_out(path)
    if not path.exists():
        return {}
    try:
        return _load_results(path, settings)
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read {path}: {exc}") from None


def _load_results(path: Path, settings: ArenaSettings) -> dict[int, BoardResult]:
    results: dict[int, BoardResult] = {}
    with path.open(encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    if not lines:
        return {}
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise ArenaError(f"{path} is not an arena result file") from None
    if not isinstance(header, dict) or header.get("arena") != FORMAT:
        raise ArenaError(f"{path} is not an arena result file (format {FORMAT})")
    if header != settings.header():
        theirs = ", ".join(f"{k}={header.get(k)}" for k in ("team1", "team2", "rules", "seed"))
        raise ArenaError(
            f"{path} holds a run with other settings ({theirs}); use another --out file"
        )
    for number, line in enumerate(lines[1:], start=2):
        try:
            board = BoardResult.from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError):
            # A line cut short by an interrupted run: the board is played again.
            if number == len(lines):
                continue
            raise ArenaError(f"{path}, line {number}: not a board result") from None
        results[board.board] = board
    return results


def _repair_tail(path: Path) -> None:
    """Make ``path`` end with a whole line before boards are appended to it.

    A run killed in the middle of a write leaves a last line without its
    newline: if that line is a whole JSON object, the newline is added; if it
    was cut short, it is removed (:func:`load_results` already ignored it, so
    its board is played again).  Appending right after the cut would glue the
    next board to it and make the file unreadable."""
    with path.open("rb+") as f:
        data = f.read()
        if not data or data.endswith(b"\n"):
            return
        start = data.rfind(b"\n") + 1
        try:
            json.loads(data[start:])
        except ValueError:
            f.truncate(start)
        else:
            f.seek(0, 2)
            f.write(b"\n")


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted ``values``, by linear interpolation."""
    if not values:
        return 0.0
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def summarize(settings: ArenaSettings, results: Iterable[BoardResult]) -> dict[str, Any]:
    """The report: ``boards``, ``mean_diff_per_board`` (team 1 minus team 2,
    points per board of two deals), its sample ``sd`` and ``ci95`` (a pair,
    normal approximation: mean +- 1.96 sd / sqrt(n)), and ``decision_ms`` per
    bot (``median``, ``p95``, ``mean``, ``decisions``).

    With a single board the spread cannot be measured: ``sd`` is 0 and
    ``ci95`` is ``[mean, mean]``, with ``ci95_defined`` false (true from two
    boards on).  With no board the mean is 0."""
    boards = sorted(results, key=lambda r: r.board)
    n = len(boards)
    diffs = [r.diff for r in boards]
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    name1, name2 = settings.team1, settings.team2
    if name1 == name2:
        name1, name2 = f"{name1} (team1)", f"{name2} (team2)"
    decision_ms: dict[str, dict[str, float]] = {}
    for name, times in (
        (name1, sorted(x for r in boards for x in r.ms1)),
        (name2, sorted(x for r in boards for x in r.ms2)),
    ):
        decision_ms[name] = {
            "median": round(_percentile(times, 0.5), 4),
            "p95": round(_percentile(times, 0.95), 4),
            "mean": round(sum(times) / len(times), 4) if times else 0.0,
            "decisions": len(times),
        }
    return {
        "team1": settings.team1,
        "team2": settings.team2,
        "rules": settings.rules,
        "seed": settings.seed,
        "boards": n,
        "mean_diff_per_board": round(mean, 3),
        "sd": round(sd, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "ci95_defined": n > 1,
        "team1_board_wins": sum(1 for d in diffs if d > 0),
        "team2_board_wins": sum(1 for d in diffs if d < 0),
        "decision_ms": decision_ms,
    }


def run_arena(
    settings: ArenaSettings,
    boards: int,
    *,
    jobs: int = 1,
    out: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play boards ``0 .. boards-1`` (those not already in ``out``) on
    ``jobs`` processes, append each to ``out`` as it finishes, and return
    :func:`summarize` of all the boards (earlier ones included).

    ``progress(done, total)`` is called after each board.  Raises
    :class:`ArenaError` for bad settings or a result file of another run.
    """
    settings.check()
    check_run(boards, jobs, out)
    results = load_results(out, settings) if out is not None else {}
    todo = [b for b in range(boards) if b not in results]
    done = sum(1 for b in results if b < boards)
    sink = None
    if out is not None:
        try:
            fresh = not out.exists() or not out.read_text(encoding="utf-8").strip()
            if fresh:
                out.write_text(json.dumps(settings.header()) + "\n", encoding="utf-8")
            else:
                _repair_tail(out)
            sink = out.open("a", encoding="utf-8")
        except OSError as exc:
            raise ArenaError(f"cannot write {out}: {exc}") from None
    if progress is not None:
        progress(done, boards)
    try:
        for result in _iterate(settings, todo, jobs):
            results[result.board] = result
            if sink is not None:
                sink.write(json.dumps(result.to_json()) + "\n")
                sink.flush()
            done += 1
            if progress is not None:
                progress(done, boards)
    finally:
        if sink is not None:
            sink.close()
    return summarize(settings, (r for b, r in results.items() if b < boards))


def _iterate(settings: ArenaSettings, todo: list[int], jobs: int) -> Iterator[BoardResult]:
    if jobs == 1 or len(todo) < 2:
        for board in todo:
            yield play_board(settings, board)
        return
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(jobs) as pool:
        tasks = [(settings, b) for b in todo]
        yield from pool.imap_unordered(_play_board_task, tasks, chunksize=2)
