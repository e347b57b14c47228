"""The lobby socket, ``/ws/lobby``: the public tables and one waiting room,
pushed as they change (no polling), with presence.

On connection the server sends ``lobby`` (:class:`~rebelote.server.protocol.messages.LobbyList`:
every public table not finished, each as its room without countdowns); then
``table`` (:class:`~rebelote.server.protocol.messages.RoomData`) when a public table appears or
changes, and ``table_gone`` (:class:`~rebelote.server.protocol.messages.TableGone`) when one leaves
the list (finished, closed, or open and deserted: none of its humans
connected for ``deserted_table_seconds``; it comes back with the first
of them).  A reconnecting page gets the whole list again:
it replaces its own.

A page follows one table's waiting room with ``watch_room`` ``{"table",
"invite"}`` (a private table: with its invitation code, or to its players);
the server answers ``waiting`` (:class:`~rebelote.server.protocol.messages.WaitingRoom`: the room
and ``you``, the seat the socket's player holds there) at once and at each
change of the room, or ``error`` ``table_not_found`` (a private table
without its code looks like no table).  ``unwatch_room`` stops it.  The
player is known by his session cookie (sent with the WebSocket's opening
request); a page that logs in or out opens a new socket.

Every table where the socket's player holds a seat, public or private,
is told to him alone: ``seated`` (:class:`~rebelote.server.protocol.messages.SeatedRoom`: the room
without invitation code nor countdowns, and ``you``) on connection for
those open or playing, then whenever its status or his seat changes (``you``
null once he holds none there), so that a page on the list sends him to
his table the moment it starts.

Presence: while a player has a lobby socket open (any lobby page), his
seat at every table that has not started counts as connected (as a table
socket would), so that the room shows who waits and a host who closed his
pages passes the table on (:mod:`rebelote.server.tables.room`).  From the start on, only his
table socket counts.

Refused messages get an ``error`` (``too_large``, ``bad_json``,
``unknown_type``, ``bad_message``, ``table_not_found``) to that socket
alone; ``ping`` gets ``pong``.  A socket too slow to read is closed with
4408.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rebelote.seats import Seat
from rebelote.server.people.accounts import SESSION_COOKIE, session_hash
from rebelote.server.protocol.messages import (
    LobbyList,
    PingMessage,
    ProtocolError,
    RoomData,
    SeatedRoom,
    TableGone,
    UnwatchRoomMessage,
    WaitingRoom,
    WatchRoomMessage,
    envelope,
    parse_lobby_message,
)

if TYPE_CHECKING:
    from rebelote.server.tables.registry import AnyRoom, TableManager
    from rebelote.server.tables.room import Room

__all__ = ["LOBBY_QUEUE_LIMIT", "LobbyHub", "listed_room", "serve_lobby"]

log = logging.getLogger(__name__)

LOBBY_QUEUE_LIMIT = 1024
"""Messages waiting for a slow lobby socket before it is closed (4408)."""

LISTED = ("open", "playing")
"""The statuses of a public table the lobby lists."""


def listed_room(table: AnyRoom) -> RoomData | None:
    """The lobby's entry for ``table``: its room without invitation code
    nor countdowns (they change every second), or ``None`` when the lobby
    does not list it (private, solo, finished, closed, or open and
    :meth:`~rebelote.server.tables.room.Room.deserted`: no human connected for a while)."""
    if table.meta.visibility != "public" or table.status not in LISTED or table.deserted():
        return None
    return _bare_room(table)


def _bare_room(table: AnyRoom) -> RoomData:
    """``table``'s room without invitation code nor countdowns."""
    room = table.room_data()
    seats = [s.model_copy(update={"countdowns": []}) for s in room.seats]
    return room.model_copy(update={"invite": None, "seats": seats})


def may_follow(table: AnyRoom, user_id: int | None, invite: str | None) -> bool:
    """Whether a socket may follow ``table``'s room: a public table; a
    private one with its invitation code or to a player seated there."""
    if not table.networked:
        return False
    if table.meta.visibility == "public":
        return True
    if user_id is not None and table.seat_of_user(user_id) is not None:
        return True
    code = table.meta.invite
    return bool(invite and code and hmac.compare_digest(invite, code))


