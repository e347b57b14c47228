"""Each seat's messages, built only from what that seat may know.

The rules core's :func:`~rebelote.observation.observe` decides what a seat
sees; this module turns a seat's :class:`~rebelote.observation.PlayerView`
(plus public match data) into protocol models, and checks every message
against the view before it leaves: :func:`check_visible` raises
:class:`LeakError` when a message names a card the seat cannot know (a card
of another hand, or one still in the pack).  The engine's events are
translated with their private part (the cards dealt to a seat) kept for that
seat alone.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from rebelote import events as ev
from rebelote.actions import Action, Play
from rebelote.cards import CardMask, bit, card_name, cards_of, parse_card
from rebelote.observation import PlayerView, observe
from rebelote.seats import Seat
from rebelote.server.protocol.messages import (
    AllPassedEvent,
    BeloteEvent,
    BidEvent,
    CancelledEvent,
    CardEvent,
    CompletedEvent,
    ContractEvent,
    CutEvent,
    DealtEvent,
    DeclaredEvent,
    DeclinedEvent,
    IllegalCards,
    PatternEvent,
    TrickData,
    TrickEvent,
    TurnData,
    TurnedEvent,
    Waiting,
)
from rebelote.state import State

__all__ = [
    "LeakError",
    "check_visible",
    "event_data",
    "last_trick",
    "legal_texts",
    "public_view",
    "turn_data",
    "view_json",
    "visible_mask",
    "wire_text",
]

log = logging.getLogger(__name__)

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])[SHDC](?![0-9A-Za-z])")
"""A card name standing alone or in a word like ``tierce-KH``."""


class LeakError(AssertionError):
    """A message about to reveal a card its seat may not know (a bug)."""


def visible_mask(view: PlayerView) -> CardMask:
    """The cards ``view``'s seat may know: its hand, every card played, the
    turned card, the cards of declarations made and of belotes said."""
    mask = view.hand | view.played
    if view.turned is not None:
        mask |= bit(view.turned)
    for _, decls in view.declarations:
        for d in decls:
            mask |= d.cards
    for _, card, _ in view.belotes:
        mask |= bit(card)
    return mask


def public_view(state: State) -> PlayerView:
    """What a spectator may know of a deal: the view of a seat with its hand,
    its possible declarations and its legal actions taken out (so the public
    part alone: bids, the turned card, declarations made, belotes said,
    cards played, tricks, hand sizes).  Its ``seat`` is a placeholder: give
    ``spectator=True`` to :func:`event_data`."""
    view = observe(state, state.seats[0])
    return dataclasses.replace(view, hand=0, own_declarations=(), legal=())


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def check_visible(data: BaseModel | Mapping[str, Any] | Sequence[Any], view: PlayerView) -> None:
    """Raise :class:`LeakError` when ``data`` names a card outside
    :func:`visible_mask` (``view``).  Player names must not be passed here:
    they are free text."""
    value = data.model_dump(mode="json") if isinstance(data, BaseModel) else data
    allowed = visible_mask(view)
    for text in _strings(value):
        for match in _CARD_TOKEN.finditer(text):
            card = parse_card(match.group(0))
            if not allowed >> card & 1:
                raise LeakError(
                    f"a message to {view.seat.letter} names {match.group(0)}, which it cannot know"
                )


def _names(mask: CardMask) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def wire_text(action: Action) -> str:
    """An action's text in the protocol: a card's name alone (its belote
    choice travels in ``belote``), else the action's text."""
    return card_name(action.card) if isinstance(action, Play) else action.text


def legal_texts(view: PlayerView) -> tuple[list[str], list[str]]:
    """The seat's legal actions as texts, each once, and the cards that may
    be played with or without belote (both ``Play`` flags legal)."""
    texts: list[str] = []
    seen: set[str] = set()
    doubled: list[str] = []
    for action in view.legal:
        text = wire_text(action)
        if text in seen:
            doubled.append(text)
            continue
        seen.add(text)
        texts.append(text)
    return texts, doubled


def view_json(view: PlayerView) -> dict[str, Any]:
    """:meth:`PlayerView.to_json` with each legal action listed once."""
    out = view.to_json()
    out["legal"] = legal_texts(view)[0]
    return out


def trick_data(view: PlayerView, index: int) -> TrickData:
    """Trick ``index`` (0-based) of ``view`` as :class:`TrickData`."""
    t = view.tricks[index]
    return TrickData(
        number=index + 1,
        leader=t.leader.letter,
        cards=[card_name(c) for c in t.cards],
        seats=[s.letter for s in t.seats],
        winner=t.winner.letter,
        points=t.points,
    )


