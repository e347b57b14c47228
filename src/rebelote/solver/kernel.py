"""The double-dummy solver compiled with numba (optional: ``pip install
rebelote[fast]``).

The same search as :mod:`.search` (values, MTD(f) at the root,
transposition table at trick starts, move ordering, killers, history,
equivalent cards), on int64 masks in two numpy arrays (a workspace and the
table: few arguments make the recursive calls cheap), compiled to machine
code.  :data:`AVAILABLE` is False when
numba cannot be imported; :mod:`.solve` then uses the pure path.

Compiled code cannot call the rules core, so two small functions here,
:func:`legal_mask` and :func:`beats_card`, restate
:func:`~rebelote.tricks.legal_play_mask` and :func:`~rebelote.tricks.beats`
on raw integers; ``tests/test_solver.py`` checks them against the rules core
on every rule set and every kind of trick, and the kernel's values against
the pure path's.  The card tables themselves come from
:func:`~rebelote.trump.strain_tables`.

Compilation takes about 7 seconds, once per process (the first solve);
it is not cached on disk (see :func:`_jit`).

Transposition table: 2^20 entries (one slot per hash, always replaced),
13 MB, made once per process and shared by the solves of that process; a
generation number in each key keeps the entries of one solve from another.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..cards import cards_of
from ..seats import Seat
from ..tricks import beats
from .position import Position, capot_bonus
from .search import INF, SearchLimitError, SolveResult

__all__ = ["AVAILABLE", "beats_card", "legal_mask", "solve_moves", "solve_value"]

try:  # pragma: no cover - depends on the installation
    import numba as _nb  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import numpy as _np

    AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the installation
    AVAILABLE = False

MTDF = 1
"""1: value each root card by MTD(f) null-window searches; 0: one full-window search."""

TT_BITS = 20
"""log2 of the transposition table's entries."""

# Offsets in the workspace array ``w`` of one solve.
_H = 0  # hands by seat (4)
_I = 4  # integers (19, see _node)
_STR = 32  # strength by card (32)
_HIGH = 64  # higher by card (32)
_PTS = 96  # points by card (32)
_R = 128  # ranked: 7 cards above each card, weakest first, -1 padded (224)
_HIST = 352  # history by card (32)
_KILL = 384  # killer card by depth (40)
_BUF = 424  # move buffer: (card, score) pairs, 8 a depth, 33 depths (544)
_W_SIZE = 968


_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    """Compile ``f`` with numba when first called; ``f`` itself without numba.

    Not cached on disk: numba's cache of a recursive function loaded back in
    a new process crashes it (numba 0.68, seen here), and a cached function
    is not recompiled when a function it calls changes."""
    if AVAILABLE:
        return cast(_F, _nb.njit(cache=False, nogil=True)(f))
    return f


@_jit
def _ctz(x: int) -> int:
    """Index of the lowest set bit of a non-zero 32-bit mask."""
    n = 0
    if x & 0xFFFF == 0:
        n += 16
        x >>= 16
    if x & 0xFF == 0:
        n += 8
        x >>= 8
    if x & 0xF == 0:
        n += 4
        x >>= 4
    if x & 0x3 == 0:
        n += 2
        x >>= 2
    if x & 0x1 == 0:
        n += 1
    return n


@_jit
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@_jit
def legal_mask(
    hand: int,
    led: int,
    winning: int,
    partner_winning: bool,
    trumps: int,
    higher_winning: int,
    overtrump_partner: bool,
    partner_exemption: bool,
    undertrump: bool,
) -> int:
    """:func:`~rebelote.tricks.legal_play_mask` on raw values: ``led`` and
    ``winning`` are cards (``led < 0`` when leading), ``trumps`` the trump
    mask, ``higher_winning`` the strain's ``higher`` mask of ``winning``, and the
    three flags the rule set's ``overtrump_partner_on_trump_lead``,
    ``partner_winning_exemption`` and ``must_undertrump``."""
    if led < 0:
        return hand
    follow = hand & (0xFF << ((led >> 3) * 8))
    if (trumps >> led) & 1:
        if follow == 0:
            return hand
        if partner_winning and not overtrump_partner:
            return follow
        over: int = follow & higher_winning
        return over if over else follow
    if follow:
        return follow
    tr = hand & trumps
    if tr == 0 or (partner_winning and partner_exemption):
        return hand
    if (trumps >> winning) & 1:
        over = int(tr & higher_winning)
        if over:
            return over
        return tr if undertrump else hand
    return tr


