"""A card-play position with every hand visible: what the double-dummy solver
searches.

A :class:`Position` holds the cards still in each hand, the trick in
progress, the seat to play and, for the capot, how many tricks each side has
won so far.  It is built from a :class:`~rebelote.state.State` in the card
play (:meth:`Position.from_state`) or from hands that a bot sampled
(:meth:`Position.from_hands`).  Belote and declarations do not depend on the
play once the cards are dealt, so they are not part of it.

Seats and sides follow the state: seats 0..3 (N W S E), sides 0 = NS and
1 = EW; in the three-player game (seat N empty) each seat is a side (W 0,
S 1, E 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import CardMask, card_name, cards_of
from ..rules import Rules
from ..seats import SEATS_3, SEATS_4, Seat, next_seat
from ..state import Phase, State
from ..tricks import beats, legal_play_mask
from ..trump import Strain, StrainTables, strain_tables

__all__ = ["Position", "PositionError", "capot_bonus"]

DEAL_POINTS = 162
"""Card points (152) plus the dix de der (10)."""


class PositionError(ValueError):
    """A position that cannot be searched: not in the card play, hands of
    inconsistent sizes, a card twice, a seat not at the table."""


def capot_bonus(rules: Rules) -> int:
    """What a capot adds to the side that takes every trick, over the 162 of
    a deal: ``Rules.capot_points - 162`` (90 for 252), or in coinche
    ``Rules.coinche_capot_points - 162`` (250 - 162 = 88; 90 for the FFB's
    252).  The solver counts it for either side;
    the rarer variants (seed 002's solo capot, seed 001's 162 for a capot
    against the takers) are not told apart."""
    value = rules.coinche_capot_points if rules.bidding == "coinche" else rules.capot_points
    return max(0, value - DEAL_POINTS)


@dataclass(frozen=True, slots=True)
class Position:
    """A card-play position, every hand visible.

    - ``rules``, ``strain``: the rule set and the trump of the contract.
    - ``hands``: the cards each seat still holds, by seat (4 masks; seat N
      holds nothing in the three-player game).
    - ``trick``: ``(seat, card)`` of the trick in progress, in play order.
    - ``turn``: the seat to play.
    - ``side_tricks``: tricks won so far by each side (for the capot).
    - ``side_points``: card points won so far by each side (not searched;
      for reports that give the whole deal's points).

    Raises :class:`PositionError` from the constructor when the hands do not
    fit (each seat that has still to play in this trick holds one card more
    than those that have played), when a card is held twice or sits both in
    a hand and on the trick, or when ``turn`` is not the next seat to play.
    """

    rules: Rules
    strain: Strain
    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    trick: tuple[tuple[Seat, int], ...]
    turn: Seat
    side_tricks: tuple[int, ...]
    side_points: tuple[int, ...]

    def __post_init__(self) -> None:
        players = self.rules.players
        seats = self.seats
        if len(self.hands) != 4:
            raise PositionError("hands must hold 4 masks, one per seat (N W S E)")
        if players == 3 and self.hands[Seat.N]:
            raise PositionError("seat N holds no cards in the three-player game")
        if self.turn not in seats:
            raise PositionError(f"seat {Seat(self.turn).letter} is not at the table")
        if len(self.trick) >= players:
            raise PositionError("a trick in progress has fewer cards than players")
        seen = 0
        for mask in self.hands:
            if seen & mask:
                raise PositionError("a card is held by two seats")
            seen |= mask
        for _, card in self.trick:
            if seen >> card & 1:
                raise PositionError(f"{card_name(card)} is both held and on the trick")
            seen |= 1 << card
        if self.trick:
            expected = next_seat(self.trick[-1][0], players)
            if self.turn != expected:
                raise PositionError(f"{expected.letter} plays next, not {self.turn.letter}")
            for (a, _), (b, _) in zip(self.trick, self.trick[1:], strict=False):
                if b != next_seat(a, players):
                    raise PositionError("the trick's seats are not in playing order")
        played = {s for s, _ in self.trick}
        base = self.hands[self.turn].bit_count()
        for seat in seats:
            want = base - 1 if seat in played else base
            if self.hands[seat].bit_count() != want:
                raise PositionError(
                    f"{seat.letter} holds {self.hands[seat].bit_count()} cards; "
                    f"{want} expected in this trick"
                )
        if base == 0:
            raise PositionError("no card left to play")
        nsides = 3 if players == 3 else 2
        if len(self.side_tricks) != nsides or len(self.side_points) != nsides:
            raise PositionError(f"side_tricks and side_points need {nsides} entries")

    # ------------------------------------------------------------ building

    @classmethod
    def from_state(cls, state: State) -> Position:
        """The position of a deal in its card play (every hand visible).

        Raises :class:`PositionError` outside the card play."""
        if state.phase is not Phase.PLAYING or state.contract is None or state.current is None:
            raise PositionError("the deal is not in its card play")
        nsides = 3 if state.players == 3 else 2
        tricks = [0] * nsides
        points = [0] * nsides
        for t in state.tricks:
            side = state.side_of[t.winner]
            tricks[side] += 1
            points[side] += t.points
        h = state.hands
        return cls(
            rules=state.rules,
            strain=state.contract.strain,
            hands=(h[0], h[1], h[2], h[3]),
            trick=tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
            turn=state.current,
            side_tricks=tuple(tricks),
            side_points=tuple(points),
        )

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        strain: Strain,
        hands: Sequence[CardMask],
        *,
        trick: Sequence[tuple[Seat, int]] = (),
        turn: Seat,
        side_tricks: Sequence[int] | None = None,
        side_points: Sequence[int] | None = None,
    ) -> Position:
        """A position from hands (by seat) and a trick in progress.  Without
        ``side_tricks`` the tricks already played are taken as shared (no
        capot possible) unless no trick has been played."""
        nsides = 3 if rules.players == 3 else 2
        if side_tricks is None:
            total = 8 - (hands[turn].bit_count() + (1 if trick else 0))
            side_tricks = [0] * nsides if total <= 0 else [1] * nsides
        if side_points is None:
            side_points = [0] * nsides
        return cls(
            rules=rules,
            strain=strain,
            hands=(hands[0], hands[1], hands[2], hands[3]),
            trick=tuple((Seat(s), c) for s, c in trick),
            turn=Seat(turn),
            side_tricks=tuple(side_tricks),
            side_points=tuple(side_points),
        )

    # -------------------------------------------------------------- views

    @property
    def tables(self) -> StrainTables:
        """The card tables of the strain under the rule set."""
        return strain_tables(self.strain, self.rules.ta_points, self.rules.sa_points)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats at the table, in playing order."""
        return SEATS_3 if self.rules.players == 3 else SEATS_4

    def side_of(self, seat: Seat) -> int:
        """The side of a seat (0 NS / 1 EW; W 0, S 1, E 2 with three players)."""
        return int(seat) & 1 if self.rules.players == 4 else int(seat) - 1

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the one in progress included."""
        return self.hands[self.turn].bit_count()

    @property
    def remaining(self) -> CardMask:
        """The cards still in the hands."""
        return self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]

    def remaining_points(self) -> int:
        """Card points still to win (hands and trick) plus the dix de der."""
        pts = self.tables.points
        total = sum(pts[c] for c in cards_of(self.remaining))
        return total + sum(pts[c] for _, c in self.trick) + 10

    def legal_mask(self) -> CardMask:
        """The cards the seat to play may play (the rules'
        :func:`~rebelote.tricks.legal_play_mask`)."""
        hand = self.hands[self.turn]
        if not self.trick:
            return hand
        tables = self.tables
        win = 0
        for i in range(1, len(self.trick)):
            if beats(self.trick[i][1], self.trick[win][1], tables):
                win = i
        partner = self.rules.players == 4 and (self.trick[win][0] ^ self.turn) & 1 == 0
        return legal_play_mask(
            hand, self.trick[0][1], self.trick[win][1], partner, tables, self.rules
        )

    def play(self, card: int) -> Position | None:
        """The position after the seat to play plays ``card`` (a legal card;
        ``ValueError`` otherwise); ``None`` when that card ends the deal."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"{card_name(card)} is not legal for {self.turn.letter} here")
        players = self.rules.players
        hands = list(self.hands)
        hands[self.turn] &= ~(1 << card)
        trick = (*self.trick, (self.turn, card))
        if len(trick) < players:
            return Position(
                self.rules,
                self.strain,
                (hands[0], hands[1], hands[2], hands[3]),
                trick,
                next_seat(self.turn, players),
                self.side_tricks,
                self.side_points,
            )
        tables = self.tables
        win = 0
        for i in range(1, len(trick)):
            if beats(trick[i][1], trick[win][1], tables):
                win = i
        winner = trick[win][0]
        side = self.side_of(winner)
        tricks = list(self.side_tricks)
        points = list(self.side_points)
        tricks[side] += 1
        points[side] += sum(tables.points[c] for _, c in trick)
        if not hands[winner]:
            return None
        return Position(
            self.rules,
            self.strain,
            (hands[0], hands[1], hands[2], hands[3]),
            (),
            winner,
            tuple(tricks),
            tuple(points),
        )
