"""Typed events: what :meth:`rebelote.state.State.apply` reports, one frozen
dataclass per kind, each with :meth:`Event.to_json` and
:meth:`Event.from_json`.

Every event has ``seat`` (who acted or was served; ``None`` for
:class:`CardTurned`, :class:`AllPassed`, :class:`DealScored` and
:class:`MatchEnded`), the class
constant ``kind`` (its name in JSON) and the class constant ``private``:
a private event may be shown to its ``seat`` only (the cards dealt to him;
declining to declare, which would tell the table he held something).

In the order of a deal:

=====================  ===============  =====================================
class                  ``kind``         fields
=====================  ===============  =====================================
:class:`PackCut`       ``cut``          ``seat`` (the cutter), ``packet``
:class:`PatternChosen` ``pattern``      ``seat`` (the dealer), ``pattern``
:class:`Dealt`         ``dealt``        ``seat``, ``cards`` (private)
:class:`CardTurned`    ``turned``       ``card``
:class:`BidMade`       ``bid``          ``seat``, ``bid``
:class:`AllPassed`     ``all_passed``
:class:`ContractMade`  ``contract``     ``seat`` (the taker), ``contract``
:class:`DealCompleted` ``completed``    ``seat``, ``cards`` (private)
:class:`DealCancelled` ``cancelled``    ``seat``, ``reason``, ``cards``
:class:`Declared`      ``declared``     ``seat``, ``declarations``
:class:`Declined`      ``declined``     ``seat`` (private)
:class:`BeloteSaid`    ``belote_said``  ``seat``, ``card``, ``word``
:class:`CardPlayed`    ``played``       ``seat``, ``card``
:class:`TrickWon`      ``trick_won``    ``seat`` (the winner), ``number``,
                                        ``cards`` (in play order), ``points``
:class:`DealScored`    ``deal_scored``  ``result``
:class:`MatchEnded`    ``match_ended``  ``winner`` (a side), ``totals`` (per
                                        side), ``target``, ``deals``
=====================  ===============  =====================================

:class:`MatchEnded` is the match's (:meth:`rebelote.match.Match.add`, when a
side reaches the target), not a deal's: :meth:`State.apply
<rebelote.state.State.apply>` never returns it.

JSON: seats as letters, cards as names (``10H``), card masks as lists of
names in card order, a bid as its text, a contract as ``{"taker", "strain",
"value", "multiplier"}``, a declaration as ``{"kind", "cards", "top",
"points"}``, a deal result as its fields, a side as its index (0 NS, 1 EW;
in the three-player game 0 W, 1 S, 2 E, as in a deal result).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .actions import Bid, parse_bid
from .auction import Contract
from .cards import Card, CardMask, card_name, cards_of, parse_card
from .declarations import Declaration
from .scoring import DealResult
from .seats import Seat
from .trump import Strain

__all__ = [
    "AllPassed",
    "BeloteSaid",
    "BidMade",
    "CardPlayed",
    "CardTurned",
    "ContractMade",
    "DealCancelled",
    "DealCompleted",
    "DealScored",
    "Dealt",
    "Declared",
    "Declined",
    "Event",
    "EventError",
    "MatchEnded",
    "PackCut",
    "PatternChosen",
    "TrickWon",
]


class EventError(ValueError):
    """A JSON object that is no event: unknown ``kind``, a missing or
    unreadable field."""


class Event:
    """The base of every event (an abstract class: build its subclasses)."""

    __slots__ = ()

    kind: ClassVar[str]
    """The event's name in JSON."""

    private: ClassVar[bool] = False
    """Whether only ``seat`` may see the event."""

    seat: Seat | None
    """The seat that acted or was served, if any."""

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., field: value, ...}``, JSON-ready (see the module)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = _CODECS[f.type][0](getattr(self, f.name))
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        """The event of :meth:`to_json`'s object.  Raises :class:`EventError`."""
        if not isinstance(data, Mapping):
            raise EventError("an event must be a JSON object")
        cls = EVENT_TYPES.get(data.get("kind"))  # type: ignore[arg-type]
        if cls is None:
            raise EventError(f"unknown event kind {data.get('kind')!r}")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name not in data:
                if f.default is dataclasses.MISSING:
                    raise EventError(f"event {cls.kind!r} needs {f.name!r}")
                continue
            try:
                values[f.name] = _CODECS[f.type][1](data[f.name])
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise EventError(f"event {cls.kind!r}: bad {f.name!r}: {exc}") from None
        return cls(**values)


