"""Worlds consistent with what one seat knows: the hidden hands, sampled.

A *world* gives every other seat a hand such that the whole deal agrees with
the seat's :class:`~rebelote.observation.PlayerView`: its own hand, the cards
played, the voids and missing trumps the play revealed, the turned card with
the taker, declared cards and belote (all read by
:func:`~rebelote.bots.knowledge.infer`), and the hand sizes.  Each seat's
*dealt* hand (its cards in the world and those it has played) must also pass
the checks the rules made once the deal was complete: every declaration made
is one of :func:`~rebelote.declarations.find_declarations` of that hand
(with automatic declarations: exactly those, and none for a seat that played
its first card without declaring), and where a carré of 7s cancels the deal
no seat was dealt the four 7s.  Worlds are
then weighted by how well each seat's hand explains its bids
(:func:`bid_likelihood`), and the most likely are kept by weighted
resampling.

Everything is deterministic for a seed: :func:`sample_worlds` with the same
view, count and seed returns the same worlds.

Sampling method: cards are dealt one by one, the most constrained first
(fewest seats that may hold it), each to a seat that may hold it, chosen with
probability proportional to the room left in its hand; a dead end restarts
the deal.  This is close to uniform over the consistent deals without
enumerating them.  The checks on the dealt hands are made partly by removing
cards from what a seat may hold where that is exact (the card that would
lengthen a declared sequence; the last 7 of a seat holding the other three)
and in full by rejecting a deal that fails them (it restarts too).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Bid
from ..cards import RANK_MASKS, CardMask, Rank, bit, cards_of
from ..declarations import CARRE_POINTS, Declaration, carre_points, find_declarations
from ..observation import PlayerView
from ..seats import Seat
from ..state import Phase
from ..trump import Strain
from .evaluation import coinche_bid_weight, sigmoid, strain_tricks
from .knowledge import Knowledge, infer

__all__ = [
    "DealtCheck",
    "NoWorldError",
    "World",
    "bid_likelihood",
    "deal_hidden",
    "sample_worlds",
]

DealtCheck = Callable[[Sequence[CardMask]], bool]
"""A test of the hands of a sampled deal (by seat): whether the deal agrees
with what the seat knows beyond the masks of what each seat may hold."""

SEVENS: CardMask = RANK_MASKS[Rank.SEVEN]
RUN_STARTS: CardMask = 0x3F3F3F3F
"""The cards that may start a run of three upwards within their suit."""
CARRE_RANKS: int = sum(1 << r for r in CARRE_POINTS)
"""The ranks (as bits) whose carré scores."""

CHECKED_TRIES = 1000
"""Attempts at one world when the dealt hands are checked (refused deals
count): past them the view is taken as one no deal agrees with."""


class NoWorldError(RuntimeError):
    """No deal agrees with the view (a view that cannot happen)."""


@dataclass(frozen=True, slots=True)
class World:
    """One sampled deal: ``hands`` by seat (4 masks, the seat's own hand
    included; N is empty in the three-player game) and its ``weight``
    (likelihood of the bids, before resampling)."""

    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    weight: float


def deal_hidden(
    pool: CardMask,
    known: list[CardMask],
    possible: list[CardMask],
    sizes: list[int],
    rng: random.Random,
    *,
    tries: int = 200,
    accept: DealtCheck | None = None,
    aside: int = 0,
) -> list[CardMask]:
    """Deal the cards of ``pool`` so that seat ``s`` ends with ``sizes[s]``
    cards, all of ``known[s]`` and only cards of ``possible[s]``; with
    ``accept``, a deal it refuses is dealt again.

    ``pool`` holds the cards to deal (the known ones included).  Raises
    :class:`NoWorldError` when no deal was found in ``tries`` attempts
    (dead ends and refused deals alike).

    ``aside``: cards of ``pool`` that no seat holds (the two-player game's
    16-card stock, RULES.md "Two players"): a fifth holder that may take
    any card, so each world deals the unseen cards uniformly between the
    opponent's hand and the stock."""
    if aside:
        sizes = [*sizes[:4], aside]
        known = [*known[:4], 0]
        possible = [*possible[:4], pool]
        inner = accept
        hands5 = deal_hidden(
            pool,
            known,
            possible,
            sizes,
            rng,
            tries=tries,
            accept=None if inner is None else (lambda h: inner(h[:4])),
        )
        return hands5[:4]
    n = len(sizes)
    seats = [s for s in range(n) if sizes[s] > 0]
    free = pool
    for s in seats:
        free &= ~known[s]
    cards = list(cards_of(free))
    for _ in range(tries):
        hands = [known[s] if sizes[s] else 0 for s in range(n)]
        room = [sizes[s] - known[s].bit_count() if sizes[s] else 0 for s in range(n)]
        if any(r < 0 for r in room):
            raise NoWorldError("a seat is known to hold more cards than it has")
        rng.shuffle(cards)
        holders = {c: [s for s in seats if possible[s] >> c & 1] for c in cards}
        cards.sort(key=lambda c: len(holders[c]))
        ok = True
        for c in cards:
            choices = [s for s in holders[c] if room[s] > 0]
            if not choices:
                ok = False
                break
            total = sum(room[s] for s in choices)
            pick = rng.randrange(total)
            for s in choices:
                pick -= room[s]
                if pick < 0:
                    break
            hands[s] |= 1 << c
            room[s] -= 1
        if ok and not any(room) and (accept is None or accept(hands)):
            return hands
    raise NoWorldError("no deal of the hidden cards agrees with what the seat knows")


