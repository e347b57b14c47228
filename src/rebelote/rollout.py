"""Compiled rollouts: whole deals, or the rest of a deal, played by random
(or simple greedy) legal actions in machine code, for every rule option of
:class:`~rebelote.rules.Rules`.

The same game as :class:`~rebelote.state.State`, restated on integers for
numba (optional: ``pip install rebelote[fast]``; without it the same
functions run as plain, slow Python): the first distribution of a pack
already cut, the auction (classic, Tout Atout / Sans Atout, coinche), the
completion of the deal, the carré of 7s, declarations (off, chosen, made
automatically, in a turn of their own or with the first card), belote and
rebelote (said automatically or by choice), the legal cards (follow, trump,
overtrump, undertrump, the partner's exemptions) and the scoring (dix de
der, capot and solo capot, declarations, belote, made / dedans / litige,
coinche contracts, multipliers, the three-player game).
``tests/test_rollout.py`` plays seeded deals of every preset and of random
rule sets through both engines, action by action: every legal set, every
declaration found and every score agree.

- :func:`random_deals`: ``count`` deals from shuffled packs, each action
  drawn uniformly from the legal ones (as
  :func:`rebelote.simulate.play_randomly` draws them), their scores;
  ``rebelote bench engine`` times it (``rollouts_per_s``).
- :func:`play_out`: the rest of one deal (a :class:`State` in its card play
  or its declarations, every hand known, e.g. a world a bot sampled)
  played ``count`` times, random or greedy; the scores of each.
- :func:`trace_deal`, :func:`trace_play_out`: one deal with the actions,
  the legal sets and the score written down, to compare with the engine.

Random numbers come from the rollouts' own generator (xoshiro128**),
seeded by the caller: the same seed gives the same deals, but not the deals
that Python's ``random`` would give.

The compiled code is cached on disk like the solver's kernel (see
:func:`rebelote.solver.kernel._jit`): compiled once (about 10 seconds),
loaded after that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast

from .actions import Bid, Declare, Play
from .auction import COINCHE_VALUES
from .cards import DECK_24, DECK_32, cards_of
from .declarations import CARRE_POINTS, CARRE_POINTS_SA_FFB, Declaration
from .rules import Rules
from .scoring import DealResult
from .seats import Seat
from .state import Phase, State
from .trump import Strain, strain_tables

__all__ = [
    "AVAILABLE",
    "POLICIES",
    "RESULT_KINDS",
    "Policy",
    "RolloutError",
    "bid_code",
    "card_tables",
    "declaration_code",
    "declare_action",
    "play_action",
    "play_out",
    "random_deals",
    "result_row",
    "rule_params",
    "supports",
    "trace_deal",
    "trace_play_out",
]

try:  # pragma: no cover - depends on the installation
    import numba as _nb  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import numpy as _np

    AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the installation
    AVAILABLE = False

Policy = Literal["random", "greedy"]
POLICIES: dict[str, int] = {"random": 0, "greedy": 1}
"""The card-play policies by name: ``random`` draws each action uniformly
from the legal ones; ``greedy`` leads its strongest card, throws its most
valuable card on a trick its partner wins, wins a trick with its weakest
winning card where it can and else plays its least valuable card (bids and
declarations stay random; belote is said)."""


class RolloutError(ValueError):
    """A state that cannot be played out (not in its card play or its
    declarations), or numba missing where numpy arrays are needed."""


_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    """Compile ``f`` with numba, cached on disk as the solver's kernel
    (:func:`rebelote.solver.kernel._jit` says where); ``f`` itself without
    numba.  Every compiled function and constant of the rollouts is in this
    file (numba renews a cache only when the function's own file changes)."""
    if not AVAILABLE:
        return f
    try:
        return cast(_F, _nb.njit(cache=True, nogil=True)(f))
    except RuntimeError:  # pragma: no cover - no writable cache directory
        return cast(_F, _nb.njit(cache=False, nogil=True)(f))


def _inline(f: _F) -> _F:
    """:func:`_jit`, and inlined into the compiled functions that call
    ``f`` (numba's ``inline="always"``): the functions of each card played
    (a call between compiled functions costs more than their bodies)."""
    if not AVAILABLE:
        return f
    try:
        return cast(_F, _nb.njit(cache=True, nogil=True, inline="always")(f))
    except RuntimeError:  # pragma: no cover - no writable cache directory
        return cast(_F, _nb.njit(cache=False, nogil=True, inline="always")(f))


# ----------------------------------------------------------------- layout
# The rules: P[...], one integer an option.
P_PLAYERS = 0
P_BIDDING = 1  # 0 classic, 1 tout_atout, 2 coinche
P_R2_TURNED = 2  # round_two_turned_suit
P_DEALER_LEADS = 3  # first_lead == "dealer"
P_EXEMPTION = 4  # partner_winning_exemption
P_UNDERTRUMP = 5  # must_undertrump
P_OVER_PARTNER = 6  # overtrump_partner_on_trump_lead
P_DECL = 7  # 0 off, 1 choice, 2 automatic
P_DECL_TURN = 8  # declaration_turn
P_DECL_FIRST = 9  # declaration_tie == "first"
P_BELOTE_SAID = 10  # belote_must_be_said
P_BELOTE_TRICK = 11  # belote_requires_trick
P_BELOTE_DEFENDERS = 12  # belote_on_dedans == "defenders"
P_LITIGE = 13  # tie == "litige"
P_CAPOT = 14  # capot_points
P_CAPOT_AGAINST = 15  # capot_against_takers
P_SOLO_CAPOT = 16  # solo_capot_points, -1: None
P_CARRE7 = 17  # carre_of_seven_cancels
P_SA_MULT = 18
P_TA_MULT = 19
P_COINCHE_TA = 20  # coinche_tout_atout
P_CONTRACT_ONLY = 21  # coinche_made_score == "contract"
P_PATTERN = 22  # the first distribution: 0 "3-2", 1 "2-3", 2 "3-3-2"
P_POLICY = 23  # 0 random, 1 greedy
P_LOWER_TRUMP = 24  # lower_trump_under_partner == "all_trumps_only"
P_THREE_PASSES = 25  # after_coinche == "three_passes"
P_COINCHE_CAPOT = 26  # coinche_capot_points
P_DEAL_MULT = 27  # coinche_multiplies == "deal"
P_CAPOT_DECL = 28  # capot_takes_declarations
P_TO_162 = 29  # ta_sa_points_to_162
P_ROUNDING = 30  # 0 none, 1 nearest_ten, 2 house
P_SA_CARRES = 31  # sa_carres == "ffb"
P_SIZE = 32

# The card tables: T[strain, ...] for strains S H D C SA TA.
T_TRUMPS = 0
T_STR = 1  # strength by card (32)
T_HIGH = 33  # higher cards of the same suit, by card (32)
T_PTS = 65  # points by card (32)
T_BEAT = 97  # the cards that beat a card winning a trick, by card (32)
T_SIZE = 129

# The deal: G[...].
G_HANDS = 0  # 4
G_DEALER = 4
G_CURRENT = 5
G_LEADER = 6
G_PHASE = 7  # PH_*
G_TURNED = 8  # -1: none
G_POS = 9  # cards dealt from the deck
G_STRAIN = 10
G_TAKER = 11
G_VALUE = 12  # coinche contract, 0 in classic games
G_MULT = 13
G_ROUND = 14  # the auction
G_PASSES = 15
G_HIGH = 16  # code of the bid that stands, -1: none
G_BIDDER = 17
G_COINCHED = 18
G_NTRICK = 19  # cards on the trick
G_TCARDS = 20  # 4
G_TSEATS = 24  # 4
G_WINNING = 28  # index in the trick of the card winning it
G_TRICKS = 29  # tricks finished
G_SIDE_PTS = 30  # 3: card points won by each side
G_SIDE_TRICKS = 33  # 3
G_WINNERS = 36  # seats that won a trick, as bits
G_LAST = 37  # the seat that won the last trick finished
G_NFOUND = 38  # 4: declarations held by each seat
G_FOUND = 42  # 4 seats x 4 declarations x (code, points, key)
G_NDECLARE = 90  # seats still to declare (choice) in order
G_DECLARE_AT = 91
G_DECLARE = 92  # 4
G_NDECLARED = 96  # declarations made, in order
G_DECLARED = 97  # 16 x (seat, code, points, key)
G_BELOTE_OWNER = 161  # 4, by suit: the seat holding K and Q of trump, -1
G_BELOTE_SAID = 165  # 4, by suit: -1 not yet played, 0 not said, 1 said
G_BELOTE_CARDS = 169
G_AUTO_DONE = 170  # seats whose automatic declarations are made, as bits
G_KIND = 171  # the result: K_*
G_SCORE = 172  # 3
G_HELD = 175
G_CAPOT = 176  # side, -1
G_SOLO = 177
G_BELOTE_PTS = 178  # 3
G_DDD = 181  # side of the dix de der, -1
G_WINNER = 182  # side, -1
G_DECL_PTS = 183  # 3: declarations that counted, by side
G_NTRACE = 186
G_WORK = 192  # scoring's scratch: 5 x 3 (trick points, declarations,
# belote, totals, score by side)
G_SIZE = 208

PH_BIDDING = 0
PH_DECLARING = 1
PH_PLAYING = 2
PH_DONE = 3

K_MADE = 0
K_CAPOT = 1
K_DEDANS = 2
K_LITIGE = 3
K_PASSED = 4
K_CANCELLED = 5
RESULT_KINDS: tuple[str, ...] = ("made", "capot", "dedans", "litige", "passed", "cancelled")
"""The result kinds by their code in the rollouts' results."""

# Trace rows: (what, a, b, c, d, e).
TR_BID = 1  # a, b: the legal bids' codes as bits (0..62, 63..); c: the bid
TR_DECLARE = 2  # a: the seat, b: its declarations held, c: the subset made
TR_PLAY = 3  # a: the legal cards, b: those with a belote choice, c: card, d: flag
TR_FOUND = 4  # a: the seat, b: count, c: the codes, 7 bits each
TRACE_WIDTH = 6
_TRACE_ROWS = 1024
"""Room for the longest deal: a coinche auction raising 60 times, passes
between, the declarations and 32 cards."""

# Bid codes: pass 0, take 1, coinche 2, surcoinche 3, a strain 4 + strain,
# a contract 10 + 6 x (its value's index in COINCHE_VALUES) + strain.
B_PASS = 0
B_TAKE = 1
B_COINCHE = 2
B_SURCOINCHE = 3
B_STRAIN = 4
B_CONTRACT = 10

_CARRE_ORDER = (4, 2, 7, 3, 6, 5)
"""The ranks of the carrés that score, in :data:`CARRE_POINTS` order."""
_CARRE_VALUE = (0, 0, 150, 100, 200, 100, 100, 100)
_CARRE_VALUE_SA_FFB = (0, 0, 100, 150, 100, 100, 100, 200)
"""By rank 7 8 9 10 J Q K A: :data:`~rebelote.declarations.CARRE_POINTS_SA_FFB`."""
"""A carré's points by rank 7 8 9 10 J Q K A."""
_PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)
_COINCHE_VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)