class LobbySocket:
    """One lobby socket: its outgoing queue, its player (``user_id``, or
    ``None`` when not logged in), the room it follows, the seats it keeps
    connected (``present``: table id -> the table and the seat), and what
    it was told of its player's tables (``seated``: table id -> the
    status and the seat last sent)."""

    def __init__(self, hub: LobbyHub, user_id: int | None) -> None:
        self.hub = hub
        self.user_id = user_id
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.cut_off = False
        self.watching: AnyRoom | None = None
        self.invite: str | None = None
        self.present: dict[str, tuple[AnyRoom, Seat]] = {}
        self.seated: dict[str, tuple[str, str]] = {}
        self.last_room: str | None = None

    def put(self, text: str) -> None:
        """Queue one message (closes a socket too slow to read)."""
        if self.cut_off:
            return
        if self.queue.qsize() >= LOBBY_QUEUE_LIMIT:
            self.cut_off = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def watch(self, table: AnyRoom, invite: str | None) -> None:
        """Follow ``table``'s room (replacing the one followed)."""
        self.unwatch()
        self.watching, self.invite, self.last_room = table, invite, None
        self.hub.follow(self, table.id)
        self.refresh()

    def unwatch(self) -> None:
        """Stop following the room."""
        table = self.watching
        if table is not None:
            self.watching = None
            self.hub.unfollow(self, table.id)

    def sync_presence(self, table: AnyRoom) -> None:
        """Keep the player's seat at ``table`` connected while the table
        has not started (and only then: once it plays, the player is there
        when his table page is)."""
        if self.user_id is None:
            return
        you = table.seat_of_user(self.user_id) if table.status == "open" else None
        held = self.present.get(table.id)
        if held is not None and held[1] != you:
            del self.present[table.id]
            self.hub.mark(self, table.id, False)
            table.detach(held[1])  # broadcasts the room: nothing more to change
        if you is not None and table.id not in self.present:
            self.present[table.id] = (table, you)
            self.hub.mark(self, table.id, True)
            table.attach(you)

    def sync_seated(self, table: AnyRoom) -> None:
        """Tell the player of his seat at ``table`` (``seated``) when its
        status or his seat changed since he was last told; ``you`` null,
        once, when he no longer holds one there."""
        if self.user_id is None or not table.networked:
            return
        you = table.seat_of_user(self.user_id)
        told = self.seated.get(table.id)
        if you is None:
            if told is None:
                return
            del self.seated[table.id]
        else:
            now = (table.status, you.letter)
            if told == now:
                return
            self.seated[table.id] = now
        letter = None if you is None else you.letter
        self.put(envelope("seated", SeatedRoom(room=_bare_room(table), you=letter)))

    def release(self) -> None:
        """The socket closed: its seats are no longer kept connected."""
        self.unwatch()
        present, self.present = self.present, {}
        for table, seat in present.values():
            self.hub.mark(self, table.id, False)
            table.detach(seat)

    def refresh(self) -> None:
        """The room followed changed: send it (``you``: the player's seat)."""
        table = self.watching
        if table is None:
            return
        if not may_follow(table, self.user_id, self.invite):
            self.unwatch()
            self.put(_error(ProtocolError("table_not_found", "no such lobby table")))
            return
        you = table.seat_of_user(self.user_id) if self.user_id is not None else None
        room = table.room_data()
        if table.meta.visibility != "private":
            room = room.model_copy(update={"invite": None})
        text = envelope("waiting", WaitingRoom(room=room, you=None if you is None else you.letter))
        if text != self.last_room:
            self.last_room = text
            self.put(text)