@dataclass(frozen=True, slots=True)
class PackCut(Event):
    """The cutter lifted ``packet`` cards (0: he declined, seed 000)."""

    kind: ClassVar[str] = "cut"
    seat: Seat
    packet: int


@dataclass(frozen=True, slots=True)
class PatternChosen(Event):
    """The dealer deals ``pattern`` (``3-2`` or ``2-3``) first."""

    kind: ClassVar[str] = "pattern"
    seat: Seat
    pattern: str


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """``cards`` (a mask) were dealt to ``seat`` in the first distribution or
    the last round of the completion (private)."""

    kind: ClassVar[str] = "dealt"
    private: ClassVar[bool] = True
    seat: Seat
    cards: CardMask


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """The dealer turned ``card`` up (classic games)."""

    kind: ClassVar[str] = "turned"
    card: Card
    seat: None = None


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """``seat`` made ``bid``."""

    kind: ClassVar[str] = "bid"
    seat: Seat
    bid: Bid


@dataclass(frozen=True, slots=True)
class AllPassed(Event):
    """Everyone passed: the deal is void (``passed``)."""

    kind: ClassVar[str] = "all_passed"
    seat: None = None


@dataclass(frozen=True, slots=True)
class ContractMade(Event):
    """The auction ended on ``contract``; ``seat`` is its taker."""

    kind: ClassVar[str] = "contract"
    seat: Seat
    contract: Contract


@dataclass(frozen=True, slots=True)
class DealCompleted(Event):
    """``cards`` (a mask) completed ``seat``'s hand after the auction: the
    turned card to the taker, or a hand given whole (private)."""

    kind: ClassVar[str] = "completed"
    private: ClassVar[bool] = True
    seat: Seat
    cards: CardMask


@dataclass(frozen=True, slots=True)
class DealCancelled(Event):
    """``seat`` holds ``cards`` that cancel the deal (``reason`` ``carre of
    7s``, seed 001: "Un carré de 7 annule la partie")."""

    kind: ClassVar[str] = "cancelled"
    seat: Seat
    reason: str
    cards: CardMask


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """``seat`` declared ``declarations`` (made for him where they are
    automatic, seed 003)."""

    kind: ClassVar[str] = "declared"
    seat: Seat
    declarations: tuple[Declaration, ...]

    @property
    def cards(self) -> CardMask:
        """The cards of the declarations, as a mask."""
        mask = 0
        for d in self.declarations:
            mask |= d.cards
        return mask


@dataclass(frozen=True, slots=True)
class Declined(Event):
    """``seat`` chose to declare nothing (private: telling the table would
    reveal that he held something to declare)."""

    kind: ClassVar[str] = "declined"
    private: ClassVar[bool] = True
    seat: Seat


@dataclass(frozen=True, slots=True)
class BeloteSaid(Event):
    """``seat`` said ``word`` (``belote`` with the first card of the pair,
    ``rebelote`` with the second) playing ``card``."""

    kind: ClassVar[str] = "belote_said"
    seat: Seat
    card: Card
    word: Literal["belote", "rebelote"]


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card``."""

    kind: ClassVar[str] = "played"
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``seat`` won trick ``number`` (1-8) of ``cards`` (in play order), worth
    ``points`` card points (without the dix de der)."""

    kind: ClassVar[str] = "trick_won"
    seat: Seat
    number: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The deal is over and scored: ``result`` (its score in
    ``result.score``)."""

    kind: ClassVar[str] = "deal_scored"
    result: DealResult
    seat: None = None


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over: side ``winner`` reached the ``target`` first (or
    with the higher total, both sides reaching it in the same deal; seed
    000, seed 001), the final ``totals`` per side, after ``deals`` deals
    (void ones included)."""

    kind: ClassVar[str] = "match_ended"
    winner: int
    totals: tuple[int, ...]
    target: int
    deals: int
    seat: None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        PackCut,
        PatternChosen,
        Dealt,
        CardTurned,
        BidMade,
        AllPassed,
        ContractMade,
        DealCompleted,
        DealCancelled,
        Declared,
        Declined,
        BeloteSaid,
        CardPlayed,
        TrickWon,
        DealScored,
        MatchEnded,
    )
}
"""Every event class by its ``kind``."""


# ------------------------------------------------------------------ JSON codecs


def _mask_json(mask: CardMask) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _mask_read(names: list[str]) -> CardMask:
    if not isinstance(names, list):
        raise TypeError("a list of cards is needed")
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def _seat_read(letter: str) -> Seat:
    return Seat[letter]


def _none_read(value: None) -> None:
    if value is not None:
        raise ValueError("must be null")
    return None


