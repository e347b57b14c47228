"""One WebSocket: a seat's connection to its table.

``/ws/{table_id}?token=...&last_v=...`` (or a first ``hello`` message with
the token); ``/ws/{table_id}?watch=1`` for a spectator of a public table
(the spectators' stream: no hand at all).  An outside program (the bot API,
``docs/bot-api.md``) may give its account's bot token instead, in an
``Authorization: Bearer`` header or as the ``hello``'s (or the URL's)
token: the connection is then the seat that account took here with a bot
token (``outside_bot``).  Once the token names a seat,
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
and a client that goes on is closed with 1008 ``rate_limited``; the
messages sent before ``hello`` spend the same budget.  A
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
error's code: ``bad_token`` (the token holds no seat here), ``bad_bot_token``
(a bot token unknown or revoked), ``not_bot_seat`` (the bot token's account
sits here, but took its seat without a bot token), ``left`` (the
player left the match), ``private`` (``?watch=1`` at a table that is not
public); 4404 no such table, 4408 too slow to read its messages, 1013 the
table cannot be loaded now or its server cannot be reached (its database
is down: an ``error`` ``unavailable`` first; reconnect later).

Several processes: the connection may be on any of them.  It listens to
its seat's stream through the broker (subscribed first, then what it
missed: live events that arrive meanwhile are held until the resume is
queued, and sent only above it), its presence is the broker's (so the
table's driver, wherever it is, counts it), and every request goes to the
driver (:meth:`TableManager.command
<rebelote.server.tables.registry.TableManager.command>`).  When the broker
may have missed messages (a gap it could not fill, Redis back after a
restart), the connection resumes from the last version it queued: the
missed messages, or a snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
from typing import Any, Literal

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rebelote.seats import Seat
from rebelote.server.api.guard import ANONYMOUS_SEATS, settle_socket
from rebelote.server.api.throttle import MessageBudget
from rebelote.server.broker.base import BrokerUnavailable, Subscription
from rebelote.server.broker.hub import StreamKey
from rebelote.server.people.bot_tokens import bearer_token, bot_token_hash, is_bot_token
from rebelote.server.protocol.messages import (
    AckData,
    ActMessage,
    BackMessage,
    ChatMessage,
    HelloMessage,
    HintData,
    HintMessage,
    LeaveMessage,
    MutedData,
    MuteMessage,
    OptionsMessage,
    PingMessage,
    ProtocolError,
    SyncMessage,
    TakebackMessage,
    envelope,
    parse_client_message,
)
from rebelote.server.storage.tables import hash_token, storage_failure
from rebelote.server.tables.registry import AnyRoom, TableManager
from rebelote.server.tables.room import LEFT_MARK, MUTES_MARK, NOTICE_MARK

__all__ = ["AWAY_CODE", "HELLO_TIMEOUT", "LEFT_CODE", "LEFT_REASON", "QUEUE_LIMIT", "serve_socket"]

HELLO_TIMEOUT = 5.0
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

AWAY_CODE = 1013
"""The close code when the table's server cannot be reached now (Redis
out of reach, a dead driver not yet replaced): the client tries again."""

_CONNECTIONS = itertools.count(1)

_SEAT_MARKS = (NOTICE_MARK, LEFT_MARK, MUTES_MARK)
"""The first character of a broadcast's sender meant for one seat's sockets."""

FLOOD_CODE = 1008
"""The close code (policy violation, reason ``rate_limited``) of a socket
that kept sending over its message budget."""

log = logging.getLogger(__name__)

ItemKind = Literal["event", "snapshot", "direct", "reset", "close"]


class _Outbox:
    """The connection's ordered outgoing messages; one sender task writes
    them.  Stream events older than the last one sent are skipped, so that a
    resume and the live stream may overlap.  While a resume is under way
    (:meth:`hold`), live events wait, and are queued after it, only those
    above what it queued (:meth:`release`)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tuple[ItemKind, int, str | _Unsent]] = asyncio.Queue()
        self.cut_off = False
        self.sent = 0
        """The version of the last event or snapshot sent (or of the
        client's ``last_v`` on a resume): what the client has seen."""
        self.last = 0
        """The version of the last event or snapshot queued (or of the
        ``last_v`` of a resume): where a resync resumes from."""
        self.holding = 0
        self.held: list[tuple[int, str]] = []
        self.unsent: _Unsent | None = None
        """The snapshot queued and not sent yet, while only events and
        direct messages were queued after it: a newer snapshot replaces it
        there (the events between are then skipped as older)."""

    def close_after(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason`` once what is
        queued is sent; nothing queued afterwards is sent."""
        self.put("close", code, reason)
        self.cut_off = True

    def put(self, kind: ItemKind, v: int = 0, text: str = "") -> None:
        if self.cut_off:
            return
        if kind == "snapshot" and self.unsent is not None:
            self.unsent.v, self.unsent.text = v, text
            self.last = v
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.cut_off = True
            self.queue.put_nowait(("close", 4408, "too slow"))
            return
        if kind in ("snapshot", "reset"):
            self.last = v
        elif kind == "event":
            self.last = max(self.last, v)
        if kind == "snapshot":
            self.unsent = _Unsent(v, text)
            self.queue.put_nowait((kind, v, self.unsent))
            return
        if kind == "reset":  # a snapshot before it must stay before it
            self.unsent = None
        self.queue.put_nowait((kind, v, text))

    def deliver(self, v: int, text: str) -> None:
        """The broker's callback for live events."""
        if self.holding:
            self.held.append((v, text))
        else:
            self.put("event", v, text)

    def hold(self) -> None:
        """Hold live events until :meth:`release` (a resume is under way)."""
        self.holding += 1

    def release(self) -> None:
        """The resume is queued: queue the live events held meanwhile that
        are above it."""
        self.holding -= 1
        if self.holding:
            return
        held, self.held = self.held, []
        for v, text in held:
            if v > self.last:
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
        self.broker = manager.broker
        self.table_id = table_id
        self.conn_id = str(next(_CONNECTIONS))
        self.outbox = _Outbox()
        self.seat: Seat | None = None
        self.spectator = False
        self.token_hash = ""
        self.subscription: Subscription | None = None
        self.awaiting_start = False
        self.resumed_at = 0
        """The highest ``last_v`` the client resumed from (it had seen
        that version, even before this socket sent it anything)."""
        self.muted: set[str] = set()
        self.opened = False
        self._resume_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._hinting = False
        limits = manager.settings
        self.budget = MessageBudget(
            limits.socket_message_burst, limits.socket_message_rate, limits.socket_message_excess
        )

    @property
    def key(self) -> StreamKey:
        """The stream this connection listens to."""
        return None if self.spectator else self.seat

    @property
    def letter(self) -> str | None:
        """The seat's letter (``None``: a spectator)."""
        key = self.key
        return None if key is None else key.letter

    async def command(self, op: str, **args: Any) -> Any:
        """Run ``op`` on the table's driver for this connection's seat."""
        return await self.manager.command(self.table_id, op, {"seat": self.letter, **args})

    def deliver(self, v: int, text: str) -> None:
        """The broker's callback for live events: the first one of a match
        that started while this socket waited sends a snapshot first."""
        if self.awaiting_start and self.opened:
            self.awaiting_start = False
            self.resync(snapshot=True)
        self.outbox.deliver(v, text)

    def direct(self, sender: str | None, text: str) -> None:
        """The broker's callback for broadcasts: room, chat (but of the
        seats muted), and what the room tells one seat's sockets (a
        notice, its player left, whom it mutes)."""
        if sender is not None and len(sender) == 2 and sender[0] in _SEAT_MARKS:
            if self.spectator or self.seat is None or sender[1] != self.seat.letter:
                return
            if sender[0] == NOTICE_MARK:
                self.outbox.put("direct", 0, text)
            elif sender[0] == LEFT_MARK:
                self.player_left()
            else:
                self.muted = set(json.loads(text))
            return
        if sender is not None and sender in self.muted:
            return
        self.outbox.put("direct", 0, text)

    def player_left(self) -> None:
        """The seat's player left the table: close with :data:`LEFT_CODE`
        once the messages queued before are sent."""
        self.outbox.close_after(LEFT_CODE, LEFT_REASON)

    def resync(self, *, snapshot: bool = False) -> None:
        """The broker may have missed messages (or a match started): resume
        from the last version queued (a snapshot when ``snapshot``), live
        events held until then."""
        if not self.opened:
            return  # the opening resumes anyway
        self.outbox.hold()
        task = asyncio.get_running_loop().create_task(self._resync(snapshot))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resync(self, snapshot: bool) -> None:
        try:
            await self._resume(None if snapshot else self.outbox.last)
        except (ProtocolError, BrokerUnavailable) as exc:
            log.warning("table %s: resync of a socket failed: %s", self.table_id, exc)
            self.outbox.close_after(AWAY_CODE, "try again")
        finally:
            self.outbox.release()

    async def _resume(self, last_v: int | None) -> None:
        """Queue what the client missed after ``last_v`` (``None``: a
        snapshot), or a snapshot when the broker no longer keeps it; while
        the table waits for its players, nothing (a snapshot at the start).
        Live events are held meanwhile."""
        self.outbox.hold()
        try:
            async with self._resume_lock:
                if last_v is not None:
                    self.resumed_at = max(self.resumed_at, last_v)
                    missed = await self.broker.since(self.table_id, self.key, last_v)
                    if missed is not None:
                        self.outbox.put("reset", last_v)
                        for v, text in missed:
                            self.outbox.put("event", v, text)
                        return
                snap = await self.command("snapshot")
                if snap is None:
                    self.awaiting_start = True
                    return
                self.awaiting_start = False
                v, text = snap
                self.outbox.put("snapshot", int(v), str(text))
        finally:
            self.outbox.release()

    def ask_hint(self, action_id: str | None) -> None:
        """Compute a hint in a task of its own (the socket goes on reading
        meanwhile) and send it to this socket alone (``hint``), or its
        refusal (``error``); one at a time per socket (``busy``)."""
        if self._hinting:
            error = ProtocolError("busy", "a hint is under way: wait for it")
            self.outbox.put("direct", 0, _error(error))
            return
        self._hinting = True
        task = asyncio.get_running_loop().create_task(self._hint(action_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hint(self, action_id: str | None) -> None:
        try:
            report = await self.command("hint", id=action_id)
            self.outbox.put("direct", 0, envelope("hint", HintData.model_validate(report)))
        except ProtocolError as exc:
            self.outbox.put("direct", 0, _error(exc))
        except BrokerUnavailable:
            error = ProtocolError("unavailable", "the server cannot reach the table")
            self.outbox.put("direct", 0, _error(error))
        except Exception:
            log.exception("table %s: a hint failed", self.table_id)
            self.outbox.put(
                "direct", 0, _error(ProtocolError("internal", "the server failed on that"))
            )
        finally:
            self._hinting = False

    async def _refuse(self, exc: ProtocolError, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(_error(exc))
            await self.ws.close(code=code, reason=exc.code)

    async def _wait_hello(self) -> tuple[str, int | None] | None:
        """Read messages until a ``hello`` (errors for anything else), each
        counted against the socket's budget as the messages after it: a
        message over it is not read (the first of a run gets ``error``
        ``rate_limited``), and a socket that keeps sending is closed with
        :data:`FLOOD_CODE`."""
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
            verdict = self.budget.take()
            if verdict == "close":
                with contextlib.suppress(Exception):
                    await self.ws.close(code=FLOOD_CODE, reason="rate_limited")
                return None
            if verdict == "warn":
                await self.ws.send_text(
                    _error(ProtocolError("rate_limited", "too many messages: slow down"))
                )
            if verdict != "ok":
                continue
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

    async def _table(self) -> AnyRoom | None:
        """The table (refused 4404 when there is none, 1013 when its
        server cannot be reached)."""
        try:
            table = await self.manager.get(self.table_id)
        except ProtocolError as exc:
            await self._refuse(exc, AWAY_CODE)
            return None
        except Exception as exc:
            if not storage_failure(exc):
                raise
            log.warning("table %s: cannot be loaded: storage failed", self.table_id)
            await self._refuse(
                ProtocolError("unavailable", "the server cannot reach its storage; try again"),
                AWAY_CODE,
            )
            return None
        if table is None:
            await self._refuse(ProtocolError("table_not_found", "no such table"), 4404)
        return table

    async def _bot_seat(self, table: AnyRoom, token: str) -> Seat | None:
        """The seat a bot token's account took here with a bot token
        (``None``: refused, the socket closed with 4403 ``bad_bot_token``,
        ``bad_token`` or ``not_bot_seat``; 1013 when the storage fails)."""
        try:
            user = await asyncio.to_thread(self.manager.store.bot_token_user, bot_token_hash(token))
        except Exception as exc:
            if not storage_failure(exc):
                raise
            await self._refuse(
                ProtocolError("unavailable", "the server cannot reach its storage; try again"),
                AWAY_CODE,
            )
            return None
        if user is None:
            seat = table.seat_of(token)  # a seat token that looks like a bot token
            if seat is None:
                await self._refuse(
                    ProtocolError("bad_bot_token", "this bot token is unknown or was revoked"),
                    4403,
                )
            return seat
        seat = table.seat_of_user(user.id)
        if seat is None:
            await self._refuse(
                ProtocolError("bad_token", "this bot token's account holds no seat at this table"),
                4403,
            )
            return None
        if not table.seat_rows[seat].outside_bot:
            await self._refuse(
                ProtocolError(
                    "not_bot_seat",
                    "this account took its seat here without a bot token: use the seat's token",
                ),
                4403,
            )
            return None
        return seat

    async def run(self) -> None:
        ws = self.ws
        token = ws.query_params.get("token")
        bot = bearer_token(ws.headers.get("authorization"))
        if bot is not None:
            token = bot
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
        if is_bot_token(token) or bot is not None:
            seat = await self._bot_seat(table, token) if len(token) <= 128 else None
            if seat is None:
                if len(token) > 128:
                    await self._refuse(ProtocolError("bad_bot_token", "not a bot token"), 4403)
                return
        else:
            seat = table.seat_of(token) if len(token) <= 128 else None
        if seat is None:
            await self._refuse(
                ProtocolError("bad_token", "this token holds no seat at this table"), 4403
            )
            return
        row = table.seat_rows[seat]
        if row.left:
            await self._refuse(
                ProtocolError("left", "you left this match; a computer player has your seat"), 4403
            )
            return
        # who holds the socket, for its address's fair share of sockets: every
        # seat nobody logged in holds counts as one holder (tables are free)
        who = f"user {row.user_id}" if row.user_id is not None else ANONYMOUS_SEATS
        settle_socket(ws.scope, who)
        self.seat, self.token_hash = seat, hash_token(token)
        await self._serve(last_v)

    async def _watch(self, last_v: int | None) -> None:
        """A spectator's connection."""
        table = await self._table()
        if table is None:
            return
        if table.meta.visibility != "public":
            await self._refuse(ProtocolError("private", "only public tables may be watched"), 4403)
            return
        settle_socket(self.ws.scope, "anonymous")
        self.spectator = True
        await self._serve(last_v)

    async def _open(self, last_v: int | None) -> bool:
        """Subscribe, queue the resume (missed events or a snapshot) and the
        room (live events held until then), then the chat's last lines and
        whom the seat mutes; then count the connection present.  ``False``
        (an ``unavailable`` error queued, then closed with 1013) when the
        table's server cannot be reached."""
        self.outbox.hold()
        held = True
        try:
            self.subscription = await self.broker.subscribe(
                self.table_id, self.key, self.deliver, self.direct, self.resync
            )
            missed = None
            if last_v is not None:
                self.resumed_at = max(self.resumed_at, last_v)
                missed = await self.broker.since(self.table_id, self.key, last_v)
            hello = await self.command("connect", snapshot=missed is None)
            if not hello["match"]:
                self.awaiting_start = True
            elif missed is not None:
                # the client has seen last_v: an act read before the sender
                # gets to the reset counts as made there
                self.outbox.sent = last_v or 0
                self.outbox.put("reset", last_v or 0)
                for v, text in missed:
                    self.outbox.put("event", v, text)
            elif hello["snapshot"] is not None:
                v, text = hello["snapshot"]
                self.outbox.put("snapshot", int(v), str(text))
            if hello["room"] is not None:
                self.outbox.put("direct", 0, hello["room"])
            self.muted = set(hello["muted"])
            held = False
            self.outbox.release()
            history = await self.command("chat_history")
            if history is not None:
                self.outbox.put("direct", 0, history)
            if self.muted:  # a reconnection: the page learns whom its player mutes
                self.outbox.put("direct", 0, envelope("muted", MutedData(seats=sorted(self.muted))))
            await self.broker.enter(self.table_id, self.key, self.conn_id)
            self.opened = True
        except (ProtocolError, BrokerUnavailable) as exc:
            error = (
                exc
                if isinstance(exc, ProtocolError)
                else ProtocolError("unavailable", "the server cannot reach the table; try again")
            )
            self.outbox.put("direct", 0, _error(error))
            self.outbox.close_after(AWAY_CODE, error.code)
            return False
        finally:
            if held:
                self.outbox.release()
        return True

    async def _serve(self, last_v: int | None) -> None:
        entered = False
        # the sender runs from the start: what the opening queues goes out
        # as soon as it is queued
        sender = asyncio.create_task(self.outbox.run(self.ws))
        try:
            entered = await self._open(last_v)
            if not entered:
                await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                return
            await self._receive_loop(sender)
        finally:
            if self.subscription is not None:
                self.broker.unsubscribe(self.subscription)
            for task in list(self._tasks):
                task.cancel()
            if entered:
                with contextlib.suppress(BrokerUnavailable):
                    await self.broker.leave(self.table_id, self.key, self.conn_id)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    def _within_budget(self) -> bool:
        """Count a message against the budget: whether to read it (else an
        ``error`` ``rate_limited`` for the first of a run, or the socket's
        close with :data:`FLOOD_CODE` queued when it keeps going)."""
        verdict = self.budget.take()
        if verdict == "warn":
            error = ProtocolError("rate_limited", "too many messages: slow down")
            self.outbox.put("direct", 0, _error(error))
        elif verdict == "close":
            self.outbox.close_after(FLOOD_CODE, "rate_limited")
        return verdict == "ok"

    async def _receive_loop(self, sender: asyncio.Task[None]) -> None:
        seat = None if self.spectator else self.seat
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
                        await self._resume(None)
                    continue
                if isinstance(msg, ChatMessage):
                    await self.command("chat", text=msg.d.text)
                    continue
                if isinstance(msg, MuteMessage):
                    muted = await self.command("mute", target=msg.d.seat, muted=msg.d.muted)
                    self.muted = set(muted)
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
                    # no v: made at the last version this socket was sent
                    made_at = msg.v if msg.v is not None else seen
                    applied = await self.command(
                        "act",
                        action=msg.d.action,
                        belote=msg.d.belote,
                        id=msg.d.id,
                        made_at=made_at,
                    )
                    if applied:  # the game's pace bounds these: free
                        self.budget.refund()
                    if msg.d.id is not None:
                        ack = AckData(id=msg.d.id, duplicate=not applied)
                        self.outbox.put("direct", 0, envelope("ack", ack))
                elif isinstance(msg, HintMessage):
                    self.ask_hint(None if msg.d is None else msg.d.id)
                elif isinstance(msg, TakebackMessage):
                    action_id = None if msg.d is None else msg.d.id
                    applied = await self.command(
                        "takeback",
                        id=action_id,
                        made_at=msg.v if msg.v is not None else seen,
                    )
                    if applied:  # the game's pace bounds these: free
                        self.budget.refund()
                    if action_id is not None:
                        ack = AckData(id=action_id, duplicate=not applied)
                        self.outbox.put("direct", 0, envelope("ack", ack))
                elif isinstance(msg, OptionsMessage):
                    await self.command("options", speed=msg.d.speed)
                elif isinstance(msg, BackMessage):
                    await self.command("back")
                elif isinstance(msg, LeaveMessage):
                    # the room closes every socket of the seat with 4000
                    # (this one included): let the sender get there before
                    # the connection ends
                    await self.command("leave")
                    await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                    return
                elif isinstance(msg, HelloMessage):
                    if not hmac.compare_digest(hash_token(msg.d.token), self.token_hash):
                        # another token on a bound socket: refused and closed
                        # 4403, as a first hello with a wrong token is
                        error = ProtocolError(
                            "bad_token", "this connection is already bound to another token"
                        )
                        self.outbox.put("direct", 0, _error(error))
                        self.outbox.close_after(4403, "bad_token")
                        await asyncio.wait({sender}, timeout=CLOSE_WAIT)
                        return
                    await self._resume(msg.d.last_v)
            except ProtocolError as exc:
                self.outbox.put("direct", 0, _error(exc))
            except BrokerUnavailable:
                self.outbox.put(
                    "direct",
                    0,
                    _error(ProtocolError("unavailable", "the server cannot reach the table")),
                )
            except Exception:
                who = "a spectator" if seat is None else seat.letter
                log.exception("table %s: message from %s failed", self.table_id, who)
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
