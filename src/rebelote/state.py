"""The state of one deal, from the cut to the score.

A deal is its dealt cards plus its actions: :meth:`State.apply` checks an
action against :meth:`State.legal_actions`, changes the state only if it is
legal, and returns the events it caused.  Phases in order:

1. ``cut`` (optional: a state may start from a pack already cut): the player on
   the dealer's left cuts (all texts; seed 001: "au moins deux cartes").
2. ``pattern``: the dealer chooses 3-2 or 2-3 where the rules allow both
   (seed 000, seed 001).  Then 5 cards each from the dealer's right and the
   turned card (classic), or 8 cards each by 3-2-3 / 2-3-3, or 3-3-2 (FFB
   coinche 2015, 3.4) (coinche).
3. ``bidding``: see :mod:`rebelote.auction`.  On a contract, the deal is
   completed: from the dealer's right, 3 cards each, 2 and the turned card to
   the taker.  All pass: the deal ends as ``passed``.
4. ``declaring``: seed 000's declaration turn, in speaking order (only where
   ``Rules.declaration_turn``).
5. ``playing``: 8 tricks.  With ``Rules.declarations == "choice"`` a player
   holding declarations first chooses what to declare, just before his first
   card; ``automatic`` declares for him (seed 003).
6. ``done``: :attr:`State.result` holds the :class:`DealResult`.

The actions' text forms are read in the context of the deal by
:meth:`State.parse_action`; :meth:`State.is_legal`, :attr:`State.legal` (a
lazy view answering ``in``) and :meth:`State.why_illegal` (a typed
:class:`~rebelote.legality.Illegality`) say whether an action is legal now
and why not.  :meth:`State.apply` returns typed events
(:mod:`rebelote.events`).

Randomness never enters here: the pack is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import Enum
from operator import itemgetter
from typing import Literal, Protocol, TypeVar

from .actions import (
    Action,
    ActionError,
    Bid,
    ChoosePattern,
    Cut,
    Declare,
    InvalidActionError,
    Play,
    parse_bid,
    shown,
)
from .auction import Auction, Contract
from .cards import (
    DECK_24,
    DECK_32,
    RANK_MASKS,
    RANK_SYMBOLS,
    Card,
    CardMask,
    Rank,
    card_name,
    cards_of,
    parse_card,
)
from .declarations import (
    KIND_NAMES,
    Declaration,
    DeclarationError,
    belote_pairs,
    best_declaration,
    carre_points,
    declaration_subsets,
    find_declarations,
    has_carre_of_sevens,
    match_declarations,
)
from .events import (
    AllPassed,
    BeloteSaid,
    BidMade,
    CardPlayed,
    CardTurned,
    ContractMade,
    DealCancelled,
    DealCompleted,
    DealScored,
    Dealt,
    Declared,
    Declined,
    Event,
    PackCut,
    PatternChosen,
    TrickWon,
)
from .legality import RULES_DIGEST, SEED000, SEED001, SEED002, SEED003, Illegality, IllegalReason
from .rules import PATTERNS, Rules
from .scoring import DealResult, score_deal, void_result
from .seats import Seat, next_seat, previous_seat, seats_of
from .tricks import PlayTable, Trick, card_illegality, play_table
from .trump import Strain, StrainTables, strain_tables

__all__ = [
    "ActionError",
    "AmbiguousActionError",
    "DealError",
    "Event",
    "IllegalActionError",
    "InvalidActionError",
    "LegalActions",
    "Phase",
    "State",
]


_PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(32))
"""One :class:`Play` per card, without a belote choice."""

_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(_PLAYS[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)
"""``_SUIT_PLAYS[suit][byte]``: the plays of the cards of ``suit`` whose
ranks are the bits of ``byte``, in card order (the legal cards' plays are
four look-ups, one a suit)."""
_PLAYS_S, _PLAYS_H, _PLAYS_D, _PLAYS_C = _SUIT_PLAYS
_ONE_SUIT_PLAYS: dict[CardMask, tuple[Play, ...]] = {
    byte << (8 * suit): _SUIT_PLAYS[suit][byte] for suit in range(4) for byte in range(1, 256)
}
"""The plays of the cards of a mask within one suit, by mask."""

_BELOTE_PAIRS: dict[Strain, tuple[CardMask, ...]] = {
    strain: tuple(belote_pairs(DECK_32, strain)) for strain in Strain
}
"""The king-queen pairs of trump of each strain, suit by suit, for
:func:`~rebelote.declarations.belote_pairs` of every hand."""

_INT_ONLY: set[type] = {int}
_SORTED_PACKS: dict[int, list[Card]] = {
    24: list(cards_of(DECK_24)),
    32: list(cards_of(DECK_32)),
}
"""The cards of the 24- and 32-card packs in order."""


_DEAL_POSITIONS: dict[
    tuple[int, int, tuple[int, ...], int],
    tuple[tuple[Callable[[list[Card]], tuple[Card, ...]], ...], int],
] = {}


def _deal_positions(
    pos: int, seats: int, counts: tuple[int, ...], taker: int
) -> tuple[tuple[Callable[[list[Card]], tuple[Card, ...]], ...], int]:
    """For dealing ``counts`` cards a round (one less to the ``taker``-th
    seat from the dealer's right, -1: none) from position ``pos`` of the
    deck: per seat from the dealer's right, a function giving its cards of
    a deck, and the position after the distribution.  Cached: a game has
    few distributions."""
    key = (pos, seats, counts, taker)
    known = _DEAL_POSITIONS.get(key)
    if known is None:
        positions: list[list[int]] = [[] for _ in range(seats)]
        for count in counts:
            for k in range(seats):
                n = count - 1 if k == taker else count
                positions[k].extend(range(pos, pos + n))
                pos += n
        known = tuple(_getter(p) for p in positions), pos
        _DEAL_POSITIONS[key] = known
    return known


def _getter(positions: list[int]) -> Callable[[list[Card]], tuple[Card, ...]]:
    """A function giving the cards at ``positions`` of a deck, as a tuple."""
    if len(positions) == 1:
        only = positions[0]
        return lambda deck: (deck[only],)
    return itemgetter(*positions)


_BITS: tuple[CardMask, ...] = tuple(1 << c for c in range(32))
"""``_BITS[card]`` is ``1 << card`` (a look-up allocates no int)."""

_BIT_OF = _BITS.__getitem__
"""``_BIT_OF(card)`` is ``1 << card``."""

_SUIT_OF: tuple[int, ...] = tuple(c >> 3 for c in range(32))
"""``_SUIT_OF[card]`` is ``card >> 3``."""

_PARTNER_OF: dict[int, tuple[int, ...]] = {
    4: (2, 3, 0, 1),
    3: (-1, -1, -1, -1),
    2: (-1, -1, -1, -1),
}
"""``_PARTNER_OF[players][seat]``: the seat's partner, -1 in the
three- and two-player games."""

_STRAINS: tuple[Strain, ...] = tuple(Strain)
"""``_STRAINS[i]`` is ``Strain(i)``."""

_NEXT: dict[int, tuple[Seat, ...]] = {
    n: tuple(next_seat(Seat(i), n) for i in range(4)) for n in (2, 3, 4)
}
"""``_NEXT[players][seat]``: :func:`~rebelote.seats.next_seat`."""


_T = TypeVar("_T")


def _check_two_hands(cards: Sequence[Card]) -> None:
    """The 16 cards of a two-player deal's hands: distinct cards of the
    32-card pack (the other 16 were set aside, RULES.md "Two players").
    Raises :class:`DealError` otherwise."""
    mask = 0
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 32:
            raise DealError(f"the hands: not a card: {c!r}")
        if mask >> c & 1:
            raise DealError(f"the hands: {card_name(c)} appears twice")
        mask |= 1 << c


class _Chooser(Protocol):
    """Chooses one element of a sequence (``random.Random.choice``)."""

    def __call__(self, seq: Sequence[_T], /) -> _T:
        """One element of ``seq`` (not empty)."""
        ...


class Phase(Enum):
    """The phases of a deal, in order."""

    CUT = "cut"
    PATTERN = "pattern"
    BIDDING = "bidding"
    DECLARING = "declaring"
    PLAYING = "playing"
    DONE = "done"


# The hot paths compare phases with these names: an enum's class attribute
# costs a look-up through its metaclass.
_BIDDING = Phase.BIDDING
_PLAYING = Phase.PLAYING
_DONE = Phase.DONE


class DealError(ValueError):
    """A deal that cannot be set up: a pack of the wrong size, a card twice,
    a hand of the wrong size, an unknown pattern."""


class IllegalActionError(ActionError):
    """An action that is not legal now (python-chess's ``IllegalMoveError``).

    ``seat``: who is to act (``None`` when no one is); ``action``: the
    action's text; ``legal``: the texts of the legal actions; ``phase``: the
    phase; ``trick``: the trick number 1-8 during play, else ``None``;
    ``reason``: why (:meth:`State.why_illegal`).
    """

    def __init__(
        self,
        message: str,
        *,
        seat: Seat | None,
        action: str,
        legal: list[str],
        phase: Phase,
        trick: int | None,
        reason: Illegality | None = None,
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = legal
        self.phase = phase
        self.trick = trick
        self.reason = reason


class AmbiguousActionError(ActionError):
    """A card written without the belote choice where the player must make
    it (``QH`` where ``QH belote`` and ``QH no-belote`` are legal; seed 001).

    ``seat``: who is to act; ``action``: the text read; ``candidates``: the
    legal actions it may mean.
    """

    def __init__(
        self, message: str, *, seat: Seat | None, action: str, candidates: list[Action]
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.candidates = candidates


class LegalActions:
    """A lazy view of the legal actions of a :class:`State` (after
    python-chess's ``LegalMoveGenerator``): ``action in state.legal`` asks
    :meth:`State.is_legal` without listing anything; iterating, ``len`` and
    ``bool`` list :meth:`State.legal_actions` when asked.  The view follows
    the state as it changes."""

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        self._state = state

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, (Play, Bid, Declare, Cut, ChoosePattern)):
            return False
        return self._state.is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._state.legal_actions())

    def __len__(self) -> int:
        return len(self._state.legal_actions())

    def __bool__(self) -> bool:
        state = self._state
        if state.phase is Phase.PLAYING and not state._must_declare():
            return bool(state.legal_play_mask())
        return bool(state.legal_actions())

    def __repr__(self) -> str:
        texts = ", ".join(a.text for a in self._state.legal_actions())
        return f"<LegalActions ({texts})>"


class State:
    """One deal.  Build it with :meth:`new` (a pack to cut), :meth:`from_deck`
    (a pack already cut) or :meth:`from_hands` (the hands of a complete deal).

    The hands are indexed by :class:`Seat`.  Sides: 0 = NS, 1 = EW; in the
    three-player game each seat is a side (W 0, S 1, E 2).
    """

    __slots__ = (
        "_belote_cards",
        "_belote_owner",
        "_checked",
        "_next",
        "_partner_of",
        "_play_table",
        "_pos",
        "_row",
        "_size",
        "auction",
        "belote_said",
        "belotes",
        "contract",
        "current",
        "dealer",
        "deck",
        "declared",
        "declined",
        "final_hands",
        "found",
        "hands",
        "leader",
        "pack",
        "pattern",
        "phase",
        "played",
        "result",
        "rules",
        "seats",
        "side_of",
        "tables",
        "to_declare",
        "trick_cards",
        "trick_seats",
        "tricks",
        "turned",
        "winning",
    )

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        """An empty deal; use :meth:`new`, :meth:`from_deck` or :meth:`from_hands`."""
        self.rules = rules
        self.seats: tuple[Seat, ...] = seats_of(rules.players)
        if dealer not in self.seats:
            raise DealError(f"seat {Seat(dealer).letter} is not at a {rules.players}-player table")
        self.dealer = dealer if type(dealer) is Seat else Seat(dealer)
        self._next: tuple[Seat, ...] = _NEXT[rules.players]
        self._partner_of = _PARTNER_OF[rules.players]
        self._size = rules.players
        self._play_table: PlayTable | None = None
        self._row: tuple[CardMask, CardMask, CardMask, CardMask, CardMask] = (0, 0, 0, 0, 0)
        # Each for himself (3 and 2 players): a seat's side is ``seat - 1``.
        self.side_of: tuple[int, ...] = (
            (0, 1, 0, 1)
            if rules.players == 4
            else (-1, 0, 1, 2)
            if rules.players == 3
            else (-1, 0, 1, -1)
        )
        self.phase = Phase.CUT
        self.pack: list[Card] = []
        self.deck: list[Card] = []
        self.pattern: str | None = None
        self.hands: list[CardMask] = [0, 0, 0, 0]
        self.final_hands: list[CardMask] | None = None
        self.turned: Card | None = None
        self._pos = 0
        self.auction: Auction | None = None
        self.contract: Contract | None = None
        self.tables: StrainTables | None = None
        self.found: dict[Seat, tuple[Declaration, ...]] = {}
        self.declared: list[tuple[Seat, tuple[Declaration, ...]]] = []
        self.declined: list[Seat] = []
        self.to_declare: list[Seat] = []
        self._belote_cards: CardMask = 0
        self._belote_owner: dict[CardMask, Seat] = {}
        self.belote_said: dict[CardMask, bool] = {}
        self.belotes: list[tuple[Seat, Card, str]] = []
        self.current: Seat | None = None
        self.leader: Seat = self.dealer
        self.trick_cards: list[Card] = []
        self.trick_seats: list[Seat] = []
        self.winning = 0
        self.tricks: list[Trick] = []
        self.played: CardMask = 0
        self.result: DealResult | None = None
        self._checked: tuple[tuple[object, ...], tuple[Action, ...]] | None = None
        """The actions :meth:`parse_action` last found legal, with the
        position it found them in (:meth:`_position`), for
        :meth:`apply_parsed`."""

    # ----------------------------------------------------------------- set-up

    def _check_pack(self, cards: Sequence[Card], what: str) -> None:
        size = self.rules.cards_per_deal
        full = DECK_24 if self.rules.players == 3 else DECK_32
        if (
            len(cards) == size
            and set(map(type, cards)) == _INT_ONLY
            and sorted(cards) == _SORTED_PACKS[size]
        ):
            return  # every card of the pack once: the checks below would pass
        if len(cards) != size:
            raise DealError(f"{what} has {len(cards)} cards; this game needs {size}")
        mask = 0
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 32:
                raise DealError(f"{what}: not a card: {c!r}")
            if mask >> c & 1:
                raise DealError(f"{what}: {card_name(c)} appears twice")
            mask |= 1 << c
        if mask != full:
            raise DealError(f"{what}: the three-player game uses no 7s or 8s")

    @classmethod
    def new(cls, rules: Rules, dealer: Seat, pack: Sequence[Card]) -> State:
        """A deal that starts with the cut of ``pack`` (top card first)."""
        state = cls(rules, dealer)
        state._check_pack(pack, "the pack")
        state.pack = list(pack)
        state.current = previous_seat(state.dealer, rules.players)
        return state

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        dealer: Seat,
        deck: Sequence[Card],
        pattern: str | None = None,
        *,
        events: list[Event] | None = None,
    ) -> State:
        """A deal from a pack already cut (top card first).  With ``pattern``
        (``3-2`` or ``2-3``) the first distribution is made at once; without
        it the dealer chooses (or the only allowed pattern is used).
        ``events``: a list that receives the events of a distribution made
        at once (:class:`~rebelote.events.PatternChosen`, ``Dealt`` ...,
        ``CardTurned``); none are built without it."""
        state = cls(rules, dealer)
        state._check_pack(deck, "the deck")
        state.pack = list(deck)
        state.deck = list(deck)
        state.phase = Phase.PATTERN
        state.current = state.dealer
        if pattern is None and len(rules.patterns) == 1:
            pattern = rules.patterns[0]
        if pattern is not None:
            if pattern not in rules.patterns:
                allowed = " or ".join(rules.patterns)
                raise DealError(f"pattern {pattern!r} is not allowed here (use {allowed})")
            dealt = state._distribute(pattern, events is not None)
            if events is not None:
                events.extend(dealt)
        return state

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        dealer: Seat,
        hands: Mapping[Seat, Sequence[Card]],
        turned: Card | None = None,
    ) -> State:
        """A deal given by each seat's 8 cards once the deal is complete (and,
        in classic games, the turned card, which must end in the taker's
        hand).  Until the deal is completed, a seat's hand shows its final
        cards less the turned card: the record does not say which came late.
        """
        state = cls(rules, dealer)
        if set(hands) != set(state.seats):
            names = " ".join(s.letter for s in state.seats)
            raise DealError(f"hands must be given for exactly the seats {names}")
        cards: list[Card] = []
        for seat in state.seats:
            if len(hands[seat]) != 8:
                raise DealError(f"the hand of {seat.letter} has {len(hands[seat])} cards, not 8")
            cards.extend(hands[seat])
        if rules.players == 2:
            _check_two_hands(cards)
        else:
            state._check_pack(cards, "the hands")
        final = [0, 0, 0, 0]
        for seat in state.seats:
            for c in hands[seat]:
                final[seat] |= 1 << c
        if rules.turned_card:
            if turned is None:
                raise DealError("a classic deal given by hands needs its turned card")
            state.turned = turned
            state.hands = [h & ~(1 << turned) for h in final]
        elif turned is not None:
            raise DealError("the coinche deal turns no card")
        else:
            state.hands = list(final)
        state.final_hands = final
        state.pattern = None
        state._start_bidding()
        return state

    def _deal_round(
        self, counts: Sequence[int], taker: Seat | None = None, events: bool = True
    ) -> list[Event]:
        out: list[Event] = []
        deck, hands, nxt, seats = self.deck, self.hands, self._next, self.seats
        first = nxt[self.dealer]
        if not events:
            # Each seat's cards of the whole distribution at once.
            offset = -1
            if taker is not None:
                offset, seat = 0, first
                while seat != taker:
                    offset, seat = offset + 1, nxt[seat]
            takes, end = _deal_positions(self._pos, len(seats), tuple(counts), offset)
            seat = first
            for take in takes:
                hands[seat] |= sum(map(_BIT_OF, take(deck)))  # distinct cards
                seat = nxt[seat]
            self._pos = end
            return out
        pos = self._pos
        for count in counts:
            seat = first
            for _ in seats:
                n = count - 1 if seat == taker else count
                got = sum(map(_BIT_OF, deck[pos : pos + n]))
                pos += n
                hands[seat] |= got
                out.append(Dealt(seat, got))
                seat = nxt[seat]
        self._pos = pos
        return out

    def _distribute(self, pattern: str, events: bool = True) -> list[Event]:
        self.pattern = pattern
        first = [int(x) for x in pattern.split("-")]
        if len(first) == 2 and not self.rules.turned_card:
            first.append(3)  # 3-2-3, 2-3-3; "3-3-2" deals every card already
        out: list[Event] = [PatternChosen(self.dealer, pattern)] if events else []
        out += self._deal_round(first, None, events)
        if self.rules.turned_card:
            self.turned = self.deck[self._pos]
            self._pos += 1
            if events:
                out.append(CardTurned(self.turned))
        self._start_bidding()
        return out

    def _start_bidding(self) -> None:
        turned_suit = None if self.turned is None else _STRAINS[self.turned >> 3]
        self.auction = Auction(self.rules, self.dealer, turned_suit)
        self.phase = Phase.BIDDING
        self.current = self.auction.current

    # ------------------------------------------------------------------ views

    @property
    def players(self) -> int:
        """3 or 4."""
        return self.rules.players

    @property
    def trick_number(self) -> int:
        """The trick being played, 1-8 (8 once the deal is over)."""
        return min(len(self.tricks) + 1, 8)

    @property
    def is_terminal(self) -> bool:
        """Whether the deal is over (scored, passed or cancelled)."""
        return self.phase is _DONE

    def side_name(self, side: int) -> str:
        """``NS`` / ``EW``, or the seat letter in the three- and two-player games."""
        if self.players == 4:
            return ("NS", "EW")[side]
        return self.seats[side].letter

    @property
    def side_names(self) -> tuple[str, ...]:
        """The names of the sides, by side index."""
        return tuple(self.side_name(i) for i in range(3 if self.players == 3 else 2))

    def legal_play_mask(self) -> CardMask:
        """The cards the current player may play (0 outside the card play or
        while he still has to declare)."""
        current = self.current
        if self.phase is not _PLAYING or current is None:
            return 0
        to_declare = self.to_declare
        if to_declare and to_declare[0] == current:
            return 0
        # The rules of rebelote.tricks.legal_play_mask, read from the row of
        # the deal's PlayTable that _play chose for the player to play
        # (_row: the suit led, the card winning the trick, whether his
        # partner plays it).  legal_actions, apply and _play_cards repeat
        # these lines: a call costs as much as they do.
        mask = self.hands[current]
        if self.trick_cards:
            follow, follow_higher, trumps, over, under = self._row
            follow &= mask
            if follow:
                return follow & follow_higher or follow
            trumps &= mask
            if trumps:
                return trumps & over or mask & under
        return mask

    def _must_declare(self) -> bool:
        return bool(self.to_declare) and self.to_declare[0] == self.current

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now, in a stable order."""
        phase = self.phase
        if phase is _PLAYING:
            current = self.current
            assert current is not None
            to_declare = self.to_declare
            if to_declare and to_declare[0] == current:
                return [Declare(s) for s in declaration_subsets(self.found[current])]
            mask = self.hands[current]
            if self.trick_cards:  # as legal_play_mask
                follow, follow_higher, trumps, over, under = self._row
                follow &= mask
                if follow:
                    mask = follow & follow_higher or follow
                else:
                    trumps &= mask
                    if trumps:
                        mask = trumps & over or mask & under
            belote_cards = self._belote_cards
            if not (belote_cards and mask & belote_cards and self.rules.belote_must_be_said):
                plays = _ONE_SUIT_PLAYS.get(mask)  # following: one suit, one look-up
                if plays is not None:
                    return list(plays)
                return [
                    *_PLAYS_S[mask & 255],
                    *_PLAYS_H[mask >> 8 & 255],
                    *_PLAYS_D[mask >> 16 & 255],
                    *_PLAYS_C[mask >> 24],
                ]
            out: list[Action] = []
            for c in cards_of(mask):
                if self._belote_choice(c):
                    out.append(Play(c, True))
                    out.append(Play(c, False))
                else:
                    out.append(_PLAYS[c])
            return out
        if phase is _BIDDING:
            assert self.auction is not None
            return list(self.auction.legal_bids())
        if phase == Phase.CUT:
            lo = self.rules.cut_min_packet
            size = len(self.pack)
            cuts: list[Action] = [Cut(0)] if self.rules.cut_optional else []
            cuts.extend(Cut(n) for n in range(max(lo, 1), size - max(lo, 1) + 1))
            return cuts
        if phase == Phase.PATTERN:
            return [ChoosePattern(p) for p in self.rules.patterns]
        if phase == Phase.DECLARING:
            assert self.current is not None
            return [Declare(s) for s in declaration_subsets(self.found[self.current])]
        return []

    def _belote_pair_of(self, card: Card) -> CardMask:
        for pair in self._belote_owner:
            if pair >> card & 1:
                return pair
        return 0

    def belote_owners(self) -> dict[CardMask, Seat]:
        """Each belote held (the king-queen pair of a trump suit, as a mask)
        and the seat holding it; known once the deal is complete."""
        return dict(self._belote_owner)

    def _belote_choice(self, card: Card) -> bool:
        """Whether playing ``card`` is a choice to say belote or not."""
        if not self.rules.belote_must_be_said or not self._belote_cards >> card & 1:
            return False
        pair = self._belote_pair_of(card)
        return pair not in self.belote_said

    # ---------------------------------------------------------------- legality

    @property
    def legal(self) -> LegalActions:
        """The legal actions as a lazy view: ``action in state.legal`` checks
        one action (:meth:`is_legal`) without listing them all."""
        return LegalActions(self)

    def is_legal(self, action: Action, seat: Seat | None = None) -> bool:
        """Whether ``action`` (by ``seat``, when given) is legal now: exactly
        ``action in self.legal_actions()``, without building the list for a
        card.  A card's belote flag must be as :meth:`legal_actions` writes
        it (:class:`~rebelote.actions.Play`)."""
        if seat is not None and seat != self.current:
            return False
        if type(action) is Play:
            card = action.card
            if type(card) is not int or not 0 <= card < 32:
                return False
            if not self.legal_play_mask() >> card & 1:
                return False
            if self._belote_cards >> card & 1 and self._belote_choice(card):
                return action.belote is not None
            return action.belote is None
        return action in self.legal_actions()

    def why_illegal(self, action: Action, seat: Seat | None = None) -> Illegality | None:
        """Why ``action`` (by ``seat``, when given) is not legal now, or
        ``None`` when it is (exactly when :meth:`is_legal`).

        The :class:`~rebelote.legality.Illegality` names the reason, the
        :class:`~rebelote.rules.Rules` option behind it and the text the rule
        comes from (see :class:`~rebelote.legality.IllegalReason`), the suit
        it is about where it names one, and whether the option's value here
        is the table's own (``house_rule``: it differs from the FFB's).  Checked in
        this order: the deal over, the seat's turn, the phase, then the rules
        of the action (the cut, the pattern, the auction, declarations, the
        card and its belote word).
        """
        if self.is_legal(action, seat):
            return None
        return self._why(action, seat)

    def _why(self, action: object, seat: Seat | None) -> Illegality:
        """:meth:`why_illegal` of an illegal action, its ``house_rule`` set
        for these rules (:meth:`~rebelote.legality.Illegality.under`)."""
        return self._reason(action, seat).under(self.rules)

    def _reason(self, action: object, seat: Seat | None) -> Illegality:
        R = IllegalReason
        phase = self.phase
        if not isinstance(action, (Play, Bid, Declare, Cut, ChoosePattern)):
            return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
        if phase is Phase.DONE:
            return Illegality(R.DEAL_OVER, None, RULES_DIGEST)
        if seat is not None and seat != self.current:
            return Illegality(R.NOT_YOUR_TURN, None, SEED000)
        rules = self.rules
        if isinstance(action, Declare):
            if rules.declarations == "off":
                return Illegality(R.DECLARATIONS_OFF, "declarations", SEED002)
            if rules.declarations == "automatic":
                return Illegality(R.DECLARATIONS_AUTOMATIC, "declarations", SEED003)
            if not (phase is Phase.DECLARING or self._must_declare()):
                return Illegality(R.WRONG_PHASE, None, RULES_DIGEST)
            assert self.current is not None
            found = self.found[self.current]
            held = list(found)
            for d in action.declarations:
                if d not in held:
                    return Illegality(R.DECLARATION_NOT_HELD, None, SEED000)
                held.remove(d)
            return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)  # out of order
        if isinstance(action, Play):
            if phase is not Phase.PLAYING:
                return Illegality(R.WRONG_PHASE, None, RULES_DIGEST)
            if self._must_declare():
                return Illegality(R.DECLARE_FIRST, "declarations", SEED000)
            card = action.card
            if type(card) is not int or not 0 <= card < 32 or action.belote not in BELOTE_FLAGS:
                return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
            assert self.current is not None
            hand = self.hands[self.current]
            if not hand >> card & 1:
                return Illegality(R.NOT_IN_HAND, None, RULES_DIGEST)
            if not self.legal_play_mask() >> card & 1:
                cards = self.trick_cards
                winning = self.winning
                partner = self.players == 4 and (self.trick_seats[winning] ^ self.current) & 1 == 0
                assert self.tables is not None and cards
                why = card_illegality(
                    card, hand, cards[0], cards[winning], partner, self.tables, rules
                )
                assert why is not None
                return why
            if not self._belote_cards >> card & 1:
                return Illegality(R.BELOTE_NOT_HELD, None, SEED001)
            if self._belote_choice(card):
                return Illegality(R.BELOTE_CHOICE_NEEDED, "belote_must_be_said", SEED001)
            if not rules.belote_must_be_said:
                return Illegality(R.BELOTE_AUTOMATIC, "belote_must_be_said", SEED000)
            return Illegality(R.BELOTE_DECIDED, "belote_must_be_said", SEED001)
        if isinstance(action, Bid):
            if phase is not Phase.BIDDING:
                return Illegality(R.WRONG_PHASE, None, RULES_DIGEST)
            assert self.auction is not None
            why = self.auction.illegality(action)
            assert why is not None
            return why
        if isinstance(action, Cut):
            if phase is not Phase.CUT:
                return Illegality(R.WRONG_PHASE, None, RULES_DIGEST)
            if type(action.packet) is not int:
                return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
            if action.packet == 0 and not rules.cut_optional:
                return Illegality(R.CUT_REQUIRED, "cut_optional", SEED001)
            return Illegality(R.CUT_OUT_OF_RANGE, "cut_min_packet", SEED001)
        if phase is not Phase.PATTERN:
            return Illegality(R.WRONG_PHASE, None, RULES_DIGEST)
        # The dealer chooses only where both patterns are allowed.
        return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)

    def parse_action(self, text: str, seat: Seat | None = None) -> Action:
        """Read an action's text form (:attr:`Action.text`, case-insensitive,
        spaces free) in the context of the deal, as the current player's (or
        ``seat``'s) action, and return the legal action it writes.

        Raises :class:`~rebelote.actions.InvalidActionError` when the text is
        no action of the game, :class:`AmbiguousActionError` for a card
        without the belote choice the player must make (``QH`` where ``QH
        belote`` and ``QH no-belote`` are legal), and
        :class:`IllegalActionError` (with its ``reason``) for an action that
        is not legal now.  Declarations are read against the player's hand
        (``declare tierce-KH``, ``declare quarte``, ``declare none``).
        """
        words = text.split()
        head = words[0].lower() if words else ""
        action: Action
        if head == "declare" and len(words) > 1:
            action = self._parse_declare(text, words[1:], seat)
        elif head in ("cut", "deal", "declare"):
            action = _parse_setup(text, words)
        elif not words or not _looks_like_card(words[0]):
            # an empty text, a bid, or words that are neither (``take
            # belote``, ``pass pass``): not an action, rather than "not a card"
            try:
                if len(words) != 1:
                    raise ValueError(text)
                action = parse_bid(words[0])
            except ValueError:
                kind = "bid_out_of_range" if _CONTRACT_LIKE.fullmatch(text.strip()) else None
                raise InvalidActionError(
                    _not_an_action(text), text=text, kind=kind or "not_an_action"
                ) from None
        else:
            action = Play.parse(text)
        why = self.why_illegal(action, seat)
        if why is None:
            self._checked = (self._position(), (action,))
            return action
        if why.reason is IllegalReason.BELOTE_CHOICE_NEEDED:
            ambiguous = self._ambiguous(action, text)
            self._checked = (self._position(), tuple(ambiguous.candidates))
            raise ambiguous
        raise self._illegal(action, why.reason.value.replace("_", " "), why, text)

    def _position(self) -> tuple[object, ...]:
        """What every action changes (the phase, who is to act, the cards
        played, the bids made, the declarations due): a position that
        :meth:`apply_parsed` finds equal is the one :meth:`parse_action`
        checked the action in."""
        auction = self.auction
        return (
            self.phase,
            self.current,
            self.played,
            -1 if auction is None else len(auction.bids),
            len(self.to_declare),
        )

    def apply_parsed(
        self, action: Action, seat: Seat | None = None, *, events: bool = True
    ) -> list[Event]:
        """Apply an action that :meth:`parse_action` has just read, and so
        checked, in this position (or one of the two candidates of its
        :class:`AmbiguousActionError`): the one-parse-per-action path of the
        server, where the action is checked once, by :meth:`parse_action`.

        The action is trusted only if it is the one :meth:`parse_action`
        last returned (or offered) and the deal has not moved since (the
        phase, the player to act, the cards played, the bids and the
        declarations due are as they were then), ``seat`` being that player;
        any other action goes through :meth:`apply`, checked.  Returns the
        events, and raises, as :meth:`apply` does.
        """
        checked = self._checked
        if (
            checked is not None
            and (seat is None or seat == self.current)
            and action in checked[1]
            and checked[0] == self._position()
        ):
            self._checked = None
            return self._apply(action, events)
        return self.apply(action, seat, events=events)

    def _ambiguous(self, action: Action, text: str | None = None) -> AmbiguousActionError:
        """The refusal of a card without the belote choice its player must
        make (``text``: as written, else the action's)."""
        assert isinstance(action, Play)
        candidates: list[Action] = [Play(action.card, True), Play(action.card, False)]
        return AmbiguousActionError(
            f"say whether you say belote with {action.text}: "
            f"{' or '.join(a.text for a in candidates)}",
            seat=self.current,
            action=action.text if text is None else text,
            candidates=candidates,
        )

    def _parse_declare(self, text: str, words: list[str], seat: Seat | None) -> Declare:
        """The declarations ``words`` name (``none``, or kinds with an optional
        top card or rank), matched against the player's hand when he is to
        declare; otherwise the empty choice, refused by the caller."""
        if [w.lower() for w in words] == ["none"]:
            return Declare(())
        for word in words:
            kind, _, detail = word.lower().partition("-")
            if kind not in KIND_NAMES or not _readable_detail(kind, detail):
                raise InvalidActionError(
                    f"not a declaration: {word!r} in {text!r} (tierce-KH, quarte, "
                    "quinte-AS, carre-J, or none)",
                    text=text,
                )
        current = self.current
        due = self.phase is Phase.DECLARING or self._must_declare()
        if not due or current is None or (seat is not None and seat != current):
            return Declare(())  # refused for its phase or turn by the caller
        found = self.found.get(current, ())
        try:
            chosen = match_declarations(found, words)
        except DeclarationError as exc:
            raise self._illegal(
                Declare(()),
                "declaration not held",
                Illegality(IllegalReason.DECLARATION_NOT_HELD, None, SEED000),
                text,
                detail=str(exc),
            ) from None
        return Declare(tuple(d for d in found if d in chosen))

    # ---------------------------------------------------------------- applying

    def _illegal(
        self,
        action: Action,
        why: str,
        reason: Illegality | None = None,
        text: str | None = None,
        detail: str = "",
    ) -> IllegalActionError:
        legal = [a.text for a in self.legal_actions()]
        trick = self.trick_number if self.phase == Phase.PLAYING else None
        where = f" at trick {trick}" if trick else ""
        who = self.current.letter if self.current is not None else "nobody"
        written = action.text if text is None else " ".join(text.split())
        message = f"{why}: {who} cannot {written}{where}; legal: {' '.join(legal) or 'none'}"
        if detail:
            message += f" ({detail})"
        return IllegalActionError(
            message,
            seat=self.current,
            action=written,
            legal=legal,
            phase=self.phase,
            trick=trick,
            reason=reason,
        )

    def apply(
        self, action: Action, seat: Seat | None = None, *, events: bool = True
    ) -> list[Event]:
        """Apply the current player's ``action`` and return the events it caused
        (typed, :mod:`rebelote.events`).

        ``seat``, when given, must be the current player (a bid or card out of
        turn is refused).  The action must be among :meth:`legal_actions`
        exactly, a card's belote word included (so that every action
        accepted replays from its :attr:`~rebelote.actions.Play.text`):
        raises :class:`AmbiguousActionError` for a card without the word
        where its player must say whether he says belote (``QH`` where ``QH
        belote`` and ``QH no-belote`` are legal), and
        :class:`IllegalActionError` (its ``reason`` :meth:`why_illegal`'s:
        ``belote_automatic``, ``belote_decided``, ``belote_not_held`` for a
        word where there is no choice) for any other action not legal now.
        Nothing changes then.

        ``events=False``: for simulations, where nobody listens: the action
        is checked and applied all the same, but no event is built and the
        list returned is empty.
        """
        phase = self.phase
        if type(action) is Play and phase is _PLAYING:
            # The hot path: a card by the player to play.
            current = self.current
            assert current is not None
            to_declare = self.to_declare
            if (seat is None or seat == current) and not (to_declare and to_declare[0] == current):
                mask = self.hands[current]
                if self.trick_cards:  # as legal_play_mask
                    follow, follow_higher, trumps, over, under = self._row
                    follow &= mask
                    if follow:
                        mask = follow & follow_higher or follow
                    else:
                        trumps &= mask
                        if trumps:
                            mask = trumps & over or mask & under
                card = action.card
                if 0 <= card < 32 and mask & _BITS[card]:
                    # The belote word as legal_actions writes it: none
                    # unless the card is the choice of a belote to say.
                    if not self._belote_cards >> card & 1:
                        if action.belote is None:
                            return self._play(action, events)
                    elif (action.belote is not None) == self._belote_choice(card):
                        return self._play(action, events)
        elif type(action) is Bid and phase is _BIDDING and (seat is None or seat == self.current):
            assert self.auction is not None
            if action in self.auction.legal_bids():
                return self._bid(action, events)
        if self.phase is Phase.DONE:
            raise self._illegal(action, "the deal is over", self._why(action, seat))
        if seat is not None and seat != self.current:
            raise self._illegal(action, f"not {Seat(seat).letter}'s turn", self._why(action, seat))
        if isinstance(action, Play):
            if self.is_legal(action):
                return self._play(action, events)
        elif action in self.legal_actions():
            return self._apply(action, events)
        why = self._why(action, seat)
        if why.reason is IllegalReason.BELOTE_CHOICE_NEEDED:
            raise self._ambiguous(action)
        kind = {
            Phase.PLAYING: "illegal card",
            Phase.BIDDING: "illegal bid",
        }.get(self.phase, "illegal action")
        if self.phase is Phase.PLAYING and self._must_declare():
            kind = "declare first"
        elif why.reason in _BELOTE_REASONS:
            kind = why.code.replace("_", " ")
        raise self._illegal(action, kind, why)

    def _play_out(self, choose: _Chooser) -> None:
        """Play the deal to its end, each action ``choose(legal)``, where
        ``legal`` holds the legal actions in the order of
        :meth:`legal_actions` (a list, or a tuple of the cards' plays): the
        loop of :func:`rebelote.simulate.play_randomly`, the engine's fast
        path.  The action chosen is legal by construction, so it is applied
        without :meth:`apply`'s check; no event is built.
        ``tests/test_fast_path.py`` checks it against the checked path."""
        while self.phase is not _DONE:
            current = self.current
            to_declare = self.to_declare
            if self.phase is _PLAYING and not (to_declare and to_declare[0] == current):
                self._play_cards(choose)
            elif self.phase is _BIDDING:
                assert self.auction is not None
                self._bid(choose(self.auction.legal_bids()), False)
            else:
                self._apply(choose(self.legal_actions()), False)

    def _play_cards(self, choose: _Chooser) -> None:
        """:meth:`_play_out`'s card play, until the deal ends or a player
        must declare: what does not change during the play is read once, and
        a card that neither ends its trick nor needs :meth:`_play`'s care
        (a declaration made with the first card, a belote) is played here
        with :meth:`_play`'s lines."""
        table = self._play_table
        assert table is not None
        rows, beaters = table.rows, table.beaters
        hands, nxt, partner_of, size = self.hands, self._next, self._partner_of, self._size
        to_declare = self.to_declare
        belote_cards = self._belote_cards
        must_say = self.rules.belote_must_be_said
        rules = self.rules
        auto_declare = rules.declarations == "automatic" and not rules.declaration_turn
        while self.phase is _PLAYING:
            current = self.current
            assert current is not None
            if to_declare and to_declare[0] == current:
                return
            mask = hands[current]
            cards = self.trick_cards
            if cards:  # as legal_play_mask
                follow, follow_higher, trumps, over, under = self._row
                follow &= mask
                if follow:
                    mask = follow & follow_higher or follow
                else:
                    trumps &= mask
                    if trumps:
                        mask = trumps & over or mask & under
            if belote_cards and mask & belote_cards and must_say:
                action = choose(self.legal_actions())
                assert isinstance(action, Play)
            else:
                plays = _ONE_SUIT_PLAYS.get(mask)
                if plays is None:
                    plays = (
                        *_PLAYS_S[mask & 255],
                        *_PLAYS_H[mask >> 8 & 255],
                        *_PLAYS_D[mask >> 16 & 255],
                        *_PLAYS_C[mask >> 24],
                    )
                action = choose(plays)
            card = action.card
            bit = _BITS[card]
            count = len(cards)
            if (
                count + 1 == size
                or (belote_cards and belote_cards & bit)
                or (auto_declare and not self.tricks)
            ):
                self._play(action, False)
                continue
            # _play's lines for a card inside a trick.
            hands[current] ^= bit
            self.played |= bit
            seats = self.trick_seats
            winning = self.winning
            if count and beaters[cards[winning]] & bit:
                winning = self.winning = count
            cards.append(card)
            seats.append(current)
            after = self.current = nxt[current]
            row = _SUIT_OF[cards[0]] * 64 + cards[winning] * 2
            if seats[winning] == partner_of[after]:
                row += 1
            self._row = rows[row]

    def _apply(self, action: Action, events: bool = True) -> list[Event]:
        if isinstance(action, Play):
            return self._play(action, events)
        if isinstance(action, Bid):
            return self._bid(action, events)
        if isinstance(action, Declare):
            return self._declare(action, events)
        if isinstance(action, Cut):
            assert self.current is not None
            n = action.packet
            self.deck = self.pack[n:] + self.pack[:n]
            out: list[Event] = [PackCut(self.current, n)] if events else []
            self.phase = Phase.PATTERN
            self.current = self.dealer
            if len(self.rules.patterns) == 1:
                return out + self._distribute(self.rules.patterns[0], events)
            return out
        assert isinstance(action, ChoosePattern)
        return self._distribute(action.pattern, events)

    def _bid(self, bid: Bid, events: bool = True) -> list[Event]:
        auction = self.auction
        assert auction is not None and self.current is not None
        out: list[Event] = [BidMade(self.current, bid)] if events else []
        final_hands = self.final_hands
        saved = auction.copy() if final_hands is not None else None  # a record's deal
        status = auction.bid(bid)
        taker = auction.contract.taker if auction.contract is not None else None
        if (
            taker is not None
            and final_hands is not None
            and saved is not None
            and self.turned is not None
            and not final_hands[taker] >> self.turned & 1
        ):
            self.auction = saved  # nothing half-applied
            raise DealError(
                f"the turned card {card_name(self.turned)} is not in the hand of the "
                f"taker {taker.letter}"
            )
        if status == "open":
            self.current = auction.current
            return out
        if status == "all_pass":
            if events:
                out.append(AllPassed())
            self._finish(void_result("passed", len(self.side_names)))
            return out
        contract = auction.contract
        assert contract is not None
        self.contract = contract
        rules = self.rules
        self.tables = strain_tables(contract.strain, rules.ta_points, rules.sa_points)
        self._play_table = play_table(
            contract.strain,
            rules.ta_points,
            rules.sa_points,
            rules.partner_winning_exemption,
            rules.must_undertrump,
            rules.overtrump_partner_on_trump_lead,
            rules.lower_trump_under_partner == "all_trumps_only",
        )
        if events:
            out.append(ContractMade(contract.taker, contract))
        out += self._complete(contract, events)
        return out

    def _complete(self, contract: Contract, events: bool = True) -> list[Event]:
        out: list[Event] = []
        if self.final_hands is not None:
            for seat in self.seats:
                new = self.final_hands[seat] & ~self.hands[seat]
                self.hands[seat] = self.final_hands[seat]
                if new and events:
                    out.append(DealCompleted(seat, new))
        elif self.turned is not None:
            self.hands[contract.taker] |= 1 << self.turned
            if events:
                out.append(DealCompleted(contract.taker, 1 << self.turned))
            out += self._deal_round((3,), contract.taker, events)
        rules = self.rules
        if rules.declarations != "off":
            if rules.carre_of_seven_cancels:
                for seat in self.seats:
                    if has_carre_of_sevens(self.hands[seat]):
                        if events:
                            out.append(DealCancelled(seat, "carre of 7s", RANK_MASKS[Rank.SEVEN]))
                        self._finish(void_result("cancelled", len(self.side_names), contract))
                        return out
            carres = carre_points(contract.strain, self.rules.sa_carres)
            for seat in self.seats:
                found = find_declarations(self.hands[seat], contract.strain, carres)
                if found:
                    self.found[seat] = found
        pairs = _BELOTE_PAIRS[contract.strain]
        if pairs:
            for seat in self.seats:
                hand = self.hands[seat]
                for pair in pairs:
                    if hand & pair == pair:
                        self._belote_owner[pair] = seat
                        self._belote_cards |= pair
        nxt = self._next
        first = nxt[self.dealer]
        self.leader = self.dealer if rules.first_lead == "dealer" else first
        if rules.declaration_turn and self.found:
            order = [first]
            while len(order) < rules.players:
                order.append(nxt[order[-1]])
            self.to_declare = [s for s in order if s in self.found]
            self.phase = Phase.DECLARING
            self.current = self.to_declare[0]
            if rules.declarations == "automatic":
                out += self._auto_declare_turn(events)
            return out
        if rules.declarations == "choice" and self.found:
            play_order = [self.leader]
            while len(play_order) < rules.players:
                play_order.append(nxt[play_order[-1]])
            self.to_declare = [s for s in play_order if s in self.found]
        self.phase = Phase.PLAYING
        self.current = self.leader
        return out

    def _auto_declare_turn(self, events: bool = True) -> list[Event]:
        out: list[Event] = []
        while self.phase is Phase.DECLARING:
            assert self.current is not None
            out += self._declare(Declare(self.found[self.current]), events)
        return out

    def _declare(self, action: Declare, events: bool = True) -> list[Event]:
        seat = self.current
        assert seat is not None
        self.to_declare.pop(0)
        out: list[Event] = []
        if action.declarations:
            self.declared.append((seat, action.declarations))
            if events:
                out.append(Declared(seat, action.declarations))
        else:
            # Declining is private: telling the table would reveal that the
            # seat held something to declare.
            self.declined.append(seat)
            if events:
                out.append(Declined(seat))
        if self.phase is Phase.DECLARING:
            if self.to_declare:
                self.current = self.to_declare[0]
            else:
                self.phase = Phase.PLAYING
                self.current = self.leader
        return out

    def _play(self, action: Play, events: bool = True) -> list[Event]:
        seat = self.current
        table = self._play_table
        assert seat is not None and table is not None
        card = action.card
        bit = _BITS[card]
        out: list[Event] = []
        if (
            not self.tricks
            and seat in self.found
            and self.rules.declarations == "automatic"
            and not self.rules.declaration_turn
            and all(s != seat for s, _ in self.declared)
        ):
            found = self.found[seat]
            self.declared.append((seat, found))
            if events:
                out.append(Declared(seat, found))
        belote_cards = self._belote_cards
        if belote_cards and belote_cards & bit:
            pair = self._belote_pair_of(card)
            if self._belote_owner[pair] == seat:
                first = pair not in self.belote_said
                if first:
                    # Said unless the player chose not to, where it is his
                    # choice (seed 001); automatic elsewhere.
                    self.belote_said[pair] = (
                        action.belote is not False or not self.rules.belote_must_be_said
                    )
                if self.belote_said[pair]:
                    word: Literal["belote", "rebelote"] = "belote" if first else "rebelote"
                    self.belotes.append((seat, card, word))
                    if events:
                        out.append(BeloteSaid(seat, card, word))
        self.hands[seat] ^= bit  # the card is in the hand: checked legal
        self.played |= bit
        if events:
            out.append(CardPlayed(seat, card))
        cards = self.trick_cards
        seats = self.trick_seats
        winning = self.winning
        if cards and table.beaters[cards[winning]] & bit:
            winning = self.winning = len(cards)
        cards.append(card)
        seats.append(seat)
        if len(cards) < self._size:
            after = self.current = self._next[seat]
            # The row of the play table for the next player's legal cards.
            row = _SUIT_OF[cards[0]] * 64 + cards[winning] * 2
            if seats[winning] == self._partner_of[after]:
                row += 1
            self._row = table.rows[row]
            return out
        points = sum(map(table.points.__getitem__, cards))
        winner = seats[winning]
        trick = Trick(self.leader, tuple(cards), tuple(seats), winner, points)
        tricks = self.tricks
        tricks.append(trick)
        if events:
            out.append(TrickWon(winner, len(tricks), trick.cards, points))
        self.trick_cards = []
        self.trick_seats = []
        self.winning = 0
        self.leader = winner
        self.current = winner
        if len(tricks) == 8:
            out += self._score(events)
        return out

    def counted_declarations(self) -> tuple[tuple[Declaration, ...], ...]:
        """Per side, the declarations that count: only the side holding the
        best declaration scores, all of its declarations."""
        nsides = 3 if self.rules.players == 3 else 2
        if self.contract is None or not self.declared:
            return ((),) * nsides
        out: list[list[Declaration]] = [[] for _ in range(nsides)]
        by_side = [(self.side_of[s], d) for s, d in self.declared]
        side = best_declaration(
            by_side, self.contract.strain, self.rules.declaration_tie == "first"
        )
        if side is not None:
            for s, decls in by_side:
                if s == side:
                    out[s].extend(decls)
        return tuple(tuple(x) for x in out)

    def _score(self, events: bool = True) -> list[Event]:
        assert self.contract is not None
        holders = []
        said = []
        owners = self._belote_owner
        for pair in sorted(owners) if len(owners) > 1 else owners:
            holders.append(owners[pair])
            said.append(self.belote_said.get(pair, False))
        result = score_deal(
            rules=self.rules,
            contract=self.contract,
            side_of=self.side_of,
            tricks=self.tricks,
            declarations=self.counted_declarations(),
            belote_holders=holders,
            belote_said=said,
        )
        self._finish(result)
        return [DealScored(result)] if events else []

    def _finish(self, result: DealResult) -> None:
        self.result = result
        self.phase = Phase.DONE
        self.current = None

    # ------------------------------------------------------------------ copy

    def copy(self) -> State:
        """An independent copy (the rules and tables are shared: immutable)."""
        other = State.__new__(State)
        for name in State.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            setattr(other, name, value)
        if self.auction is not None:
            other.auction = self.auction.copy()
        return other