def _int_read(value: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("a whole number is needed")
    return value


def _str_read(value: str) -> str:
    if not isinstance(value, str):
        raise TypeError("a text is needed")
    return value


def _word_read(value: str) -> Literal["belote", "rebelote"]:
    if value == "belote":
        return "belote"
    if value == "rebelote":
        return "rebelote"
    raise ValueError("belote or rebelote")


def contract_json(contract: Contract) -> dict[str, Any]:
    """``{"taker": "N", "strain": "H", "value": null, "multiplier": 1}``."""
    return {
        "taker": contract.taker.letter,
        "strain": contract.strain.text,
        "value": contract.value,
        "multiplier": contract.multiplier,
    }


def contract_from_json(data: Mapping[str, Any]) -> Contract:
    """The contract of :func:`contract_json`'s object."""
    value = data["value"]
    return Contract(
        Seat[data["taker"]],
        Strain.parse(data["strain"]),
        None if value is None else _int_read(value),
        _int_read(data["multiplier"]),
    )


def declaration_json(declaration: Declaration) -> dict[str, Any]:
    """``{"kind": "tierce", "cards": ["JH", "QH", "KH"], "top": "KH", "points": 20}``."""
    return {
        "kind": declaration.kind,
        "cards": _mask_json(declaration.cards),
        "top": card_name(declaration.top),
        "points": declaration.points,
    }


def declaration_from_json(data: Mapping[str, Any]) -> Declaration:
    """The declaration of :func:`declaration_json`'s object."""
    return Declaration(
        _str_read(data["kind"]),
        _mask_read(data["cards"]),
        parse_card(data["top"]),
        _int_read(data["points"]),
    )


def _opt_int(value: int | None) -> int | None:
    return None if value is None else _int_read(value)


def _ints(values: list[int]) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise TypeError("a list of whole numbers is needed")
    return tuple(_int_read(v) for v in values)


def result_json(result: DealResult) -> dict[str, Any]:
    """A :class:`~rebelote.scoring.DealResult` as JSON: its fields, the
    contract as :func:`contract_json`, declarations as
    :func:`declaration_json` per side."""
    return {
        "result": result.result,
        "contract": None if result.contract is None else contract_json(result.contract),
        "card_points": list(result.card_points),
        "dix_de_der": result.dix_de_der,
        "declarations": [[declaration_json(d) for d in side] for side in result.declarations],
        "belote": list(result.belote),
        "belote_points": list(result.belote_points),
        "capot": result.capot,
        "solo_capot": result.solo_capot,
        "score": list(result.score),
        "held_over": result.held_over,
        "winner": result.winner,
    }


def result_from_json(data: Mapping[str, Any]) -> DealResult:
    """The deal result of :func:`result_json`'s object."""
    contract = data["contract"]
    kind = data["result"]
    if kind not in ("made", "capot", "dedans", "litige", "passed", "cancelled"):
        raise ValueError(f"unknown result {kind!r}")
    solo = data["solo_capot"]
    if not isinstance(solo, bool):
        raise TypeError("solo_capot must be true or false")
    return DealResult(
        kind,
        None if contract is None else contract_from_json(contract),
        _ints(data["card_points"]),
        _opt_int(data["dix_de_der"]),
        tuple(tuple(declaration_from_json(d) for d in side) for side in data["declarations"]),
        _ints(data["belote"]),
        _ints(data["belote_points"]),
        _opt_int(data["capot"]),
        solo,
        _ints(data["score"]),
        _int_read(data["held_over"]),
        _opt_int(data["winner"]),
    )


def _identity(value: Any) -> Any:
    return value


_CODECS: dict[Any, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "Seat": (lambda s: s.letter, _seat_read),
    "None": (_identity, _none_read),
    "int": (_identity, _int_read),
    "str": (_identity, _str_read),
    "Card": (card_name, parse_card),
    "CardMask": (_mask_json, _mask_read),
    "tuple[Card, ...]": (
        lambda cards: [card_name(c) for c in cards],
        lambda names: tuple(parse_card(n) for n in names),
    ),
    "tuple[int, ...]": (list, _ints),
    "Bid": (lambda b: b.text, parse_bid),
    "Contract": (contract_json, contract_from_json),
    "tuple[Declaration, ...]": (
        lambda ds: [declaration_json(d) for d in ds],
        lambda items: tuple(declaration_from_json(d) for d in items),
    ),
    "Literal['belote', 'rebelote']": (_identity, _word_read),
    "DealResult": (result_json, result_from_json),
}
"""Per field type (as annotated): the JSON encoder and decoder."""
