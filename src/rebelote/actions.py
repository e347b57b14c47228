"""Frozen actions a player takes, with their text forms.

- :class:`Cut`: the cutter lifts ``packet`` cards (0: declines, where allowed).
- :class:`ChoosePattern`: the dealer deals ``3-2``, ``2-3`` or (coinche)
  ``3-3-2``.
- :class:`Bid`: every bid of every auction, in the notation of RULES.md:
  ``pass``, ``take`` (round one), ``S H D C`` (round two), ``TA`` ``SA``
  (seed 000's Tout Atout / Sans Atout), ``80H`` .. ``160S``, ``capotD``,
  ``90TA`` (coinche), ``coinche``, ``surcoinche``.
- :class:`Declare`: the declarations a player makes (possibly none).
- :class:`Play`: a card, and whether its holder says belote with it.

Every action has one text form (:attr:`text`), which
:meth:`rebelote.state.State.parse_action` reads back to the same action:
``cut 12``, ``deal 3-2``, the bids, ``declare tierce-KH carre-J`` or
``declare none``, ``JS``, and where the player chooses whether to say belote
(seed 001) ``QH belote`` or ``QH no-belote``.  Reading is case-insensitive
and ignores extra spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .cards import Card, card_name, parse_card
from .declarations import Declaration
from .trump import Strain

__all__ = [
    "CAPOT_VALUE",
    "Action",
    "ActionError",
    "Bid",
    "BidKind",
    "ChoosePattern",
    "Cut",
    "Declare",
    "InvalidActionError",
    "Play",
    "parse_bid",
    "shown",
]

CAPOT_VALUE = 250
"""The value of a capot contract in coinche (above 160)."""

BidKind = Literal["pass", "take", "strain", "contract", "coinche", "surcoinche"]


class ActionError(ValueError):
    """An action refused or unreadable; the state is unchanged.  Base of
    :class:`InvalidActionError` and of
    :class:`~rebelote.state.IllegalActionError` and
    :class:`~rebelote.state.AmbiguousActionError`."""


SHOWN_CHARS = 40
"""The longest part of a text an error message quotes (:func:`shown`)."""


def shown(text: str) -> str:
    """``text`` quoted for an error message: as it is up to
    :data:`SHOWN_CHARS` characters, else its start and its length
    (``'cut 99999…' (5004 characters)``)."""
    if len(text) <= SHOWN_CHARS:
        return repr(text)
    return f"{text[:SHOWN_CHARS]!r}… ({len(text)} characters)"


class InvalidActionError(ActionError):
    """A text that is no action of the game (``hello``, ``cut x``, ``85H``,
    ``QH maybe``, ``declare sixte``).  ``text``: the text read; ``kind``:
    ``not_an_action``, or ``bid_out_of_range`` for a contract's shape with a
    value no auction has (``70H``, ``85S``, ``170S``: contracts are 80 to
    160 in tens, then capot)."""

    def __init__(self, message: str, *, text: str, kind: str = "not_an_action") -> None:
        super().__init__(message)
        self.text = text
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Cut:
    """Cut the pack: the top ``packet`` cards go under the rest (0 = no cut)."""

    packet: int

    @property
    def text(self) -> str:
        """``cut 12`` or ``cut 0``."""
        return f"cut {self.packet}"


@dataclass(frozen=True, slots=True)
class ChoosePattern:
    """The dealer's first distribution: ``3-2`` or ``2-3`` (in coinche
    3-2-3 and 2-3-3), or ``3-3-2`` (coinche, FFB 2015).  See
    :attr:`~rebelote.rules.Rules.patterns`."""

    pattern: str

    @property
    def text(self) -> str:
        """``deal 3-2``."""
        return f"deal {self.pattern}"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid.  ``kind`` is one of:

    - ``pass``; ``take`` (the turned card's suit, round one);
    - ``strain``: a suit named in round two, or ``TA`` / ``SA`` (seed 000);
    - ``contract``: coinche, ``value`` 80..160 by tens or 250 (capot) with a
      ``strain``;
    - ``coinche`` (double) and ``surcoinche`` (redouble).
    """

    kind: BidKind
    strain: Strain | None = None
    value: int | None = None

    @property
    def text(self) -> str:
        """The bid in record notation: ``pass``, ``take``, ``H``, ``TA``,
        ``80H``, ``capotD``, ``coinche``, ``surcoinche``."""
        if self.kind == "strain":
            assert self.strain is not None
            return self.strain.text
        if self.kind == "contract":
            assert self.strain is not None and self.value is not None
            amount = "capot" if self.value == CAPOT_VALUE else str(self.value)
            return f"{amount}{self.strain.text}"
        return self.kind

    def __str__(self) -> str:
        return self.text


