"""The double-dummy solver in pure Python: alpha-beta over raw card masks.

What it computes, from a :class:`~.position.Position` (every hand visible):
the exact value of the rest of the deal for one side under best play by
everyone, where the value is

    (points the side wins from here) - (points the other side(s) win from here)

counting the card points of the tricks (the rule set's tables, through
:func:`~rebelote.trump.strain_tables`), the dix de der (10) on the last trick,
and the capot: a side that takes every trick of the deal adds
:func:`~.position.capot_bonus` (90 for a capot of 252; 88 in coinche).
Belote and declarations are fixed once the cards are dealt and are not
searched.  The value is a score difference, so the other side plays for its
own points and its own capot too (zero-sum).  In the three-player game the
side is one seat against the two others together (a "paranoid" search: the
two opponents are treated as partners); the capot counts only for that seat.

Legal cards come from the rules' :func:`~rebelote.tricks.legal_play_mask` and
trick winners from :func:`~rebelote.tricks.beats`: there is no second copy of
the rules here.

Search: fail-soft alpha-beta, one node per card played, each root card
valued by MTD(f) (null-window searches converging on its value); a
transposition table
at the start of each trick keyed on (cards still in the hands, leader, capot
state), holding a lower and an upper bound; move ordering by a card-play
heuristic (cheapest winner, charging a winning partner, masters first when
leading) then killer moves (per depth) and the history heuristic; and
equivalent-card pruning: of two cards of one hand that are neighbours in the
suit's order among the cards still in play (the trick's included) and are
worth the same points, only one is searched (the same trick and the same
points follow from either).

Speed: about 10^5 nodes a second on one core; a position from about the
fourth trick on is solved exactly in well under a second.  A compiled kernel
(:mod:`.kernel`, numba) solves a whole deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from ..cards import cards_of
from ..seats import Seat, next_seat
from ..tricks import beats, legal_play_mask
from .position import Position, capot_bonus

__all__ = ["SearchLimitError", "SolveResult", "solve_moves", "solve_value"]

INF = 10_000


class SearchLimitError(RuntimeError):
    """A search stopped at its node limit (``max_nodes``)."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """Exact values of a position.

    - ``values``: for each legal card of the seat to play (equivalent cards
      included), the value for that seat's side after playing it (see the
      module: a points difference over the rest of the deal).
    - ``nodes``: cards played in the search; ``seconds``: wall time.
    - ``kernel``: ``"python"`` or ``"numba"``.
    """

    values: dict[int, int]
    nodes: int
    seconds: float
    kernel: str

    @property
    def best(self) -> int:
        """The best value."""
        return max(self.values.values())


def _ordered_equivalents(
    legal: int,
    hand: int,
    trick_rem: int,
    ranked: tuple[tuple[int, ...], ...],
    points: tuple[int, ...],
) -> tuple[list[int], dict[int, int]]:
    """Split ``legal`` into representatives and ``{card: representative}``
    for the cards pruned as equivalent (see the module)."""
    reps: list[int] = []
    same: dict[int, int] = {}
    for c in cards_of(legal):
        # The next card above c, in its suit's order, among the cards in play.
        for up in ranked[c]:
            if trick_rem >> up & 1:
                if legal >> up & 1 and hand >> up & 1 and points[up] == points[c]:
                    same[c] = up
                break
        if c not in same:
            reps.append(c)
    # Chains: point each pruned card to its chain's representative.
    for c in list(same):
        r = same[c]
        while r in same:
            r = same[r]
        same[c] = r
    return reps, same


class _Node(Protocol):
    def __call__(
        self,
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
        only: int = 0,
    ) -> int: ...


class _Searcher:
    """One search: the position's state as mutable locals behind closures."""

    def __init__(self, pos: Position, side: int, max_nodes: int | None) -> None:
        rules = pos.rules
        tables = pos.tables
        self.pos = pos
        players = rules.players
        self.players = players
        seats = pos.seats
        self.is_max = [False] * 4
        for s in seats:
            self.is_max[s] = pos.side_of(s) == side
        self.bonus = capot_bonus(rules)
        max_won = pos.side_tricks[side] > 0
        min_won = any(t > 0 for i, t in enumerate(pos.side_tricks) if i != side)
        self.capot0 = (1 if max_won else 0) | (2 if min_won else 0)
        self.hands = list(pos.hands)
        self.tt: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.history = [0] * 32
        self.killers = [-1] * 40
        # For each card, the cards of its suit above it, weakest first.
        strength = tables.strength
        ranked: list[tuple[int, ...]] = []
        for c in range(32):
            base = c & ~7
            above = sorted(
                (o for o in range(base, base + 8) if strength[o] > strength[c]),
                key=lambda o: strength[o],
            )
            ranked.append(tuple(above))
        self.ranked = tuple(ranked)
        self.nxt = tuple(int(next_seat(s, players)) if s in seats else int(s) for s in Seat)
        self.node = self._build()

    def _build(self) -> _Node:
        pos = self.pos
        rules = pos.rules
        tables = pos.tables
        points = tables.points
        strength = tables.strength
        trumps = tables.trumps
        higher = tables.higher
        players = self.players
        is_max = self.is_max
        hands = self.hands
        tt = self.tt
        history = self.history
        killers = self.killers
        ranked = self.ranked
        nxt = self.nxt
        bonus = self.bonus
        min_capot = players != 3  # one opponent side: it can be capot
        max_nodes = self.max_nodes if self.max_nodes is not None else -1
        lpm = legal_play_mask
        bts = beats
        me = self

        def order_key_lead(c: int, trick_rem: int) -> int:
            master = 0 if higher[c] & trick_rem else 1
            return master * 1000 + history[c] - points[c]

        def node(
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
            only: int = 0,
        ) -> int:
            me.nodes += 1
            if me.nodes == max_nodes:
                raise SearchLimitError(f"node limit {max_nodes} reached")
            a0, b0 = alpha, beta
            key = 0
            if n == 0 and not only:
                key = rem | turn << 32 | capot << 34
                entry = tt.get(key)
                if entry is not None:
                    lo, hi = entry
                    if lo >= beta:
                        return lo
                    if hi <= alpha:
                        return hi
                    if lo == hi:
                        return lo
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
            hand = hands[turn]
            if n == 0:
                legal = hand
            else:
                partner = players == 4 and (bseat ^ turn) & 1 == 0
                legal = lpm(hand, led, best, partner, tables, rules)
            if only:
                legal &= only
            maximizing = is_max[turn]
            depth = 32 - rem.bit_count()
            # Equivalent cards: keep the top of each run.
            reps: list[int] = []
            for c in cards_of(legal):
                keep = True
                for up in ranked[c]:
                    if trick_rem >> up & 1:
                        if legal >> up & 1 and points[up] == points[c]:
                            keep = False
                        break
                if keep:
                    reps.append(c)
            if len(reps) > 1:
                if n == 0:
                    reps.sort(key=lambda c: -order_key_lead(c, trick_rem))
                else:
                    mine = is_max[bseat] == maximizing
                    keys: dict[int, int] = {}
                    for c in reps:
                        win = bts(c, best, tables)
                        if mine:
                            k = points[c] * 10 - (500 if trumps >> c & 1 else 0)
                            if win:
                                k -= 5
                        elif win:
                            k = 2000 - strength[c] * 10 + points[c]
                        else:
                            k = -points[c] * 10 - strength[c]
                        keys[c] = k + history[c]
                    reps.sort(key=keys.__getitem__, reverse=True)
                killer = killers[depth]
                if killer >= 0 and killer in reps and reps[0] != killer:
                    reps.remove(killer)
                    reps.insert(0, killer)
            bestv = -INF if maximizing else INF
            nxt_turn = nxt[turn]
            for c in reps:
                bit = 1 << c
                hands[turn] = hand ^ bit
                rem2 = rem ^ bit
                if n == 0:
                    nled, nbest, nseat = c, c, turn
                elif bts(c, best, tables):
                    nled, nbest, nseat = led, c, turn
                else:
                    nled, nbest, nseat = led, best, bseat
                npts = pts + points[c]
                if n + 1 == players:
                    if rem2 == 0:
                        npts += 10
                    if is_max[nseat]:
                        s = npts
                        cap = capot | 1
                    else:
                        s = -npts
                        cap = capot | 2
                    if rem2 == 0:
                        if bonus:
                            if cap == 1:
                                s += bonus
                            elif cap == 2 and min_capot:
                                s -= bonus
                        v = s
                    else:
                        v = s + node(nseat, 0, -1, -1, -1, 0, rem2, rem2, alpha - s, beta - s, cap)
                else:
                    v = node(
                        nxt_turn,
                        n + 1,
                        nled,
                        nbest,
                        nseat,
                        npts,
                        rem2,
                        trick_rem,
                        alpha,
                        beta,
                        capot,
                    )
                hands[turn] = hand
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
                    killers[depth] = c
                    history[c] += len(reps)
                    break
            if n == 0 and not only:
                lo, hi = -INF, INF
                entry = tt.get(key)
                if entry is not None:
                    lo, hi = entry
                if bestv <= a0:
                    hi = min(hi, bestv)
                elif bestv >= b0:
                    lo = max(lo, bestv)
                else:
                    lo = hi = bestv
                tt[key] = (lo, hi)
            return bestv

        return node

    def root_state(self) -> tuple[int, int, int, int, int, int, int, int]:
        """``(turn, n, led, best, bseat, pts, rem, trick_rem)`` of the root."""
        pos = self.pos
        tables = pos.tables
        rem = pos.remaining
        trick_rem = rem
        led = best = bseat = -1
        pts = 0
        for i, (s, c) in enumerate(pos.trick):
            trick_rem |= 1 << c
            pts += tables.points[c]
            if i == 0:
                led, best, bseat = c, c, s
            elif beats(c, best, tables):
                best, bseat = c, s
        return int(pos.turn), len(pos.trick), led, best, bseat, pts, rem, trick_rem

    def value(self, alpha: int = -INF, beta: int = INF) -> int:
        """The value of the root position for the searched side."""
        turn, n, led, best, bseat, pts, rem, trick_rem = self.root_state()
        return self.node(turn, n, led, best, bseat, pts, rem, trick_rem, alpha, beta, self.capot0)

    def move_values(self) -> dict[int, int]:
        """Each legal card's exact value for the searched side (the side to
        play, for :func:`solve_moves`)."""
        pos = self.pos
        turn, n, led, best, bseat, pts, rem, trick_rem = self.root_state()
        legal = pos.legal_mask()
        _, same = _ordered_equivalents(
            legal, self.hands[turn], trick_rem, self.ranked, pos.tables.points
        )
        out: dict[int, int] = {}
        guess = 0
        for c in cards_of(legal):
            if c in same:
                continue
            # MTD(f): null-window searches around a guess (the previous
            # card's value) until the bounds meet.
            lo, hi, g = -INF, INF, guess
            while lo < hi:
                beta = g + 1 if g == lo else g
                g = self.node(
                    turn,
                    n,
                    led,
                    best,
                    bseat,
                    pts,
                    rem,
                    trick_rem,
                    beta - 1,
                    beta,
                    self.capot0,
                    1 << c,
                )
                if g < beta:
                    hi = g
                else:
                    lo = g
            out[c] = guess = g
        for c, r in same.items():
            out[c] = out[r]
        return {c: out[c] for c in sorted(out)}


def solve_value(pos: Position, side: int | None = None, *, max_nodes: int | None = None) -> int:
    """The exact value of ``pos`` for ``side`` (default: the side to play).

    Raises :class:`SearchLimitError` past ``max_nodes`` nodes."""
    if side is None:
        side = pos.side_of(pos.turn)
    return _Searcher(pos, side, max_nodes).value()


def solve_moves(pos: Position, *, max_nodes: int | None = None) -> SolveResult:
    """The exact value of every legal card of the seat to play, for its side.

    Raises :class:`SearchLimitError` past ``max_nodes`` nodes (counted over
    all the cards)."""
    start = time.perf_counter()
    searcher = _Searcher(pos, pos.side_of(pos.turn), max_nodes)
    values = searcher.move_values()
    return SolveResult(values, searcher.nodes, time.perf_counter() - start, "python")
