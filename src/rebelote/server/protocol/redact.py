"""Each seat's messages, built only from what that seat may know.

The rules core's :func:`~rebelote.observation.observe` decides what a seat
sees; this module turns a seat's :class:`~rebelote.observation.PlayerView`
(plus public match data) into protocol models for snapshots, and checks
every message against what its seat may know before it leaves
(:class:`LeakError` when a message names a card of another hand, or one
still in the pack).

The live stream is built once per *viewer class*, not per seat
(:func:`event_wire`, :func:`turn_wire`): an event's public part (what every
seat and the spectators are told) once, its private part (the cards dealt
to a seat, a seat declining to declare, a seat's legal actions) only for
the seat that may see it; each as a
:class:`~rebelote.server.protocol.messages.WireData` dumped to JSON once.
Their leak check (:func:`check_wire`) reads the card names of that JSON
text once and compares them, as a card mask, with the cards the viewers
may know (:func:`public_mask` for a public part: what everyone knows;
:func:`seat_mask` for a seat's private part).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from rebelote import events as ev
from rebelote.actions import Action, Play
from rebelote.cards import CardMask, bit, card_name, cards_of, parse_card
from rebelote.observation import (
    PlayerView,
    declarations_resolved,
    observe,
    public_declaration_cards,
    shown_declarations,
)
from rebelote.seats import Seat
from rebelote.server.protocol.messages import IllegalCards, TrickData, Waiting, WireData
from rebelote.state import State
from rebelote.tricks import Trick

__all__ = [
    "LeakError",
    "check_visible",
    "check_wire",
    "event_wire",
    "last_trick",
    "legal_texts",
    "named_cards",
    "public_mask",
    "public_view",
    "seat_mask",
    "shown_wire",
    "turn_wire",
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
    turned card, the cards of the declarations it knows in full (its own,
    the winning side's once shown) and of belotes said."""
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
    return dataclasses.replace(
        view,
        hand=0,
        own_declarations=(),
        legal=(),
        declarations=shown_declarations(state),
    )


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
    return _legal_texts(view.legal)


def _legal_texts(legal: Iterable[Action]) -> tuple[list[str], list[str]]:
    texts: list[str] = []
    seen: set[str] = set()
    doubled: list[str] = []
    for action in legal:
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


def _trick_json(trick: Trick, number: int) -> dict[str, Any]:
    """A finished trick as :class:`TrickData`'s JSON (``number``: 1-based)."""
    return {
        "number": number,
        "leader": trick.leader.letter,
        "cards": [card_name(c) for c in trick.cards],
        "seats": [s.letter for s in trick.seats],
        "winner": trick.winner.letter,
        "points": trick.points,
    }


def last_trick(view: PlayerView) -> TrickData | None:
    """The last finished trick the seat may look at (seed 001), or ``None``."""
    return trick_data(view, len(view.tricks) - 1) if view.tricks else None


_CARD_NAME = re.compile(r"(?<![0-9A-Za-z])(?:10|[789JQKA])[SHDC](?![0-9A-Za-z])")
"""A card name standing alone or in a word like ``tierce-KH`` (as
:data:`_CARD_TOKEN`, without a group)."""

_CARD_BITS: dict[str, CardMask] = {card_name(c): bit(c) for c in range(32)}
"""Each card name's bit."""


def named_cards(text: str) -> CardMask:
    """The cards a message's JSON ``text`` names anywhere (values or keys,
    alone or in a word like ``tierce-KH``), as a mask."""
    mask = 0
    for name in _CARD_NAME.findall(text):
        mask |= _CARD_BITS[name]
    return mask


def public_mask(state: State) -> CardMask:
    """The cards everyone may know now (a spectator's :func:`visible_mask`):
    every card played, the turned card, the cards of the declarations the
    core says are shown (:func:`~rebelote.observation.public_declaration_cards`:
    the winning side's, once resolved) and of belotes said."""
    mask = state.played | public_declaration_cards(state)
    if state.turned is not None:
        mask |= bit(state.turned)
    for _, card, _ in state.belotes:
        mask |= bit(card)
    return mask


def seat_mask(state: State, seat: Seat, public: CardMask | None = None) -> CardMask:
    """The cards ``seat`` may know now (:func:`visible_mask` of its view):
    :func:`public_mask` (given as ``public`` when known), its hand and the
    cards of its own declarations (played ones included)."""
    mask = (public_mask(state) if public is None else public) | state.hands[seat]
    for s, decls in state.declared:
        if s == seat:
            for d in decls:
                mask |= d.cards
    return mask


