"""What one seat may know: :func:`observe` turns a :class:`State` into a
:class:`PlayerView` holding that seat's own hand and the public history, and
nothing more.  Bots and the server's clients receive views, never the state.

Public: the dealer, the turned card (and, once taken, that the taker holds it
until he plays it), every bid, the contract, declarations once made, cards
included (seed 000 presents the declarations; RULES.md: "the opponents may
ask to see a scoring declaration": we show every declaration made, so that
all seats know the same; a player who declines to declare leaves no trace),
belote and rebelote as
played, every card played, each trick's winner and points (seed 001: a player
may always look at the last trick), the number of cards in each hand.
Private: the seat's own cards and the declarations it could make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action, Bid
from .auction import Contract
from .cards import Card, CardMask, CardSet, card_name
from .declarations import Declaration
from .rules import Rules
from .scoring import DealResult
from .seats import Seat
from .state import Phase, State
from .tricks import Trick

__all__ = ["PlayerView", "observe"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a deal.

    - ``hand``: the seat's own cards (a :data:`CardMask`); ``hand_sizes``:
      cards held by each seat at the table.
    - ``turned``: the turned card (it was shown face up to all);
      ``turned_holder``: the taker, while he still holds it.
    - ``bids``: every ``(seat, bid)`` in order; ``bid_rounds``: the round
      of each (1, or 2 after everyone passed round one: seed 001 "on
      procède à un deuxième tour"); ``contract`` once made.
    - ``declarations``: every ``(seat, declarations)`` made, in order;
      ``own_declarations``: what this seat could declare.
    - ``belotes``: ``(seat, card, "belote" | "rebelote")`` as said.
    - ``tricks``: finished tricks; ``trick``: ``(seat, card)`` of the trick
      in progress; ``played``: mask of all cards played.
    - ``current``: who acts; ``legal``: this seat's legal actions when it is
      its turn, else empty.
    - ``result``: the deal's result once over.
    """

    rules: Rules
    seat: Seat
    dealer: Seat
    seats: tuple[Seat, ...]
    phase: Phase
    hand: CardMask
    hand_sizes: tuple[tuple[Seat, int], ...]
    turned: Card | None
    turned_holder: Seat | None
    bids: tuple[tuple[Seat, Bid], ...]
    bid_rounds: tuple[int, ...]
    contract: Contract | None
    declarations: tuple[tuple[Seat, tuple[Declaration, ...]], ...]
    own_declarations: tuple[Declaration, ...]
    belotes: tuple[tuple[Seat, Card, str], ...]
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[Seat, Card], ...]
    played: CardMask
    current: Seat | None
    legal: tuple[Action, ...]
    result: DealResult | None

    @property
    def hand_set(self) -> CardSet:
        """The seat's own cards as a :class:`CardSet`."""
        return CardSet(self.hand)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (card names, seat letters) of this view."""
        return {
            "seat": self.seat.letter,
            "dealer": self.dealer.letter,
            "phase": self.phase.value,
            "hand": str(CardSet(self.hand)).split(),
            "hand_sizes": {s.letter: n for s, n in self.hand_sizes},
            "turned": None if self.turned is None else card_name(self.turned),
            "turned_holder": None if self.turned_holder is None else self.turned_holder.letter,
            "bids": [[s.letter, b.text] for s, b in self.bids],
            "bid_rounds": list(self.bid_rounds),
            "contract": None if self.contract is None else self.contract.text,
            "declarations": [[s.letter, [d.text for d in ds]] for s, ds in self.declarations],
            "own_declarations": [d.text for d in self.own_declarations],
            "belotes": [[s.letter, card_name(c), w] for s, c, w in self.belotes],
            "tricks": [
                {
                    "leader": t.leader.letter,
                    "cards": [card_name(c) for c in t.cards],
                    "winner": t.winner.letter,
                    "points": t.points,
                }
                for t in self.tricks
            ],
            "trick": [[s.letter, card_name(c)] for s, c in self.trick],
            "current": None if self.current is None else self.current.letter,
            "legal": [a.text for a in self.legal],
        }


def observe(state: State, seat: Seat) -> PlayerView:
    """The view of ``state`` from ``seat``.  Raises ``ValueError`` when the
    seat is not at the table.

    A deal set up from its final hands (:meth:`State.from_hands`, for records)
    does not say which cards came with the completion of the deal, so during
    its bidding a seat's view shows its final hand less the turned card.  Live
    deals (:meth:`State.new`, :meth:`State.from_deck`) show exactly the cards
    dealt so far.
    """
    if seat not in state.seats:
        raise ValueError(f"seat {Seat(seat).letter} is not at this table")
    turned = state.turned
    turned_holder: Seat | None = None
    if turned is not None and state.contract is not None:
        taker = state.contract.taker
        if state.hands[taker] >> turned & 1:
            turned_holder = taker
    mine = state.current == seat
    return PlayerView(
        rules=state.rules,
        seat=Seat(seat),
        dealer=state.dealer,
        seats=state.seats,
        phase=state.phase,
        hand=state.hands[seat],
        hand_sizes=tuple((s, state.hands[s].bit_count()) for s in state.seats),
        turned=turned,
        turned_holder=turned_holder,
        bids=tuple(state.auction.bids) if state.auction is not None else (),
        bid_rounds=tuple(state.auction.rounds) if state.auction is not None else (),
        contract=state.contract,
        declarations=tuple(state.declared),
        own_declarations=state.found.get(seat, ()),
        belotes=tuple(state.belotes),
        tricks=tuple(state.tricks),
        trick=tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
        played=state.played,
        current=state.current,
        legal=tuple(state.legal_actions()) if mine else (),
        result=state.result,
    )
