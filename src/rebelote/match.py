"""A match: a series of deals up to the target score.

- The deal passes to the dealer's right, the player who got the first card
  (seed 001, seed 002), or to the left (``Rules.dealer_rotation``).
- After all pass twice (or a deal cancelled by a carré of 7s, seed 001):
  ``Rules.all_pass``: the same dealer deals again (seeds 000, 003), the deal
  passes on as usual (seed 001), or the player on the dealer's left deals
  (seed 002).
- *Litige* points held over from a tie go to the side that wins the next deal
  (seed 003: "reportés sur la manche suivante au profit du vainqueur"); they
  wait through further ties and void deals.
- The match ends when a side reaches the target; if both do in the same deal,
  the higher total wins; equal totals: one more deal (seed 000, seed 001).
- Where ``Rules.belote_alone_cannot_win`` (FFB coinche 2015, 10.3), a side
  that reaches the target only through its belote in a deal where it was
  capot or failed as takers must first take a trick in a later deal: until
  then it cannot win, and the match goes on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK_24, DECK_32, Card, cards_of
from .events import Event, MatchEnded
from .rules import Rules
from .scoring import DealResult
from .seats import Seat, next_seat, previous_seat, seats_of
from .state import State
from .trump import Strain

__all__ = ["Match", "MatchDeal", "next_dealer"]


@dataclass(frozen=True, slots=True)
class MatchDeal:
    """One deal of a match: its ``dealer``, its ``result``, what it added to
    each side's total (``score``, litige points it released included), the
    ``released`` litige points, and the ``totals`` after it."""

    dealer: Seat
    result: DealResult
    score: tuple[int, ...]
    released: int
    totals: tuple[int, ...]


def next_dealer(rules: Rules, dealer: Seat, result: DealResult) -> Seat:
    """Who deals after a deal dealt by ``dealer`` that ended with ``result``."""
    players = rules.players
    rotate_right = rules.dealer_rotation == "right"
    if result.result in ("passed", "cancelled"):
        if rules.all_pass == "redeal":
            return dealer
        if rules.all_pass == "dealer_left":
            return previous_seat(dealer, players)
    return next_seat(dealer, players) if rotate_right else previous_seat(dealer, players)


class Match:
    """A match in progress under ``rules``, first dealt by ``dealer`` (by
    default N, or W at a table of three or two, which has no N; a seat not
    at the table raises ``ValueError``).

    Use :meth:`deal` for the next deal's :class:`State` (from a pack you give
    or one shuffled with ``rng``), play it to the end, then :meth:`add` it.
    ``totals`` are per side (NS, EW; or W, S, E; or W, S); ``winner`` is the winning
    side once :attr:`is_over`.
    """

    def __init__(self, rules: Rules, dealer: Seat | None = None) -> None:
        seats = seats_of(rules.players)
        if dealer is None:
            # N at four; the first seat (W) at three and two, which have no N
            dealer = Seat.N if Seat.N in seats else seats[0]
        if dealer not in seats:
            raise ValueError(f"seat {Seat(dealer).letter} is not at this table")
        self.rules = rules
        self.dealer = Seat(dealer)
        nsides = 3 if rules.players == 3 else 2
        self.totals: list[int] = [0] * nsides
        self.held_over = 0
        self.deals: list[MatchDeal] = []
        self.winner: int | None = None
        self.needs_trick: set[int] = set()
        """Sides past the target through their belote alone, waiting for a
        trick of a later deal (``Rules.belote_alone_cannot_win``)."""

    @property
    def is_over(self) -> bool:
        """Whether a side has won."""
        return self.winner is not None

    @property
    def unclaimed(self) -> int:
        """Litige points still held over when the match is over: nobody
        scores them, for no next deal will be played to win them (seed 003
        gives them to the winner of the next deal and says nothing of the
        last one; docs/rules/RULES.md, "Litige on the last deal").  0 while
        the match goes on."""
        return self.held_over if self.is_over else 0

    def shuffled_pack(self, rng: random.Random) -> list[Card]:
        """A pack for the next deal, shuffled by ``rng``."""
        pack = list(cards_of(DECK_24 if self.rules.players == 3 else DECK_32))
        rng.shuffle(pack)
        return pack

    def deal(self, pack: Sequence[Card] | None = None, rng: random.Random | None = None) -> State:
        """The next deal, starting at the cut.  Give the ``pack`` (top card
        first) or an ``rng`` to shuffle one.  Raises ``ValueError`` when the
        match is over or neither is given."""
        if self.is_over:
            raise ValueError("the match is over")
        if pack is None:
            if rng is None:
                raise ValueError("give a pack or an rng")
            pack = self.shuffled_pack(rng)
        return State.new(self.rules, self.dealer, pack)

    @property
    def ended(self) -> MatchEnded | None:
        """The :class:`~rebelote.events.MatchEnded` event of the match once
        it is over (its winner, final totals, target and number of deals),
        else ``None``."""
        if self.winner is None:
            return None
        return MatchEnded(self.winner, tuple(self.totals), self.rules.target, len(self.deals))

    def add(self, result: DealResult, events: list[Event] | None = None) -> MatchDeal:
        """Add a finished deal's result: update totals, litige points, the
        dealer and the winner.  Returns the deal's line of the score sheet.
        ``events``: a list that receives the events the deal causes in the
        match: :class:`~rebelote.events.MatchEnded` when a side reaches the
        target with it."""
        if self.is_over:
            raise ValueError("the match is over")
        score = list(result.score)
        released = 0
        if self.held_over and result.winner is not None:
            released = self.held_over
            score[result.winner] += released
            self.held_over = 0
        self.held_over += result.held_over
        before = list(self.totals)
        for side, points in enumerate(score):
            self.totals[side] += points
        entry = MatchDeal(self.dealer, result, tuple(score), released, tuple(self.totals))
        self.deals.append(entry)
        if self.rules.belote_alone_cannot_win:
            self._belote_alone(result, before, score)
        totals = [t if s not in self.needs_trick else -1 for s, t in enumerate(self.totals)]
        top = max(totals)
        if top >= self.rules.target and totals.count(top) == 1:
            self.winner = totals.index(top)
            if events is not None:
                ended = self.ended
                assert ended is not None
                events.append(ended)
        self.dealer = next_dealer(self.rules, self.dealer, result)
        return entry

    def _belote_alone(self, result: DealResult, before: list[int], score: list[int]) -> None:
        """FFB coinche 2015, 10.3: "Si une équipe est capot ou chute, et
        atteint les points fixés uniquement grâce aux points d'une belote, la
        partie n'est pas encore gagnée et doit se poursuivre. L'équipe aura
        besoin d'un pli supplémentaire pour valider la partie."  Updates
        :attr:`needs_trick`: a side waiting that took a trick in this deal
        may win again; a side that was capot, or failed as takers, and
        crossed the target only through its belote must wait."""
        played = result.result not in ("passed", "cancelled")
        if not played or result.contract is None:
            return
        capot = result.capot
        self.needs_trick -= {s for s in self.needs_trick if capot is None or capot == s}
        strain = result.contract.strain
        rules = self.rules
        mult = (
            rules.sa_multiplier
            if strain == Strain.SA
            else rules.ta_multiplier
            if strain == Strain.TA
            else 1
        )
        taker = int(result.contract.taker)
        takers = taker & 1 if rules.players == 4 else taker - 1  # State.side_of
        target = rules.target
        for side, points in enumerate(score):
            capot_against = capot is not None and capot != side
            failed = result.result == "dedans" and side == takers
            if not (capot_against or failed):
                continue
            belote = min(points, result.belote_points[side] * mult)
            if before[side] + points >= target > before[side] + points - belote:
                self.needs_trick.add(side)
