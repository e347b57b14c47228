"""The double-dummy solver compiled with numba (optional: ``pip install
rebelote[fast]``).

The same search as :mod:`.search` (values, MTD(f) at the root,
transposition table at trick starts, move ordering, killers, history,
equivalent cards), on int64 masks in two numpy arrays (a workspace, which
also holds the search's stack of frames, and the table), compiled to
machine code.  :data:`AVAILABLE` is False when numba cannot be imported;
:mod:`.solve` then uses the pure path.

Compiled code cannot call the rules core, so two small functions here,
:func:`legal_mask` and :func:`beats_card`, restate
:func:`~rebelote.tricks.legal_play_mask` and :func:`~rebelote.tricks.beats`
on raw integers; ``tests/test_solver.py`` checks them against the rules core
on every rule set and every kind of trick, and the kernel's values against
the pure path's.  The card tables themselves come from
:func:`~rebelote.trump.strain_tables`.

Compiled code is cached on disk (``cache=True``): the first process
compiles it (about 7 seconds), later ones load it (a few tenths of a
second); see :func:`_jit` for where the cache goes.

Transposition table: 2^20 entries (one slot per hash, always replaced),
13 MB, made once per process and shared by the solves of that process; a
generation number in each key keeps the entries of one solve from another.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..cards import cards_of
from ..rules import Rules
from ..seats import Seat
from ..tricks import beats
from .position import Position, capot_bonus
from .search import INF as _SEARCH_INF
from .search import SearchLimitError, SolveResult

__all__ = ["AVAILABLE", "beats_card", "legal_mask", "solve_moves", "solve_value"]

try:  # pragma: no cover - depends on the installation
    import numba as _nb  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import numpy as _np

    AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the installation
    AVAILABLE = False

INF = 10_000
""":data:`.search.INF` written again here: the compiled functions read it
as a constant, and their disk cache is renewed only when this file
changes."""
if INF != _SEARCH_INF:  # pragma: no cover - a change in one file only
    raise ImportError("rebelote.solver.kernel.INF must equal rebelote.solver.search.INF")

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
_FRAMES = 968  # the search's frames: _FRAME integers a node, 40 nodes (960)
_W_SIZE = 1928

_FRAME = 24
"""Integers a frame of :func:`_node` (the fields ``_F_*``, then unused)."""
# The fields of a frame: the node's arguments, then what the node keeps
# while one of its children is searched.
_F_TURN = 0
_F_N = 1
_F_LED = 2
_F_BEST = 3
_F_BSEAT = 4
_F_PTS = 5
_F_REM = 6
_F_TREM = 7
_F_ALPHA = 8
_F_BETA = 9
_F_CAPOT = 10
_F_ONLY = 11
_F_A0 = 12  # alpha and beta as the node was called (for the table)
_F_B0 = 13
_F_SLOT = 14  # the node's slot and key in the table
_F_KEY = 15
_F_HAND = 16  # the hand of the seat to play
_F_COUNT = 17  # cards to search (the move buffer at the node's depth)
_F_BESTV = 18  # the best value so far
_F_I = 19  # the number of the card whose child is searched
_F_S = 20  # what that card's trick adds to the child's value


_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    """Compile ``f`` with numba when first called, cached on disk; ``f``
    itself without numba.

    numba writes the cache beside this file (``__pycache__``) where that
    directory is writable, else in the user's cache directory
    (``~/.cache/numba``, or ``$XDG_CACHE_HOME/numba``); the environment
    variable ``NUMBA_CACHE_DIR`` chooses the directory instead.  An entry
    is used only by the same numba version on the same kind of processor
    and is written anew when this file changes (numba keys it on the
    file's contents).  Where no directory is writable, ``f`` is compiled in
    each process, uncached.

    The search is iterative (:func:`_node`): numba's cache of a recursive
    function crashed the process that loaded it back (numba 0.68, seen
    here).  Every compiled function and constant of the kernel is in this
    file, because the cache of a function is not renewed when another file
    that it uses changes."""
    if not AVAILABLE:
        return f
    try:
        return cast(_F, _nb.njit(cache=True, nogil=True)(f))
    except RuntimeError:  # pragma: no cover - no writable cache directory
        return cast(_F, _nb.njit(cache=False, nogil=True)(f))


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
    partner_exemption: int,
    undertrump: bool,
) -> int:
    """:func:`~rebelote.tricks.legal_play_mask` on raw values: ``led`` and
    ``winning`` are cards (``led < 0`` when leading), ``trumps`` the trump
    mask, ``higher_winning`` the strain's ``higher`` mask of ``winning``, and the
    three flags the rule set's ``overtrump_partner_on_trump_lead``,
    ``partner_winning_exemption`` (0 off, 1 on, 2 on with a lower trump
    under the partner's only for a hand of trumps alone:
    ``lower_trump_under_partner == "all_trumps_only"``) and
    ``must_undertrump``."""
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
    if tr == 0:
        return hand
    if partner_winning and partner_exemption:
        plain = hand & ~trumps & 0xFFFFFFFF
        if partner_exemption == 2 and (trumps >> winning) & 1 and plain:
            return int(plain | (tr & higher_winning))
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
    """The value of a node of the search; see :mod:`.search` for the meaning.

    An alpha-beta search without recursion: the frames of the nodes on the
    path from this one live in the workspace (:data:`_FRAMES`, one row of
    :data:`_FRAME` integers a node, the fields ``_F_*``), so that numba can
    cache the compiled code on disk (its cache of a recursive function
    crashes the process that loads it).  The nodes are visited in the same
    order as the recursive search of the versions before (same values, same
    node counts; ``tests/test_solver.py`` compares them with values it
    recorded).

    ``w``: the workspace (see :data:`_W_SIZE`): hands, the integers
    [players, trumps, overtrump_partner, partner_exemption, undertrump,
    bonus, min_capot, generation, nodes, max_nodes, aborted, is_max N W S E,
    next N W S E], the strength, higher and points tables, the ranked
    table, history, killers, the move buffer and the frames; ``tt``: the
    transposition table, three int64 a slot (key, lower bound, upper
    bound)."""
    players = w[_I + 0]
    trumps = w[_I + 1]
    bonus = w[_I + 5]
    sp = 0
    f = _FRAMES
    w[f + _F_TURN] = turn
    w[f + _F_N] = n
    w[f + _F_LED] = led
    w[f + _F_BEST] = best
    w[f + _F_BSEAT] = bseat
    w[f + _F_PTS] = pts
    w[f + _F_REM] = rem
    w[f + _F_TREM] = trick_rem
    w[f + _F_ALPHA] = alpha
    w[f + _F_BETA] = beta
    w[f + _F_CAPOT] = capot
    w[f + _F_ONLY] = only
    entering = True
    ret = 0
    while True:
        f = _FRAMES + sp * _FRAME
        turn = w[f + _F_TURN]
        n = w[f + _F_N]
        led = w[f + _F_LED]
        best = w[f + _F_BEST]
        bseat = w[f + _F_BSEAT]
        rem = w[f + _F_REM]
        capot = w[f + _F_CAPOT]
        only = w[f + _F_ONLY]
        cut = False
        if entering:
            # A new node: the table, then the legal cards in search order.
            alpha = w[f + _F_ALPHA]
            beta = w[f + _F_BETA]
            w[_I + 8] += 1
            done = False
            if w[_I + 10]:
                ret = 0
                done = True
            elif w[_I + 9] > 0 and w[_I + 8] >= w[_I + 9]:
                w[_I + 10] = 1
                ret = 0
                done = True
            a0 = alpha
            b0 = beta
            slot = 0
            key = 0
            if not done and n == 0 and only == 0:
                key = (rem | (turn << 32) | (capot << 34)) | (w[_I + 7] << 36)
                h = rem * 0x9E3779B1 + turn * 0x85EBCA77 + capot * 0xC2B2AE3D
                slot = (h ^ (h >> 29)) & ((1 << 20) - 1)
                if tt[3 * slot] == key:
                    lo = tt[3 * slot + 1]
                    hi = tt[3 * slot + 2]
                    if lo >= beta:
                        ret = lo
                        done = True
                    elif hi <= alpha:
                        ret = hi
                        done = True
                    elif lo == hi:
                        ret = lo
                        done = True
                    else:
                        if lo > alpha:
                            alpha = lo
                        if hi < beta:
                            beta = hi
            if done:
                if sp == 0:
                    return ret
                sp -= 1
                entering = False
                continue
            trick_rem = w[f + _F_TREM]
            hand = w[_H + turn]
            if n == 0:
                legal = hand
            else:
                partner = players == 4 and ((bseat ^ turn) & 1) == 0
                legal = legal_mask(
                    hand, led, best, partner, trumps, w[_HIGH + best],
                    w[_I + 2] != 0, w[_I + 3], w[_I + 4] != 0,
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
            i = 0
            w[f + _F_A0] = a0
            w[f + _F_B0] = b0
            w[f + _F_SLOT] = slot
            w[f + _F_KEY] = key
            w[f + _F_HAND] = hand
            w[f + _F_COUNT] = count
        else:
            # Back from the child of card number i: its value, as the
            # recursive search had it after its call.
            trick_rem = w[f + _F_TREM]
            alpha = w[f + _F_ALPHA]
            beta = w[f + _F_BETA]
            hand = w[f + _F_HAND]
            count = w[f + _F_COUNT]
            bestv = w[f + _F_BESTV]
            i = w[f + _F_I]
            maximizing = w[_I + 11 + turn] != 0
            depth = 32 - _popcount(rem)
            base = depth * 8
            v = w[f + _F_S] + ret
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
                c = w[_BUF + 2 * (base + i)]
                w[_KILL + depth] = c
                w[_HIST + c] += count
                cut = True
            else:
                i += 1
        # The cards from number i: a card that ends the deal is valued
        # here; any other opens its child's frame.
        pushed = False
        nxt_turn = w[_I + 15 + turn]
        pts = w[f + _F_PTS]
        while not cut and i < count:
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
            g = _FRAMES + (sp + 1) * _FRAME
            if n + 1 == players:
                if rem2 == 0:
                    npts += 10
                if w[_I + 11 + nseat] != 0:
                    s = npts
                    cap = capot | 1
                else:
                    s = -npts
                    cap = capot | 2
                if rem2 != 0:
                    # The next trick: its leader's node, alpha and beta
                    # shifted by the trick's value s.
                    w[g + _F_TURN] = nseat
                    w[g + _F_N] = 0
                    w[g + _F_LED] = -1
                    w[g + _F_BEST] = -1
                    w[g + _F_BSEAT] = -1
                    w[g + _F_PTS] = 0
                    w[g + _F_REM] = rem2
                    w[g + _F_TREM] = rem2
                    w[g + _F_ALPHA] = alpha - s
                    w[g + _F_BETA] = beta - s
                    w[g + _F_CAPOT] = cap
                    w[g + _F_ONLY] = 0
                    w[f + _F_S] = s
                    pushed = True
                    break
                if bonus:
                    if cap == 1:
                        s += bonus
                    elif cap == 2 and w[_I + 6] != 0:
                        s -= bonus
                v = s
            else:
                w[g + _F_TURN] = nxt_turn
                w[g + _F_N] = n + 1
                w[g + _F_LED] = nled
                w[g + _F_BEST] = nbest
                w[g + _F_BSEAT] = nseat
                w[g + _F_PTS] = npts
                w[g + _F_REM] = rem2
                w[g + _F_TREM] = trick_rem
                w[g + _F_ALPHA] = alpha
                w[g + _F_BETA] = beta
                w[g + _F_CAPOT] = capot
                w[g + _F_ONLY] = 0
                w[f + _F_S] = 0
                pushed = True
                break
            # The deal's last card: no child.
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
            i += 1
        if pushed:
            w[f + _F_ALPHA] = alpha
            w[f + _F_BETA] = beta
            w[f + _F_BESTV] = bestv
            w[f + _F_I] = i
            sp += 1
            entering = True
            continue
        # The node's value: into the table, then back to the parent.
        if n == 0 and only == 0 and w[_I + 10] == 0:
            slot = w[f + _F_SLOT]
            key = w[f + _F_KEY]
            a0 = w[f + _F_A0]
            b0 = w[f + _F_B0]
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
        ret = bestv
        if sp == 0:
            return ret
        sp -= 1
        entering = False


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


def _exemption(rules: Rules) -> int:
    """The ``partner_exemption`` code of :func:`legal_mask` for ``rules``."""
    if not rules.partner_winning_exemption:
        return 0
    return 2 if rules.lower_trump_under_partner == "all_trumps_only" else 1


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
        _exemption(rules),
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
