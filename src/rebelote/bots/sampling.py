"""Worlds consistent with what one seat knows: the hidden hands, sampled.

A *world* gives every other seat a hand such that the whole deal agrees with
the seat's :class:`~rebelote.observation.PlayerView`: its own hand, the cards
played, the voids and missing trumps the play revealed, the turned card with
the taker, declared cards and belote (all read by
:func:`~rebelote.bots.knowledge.infer`), and the hand sizes.  Worlds are
then weighted by how well each seat's hand explains its bids
(:func:`bid_likelihood`), and the most likely are kept by weighted
resampling.

Everything is deterministic for a seed: :func:`sample_worlds` with the same
view, count and seed returns the same worlds.

Sampling method: cards are dealt one by one, the most constrained first
(fewest seats that may hold it), each to a seat that may hold it, chosen with
probability proportional to the room left in its hand; a dead end restarts
the deal.  This is close to uniform over the consistent deals without
enumerating them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Bid
from ..cards import CardMask, bit, cards_of
from ..observation import PlayerView
from ..seats import Seat
from ..trump import Strain
from .heuristic import coinche_bid_weight, sigmoid, strain_tricks
from .knowledge import Knowledge, infer

__all__ = ["NoWorldError", "World", "bid_likelihood", "deal_hidden", "sample_worlds"]


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
) -> list[CardMask]:
    """Deal the cards of ``pool`` so that seat ``s`` ends with ``sizes[s]``
    cards, all of ``known[s]`` and only cards of ``possible[s]``.

    ``pool`` holds the cards to deal (the known ones included).  Raises
    :class:`NoWorldError` when no deal was found in ``tries`` attempts."""
    seats = [s for s in range(4) if sizes[s] > 0]
    free = pool
    for s in seats:
        free &= ~known[s]
    cards = list(cards_of(free))
    for _ in range(tries):
        hands = [known[s] if sizes[s] else 0 for s in range(4)]
        room = [sizes[s] - known[s].bit_count() if sizes[s] else 0 for s in range(4)]
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
        if ok and not any(room):
            return hands
    raise NoWorldError("no deal of the hidden cards agrees with what the seat knows")


def bid_likelihood(
    view: PlayerView, hands: list[CardMask] | tuple[CardMask, ...], *, extra_cards: int = 0
) -> float:
    """How well the hands explain the other seats' bids: a product of soft
    thresholds on the heuristic's hand estimate
    (:func:`~rebelote.bots.heuristic.strain_tricks`).

    Classic: a take in a strain says its estimate is high, a pass in round
    one that the turned suit's is low, a pass in round two that every suit's
    is low.  Coinche: :func:`~rebelote.bots.heuristic.coinche_bid_weight`,
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
    extra = 3 if view.rules.bidding != "coinche" else 0
    weigh = use_bids and bool(view.bids) and oversample > 1
    n_cand = count * oversample if weigh else count
    cands: list[World] = []
    for _ in range(n_cand):
        hands = deal_hidden(pool, known, possible, sizes, rng)
        hands[view.seat] = view.hand
        full = list(hands)
        if weigh:
            # The bids were made on whole hands: put the played cards back.
            for t in view.tricks:
                for s, c in zip(t.seats, t.cards, strict=True):
                    full[s] |= 1 << c
            for s, c in view.trick:
                full[s] |= 1 << c
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