class LobbyHub:
    """Every lobby socket of this server process, by player too, the
    public list as last sent, and who follows which room.  Runs on the
    event loop's thread."""

    def __init__(self) -> None:
        self.sockets: set[LobbySocket] = set()
        self._by_user: dict[int, set[LobbySocket]] = {}
        self._present: dict[str, set[LobbySocket]] = {}
        self._listed: dict[str, str] = {}
        self._followers: dict[str, set[LobbySocket]] = {}

    def add(self, socket: LobbySocket, tables: Iterable[AnyRoom]) -> None:
        """A socket opened: it gets the changes from now on, keeps its
        player's seats connected at the ``tables`` not started, and is told
        of his seats at those open or playing."""
        self.sockets.add(socket)
        if socket.user_id is not None:
            self._by_user.setdefault(socket.user_id, set()).add(socket)
            for table in tables:
                if table.networked and table.status == "open":
                    socket.sync_presence(table)
                if table.networked and table.status in LISTED:
                    socket.sync_seated(table)

    def remove(self, socket: LobbySocket) -> None:
        """A socket closed."""
        self.sockets.discard(socket)
        if socket.user_id is not None:
            mine = self._by_user.get(socket.user_id)
            if mine is not None:
                mine.discard(socket)
                if not mine:
                    del self._by_user[socket.user_id]
        socket.release()

    def mark(self, socket: LobbySocket, table_id: str, present: bool) -> None:
        """``socket`` keeps (or no longer keeps) a seat connected at
        ``table_id``."""
        sockets = self._present.setdefault(table_id, set())
        if present:
            sockets.add(socket)
        else:
            sockets.discard(socket)
        if not sockets:
            del self._present[table_id]

    def follow(self, socket: LobbySocket, table_id: str) -> None:
        """``socket`` follows ``table_id``'s room."""
        self._followers.setdefault(table_id, set()).add(socket)

    def unfollow(self, socket: LobbySocket, table_id: str) -> None:
        """``socket`` stops following ``table_id``'s room."""
        followers = self._followers.get(table_id)
        if followers is not None:
            followers.discard(socket)
            if not followers:
                del self._followers[table_id]

    def followers(self, table_id: str) -> int:
        """How many sockets follow ``table_id``'s room (tests, metrics)."""
        return len(self._followers.get(table_id, ()))

    def snapshot(self, tables: Iterable[AnyRoom]) -> str:
        """The ``lobby`` message listing ``tables`` (each once, open ones
        first); they are remembered as sent."""
        rooms: dict[str, RoomData] = {}
        for table in tables:
            room = listed_room(table)
            if room is not None and room.id not in rooms:
                rooms[room.id] = room
                self._listed[room.id] = envelope("table", room)
        ordered = sorted(rooms.values(), key=lambda r: r.status != "open")
        return envelope("lobby", LobbyList(tables=ordered))

    def room_changed(self, table: Room) -> None:
        """``table``'s room changed (:attr:`Room.on_room`): its players'
        presence and ``seated``, the list's entry (``table`` or
        ``table_gone``, only when it changed) to every socket, the room to
        its followers."""
        if self._by_user:
            # the sockets of the players seated here, and of those who were
            # (one who leaves an open table was kept present there)
            sockets = set(self._present.get(table.id, ()))
            for row in table.seat_rows.values():
                if row.user_id is not None:
                    sockets |= self._by_user.get(row.user_id, set())
            for socket in sockets:
                socket.sync_presence(table)
                socket.sync_seated(table)
        room = listed_room(table)
        text: str | None = None
        if room is None:
            if self._listed.pop(table.id, None) is not None:
                text = envelope("table_gone", TableGone(id=table.id))
        else:
            entry = envelope("table", room)
            if self._listed.get(table.id) != entry:
                self._listed[table.id] = text = entry
        if text is not None:
            for socket in list(self.sockets):
                socket.put(text)
        for socket in list(self._followers.get(table.id, ())):
            socket.refresh()


def _error(exc: ProtocolError) -> str:
    return envelope("error", exc.data())


async def _user_id(ws: WebSocket, manager: TableManager) -> int | None:
    cookie = ws.cookies.get(SESSION_COOKIE)
    if not cookie or len(cookie) > 128:
        return None
    found = await asyncio.to_thread(manager.store.session_user, session_hash(cookie))
    return None if found is None else found[0].id


async def _send_all(ws: WebSocket, socket: LobbySocket) -> None:
    while True:
        text = await socket.queue.get()
        if text is None:
            await ws.close(code=4408, reason="too slow")
            return
        await ws.send_text(text)


async def _receive(ws: WebSocket) -> str | bytes | None:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def _handle(raw: str | bytes, socket: LobbySocket, manager: TableManager) -> None:
    msg = parse_lobby_message(raw)
    if isinstance(msg, PingMessage):
        socket.put(envelope("pong", {}))
    elif isinstance(msg, UnwatchRoomMessage):
        socket.unwatch()
    elif isinstance(msg, WatchRoomMessage):
        table = await manager.get(msg.d.table)
        if table is None or not may_follow(table, socket.user_id, msg.d.invite):
            socket.unwatch()
            raise ProtocolError("table_not_found", "no such lobby table")
        socket.watch(table, msg.d.invite)


async def serve_lobby(ws: WebSocket, manager: TableManager) -> None:
    """Serve one lobby socket until it closes (see the module docstring)."""
    await ws.accept()
    hub = manager.lobby_hub
    socket: LobbySocket | None = None
    sender: asyncio.Task[None] | None = None
    try:
        user_id = await _user_id(ws, manager)
        tables = await manager.lobby()
        socket = LobbySocket(hub, user_id)
        # the list and the registration with no pause between them: every
        # change after the list is pushed, none before it is lost
        live = manager.live_tables()
        socket.put(hub.snapshot([*tables, *live]))
        hub.add(socket, live)
        sender = asyncio.create_task(_send_all(ws, socket))
        while not sender.done():
            try:
                raw = await _receive(ws)
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw is None:
                return
            try:
                await _handle(raw, socket, manager)
            except ProtocolError as exc:
                socket.put(_error(exc))
            except Exception:
                log.exception("lobby socket: a message failed")
                socket.put(_error(ProtocolError("internal", "the server failed on that")))
    except WebSocketDisconnect:
        pass
    finally:
        if socket is not None:
            hub.remove(socket)
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