assert tuple(CARRE_POINTS) == _CARRE_ORDER and tuple(_COINCHE_VALUES) == COINCHE_VALUES
assert all(_CARRE_VALUE[r] == p for r, p in CARRE_POINTS.items())
assert all(_CARRE_VALUE_SA_FFB[r] == p for r, p in CARRE_POINTS_SA_FFB.items())


# ------------------------------------------------------------------ bits


@_inline
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@_inline
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
def _nth_bit(mask: int, k: int) -> int:
    """The ``k``-th lowest set bit's index (0-based) of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return _ctz(mask & -mask)


# ------------------------------------------------------------------ random


@_inline
def _rand(rs: Any) -> int:
    """The next 32-bit number of xoshiro128** (state: 4 integers of 32 bits)."""
    s0: int = rs[0]
    s1: int = rs[1]
    s2: int = rs[2]
    s3: int = rs[3]
    x = (s1 * 5) & 0xFFFFFFFF
    x = ((x << 7) | (x >> 25)) & 0xFFFFFFFF
    result = (x * 9) & 0xFFFFFFFF
    t = (s1 << 9) & 0xFFFFFFFF
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 11) | (s3 >> 21)) & 0xFFFFFFFF
    rs[0] = s0
    rs[1] = s1
    rs[2] = s2
    rs[3] = s3
    return result


@_inline
def _below(rs: Any, n: int) -> int:
    """A number in ``0 .. n-1``, uniform up to ``n / 2**32``."""
    return (_rand(rs) * n) >> 32


@_jit
def _seed(rs: Any, seed: int) -> None:
    """Seed the generator from any integer (splitmix32 steps)."""
    z = seed & 0xFFFFFFFF
    h = (seed >> 32) & 0xFFFFFFFF
    for i in range(4):
        z = (z + 0x9E3779B9 + h) & 0xFFFFFFFF
        x = z
        x = ((x ^ (x >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
        x = ((x ^ (x >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
        x ^= x >> 16
        rs[i] = x
    if rs[0] == 0 and rs[1] == 0 and rs[2] == 0 and rs[3] == 0:
        rs[0] = 1


# ------------------------------------------------------------------ seats


@_inline
def _next(seat: int, players: int) -> int:
    if players == 3:
        return 1 if seat == 3 else seat + 1
    return (seat + 1) & 3


@_inline
def _side(seat: int, players: int) -> int:
    return seat & 1 if players == 4 else seat - 1


# ------------------------------------------------------------------ dealing


@_jit
def _deal_round(G: Any, deck: Any, count: int, taker: int, players: int) -> None:
    """``count`` cards to each seat from the dealer's right (one less to
    ``taker``, -1: none), from the deck's position."""
    seat = _next(G[G_DEALER], players)
    pos = G[G_POS]
    for _ in range(players):
        n = count - 1 if seat == taker else count
        got = 0
        for k in range(n):
            got |= 1 << deck[pos + k]
        pos += n
        G[G_HANDS + seat] |= got
        seat = _next(seat, players)
    G[G_POS] = pos


@_jit
def _start(G: Any, P: Any, deck: Any, dealer: int) -> None:
    """A new deal from a pack already cut: the first distribution, the
    turned card (classic auctions), the auction open."""
    for i in range(G_SIZE):
        G[i] = 0
    players = P[P_PLAYERS]
    G[G_DEALER] = dealer
    G[G_TURNED] = -1
    G[G_HIGH] = -1
    G[G_BIDDER] = -1
    G[G_COINCHED] = 1
    G[G_ROUND] = 1
    G[G_CAPOT] = -1
    G[G_DDD] = -1
    G[G_WINNER] = -1
    G[G_LAST] = -1
    for s in range(4):
        G[G_BELOTE_OWNER + s] = -1
        G[G_BELOTE_SAID + s] = -1
    if P[P_PATTERN] == 2:  # 3-3-2, coinche only
        _deal_round(G, deck, 3, -1, players)
        _deal_round(G, deck, 3, -1, players)
        _deal_round(G, deck, 2, -1, players)
    else:
        first = 3 if P[P_PATTERN] == 0 else 2
        _deal_round(G, deck, first, -1, players)
        _deal_round(G, deck, 5 - first, -1, players)
    if P[P_BIDDING] == 2:
        if P[P_PATTERN] != 2:
            _deal_round(G, deck, 3, -1, players)
    else:
        G[G_TURNED] = deck[G[G_POS]]
        G[G_POS] += 1
    G[G_PHASE] = PH_BIDDING
    G[G_CURRENT] = _next(dealer, players)


