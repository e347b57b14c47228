"""The table actor: one :class:`Table` per table id, holding its
:class:`~rebelote.server.tables.game.TableGame` behind an asyncio lock.

Every change goes the same way, under the lock: the game turns a request
into log entries and applies them (an illegal one raises and changes
nothing), the entries are stored, then each seat's redacted messages are
published through the :class:`~rebelote.server.broker.base.Broker` (one
batch per change, awaited under the lock: a change's events reach every
listener before the change is answered).  A change that
cannot be stored is refused (``unavailable``) with nothing applied; as the
write may have been done anyway (a COMMIT whose answer was lost), the
table then reads its log again (:meth:`Table._resync`) before it judges the
next change, computer players' included: a retried action whose id the
log holds is acknowledged as a duplicate, never applied twice.

The process that changes a table holds its *lease* (:attr:`Table.lease`,
``docs/scale-out.md``): a table whose lease is no longer this process's
refuses every change with the internal code ``moved`` (nothing stored: the
caller sends it to the table's new driver), and a publish the broker
refuses because the lease was lost (:class:`~rebelote.server.broker.base.LeaseLost`)
makes the table tell :attr:`Table.on_lost` (the registry drops it; what was
stored is published by the next driver, which rebuilds the table from the
log).

A driver task does what the server does by itself (computer players, the
player's automatic cut or pattern, his forced card, the next deal when
``auto_next``), each after the delay of the table's speed (``bot_delay``
overrides it: 0 in tests).

Network play (tables of the lobby, not ``solo`` ones) adds the room around
the game, in :class:`~rebelote.server.tables.room.Room`: players taking and
leaving seats before the start, the host, presence and clocks, chat,
results.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, cast

from rebelote.rules import Rules
from rebelote.seats import Seat
from rebelote.server.broker.base import Broker, BrokerUnavailable, Lease, LeaseLost, Message
from rebelote.server.broker.hub import MemoryHub, StreamKey
from rebelote.server.broker.memory import MemoryBroker
from rebelote.server.protocol.messages import (
    SPEED_DELAYS,
    ProtocolError,
    Snapshot,
    TableOptions,
    TablePublic,
    envelope,
)
from rebelote.server.storage.log_entries import StoredEvent
from rebelote.server.storage.tables import (
    Store,
    StoredSeat,
    StoredTable,
    TableMeta,
    hash_token,
)
from rebelote.server.tables.assist import table_hint
from rebelote.server.tables.bots import choose_action, seated
from rebelote.server.tables.game import AutoStep, Entry, EntryKind, Outgoing, SeatSpec, TableGame

__all__ = [
    "AGREED",
    "MOVED",
    "Table",
    "game_from_stored",
    "moved",
    "request_id",
    "retry_pause",
    "stored_event",
    "with_request_id",
]

log = logging.getLogger(__name__)

NEXT_DEAL_FACTOR = 4.0
"""The pause before an automatic next deal, in computer-action delays."""

ACTION_IDS_KEPT = 64
"""How many of each seat's last action ids a table keeps to refuse a
duplicate."""

RETRY_FIRST = 0.5
"""Seconds before the computer players try again after the storage refused
their step; doubled after each failure in a row, up to :data:`RETRY_MAX`."""

RETRY_MAX = 8.0
"""The longest pause between two tries of a refused step, in seconds."""

LEASE_WAIT = 0.2
"""Seconds the driver task waits, while the table's lease is not trusted,
before it looks again."""

MOVED = "moved"
"""The internal error code of a change refused because this process no
longer drives the table (its lease was lost): nothing was stored; the
registry sends the change to the table's new driver.  Never sent to a
client."""


def moved(table_id: str) -> ProtocolError:
    """The :data:`MOVED` error of ``table_id``."""
    return ProtocolError(MOVED, f"this process no longer drives table {table_id}")


def retry_pause(failures: int) -> float:
    """Seconds to wait before trying again after ``failures`` refusals in a
    row (1, 2, ...): :data:`RETRY_FIRST` doubled each time, at most
    :data:`RETRY_MAX`."""
    return float(min(RETRY_MAX, RETRY_FIRST * 2 ** max(0, failures - 1)))


_KINDS: dict[str, Literal["human", "bot", "open"]] = {
    "human": "human",
    "bot": "bot",
    "open": "open",
}


def game_from_stored(
    stored: StoredTable, *, keep_deals: bool = False
) -> tuple[TableGame, list[Outgoing]]:
    """Rebuild a table's game by replaying its stored log; also returns the
    messages the replay produced (the table's whole stream).
    ``keep_deals``: keep every finished deal in ``game.finished``."""
    rules = Rules.from_record(stored.rules)
    options = TableOptions.model_validate(stored.options)
    seats = {
        Seat[s.seat]: SeatSpec(
            Seat[s.seat],
            _KINDS.get(s.kind, "bot"),
            s.name,
            s.level,
            s.guest and s.kind == "human",
            outside_bot=s.outside_bot and s.kind == "human",
        )
        for s in stored.seats
    }
    game = TableGame(
        stored.id, rules, options, stored.seed, seats, timed=stored.meta.visibility != "solo"
    )
    game.help_allowed = not stored.meta.ranked and options.help
    if keep_deals:
        game.finished = []
    out: list[Outgoing] = []
    for e in stored.events:
        if e.seq != game.entries:
            raise ValueError(f"table {stored.id}: log entry {e.seq} where {game.entries} was due")
        if e.kind not in ("match", "deal", "act", "seat", "agree", "hint", "takeback", "options"):
            raise ValueError(f"table {stored.id}: unknown log entry kind {e.kind!r}")
        kind = cast(EntryKind, e.kind)
        entry = Entry(kind, None if e.seat is None else Seat[e.seat], e.payload)
        out += game.apply(entry)
    return game, out


def stored_event(entry: Entry, seq: int, deal: int) -> StoredEvent:
    """The stored form of log entry ``seq`` (``deal``: the deal number after it)."""
    return StoredEvent(
        seq=seq,
        deal=deal,
        kind=entry.kind,
        seat=None if entry.seat is None else entry.seat.letter,
        payload=dict(entry.payload),
    )


AGREED = "agreed"
"""The payload key, beside ``"id"``, of a ``match`` or ``deal`` log entry
that a player's agreement caused (the last one missing, not logged
itself): the letter of his seat."""


def with_request_id(entries: Sequence[Entry], seat: Seat, action_id: str) -> list[Entry]:
    """``entries`` (what ``seat``'s request caused) with the client's id of
    the request stored in the first one: ``"id"`` in the payload of the
    seat's ``act`` or ``agree`` entry, else ``"id"`` and :data:`AGREED`
    (the seat's letter) in the ``match`` or ``deal`` entry that the
    agreement completing everyone's caused (:func:`request_id` reads
    either back)."""
    out = list(entries)
    for i, e in enumerate(out):
        if e.kind in ("act", "agree") and e.seat == seat:
            out[i] = Entry(e.kind, e.seat, {**e.payload, "id": action_id})
            break
        if e.kind in ("match", "deal"):
            out[i] = Entry(e.kind, e.seat, {**e.payload, "id": action_id, AGREED: seat.letter})
            break
    return out


def request_id(event: StoredEvent) -> tuple[Seat, str] | None:
    """The seat and client id of the request stored in log entry ``event``
    (:func:`with_request_id`), or ``None``."""
    action_id = event.payload.get("id")
    if not isinstance(action_id, str):
        return None
    if event.kind in ("act", "agree", "takeback"):
        letter = event.seat
    elif event.kind in ("match", "deal"):
        letter = event.payload.get(AGREED)
    else:
        return None
    return (Seat[letter], action_id) if letter in ("N", "W", "S", "E") else None


class Table:
    """A live table.  ``broker``: where its messages go (a
    :class:`MemoryBroker` delivers broadcasts at once, another broker
    through an ordered queue); ``lease``: this process's right to drive the
    table (``None``: the table is never fenced); ``seats`` are the stored
    seats (tokens' hashes, accounts, who left); ``meta`` the lobby's data;
    ``bot_delay`` (seconds) overrides the speed option when given;
    ``closed``: everyone left before the start."""

    def __init__(
        self,
        game: TableGame,
        *,
        store: Store,
        broker: Broker,
        seats: Mapping[Seat, StoredSeat],
        meta: TableMeta | None = None,
        bot_delay: float | None = None,
        closed: bool = False,
        lease: Lease | None = None,
    ) -> None:
        self.game = game
        self.store = store
        self.broker = broker
        self.lease = lease
        self.on_lost: Callable[[str], None] | None = None
        """Called with the table's id when its lease turned out lost on a
        publish (the registry drops the table)."""
        self._hub: MemoryHub | None = broker.hub if isinstance(broker, MemoryBroker) else None
        self._outgoing: deque[tuple[str, str | None]] = deque()
        self._sender: asyncio.Task[None] | None = None
        self.seat_rows: dict[Seat, StoredSeat] = dict(seats)
        self.meta = meta or TableMeta()
        self.bot_delay = bot_delay
        self.closed = closed
        self.lock = asyncio.Lock()
        self._driver: asyncio.Task[None] | None = None
        self._closed = False
        self.connections: dict[StreamKey, int] = {}
        self._status_before = game.status
        self._suspect = False
        self._action_ids: dict[Seat, deque[str]] = {}
        game.help_allowed = not self.meta.ranked and game.options.help
        seated(spec.level for spec in game.seats.values() if spec.kind == "bot")

    @property
    def id(self) -> str:
        """The table id."""
        return self.game.id

    @property
    def networked(self) -> bool:
        """A lobby table (public or private), not a single player's."""
        return self.meta.visibility != "solo"

    @property
    def status(self) -> Literal["open", "playing", "finished", "closed"]:
        """The game's status, or ``closed``."""
        return "closed" if self.closed else self.game.status

    def public(self) -> TablePublic:
        """What anyone may know of the table (``GET /api/tables/{id}``),
        its status being :attr:`status` (``closed`` too), as the room's."""
        return self.game.public(status=self.status)

    def seat_of(self, token: str) -> Seat | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        found = None
        for seat, row in self.seat_rows.items():
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                found = seat
        return found

    # ---------------------------------------------------------------- stream

    def driving(self) -> bool:
        """Whether this process still holds the table's lease, as far as it
        knows (no round trip); always for a table without a lease."""
        return self.lease is None or self.broker.held(self.id) == self.lease

    async def _still_driving(self) -> bool:
        """After a failed write: whether the lease is still this process's,
        asking the broker (a write that collides with another driver's
        means it is not); ``True`` when the broker cannot tell (Redis out of
        reach: the heartbeat decides)."""
        if self.lease is None:
            return True
        try:
            return await self.broker.renew(self.lease)
        except BrokerUnavailable:
            return self.driving()

    def resync_soon(self) -> None:
        """Read the log again before the next change (another process
        stored entries this table has not applied: a driver that lost its
        lease after a write); the driver task does it even if nobody acts."""
        self._suspect = True
        self.kick()

    def _check_driving(self) -> None:
        """Raise :func:`moved` when the lease is no longer this process's."""
        if not self.driving():
            raise moved(self.id)

    async def publish(
        self, outs: Iterable[Outgoing], *, above: Mapping[StreamKey, int] = {}
    ) -> None:
        """Publish messages to each seat's stream, as one batch under the
        table's lease (a model shared by every seat is serialized once);
        ``above``: per stream, the last version already kept (those are
        skipped).  A lost lease is told to :attr:`on_lost` (the stored
        entries are the next driver's to publish); Redis out of reach is
        logged (this process's listeners got the messages; the others
        resync when it is back)."""
        batch: list[Message] = []
        for out in outs:
            texts: dict[tuple[int, int], str] = {}
            for seat, (v, model) in out.per_seat.items():
                if v <= above.get(seat, 0):
                    continue
                key = (id(model), v)
                text = texts.get(key)
                if text is None:
                    text = texts[key] = envelope("event", model, v)
                batch.append((seat, v, text))
        if not batch:
            return
        try:
            await self.broker.publish(self.id, batch, lease=self.lease)
        except LeaseLost:
            log.warning("table %s: lease lost; another process drives it now", self.id)
            self.lost()
        except BrokerUnavailable as exc:
            log.warning("table %s: messages not shared (%s); listeners will resync", self.id, exc)

    def lost(self) -> None:
        """This process no longer drives the table: stop at once (no more
        change is stored) and tell :attr:`on_lost`."""
        self.stop_driving()
        if self.on_lost is not None:
            self.on_lost(self.id)

    def stop_driving(self) -> None:
        """No more change of this table is made here (the driver task ends
        at its next step); :meth:`close` stops the rest."""
        self._closed = True

    def broadcast(self, text: str, sender: str | None = None) -> None:
        """Send ``text`` (outside the streams) to every listener of the
        table in every process, in the order of the calls (``sender``: see
        :meth:`~rebelote.server.broker.base.Broker.broadcast`).  With the
        in-process broker it is delivered before this returns."""
        if self._hub is not None:
            self._hub.broadcast(self.id, text, sender)
            return
        self._outgoing.append((text, sender))
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(
                self._send_broadcasts(), name=f"table {self.id} broadcasts"
            )

    async def _send_broadcasts(self) -> None:
        try:
            while self._outgoing:
                text, sender = self._outgoing.popleft()
                try:
                    await self.broker.broadcast(self.id, text, sender)
                except BrokerUnavailable as exc:
                    log.warning("table %s: broadcast not shared (%s)", self.id, exc)
                except Exception:
                    log.exception("table %s: broadcast failed", self.id)
        finally:
            self._sender = None

    def snapshot_text(self, seat: StreamKey) -> tuple[int, str]:
        """The version and JSON text of ``seat``'s snapshot, or the
        spectators' (call under the lock; the match must have started)."""
        snap: Snapshot = self.game.snapshot(seat)
        v = self.game.versions[seat]
        return v, envelope("snapshot", snap, v)

    # --------------------------------------------------------------- changes

    async def act(
        self,
        seat: Seat,
        action: str,
        belote: bool | None,
        *,
        action_id: str | None = None,
        made_at: int | None = None,
    ) -> bool:
        """Apply ``seat``'s request (an action, ``next`` or ``rematch``)
        once.  ``action_id``: the client's id of the action; a request whose
        id this seat already sent is not applied again and ``False`` is
        returned (the client's retry after a lost answer).  ``made_at``: the
        version of the seat's stream the action was made against; a game
        action made against a version older than the seat's last ``turn``
        is refused as ``stale`` (a second click on a hand that has changed).
        Returns ``True`` when applied.  Raises :class:`ProtocolError`; then
        nothing changed.  After a write whose outcome is unknown, the table
        first reads its log again (:meth:`_resync`), so that the request is
        judged against what was really stored (``unavailable`` while the
        log cannot be read)."""
        async with self.lock:
            self._check_driving()
            await self._sync()
            self._check_can_act(seat)
            recent = self._action_ids.setdefault(seat, deque(maxlen=ACTION_IDS_KEPT))
            if action_id is not None and action_id in recent:
                return False
            table_action = action.strip().lower() in ("next", "rematch")
            if (
                made_at is not None
                and not table_action
                and made_at < self.game.turn_versions.get(seat, 0)
            ):
                raise ProtocolError(
                    "stale",
                    f"that action was made at version {made_at}; the table has changed "
                    f"since version {self.game.turn_versions.get(seat, 0)}: look again",
                )
            entries = self.game.request(seat, action, belote)
            if action_id is not None:
                entries = with_request_id(entries, seat, action_id)
            if entries:  # none: an agreement already given
                await self._commit(entries)
            if action_id is not None:
                recent.append(action_id)
            return True

    def remember_actions(self, events: Iterable[StoredEvent]) -> None:
        """Keep the ids of the last requests of each seat from a stored log
        (:func:`request_id`: actions, agreements, the agreement that started
        a deal or a match), so that a retry after a restart (or after a
        write whose answer was lost) is not applied twice; ids already kept
        are not added again."""
        for e in events:
            found = request_id(e)
            if found is not None:
                seat, action_id = found
                recent = self._action_ids.setdefault(seat, deque(maxlen=ACTION_IDS_KEPT))
                if action_id not in recent:
                    recent.append(action_id)

    # ------------------------------------------------ help against the computer

    def _check_help(self, seat: Seat, *, takeback: bool) -> None:
        """Refuse help where a rating is at stake (``rated_table``); a
        takeback also where another human plays (``takeback_others``: it
        would undo his moves too)."""
        if self.meta.ranked:
            raise ProtocolError(
                "rated_table", "hints and takebacks are only for tables with no rating at stake"
            )
        if takeback:
            others = [
                s
                for s, spec in self.game.seats.items()
                if s != seat and spec.kind == "human" and not spec.left
            ]
            if others:
                raise ProtocolError(
                    "takeback_others", "no takeback at a table where other people play"
                )

    async def hint(self, seat: Seat, *, action_id: str | None = None) -> dict[str, Any]:
        """The expert's values of ``seat``'s legal actions now
        (:func:`~rebelote.server.tables.assist.table_hint`: from the seat's
        own view, in the hints' threads, off the event loop), then a
        ``hint`` log entry (the table's marker).  Raises
        :class:`ProtocolError`: ``rated_table``, ``not_your_turn``,
        ``busy`` (too many hints under way), ``stale`` (the table moved on
        meanwhile: nothing stored), ``unavailable``."""
        async with self.lock:
            self._check_driving()
            await self._sync()
            self._check_can_act(seat)
            self._check_help(seat, takeback=False)
            game = self.game
            state = game.state
            if game.waiting != "action" or state is None or state.current != seat:
                raise ProtocolError("not_your_turn", "a hint is for your own decision", legal=[])
            version = game.entries
            view = game.view(seat)
            seed = game.decision_seed(seat)
            after = game.actions_in_deal
        report = await table_hint(view, seed=seed, after=after)
        async with self.lock:
            self._check_driving()
            await self._sync()
            if self.game.entries != version:
                raise ProtocolError("stale", "the table moved on meanwhile: ask again")
            # one hint counted per seat and decision, however many tabs ask
            if not self.game.hint_counted(seat):
                await self._commit([self.game.hint_entry(seat)])
        return {**report, "id": action_id}

    async def set_speed(self, seat: Seat, speed: str) -> None:
        """Change the computer players' ``speed`` from now on (an
        ``options`` log entry: a restart keeps it), at a table where no
        other person plays.  Raises :class:`ProtocolError`
        (``options_others``, ``bad_message``, ``not_started``, ``left``,
        ``unavailable``); then nothing changed."""
        async with self.lock:
            self._check_driving()
            await self._sync()
            self._check_can_act(seat)
            entry = self.game.options_entry(seat, speed)
            await self._commit([entry])

    async def takeback(
        self, seat: Seat, *, action_id: str | None = None, made_at: int | None = None
    ) -> bool:
        """Take back ``seat``'s last card or bid of the deal (a
        ``takeback`` log entry, :meth:`TableGame.takeback_entry`), once:
        an ``action_id`` this seat already sent is not applied again
        (``False``), and one made against a version of the seat's stream
        older than its last takeback (``made_at``) is ``takeback_stale``.  Returns
        ``True`` when applied.  Raises :class:`ProtocolError`
        (``rated_table``, ``takeback_others``, ``takeback_none``,
        ``takeback_deal_over``, ``takeback_stale`` (a second click: the
        first one took back already), ``unavailable``); then nothing
        changed."""
        async with self.lock:
            self._check_driving()
            await self._sync()
            self._check_can_act(seat)
            self._check_help(seat, takeback=True)
            recent = self._action_ids.setdefault(seat, deque(maxlen=ACTION_IDS_KEPT))
            if action_id is not None and action_id in recent:
                return False
            last = self.game.takeback_versions.get(seat, 0)
            if made_at is not None and made_at < last:
                raise ProtocolError(
                    "takeback_stale",
                    f"that takeback was asked at version {made_at}, before the one at "
                    f"version {last}: look again",
                )
            entry = self.game.takeback_entry(seat)
            if action_id is not None:
                entry = Entry(entry.kind, entry.seat, {**entry.payload, "id": action_id})
            await self._commit([entry])
            if action_id is not None:
                recent.append(action_id)
            return True

    def _check_can_act(self, seat: Seat) -> None:
        row = self.seat_rows.get(seat)
        if row is not None and row.left:
            raise ProtocolError("left", "you left this match; a computer player has your seat")
        if self.game.match is None:
            raise ProtocolError("not_started", "the table waits for its players and the host")

    async def _commit(
        self,
        entries: list[Entry],
        *,
        seats: Sequence[StoredSeat] = (),
        host: str | None = None,
        set_host: bool = False,
        status: str | None = None,
        drop_mutes: Sequence[tuple[int | None, str]] = (),
    ) -> None:
        """Store, then apply and publish (call under the lock).

        The log entries are written first, in one transaction (with
        ``seats``' rows, the ``host`` when ``set_host``, the ``status`` and
        the mutes to drop when given: a change of the room that goes with
        the entries): when the database refuses them (down, read-only,
        full, locked, past a timeout), nothing is applied and
        :class:`ProtocolError` ``unavailable`` is raised with the game
        unchanged.  After such a failure the outcome of the write is not
        known for sure (a commit whose answer was lost), so the table reads
        its log again before the next change (:meth:`_sync`, which the
        callers run before they compute ``entries``; if they did not and
        the log had more, ``unavailable`` too, nothing written); the driver
        is started to do it even if nobody acts.  Entries are validated by
        the game before they get here; one that still fails to apply once
        stored (a defect) makes the table reload from the log
        (``internal``).  The table row's status, an index for the lobby and
        the restart (the log is the truth), is written with the entries and
        set again, best effort, when the entries changed it.

        Raises :func:`moved` (nothing stored) when this process no longer
        drives the table, before the write or when the write failed."""
        self._check_driving()
        if self._suspect:
            known = self.game.entries
            await self._resync()
            if self.game.entries != known:
                raise ProtocolError(
                    "unavailable", "the table changed meanwhile; nothing changed, try again"
                )
        first = self.game.entries
        deal = self.game.deal_number
        stored: list[StoredEvent] = []
        for i, entry in enumerate(entries):
            if entry.kind == "match":
                deal = 0
            elif entry.kind == "deal":
                deal += 1
            stored.append(stored_event(entry, first + i, deal))
        before = self.game.status
        try:
            if seats or set_host or drop_mutes or status is not None:
                await asyncio.to_thread(
                    self.store.update_table,
                    self.id,
                    seats=seats,
                    host=host,
                    set_host=set_host,
                    status=status or before,
                    events=stored,
                    drop_mutes=drop_mutes,
                )
            else:
                # the store's log writer: one thread, every table's pending
                # writes in one transaction
                await self.store.writer.write(self.id, stored, before)
        except Exception as exc:
            self._suspect = True
            log.warning("table %s: cannot store entries from %d: %s", self.id, first, exc)
            if not await self._still_driving():  # a stale driver: the new one has the table
                self.lost()
                raise moved(self.id) from None
            self.kick()
            raise ProtocolError(
                "unavailable", "the server could not save that; nothing changed, try again"
            ) from None
        outs: list[Outgoing] = []
        try:
            for entry in entries:
                outs += self.game.apply(entry)
        except Exception:
            log.exception("table %s: stored entry %d failed to apply", self.id, self.game.entries)
            self._suspect = True
            await self._resync()
            raise ProtocolError("internal", "the server failed on that") from None
        await self.publish(outs)
        await self._after_change(status or before)

    async def _after_change(self, stored_status: str) -> None:
        """After stored entries were applied (``stored_status``: the status
        the table's row holds): the row's status when the game's differs
        (best effort; ``closed`` stays), the room's hook, the driver."""
        if stored_status != "closed" and self.game.status != stored_status:
            try:
                await asyncio.to_thread(self.store.update_table, self.id, status=self.game.status)
            except Exception as exc:  # the next entries carry it
                log.warning("table %s: cannot store its status: %s", self.id, exc)
        await self.changed()
        self.kick()

    async def _sync(self) -> None:
        """Read the log again if the last write's outcome is unknown
        (:meth:`_resync`; call under the lock before judging a change).
        Raises :class:`ProtocolError` ``unavailable`` while it cannot be
        read (nothing changed)."""
        if self._suspect:
            await self._resync()

    async def _resync(self) -> None:
        """Bring the table up to date with what is stored, after a write
        whose outcome is unknown: the game is rebuilt from the log (entries
        the database has and the game has not are applied and published,
        and their changes followed: clocks, results, computer players), the
        seats' rows and the host are read again, and the ids of the stored
        actions are kept (a retry of one is a duplicate).  Raises
        :class:`ProtocolError` ``unavailable`` (nothing changed) while the
        database cannot be read."""
        try:
            stored = await asyncio.to_thread(self.store.load, self.id)
        except Exception as exc:
            log.warning("table %s: cannot read its log: %s", self.id, exc)
            raise ProtocolError(
                "unavailable", "the server cannot reach its storage; nothing changed, try again"
            ) from None
        if stored is None:  # pragma: no cover - the table row never goes away
            raise ProtocolError("internal", "the table is gone")
        versions = dict(self.game.versions)
        known = self.game.entries
        away = self.game.away
        # in a thread: a long log's replay must not hold the event loop (the
        # lease heartbeat, the other tables)
        game, outs = await asyncio.to_thread(game_from_stored, stored)
        game.away = away
        game.fresh_secrets = self.game.fresh_secrets
        self.game = game
        self.seat_rows = {Seat[s.seat]: s for s in stored.seats}
        host = stored.meta.host or None
        if host != self.meta.host:
            self.meta = dataclasses.replace(self.meta, host=host)
        if stored.status == "closed":
            self.closed = self._closed = True
        self.remember_actions(stored.events)
        self._suspect = False
        await self.publish(
            [
                Outgoing(
                    {
                        key: item
                        for key, item in out.per_seat.items()
                        if item[0] > versions.get(key, 0)
                    }
                )
                for out in outs
            ]
        )
        if game.entries != known:
            log.warning(
                "table %s: %d stored entries were not applied; now applied",
                self.id,
                game.entries - known,
            )
            await self._after_change(stored.status)

    async def changed(self) -> None:
        """Called under the lock after every stored change: a hook for the
        room (clocks, results); the plain table does nothing."""
        self._status_before = self.game.status

    # ---------------------------------------------------------------- driver

    def pending(self) -> AutoStep | None:
        """What the driver does next: the game's pending step (a room may
        hold it back: :meth:`Room.pending <rebelote.server.tables.room.Room.pending>`)."""
        return self.game.pending()

    def kick(self) -> None:
        """Start the driver if the server has something to do (call under the
        lock, or before the table is shared)."""
        if self._closed or self._driver is not None:
            return
        if self._suspect or self.pending() is not None:
            self._driver = asyncio.create_task(self._drive(), name=f"table {self.id}")

    def _delay(self, step: AutoStep) -> float:
        base = (
            self.bot_delay if self.bot_delay is not None else SPEED_DELAYS[self.game.options.speed]
        )
        if step.kind == "next":
            return base * NEXT_DEAL_FACTOR
        if step.kind == "auto":
            return base / 2
        return base

    async def _drive(self) -> None:
        """Do the server's steps one after the other (:meth:`_step`) until
        there is nothing to do; a step the storage refused (nothing
        changed) is tried again after :func:`retry_pause`, so that the
        computer players go on once it is back."""
        failures = 0
        try:
            while True:
                try:
                    if await self._step():
                        return
                except ProtocolError as exc:
                    if exc.code == MOVED:  # another process drives the table now
                        self._driver = None
                        return
                    failures += 1
                    pause = retry_pause(failures)
                    log.warning(
                        "table %s: %s; the computer players try again in %.1f s",
                        self.id,
                        exc.code,
                        pause,
                    )
                    await asyncio.sleep(pause)
                else:
                    failures = 0
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver stopped", self.id)
            self._driver = None

    async def _step(self) -> bool:
        """One step of the driver, computed under the lock from the table as
        stored (after a write whose outcome is unknown the log is read
        again first, and again before the step is written: a step computed
        before a change is dropped).  Returns ``True`` when there is
        nothing to do (the driver ends).  Raises :class:`ProtocolError`
        when the storage refuses (nothing changed)."""
        if not self.driving():
            # the lease is not trusted now (not renewed in time): wait for
            # its renewal, or for the registry to drop the table
            await asyncio.sleep(LEASE_WAIT)
            return self._closed
        async with self.lock:
            await self._sync()
            step = self.pending()
            if step is None or self._closed:
                self._driver = None
                return True
            version = self.game.entries
            job = None
            # a computer's cut or pattern is the deal's seed's (fair deals)
            action = self.game.fair_choice() if step.kind == "bot" else None
            if step.kind == "bot" and action is None:
                assert step.seat is not None
                job = (
                    self.game.bot_level(step.seat),
                    self.game.view(step.seat),
                    self.game.decision_seed(step.seat),
                )
        await asyncio.sleep(self._delay(step))
        if job is not None:
            action = await asyncio.to_thread(choose_action, *job)
        async with self.lock:
            await self._sync()
            if self.game.entries != version or self._closed or self.pending() != step:
                return False
            if action is not None:
                assert step.seat is not None
                by = "bot" if self.game.seats[step.seat].kind == "bot" else "standin"
                entries = [self.game.action_entry(step.seat, action, by)]
            else:
                entries = self.game.automatic_entry(step)
            await self._commit(entries)
        return False

    async def close(self) -> None:
        """Stop the driver (the stored log keeps everything) and the
        broadcasts not sent yet."""
        self._closed = True
        for task in (self._driver, self._sender):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._driver = None
        self._sender = None
        self._outgoing.clear()
