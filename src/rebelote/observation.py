"""What one seat may know: :func:`observe` turns a :class:`State` into a
:class:`PlayerView` holding that seat's own hand and the public history, and
nothing more.  Bots and the server's clients receive views, never the state.

Public: the dealer, the turned card (and, once taken, that the taker holds it
until he plays it), every bid, the contract, the *nature* of each declaration
once made (``tierce``, ``quarte``, ``quinte``, ``carre``: FFB coinche 2015,
8.2 "chacun des joueurs annonce simplement la nature de son ou ses
annonce(s)"), the cards of the winning side's declarations once the
declarations are resolved (:func:`declarations_resolved`: FFB 8.3 "les
joueurs gagnants montrent alors immédiatement les cartes constituant leurs
annonces"; seed 000 "toutes les annonces de l'équipe seront présentées
automatiquement"), never the cards of a losing declaration (a player who
declines to declare leaves no trace), belote and rebelote as
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

__all__ = [
    "PlayerView",
    "declaration_kinds",
    "declarations_resolved",
    "observe",
    "public_declaration_cards",
    "shown_declarations",
]


def declarations_resolved(state: State) -> bool:
    """Whether the declarations of ``state``'s deal are resolved, so that the
    winning side shows its cards.

    With a declaration turn (``Rules.declaration_turn``, seed 000: "Lorsque
    le camp ayant la plus forte annonce est connu, toutes les annonces de
    l'équipe seront présentées"): once that turn is over (play has begun).
    Otherwise when the first card of the second trick has been played (FFB
    coinche 2015, 8.3: "Lorsque la première carte du second pli vient d'être
    jouée, on procède à la résolution des annonces"), and at the deal's end.
    """
    if state.phase is Phase.DONE:
        return True
    if state.phase is not Phase.PLAYING:
        return False
    if state.rules.declaration_turn:
        return True
    return len(state.tricks) >= 2 or (len(state.tricks) == 1 and bool(state.trick_cards))


def shown_declarations(state: State) -> tuple[tuple[Seat, tuple[Declaration, ...]], ...]:
    """The ``(seat, declarations)`` whose cards every seat may see now: those
    of the side whose declarations count (:meth:`State.counted_declarations`),
    once :func:`declarations_resolved`; none before, none on a tie where no
    side scores.  A losing side's declarations are never shown (FFB 8.3: only
    "les joueurs gagnants montrent")."""
    if not state.declared or not declarations_resolved(state):
        return ()
    counted = state.counted_declarations()
    return tuple((seat, decls) for seat, decls in state.declared if counted[state.side_of[seat]])


def public_declaration_cards(state: State) -> CardMask:
    """The cards of :func:`shown_declarations`, as a mask."""
    mask = 0
    for _, decls in shown_declarations(state):
        for d in decls:
            mask |= d.cards
    return mask


def declaration_kinds(state: State) -> tuple[tuple[Seat, tuple[str, ...]], ...]:
    """Every ``(seat, natures)`` declared so far, in order: what the table is
    told when a declaration is made (FFB 8.2: "la nature de son ou ses
    annonce(s)"), each nature a :attr:`Declaration.kind` (``tierce``,
    ``quarte``, ``quinte``, ``carre``), without its cards."""
    return tuple((seat, tuple(d.kind for d in decls)) for seat, decls in state.declared)


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
    - ``declarations``: the ``(seat, declarations)`` this seat may know in
      full, in order: its own, and the winning side's once shown
      (:func:`shown_declarations`); ``declared_kinds``: the nature of every
      declaration made (:func:`declaration_kinds`); ``own_declarations``:
      what this seat could declare.
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
    declared_kinds: tuple[tuple[Seat, tuple[str, ...]], ...]
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
            "declared_kinds": [[s.letter, list(k)] for s, k in self.declared_kinds],
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
        declarations=_known_declarations(state, Seat(seat)),
        own_declarations=state.found.get(seat, ()),
        declared_kinds=declaration_kinds(state),
        belotes=tuple(state.belotes),
        tricks=tuple(state.tricks),
        trick=tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
        played=state.played,
        current=state.current,
        legal=tuple(state.legal_actions()) if mine else (),
        result=state.result,
    )


def _known_declarations(
    state: State, seat: Seat
) -> tuple[tuple[Seat, tuple[Declaration, ...]], ...]:
    """The declarations ``seat`` may know in full: its own and those shown."""
    if not state.declared:
        return ()
    shown = {s for s, _ in shown_declarations(state)}
    return tuple((s, d) for s, d in state.declared if s == seat or s in shown)
