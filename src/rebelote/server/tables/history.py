"""Finished deals of a table: the replay viewer's data and exports in the
rules core's record format.

Both are rebuilt from the stored log (the truth): the log is replayed and
each finished deal's final :class:`~rebelote.state.State` kept.  Only
finished deals are given, with every hand (they are over); the deal in
progress never is, and neither is, while its match goes on, a deal whose
hands were never shown at the table: thrown in (everyone passed) or
cancelled before its cards were played (:func:`shown_deals`).  An export
is a deal record or a match record (:mod:`rebelote.record`, format 1) that
``rebelote replay`` reads.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from rebelote.cards import CardSet, card_name
from rebelote.record import FORMAT, deal_summary, state_to_record
from rebelote.seats import Seat
from rebelote.server.storage.tables import StoredTable
from rebelote.server.tables.game import Entry, EntryKind
from rebelote.server.tables.table import game_from_stored
from rebelote.state import State

__all__ = [
    "ReplayBase",
    "deal_record",
    "finished_deals",
    "match_record",
    "replay_base",
    "replay_data",
    "shown_deals",
]

HIDDEN_RESULTS = frozenset({"passed", "cancelled"})
"""Deal results whose cards were not all played face up."""


def finished_deals(stored: StoredTable) -> list[tuple[int, int, State]]:
    """``(match, deal, state)`` of every finished deal of the table."""
    game, _ = game_from_stored(stored, keep_deals=True)
    return list(game.finished or [])


def shown_deals(stored: StoredTable) -> list[tuple[int, int, State]]:
    """The finished deals anyone may read now: every deal of a match that
    is over (or of a table everyone left), and of the match going on only
    the deals played out (their cards were all seen at the table), not
    one thrown in or cancelled (its hands, and the pack's order, were
    never shown)."""
    game, _ = game_from_stored(stored, keep_deals=True)
    live = None if stored.status == "closed" or game.status != "playing" else game.match_number
    return [
        (m, d, state)
        for m, d, state in game.finished or []
        if m != live or state.result is None or state.result.result not in HIDDEN_RESULTS
    ]


def _hands(state: State) -> dict[str, list[str]]:
    """Each seat's eight cards as dealt (its cards played plus those left)."""
    hands = {s: state.hands[s] for s in state.seats}
    for trick in state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[seat] |= 1 << card
    return {s.letter: str(CardSet(m)).split() for s, m in hands.items()}


def _seats_by_deal(stored: StoredTable) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """Who sat at each seat when each deal ``(match, deal)`` was over, as
    ``{"seat", "kind", "name", "level", "guest", "left"}`` (``left``: a
    computer for good in place of a player who left during the match): the
    log replayed entry by entry.  A player who left once a match was over
    (refusing the rematch) is still named for every deal of that match."""
    game, _ = game_from_stored(dataclasses.replace(stored, events=()), keep_deals=True)
    finished = game.finished if game.finished is not None else []
    at: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for e in stored.events:
        done = len(finished)
        game.apply(
            Entry(cast(EntryKind, e.kind), None if e.seat is None else Seat[e.seat], e.payload)
        )
        for m, d, _state in finished[done:]:
            at[(m, d)] = [game.seats[s].info().model_dump() for s in game.order]
    return at


def _deal_view(
    match: int, deal: int, state: State, seats: list[dict[str, Any]] | None
) -> dict[str, Any]:
    summary = deal_summary(state)
    return {
        "match": match,
        "deal": deal,
        "seats": seats,
        "dealer": state.dealer.letter,
        "hands": _hands(state),
        "turned": None if state.turned is None else card_name(state.turned),
        "bids": [[s.letter, b.text] for s, b in state.auction.bids] if state.auction else [],
        "contract": None if state.contract is None else state.contract.text,
        "declarations": [[s.letter, [d.text for d in ds]] for s, ds in state.declared],
        "belotes": [[s.letter, card_name(c), w] for s, c, w in state.belotes],
        "tricks": [
            {
                "number": i + 1,
                "leader": t.leader.letter,
                "seats": [s.letter for s in t.seats],
                "cards": [card_name(c) for c in t.cards],
                "winner": t.winner.letter,
                "points": t.points,
            }
            for i, t in enumerate(state.tricks)
        ],
        "result": summary["result"],
        "score": summary["score"],
        "summary": summary,
    }


@dataclasses.dataclass(frozen=True, slots=True)
class ReplayBase:
    """What every replay and record of one state of a table is made of (the
    costly part: the log replayed twice, seconds for a long table):
    ``deals``, :func:`shown_deals`, and ``seats``, who sat where when each
    deal was over (:func:`_seats_by_deal`).  Build it once
    (:func:`replay_base`) for the many answers of that state."""

    deals: list[tuple[int, int, State]]
    seats: dict[tuple[int, int], list[dict[str, Any]]]


def replay_base(stored: StoredTable) -> ReplayBase:
    """The :class:`ReplayBase` of ``stored``."""
    return ReplayBase(shown_deals(stored), _seats_by_deal(stored))


def replay_data(
    stored: StoredTable, match: int | None = None, base: ReplayBase | None = None
) -> dict[str, Any]:
    """The replay viewer's data: the table's seats and every deal that may
    be read now (:func:`shown_deals`; of ``match`` only, when given) with
    all hands, bids and tricks; each deal with its ``seats``, who sat
    there when it was over (:func:`_seats_by_deal`; the table's ``seats`` are
    who sits there now).  ``base``: ``stored``'s :class:`ReplayBase`, when
    built already."""
    base = base or replay_base(stored)
    deals = [
        _deal_view(m, d, s, base.seats.get((m, d)))
        for m, d, s in base.deals
        if match is None or m == match
    ]
    return {
        "table_id": stored.id,
        "rules": stored.rules,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in stored.seats],
        "deals": deals,
    }


def deal_record(
    stored: StoredTable, match: int, deal: int, base: ReplayBase | None = None
) -> dict[str, Any] | None:
    """The record of one finished deal that may be read now
    (:func:`shown_deals`), or ``None``.  ``base``: as :func:`replay_data`'s."""
    deals = shown_deals(stored) if base is None else base.deals
    for m, d, state in deals:
        if (m, d) == (match, deal):
            return state_to_record(state)
    return None


def match_record(
    stored: StoredTable, match: int, base: ReplayBase | None = None
) -> dict[str, Any] | None:
    """The match record of match ``match`` (its finished deals), or
    ``None`` when it has none.  ``base``: as :func:`replay_data`'s."""
    deals = shown_deals(stored) if base is None else base.deals
    states = [s for m, _, s in deals if m == match]
    if not states:
        return None
    records = []
    for state in states:
        record = state_to_record(state)
        record.pop("rules", None)
        records.append(record)
    return {"format": FORMAT, "rules": states[0].rules.to_record(), "deals": records}
