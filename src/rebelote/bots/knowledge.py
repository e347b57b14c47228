"""What one seat can infer from its :class:`PlayerView`.

Everything here is a pure function of the view: the cards played and still
out, the cards each other seat is known to hold (the turned card with the
taker, declared cards, the other half of a belote said), and the cards each
seat cannot hold, read from the obligations of the play (a seat that did not
follow is void in the suit led; one that discarded when it had to trump holds
no trump; one that did not go over the best trump when it had to holds no
higher trump).

Per-seat tuples are indexed by :class:`~rebelote.seats.Seat` (0..3; the empty
seat N of the three-player game holds nothing).  Masks are
:data:`~rebelote.cards.CardMask` ints.

A weaker player is modelled by switching inferences off: without
``counting`` the seat forgets the tricks already turned over (it sees only
its hand and the trick on the table); without ``voids`` it infers nothing
from the way the others followed.

A king or queen of trump played without belote (where belote is automatic)
also tells that its player does not hold the other card of the pair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..cards import DECK_24, DECK_32, SUIT_MASKS, Card, CardMask, Rank, bit
from ..observation import PlayerView
from ..seats import Seat, next_seat, seats_of
from ..tricks import beats
from ..trump import StrainTables, strain_tables

__all__ = ["Knowledge", "infer", "seats_after"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's inferences at one moment of the card play (or the bidding).

    - ``seat``, ``partner`` (``None`` in the three-player game), ``players``.
    - ``tables``: the strain's card tables once there is a contract, else
      ``None``; ``trumps``: the trump mask (0 before the contract and in Sans
      Atout).
    - ``hand``: the seat's cards.  ``played``: the cards it remembers as
      played (all of them with counting; else only the trick on the table).
    - ``unseen``: cards neither in the hand nor remembered as played.
    - ``known[s]``: cards seat ``s`` is known to hold (not yet played).
    - ``excluded[s]``: cards seat ``s`` is known not to hold.
    - ``possible[s]``: cards seat ``s`` may hold (``hand`` for this seat).
    - ``points[side]``: card points of the finished tricks won by each side;
      ``tricks_done``: how many tricks are finished.
    - ``sizes[s]``: the number of cards seat ``s`` holds (0 for a seat that
      is not at the table).
    """

    seat: Seat
    partner: Seat | None
    players: int
    tables: StrainTables | None
    trumps: CardMask
    hand: CardMask
    played: CardMask
    unseen: CardMask
    known: tuple[CardMask, ...]
    excluded: tuple[CardMask, ...]
    possible: tuple[CardMask, ...]
    points: tuple[int, ...]
    tricks_done: int
    sizes: tuple[int, ...] = (0, 0, 0, 0)

    def side_of(self, seat: Seat) -> int:
        """The side of a seat: 0 NS / 1 EW; in the three-player game W 0, S 1,
        E 2 (as :attr:`points` and the deal's result)."""
        return int(seat) & 1 if self.players == 4 else int(seat) - 1

    def is_partner(self, seat: Seat) -> bool:
        """Whether ``seat`` is this seat's partner."""
        return self.partner is not None and seat == self.partner

    def opponents(self) -> tuple[Seat, ...]:
        """The seats of the other side(s): the table's seats (W and S in the
        two-player game, W S E in the three-player one) but this seat and
        its partner."""
        return tuple(s for s in seats_of(self.players) if s != self.seat and not self.is_partner(s))

    def void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` is known to hold no card of ``suit`` (0..3)."""
        return self.possible[seat] & SUIT_MASKS[suit] == 0

    def outstanding(self, seats: tuple[Seat, ...] | None = None) -> CardMask:
        """Cards that ``seats`` (default: all other seats) may hold."""
        if seats is None:
            return self.unseen
        out = 0
        for s in seats:
            out |= self.possible[s]
        return out

    def chance_holds_none(self, seat: Seat, mask: CardMask) -> float:
        """The probability (0..1) that ``seat`` holds no card of ``mask``,
        every way of filling its hand from the cards it may hold being
        equally likely: 0 if it is known to hold one; else, with ``u`` cards
        it may hold beyond its known ones, ``m`` of them in ``mask``, and
        ``h`` unknown cards in its hand, ``C(u - m, h) / C(u, h)``.

        In the two-player game the unseen cards are the opponent's hand or
        the 16-card stock (RULES.md "Two players"), so a card one cannot see
        is in the opponent's hand only with probability ``h / u`` (8/24 at
        the first trick): e.g. the ace of a suit unseen, the opponent's 8
        cards among 24, ``C(23, 8) / C(24, 8) = 16/24``."""
        known = self.known[seat]
        if mask & known:
            return 0.0
        pool = self.possible[seat] & ~known
        rivals = (mask & pool).bit_count()
        draw = self.sizes[seat] - known.bit_count()
        if rivals == 0 or draw <= 0:
            return 1.0
        free = pool.bit_count()
        if free - rivals < draw:
            return 0.0
        return math.comb(free - rivals, draw) / math.comb(free, draw)

    def is_master(self, card: Card, against: CardMask | None = None) -> bool:
        """Whether no card of ``against`` (default: the unseen cards) of the
        same suit beats ``card`` (its suit's best card still out)."""
        assert self.tables is not None
        rivals = self.unseen if against is None else against
        return self.tables.higher[card] & rivals == 0


def _strain_tables(view: PlayerView) -> StrainTables | None:
    contract = view.contract
    if contract is None:
        return None
    return strain_tables(contract.strain, view.rules.ta_points, view.rules.sa_points)


def infer(view: PlayerView, *, counting: bool = True, voids: bool = True) -> Knowledge:
    """The inferences of ``view.seat`` from its view.

    ``counting``: remember the finished tricks (else only the current trick
    counts as played).  ``voids``: infer the cards a seat cannot hold from
    its failures to follow, to trump or to go over.
    """
    seat = view.seat
    players = view.rules.players
    partner = Seat((seat + 2) & 3) if players == 4 else None
    tables = _strain_tables(view)
    trumps = tables.trumps if tables is not None else 0
    deck = DECK_24 if players == 3 else DECK_32
    hand = view.hand

    on_table = 0
    for _, card in view.trick:
        on_table |= bit(card)
    played = view.played if counting else on_table
    unseen = deck & ~hand & ~played

    known = [0, 0, 0, 0]
    if view.turned_holder is not None and view.turned is not None:
        known[view.turned_holder] |= bit(view.turned)
    for s, decls in view.declarations:
        for d in decls:
            known[s] |= d.cards
    if view.contract is not None and view.belotes:
        for s, card, word in view.belotes:
            if word == "belote":
                rank = card & 7
                if rank == Rank.QUEEN:
                    known[s] |= bit(card + 1)
                elif rank == Rank.KING:
                    known[s] |= bit(card - 1)
    for i in range(4):
        known[i] &= unseen if i != seat else 0

    excluded = [0, 0, 0, 0]
    if voids and tables is not None:
        tricks = [list(zip(t.seats, t.cards, strict=True)) for t in view.tricks]
        if view.trick:
            tricks.append(list(view.trick))
        for trick in tricks:
            _constraints(trick, tables, view, excluded)
        if not view.rules.belote_must_be_said:
            # A king or queen of trump played without "belote": no pair.
            said = {card for _, card, _ in view.belotes}
            for trick in tricks:
                for s, card in trick:
                    rank = card & 7
                    if trumps >> card & 1 and rank in (Rank.QUEEN, Rank.KING) and card not in said:
                        excluded[s] |= bit(card + 1 if rank == Rank.QUEEN else card - 1)

    possible = [0, 0, 0, 0]
    active = seats_of(players)
    others = [s for s in active if s != seat]
    all_known = 0
    for s in others:
        all_known |= known[s]
    for s in others:
        possible[s] = (unseen & ~excluded[s] & ~(all_known & ~known[s])) | known[s]
    if voids:
        sizes = dict(view.hand_sizes)
        # A seat whose possible cards number its hand holds them all.
        for _ in range(2):
            changed = False
            for s in others:
                if possible[s].bit_count() == sizes.get(s, 0) and known[s] != possible[s]:
                    known[s] = possible[s]
                    changed = True
            if not changed:
                break
            all_known = 0
            for s in others:
                all_known |= known[s]
            for s in others:
                possible[s] = (possible[s] & ~(all_known & ~known[s])) | known[s]
    possible[seat] = hand
    for i in range(4):
        excluded[i] = deck & ~possible[i]

    nsides = 3 if players == 3 else 2
    points = [0] * nsides
    for t in view.tricks:
        side = int(t.winner) & 1 if players == 4 else int(t.winner) - 1
        points[side] += t.points

    hand_sizes = dict(view.hand_sizes)
    return Knowledge(
        seat=seat,
        partner=partner,
        players=players,
        tables=tables,
        trumps=trumps,
        hand=hand,
        played=played,
        unseen=unseen,
        known=tuple(known),
        excluded=tuple(excluded),
        possible=tuple(possible),
        points=tuple(points),
        tricks_done=len(view.tricks),
        sizes=tuple(hand_sizes.get(Seat(s), 0) for s in range(4)),
    )


def _constraints(
    trick: list[tuple[Seat, Card]],
    tables: StrainTables,
    view: PlayerView,
    excluded: list[CardMask],
) -> None:
    """Add to ``excluded`` what the plays of one trick reveal."""
    rules = view.rules
    players = rules.players
    trumps = tables.trumps
    led = trick[0][1]
    led_suit = SUIT_MASKS[led >> 3]
    trump_led = bool(trumps >> led & 1)
    win = 0
    for i in range(1, len(trick)):
        seat, card = trick[i]
        win_seat, win_card = trick[win]
        partner_winning = players == 4 and (win_seat ^ seat) & 1 == 0
        followed = bool(led_suit >> card & 1)
        if trump_led:
            if not followed:
                excluded[seat] |= led_suit
            elif not (partner_winning and not rules.overtrump_partner_on_trump_lead) and not beats(
                card, win_card, tables
            ):
                excluded[seat] |= tables.higher[win_card]
        elif not followed:
            excluded[seat] |= led_suit
            if trumps and not (partner_winning and rules.partner_winning_exemption):
                win_is_trump = bool(trumps >> win_card & 1)
                if trumps >> card & 1:
                    if win_is_trump and not beats(card, win_card, tables):
                        excluded[seat] |= tables.higher[win_card]
                elif win_is_trump and not rules.must_undertrump:
                    excluded[seat] |= tables.higher[win_card]
                else:
                    excluded[seat] |= trumps
            elif (
                trumps
                and rules.lower_trump_under_partner == "all_trumps_only"
                and trumps >> win_card & 1
                and trumps >> card & 1
                and not beats(card, win_card, tables)
            ):
                # A lower trump under the partner's: only a hand of trumps
                # alone may (FFB coinche 2015, 5.2).
                excluded[seat] |= DECK_32 & ~trumps
        if beats(card, win_card, tables):
            win = i


def seats_after(view: PlayerView) -> tuple[Seat, ...]:
    """The seats still to play in the current trick after ``view.seat``."""
    players = view.rules.players
    left = players - len(view.trick) - 1
    out: list[Seat] = []
    s = view.seat
    for _ in range(left):
        s = next_seat(s, players)
        out.append(s)
    return tuple(out)