def shown_wire(state: State, resolved_before: bool, *, match: int, deal: int) -> WireData | None:
    """The public ``shown`` event when the last action resolved the
    declarations (``resolved_before``: :func:`~rebelote.observation.declarations_resolved`
    before it; the core decides when, FFB coinche 2015 8.3, seed 000), else
    ``None``.  Its data: ``declarations``, each ``[seat, [texts], [cards]]``
    of the winning side (the cards it shows; empty when no side scores, a
    tie), and ``side``: the scoring side's seats (``[]`` on a tie).  Sent
    only when someone declared."""
    if resolved_before or not state.declared or not declarations_resolved(state):
        return None
    shown = shown_declarations(state)
    return WireData(
        {
            "match": match,
            "deal": deal,
            "kind": "shown",
            "declarations": [
                [
                    s.letter,
                    [d.text for d in ds],
                    [card_name(c) for d in ds for c in cards_of(d.cards)],
                ]
                for s, ds in shown
            ],
            "side": sorted({s.letter for s, _ in shown}),
        }
    )


def check_wire(data: WireData, allowed: CardMask, who: str) -> None:
    """Raise :class:`LeakError` when the JSON text of ``data`` names a card
    outside ``allowed`` (:func:`public_mask` for a part everyone gets,
    :func:`seat_mask` for one seat's; ``who`` names the viewers in the
    error).  The names are read once per ``data`` (kept in ``data.cards``).
    Player names must not be passed here: they are free text."""
    named = data.cards
    if named is None:
        named = data.cards = named_cards(data.text)
    hidden = named & ~allowed
    if hidden:
        names = " ".join(card_name(c) for c in cards_of(hidden))
        raise LeakError(f"a message to {who} names {names}, which it cannot know")


def event_wire(
    event: ev.Event, state: State, *, match: int, deal: int
) -> tuple[WireData | None, WireData | None]:
    """The protocol form of one engine ``event`` (``state``: the deal after
    the action that caused it) for its two viewer classes: ``(public,
    own)``, ``public`` for every seat but the event's own and for the
    spectators, ``own`` for the event's seat (``None``: the same as
    ``public``).  ``public`` is ``None`` when the others are not told (a
    private event, ``scored``: the table sends ``deal_end``).  The cards
    dealt to a seat go to that seat only; the others learn how many.  The
    data are those of the event models of
    :mod:`~rebelote.server.protocol.messages` (same fields, same order)."""
    kind: str
    seat = None if event.seat is None else event.seat.letter
    fields: dict[str, Any]
    if isinstance(event, ev.CardPlayed):
        kind, fields = "card", {"seat": seat, "card": card_name(event.card)}
    elif isinstance(event, ev.TrickWon):
        kind = "trick"
        fields = {"trick": _trick_json(state.tricks[event.number - 1], event.number)}
    elif isinstance(event, ev.BidMade):
        assert state.auction is not None
        # the bid is the auction's last: one action, one bid
        kind = "bid"
        fields = {"seat": seat, "bid": event.bid.text, "round": state.auction.rounds[-1]}
    elif isinstance(event, (ev.Dealt, ev.DealCompleted)):
        kind = "dealt" if isinstance(event, ev.Dealt) else "completed"
        count = event.cards.bit_count()
        head = {"match": match, "deal": deal, "kind": kind, "seat": seat, "count": count}
        cards = [card_name(c) for c in cards_of(event.cards)]
        return WireData({**head, "cards": None}), WireData({**head, "cards": cards})
    elif isinstance(event, ev.Declined):
        own = {"match": match, "deal": deal, "kind": "declined", "seat": seat}
        return None, WireData(own)
    elif isinstance(event, ev.DealScored):
        return None, None
    elif event.private:
        log.warning("private engine event %r is not part of the protocol; not sent", event.kind)
        return None, None
    elif isinstance(event, ev.PackCut):
        kind, fields = "cut", {"seat": seat, "packet": event.packet}
    elif isinstance(event, ev.PatternChosen):
        kind, fields = "pattern", {"seat": seat, "pattern": event.pattern}
    elif isinstance(event, ev.CardTurned):
        assert state.turned is not None
        kind, fields = "turned", {"card": card_name(state.turned)}
    elif isinstance(event, ev.AllPassed):
        kind, fields = "all_passed", {"then": state.rules.all_pass}
    elif isinstance(event, ev.ContractMade):
        contract = state.contract
        assert contract is not None
        kind = "contract"
        fields = {
            "seat": contract.taker.letter,
            "strain": contract.strain.text,
            "value": contract.value,
            "multiplier": contract.multiplier,
            "text": contract.text,
        }
    elif isinstance(event, ev.DealCancelled):
        kind, fields = "cancelled", {"seat": seat, "reason": event.reason}
    elif isinstance(event, ev.Declared):
        # the table hears the nature alone (FFB coinche 2015, 8.2); the
        # declarer's own part names its declarations and cards; the cards of
        # the winning side follow in ``shown`` (:func:`shown_wire`)
        head = {"match": match, "deal": deal, "kind": "declared", "seat": seat}
        natures = [d.kind for d in event.declarations]
        own_fields = {
            "declarations": [d.text for d in event.declarations],
            "cards": [card_name(c) for c in cards_of(event.cards)],
        }
        return (
            WireData({**head, "declarations": natures, "cards": []}),
            WireData({**head, **own_fields}),
        )
    elif isinstance(event, ev.BeloteSaid):
        word: Literal["belote", "rebelote"] = event.word
        kind, fields = "belote", {"seat": seat, "card": card_name(event.card), "word": word}
    else:
        log.warning("engine event %r is not part of the protocol; not sent", event.kind)
        return None, None
    return WireData({"match": match, "deal": deal, "kind": kind, **fields}), None


