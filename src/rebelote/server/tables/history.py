"""Finished deals of a table: the replay viewer's data and exports in the
rules core's record format.

Both come from the stored log (the truth).  The log is replayed to know
which deals are finished, and each finished deal's final
:class:`~rebelote.state.State` kept for the replay viewer.  Only finished
deals are given, with every hand (they are over); the deal in progress
never is, and neither is, while its match goes on, a deal whose hands were
never shown at the table: thrown in (everyone passed) or cancelled before
its cards were played (:func:`shown_deals`).

An export is a deal record or a match record of format 2
(:mod:`rebelote.record`) that ``rebelote replay`` reads, sliced from the
log: a deal's ``deal`` entry gives its ``dealer``, ``pack`` (before the
cut) and ``fair`` proof (the commitment, seed and salt that ``rebelote
verify`` checks), and its ``act`` entries, in order, its ``actions``
(``{"seat", "action"}``, the entry's text as stored: the rules core's one
notation).
The entries of logs written before that notation (a card's name with a
``belote`` flag beside it) are written in it by replaying their deal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from rebelote.actions import Action, Play
from rebelote.cards import CardSet, card_name, parse_card
from rebelote.record import FORMAT, deal_summary, new_deal_record
from rebelote.rules import Rules
from rebelote.seats import Seat
from rebelote.server.storage.log_entries import StoredEvent
from rebelote.server.storage.tables import StoredTable
from rebelote.server.tables.game import Entry, EntryKind
from rebelote.server.tables.table import game_from_stored
from rebelote.state import AmbiguousActionError, State

__all__ = [
    "DealLog",
    "ReplayBase",
    "deal_logs",
    "deal_record",
    "finished_deals",
    "help_counts",
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
    match: int,
    deal: int,
    state: State,
    seats: list[dict[str, Any]] | None,
    help: dict[str, int] | None = None,
) -> dict[str, Any]:
    summary = deal_summary(state)
    return {
        "match": match,
        "deal": deal,
        "seats": seats,
        "help": help or {"hints": 0, "takebacks": 0},
        "dealer": state.dealer.letter,
        "hands": _hands(state),
        "turned": None if state.turned is None else card_name(state.turned),
        "bids": [[s.letter, b.text] for s, b in state.auction.bids] if state.auction else [],
        "bid_rounds": list(state.auction.rounds) if state.auction else [],
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


def help_counts(stored: StoredTable) -> dict[tuple[int, int], dict[str, int]]:
    """The hints and takebacks used in each deal ``(match, deal)`` that had
    any: ``{"hints": 2, "takebacks": 1}`` (the ``hint`` and ``takeback``
    entries of the log)."""
    out: dict[tuple[int, int], dict[str, int]] = {}
    match = deal = 0
    for e in stored.events:
        if e.kind == "match":
            match, deal = match + 1, 0
        elif e.kind == "deal":
            deal += 1
        elif e.kind in ("hint", "takeback"):
            counts = out.setdefault((match, deal), {"hints": 0, "takebacks": 0})
            counts["hints" if e.kind == "hint" else "takebacks"] += 1
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class ReplayBase:
    """What every replay and record of one state of a table is made of (the
    costly part: the log replayed twice, seconds for a long table):
    ``deals``, :func:`shown_deals`, and ``seats``, who sat where when each
    deal was over (:func:`_seats_by_deal`).  Build it once
    (:func:`replay_base`) for the many answers of that state."""

    deals: list[tuple[int, int, State]]
    seats: dict[tuple[int, int], list[dict[str, Any]]]
    help: dict[tuple[int, int], dict[str, int]] = dataclasses.field(default_factory=dict)


def replay_base(stored: StoredTable) -> ReplayBase:
    """The :class:`ReplayBase` of ``stored``."""
    return ReplayBase(shown_deals(stored), _seats_by_deal(stored), help_counts(stored))


def replay_data(
    stored: StoredTable, match: int | None = None, base: ReplayBase | None = None
) -> dict[str, Any]:
    """The replay viewer's data: the table's seats and every deal that may
    be read now (:func:`shown_deals`; of ``match`` only, when given) with
    all hands, bids and tricks; each deal with its ``seats``, who sat
    there when it was over (:func:`_seats_by_deal`; the table's ``seats`` are
    who sits there now), and its ``help``, the hints and takebacks used in
    it (:func:`help_counts`).  ``base``: ``stored``'s :class:`ReplayBase`, when
    built already."""
    base = base or replay_base(stored)
    deals = [
        _deal_view(m, d, s, base.seats.get((m, d)), base.help.get((m, d)))
        for m, d, s in base.deals
        if match is None or m == match
    ]
    return {
        "table_id": stored.id,
        "rules": stored.rules,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in stored.seats],
        "deals": deals,
    }


@dataclasses.dataclass(frozen=True, slots=True)
class DealLog:
    """The log of one deal: its ``deal`` entry's ``dealer``, ``pack`` and
    ``fair`` proof (``None`` in logs written before fair deals) and its
    ``act`` entries, in order."""

    dealer: Seat
    pack: tuple[str, ...]
    acts: tuple[StoredEvent, ...]
    fair: Mapping[str, Any] | None = None


def deal_logs(stored: StoredTable) -> dict[tuple[int, int], DealLog]:
    """Each deal's log by ``(match, deal)``, numbered as the table numbers
    them (a ``match`` entry starts match 1, 2, ...; its ``deal`` entries
    deal 1, 2, ...); the actions a ``takeback`` entry undid are left out."""
    starts: dict[tuple[int, int], StoredEvent] = {}
    acts: dict[tuple[int, int], list[StoredEvent]] = {}
    match = deal = 0
    for e in stored.events:
        if e.kind == "match":
            match, deal = match + 1, 0
        elif e.kind == "deal":
            deal += 1
            starts[(match, deal)] = e
            acts[(match, deal)] = []
        elif e.kind == "act" and (match, deal) in acts:
            acts[(match, deal)].append(e)
        elif e.kind == "takeback" and (match, deal) in acts:
            # the actions it undid are not the deal's
            del acts[(match, deal)][int(e.payload["to"]) :]
    return {
        key: DealLog(
            Seat[str(e.payload["dealer"])],
            tuple(str(c) for c in e.payload["pack"]),
            tuple(acts[key]),
            e.payload.get("fair"),
        )
        for key, e in starts.items()
    }


def _action_texts(rules: Rules, log: DealLog) -> list[tuple[Seat, str]]:
    """The deal's actions: each ``act`` entry's seat and text as stored;
    a log written before the one notation (a ``belote`` flag beside the
    card) is replayed to write each card as the rules core does (``QH
    belote`` where the player chose to say it)."""
    acts = [(Seat[str(e.seat)], e.payload) for e in log.acts]
    if not any("belote" in payload for _, payload in acts):
        return [(seat, str(payload["action"])) for seat, payload in acts]
    state = State.new(rules, log.dealer, [parse_card(c) for c in log.pack])
    out: list[tuple[Seat, str]] = []
    for seat, payload in acts:
        out.append((seat, _old_action(state, seat, payload).text))
    return out


def _old_action(state: State, seat: Seat, payload: Mapping[str, Any]) -> Action:
    """Apply the action of an ``act`` payload of either shape (its log has
    replayed already: it is legal) and return it."""
    try:
        action = state.parse_action(str(payload["action"]), seat)
    except AmbiguousActionError as exc:  # a card whose belote flag was beside it
        said = payload.get("belote") is not False
        action = next(a for a in exc.candidates if isinstance(a, Play) and a.belote is said)
    state.apply_parsed(action, seat)
    return action


def _fair(log: DealLog) -> dict[str, Any] | None:
    """The record's ``fair``: the deal entry's proof, and who made the cut
    and the dealer's pattern (``server``: the seed's, which ``rebelote
    verify`` checks; ``player``: a person)."""
    if log.fair is None:
        return None
    fair = dict(log.fair)
    for e in log.acts:
        head = str(e.payload.get("action", "")).split(" ", 1)[0]
        key = {"cut": "cut", "deal": "pattern"}.get(head)
        if key is not None and key not in fair:
            fair[key] = "player" if e.payload.get("by") == "human" else "server"
    return fair


def _record(rules: Rules, log: DealLog) -> dict[str, Any]:
    # only finished deals that may be read are exported (shown_deals): their
    # seed and salt may be told with their cards
    return new_deal_record(
        rules,
        log.dealer,
        _action_texts(rules, log),
        pack=[parse_card(c) for c in log.pack],
        fair=_fair(log),
    )


def deal_record(
    stored: StoredTable, match: int, deal: int, base: ReplayBase | None = None
) -> dict[str, Any] | None:
    """The record (format 2) of one finished deal that may be read now
    (:func:`shown_deals`), or ``None``: sliced from the log.  ``base``: as
    :func:`replay_data`'s (which deals may be read)."""
    deals = shown_deals(stored) if base is None else base.deals
    if not any((m, d) == (match, deal) for m, d, _ in deals):
        return None
    log = deal_logs(stored)[(match, deal)]
    return _record(Rules.from_record(stored.rules), log)


def match_record(
    stored: StoredTable, match: int, base: ReplayBase | None = None
) -> dict[str, Any] | None:
    """The match record (format 2) of match ``match`` (its finished deals
    that may be read now), or ``None`` when it has none.  ``base``: as
    :func:`replay_data`'s."""
    deals = shown_deals(stored) if base is None else base.deals
    numbers = [d for m, d, _ in deals if m == match]
    if not numbers:
        return None
    rules = Rules.from_record(stored.rules)
    logs = deal_logs(stored)
    records = []
    for number in numbers:
        record = _record(rules, logs[(match, number)])
        del record["format"], record["rules"]
        records.append(record)
    return {"format": FORMAT, "rules": rules.to_record(), "deals": records}