def bid_likelihood(
    view: PlayerView, hands: list[CardMask] | tuple[CardMask, ...], *, extra_cards: int = 0
) -> float:
    """How well the hands explain the other seats' bids: a product of soft
    thresholds on the heuristic's hand estimate
    (:func:`~rebelote.bots.evaluation.strain_tricks`).

    Classic: a take in a strain says its estimate is high, a pass in round
    one that the turned suit's is low, a pass in round two that every suit's
    is low.  Coinche: :func:`~rebelote.bots.evaluation.coinche_bid_weight`,
    the intermediate's own reading of the auction.
    ``extra_cards``: how many cards of each hand were dealt after the bids
    (3 in the classic card play, where the hands hold 8 cards but the bids
    were made on 5): thresholds are raised for them.  Returns a weight in
    (0, 1]."""
    rules = view.rules
    weight = 1.0
    turned_suit = None if view.turned is None else Strain(view.turned >> 3)
    if rules.bidding == "coinche":
        return coinche_bid_weight(view, hands)
    first_bid: dict[Seat, Bid] = {}
    passes: dict[Seat, int] = {}
    round_two: set[Seat] = set()
    count = 0
    for seat, b in view.bids:
        count += 1
        if seat == view.seat:
            continue
        if b.kind == "pass":
            passes[seat] = passes.get(seat, 0) + 1
            if count > rules.players:
                round_two.add(seat)
        elif seat not in first_bid and b.kind in ("take", "strain", "contract"):
            first_bid[seat] = b
    shift = 0.45 * extra_cards
    for seat in set(passes) | set(first_bid):
        hand = hands[seat]
        if hand == 0:
            continue
        with_turned = hand | (bit(view.turned) if view.turned is not None else 0)
        fb = first_bid.get(seat)
        if fb is not None:
            strain = turned_suit if fb.kind == "take" else fb.strain
            if strain is not None:
                est = strain_tricks(with_turned, strain)
                weight *= sigmoid((est - 2.4 - shift) / 0.6)
            continue
        if turned_suit is not None:
            est = strain_tricks(with_turned, turned_suit)
            weight *= sigmoid((3.0 + shift - est) / 0.6)
        if seat in round_two:
            best = max(strain_tricks(hand, Strain(s)) for s in range(4) if s != turned_suit)
            weight *= sigmoid((3.0 + shift - best) / 0.6)
    return max(weight, 1e-9)


def _hidden_setup(
    view: PlayerView, k: Knowledge
) -> tuple[CardMask, list[CardMask], list[CardMask], list[int]]:
    sizes = [0, 0, 0, 0]
    for s, n in view.hand_sizes:
        if s != view.seat:
            sizes[s] = n
    known = [k.known[s] if s != view.seat else 0 for s in range(4)]
    possible = [k.possible[s] if s != view.seat else 0 for s in range(4)]
    return k.unseen, known, possible, sizes


def played_by(view: PlayerView) -> list[CardMask]:
    """The cards each seat has played (finished tricks and the trick on the
    table), by seat."""
    played = [0, 0, 0, 0]
    for t in view.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            played[s] |= 1 << c
    for s, c in view.trick:
        played[s] |= 1 << c
    return played


def _run_cards(hand: CardMask) -> CardMask:
    """The cards of ``hand`` in runs of three or more of one suit."""
    starts = hand & hand >> 1 & hand >> 2 & RUN_STARTS
    return starts | starts << 1 | starts << 2