_CONTRACT = re.compile(r"([1-9][0-9]{1,2})(TA|SA|S|H|D|C)")
"""A contract bid as :attr:`Bid.text` writes it (upper case): its value in
ASCII digits with no leading zero (not ``080H``, nor 80 in Arabic-Indic
or full-width digits), then its strain."""

PASS = Bid("pass")
TAKE = Bid("take")


def parse_bid(text: str) -> Bid:
    """Read a bid in record notation (case-insensitive), a contract's
    value as :attr:`Bid.text` writes it: ASCII digits, no leading zero
    (``80H``, not ``080H`` nor 80 in other digits than 0-9).

    Raises ``ValueError`` when the text is no bid of any auction.
    """
    t = text.strip()
    low = t.lower()
    if low in ("pass", "take", "coinche", "surcoinche"):
        return Bid(low)  # type: ignore[arg-type]
    up = t.upper()
    if up in ("S", "H", "D", "C", "TA", "SA"):
        return Bid("strain", Strain[up])
    for amount_text, value in (("CAPOT", CAPOT_VALUE),):
        if up.startswith(amount_text) and up[len(amount_text) :] in Strain.__members__:
            return Bid("contract", Strain[up[len(amount_text) :]], value)
    contract = _CONTRACT.fullmatch(up)
    if contract is not None:
        value = int(contract[1])
        if 80 <= value <= 160 and value % 10 == 0:
            return Bid("contract", Strain[contract[2]], value)
    raise ValueError(
        f"not a bid: {shown(text)} (pass, take, S/H/D/C, TA, SA, 80H..160H, capotH, coinche, "
        "surcoinche)"
    )


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarations a player makes (an empty tuple: declares nothing)."""

    declarations: tuple[Declaration, ...]

    @property
    def text(self) -> str:
        """``declare tierce-KH carre-J`` or ``declare none``."""
        body = " ".join(d.text for d in self.declarations) or "none"
        return f"declare {body}"


BELOTE_WORDS: dict[str, bool] = {"belote": True, "no-belote": False}
"""The words after a card that say whether its holder says belote."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``.

    ``belote`` is the holder's choice to say belote with the first card he
    plays of a king-queen pair of trump, where belote counts only if said
    (``Rules.belote_must_be_said``, seed 001: "sans annonce la belote n'est
    pas comptabilisée"): ``True`` says it (text ``QH belote``), ``False``
    does not (``QH no-belote``).  Everywhere else there is no choice, and
    the legal action is ``Play(card)`` (``belote`` ``None``, text ``QH``):
    belote, where held, is then said as the rules read it (automatically, or
    as decided with the first card of the pair).
    """

    card: Card
    belote: bool | None = None

    @property
    def text(self) -> str:
        """``JS``; ``QH belote`` or ``QH no-belote`` with a belote choice."""
        if self.belote is None:
            return card_name(self.card)
        return f"{card_name(self.card)} {'belote' if self.belote else 'no-belote'}"

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read ``JS``, ``QH belote`` or ``QH no-belote`` (case-insensitive),
        whether legal or not.  Raises :class:`InvalidActionError`."""
        words = text.split()
        try:
            card = parse_card(words[0]) if words else None
        except ValueError:
            card = None
        if card is None or len(words) > 2:
            raise InvalidActionError(
                f"not a card: {shown(text)} (write rank then suit, e.g. 10H, JS; "
                "then 'belote' or 'no-belote' where that is the choice)",
                text=text,
            )
        if len(words) == 1:
            return cls(card)
        flag = BELOTE_WORDS.get(words[1].lower())
        if flag is None:
            raise InvalidActionError(
                f"not a card: {shown(text)}: after the card, write 'belote' or 'no-belote'",
                text=text,
            )
        return cls(card, flag)


Action: TypeAlias = Cut | ChoosePattern | Bid | Declare | Play
"""Any action of a deal."""