# ------------------------------------------------------------------ auction


@_jit
def _legal_bids(G: Any, P: Any, out: Any) -> int:
    """The current speaker's bids (codes, in the order of
    :meth:`~rebelote.auction.Auction.legal_bids`) into ``out``; their count."""
    bidding = P[P_BIDDING]
    out[0] = B_PASS
    n = 1
    high = G[G_HIGH]
    if bidding == 2:
        if G[G_COINCHED] > 1:
            if ((G[G_CURRENT] ^ G[G_BIDDER]) & 1) == 0:
                out[1] = B_SURCOINCHE  # the coinched side
                return 2
            return 1
        low = -1 if high < 0 else (high - B_CONTRACT) // 6
        strains = 6 if P[P_COINCHE_TA] else 4
        for vi in range(low + 1, 10):
            for s in range(strains):
                out[n] = B_CONTRACT + vi * 6 + s
                n += 1
        bidder = G[G_BIDDER]
        if bidder >= 0 and ((G[G_CURRENT] ^ bidder) & 1) == 1:
            out[n] = B_COINCHE
            n += 1
        return n
    turned = G[G_TURNED] >> 3
    if G[G_ROUND] == 1 and (bidding == 0 or high < 0):
        out[n] = B_TAKE
        n += 1
    elif bidding == 0 or high < 0:
        for s in range(4):
            if P[P_R2_TURNED] or s != turned:
                out[n] = B_STRAIN + s
                n += 1
    if bidding == 0:
        return n
    level = -1
    if high >= 0:
        level = 1 if high == B_STRAIN + 4 else 2 if high == B_STRAIN + 5 else 0
    if level < 1:
        out[n] = B_STRAIN + 4
        n += 1
    if level < 2:
        out[n] = B_STRAIN + 5
        n += 1
    return n


@_jit
def _bid(G: Any, P: Any, code: int) -> int:
    """Apply the current speaker's bid (a legal one); 0 the auction goes on,
    1 a contract, 2 all passed (:meth:`~rebelote.auction.Auction.bid`)."""
    players = P[P_PLAYERS]
    seat = G[G_CURRENT]
    coinche = P[P_BIDDING] == 2
    if code == B_PASS:
        G[G_PASSES] += 1
        if coinche and G[G_COINCHED] > 1 and not P[P_THREE_PASSES]:
            if G[G_PASSES] == 2:
                return 1
            G[G_CURRENT] = (seat + 2) & 3
            return 0
        if G[G_HIGH] >= 0 and G[G_PASSES] == players - 1:
            return 1
        if G[G_HIGH] < 0 and G[G_PASSES] == players:
            if coinche or G[G_ROUND] == 2:
                return 2
            G[G_ROUND] = 2
            G[G_PASSES] = 0
    elif code == B_COINCHE:
        G[G_COINCHED] = 2
        G[G_PASSES] = 0
    elif code == B_SURCOINCHE:
        G[G_COINCHED] = 4
        return 1
    else:
        if code == B_TAKE:
            code = B_STRAIN + (G[G_TURNED] >> 3)
        G[G_HIGH] = code
        G[G_BIDDER] = seat
        G[G_PASSES] = 0
        if P[P_BIDDING] == 0:
            return 1
    G[G_CURRENT] = _next(seat, players)
    return 0


# ------------------------------------------------------------ declarations


@_jit
def _decl_key(code: int, points: int, strain: int) -> int:
    """:meth:`~rebelote.declarations.Declaration.key` as one integer."""
    kind = code >> 5
    top = code & 31
    if kind == 3:
        return ((256 + points) * 8 + _PLAIN_STRENGTH[top & 7]) * 2
    suit = top >> 3
    trump = 1 if strain == 5 or (strain < 4 and suit == strain) else 0
    return (points * 8 + (top & 7)) * 2 + trump


@_jit
def _sequences(hand: int, out: Any, n: int) -> int:
    """Append the sequences of ``hand`` (suit by suit, lowest run first) to
    ``out`` as (code, points) pairs from entry ``n``; the new count."""
    for suit in range(4):
        bits = (hand >> (8 * suit)) & 0xFF
        rank = 0
        while rank < 8:
            if (bits >> rank) & 1:
                start = rank
                while rank < 8 and (bits >> rank) & 1:
                    rank += 1
                length = rank - start
                if length >= 3:
                    kind = 0 if length == 3 else 1 if length == 4 else 2
                    points = 20 if length == 3 else 50 if length == 4 else 100
                    out[2 * n] = kind * 32 + 8 * suit + start + length - 1
                    out[2 * n + 1] = points
                    n += 1
            else:
                rank += 1
    return n


@_jit
def _find(G: Any, seat: int, strain: int, work: Any, sa_ffb: int = 0) -> None:
    """:func:`~rebelote.declarations.find_declarations` of the seat's hand
    into its entries of ``G[G_FOUND:]`` (strongest first, stable);
    ``sa_ffb``: the FFB's Sans Atout carrés (``Rules.sa_carres``)."""
    hand = G[G_HANDS + seat]
    if not (hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & 0xFC) and not (
        hand & (hand >> 1) & (hand >> 2) & 0x3F3F3F3F
    ):
        G[G_NFOUND + seat] = 0  # most hands: no carré that scores, no run of three
        return
    carres = 0  # ranks of the carrés held, in _CARRE_ORDER order, 3 bits each
    ncarres = 0
    for i in range(6):
        rank = _CARRE_ORDER[i]
        if (
            (hand >> rank)
            & (hand >> (8 + rank))
            & (hand >> (16 + rank))
            & (hand >> (24 + rank))
            & 1
        ):
            carres |= rank << (3 * ncarres)
            ncarres += 1
    best_n = 0
    best_total = -1
    best_top = 0
    # work[0:16]: the candidate, work[16:32]: the best, (code, points) pairs.
    for subset in range(1 << ncarres):  # combinations' order: {}, {0}, {1}, {0, 1}
        n = 0
        rest = hand
        for i in range(ncarres):
            if (subset >> i) & 1:
                rank = (carres >> (3 * i)) & 7
                rest &= ~(0x01010101 << rank)
                work[2 * n] = 3 * 32 + rank
                work[2 * n + 1] = (
                    _CARRE_VALUE_SA_FFB[rank] if sa_ffb and strain == 4 else _CARRE_VALUE[rank]
                )
                n += 1
        n = _sequences(rest, work, n)
        total = 0
        top = 0
        for i in range(n):
            total += work[2 * i + 1]
            key = _decl_key(work[2 * i], work[2 * i + 1], strain)
            if key > top:
                top = key
        if total > best_total or (total == best_total and top > best_top):
            best_total = total
            best_top = top
            best_n = n
            for i in range(2 * n):
                work[16 + i] = work[i]
        if ncarres == 0:
            break
    # Insertion sort by key, strongest first, stable.
    base = G_FOUND + seat * 12
    for i in range(best_n):
        code = work[16 + 2 * i]
        points = work[16 + 2 * i + 1]
        key = _decl_key(code, points, strain)
        j = i
        while j > 0 and G[base + 3 * (j - 1) + 2] < key:
            G[base + 3 * j] = G[base + 3 * (j - 1)]
            G[base + 3 * j + 1] = G[base + 3 * (j - 1) + 1]
            G[base + 3 * j + 2] = G[base + 3 * (j - 1) + 2]
            j -= 1
        G[base + 3 * j] = code
        G[base + 3 * j + 1] = points
        G[base + 3 * j + 2] = key
    G[G_NFOUND + seat] = best_n


