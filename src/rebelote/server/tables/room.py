"""The room around a table's game: seats and host before the start,
presence and clocks, chat, leaving, results.

- **Before the start** (status ``open``) players take free seats
  (:meth:`Room.join`) and leave them (:meth:`Room.leave`); the host puts
  computer players in empty seats (:meth:`Room.set_bot`, :meth:`Room.fill`)
  and starts (:meth:`Room.start`).  When the host leaves, the table passes to
  the next human in seat order; when the last human leaves, the table is
  ``closed``.  A host with no connection (neither the table's socket nor
  a lobby page's socket) for ``options.hold`` seconds before the start
  passes the table to the first connected human in seat order; with none
  connected, the table waits and the first human back takes it.  Seat
  changes before the start are stored in the ``seats`` rows; from the
  start on, every change is a log entry.  A seat change the database
  refuses may have been done anyway (a COMMIT whose answer was lost): the
  table reads its log and seats again at once; when they hold the change,
  it stands (the request succeeds), else it is undone in memory too
  (``unavailable``: nothing changed).  When they cannot be read, every
  change of the table (seats, start, actions, computer players) reads
  them first (``unavailable`` until it can), so that nothing is judged or
  written against seats the database may not hold.
- **Deserted** (before the start): a table none of whose humans has had a
  connection (a table socket or a lobby page's) for ``deserted_after``
  seconds is :meth:`Room.deserted`: the lobby stops listing it (its room
  is sent again when that time comes) until one of them is back.  A table
  loaded from storage with nobody connected is deserted at once.
- **Spectators**: their number is in the ``room``; their comings and
  goings are told at most once per ``presence_interval`` seconds (one
  ``room`` message for a crowd arriving, not one per spectator).
- **Presence** (lobby tables only): a seat with no connection is held for
  ``options.hold`` seconds (the others see a countdown), then a computer
  player of intermediate level stands in for it until its player is back
  (a new connection, a ``back`` message or an action).  With the per-move
  clock on (``options.move_clock``), a player who lets it run out is stood
  in for in the same way, and told so (a ``notice`` ``timed_out`` to his
  sockets); the room says why a seat is away (``away_reason``).  Away
  (disconnected or stood in for) for ``options.leave_after`` seconds, the
  player has left.
- **Nobody there** (from the start on): while none of the humans still
  seated has a table socket open, the computer players (and stand-ins) do
  not play: the table waits for its first human back (a table cannot play
  by itself for an hour while its players are away; the ``leave``
  countdowns run meanwhile, and once every human has left the table
  closes).  A lobby table always seats at least one human: the host is
  one, a computer player never takes a human's seat, and the last human
  leaving before the start closes the table; :meth:`Room.start` and
  :meth:`Room.fill` refuse ``no_human`` should a table have none.
- **Agreeing**: the next deal and a rematch start once every human agreed
  (:meth:`~rebelote.server.tables.game.TableGame.agreement`); with the per-move
  clock on, the next deal starts by itself at the turn's ``deadline`` (the
  seats not agreed show a ``next`` countdown); when the database refuses
  it then, it is tried again after
  :func:`~rebelote.server.tables.table.retry_pause` until it is stored.
- **Leaving** during a match: the seat passes to a computer player for good
  (a ``seat`` log entry), the leaver's result is stored at once (a loss,
  unrated), and the match gives nobody experience or rating (seed 003).
  Leaving once the match is over refuses the rematch: nothing is recorded,
  and the table is ``closed``.
- **Results**: at the end of a match, every seat's line; ratings change
  only after a ranked match that everyone really played
  (:func:`~rebelote.server.people.ratings.unrated_reason`).
- **Chat**: cleaned, stored, rate-limited per seat, broadcast to every
  listener with the sender's seat so that each listener can mute it.  A
  mute is its player's: stored (``mutes``, by table and muting player), kept
  across his reconnections and the server's restarts, dropped when either
  seat changes hands.  The rate limit's buckets are the room's (in memory),
  or in Redis when several processes share the tables.
- **Sockets in any process**: what a room tells a seat's sockets alone
  goes out as a broadcast marked for that seat (``sender``
  :data:`NOTICE_MARK` + letter: a ``notice``; :data:`LEFT_MARK` + letter:
  its player left, the sockets close with 4000; :data:`MUTES_MARK` +
  letter: the seats it mutes now, a JSON list), so that every process's
  sockets of the seat get it; presence comes from the broker
  (:meth:`Room.set_presence`: every process's connections).

Everything here runs on the event loop; the lock of the :class:`Table`
guards every change of the game or the seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from rebelote.seats import Seat, parse_seat
from rebelote.server.broker.hub import StreamKey
from rebelote.server.people.awards import award_match
from rebelote.server.people.challenges import match_counts
from rebelote.server.people.chat import ChatLimiter, RateLimiter, chat_data, clean_chat
from rebelote.server.people.ratings import Rated, bot_rating, match_xp, rate, unrated_reason
from rebelote.server.protocol.messages import (
    BOT_LEVELS,
    ChatData,
    Countdown,
    NoticeData,
    ProtocolError,
    RoomData,
    RoomSeat,
    envelope,
)
from rebelote.server.storage.people import ResultLine
from rebelote.server.storage.tables import StoredSeat, TableMeta, hash_token
from rebelote.server.tables.bots import seated
from rebelote.server.tables.game import STANDIN_LEVEL, AutoStep, SeatSpec
from rebelote.server.tables.table import Table, retry_pause

__all__ = ["BOT_NAMES", "LEFT_MARK", "MUTES_MARK", "NOTICE_MARK", "Room", "bot_name"]

log = logging.getLogger(__name__)

BOT_NAMES = {Seat.N: "North", Seat.W: "West", Seat.S: "South", Seat.E: "East"}
"""The default names of computer players, by seat."""

Reason = str  # "move", "hold", "leave", "next", "host"

NOTICE_MARK = "@"
"""A broadcast whose sender is ``@`` + a seat's letter is a message for
that seat's sockets alone (a ``notice``)."""

LEFT_MARK = "!"
"""A broadcast whose sender is ``!`` + a seat's letter: that seat's player
left the table; its sockets close with 4000 (the text is empty)."""

