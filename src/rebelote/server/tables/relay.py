"""A table driven by another process, as this process sees it.

:class:`RemoteRoom` answers the reads a REST request or a socket needs
(seats and tokens, the lobby's data, the room) from a *view* the driver sent
(:func:`~rebelote.server.tables.commands.view_of`), and sends every change
to the driver (:meth:`TableManager.command
<rebelote.server.tables.registry.TableManager.command>`), taking the view
that comes back with the answer.  It is made for one request or one
socket's opening, never kept: the table may move meanwhile, and the next
request asks again.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Coroutine
from typing import Any, Literal, Protocol

from rebelote.seats import Seat
from rebelote.server.broker.base import Broker
from rebelote.server.broker.hub import StreamKey
from rebelote.server.protocol.messages import RoomData, TablePublic
from rebelote.server.storage.tables import StoredSeat, TableMeta, hash_token

__all__ = ["DriverLink", "RemoteRoom"]


class DriverLink(Protocol):
    """What a :class:`RemoteRoom` needs of the process's table manager
    (:class:`~rebelote.server.tables.registry.TableManager`): a way to send
    a command to a table's driver, the broker (presence), and a way to run
    a task in the background."""

    @property
    def broker(self) -> Broker:
        """The process's broker."""
        ...

    async def command(self, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """Run command ``op`` on ``table_id``'s driver; its answer
        (``{"result": ..., "view": ...}``)."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in a task of the manager's."""
        ...


class RemoteRoom:
    """The table ``table_id`` driven by another process, seen through
    ``view`` (see the module docstring); ``manager`` sends its changes."""

    def __init__(self, manager: DriverLink, table_id: str, view: dict[str, Any]) -> None:
        self.manager = manager
        self.id = table_id
        self.lock = asyncio.Lock()
        """Nothing to guard here (the driver has the table's lock): for the
        callers that read a table under its lock."""
        self._conns: dict[StreamKey, list[str]] = {}
        self.update(view)

    def update(self, view: dict[str, Any]) -> None:
        """Take a newer view of the table."""
        self.view = view
        meta = view["meta"]
        self.meta = TableMeta(
            name=meta["name"],
            visibility=meta["visibility"],
            ranked=bool(meta["ranked"]),
            host=meta["host"],
            invite=meta["invite"],
        )
        self.seat_rows: dict[Seat, StoredSeat] = {
            Seat[row["seat"]]: StoredSeat(
                row["seat"],
                row["kind"],
                row["name"],
                row["level"],
                row["token_hash"],
                row["user_id"],
                bool(row["left"]),
                bool(row["guest"]),
                bool(row.get("outside_bot", False)),
            )
            for row in view["seats"]
        }

    @property
    def networked(self) -> bool:
        """A lobby table (public or private), not a single player's."""
        return bool(self.view["networked"])

    @property
    def status(self) -> Literal["open", "playing", "finished", "closed"]:
        """The table's status as the driver last told it."""
        status: Literal["open", "playing", "finished", "closed"] = self.view["status"]
        return status

    def room_data(self) -> RoomData:
        """The room (a lobby table's) as the driver last told it."""
        return RoomData.model_validate(self.view["room"])

    def public(self) -> TablePublic:
        """What anyone may know of the table."""
        return TablePublic.model_validate(self.view["public"])

    def deserted(self) -> bool:
        """See :meth:`Room.deserted <rebelote.server.tables.room.Room.deserted>`."""
        return bool(self.view["deserted"])

    def seat_of(self, token: str) -> Seat | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        found = None
        for seat, row in self.seat_rows.items():
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                found = seat
        return found

    def seat_of_user(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` holds here (not left), or ``None``."""
        for seat, row in self.seat_rows.items():
            if row.user_id == user_id and row.kind == "human" and not row.left:
                return seat
        return None

    # ------------------------------------------------------------- changes

    async def _change(self, op: str, args: dict[str, Any]) -> Any:
        answer = await self.manager.command(self.id, op, args)
        self.update(answer["view"])
        return answer["result"]

    async def join(
        self, letter: str, *, user_id: int, name: str, guest: bool, outside_bot: bool = False
    ) -> str:
        """See :meth:`Room.join <rebelote.server.tables.room.Room.join>`."""
        args = {
            "seat": letter,
            "user_id": user_id,
            "name": name,
            "guest": guest,
            "outside_bot": outside_bot,
        }
        return str(await self._change("join", args))

    async def new_token(self, user_id: int) -> tuple[Seat, str]:
        """See :meth:`Room.new_token <rebelote.server.tables.room.Room.new_token>`."""
        letter, token = await self._change("new_token", {"user_id": user_id})
        return Seat[letter], str(token)

    async def leave(self, seat: Seat) -> None:
        """See :meth:`Room.leave <rebelote.server.tables.room.Room.leave>`."""
        await self._change("leave_rest", {"seat": seat.letter})

    async def set_bot(self, by: Seat | None, letter: str, level: str | None) -> None:
        """See :meth:`Room.set_bot <rebelote.server.tables.room.Room.set_bot>`."""
        by_letter = None if by is None else by.letter
        await self._change("set_bot", {"by": by_letter, "seat": letter, "level": level})

    async def fill(self, by: Seat | None, level: str) -> None:
        """See :meth:`Room.fill <rebelote.server.tables.room.Room.fill>`."""
        await self._change("fill", {"by": None if by is None else by.letter, "level": level})

    async def start(self, by: Seat | None) -> None:
        """See :meth:`Room.start <rebelote.server.tables.room.Room.start>`."""
        await self._change("start", {"by": None if by is None else by.letter})

    # ------------------------------------------------------------ presence

    def attach(self, key: StreamKey) -> None:
        """A connection of ``key`` opened here for the driver's presence
        rules (a lobby page keeping its player's seat connected): entered
        in the broker's presence, so the driver counts it."""
        conn = f"lobby-{id(self)}-{time.monotonic_ns()}"
        self._conns.setdefault(key, []).append(conn)
        self.manager.spawn(self.manager.broker.enter(self.id, key, conn))

    def detach(self, key: StreamKey) -> None:
        """A connection opened by :meth:`attach` closed."""
        conns = self._conns.get(key)
        if conns:
            conn = conns.pop()
            self.manager.spawn(self.manager.broker.leave(self.id, key, conn))