BELOTE_FLAGS: tuple[bool | None, ...] = (None, True, False)
"""The values of :attr:`Play.belote`."""

_BELOTE_REASONS = frozenset(
    (
        IllegalReason.BELOTE_AUTOMATIC,
        IllegalReason.BELOTE_DECIDED,
        IllegalReason.BELOTE_NOT_HELD,
    )
)
"""The refusals of a belote word where there is no choice to make."""


def _looks_like_card(word: str) -> bool:
    try:
        parse_card(word)
    except ValueError:
        return False
    return True


_CONTRACT_LIKE = re.compile(r"([0-9]+)(S|H|D|C|SA|TA)", re.IGNORECASE)
"""A contract's shape (``70H``, ``85S``, ``170S``) whatever its value."""


def _not_an_action(text: str) -> str:
    """Why ``text`` is not an action: a contract out of range says the
    range (RULES.md "Coinche": "contracts of 80, 90, ... 160, then capot");
    anything else lists the forms of the actions."""
    shape = _CONTRACT_LIKE.fullmatch(text.strip())
    if shape is not None:
        return (
            f"not a bid: {shown(text)} (a contract is 80 to 160 in tens, then capot: "
            f"80{shape.group(2).upper()} .. 160{shape.group(2).upper()}, "
            f"capot{shape.group(2).upper()})"
        )
    return (
        f"not an action: {shown(text)} (a card like JS or 'QH belote', a bid like pass, take, "
        "H, TA, 80H, capotS, coinche, or 'cut 12', 'deal 3-2', 'declare tierce-KH')"
    )