@_jit
def beats_card(card: int, best: int, trumps: int, s_card: int, s_best: int) -> bool:
    """:func:`~rebelote.tricks.beats` on raw values (``s_card``, ``s_best``:
    the two cards' strengths)."""
    if card >> 3 == best >> 3:
        return bool(s_card > s_best)
    return bool((trumps >> card) & 1) and not (trumps >> best) & 1


@_jit
def _node(
    turn: int,
    n: int,
    led: int,
    best: int,
    bseat: int,
    pts: int,
    rem: int,
    trick_rem: int,
    alpha: int,
    beta: int,
    capot: int,
    only: int,
    w: Any,
    tt: Any,
) -> int:
    """One node of the search; see :mod:`.search` for the meaning.

    ``w``: the workspace (see :data:`_W_SIZE`): hands, the integers
    [players, trumps, overtrump_partner, partner_exemption, undertrump,
    bonus, min_capot, generation, nodes, max_nodes, aborted, is_max N W S E,
    next N W S E], the strength, higher and points tables, the ranked
    table, history, killers and the move buffer; ``tt``: the transposition
    table, three int64 a slot (key, lower bound, upper bound)."""
    w[_I + 8] += 1
    if w[_I + 10]:
        return 0
    if w[_I + 9] > 0 and w[_I + 8] >= w[_I + 9]:
        w[_I + 10] = 1
        return 0
    players = w[_I + 0]
    trumps = w[_I + 1]
    a0 = alpha
    b0 = beta
    slot = 0
    key = 0
    if n == 0 and only == 0:
        key = (rem | (turn << 32) | (capot << 34)) | (w[_I + 7] << 36)
        h = rem * 0x9E3779B1 + turn * 0x85EBCA77 + capot * 0xC2B2AE3D
        slot = (h ^ (h >> 29)) & ((1 << 20) - 1)
        if tt[3 * slot] == key:
            lo = tt[3 * slot + 1]
            hi = tt[3 * slot + 2]
            if lo >= beta:
                return int(lo)
            if hi <= alpha:
                return int(hi)
            if lo == hi:
                return int(lo)
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    hand = w[_H + turn]
    if n == 0:
        legal = hand
    else:
        partner = players == 4 and ((bseat ^ turn) & 1) == 0
        legal = legal_mask(
            hand, led, best, partner, trumps, w[_HIGH + best],
            w[_I + 2] != 0, w[_I + 3] != 0, w[_I + 4] != 0,
        )  # fmt: skip
    if only:
        legal &= only
    maximizing = w[_I + 11 + turn] != 0
    depth = 32 - _popcount(rem)
    base = depth * 8
    count = 0
    x = legal
    while x:
        low = x & -x
        c = _ctz(low)
        x ^= low
        keep = True
        for k in range(7):
            up = w[_R + c * 7 + k]
            if up < 0:
                break
            if (trick_rem >> up) & 1:
                if (legal >> up) & 1 and w[_PTS + up] == w[_PTS + c]:
                    keep = False
                break
        if keep:
            if n == 0:
                master = 0 if w[_HIGH + c] & trick_rem else 1
                sc = master * 1000 + w[_HIST + c] - w[_PTS + c]
            else:
                mine = (w[_I + 11 + bseat] != 0) == maximizing
                win = beats_card(c, best, trumps, w[_STR + c], w[_STR + best])
                if mine:
                    sc = w[_PTS + c] * 10 - (500 if (trumps >> c) & 1 else 0)
                    if win:
                        sc -= 5
                elif win:
                    sc = 2000 - w[_STR + c] * 10 + w[_PTS + c]
                else:
                    sc = -w[_PTS + c] * 10 - w[_STR + c]
                sc += w[_HIST + c]
            if c == w[_KILL + depth]:
                sc += 100000
            # Insertion by score, highest first.
            i = count
            while i > 0 and w[_BUF + 2 * (base + i - 1) + 1] < sc:
                w[_BUF + 2 * (base + i)] = w[_BUF + 2 * (base + i - 1)]
                w[_BUF + 2 * (base + i) + 1] = w[_BUF + 2 * (base + i - 1) + 1]
                i -= 1
            w[_BUF + 2 * (base + i)] = c
            w[_BUF + 2 * (base + i) + 1] = sc
            count += 1
    bestv = -INF if maximizing else INF
    nxt_turn = w[_I + 15 + turn]
    bonus = w[_I + 5]
    for i in range(count):
        c = w[_BUF + 2 * (base + i)]
        bit = 1 << c
        w[_H + turn] = hand ^ bit
        rem2 = rem ^ bit
        if n == 0:
            nled = c
            nbest = c
            nseat = turn
        elif beats_card(c, best, trumps, w[_STR + c], w[_STR + best]):
            nled = led
            nbest = c
            nseat = turn
        else:
            nled = led
            nbest = best
            nseat = bseat
        npts = pts + w[_PTS + c]
        if n + 1 == players:
            if rem2 == 0:
                npts += 10
            if w[_I + 11 + nseat] != 0:
                s = npts
                cap = capot | 1
            else:
                s = -npts
                cap = capot | 2
            if rem2 == 0:
                if bonus:
                    if cap == 1:
                        s += bonus
                    elif cap == 2 and w[_I + 6] != 0:
                        s -= bonus
                v = s
            else:
                v = s + _node(
                    nseat, 0, -1, -1, -1, 0, rem2, rem2, alpha - s, beta - s, cap, 0,
                    w, tt,
                )  # fmt: skip
        else:
            v = _node(
                nxt_turn, n + 1, nled, nbest, nseat, npts, rem2, trick_rem, alpha, beta, capot, 0,
                w, tt,
            )  # fmt: skip
        w[_H + turn] = hand
        if maximizing:
            if v > bestv:
                bestv = v
                if v > alpha:
                    alpha = v
        else:
            if v < bestv:
                bestv = v
                if v < beta:
                    beta = v
        if alpha >= beta:
            w[_KILL + depth] = c
            w[_HIST + c] += count
            break
    if n == 0 and only == 0 and w[_I + 10] == 0:
        lo = -INF
        hi = INF
        if tt[3 * slot] == key:
            lo = tt[3 * slot + 1]
            hi = tt[3 * slot + 2]
        if bestv <= a0:
            hi = min(hi, bestv)
        elif bestv >= b0:
            lo = max(lo, bestv)
        else:
            lo = bestv
            hi = bestv
        tt[3 * slot] = key
        tt[3 * slot + 1] = lo
        tt[3 * slot + 2] = hi
    return bestv