def _carre_ranks(hand: CardMask) -> int:
    """The ranks (as bits) of the scoring carrés of ``hand``."""
    return hand & hand >> 8 & hand >> 16 & hand >> 24 & CARRE_RANKS


@dataclass(frozen=True, slots=True)
class _Declared:
    """What one seat's dealt hand must say of its declarations: ``decls``
    among its :func:`find_declarations` (all of them when ``exact``);
    ``runs``: each declared sequence's cards and the cards that would
    lengthen it; ``union``: the cards of all of them."""

    seat: Seat
    decls: frozenset[Declaration]
    exact: bool
    runs: tuple[tuple[CardMask, CardMask], ...]
    union: CardMask

    def agrees(self, hand: CardMask, strain: Strain, carres: dict[Rank, int] | None = None) -> bool:
        """Whether the dealt ``hand`` allows these declarations (``carres``:
        the deal's carré table, :func:`~rebelote.declarations.carre_points`)."""
        if _carre_ranks(hand):
            found = frozenset(find_declarations(hand, strain, carres))
            return found == self.decls if self.exact else self.decls <= found
        # No carré: the declarations are the maximal runs of three or more.
        if len(self.runs) < len(self.decls):
            return False  # a carré was declared
        for cards, ext in self.runs:
            if hand & cards != cards or hand & ext:
                return False
        return not self.exact or _run_cards(hand) == self.union


def _dealt_constraints(
    view: PlayerView, known: list[CardMask], possible: list[CardMask], played: list[CardMask]
) -> DealtCheck | None:
    """The checks the rules made on the dealt hands once the deal was
    complete, as far as the view shows them; ``None`` when there is none.

    A seat's dealt hand is its cards in the world and ``played[s]``.  Each
    declaration made must be among :func:`find_declarations` of the dealt
    hand (the engine accepts no other); with automatic declarations a seat
    declares all of them when its turn comes (the declaration turn, or its
    first card), so they are exactly those it declared, none if it declared
    nothing.  Where a carré of 7s cancels the deal, no seat was dealt the
    four 7s (the deal is being played).

    Where it is exact, ``possible`` is narrowed in place: a seat does not
    hold a card that would lengthen a sequence it declared (unless that card
    could sit in a scoring carré of the seat instead), nor, with automatic
    declarations, one that would give it a sequence or carré it did not
    declare; a seat dealt three 7s does not hold the fourth.  The check
    returned tests the rest on a deal's current hands."""
    rules = view.rules
    contract = view.contract
    if (
        contract is None
        or rules.declarations == "off"
        or view.phase not in (Phase.DECLARING, Phase.PLAYING)
    ):
        return None
    strain = contract.strain
    others = [s for s in view.seats if s != view.seat]
    declared: dict[Seat, tuple[Declaration, ...]] = {}
    for s, decls in view.declarations:
        declared[s] = declared.get(s, ()) + decls
    automatic = rules.declarations == "automatic"
    if not automatic:
        done: set[Seat] = set()
    elif rules.declaration_turn:
        # The automatic declaration turn is over once the play starts.
        done = set(view.seats) if view.phase == Phase.PLAYING else set()
    else:
        # Each seat declares with its first card.
        done = set(view.tricks[0].seats) if view.tricks else {s for s, _ in view.trick}

    # a seat whose declarations the view names by their nature alone (not
    # shown yet, or lost: FFB coinche 8.2, 8.3): its hand must hold
    # declarations of those natures (exactly those where they are automatic)
    natures: dict[Seat, list[str]] = {}
    for s, kinds in view.declared_kinds:
        if s != view.seat and s not in declared:
            natures.setdefault(s, []).extend(kinds)
    unseen = set(natures)
    checks: list[_Declared] = []
    for s in others:
        decls = declared.get(s, ())
        exact = s in done
        if s in unseen or (not decls and not exact):
            continue
        forced = known[s] | played[s]
        runs: list[tuple[CardMask, CardMask]] = []
        union = 0
        for d in decls:
            union |= d.cards
            if d.is_carre:
                continue
            suit = d.top >> 3
            run = (d.cards >> (8 * suit)) & 0xFF
            low = (run & -run).bit_length() - 1
            ext = 0
            for rank in (low - 1, (d.top & 7) + 1):
                if not 0 <= rank < 8:
                    continue
                card = 8 * suit + rank
                ext |= bit(card)
                if not possible[s] >> card & 1 or forced >> card & 1:
                    continue
                # Held, the card lengthens the run unless a carré takes it.
                if Rank(rank) not in CARRE_POINTS or RANK_MASKS[rank] & ~(possible[s] | played[s]):
                    possible[s] &= ~bit(card)
            runs.append((d.cards, ext))
        if exact:
            can_carre = any(RANK_MASKS[r] & ~(possible[s] | played[s]) == 0 for r in CARRE_POINTS)
            if not decls or not can_carre:
                # Declarations are monotone in the hand: a card that gives
                # the forced cards a run (or carré) not declared is out.
                for card in cards_of(possible[s] & ~forced):
                    hand = forced | bit(card)
                    if _run_cards(hand) & ~union or _carre_ranks(hand):
                        possible[s] &= ~bit(card)
        checks.append(_Declared(s, frozenset(decls), exact, tuple(runs), union))

    sevens: list[Seat] = []
    if rules.carre_of_seven_cancels:
        for s in others:
            if SEVENS & ~(possible[s] | played[s]):
                continue  # the seat cannot hold them all
            held = (known[s] | played[s]) & SEVENS
            if held.bit_count() == 3:
                possible[s] &= ~(SEVENS & ~held)
            else:
                sevens.append(s)

    if not (checks or sevens or natures):
        return None

    carres = carre_points(strain, rules.sa_carres)
    wanted = {s: sorted(k) for s, k in natures.items()}

    def natures_agree(s: Seat, hand: CardMask) -> bool:
        held = sorted(d.kind for d in find_declarations(hand, strain, carres))
        if automatic:
            return held == wanted[s]
        rest = list(held)
        for kind in wanted[s]:
            if kind not in rest:
                return False
            rest.remove(kind)
        return True

    def check(hands: Sequence[CardMask]) -> bool:
        for s in sevens:
            if (hands[s] | played[s]) & SEVENS == SEVENS:
                return False
        for s in wanted:
            if not natures_agree(s, hands[s] | played[s]):
                return False
        return all(c.agrees(hands[c.seat] | played[c.seat], strain, carres) for c in checks)

    return check