MUTES_MARK = "~"
"""A broadcast whose sender is ``~`` + a seat's letter: the seats that
seat mutes now, as a JSON list of letters (its sockets filter the chat
with it)."""


def bot_name(seat: Seat) -> str:
    """The name of a computer player at ``seat``."""
    return BOT_NAMES[seat]


class Room(Table):
    """A :class:`Table` with its room (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mutes: dict[Seat, set[str]] = {}
        self._mute_drops: list[tuple[int | None, str]] = []
        self._next_failures = 0
        self._leave_failures: dict[Seat, int] = {}
        self.limiter: ChatLimiter = RateLimiter()
        """The chat's rate limit (keys ``{table}:{seat}``): this room's, or
        the one every process shares (Redis)."""
        self._timers: dict[tuple[Seat | None, Reason], asyncio.TimerHandle] = {}
        self._deadlines: dict[tuple[Seat | None, Reason], float] = {}
        self._move_key: tuple[Seat | None, int] | None = None
        self._next_key: tuple[int, int] | None = None
        self._agreed_seen: frozenset[Seat] = frozenset()
        self._away_reason: dict[Seat, Literal["move", "hold"]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._presence: dict[StreamKey, int] = {}
        """The connections the broker counts (every process's table sockets)."""
        self.on_room: Callable[[Room], None] | None = None
        """Called after every change of the room (the lobby's listeners)."""
        self._host_away = False
        self.presence_interval = 1.0
        self._spectators_told: asyncio.TimerHandle | None = None
        self.deserted_after = 300.0
        """Seconds with no human connected before an open table is
        :meth:`deserted` (the server's ``deserted_table_seconds``)."""
        self._deserted_since: float | None = time.monotonic()
        self._deserted_told: asyncio.TimerHandle | None = None

    # ---------------------------------------------------------------- room

    def room_data(self) -> RoomData:
        """The room as every listener sees it."""
        game = self.game
        seats = []
        for s in game.order:
            spec = game.seats[s]
            row = self.seat_rows.get(s)
            countdowns = [
                Countdown(
                    reason=reason,  # type: ignore[arg-type]
                    deadline=round(deadline, 3),
                    seconds=round(max(0.0, deadline - time.time()), 1),
                )
                for (seat, reason), deadline in sorted(
                    self._deadlines.items(), key=lambda kv: kv[1]
                )
                if seat == s
            ]
            next_deadline = self._deadline(None, "next")
            if (
                next_deadline is not None
                and spec.kind == "human"
                and s not in game.agreed
                and s not in game.away
            ):
                countdowns.append(
                    Countdown(
                        reason="next",
                        deadline=round(next_deadline, 3),
                        seconds=round(max(0.0, next_deadline - time.time()), 1),
                    )
                )
            seats.append(
                RoomSeat(
                    seat=s.letter,
                    kind=spec.kind,
                    name=spec.name,
                    level=spec.level,
                    guest=spec.guest,
                    connected=self.connections.get(s, 0) > 0,
                    away=s in game.away,
                    away_reason=self._away_reason.get(s) if s in game.away else None,
                    left=bool(row and row.left),
                    countdowns=countdowns,
                    outside_bot=spec.outside_bot,
                )
            )
        meta = self.meta
        return RoomData(
            id=self.id,
            name=meta.name,
            status=self.status,
            visibility=meta.visibility,  # type: ignore[arg-type]
            ranked=meta.ranked,
            host=meta.host,
            rules=game.rules_info(),
            options=game.options,
            seats=seats,
            invite=meta.invite,
            spectators=self.connections.get(None, 0),
        )

    def room_text(self) -> str:
        """The ``room`` message."""
        return envelope("room", self.room_data())

    def broadcast_room(self) -> None:
        """Send the room to every listener (lobby tables only: a single
        player's table has no room)."""
        if self._spectators_told is not None:  # this room tells the count too
            self._spectators_told.cancel()
            self._spectators_told = None
        if self.networked:
            self.broadcast(self.room_text())
            if self.on_room is not None:
                self.on_room(self)

    def _spectators_changed(self) -> None:
        """A spectator came or went: the room goes out within
        ``presence_interval`` seconds, once for every change meanwhile."""
        if not self.networked or self._spectators_told is not None:
            return

        def tell() -> None:
            self._spectators_told = None
            self.broadcast_room()

        loop = asyncio.get_running_loop()
        self._spectators_told = loop.call_later(self.presence_interval, tell)

    def busy(self) -> bool:
        """Whether the table does something by itself: a computer player's
        move (the driver), a clock, a task, a room to send."""
        return bool(
            self._driver is not None or self._timers or self._tasks or self._spectators_told
        )

    # ------------------------------------------------------------ deserted

    def deserted(self) -> bool:
        """Whether the table has not started and none of its humans has
        had a connection for ``deserted_after`` seconds (monotonic time)."""
        since = self._deserted_since
        return (
            self.status == "open"
            and since is not None
            and time.monotonic() - since >= self.deserted_after
        )

    def deserted_clock(self, *, already: bool = False) -> None:
        """Nobody is connected from now on (``already``: since long ago, a
        table loaded from storage): the room is sent again when the table
        becomes :meth:`deserted`, for the lobby to drop it.  Needs a running
        event loop."""
        self._stop_deserted_clock()
        self._deserted_since = float("-inf") if already else time.monotonic()
        if already or not self.networked or self.status != "open":
            return

        def tell() -> None:
            self._deserted_told = None
            self.broadcast_room()

        loop = asyncio.get_running_loop()
        self._deserted_told = loop.call_later(self.deserted_after, tell)

    def _stop_deserted_clock(self) -> None:
        if self._deserted_told is not None:
            self._deserted_told.cancel()
            self._deserted_told = None

    def _humans_connected(self) -> bool:
        return any(n > 0 for key, n in self.connections.items() if key is not None)

    # ------------------------------------------------------------ presence

    def nobody_there(self) -> bool:
        """Whether the lobby table's match is on and none of its humans
        still seated (not left) has a table socket open: its computer
        players wait (see the module docstring)."""
        if not self.networked or self.game.status != "playing":
            return False
        return not any(
            self._present(seat)
            for seat in self.game.humans
            if not (self.seat_rows.get(seat) and self.seat_rows[seat].left)
        )

    def pending(self) -> AutoStep | None:
        """The game's pending step, none while :meth:`nobody_there`."""
        return None if self.nobody_there() else self.game.pending()

    def attach(self, key: StreamKey) -> None:
        """A connection of ``key`` (a seat, or a spectator) opened; a seat's
        wakes the computer players up (:meth:`nobody_there`)."""
        self.connections[key] = self.connections.get(key, 0) + 1
        if key is None:
            self._spectators_changed()
            return
        self._stop_deserted_clock()
        self._deserted_since = None
        self._cancel(key, "hold")
        self.back(key, quiet=True)
        self._host_back(key)
        self.broadcast_room()
        self.kick()

    def detach(self, key: StreamKey) -> None:
        """A connection of ``key`` closed."""
        n = self.connections.get(key, 0) - 1
        if n > 0:
            self.connections[key] = n
        else:
            self.connections.pop(key, None)
            if key is not None:
                self._dropped(key)
                self._host_gone(key)
                if not self._humans_connected():
                    self.deserted_clock()
        if key is None:
            self._spectators_changed()
        else:
            self.broadcast_room()

    def set_presence(self, counts: dict[StreamKey, int]) -> None:
        """The broker's count of the table's open sockets changed
        (``counts``: seat, or ``None`` for spectators, -> how many, every
        process's): each one more is :meth:`attach`, each one less
        :meth:`detach` (a lobby page's presence, told directly, is kept
        apart)."""
        before = self._presence
        self._presence = {key: n for key, n in counts.items() if n > 0}
        for key in set(before) | set(self._presence):
            delta = self._presence.get(key, 0) - before.get(key, 0)
            for _ in range(delta):
                self.attach(key)
            for _ in range(-delta):
                self.detach(key)

    def notify(self, seat: Seat, text: str) -> None:
        """Send ``text`` to every socket of ``seat`` (not to the others), in
        every process."""
        self.broadcast(text, sender=NOTICE_MARK + seat.letter)

    def _close_sockets(self, seat: Seat) -> None:
        """``seat``'s player left: every socket of the seat closes (close
        code 4000), in every process, whichever of them sent ``leave``, and
        none goes on listening to a seat that is no longer his."""
        self.broadcast("", sender=LEFT_MARK + seat.letter)

    def _tell_mutes(self, seat: Seat) -> None:
        """Tell ``seat``'s sockets (every process's) whom it mutes now."""
        muted = sorted(self.mutes.get(seat, set()))
        self.broadcast(json.dumps(muted), sender=MUTES_MARK + seat.letter)

    def _present(self, seat: Seat) -> bool:
        return self.connections.get(seat, 0) > 0

    def _watched(self, seat: Seat) -> bool:
        """Whether presence rules apply to ``seat``: a human's seat at a
        lobby table whose match is on."""
        row = self.seat_rows.get(seat)
        return (
            self.networked
            and self.game.status == "playing"
            and self.game.seats[seat].kind == "human"
            and not (row and row.left)
        )

    def _dropped(self, seat: Seat) -> None:
        if not self._watched(seat):
            return
        hold = self.game.options.hold
        if hold <= 0:
            self._stand_in(seat, "hold")
        else:
            self._arm(seat, "hold", hold, lambda: self._stand_in(seat, "hold"))
        self._arm_leave(seat)

    def _arm_leave(self, seat: Seat) -> None:
        if self._deadline(seat, "leave") is None:
            self._arm(
                seat,
                "leave",
                self.game.options.leave_after,
                lambda: self._spawn(self._leave_away(seat)),
            )

    def _stand_in(self, seat: Seat, reason: Literal["move", "hold"]) -> None:
        """A computer player stands in for ``seat`` from now on, because its
        player's per-move clock ran out (``move``: he is told, a ``notice``
        ``timed_out`` to his sockets) or he is disconnected (``hold``)."""
        self._cancel(seat, "hold")
        self._cancel(seat, "move")
        if not self._watched(seat):
            return
        self.game.away.add(seat)
        self._away_reason[seat] = reason
        self._arm_leave(seat)
        if reason == "move":
            self.notify(seat, envelope("notice", NoticeData(code="timed_out")))
        self.broadcast_room()
        self.kick()

    def stand_in_again(self) -> None:
        """After a rebuild from the log: a stand-in plays again at once for
        every seat whose last action in the match one made
        (:attr:`TableGame.stood_in`; no second ``timed_out`` notice), until
        its player acts or comes back."""
        for seat in self.game.stood_in:
            if self._watched(seat) and seat not in self.game.away:
                self.game.away.add(seat)
                self._away_reason[seat] = "move" if self._present(seat) else "hold"
                self._arm_leave(seat)

    def back(self, seat: Seat, *, quiet: bool = False) -> None:
        """``seat``'s player is here: the stand-in stops, the countdowns
        for him end."""
        changed = seat in self.game.away or self._deadline(seat, "leave") is not None
        self.game.away.discard(seat)
        self._away_reason.pop(seat, None)
        if self._present(seat):
            self._cancel(seat, "leave")
            self._cancel(seat, "hold")
        if changed:
            self._arm_clock()
            if not quiet:
                self.broadcast_room()

    async def _leave_away(self, seat: Seat) -> None:
        """Away too long: the player leaves; when the database refuses it,
        it is tried again after :func:`retry_pause`."""
        try:
            await self.leave(seat)
        except ProtocolError as exc:
            if exc.code != "unavailable" or self._closed:
                return
            failures = self._leave_failures[seat] = self._leave_failures.get(seat, 0) + 1
            self._arm(
                seat, "leave", retry_pause(failures), lambda: self._spawn(self._leave_away(seat))
            )
        else:
            self._leave_failures.pop(seat, None)

    # -------------------------------------------------- the host before start

    def _host_gone(self, seat: Seat) -> None:
        """``seat``'s last connection closed: if it hosts a table that has
        not started, the table passes to another connected human after
        ``hold`` seconds (a ``host`` countdown on the host's seat)."""
        if self.networked and self.status == "open" and self.meta.host == seat.letter:
            self._arm(seat, "host", self.game.options.hold, self._host_lapsed)

    def _host_lapsed(self) -> None:
        self._host_away = True
        self._spawn(self._pass_host_to_present())

    def _host_back(self, seat: Seat) -> None:
        """A connection of ``seat`` opened: the host's countdown ends; a
        table whose host stayed away passes to the first human back."""
        if self.status != "open":
            return
        if self.meta.host == seat.letter:
            self._cancel(seat, "host")
            self._host_away = False
        elif self._host_away:
            self._spawn(self._pass_host_to_present())

    async def _pass_host_to_present(self) -> None:
        """The host stayed away ``hold`` seconds before the start: the first
        connected human in seat order hosts the table (stored); with nobody
        connected the table waits (:meth:`_host_back`)."""
        async with self.lock:
            try:
                await self._sync()
            except ProtocolError:
                return  # the next human back (or the next change) tries again
            host = self.meta.host
            if self.status != "open" or not self._host_away:
                return
            if host is not None and self._present(Seat[host]):
                self._host_away = False
                return
            heir = next(
                (
                    s
                    for s in self.game.order
                    if s.letter != host
                    and self.seat_rows[s].kind == "human"
                    and not self.seat_rows[s].left
                    and self._present(s)
                ),
                None,
            )
            if heir is None:
                return
            undo = self._undo_point()
            self.meta = _with(self.meta, host=heir.letter)
            try:
                await self._store_seats(undo=undo)
            except ProtocolError:
                return  # the next human back (or the next change) tries again
            if host is not None:
                self._cancel(Seat[host], "host")
            self._host_away = False
        self.broadcast_room()

    # -------------------------------------------------------------- clocks

    def _deadline(self, seat: Seat | None, reason: Reason) -> float | None:
        return self._deadlines.get((seat, reason))

    def _arm(
        self, seat: Seat | None, reason: Reason, seconds: float, fire: Callable[[], None]
    ) -> None:
        self._cancel(seat, reason)
        loop = asyncio.get_running_loop()

        def run() -> None:
            self._timers.pop((seat, reason), None)
            self._deadlines.pop((seat, reason), None)
            fire()

        self._timers[(seat, reason)] = loop.call_later(seconds, run)
        self._deadlines[(seat, reason)] = time.time() + seconds

    def _cancel(self, seat: Seat | None, reason: Reason) -> None:
        handle = self._timers.pop((seat, reason), None)
        self._deadlines.pop((seat, reason), None)
        if handle is not None:
            handle.cancel()

    def _arm_clock(self) -> bool:
        """(Re)start the per-move clock for the human to decide now, and the
        countdown to the next deal (at the turn's ``deadline``), if the
        table has a clock.  Returns whether a countdown changed (the caller
        sends the room)."""
        clock = self.game.options.move_clock
        if not clock and self._move_key is None and self._next_key is None:
            return False  # no clock, none running: nothing to (re)start
        game = self.game
        target: tuple[Seat | None, int] | None = None
        next_target: tuple[int, int] | None = None
        if clock and self.networked and game.status == "playing":
            if game.waiting == "action" and game.pending() is None and game.state is not None:
                current = game.state.current
                if current is not None and current not in game.away:
                    target = (current, game.entries)
            elif (
                game.waiting == "next" and game.next_deadline is not None and game.pending() is None
            ):
                next_target = (game.match_number, game.deal_number)
        changed = False
        if next_target != self._next_key:
            changed = True
            self._cancel(None, "next")
            self._next_key = next_target
            if next_target is not None and game.next_deadline is not None:
                key = next_target

                def fire_next() -> None:
                    self._next_key = None
                    self._spawn(self._auto_next(key))

                self._arm(None, "next", max(0.0, game.next_deadline - time.time()), fire_next)
                self._deadlines[(None, "next")] = game.next_deadline
        if target != self._move_key:
            changed = True
            if self._move_key is not None:
                self._cancel(self._move_key[0], "move")
            self._move_key = target
            if target is not None and clock is not None:
                seat, entries = target
                assert seat is not None

                def fire() -> None:
                    self._move_key = None
                    if self.game.entries == entries:
                        self._stand_in(seat, "move")

                self._arm(seat, "move", clock, fire)
        return changed

    async def _auto_next(self, key: tuple[int, int]) -> None:
        """The clock ran out while the table waited for ``next``: the next
        deal starts (whoever agreed).  When the database refuses it, it is
        tried again after :func:`~rebelote.server.tables.table.retry_pause` (while
        the table still waits for that deal)."""
        try:
            async with self.lock:
                await self._sync()
                game = self.game
                if game.waiting == "next" and (game.match_number, game.deal_number) == key:
                    await self._commit(game.next_deal_entries())
        except ProtocolError as exc:
            if self._closed:
                return
            self._next_failures += 1
            pause = retry_pause(self._next_failures)
            log.warning("table %s: next deal %s; tried again in %.1f s", self.id, exc.code, pause)
            self._arm(None, "retry", pause, lambda: self._spawn(self._auto_next(key)))
        else:
            self._next_failures = 0

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def changed(self) -> None:
        """After each stored change: the clock; the results once a match is
        over; at the start and at a rematch, the absent players' seats
        held."""
        before = self._status_before
        await super().changed()
        send_room = False
        if before == "playing" and self.game.status == "finished":
            try:
                await asyncio.to_thread(self._record_results, self.game.match_number)
            except Exception:
                log.exception("table %s: cannot record the results", self.id)
            for seat in list(self._deadlines):
                self._cancel(*seat)
            self._move_key = self._next_key = None
            self.game.away.clear()
            self._away_reason.clear()
            send_room = True
        elif before in ("open", "finished") and self.game.status == "playing":
            # the start (whoever stored it: the host, or a write whose
            # answer was lost, read again) or a rematch: the seats of the
            # players not connected are held (again: countdowns, then a
            # stand-in), and everyone learns that the table plays
            self.hold_absent()
            send_room = True
        agreed = frozenset(self.game.agreed)
        if agreed != self._agreed_seen:
            # the seats that agreed lose their "next" countdown
            self._agreed_seen = agreed
            send_room = True
        if self._arm_clock() or send_room:
            self.broadcast_room()

    # ----------------------------------------------------------------- chat

    async def chat(self, seat: StreamKey, text: str) -> None:
        """``seat`` says ``text`` to the table.  Raises :class:`ProtocolError`
        (``spectator``, ``bad_message``, ``rate_limited``)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators watch; only players chat")
        row = self.seat_rows.get(seat)
        if row is None or row.kind != "human" or row.left:
            raise ProtocolError("left", "only the players at the table chat")
        line = clean_chat(text)
        now = time.time()
        await self.limiter.take(f"{self.id}:{seat.letter}", now)
        name = row.name
        line_id = await asyncio.to_thread(
            self.store.add_chat, self.id, seat.letter, name, line, now
        )
        data: ChatData = chat_data(line_id, seat.letter, name, line, now)
        self.broadcast(envelope("chat", data), sender=seat.letter)

    def _forget_mutes(self, seat: Seat, former: int | None) -> None:
        """``seat`` changes hands (``former``: its player's account): the
        mutes are its player's, so they go with him, and nobody keeps muting
        the newcomer.  The stored rows go with the seat's next change
        (:meth:`_store_seats`)."""
        told = [seat] if self.mutes.pop(seat, None) else []
        for other, muted in self.mutes.items():
            if seat.letter in muted:
                muted.discard(seat.letter)
                told.append(other)
        self._mute_drops.append((former, seat.letter))
        for other in told:
            self._tell_mutes(other)

    def load_mutes(self, rows: list[tuple[int, str]]) -> None:
        """The stored mutes ``(user_id, seat)``: each of a player who still
        holds a seat here (when the server rebuilds the table)."""
        for user_id, target in rows:
            seat = self.seat_of_user(user_id)
            if seat is not None:
                self.mutes.setdefault(seat, set()).add(target)

    async def mute(self, seat: StreamKey, target: str, muted: bool) -> list[str]:
        """``seat`` mutes (or unmutes) ``target``'s chat, stored for its
        player; returns the seats it mutes now.  Spectators cannot mute
        (they cannot be told apart)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot mute")
        if target == seat.letter:
            raise ProtocolError("bad_message", "you cannot mute yourself")
        if Seat[target] not in self.game.order:
            raise ProtocolError("bad_message", f"no seat {target} at this table")
        async with self.lock:
            await self._sync()
            row = self.seat_rows.get(seat)
            if row is not None and row.user_id is not None and self.networked:
                await asyncio.to_thread(self.store.set_mute, self.id, row.user_id, target, muted)
            mutes = self.mutes.setdefault(seat, set())
            if muted:
                mutes.add(target)
            else:
                mutes.discard(target)
            self._tell_mutes(seat)
            return sorted(mutes)

    def muted_by(self, seat: StreamKey) -> set[str]:
        """The seats ``seat`` mutes."""
        return set() if seat is None else self.mutes.get(seat, set())

    async def chat_history(self, seat: StreamKey) -> list[ChatData]:
        """The table's last chat lines, without those ``seat`` mutes."""
        lines = await asyncio.to_thread(self.store.chat, self.id)
        hidden = self.muted_by(seat)
        return [
            chat_data(line.id, line.seat, line.name, line.text, line.at)
            for line in lines
            if line.seat not in hidden
        ]

    # ---------------------------------------------------- seats before start

    def _require_open(self) -> None:
        if self.status == "closed":
            raise ProtocolError("table_closed", "the table is closed: everyone left")
        if self.status != "open":
            raise ProtocolError("not_open", f"the table is {self.status}: seats are settled")

    def _require_host(self, seat: Seat | None) -> None:
        if seat is None or self.meta.host != seat.letter:
            raise ProtocolError("not_host", "only the host may do that")

    def _require_human(self) -> None:
        if not any(row.kind == "human" and not row.left for row in self.seat_rows.values()):
            raise ProtocolError(
                "no_human", "a table needs at least one human player: it cannot play by itself"
            )

    def _seat(self, letter: str) -> Seat:
        seat = Seat[letter] if letter in ("N", "W", "S", "E") else None
        if seat is None or seat not in self.game.order:
            raise ProtocolError("bad_request", f"no seat {letter!r} at this table")
        return seat

    def _undo_point(self) -> _SeatUndo:
        """What a seat change may change in memory, to put back when the
        change cannot be stored."""
        return _SeatUndo(
            rows=dict(self.seat_rows),
            specs=dict(self.game.seats),
            meta=self.meta,
            mutes={seat: set(muted) for seat, muted in self.mutes.items()},
            mute_drops=list(self._mute_drops),
            closed=self.closed,
        )

    def _undo(self, point: _SeatUndo, *, seats: bool = True) -> None:
        """Put back the state of ``point``: the mutes and the closing, and
        with ``seats`` the rows, the game's seats and the host too
        (without: they are as the table just read them)."""
        told = {seat for seat, muted in self.mutes.items() if muted != point.mutes.get(seat)}
        told |= {seat for seat, muted in point.mutes.items() if muted != self.mutes.get(seat)}
        if seats:
            self.seat_rows = dict(point.rows)
            self.game.seats = dict(point.specs)
            self.meta = point.meta
        self.closed = point.closed
        self.mutes = point.mutes
        self._mute_drops = point.mute_drops
        for seat in told:
            self._tell_mutes(seat)

    async def _store_seats(
        self, *seats: Seat, status: str | None = None, undo: _SeatUndo | None = None
    ) -> None:
        """Store ``seats``' rows, the host, ``status`` and the mutes to
        drop, in one transaction (call under the lock, the table read
        again first when the last write's outcome was unknown:
        :meth:`_sync`, so that the other rows are as stored).  When the
        database refuses it, its outcome is unknown (a COMMIT whose answer
        was lost): the table reads its log and seats again at once
        (:meth:`_stored_anyway`); when they hold what was written, it was
        stored and this returns; else (or when they cannot be read) the
        change is undone in memory (``undo``: the state before it; else
        the rows stay as the database has them, or as they are until the
        table reads them again) and :class:`ProtocolError` ``unavailable``
        is raised."""
        drops, self._mute_drops = self._mute_drops, []
        rows = {s: self.seat_rows[s] for s in seats}
        host = self.meta.host
        try:
            await asyncio.to_thread(
                self.store.update_table,
                self.id,
                seats=list(rows.values()),
                host=host,
                set_host=True,
                status=status,
                drop_mutes=drops,
            )
        except Exception as exc:
            log.warning("table %s: cannot store its seats: %s", self.id, exc)

            def stored() -> bool:
                return (
                    all(self.seat_rows.get(s) == row for s, row in rows.items())
                    and self.meta.host == host
                    and (status != "closed" or self.closed)
                )

            if await self._stored_anyway(stored, undo):
                return
            if undo is None:
                self._mute_drops = drops + self._mute_drops
            raise ProtocolError(
                "unavailable", "the server could not save that; nothing changed, try again"
            ) from None

    async def _stored_anyway(self, stored: Callable[[], bool], undo: _SeatUndo | None) -> bool:
        """After a write of the room whose outcome is unknown (call under
        the lock): the table reads its log and seats again at once
        (:meth:`_resync`), and returns whether ``stored()`` then holds
        (the write was done, its answer lost: the change stands, the
        mutes as it left them).  Else the change is undone in memory
        (``undo``; the rows, host and game as read, or as before when
        they cannot be read: then the driver reads them again as soon as
        the database answers, and every change before that reads them
        first) and ``False`` is returned."""
        self._suspect = True
        try:
            await self._resync()
        except ProtocolError:
            if undo is not None:
                self._undo(undo)
            self.kick()
            return False
        if stored():
            return True
        if undo is not None:
            self._undo(undo, seats=False)
        return False

    def _put(self, row: StoredSeat) -> None:
        seat = Seat[row.seat]
        old = self.seat_rows.get(seat)
        if old is None or (old.kind, old.user_id) != (row.kind, row.user_id):
            self._forget_mutes(seat, None if old is None else old.user_id)
        self.seat_rows[seat] = row
        kind: Literal["human", "bot", "open"] = (
            "human" if row.kind == "human" else ("bot" if row.kind == "bot" else "open")
        )
        self.game.seats[seat] = SeatSpec(
            seat,
            kind,
            row.name,
            row.level,
            row.guest and kind == "human",
            outside_bot=row.outside_bot and kind == "human",
        )
        if kind == "bot":
            seated([row.level])

    def seat_of_user(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` holds here (not left), or ``None``."""
        for seat, row in self.seat_rows.items():
            if row.user_id == user_id and row.kind == "human" and not row.left:
                return seat
        return None

    async def join(
        self, letter: str, *, user_id: int, name: str, guest: bool, outside_bot: bool = False
    ) -> str:
        """Seat ``user_id`` at the free seat ``letter`` (``outside_bot``: an
        outside program, with a bot token); returns the seat's new token.
        Raises :class:`ProtocolError` (``not_open``,
        ``table_closed``, ``already_seated``, ``seat_taken``,
        ``account_required``)."""
        async with self.lock:
            await self._sync()
            self._require_open()
            seat = self._seat(letter)
            if self.seat_of_user(user_id) is not None:
                raise ProtocolError("already_seated", "you already hold a seat at this table")
            if self.seat_rows[seat].kind != "open":
                raise ProtocolError("seat_taken", f"the seat {letter} is taken")
            if self.meta.ranked and guest:
                raise ProtocolError("account_required", "a ranked table needs an account")
            token = secrets.token_urlsafe(24)
            undo = self._undo_point()
            self._put(
                StoredSeat(
                    letter,
                    "human",
                    name,
                    None,
                    hash_token(token),
                    user_id,
                    guest=guest,
                    outside_bot=outside_bot,
                )
            )
            if self.meta.host is None:
                self.meta = _with(self.meta, host=letter)
            await self._store_seats(seat, undo=undo)
        self.broadcast_room()
        return token

    async def guest_upgraded(self, user_id: int, name: str) -> None:
        """The guest ``user_id`` signed up as ``name`` (same user): his
        seats here lose their guest mark and, where he still sits, take
        the new name (stored again, so that no older copy of the row wins)."""
        changed = []
        async with self.lock:
            try:
                await self._sync()
            except ProtocolError:
                return  # the rows are read again (they say so) once the database answers
            for seat, row in list(self.seat_rows.items()):
                if row.user_id != user_id:
                    continue
                sitting = row.kind == "human" and not row.left
                self.seat_rows[seat] = _row(row, guest=False, name=name if sitting else row.name)
                spec = self.game.seats[seat]
                if sitting and spec.kind == "human":
                    self.game.seats[seat] = dataclasses.replace(spec, name=name, guest=False)
                changed.append(seat)
            if changed:
                # the account's rows already say so (the sign-up's own
                # write): a failure here leaves them to be read again
                with contextlib.suppress(ProtocolError):
                    await self._store_seats(*changed)
        if changed:
            self.broadcast_room()

    async def new_token(self, user_id: int) -> tuple[Seat, str]:
        """A fresh token for the seat ``user_id`` holds (the old one stops
        working).  Raises :class:`ProtocolError` ``no_seat``."""
        async with self.lock:
            await self._sync()
            seat = self.seat_of_user(user_id)
            if seat is None:
                raise ProtocolError("no_seat", "you hold no seat at this table")
            token = secrets.token_urlsafe(24)
            row = self.seat_rows[seat]
            undo = self._undo_point()
            self.seat_rows[seat] = _row(row, token_hash=hash_token(token))
            await self._store_seats(seat, undo=undo)
            return seat, token

    async def set_bot(self, by: Seat | None, letter: str, level: str | None) -> None:
        """The host puts a computer player of ``level`` at the empty seat
        ``letter`` (``level`` None: empties a computer player's seat)."""
        async with self.lock:
            await self._sync()
            self._require_open()
            self._require_host(by)
            seat = self._seat(letter)
            row = self.seat_rows[seat]
            if row.kind == "human":
                raise ProtocolError("seat_taken", f"a player sits at {letter}")
            if level is not None and level not in BOT_LEVELS:
                raise ProtocolError("bad_request", f"unknown level {level!r}")
            undo = self._undo_point()
            if level is None:
                self._put(StoredSeat(letter, "open", "", None, None))
            else:
                self._put(StoredSeat(letter, "bot", bot_name(seat), level, None))
            await self._store_seats(seat, undo=undo)
        self.broadcast_room()

    async def fill(self, by: Seat | None, level: str) -> None:
        """The host puts computer players of ``level`` in every empty seat
        (refused, ``no_human``, at a table with no human seated)."""
        if level not in BOT_LEVELS:
            raise ProtocolError("bad_request", f"unknown level {level!r}")
        async with self.lock:
            await self._sync()
            self._require_open()
            self._require_host(by)
            self._require_human()
            changed = []
            undo = self._undo_point()
            for seat in self.game.order:
                if self.seat_rows[seat].kind == "open":
                    self._put(StoredSeat(seat.letter, "bot", bot_name(seat), level, None))
                    changed.append(seat)
            await self._store_seats(*changed, undo=undo)
        self.broadcast_room()

    async def start(self, by: Seat | None) -> None:
        """The host starts the match (every seat taken, else
        ``seats_empty``; a human among them, else ``no_human``); a start
        stored though its answer was lost stands (:meth:`_stored_anyway`)."""
        async with self.lock:
            await self._sync()
            self._require_open()
            self._require_host(by)
            self._require_human()
            empty = [s.letter for s in self.game.order if self.seat_rows[s].kind == "open"]
            if empty:
                raise ProtocolError(
                    "seats_empty", f"seats {' '.join(empty)} are empty: fill them first"
                )
            for seat in self.game.order:
                self._cancel(seat, "host")
            self._host_away = False
            try:
                await self._commit(self.game.start_entries())  # holds the absent seats
            except ProtocolError as exc:
                # stored with its answer lost? the log read again says so
                if exc.code != "unavailable" or not await self._stored_anyway(
                    lambda: self.game.match is not None, None
                ):
                    raise
        self.broadcast_room()

    def hold_absent(self) -> None:
        """Start holding the seat of every human not connected (at the
        start, at a rematch, and when the server restarts a table); the
        table's clock runs again too; before the start, the host's
        (:meth:`_host_gone`)."""
        host = self.meta.host
        if self.status == "open" and host is not None and not self._present(Seat[host]):
            self._host_gone(Seat[host])
        for seat in self.game.order:
            if self.game.seats[seat].kind == "human" and not self._present(seat):
                self._dropped(seat)
        self._arm_clock()

    # --------------------------------------------------------------- leaving

    async def leave(self, seat: Seat) -> None:
        """``seat``'s player leaves: before the start, the seat is free
        again; during a match, he has left it (see the module docstring).
        Raises :class:`ProtocolError` (``no_seat``, ``table_closed``,
        ``unavailable`` when the database refuses it: nothing changed)."""
        async with self.lock:
            await self._sync()
            row = self.seat_rows.get(seat)
            if row is None or row.kind != "human" or row.left:
                raise ProtocolError("no_seat", "nobody to leave that seat")
            undo = self._undo_point()
            if self.status == "open":
                self._put(StoredSeat(seat.letter, "open", "", None, None))
                self._pass_host(seat)
                status = None
                if not any(r.kind == "human" for r in self.seat_rows.values()):
                    self.closed = True
                    status = "closed"
                await self._store_seats(seat, status=status, undo=undo)
            elif self.status == "closed" and self.game.match is not None:
                # the table closed after its match (someone refused the
                # rematch): nothing to record, he just goes
                self.seat_rows[seat] = _row(row, left=True)
                self._forget_mutes(seat, row.user_id)
                self._pass_host(seat)
                await self._store_seats(seat, undo=undo)
            elif self.status in ("playing", "finished"):
                await self._leave_match(seat, row, undo)
            else:
                raise ProtocolError("table_closed", "the table is closed")
            for reason in ("hold", "leave", "move", "host"):
                self._cancel(seat, reason)
            self.game.away.discard(seat)
            self._close_sockets(seat)
        self.broadcast_room()

    async def _leave_match(self, seat: Seat, row: StoredSeat, undo: _SeatUndo) -> None:
        """``seat``'s player leaves during a match (or once it is over):
        his result (a loss, unrated) is stored, then the seat's row, the
        host and the ``seat`` log entry in one transaction (under the
        lock).  Raises ``unavailable`` when the database refuses either
        (memory as before; a write whose answer was lost but which the
        database did store stands: :meth:`_stored_anyway`)."""
        finished = self.status == "finished"
        if not finished:
            try:  # stored once: a retry after a failure records nothing more
                await asyncio.to_thread(self._record_leaver, seat)
            except Exception as exc:
                log.warning("table %s: cannot record %s's leaving: %s", self.id, seat, exc)
                raise ProtocolError(
                    "unavailable", "the server could not save that; nothing changed, try again"
                ) from None
        self.seat_rows[seat] = _row(row, left=True)
        self._forget_mutes(seat, row.user_id)
        self._pass_host(seat)
        # the seat keeps the leaver's name; left: true says that a
        # computer player plays for him (a page says it in its
        # language); once the match is over, leaving refuses the
        # rematch, which can no longer have everyone: closed; with no
        # human left, nobody to play for: closed too
        closes = finished or not [h for h in self.game.humans if h != seat]
        entry = self.game.seat_entry(
            seat, "bot", row.name, STANDIN_LEVEL, left=True, closes=finished
        )
        left = self.seat_rows[seat]
        drops, self._mute_drops = self._mute_drops, []
        try:
            await self._commit(
                [entry],
                seats=[left],
                host=self.meta.host,
                set_host=True,
                status="closed" if closes else None,
                drop_mutes=drops,
            )
        except ProtocolError as exc:
            if exc.code != "unavailable":
                raise
            # stored with its answer lost? the seat's row says so (one
            # transaction with the log entry)
            if not await self._stored_anyway(lambda: self.seat_rows.get(seat) == left, undo):
                raise
        if closes:
            # the computer players stop here
            self.closed = True
            self._closed = True

    def _pass_host(self, leaving: Seat) -> None:
        if self.meta.host != leaving.letter:
            return
        for seat in self.game.order:
            row = self.seat_rows[seat]
            if seat != leaving and row.kind == "human" and not row.left:
                self.meta = _with(self.meta, host=seat.letter)
                if self.status == "open" and not self._present(seat):
                    self._host_gone(seat)
                return
        self.meta = _with(self.meta, host=None)

    # --------------------------------------------------------------- results

    def _teams(self) -> list[list[Seat]]:
        if self.game.rules.players != 4:  # each for himself (3 or 2 players)
            return [[s] for s in self.game.order]
        return [[Seat.N, Seat.S], [Seat.W, Seat.E]]

    def _rated(self, seat: Seat) -> Rated:
        row = self.seat_rows[seat]
        spec = self.game.seats[seat]
        if spec.kind == "human" and row.user_id is not None:
            user = self.store.user(row.user_id)
            if user is not None and not user.guest:
                return Rated(user.id, user.mu, user.sigma)
        return bot_rating(spec.level if spec.kind == "bot" else STANDIN_LEVEL)

    def _record_leaver(self, seat: Seat) -> None:
        """Store the leaver's result: a loss, unrated (``unrated_reason``
        ``left``), no experience; nobody's rating changes (synchronous: in
        a thread, under the lock)."""
        game = self.game
        row = self.seat_rows[seat]
        teams = self._teams()
        side = next(i for i, team in enumerate(teams) if seat in team)
        me = self._rated(seat)
        line = ResultLine(
            table_id=self.id,
            match=game.match_number,
            seat=seat.letter,
            user_id=row.user_id,
            name=row.name,
            side=game.sides[side],
            won=False,
            left=True,
            ranked=False,
            mu_before=me.mu if me.user_id is not None else None,
            sigma_before=me.sigma if me.user_id is not None else None,
            mu_after=None,
            sigma_after=None,
            xp=0,
            deals=game.deal_number,
            at=time.time(),
            unrated_reason="left",
        )
        self.store.record_results([line], [])

    def _record_results(self, number: int) -> None:
        """Store every seat's result of the finished match ``number``, the
        new ratings (a ranked match everyone played:
        :func:`~rebelote.server.people.ratings.unrated_reason`) and the experience
        gained (none after a match someone left or stand-ins played)
        (synchronous: in a thread, under the lock)."""
        game = self.game
        match = game.match
        if match is None or match.winner is None:
            return
        earlier = self.store.results_of_match(self.id, number)
        done = {r.seat for r in earlier}
        someone_left = any(r.left for r in earlier)
        teams = self._teams()
        totals = match.totals
        winner = match.winner
        ranks = [
            1
            if i == winner
            else 2 + sum(1 for j, t in enumerate(totals) if j != winner and t > totals[i])
            for i in range(len(teams))
        ]
        shares = {s.letter: share for s, share in game.standin_shares().items()}
        reason = unrated_reason(
            ranked=self.meta.ranked,
            someone_left=someone_left,
            standin_shares=shares,
            outside_bots=any(row.outside_bot for row in self.seat_rows.values()),
            bots_rated=game.options.bots_rated,
        )
        ranked = reason is None
        no_xp = reason in ("left", "standins")
        new: dict[int, tuple[float, float]] = {}
        rated = [[self._rated(s) for s in team] for team in teams]
        if ranked:
            new = rate(rated, ranks)
        lines = []
        for i, team in enumerate(teams):
            for seat, r in zip(team, rated[i], strict=True):
                if seat.letter in done:
                    continue
                row = self.seat_rows[seat]
                human = game.seats[seat].kind == "human"
                won = winner == i
                after = new.get(r.user_id) if r.user_id is not None else None
                lines.append(
                    ResultLine(
                        table_id=self.id,
                        match=number,
                        seat=seat.letter,
                        user_id=row.user_id if human else None,
                        name=game.seats[seat].name,
                        side=game.sides[i],
                        won=won,
                        left=False,
                        ranked=ranked,
                        mu_before=r.mu if r.user_id is not None else None,
                        sigma_before=r.sigma if r.user_id is not None else None,
                        mu_after=None if after is None else after[0],
                        sigma_after=None if after is None else after[1],
                        xp=0 if no_xp or not human else match_xp(deals=game.deal_number, won=won),
                        deals=game.deal_number,
                        at=time.time(),
                        unrated_reason=reason,
                    )
                )
        self.store.record_results(lines, [(uid, mu, sg, True) for uid, (mu, sg) in new.items()])
        self._record_progress(number, teams)

    def _record_progress(self, number: int, teams: list[list[Seat]]) -> None:
        """Count the finished match ``number`` toward each account's
        challenges and trophies, from its stored results: only the lines
        of a rated match (``ranked``: nobody left, few enough stand-ins, a
        ranked table, the ratings' rule) count, each once per match and
        account (:func:`~rebelote.server.people.awards.award_match`);
        guests and computer players count nothing (synchronous: in a
        thread, under the lock)."""
        game = self.game
        match = game.match
        if match is None:
            return
        deals = [d.result for d in match.deals]
        at = datetime.now(UTC)
        for line in self.store.results_of_match(self.id, number):
            if line.user_id is None or line.left or not line.ranked:
                continue
            user = self.store.user(line.user_id)
            if user is None or user.guest:
                continue
            side = next(i for i, team in enumerate(teams) if parse_seat(line.seat) in team)
            opponents = [s for i, team in enumerate(teams) if i != side for s in team]
            levels = [
                game.seats[s].level if game.seats[s].kind == "bot" else None for s in opponents
            ]
            counts = match_counts(
                rules=game.rules, deals=deals, side=side, won=line.won, opponent_levels=levels
            )
            award_match(
                self.store,
                user_id=line.user_id,
                table_id=self.id,
                match=number,
                counts=counts,
                at=at,
            )

    async def close(self) -> None:
        """Stop the driver and the clocks."""
        self._stop_deserted_clock()
        if self._spectators_told is not None:
            self._spectators_told.cancel()
            self._spectators_told = None
        for key in list(self._timers):
            self._cancel(*key)
        for task in list(self._tasks):
            task.cancel()
        await super().close()


@dataclasses.dataclass(frozen=True, slots=True)
class _SeatUndo:
    """A room's seats, host, mutes and closing before a seat change (to put
    back when the change cannot be stored)."""

    rows: dict[Seat, StoredSeat]
    specs: dict[Seat, SeatSpec]
    meta: TableMeta
    mutes: dict[Seat, set[str]]
    mute_drops: list[tuple[int | None, str]]
    closed: bool


def _row(row: StoredSeat, **changes: Any) -> StoredSeat:
    return dataclasses.replace(row, **changes)


def _with(meta: TableMeta, **changes: Any) -> TableMeta:
    return dataclasses.replace(meta, **changes)