_PACKET = re.compile(r"0|[1-9][0-9]{0,2}")
"""A cut's packet as :attr:`Cut.text` writes it: ASCII digits, no leading
zero, at most three (``cut 40`` reads, and is refused as out of range)."""


def _parse_setup(text: str, words: list[str]) -> Action:
    """``cut N``, ``deal 3-2`` / ``deal 2-3``; ``declare`` alone is no action.
    Raises :class:`InvalidActionError` for anything else, and for a cut
    whose packet is not a number as ``cut N`` writes it (``cut 012``,
    ``cut ١٢``, a number of thousands of digits)."""
    head = words[0].lower()
    if len(words) == 2:
        arg = words[1]
        if head == "cut":
            if _PACKET.fullmatch(arg):
                return Cut(int(arg))
            raise InvalidActionError(
                f"not a cut: {shown(text)} (cut N: the number of cards lifted, in digits "
                "0-9 without leading zeros, e.g. cut 12, or cut 0 to decline)",
                text=text,
            )
        if head == "deal" and arg in PATTERNS:
            return ChoosePattern(arg)
    raise InvalidActionError(_not_an_action(text), text=text)


def _readable_detail(kind: str, detail: str) -> bool:
    """Whether a declaration's detail (after the dash) reads: none, a rank
    for a carré, a card for a sequence."""
    if not detail:
        return True
    if KIND_NAMES[kind] == "carre":
        return detail.upper() in RANK_SYMBOLS
    return _looks_like_card(detail)
