"""One WebSocket: a seat's connection to its table.

``/ws/{table_id}?token=...&last_v=...`` (or a first ``hello`` message with
the token); ``/ws/{table_id}?watch=1`` for a spectator of a public table
(the spectators' stream: no hand at all).  Once the token names a seat,
the connection listens to that seat's stream and sends either the
messages after ``last_v`` (while the server still keeps them) or a
snapshot; from then on every event of the seat's stream, in order, each
once.  Client messages are validated at the edge
(:func:`~rebelote.server.protocol.messages.parse_client_message`); a refused message
gets an ``error`` to this connection alone and changes nothing.  Each
connection reads at most its budget of messages
(:class:`~rebelote.server.api.throttle.MessageBudget`, the settings'
``socket_message_*``; an action applied gives its token back): beyond it a
message is not read (the first of a run gets ``error`` ``rate_limited``),
and a client that goes on is closed with 1008 ``rate_limited``.  A
``sync`` while a snapshot waits to be sent gets no other (that one, and the
events after it, bring the client up to date), and a connection holds at
most one snapshot not sent yet: a newer one takes its place.  An ``act``
without ``v`` counts as made at the last version this connection had sent
when it read the message (or the ``last_v`` it resumed from), so that a
second action computed against an older state is ``stale``.

Besides the stream, a connection gets the ``room`` on connection and at
each change of it, the chat's last lines (``chat_history``) and each new
``chat`` line but those of the seats it muted; a seat's connections also
get the ``notice`` messages meant for that seat (``timed_out``).  While the table waits for
its players there is no stream yet: at the start, each connection gets a
snapshot.

Close codes: 4000 the player left the table (every socket of his seat,
reason ``you left the table``; a ``leave`` message, ``POST .../leave`` or
away too long), 4401 no token in time, 4403 refused, the reason being the
error's code: ``bad_token`` (the token holds no seat here), ``left`` (the
player left the match), ``private`` (``?watch=1`` at a table that is not
public); 4404 no such table, 4408 too slow to read its messages, 1013 the
table cannot be loaded now (its database is down: an ``error``
``unavailable`` first; reconnect later).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from typing import Literal

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rebelote.seats import Seat
from rebelote.server.api.throttle import MessageBudget
from rebelote.server.broker.hub import StreamKey, Subscription
from rebelote.server.protocol.messages import (
    AckData,
    ActMessage,
    BackMessage,
    ChatHistory,
    ChatMessage,
    HelloMessage,
    LeaveMessage,
    MutedData,
    MuteMessage,
    PingMessage,
    ProtocolError,
    SyncMessage,
    envelope,
    parse_client_message,
)
from rebelote.server.storage.tables import hash_token, storage_failure
from rebelote.server.tables.registry import TableManager
from rebelote.server.tables.room import Room

__all__ = [
    "HELLO_TIMEOUT",
    "LEFT_CODE",
    "LEFT_REASON",
    "QUEUE_LIMIT",
    "TRY_AGAIN_CODE",
    "serve_socket",
]

HELLO_TIMEOUT = 10.0
"""Seconds a connection without a token in its URL has to send ``hello``
(the default of ``ServerSettings.hello_timeout``)."""

QUEUE_LIMIT = 4096
"""Messages waiting for a slow client before it is disconnected."""

CLOSE_WAIT = 10.0
"""Seconds a leaver's connection waits for its queued messages and the close
frame (code 4000) to go out."""

LEFT_CODE = 4000
"""The close code of every socket of a seat whose player left the table."""

LEFT_REASON = "you left the table"
"""The close reason sent with :data:`LEFT_CODE`."""

TRY_AGAIN_CODE = 1013
"""The close code of a socket whose table cannot be loaded now (the
database is down): reconnect later."""

FLOOD_CODE = 1008
"""The close code (policy violation, reason ``rate_limited``) of a socket
that kept sending over its message budget."""

log = logging.getLogger(__name__)

ItemKind = Literal["event", "snapshot", "direct", "reset", "close"]


class _Outbox:
    """The connection's ordered outgoing messages; one sender task writes
    them.  Stream events older than the last one sent are skipped, so that a
    resume and the live stream may overlap."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tuple[ItemKind, int, str | _Unsent]] = asyncio.Queue()
        self.cut_off = False
        self.sent = 0
        """The version of the last event or snapshot sent (or of the
        client's ``last_v`` on a resume): what the client has seen."""
        self.unsent: _Unsent | None = None
        """The snapshot queued and not sent yet, while only events and
        direct messages were queued after it: a newer snapshot replaces it
        there (the events between are then skipped as older)."""

    def put(self, kind: ItemKind, v: int = 0, text: str = "") -> None:
        if self.cut_off:
            return
        if kind == "snapshot" and self.unsent is not None:
            self.unsent.v, self.unsent.text = v, text
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.cut_off = True
            self.queue.put_nowait(("close", 4408, "too slow"))
            return
        if kind == "snapshot":
            self.unsent = _Unsent(v, text)
            self.queue.put_nowait((kind, v, self.unsent))
            return
        if kind == "reset":  # a snapshot before it must stay before it
            self.unsent = None
        self.queue.put_nowait((kind, v, text))

    def deliver(self, v: int, text: str) -> None:
        """The hub's callback for live events."""
        self.put("event", v, text)

    async def run(self, ws: WebSocket) -> None:
        while True:
            kind, v, item = await self.queue.get()
            if isinstance(item, _Unsent):
                if item is self.unsent:
                    self.unsent = None
                v, text = item.v, item.text
            else:
                text = item
            if kind == "close":
                await ws.close(code=v, reason=text)
                return
            if kind == "reset":
                self.sent = v
                continue
            if kind == "event" and v <= self.sent:
                continue
            await ws.send_text(text)
            if kind in ("event", "snapshot"):
                self.sent = v