def last_trick(view: PlayerView) -> TrickData | None:
    """The last finished trick the seat may look at (seed 001), or ``None``."""
    return trick_data(view, len(view.tricks) - 1) if view.tricks else None


def turn_data(
    view: PlayerView,
    *,
    waiting: Waiting | None,
    auto_seats: Iterable[Seat],
    table_actions: Sequence[str] = (),
    agreed: Sequence[str] = (),
    deadline: float | None = None,
    illegal: Sequence[IllegalCards] = (),
) -> TurnData:
    """Who acts, from ``view``; the legal texts only for the seat itself.

    ``waiting``: ``action``, ``next``, ``rematch`` or ``None`` (public table
    data); ``auto_seats``: the seats the server acts for now;
    ``table_actions``: what this seat may send while the table waits
    (``next``, ``rematch``; nothing once it agreed); ``agreed``: the seats
    that agreed (public); ``deadline``: when the next deal starts by itself
    (Unix seconds), if it does; ``illegal``: the cards of the seat's own
    hand it may not play now, with their reasons (the caller builds them
    from the state: :meth:`rebelote.state.State.why_illegal`)."""
    legal, doubled = legal_texts(view)
    if waiting in ("next", "rematch"):
        legal = list(table_actions)
        doubled = []
    current = view.current
    return TurnData(
        seat=None if current is None else current.letter,
        phase=view.phase.value,
        waiting=waiting,
        legal=legal,
        belote_choice=doubled,
        auto=view.seat in set(auto_seats),
        agreed=list(agreed),
        deadline=deadline,
        illegal=list(illegal),
    )


def event_data(
    event: ev.Event, view: PlayerView, *, match: int, deal: int, spectator: bool = False
) -> BaseModel | None:
    """The protocol form of one engine ``event`` for ``view``'s seat (the
    view taken after the action), or ``None`` when the seat is not told
    (another seat's private event; ``scored``, for which the table sends
    ``deal_end``).  The cards dealt to a seat go to that seat only; the
    other seats learn how many.  ``spectator``: the view is
    :func:`public_view`'s, and no event is the viewer's own."""
    seat = "" if event.seat is None else event.seat.letter  # "" fails validation
    common: dict[str, Any] = {"match": match, "deal": deal}
    mine = event.seat == view.seat and not spectator
    dealing = isinstance(event, (ev.Dealt, ev.DealCompleted))
    if event.private and not mine and not dealing:
        return None
    if isinstance(event, ev.PackCut):
        return CutEvent(**common, seat=seat, packet=event.packet)
    if isinstance(event, ev.PatternChosen):
        return PatternEvent(**common, seat=seat, pattern=event.pattern)
    if isinstance(event, (ev.Dealt, ev.DealCompleted)):
        cards = _names(event.cards) if mine else None
        model = DealtEvent if isinstance(event, ev.Dealt) else CompletedEvent
        return model(**common, seat=seat, count=event.cards.bit_count(), cards=cards)
    if isinstance(event, ev.CardTurned):
        assert view.turned is not None
        return TurnedEvent(**common, card=card_name(view.turned))
    if isinstance(event, ev.BidMade):
        return BidEvent(**common, seat=seat, bid=event.bid.text)
    if isinstance(event, ev.AllPassed):
        return AllPassedEvent(**common)
    if isinstance(event, ev.ContractMade):
        contract = view.contract
        assert contract is not None
        return ContractEvent(
            **common,
            seat=contract.taker.letter,
            strain=contract.strain.text,
            value=contract.value,
            multiplier=contract.multiplier,
            text=contract.text,
        )
    if isinstance(event, ev.DealCancelled):
        return CancelledEvent(**common, seat=seat, reason=event.reason)
    if isinstance(event, ev.Declared):
        texts = [d.text for d in event.declarations]
        return DeclaredEvent(**common, seat=seat, declarations=texts, cards=_names(event.cards))
    if isinstance(event, ev.BeloteSaid):
        word: Literal["belote", "rebelote"] = event.word
        return BeloteEvent(**common, seat=seat, card=card_name(event.card), word=word)
    if isinstance(event, ev.CardPlayed):
        return CardEvent(**common, seat=seat, card=card_name(event.card))
    if isinstance(event, ev.TrickWon):
        return TrickEvent(**common, trick=trick_data(view, event.number - 1))
    if isinstance(event, ev.Declined):
        return DeclinedEvent(**common, seat=seat)
    if isinstance(event, ev.DealScored):
        return None
    log.warning("engine event %r is not part of the protocol; not sent", event.kind)
    return None