@_jit
def _solve_root(
    root: Any,
    cards: Any,
    out: Any,
    w: Any,
    tt: Any,
) -> None:
    """Solve each card of ``cards`` (-1 ends the list) from the root
    ``(turn, n, led, best, bseat, pts, rem, trick_rem, capot, only_value)``;
    with ``only_value`` set, solve the position once (no card restriction)
    into ``out[0]``."""
    turn, n, led, best, bseat, pts, rem, trick_rem, capot, only_value, mtdf = (
        root[0], root[1], root[2], root[3], root[4], root[5], root[6], root[7], root[8], root[9],
        root[10],
    )  # fmt: skip
    if only_value:
        out[0] = _node(
            turn, n, led, best, bseat, pts, rem, trick_rem, -INF, INF, capot, 0,
            w, tt,
        )  # fmt: skip
        return
    guess = 0
    for i in range(cards.shape[0]):
        c = cards[i]
        if c < 0:
            break
        # MTD(f): null-window searches around a guess (the previous card's
        # value) until the bounds meet; the table keeps the bounds found.
        lo = -INF
        hi = INF
        g = guess
        if not mtdf:
            g = _node(
                turn, n, led, best, bseat, pts, rem, trick_rem, -INF, INF, capot, 1 << c,
                w, tt,
            )  # fmt: skip
            lo = hi = g
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = _node(
                turn, n, led, best, bseat, pts, rem, trick_rem, beta - 1, beta, capot, 1 << c,
                w, tt,
            )  # fmt: skip
            if w[_I + 10]:
                return
            if g < beta:
                hi = g
            else:
                lo = g
        out[i] = g
        guess = g


class _Workspace:
    """The transposition table, reused by every solve of the process."""

    def __init__(self) -> None:
        np = _np
        self.tt = np.zeros(3 << TT_BITS, dtype=np.int64)
        self.tt[0::3] = -1
        self.generation = 0


_WORKSPACE: _Workspace | None = None
_RANKED: dict[tuple[int, ...], list[int]] = {}


def _workspace() -> _Workspace:
    global _WORKSPACE
    if _WORKSPACE is None:
        _WORKSPACE = _Workspace()
    return _WORKSPACE


def _ranked(strength: tuple[int, ...]) -> list[int]:
    """For each card, the cards of its suit above it, weakest first (7 a
    card, -1 padded)."""
    ranked = _RANKED.get(strength)
    if ranked is None:
        ranked = [-1] * (32 * 7)
        for c in range(32):
            above = sorted(
                (o for o in range(c & ~7, (c & ~7) + 8) if strength[o] > strength[c]),
                key=lambda o: strength[o],
            )
            for k, o in enumerate(above):
                ranked[c * 7 + k] = o
        _RANKED[strength] = ranked
    return ranked