def turn_wire(
    state: State,
    keys: Sequence[Seat | None],
    *,
    match: int,
    deal: int,
    waiting: Waiting | None,
    auto_seats: Iterable[Seat],
    table_actions: Mapping[Seat, Sequence[str]],
    agreed: Sequence[str] = (),
    deadline: float | None = None,
    illegal: Callable[[Seat], Sequence[IllegalCards]] | None = None,
    takeback: Callable[[Seat], bool] | None = None,
) -> dict[Seat | None, WireData]:
    """The ``turn`` data of each of ``keys`` (seats, ``None`` for the
    spectators): who acts, from ``state``; the legal texts only for the
    seat to act.  Seats told the same share one :class:`WireData`.

    ``waiting``: ``action``, ``next``, ``rematch`` or ``None`` (public table
    data); ``auto_seats``: the seats the server acts for now;
    ``table_actions``: what each seat may send while the table waits
    (``next``, ``rematch``; absent once it agreed); ``agreed``: the seats
    that agreed (public); ``deadline``: when the next deal starts by itself
    (Unix seconds), if it does; ``illegal``: the cards of a seat's own
    hand it may not play now, with their reasons (the caller builds them
    from the state: :meth:`rebelote.state.State.why_illegal`; ``None``:
    none); ``takeback``: whether a seat may take back its last card or bid
    now (the table decides; ``None``: nobody).  The fields are those of
    :class:`~rebelote.server.protocol.messages.TurnEvent`, in its order."""
    current = state.current
    head = {
        "seat": None if current is None else current.letter,
        "phase": state.phase.value,
        "waiting": waiting,
    }
    tail = {"match": match, "deal": deal, "kind": "turn"}
    autos = set(auto_seats)
    table_wait = waiting in ("next", "rematch")
    shared: dict[tuple[tuple[str, ...], tuple[str, ...], bool, str, bool], WireData] = {}
    out: dict[Seat | None, WireData] = {}
    agreed_list = list(agreed)
    for key in keys:
        legal: Sequence[str] = ()
        doubled: Sequence[str] = ()
        if table_wait:
            if key is not None:
                legal = tuple(table_actions.get(key, ()))
        elif key is not None and key == current:
            legal, doubled = _legal_texts(state.legal_actions())
        auto = key is not None and key in autos
        reasons = [] if key is None or illegal is None else [g.model_dump() for g in illegal(key)]
        back = key is not None and takeback is not None and takeback(key)
        shape = (tuple(legal), tuple(doubled), auto, repr(reasons) if reasons else "", back)
        data = shared.get(shape)
        if data is None:
            data = shared[shape] = WireData(
                {
                    **head,
                    "legal": list(legal),
                    "belote_choice": list(doubled),
                    "auto": auto,
                    "agreed": agreed_list,
                    "deadline": deadline,
                    "illegal": reasons,
                    "takeback": back,
                    **tail,
                }
            )
        out[key] = data
    return out
