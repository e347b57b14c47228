"""The table actor: one :class:`Table` per table id, holding its
:class:`~rebelote.server.game.TableGame` behind an asyncio lock.

Every change goes the same way, under the lock: the game turns a request
into log entries and applies them (an illegal one raises and changes
nothing), the entries are stored, then each seat's redacted messages are
published through the :class:`~rebelote.server.hub.Fanout`.  A change that
cannot be stored is undone by rebuilding the game from the stored log.

A driver task does what the server does by itself (computer players, the
player's automatic cut or pattern, his forced card, the next deal when
``auto_next``), each after the delay of the table's speed (``bot_delay``
overrides it: 0 in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Iterable, Mapping
from typing import cast

from ..rules import Rules
from ..seats import Seat
from .game import AutoStep, Entry, EntryKind, Outgoing, SeatSpec, TableGame
from .hub import Fanout
from .players import choose_action
from .protocol import SPEED_DELAYS, ProtocolError, Snapshot, TableOptions, envelope
from .storage import Store, StoredEvent, StoredTable, hash_token

__all__ = ["Table", "game_from_stored", "stored_event"]

log = logging.getLogger(__name__)

NEXT_DEAL_FACTOR = 4.0
"""The pause before an automatic next deal, in computer-action delays."""


def game_from_stored(stored: StoredTable) -> tuple[TableGame, list[Outgoing]]:
    """Rebuild a table's game by replaying its stored log; also returns the
    messages the replay produced (the table's whole stream)."""
    rules = Rules.from_record(stored.rules)
    options = TableOptions.model_validate(stored.options)
    seats = {
        Seat[s.seat]: SeatSpec(
            Seat[s.seat], "human" if s.kind == "human" else "bot", s.name, s.level
        )
        for s in stored.seats
    }
    game = TableGame(stored.id, rules, options, stored.seed, seats)
    out: list[Outgoing] = []
    for e in stored.events:
        if e.seq != game.entries:
            raise ValueError(f"table {stored.id}: log entry {e.seq} where {game.entries} was due")
        if e.kind not in ("match", "deal", "act"):
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


class Table:
    """A live table.  ``tokens`` maps each human seat to the SHA-256 of its
    token; ``bot_delay`` (seconds) overrides the speed option when given."""

    def __init__(
        self,
        game: TableGame,
        *,
        store: Store,
        hub: Fanout,
        tokens: Mapping[Seat, str],
        bot_delay: float | None = None,
    ) -> None:
        self.game = game
        self.store = store
        self.hub = hub
        self.tokens = dict(tokens)
        self.bot_delay = bot_delay
        self.lock = asyncio.Lock()
        self._driver: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def id(self) -> str:
        """The table id."""
        return self.game.id

    def seat_of(self, token: str) -> Seat | None:
        """The seat whose token is ``token``, or ``None``."""
        digest = hash_token(token)
        for seat, stored in self.tokens.items():
            if hmac.compare_digest(stored, digest):
                return seat
        return None

    # ---------------------------------------------------------------- stream

    def publish(self, outs: Iterable[Outgoing]) -> None:
        """Publish messages to each seat's stream (a model shared by every
        seat is serialized once)."""
        for out in outs:
            texts: dict[tuple[int, int], str] = {}
            for seat, (v, model) in out.per_seat.items():
                key = (id(model), v)
                text = texts.get(key)
                if text is None:
                    text = texts[key] = envelope("event", model, v)
                self.hub.publish(self.id, seat, v, text)

    def snapshot_text(self, seat: Seat) -> tuple[int, str]:
        """The version and JSON text of ``seat``'s snapshot (call under the lock)."""
        snap: Snapshot = self.game.snapshot(seat)
        v = self.game.versions[seat]
        return v, envelope("snapshot", snap, v)

    # --------------------------------------------------------------- changes

    async def act(self, seat: Seat, action: str, belote: bool | None) -> None:
        """Apply ``seat``'s request (an action, ``next`` or ``rematch``).
        Raises :class:`ProtocolError`; then nothing changed."""
        async with self.lock:
            entries = self.game.request(seat, action, belote)
            await self._commit(entries)

    async def _commit(self, entries: list[Entry]) -> None:
        """Apply, store, publish (call under the lock)."""
        first = self.game.entries
        outs: list[Outgoing] = []
        stored: list[StoredEvent] = []
        try:
            for i, entry in enumerate(entries):
                outs += self.game.apply(entry)
                stored.append(stored_event(entry, first + i, self.game.deal_number))
        except ProtocolError:
            # refused before any change (the game validates first), unless an
            # earlier entry of the same request went through
            if stored:
                await self._reload()
            raise
        except Exception:
            log.exception("table %s: entry %d failed", self.id, first + len(stored))
            await self._reload()
            raise ProtocolError("internal", "the server failed on that; nothing changed") from None
        try:
            await asyncio.to_thread(self.store.append, self.id, stored, self.game.status)
        except Exception:
            log.exception("table %s: cannot store entries %d..", self.id, first)
            await self._reload()
            raise ProtocolError("internal", "the server could not save that; try again") from None
        self.publish(outs)
        self.kick()

    async def _reload(self) -> None:
        """Rebuild the game from the stored log (after a failed change)."""
        stored = await asyncio.to_thread(self.store.load, self.id)
        if stored is None:  # pragma: no cover - the table row never goes away
            raise ProtocolError("internal", "the table is gone")
        self.game, _ = game_from_stored(stored)

    # ---------------------------------------------------------------- driver

    def kick(self) -> None:
        """Start the driver if the server has something to do (call under the
        lock, or before the table is shared)."""
        if self._closed or self._driver is not None:
            return
        if self.game.pending() is not None:
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
        try:
            while True:
                async with self.lock:
                    step = self.game.pending()
                    if step is None or self._closed:
                        self._driver = None
                        return
                    version = self.game.entries
                    job = None
                    if step.kind == "bot":
                        assert step.seat is not None
                        level = self.game.seats[step.seat].level or "random"
                        job = (level, self.game.view(step.seat), self.game.decision_seed(step.seat))
                await asyncio.sleep(self._delay(step))
                action = None
                if job is not None:
                    action = await asyncio.to_thread(choose_action, *job)
                async with self.lock:
                    if self.game.entries != version or self._closed:
                        continue
                    if action is not None:
                        assert step.seat is not None
                        entries = [self.game.action_entry(step.seat, action, "bot")]
                    else:
                        entries = self.game.automatic_entry(step)
                    await self._commit(entries)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver stopped", self.id)
            self._driver = None

    async def close(self) -> None:
        """Stop the driver (the stored log keeps everything)."""
        self._closed = True
        task = self._driver
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._driver = None