def sample_worlds(
    view: PlayerView,
    count: int,
    seed: int,
    *,
    oversample: int = 4,
    use_bids: bool = True,
) -> list[World]:
    """``count`` worlds for the card play of ``view`` (the seat's own hand
    and what it knows fixed; the others' current hands sampled).

    ``oversample`` times as many candidates are drawn and weighted by
    :func:`bid_likelihood` (``use_bids``); ``count`` of them are kept by
    systematic resampling (a likely world may be kept more than once).
    Raises :class:`NoWorldError` when the view admits no deal."""
    if count < 1:
        raise ValueError("count must be at least 1")
    rng = random.Random(seed)
    k = infer(view)
    pool, known, possible, sizes = _hidden_setup(view, k)
    played = played_by(view)
    check = _dealt_constraints(view, known, possible, played)
    tries = 200 if check is None else CHECKED_TRIES
    extra = 3 if view.rules.bidding != "coinche" else 0
    weigh = use_bids and bool(view.bids) and oversample > 1
    n_cand = count * oversample if weigh else count
    cands: list[World] = []
    # The two-player game's stock: unseen cards that no seat holds.
    aside = pool.bit_count() - sum(sizes) if view.rules.players == 2 else 0
    for _ in range(n_cand):
        hands = deal_hidden(
            pool, known, possible, sizes, rng, tries=tries, accept=check, aside=aside
        )
        hands[view.seat] = view.hand
        full = list(hands)
        if weigh:
            # The bids were made on whole hands: put the played cards back.
            for s in range(4):
                full[s] |= played[s]
        w = bid_likelihood(view, full, extra_cards=extra) if weigh else 1.0
        cands.append(World((hands[0], hands[1], hands[2], hands[3]), w))
    if not weigh:
        return cands
    return _resample(cands, count, rng)


def _resample(cands: list[World], count: int, rng: random.Random) -> list[World]:
    """Systematic resampling of ``count`` worlds by weight."""
    total = sum(w.weight for w in cands)
    step = total / count
    u = rng.random() * step
    out: list[World] = []
    acc = 0.0
    i = 0
    for j in range(count):
        target = u + j * step
        while i < len(cands) - 1 and acc + cands[i].weight < target:
            acc += cands[i].weight
            i += 1
        out.append(cands[i])
    return out