class _Unsent:
    """A snapshot in the outbox, not sent yet: its version and text."""

    __slots__ = ("text", "v")

    def __init__(self, v: int, text: str) -> None:
        self.v = v
        self.text = text


def _error(exc: ProtocolError) -> str:
    return envelope("error", exc.data())


class _Connection:
    def __init__(
        self, ws: WebSocket, manager: TableManager, table_id: str, hello_timeout: float
    ) -> None:
        self.ws = ws
        self.hello_timeout = hello_timeout
        self.manager = manager
        self.table_id = table_id
        self.outbox = _Outbox()
        self.table: Room | None = None
        self.seat: Seat | None = None
        self.spectator = False
        self.token_hash = ""
        self.subscription: Subscription | None = None
        self.awaiting_start = False
        self.resumed_at = 0
        """The highest ``last_v`` the client resumed from (it had seen
        that version, even before this socket sent it anything)."""
        limits = manager.settings
        self.budget = MessageBudget(
            limits.socket_message_burst, limits.socket_message_rate, limits.socket_message_excess
        )

    @property
    def key(self) -> StreamKey:
        """The stream this connection listens to."""
        return None if self.spectator else self.seat

    def direct(self, sender: str | None, text: str) -> None:
        """The hub's callback for broadcasts (room, chat)."""
        table = self.table
        if table is None:
            return
        if sender is not None and sender in table.muted_by(self.key):
            return
        if self.awaiting_start and table.game.match is not None:
            self.awaiting_start = False
            v, snap = table.snapshot_text(self.key)
            self.outbox.put("snapshot", v, snap)
        self.outbox.put("direct", 0, text)

    def notify(self, text: str) -> None:
        """The room's callback for a message to this seat alone (a
        ``notice``)."""
        self.outbox.put("direct", 0, text)

    def player_left(self) -> None:
        """The room's callback when the seat's player left the table: close
        with :data:`LEFT_CODE` once the messages queued before are sent."""
        self.outbox.put("close", LEFT_CODE, LEFT_REASON)
        self.outbox.cut_off = True

    async def _refuse(self, exc: ProtocolError, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(_error(exc))
            await self.ws.close(code=code, reason=exc.code)

    async def _wait_hello(self) -> tuple[str, int | None] | None:
        """Read messages until a ``hello`` (errors for anything else)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.hello_timeout
        while True:
            try:
                raw = await asyncio.wait_for(self._receive(), deadline - loop.time())
            except TimeoutError:
                await self._refuse(
                    ProtocolError("not_authenticated", "send hello with your token first"), 4401
                )
                return None
            if raw is None:
                return None
            try:
                msg = parse_client_message(raw)
            except ProtocolError as exc:
                await self.ws.send_text(_error(exc))
                continue
            if isinstance(msg, HelloMessage):
                return msg.d.token, msg.d.last_v
            await self.ws.send_text(
                _error(ProtocolError("not_authenticated", "send hello with your token first"))
            )

    async def _receive(self) -> str | bytes | None:
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is not None:
            return str(text)
        data = message.get("bytes")
        return bytes(data) if data is not None else b""

    async def run(self) -> None:
        ws = self.ws
        token = ws.query_params.get("token")
        last_v: int | None = None
        raw_last = ws.query_params.get("last_v")
        if raw_last is not None and raw_last.isdigit() and len(raw_last) < 16:
            last_v = int(raw_last)
        if not token and ws.query_params.get("watch") == "1":
            await self._watch(last_v)
            return
        if not token:
            hello = await self._wait_hello()
            if hello is None:
                return
            token, last_v = hello
        table = await self._table()
        if table is None:
            return
        seat = table.seat_of(token) if len(token) <= 128 else None
        if seat is None:
            await self._refuse(
                ProtocolError("bad_token", "this token holds no seat at this table"), 4403
            )
            return
        if table.seat_rows[seat].left:
            await self._refuse(
                ProtocolError("left", "you left this match; a computer player has your seat"), 4403
            )
            return
        self.table, self.seat, self.token_hash = table, seat, hash_token(token)
        await self._serve(table, last_v)

    async def _table(self) -> Room | None:
        """The table, loaded if need be; ``None`` once the socket is
        refused: 4404 when there is no such table, 1013 (try again later)
        with an ``error`` ``unavailable`` when the database cannot be read."""
        try:
            table = await self.manager.get(self.table_id)
        except Exception as exc:
            if not storage_failure(exc):
                raise
            log.warning("table %s: cannot be loaded: storage failed", self.table_id)
            await self._refuse(
                ProtocolError("unavailable", "the server cannot reach its storage; try again"),
                TRY_AGAIN_CODE,
            )
            return None
        if table is None:
            await self._refuse(ProtocolError("table_not_found", "no such table"), 4404)
        return table

    async def _watch(self, last_v: int | None) -> None:
        """A spectator's connection."""
        table = await self._table()
        if table is None:
            return
        if table.meta.visibility != "public":
            await self._refuse(ProtocolError("private", "only public tables may be watched"), 4403)
            return
        self.table, self.spectator = table, True
        await self._serve(table, last_v)

    async def _serve(self, table: Room, last_v: int | None) -> None:
        async with table.lock:
            self.subscription = table.hub.subscribe(
                table.id, self.key, self.outbox.deliver, self.direct
            )
            self._resume(last_v)
            if table.networked:
                self.outbox.put("direct", 0, table.room_text())
        if table.networked:
            history = await table.chat_history(self.key)
            self.outbox.put("direct", 0, envelope("chat_history", ChatHistory(lines=history)))
            muted = sorted(table.muted_by(self.key))
            if muted:  # a reconnection: the page learns whom its player mutes
                self.outbox.put("direct", 0, envelope("muted", MutedData(seats=muted)))
        table.attach(self.key)
        if self.seat is not None and not self.spectator:
            table.add_socket(self.seat, self.player_left, self.notify)
        sender = asyncio.create_task(self.outbox.run(self.ws))
        try:
            await self._receive_loop(sender)
        finally:
            table.hub.unsubscribe(self.subscription)
            if self.seat is not None and not self.spectator:
                table.remove_socket(self.seat, self.player_left)
            table.detach(self.key)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    def _resume(self, last_v: int | None) -> None:
        """Queue what the client missed after ``last_v``, or a snapshot
        (call under the table's lock)."""
        table, key = self.table, self.key
        assert table is not None
        if table.game.match is None:
            self.awaiting_start = True
            return
        if last_v is not None:
            self.resumed_at = max(self.resumed_at, last_v)
            missed = table.hub.since(table.id, key, last_v)
            if missed is not None:
                self.outbox.put("reset", last_v)
                for v, text in missed:
                    self.outbox.put("event", v, text)
                return
        v, text = table.snapshot_text(key)
        self.outbox.put("snapshot", v, text)

    def _within_budget(self) -> bool:
        """Count a message against the budget: whether to read it (else an
        ``error`` ``rate_limited`` for the first of a run, or the socket's
        close with :data:`FLOOD_CODE` queued when it keeps going)."""
        verdict = self.budget.take()
        if verdict == "warn":
            error = ProtocolError("rate_limited", "too many messages: slow down")
            self.outbox.put("direct", 0, _error(error))
        elif verdict == "close":
            self.outbox.put("close", FLOOD_CODE, "rate_limited")
            self.outbox.cut_off = True
        return verdict == "ok"

    async def _receive_loop(self, sender: asyncio.Task[None]) -> None:
        table, seat = self.table, self.seat
        assert table is not None
        while not sender.done():
            try:
                raw = await self._receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw is None:
                return
            if not self._within_budget():
                if self.outbox.cut_off:  # closing: let the sender get there
                    await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                    return
                continue
            # what the client had seen when it sent this (see the act below)
            seen = max(self.outbox.sent, self.resumed_at)
            try:
                msg = parse_client_message(raw)
                if isinstance(msg, PingMessage):
                    self.outbox.put("direct", 0, envelope("pong", {}))
                    continue
                if isinstance(msg, SyncMessage):
                    if self.outbox.unsent is None:  # else that one is on its way
                        async with table.lock:
                            self._resume(None)
                    continue
                if isinstance(msg, ChatMessage):
                    await table.chat(self.key, msg.d.text)
                    continue
                if isinstance(msg, MuteMessage):
                    muted = await table.mute(self.key, msg.d.seat, msg.d.muted)
                    self.outbox.put("direct", 0, envelope("muted", MutedData(seats=muted)))
                    continue
                if seat is None:
                    raise ProtocolError("spectator", "spectators watch; they cannot act")
                if isinstance(msg, ActMessage):
                    if msg.d.seat is not None and msg.d.seat != seat.letter:
                        raise ProtocolError(
                            "not_your_seat",
                            f"your token is the seat {seat.letter}'s; "
                            f"you cannot act for {msg.d.seat}",
                        )
                    table.back(seat)
                    # no v: made at the last version this socket was sent
                    made_at = msg.v if msg.v is not None else seen
                    applied = await table.act(
                        seat, msg.d.action, msg.d.belote, action_id=msg.d.id, made_at=made_at
                    )
                    if applied:  # the game's pace bounds these: free
                        self.budget.refund()
                    if msg.d.id is not None:
                        ack = AckData(id=msg.d.id, duplicate=not applied)
                        self.outbox.put("direct", 0, envelope("ack", ack))
                elif isinstance(msg, BackMessage):
                    table.back(seat)
                elif isinstance(msg, LeaveMessage):
                    # the room closes every socket of the seat with 4000
                    # (this one included): let the sender get there before
                    # the connection ends
                    await table.leave(seat)
                    await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                    return
                elif isinstance(msg, HelloMessage):
                    if not hmac.compare_digest(hash_token(msg.d.token), self.token_hash):
                        raise ProtocolError(
                            "bad_token", "this connection is already bound to another token"
                        )
                    async with table.lock:
                        self._resume(msg.d.last_v)
            except ProtocolError as exc:
                self.outbox.put("direct", 0, _error(exc))
            except Exception as exc:
                who = "a spectator" if seat is None else seat.letter
                if storage_failure(exc):  # e.g. a chat line the database refused
                    log.warning("table %s: message from %s: storage failed", table.id, who)
                    self.outbox.put(
                        "direct",
                        0,
                        _error(
                            ProtocolError(
                                "unavailable",
                                "the server could not save that; nothing changed, try again",
                            )
                        ),
                    )
                    continue
                log.exception("table %s: message from %s failed", table.id, who)
                self.outbox.put(
                    "direct", 0, _error(ProtocolError("internal", "the server failed on that"))
                )


async def serve_socket(
    ws: WebSocket, manager: TableManager, table_id: str, hello_timeout: float = HELLO_TIMEOUT
) -> None:
    """Serve one WebSocket of table ``table_id`` until it closes;
    ``hello_timeout``: seconds a connection without a token in its URL has
    to send ``hello`` (then closed with 4401)."""
    await ws.accept()
    try:
        await _Connection(ws, manager, table_id, hello_timeout).run()
    except WebSocketDisconnect:
        pass
    finally:
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
