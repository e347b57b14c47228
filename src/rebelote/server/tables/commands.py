"""The commands a table's driver runs, for a socket or a REST request of any
process.

Whichever process a client talks to, a change of a table is made by its
driver (the process holding its lease, ``docs/scale-out.md``): the
registry runs :func:`run_command` on the local :class:`~.room.Room` when it
drives the table, else sends the same ``(op, args)`` through
:meth:`~rebelote.server.broker.base.Broker.call`, and the driver's handler
runs :func:`run_command` there.  Arguments and results are JSON values;
seats are letters (``null``: a spectator).  A refusal is a
:class:`~rebelote.server.protocol.messages.ProtocolError` (carried across
processes as a :class:`~rebelote.server.broker.base.CommandError` with the
same code, message and details).

Operations (``args`` -> result):

- ``view`` ``{}`` -> :func:`view_of` (what a relay needs to answer reads:
  meta, seats, room, public data);
- ``connect`` ``{seat, snapshot}`` -> ``{"match", "snapshot", "room",
  "muted"}``: what a new socket gets first (``snapshot`` ``[v, text]``
  when asked and the match has started);
- ``chat_history`` ``{seat}`` -> the ``chat_history`` message's text (a
  lobby table's; ``null`` for a single player's): what the socket gets
  next (a read of the database);
- ``snapshot`` ``{seat}`` -> ``[v, text]`` or ``null`` (no match yet);
- ``act`` ``{seat, action, belote, id, made_at}`` -> ``true`` applied,
  ``false`` a duplicate (the seat is back first: :meth:`Room.back`);
- ``hint`` ``{seat, id}`` -> the hint (:class:`~rebelote.server.protocol.messages.HintData`'s
  fields); ``takeback`` ``{seat, id, made_at}`` -> ``true`` applied,
  ``false`` a duplicate (both: the seat is back first, as for ``act``);
- ``options`` ``{seat, speed}``: the computer players' pace from now on
  (:meth:`~.table.Table.set_speed`);
- ``back`` ``{seat}``; ``leave`` ``{seat}``; ``chat`` ``{seat, text}``;
  ``mute`` ``{seat, target, muted}`` -> the seats it mutes;
- ``join`` ``{seat, user_id, name, guest}`` -> the seat's token;
  ``new_token`` ``{user_id}`` -> ``[seat, token]``; ``set_bot`` ``{by,
  seat, level}``; ``fill`` ``{by, level}``; ``start`` ``{by}``;
  ``guest_upgraded`` ``{user_id, name}``; ``"retried": true`` in a
  ``join`` or ``start`` sent again after its driver did not answer (the
  first may have been applied): a join that stands (the user holds that
  seat) answers a fresh token, a start that stands (the match is on, asked
  by the host) answers as the first would have, instead of
  ``already_seated`` or ``not_open``;
- ``resync`` ``{}``: read the log again (a former driver stored entries
  this one has not applied).  Each REST change answers
  ``{"result", "view"}``: its result and the table's view after it.
"""

from __future__ import annotations

from typing import Any

from rebelote.seats import Seat
from rebelote.server.broker.hub import StreamKey
from rebelote.server.protocol.messages import ChatHistory, ProtocolError, envelope
from rebelote.server.storage.tables import storage_failure
from rebelote.server.tables.room import Room

__all__ = ["REST_OPS", "run_command", "view_of"]

REST_OPS = frozenset({"join", "new_token", "set_bot", "fill", "start", "leave_rest"})
"""The operations of REST requests: answered with the view after them."""


def _seat(value: Any) -> StreamKey:
    if value is None:
        return None
    if not isinstance(value, str) or value not in ("N", "W", "S", "E"):
        raise ProtocolError("bad_request", f"no seat {value!r}")
    return Seat[value]


def _player(value: Any) -> Seat:
    seat = _seat(value)
    if seat is None:
        raise ProtocolError("spectator", "spectators watch; they cannot act")
    return seat


def view_of(room: Room) -> dict[str, Any]:
    """What a process that does not drive ``room`` needs to answer reads
    of it: ``networked``, ``status``, ``meta`` (``name``, ``visibility``,
    ``ranked``, ``host``, ``invite``), ``seats`` (every stored seat:
    ``seat``, ``kind``, ``name``, ``level``, ``token_hash``, ``user_id``,
    ``left``, ``guest``, ``outside_bot``), ``room`` (the room's JSON, lobby tables only),
    ``public`` (``GET /api/tables/{id}``'s JSON) and ``deserted``.  Token
    hashes only travel between the server's own processes."""
    meta = room.meta
    return {
        "networked": room.networked,
        "status": room.status,
        "meta": {
            "name": meta.name,
            "visibility": meta.visibility,
            "ranked": meta.ranked,
            "host": meta.host,
            "invite": meta.invite,
        },
        "seats": [
            {
                "seat": row.seat,
                "kind": row.kind,
                "name": row.name,
                "level": row.level,
                "token_hash": row.token_hash,
                "user_id": row.user_id,
                "left": row.left,
                "guest": row.guest,
                "outside_bot": row.outside_bot,
            }
            for row in room.seat_rows.values()
        ],
        "room": room.room_data().model_dump(mode="json") if room.networked else None,
        "public": room.public().model_dump(mode="json"),
        "deserted": room.deserted(),
    }