def _setup(pos: Position, side: int, max_nodes: int | None) -> tuple[Any, Any]:
    """The root and the workspace of one solve."""
    np = _np
    rules = pos.rules
    t = pos.tables
    ws = _workspace()
    ws.generation = (ws.generation + 1) % (1 << 26)
    if ws.generation == 0:
        ws.tt[0::3] = -1
        ws.generation = 1
    w = np.zeros(_W_SIZE, dtype=np.int64)
    w[_H : _H + 4] = pos.hands
    is_max = [1 if s in pos.seats and pos.side_of(s) == side else 0 for s in Seat]
    nxt = [0, 0, 0, 0]
    seats = pos.seats
    for i, s in enumerate(seats):
        nxt[s] = int(seats[(i + 1) % len(seats)])
    max_won = pos.side_tricks[side] > 0
    min_won = any(v > 0 for i, v in enumerate(pos.side_tricks) if i != side)
    capot = (1 if max_won else 0) | (2 if min_won else 0)
    w[_I : _I + 19] = [
        rules.players,
        t.trumps,
        int(rules.overtrump_partner_on_trump_lead),
        int(rules.partner_winning_exemption),
        int(rules.must_undertrump),
        capot_bonus(rules),
        1 if rules.players == 4 else 0,
        ws.generation,
        0,
        max_nodes or 0,
        0,
        *is_max,
        *nxt,
    ]
    w[_STR : _STR + 32] = t.strength
    w[_HIGH : _HIGH + 32] = t.higher
    w[_PTS : _PTS + 32] = t.points
    w[_R : _R + 224] = _ranked(t.strength)
    w[_KILL : _KILL + 40] = -1
    rem = pos.remaining
    trick_rem = rem
    led = best = bseat = -1
    pts = 0
    for i, (s, c) in enumerate(pos.trick):
        trick_rem |= 1 << c
        pts += t.points[c]
        if i == 0:
            led, best, bseat = c, c, int(s)
        elif beats(c, best, t):
            best, bseat = c, int(s)
    root = np.array(
        [int(pos.turn), len(pos.trick), led, best, bseat, pts, rem, trick_rem, capot, 0, MTDF],
        dtype=np.int64,
    )
    return root, w


def solve_moves(pos: Position, *, max_nodes: int | None = None) -> SolveResult:
    """The kernel's :func:`~.search.solve_moves`: every legal card's exact
    value for the side to play.  Raises :class:`RuntimeError` when numba is
    not installed, :class:`~.search.SearchLimitError` past ``max_nodes``."""
    if not AVAILABLE:
        raise RuntimeError("numba is not installed: pip install rebelote[fast]")
    np = _np
    start = time.perf_counter()
    side = pos.side_of(pos.turn)
    root, w = _setup(pos, side, max_nodes)
    ws = _workspace()
    legal = pos.legal_mask()
    points = pos.tables.points
    ranked = _ranked(pos.tables.strength)
    trick_rem = int(root[7])
    # Equivalent cards at the root, as in the pure path.
    reps: list[int] = []
    same: dict[int, int] = {}
    for c in cards_of(legal):
        for k in range(7):
            up = ranked[c * 7 + k]
            if up < 0:
                break
            if trick_rem >> up & 1:
                if legal >> up & 1 and points[up] == points[c]:
                    same[c] = up
                break
        if c not in same:
            reps.append(c)
    for c in list(same):
        r = same[c]
        while r in same:
            r = same[r]
        same[c] = r
    cards = np.array([*reps, -1], dtype=np.int64)
    out = np.zeros(len(reps) + 1, dtype=np.int64)
    _solve_root(root, cards, out, w, ws.tt)
    if w[_I + 10]:
        raise SearchLimitError(f"node limit {max_nodes} reached")
    values = {c: int(out[i]) for i, c in enumerate(reps)}
    for c, r in same.items():
        values[c] = values[r]
    values = {c: values[c] for c in sorted(values)}
    return SolveResult(values, int(w[_I + 8]), time.perf_counter() - start, "numba")


def solve_value(pos: Position, side: int | None = None, *, max_nodes: int | None = None) -> int:
    """The kernel's :func:`~.search.solve_value`."""
    if not AVAILABLE:
        raise RuntimeError("numba is not installed: pip install rebelote[fast]")
    np = _np
    if side is None:
        side = pos.side_of(pos.turn)
    root, w = _setup(pos, side, max_nodes)
    root[9] = 1
    ws = _workspace()
    out = np.zeros(1, dtype=np.int64)
    _solve_root(root, np.full(1, -1, dtype=np.int64), out, w, ws.tt)
    if w[_I + 10]:
        raise SearchLimitError(f"node limit {max_nodes} reached")
    return int(out[0])