@_jit
def _declare(G: Any, seat: int, subset: int) -> None:
    """The seat declares the declarations of ``subset`` (bits over its
    declarations found), in order."""
    base = G_FOUND + seat * 12
    for i in range(G[G_NFOUND + seat]):
        if (subset >> i) & 1:
            d = G_DECLARED + 4 * G[G_NDECLARED]
            G[d] = seat
            G[d + 1] = G[base + 3 * i]
            G[d + 2] = G[base + 3 * i + 1]
            G[d + 3] = G[base + 3 * i + 2]
            G[G_NDECLARED] += 1


@_jit
def _complete(G: Any, P: Any, T: Any, deck: Any, work: Any, trace: Any) -> None:
    """After the contract: the taker's turned card and the rest of the
    deal, the carré of 7s, declarations found, belotes, the leader, who is
    to declare (:meth:`State._complete`)."""
    players = P[P_PLAYERS]
    high = G[G_HIGH]
    G[G_TAKER] = G[G_BIDDER]
    G[G_MULT] = G[G_COINCHED]
    if high >= B_CONTRACT:
        G[G_STRAIN] = (high - B_CONTRACT) % 6
        G[G_VALUE] = _COINCHE_VALUES[(high - B_CONTRACT) // 6]
    else:
        G[G_STRAIN] = high - B_STRAIN
        G[G_VALUE] = 0
    strain = G[G_STRAIN]
    taker = G[G_TAKER]
    if G[G_TURNED] >= 0:
        G[G_HANDS + taker] |= 1 << G[G_TURNED]
        _deal_round(G, deck, 3, taker, players)
    first = _next(G[G_DEALER], players)
    if P[P_DECL] != 0:
        if P[P_CARRE7]:
            seat = first
            for _ in range(players):
                if G[G_HANDS + seat] & 0x01010101 == 0x01010101:
                    G[G_PHASE] = PH_DONE
                    G[G_KIND] = K_CANCELLED
                    G[G_CURRENT] = -1
                    return
                seat = _next(seat, players)
        seat = 0 if players == 4 else 1
        for _ in range(players):
            _find(G, seat, strain, work, P[P_SA_CARRES])
            if trace.shape[0] > 0 and G[G_NFOUND + seat] > 0:
                packed = 0
                for i in range(G[G_NFOUND + seat]):
                    packed |= G[G_FOUND + seat * 12 + 3 * i] << (7 * i)
                t = G[G_NTRACE]
                trace[t, 0] = TR_FOUND
                trace[t, 1] = seat
                trace[t, 2] = G[G_NFOUND + seat]
                trace[t, 3] = packed
                G[G_NTRACE] = t + 1
            seat = _next(seat, players)
    if strain != 4:
        for suit in range(4):
            if strain == 5 or suit == strain:
                pair = 0x60 << (8 * suit)  # Q and K
                for s in range(4):
                    if G[G_HANDS + s] & pair == pair:
                        G[G_BELOTE_OWNER + suit] = s
                        G[G_BELOTE_CARDS] |= pair
    leader = G[G_DEALER] if P[P_DEALER_LEADS] else first
    G[G_LEADER] = leader
    G[G_NDECLARE] = 0
    G[G_DECLARE_AT] = 0
    any_found = False
    for s in range(4):
        if G[G_NFOUND + s] > 0:
            any_found = True
    if P[P_DECL_TURN] and any_found:
        seat = first
        for _ in range(players):
            if G[G_NFOUND + seat] > 0:
                G[G_DECLARE + G[G_NDECLARE]] = seat
                G[G_NDECLARE] += 1
            seat = _next(seat, players)
        if P[P_DECL] == 2:
            for i in range(G[G_NDECLARE]):
                seat = G[G_DECLARE + i]
                _declare(G, seat, (1 << G[G_NFOUND + seat]) - 1)
            G[G_DECLARE_AT] = G[G_NDECLARE]
        else:
            G[G_PHASE] = PH_DECLARING
            G[G_CURRENT] = G[G_DECLARE]
            return
    elif P[P_DECL] == 1 and any_found:
        seat = leader
        for _ in range(players):
            if G[G_NFOUND + seat] > 0:
                G[G_DECLARE + G[G_NDECLARE]] = seat
                G[G_NDECLARE] += 1
            seat = _next(seat, players)
    G[G_PHASE] = PH_PLAYING
    G[G_CURRENT] = leader


# ------------------------------------------------------------------ play


@_inline
def _legal(G: Any, P: Any, T: Any, strain: int) -> int:
    """The current player's legal cards (:func:`~rebelote.tricks.legal_play_mask`)."""
    cur = G[G_CURRENT]
    hand: int = G[G_HANDS + cur]
    if G[G_NTRICK] == 0:
        return hand
    led: int = G[G_TCARDS]
    wi = G[G_WINNING]
    winning = G[G_TCARDS + wi]
    partner = P[P_PLAYERS] == 4 and ((G[G_TSEATS + wi] ^ cur) & 1) == 0
    follow = hand & (0xFF << ((led >> 3) * 8))
    over: int
    trumps: int = T[strain, T_TRUMPS]
    if (trumps >> led) & 1:
        if follow == 0:
            return hand
        if partner and not P[P_OVER_PARTNER]:
            return follow
        over = follow & T[strain, T_HIGH + winning]
        return over if over else follow
    if follow:
        return follow
    tr = hand & trumps
    if tr == 0:
        return hand
    if partner and P[P_EXEMPTION]:
        plain = hand & ~trumps & 0xFFFFFFFF
        if P[P_LOWER_TRUMP] and (trumps >> winning) & 1 and plain:
            higher: int = T[strain, T_HIGH + winning]
            return plain | (tr & higher)
        return hand
    if (trumps >> winning) & 1:
        over = tr & T[strain, T_HIGH + winning]
        if over:
            return over
        return tr if P[P_UNDERTRUMP] else hand
    return tr


@_inline
def _choice_cards(G: Any, P: Any, legal: int) -> int:
    """The legal cards whose play is a choice to say belote or not (seed
    001's rule, a belote whose first card is not played yet)."""
    if not P[P_BELOTE_SAID]:
        return 0
    out = 0
    bel = legal & G[G_BELOTE_CARDS]
    for suit in range(4):
        if (bel >> (8 * suit)) & 0xFF and G[G_BELOTE_SAID + suit] < 0:
            out |= bel & (0xFF << (8 * suit))
    return out


@_jit
def _greedy(G: Any, P: Any, T: Any, strain: int, legal: int) -> int:
    """The greedy policy's card (see :data:`POLICIES`); ties to the lowest card."""
    n = G[G_NTRICK]
    x = legal
    best = -1
    best_score = -(1 << 30)
    cur = G[G_CURRENT]
    if n == 0:
        while x:
            c = _ctz(x & -x)
            x &= x - 1
            sc = T[strain, T_STR + c] * 64 + T[strain, T_PTS + c]
            if (T[strain, T_TRUMPS] >> c) & 1:
                sc -= 1000  # keep trumps: lead the strongest plain card
            if sc > best_score:
                best_score = sc
                best = c
        return best
    wi = G[G_WINNING]
    winning = G[G_TCARDS + wi]
    partner = P[P_PLAYERS] == 4 and ((G[G_TSEATS + wi] ^ cur) & 1) == 0
    beaters = T[strain, T_BEAT + winning]
    while x:
        c = _ctz(x & -x)
        x &= x - 1
        pts = T[strain, T_PTS + c]
        trump = (T[strain, T_TRUMPS] >> c) & 1
        if partner:
            sc = pts * 16 - trump * 500 - T[strain, T_STR + c]
        elif (beaters >> c) & 1:
            sc = 10000 - trump * 1000 - T[strain, T_STR + c] * 16 - pts
        else:
            sc = -pts * 16 - T[strain, T_STR + c] - trump * 500
        if sc > best_score:
            best_score = sc
            best = c
    return best


@_inline
def _play_card(G: Any, P: Any, T: Any, strain: int, card: int, flag: int) -> None:
    """The current player plays ``card`` (legal), ``flag`` his belote
    word (0 none given, 1 belote, 2 no belote) (:meth:`State._play`)."""
    players = P[P_PLAYERS]
    cur = G[G_CURRENT]
    bit = 1 << card
    if (
        G[G_TRICKS] == 0
        and P[P_DECL] == 2
        and not P[P_DECL_TURN]
        and G[G_NFOUND + cur] > 0
        and not (G[G_AUTO_DONE] >> cur) & 1
    ):
        _declare(G, cur, (1 << G[G_NFOUND + cur]) - 1)
        G[G_AUTO_DONE] |= 1 << cur
    if (G[G_BELOTE_CARDS] >> card) & 1:
        suit = card >> 3
        if G[G_BELOTE_OWNER + suit] == cur and G[G_BELOTE_SAID + suit] < 0:
            G[G_BELOTE_SAID + suit] = 1 if (flag != 2 or not P[P_BELOTE_SAID]) else 0
    G[G_HANDS + cur] ^= bit
    n = G[G_NTRICK]
    if n > 0 and (T[strain, T_BEAT + G[G_TCARDS + G[G_WINNING]]] >> card) & 1:
        G[G_WINNING] = n
    G[G_TCARDS + n] = card
    G[G_TSEATS + n] = cur
    n += 1
    if n < players:
        G[G_NTRICK] = n
        G[G_CURRENT] = _next(cur, players)
        return
    pts = 0
    for i in range(n):
        pts += T[strain, T_PTS + G[G_TCARDS + i]]
    winner = G[G_TSEATS + G[G_WINNING]]
    side = _side(winner, players)
    G[G_SIDE_PTS + side] += pts
    G[G_SIDE_TRICKS + side] += 1
    G[G_WINNERS] |= 1 << winner
    G[G_LAST] = winner
    G[G_NTRICK] = 0
    G[G_WINNING] = 0
    G[G_LEADER] = winner
    G[G_CURRENT] = winner
    G[G_TRICKS] += 1
    if G[G_TRICKS] == 8:
        _score(G, P)


@_inline
def _trace_row(trace: Any, G: Any, what: int, a: int, b: int, c: int, d: int) -> None:
    t = G[G_NTRACE]
    trace[t, 0] = what
    trace[t, 1] = a
    trace[t, 2] = b
    trace[t, 3] = c
    trace[t, 4] = d
    G[G_NTRACE] = t + 1


@_jit
def _run(G: Any, P: Any, T: Any, rs: Any, deck: Any, work: Any, trace: Any) -> None:
    """Play the deal in ``G`` to its end: bids, declarations and cards drawn
    uniformly from the legal ones (cards by the greedy policy where
    ``P[P_POLICY]``), then the score."""
    tracing = trace.shape[0] > 0
    while G[G_PHASE] == PH_BIDDING:
        n = _legal_bids(G, P, work)
        code = work[_below(rs, n)] if n > 1 else work[0]
        if tracing:
            lo = 0
            hi = 0
            for i in range(n):
                if work[i] < 63:
                    lo |= 1 << work[i]
                else:
                    hi |= 1 << (work[i] - 63)
            _trace_row(trace, G, TR_BID, lo, hi, code, 0)
        status = _bid(G, P, code)
        if status == 2:
            G[G_PHASE] = PH_DONE
            G[G_KIND] = K_PASSED
            G[G_CURRENT] = -1
            return
        if status == 1:
            _complete(G, P, T, deck, work, trace)
    strain = G[G_STRAIN]
    greedy = P[P_POLICY] == 1
    while G[G_PHASE] != PH_DONE:
        cur = G[G_CURRENT]
        at = G[G_DECLARE_AT]
        if at < G[G_NDECLARE] and G[G_DECLARE + at] == cur:
            k = G[G_NFOUND + cur]
            subset = _below(rs, 1 << k)
            if tracing:
                _trace_row(trace, G, TR_DECLARE, cur, k, subset, 0)
            _declare(G, cur, subset)
            G[G_DECLARE_AT] = at + 1
            if G[G_PHASE] == PH_DECLARING:
                if at + 1 < G[G_NDECLARE]:
                    G[G_CURRENT] = G[G_DECLARE + at + 1]
                else:
                    G[G_PHASE] = PH_PLAYING
                    G[G_CURRENT] = G[G_LEADER]
            continue
        legal = _legal(G, P, T, strain)
        choice = _choice_cards(G, P, legal) if G[G_BELOTE_CARDS] else 0
        flag = 0
        if greedy:
            card = _greedy(G, P, T, strain, legal)
            if (choice >> card) & 1:
                flag = 1
        else:
            k = _below(rs, _popcount(legal) + _popcount(choice))
            # Actions in card order; a choice card is two: belote, no belote.
            x = legal
            card = -1
            while x:
                c = _ctz(x & -x)
                x &= x - 1
                if (choice >> c) & 1:
                    if k < 2:
                        card = c
                        flag = 1 + k
                        break
                    k -= 2
                else:
                    if k == 0:
                        card = c
                        break
                    k -= 1
        if tracing:
            _trace_row(trace, G, TR_PLAY, legal, choice, card, flag)
        _play_card(G, P, T, strain, card, flag)


# ------------------------------------------------------------------ scoring


@_jit
def _score(G: Any, P: Any) -> None:
    """Score the finished deal (:func:`~rebelote.scoring.score_deal` and
    :meth:`State.counted_declarations`) into ``G[G_KIND:]``."""
    players = P[P_PLAYERS]
    nsides = 3 if players == 3 else 2
    coinche = P[P_BIDDING] == 2
    ddd = _side(G[G_LAST], players)
    capot = -1
    for s in range(nsides):
        if G[G_SIDE_TRICKS + s] == 8:
            capot = s
    winners = G[G_WINNERS]
    solo = capot >= 0 and (winners & (winners - 1)) == 0
    trick_pts = G[G_WORK : G_WORK + 3]
    decl = G[G_WORK + 3 : G_WORK + 6]
    bel = G[G_WORK + 6 : G_WORK + 9]
    total = G[G_WORK + 9 : G_WORK + 12]
    score = G[G_WORK + 12 : G_WORK + 15]
    for s in range(3):
        trick_pts[s] = G[G_SIDE_PTS + s]
        decl[s] = 0
        bel[s] = 0
        total[s] = 0
        score[s] = 0
    trick_pts[ddd] += 10
    if P[P_TO_162] and G[G_STRAIN] >= 4:
        deal_total = 10
        for s in range(nsides):
            deal_total += G[G_SIDE_PTS + s]
        for s in range(nsides):
            trick_pts[s] = (2 * trick_pts[s] * 162 + deal_total) // (2 * deal_total)
    if capot >= 0:
        if coinche:
            trick_pts[capot] = P[P_COINCHE_CAPOT]
        elif solo and P[P_SOLO_CAPOT] >= 0:
            trick_pts[capot] = P[P_SOLO_CAPOT]
        else:
            trick_pts[capot] = P[P_CAPOT]
    # Declarations: only the side holding the best one scores, all of its.
    nd = G[G_NDECLARED]
    if nd > 0:
        best_key = -1
        best_side = -1
        tied = False
        for i in range(nd):
            d = G_DECLARED + 4 * i
            side = _side(G[d], players)
            key = G[d + 3]
            if key > best_key:
                best_key = key
                best_side = side
                tied = False
            elif key == best_key and side != best_side:
                tied = True
        if not (tied and not P[P_DECL_FIRST]) and best_side >= 0:
            for i in range(nd):
                d = G_DECLARED + 4 * i
                if _side(G[d], players) == best_side:
                    decl[best_side] += G[d + 2]
    for suit in range(4):
        owner = G[G_BELOTE_OWNER + suit]
        if owner >= 0:
            side = _side(owner, players)
            said = G[G_BELOTE_SAID + suit] == 1
            if (not P[P_BELOTE_SAID] or said) and (
                not P[P_BELOTE_TRICK] or G[G_SIDE_TRICKS + side] > 0
            ):
                bel[side] += 20
    tk = _side(G[G_TAKER], players)
    if P[P_CAPOT_DECL] and capot == tk:
        for s in range(nsides):
            if s != tk:
                decl[tk] += decl[s]
                decl[s] = 0
    for s in range(nsides):
        total[s] = trick_pts[s] + decl[s] + bel[s]
    best_other = -(1 << 30)
    for s in range(nsides):
        if s != tk and total[s] > best_other:
            best_other = total[s]
    value = G[G_VALUE]
    mult = G[G_MULT]
    if coinche:
        reached = capot == tk if value == 250 else total[tk] >= value
        made = reached and total[tk] > best_other
        tied_deal = reached and total[tk] == best_other and value != 250
    else:
        made = total[tk] > best_other
        tied_deal = total[tk] == best_other
    held = 0
    winner = -1
    keep_belote = not P[P_BELOTE_DEFENDERS]
    deal_mult = coinche and mult > 1 and P[P_DEAL_MULT]
    if made:
        kind = K_CAPOT if capot == tk else K_MADE
        winner = tk
        for s in range(nsides):
            score[s] = total[s]
        if deal_mult:
            base = 250 if capot == tk else 160
            score[tk] = (base + decl[0] + decl[1] + bel[tk] + value) * mult
            score[1 - tk] = bel[1 - tk]
        elif coinche:
            own = 0 if P[P_CONTRACT_ONLY] else trick_pts[tk] + decl[tk]
            score[tk] = value * mult + own + bel[tk]
    elif tied_deal and P[P_LITIGE]:
        kind = K_LITIGE
        for s in range(nsides):
            score[s] = total[s]
        score[tk] = bel[tk]
        held = total[tk] - bel[tk]
        if coinche:
            held += value * mult
    else:
        kind = K_DEDANS
        first_other = 1 if tk == 0 else 0
        if nsides == 2:
            winner = first_other
        score[tk] = bel[tk] if keep_belote else 0
        for s in range(nsides):
            if s == tk:
                continue
            if deal_mult:
                base = 160 + value
            elif coinche:
                base = 160 + value * mult
            elif capot == s and solo and P[P_SOLO_CAPOT] >= 0:
                base = P[P_SOLO_CAPOT]
            elif capot == s:
                base = P[P_CAPOT_AGAINST]
            elif nsides == 3:
                base = 0 if capot >= 0 else 81
            else:
                base = 162
            score[s] = base + decl[s] + bel[s]
        if nsides == 2:
            score[first_other] += decl[tk] + (0 if keep_belote else bel[tk])
            if deal_mult:
                score[first_other] *= mult
    strain = G[G_STRAIN]
    m = P[P_SA_MULT] if strain == 4 else P[P_TA_MULT] if strain == 5 else 1
    G[G_KIND] = kind
    for s in range(3):
        G[G_SCORE + s] = score[s] * m
        G[G_BELOTE_PTS + s] = bel[s]
        G[G_DECL_PTS + s] = decl[s]
    G[G_HELD] = held * m
    rounding = P[P_ROUNDING]
    if rounding == 1:  # nearest_ten (scoring.rounded_scores)
        for s in range(nsides):
            G[G_SCORE + s] = (G[G_SCORE + s] + 5) // 10 * 10
        G[G_HELD] = (G[G_HELD] + 5) // 10 * 10
    elif rounding == 2 and nsides == 3:  # house
        for s in range(nsides):
            G[G_SCORE + s] = (G[G_SCORE + s] + 4) // 10 * 10
        G[G_HELD] = (G[G_HELD] + 4) // 10 * 10
    elif rounding == 2:
        other = 1 - tk
        mine = G[G_SCORE + tk]
        theirs = G[G_SCORE + other]
        kept = G[G_HELD]
        takers = (mine + kept + 4) // 10 * 10
        G[G_SCORE + other] = (mine + kept + theirs + 4) // 10 * 10 - takers
        G[G_SCORE + tk] = (mine + 4) // 10 * 10 if kept else takers
        G[G_HELD] = takers - G[G_SCORE + tk]
    G[G_CAPOT] = capot
    G[G_SOLO] = 1 if solo else 0
    G[G_DDD] = ddd
    G[G_WINNER] = winner
    G[G_PHASE] = PH_DONE
    G[G_CURRENT] = -1


# ------------------------------------------------------------------ drivers


@_jit
def _random_deals(count: int, P: Any, T: Any, seed: int, out: Any) -> None:
    """``count`` deals from shuffled packs (dealers in turn N W S E, or W S
    E), each played by :func:`_run`; ``out[i]``: kind, score by side, held over."""
    players = P[P_PLAYERS]
    size = 24 if players == 3 else 32
    rs = _np.zeros(4, dtype=_np.int64)
    _seed(rs, seed)
    G = _np.zeros(G_SIZE, dtype=_np.int64)
    work = _np.zeros(128, dtype=_np.int64)
    trace = _np.zeros((0, TRACE_WIDTH), dtype=_np.int64)
    deck = _np.zeros(32, dtype=_np.int64)
    n = 0
    for c in range(32):
        if players == 4 or (c & 7) >= 2:
            deck[n] = c
            n += 1
    for i in range(count):
        for j in range(size - 1, 0, -1):
            k = _below(rs, j + 1)
            t = deck[j]
            deck[j] = deck[k]
            deck[k] = t
        dealer = i % players if players == 4 else 1 + i % 3
        _start(G, P, deck, dealer)
        _run(G, P, T, rs, deck, work, trace)
        out[i, 0] = G[G_KIND]
        out[i, 1] = G[G_SCORE]
        out[i, 2] = G[G_SCORE + 1]
        out[i, 3] = G[G_SCORE + 2]
        out[i, 4] = G[G_HELD]


@_jit
def _trace_deal(P: Any, T: Any, seed: int, deck: Any, dealer: int, G: Any, trace: Any) -> None:
    """One deal of the pack ``deck`` (already cut), the actions written to ``trace``."""
    rs = _np.zeros(4, dtype=_np.int64)
    _seed(rs, seed)
    work = _np.zeros(128, dtype=_np.int64)
    _start(G, P, deck, dealer)
    _run(G, P, T, rs, deck, work, trace)


@_jit
def _play_outs(count: int, P: Any, T: Any, seed: int, G0: Any, out: Any, trace: Any) -> None:
    """``count`` play-outs of the deal ``G0`` (a copy each); ``out`` as in
    :func:`_random_deals`."""
    rs = _np.zeros(4, dtype=_np.int64)
    _seed(rs, seed)
    G = _np.zeros(G_SIZE, dtype=_np.int64)
    work = _np.zeros(128, dtype=_np.int64)
    deck = _np.zeros(32, dtype=_np.int64)
    for i in range(count):
        for j in range(G_SIZE):
            G[j] = G0[j]
        _run(G, P, T, rs, deck, work, trace)
        out[i, 0] = G[G_KIND]
        out[i, 1] = G[G_SCORE]
        out[i, 2] = G[G_SCORE + 1]
        out[i, 3] = G[G_SCORE + 2]
        out[i, 4] = G[G_HELD]
    if trace.shape[0] > 0:
        for j in range(G_SIZE):
            G0[j] = G[j]


# ------------------------------------------------------------- Python side


def _need_numpy() -> Any:
    if not AVAILABLE:
        raise RolloutError("the compiled rollouts need numba: pip install rebelote[fast]")
    return _np


def supports(rules: Rules) -> bool:
    """Whether the compiled rollouts play ``rules``: the four- and
    three-player games.  The two-player game (RULES.md "Two players") is not
    compiled; callers play it with the engine (:mod:`rebelote.state`)."""
    return rules.players in (3, 4)


def rule_params(rules: Rules, policy: Policy = "random") -> Any:
    """The rule set as the compiled code reads it (an int64 array, ``P_*``).

    Raises :class:`RolloutError` for an unknown policy, without numba, or
    for the two-player game (:func:`supports`)."""
    if not supports(rules):
        raise RolloutError(
            "the compiled rollouts play the four- and three-player games only: "
            "play a two-player deal with the engine (rebelote.state)"
        )
    np = _need_numpy()
    if policy not in POLICIES:
        raise RolloutError(f"unknown policy {policy!r}: use {' or '.join(POLICIES)}")
    p = [0] * P_SIZE
    p[P_PLAYERS] = rules.players
    p[P_BIDDING] = ("classic", "tout_atout", "coinche").index(rules.bidding)
    p[P_R2_TURNED] = int(rules.round_two_turned_suit)
    p[P_DEALER_LEADS] = int(rules.first_lead == "dealer")
    p[P_EXEMPTION] = int(rules.partner_winning_exemption)
    p[P_UNDERTRUMP] = int(rules.must_undertrump)
    p[P_OVER_PARTNER] = int(rules.overtrump_partner_on_trump_lead)
    p[P_DECL] = ("off", "choice", "automatic").index(rules.declarations)
    p[P_DECL_TURN] = int(rules.declaration_turn)
    p[P_DECL_FIRST] = int(rules.declaration_tie == "first")
    p[P_BELOTE_SAID] = int(rules.belote_must_be_said)
    p[P_BELOTE_TRICK] = int(rules.belote_requires_trick)
    p[P_BELOTE_DEFENDERS] = int(rules.belote_on_dedans == "defenders")
    p[P_LITIGE] = int(rules.tie == "litige")
    p[P_CAPOT] = rules.capot_points
    p[P_CAPOT_AGAINST] = rules.capot_against_takers
    p[P_SOLO_CAPOT] = -1 if rules.solo_capot_points is None else rules.solo_capot_points
    p[P_CARRE7] = int(rules.carre_of_seven_cancels)
    p[P_SA_MULT] = rules.sa_multiplier
    p[P_TA_MULT] = rules.ta_multiplier
    p[P_COINCHE_TA] = int(rules.coinche_tout_atout)
    p[P_CONTRACT_ONLY] = int(rules.coinche_made_score == "contract")
    p[P_PATTERN] = ("3-2", "2-3", "3-3-2").index(rules.patterns[0])
    p[P_POLICY] = POLICIES[policy]
    p[P_LOWER_TRUMP] = int(rules.lower_trump_under_partner == "all_trumps_only")
    p[P_THREE_PASSES] = int(rules.after_coinche == "three_passes")
    p[P_COINCHE_CAPOT] = rules.coinche_capot_points
    p[P_DEAL_MULT] = int(rules.coinche_multiplies == "deal")
    p[P_CAPOT_DECL] = int(rules.capot_takes_declarations)
    p[P_TO_162] = int(rules.ta_sa_points_to_162)
    p[P_ROUNDING] = ("none", "nearest_ten", "house").index(rules.rounding)
    p[P_SA_CARRES] = int(rules.sa_carres == "ffb")
    return np.array(p, dtype=np.int64)


def card_tables(rules: Rules) -> Any:
    """The card tables of the six strains under the rule set (``T_*``)."""
    np = _need_numpy()
    t = np.zeros((6, T_SIZE), dtype=np.int64)
    for strain in Strain:
        tables = strain_tables(strain, rules.ta_points, rules.sa_points)
        row = t[int(strain)]
        row[T_TRUMPS] = tables.trumps
        row[T_STR : T_STR + 32] = tables.strength
        row[T_HIGH : T_HIGH + 32] = tables.higher
        row[T_PTS : T_PTS + 32] = tables.points
        for best in range(32):
            beaters = tables.higher[best]
            if not tables.trumps >> best & 1:
                beaters |= tables.trumps
            row[T_BEAT + best] = beaters
    return t


def random_deals(rules: Rules, count: int, seed: int = 0, *, policy: Policy = "random") -> Any:
    """Play ``count`` deals from shuffled packs (the dealer in turn from N,
    or W in the three-player game; the rules' first pattern), every bid,
    declaration and card drawn uniformly from the legal ones (the cards by
    the greedy policy with ``policy="greedy"``).

    Returns an int64 array of shape ``(count, 5)``: the result's kind (an
    index in :data:`RESULT_KINDS`), the score of sides 0, 1, 2 (0 for a
    side that is not at the table), and the points held over (litige).
    Raises :class:`RolloutError` without numba.
    """
    np = _need_numpy()
    out = np.zeros((count, 5), dtype=np.int64)
    _random_deals(count, rule_params(rules, policy), card_tables(rules), seed, out)
    return out


def bid_code(bid: Bid) -> int:
    """A bid's code in the rollouts (see ``B_*``)."""
    if bid.kind == "pass":
        return B_PASS
    if bid.kind == "take":
        return B_TAKE
    if bid.kind == "coinche":
        return B_COINCHE
    if bid.kind == "surcoinche":
        return B_SURCOINCHE
    assert bid.strain is not None
    if bid.kind == "strain":
        return B_STRAIN + int(bid.strain)
    assert bid.value is not None
    return B_CONTRACT + 6 * COINCHE_VALUES.index(bid.value) + int(bid.strain)


_KINDS = ("tierce", "quarte", "quinte", "carre")


def declaration_code(decl: Declaration) -> int:
    """A declaration's code in the rollouts: ``32 x kind + top`` (kinds
    tierce, quarte, quinte, carré; a carré's top is its rank)."""
    top = decl.top & 7 if decl.is_carre else decl.top
    return 32 * _KINDS.index(decl.kind) + top


def _encode(state: State) -> Any:
    """The deal array ``G`` of a state in its card play or declarations."""
    np = _need_numpy()
    if state.phase not in (Phase.PLAYING, Phase.DECLARING) or state.contract is None:
        raise RolloutError("only a deal in its declarations or card play can be played out")
    g = [0] * G_SIZE
    contract = state.contract
    for s in range(4):
        g[G_HANDS + s] = state.hands[s]
    g[G_DEALER] = int(state.dealer)
    g[G_CURRENT] = int(state.current) if state.current is not None else -1
    g[G_LEADER] = int(state.leader)
    g[G_PHASE] = PH_PLAYING if state.phase is Phase.PLAYING else PH_DECLARING
    g[G_TURNED] = -1 if state.turned is None else state.turned
    g[G_STRAIN] = int(contract.strain)
    g[G_TAKER] = int(contract.taker)
    g[G_VALUE] = contract.value or 0
    g[G_MULT] = contract.multiplier
    g[G_HIGH] = -1
    g[G_BIDDER] = int(contract.taker)
    g[G_NTRICK] = len(state.trick_cards)
    for i, (c, s) in enumerate(zip(state.trick_cards, state.trick_seats, strict=True)):
        g[G_TCARDS + i] = c
        g[G_TSEATS + i] = int(s)
    g[G_WINNING] = state.winning
    g[G_TRICKS] = len(state.tricks)
    g[G_LAST] = -1
    for trick in state.tricks:
        side = state.side_of[trick.winner]
        g[G_SIDE_PTS + side] += trick.points
        g[G_SIDE_TRICKS + side] += 1
        g[G_WINNERS] |= 1 << int(trick.winner)
        g[G_LAST] = int(trick.winner)
    strain = int(contract.strain)
    for seat, found in state.found.items():
        g[G_NFOUND + seat] = len(found)
        for i, d in enumerate(found):
            code = declaration_code(d)
            g[G_FOUND + seat * 12 + 3 * i] = code
            g[G_FOUND + seat * 12 + 3 * i + 1] = d.points
            g[G_FOUND + seat * 12 + 3 * i + 2] = _decl_key(code, d.points, strain)
    g[G_NDECLARE] = len(state.to_declare)
    for i, seat in enumerate(state.to_declare):
        g[G_DECLARE + i] = int(seat)
    n = 0
    for seat, decls in state.declared:
        for d in decls:
            code = declaration_code(d)
            g[G_DECLARED + 4 * n : G_DECLARED + 4 * n + 4] = [
                int(seat),
                code,
                d.points,
                _decl_key(code, d.points, strain),
            ]
            n += 1
        g[G_AUTO_DONE] |= 1 << int(seat)
    g[G_NDECLARED] = n
    for s in range(4):
        g[G_BELOTE_OWNER + s] = -1
        g[G_BELOTE_SAID + s] = -1
    for pair, seat in state.belote_owners().items():
        suit = (pair & -pair).bit_length() // 8
        g[G_BELOTE_OWNER + suit] = int(seat)
        g[G_BELOTE_CARDS] |= pair
        said = state.belote_said.get(pair)
        if said is not None:
            g[G_BELOTE_SAID + suit] = int(said)
    g[G_CAPOT] = g[G_DDD] = g[G_WINNER] = -1
    return np.array(g, dtype=np.int64)


def play_out(state: State, count: int, seed: int = 0, *, policy: Policy = "random") -> Any:
    """Play the rest of ``state``'s deal ``count`` times (every hand as the
    state holds it: a real deal, or a world a bot sampled), each action
    drawn uniformly from the legal ones (the cards by the greedy policy
    with ``policy="greedy"``); ``state`` is not changed.

    Returns an int64 array of shape ``(count, 5)`` as :func:`random_deals`.
    Raises :class:`RolloutError` when the state is not in its card play or
    its declarations, or without numba.
    """
    np = _need_numpy()
    g0 = _encode(state)
    out = np.zeros((count, 5), dtype=np.int64)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    _play_outs(
        count, rule_params(state.rules, policy), card_tables(state.rules), seed, g0, out, trace
    )
    return out


def _trace_out(g: Any, trace: Any) -> tuple[list[tuple[int, ...]], dict[str, Any]]:
    rows = [tuple(int(x) for x in trace[i]) for i in range(int(g[G_NTRACE]))]
    result = {
        "kind": RESULT_KINDS[int(g[G_KIND])],
        "score": [int(x) for x in g[G_SCORE : G_SCORE + 3]],
        "held_over": int(g[G_HELD]),
        "capot": int(g[G_CAPOT]),
        "solo_capot": bool(g[G_SOLO]),
        "belote_points": [int(x) for x in g[G_BELOTE_PTS : G_BELOTE_PTS + 3]],
        "declaration_points": [int(x) for x in g[G_DECL_PTS : G_DECL_PTS + 3]],
        "dix_de_der": int(g[G_DDD]),
        "winner": int(g[G_WINNER]),
        "side_points": [int(x) for x in g[G_SIDE_PTS : G_SIDE_PTS + 3]],
    }
    return rows, result


def trace_deal(
    rules: Rules, deck: list[int], dealer: Seat, seed: int = 0, *, policy: Policy = "random"
) -> tuple[list[tuple[int, ...]], dict[str, Any]]:
    """One deal of the pack ``deck`` (already cut, top card first; the rules'
    first pattern) played by the compiled rollouts, for comparing with
    :class:`State`: its trace rows ``(what, a, b, c, d, 0)`` (``TR_*``) and
    its result (see :func:`result_row`).  Raises :class:`RolloutError`
    without numba or for a pack of the wrong size."""
    np = _need_numpy()
    full = DECK_24 if rules.players == 3 else DECK_32
    if sorted(deck) != list(cards_of(full)):
        raise RolloutError("the pack must hold every card of the game once")
    g = np.zeros(G_SIZE, dtype=np.int64)
    trace = np.zeros((_TRACE_ROWS, TRACE_WIDTH), dtype=np.int64)
    _trace_deal(
        rule_params(rules, policy),
        card_tables(rules),
        seed,
        np.array(deck, dtype=np.int64),
        int(dealer),
        g,
        trace,
    )
    return _trace_out(g, trace)


def trace_play_out(
    state: State, seed: int = 0, *, policy: Policy = "random"
) -> tuple[list[tuple[int, ...]], dict[str, Any]]:
    """:func:`play_out` once, with its trace and result as :func:`trace_deal`."""
    np = _need_numpy()
    g = _encode(state)
    out = np.zeros((1, 5), dtype=np.int64)
    trace = np.zeros((_TRACE_ROWS, TRACE_WIDTH), dtype=np.int64)
    _play_outs(1, rule_params(state.rules, policy), card_tables(state.rules), seed, g, out, trace)
    return _trace_out(g, trace)


def result_row(result: DealResult, players: int) -> dict[str, Any]:
    """A :class:`~rebelote.scoring.DealResult` in the form of the traces'
    results (for the comparison tests)."""
    nsides = 3 if players == 3 else 2

    def pad(values: tuple[int, ...]) -> list[int]:
        return [*values[:nsides], *([0] * (3 - nsides))]

    decl = pad(tuple(sum(d.points for d in ds) for ds in result.declarations))
    return {
        "kind": result.result,
        "score": pad(result.score),
        "held_over": result.held_over,
        "capot": -1 if result.capot is None else result.capot,
        "solo_capot": result.solo_capot,
        "belote_points": pad(result.belote_points),
        "declaration_points": decl,
        "dix_de_der": -1 if result.dix_de_der is None else result.dix_de_der,
        "winner": -1 if result.winner is None else result.winner,
        "side_points": pad(result.card_points),
    }


def declare_action(found: tuple[Declaration, ...], subset: int) -> Declare:
    """The :class:`Declare` of the declarations ``found`` whose bits are set
    in ``subset`` (a trace's declaration row)."""
    return Declare(tuple(d for i, d in enumerate(found) if subset >> i & 1))


def play_action(card: int, flag: int) -> Play:
    """The :class:`Play` of a trace's card row (flag 0: none, 1 belote, 2 no belote)."""
    return Play(card, (None, True, False)[flag])