async def _snapshot(room: Room, key: StreamKey) -> list[Any] | None:
    async with room.lock:
        if room.game.match is None:
            return None
        v, text = room.snapshot_text(key)
        return [v, text]


async def _connect(room: Room, key: StreamKey, snapshot: bool) -> dict[str, Any]:
    async with room.lock:
        match = room.game.match is not None
        snap = None
        if snapshot and match:
            v, text = room.snapshot_text(key)
            snap = [v, text]
        room_text = room.room_text() if room.networked else None
    return {
        "match": match,
        "snapshot": snap,
        "room": room_text,
        "muted": sorted(room.muted_by(key)),
    }


async def _chat_history(room: Room, key: StreamKey) -> str | None:
    if not room.networked:
        return None
    lines = await room.chat_history(key)
    return envelope("chat_history", ChatHistory(lines=lines))


async def _run(room: Room, op: str, args: dict[str, Any]) -> Any:
    if op == "view":
        return view_of(room)
    if op == "connect":
        return await _connect(room, _seat(args.get("seat")), bool(args.get("snapshot")))
    if op == "snapshot":
        return await _snapshot(room, _seat(args.get("seat")))
    if op == "chat_history":
        return await _chat_history(room, _seat(args.get("seat")))
    if op == "act":
        seat = _player(args.get("seat"))
        room.back(seat)
        belote = args.get("belote")
        made_at = args.get("made_at")
        return await room.act(
            seat,
            str(args["action"]),
            None if belote is None else bool(belote),
            action_id=args.get("id"),
            made_at=None if made_at is None else int(made_at),
        )
    if op == "hint":
        seat = _player(args.get("seat"))
        room.back(seat)
        return await room.hint(seat, action_id=args.get("id"))
    if op == "takeback":
        seat = _player(args.get("seat"))
        room.back(seat)
        made_at = args.get("made_at")
        return await room.takeback(
            seat, action_id=args.get("id"), made_at=None if made_at is None else int(made_at)
        )
    if op == "options":
        await room.set_speed(_player(args.get("seat")), str(args["speed"]))
        return None
    if op == "back":
        room.back(_player(args.get("seat")))
        return None
    if op == "leave":
        await room.leave(_player(args.get("seat")))
        return None
    if op == "chat":
        await room.chat(_seat(args.get("seat")), str(args["text"]))
        return None
    if op == "mute":
        return await room.mute(_seat(args.get("seat")), str(args["target"]), bool(args["muted"]))
    retried = bool(args.get("retried"))
    if op == "join":
        held = room.seat_of_user(int(args["user_id"]))
        if retried and held is not None and held.letter == str(args["seat"]):
            # the first try was applied, its answer lost: a fresh token
            return (await room.new_token(int(args["user_id"])))[1]
        return await room.join(
            str(args["seat"]),
            user_id=int(args["user_id"]),
            name=str(args["name"]),
            guest=bool(args["guest"]),
            outside_bot=bool(args.get("outside_bot", False)),
        )
    if op == "new_token":
        seat, token = await room.new_token(int(args["user_id"]))
        return [seat.letter, token]
    if op == "set_bot":
        level = args.get("level")
        await room.set_bot(
            _seat(args.get("by")), str(args["seat"]), None if level is None else str(level)
        )
        return None
    if op == "fill":
        await room.fill(_seat(args.get("by")), str(args["level"]))
        return None
    if op == "start":
        by = _seat(args.get("by"))
        if (
            retried
            and room.game.match is not None
            and by is not None
            and room.meta.host == by.letter
        ):
            return None  # the first try was applied, its answer lost
        await room.start(by)
        return None
    if op == "leave_rest":
        await room.leave(_player(args.get("seat")))
        return None
    if op == "resync":
        room.resync_soon()
        return None
    if op == "guest_upgraded":
        await room.guest_upgraded(int(args["user_id"]), str(args["name"]))
        return None
    raise ProtocolError("bad_request", f"unknown command {op!r}")


async def run_command(room: Room, op: str, args: dict[str, Any]) -> Any:
    """Run ``op`` with ``args`` on ``room`` (this process drives it) and
    return its JSON result (see the module docstring).  Raises
    :class:`ProtocolError` (the room's refusals; ``unavailable`` for a
    storage failure: nothing changed; ``bad_request`` for an unknown
    operation or seat)."""
    try:
        result = await _run(room, op, args)
    except ProtocolError:
        raise
    except Exception as exc:
        if storage_failure(exc):
            raise ProtocolError(
                "unavailable", "the server could not save that; nothing changed, try again"
            ) from exc
        raise
    if op in REST_OPS:
        return {"result": result, "view": view_of(room)}
    return result
