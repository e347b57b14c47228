"""``rebelote bench failover``: kill the process driving half the tables and
count what was lost.

Two ``rebelote serve`` processes on 127.0.0.1 (consecutive free ports) share
one database (``db``; a fresh SQLite file when not given) and one Redis
(``redis``, under a key prefix of the run's own, deleted at the end).  Each
of ``tables`` private tables has two scripted human players and two
computer players (level ``random``, speed ``fast``): table ``i`` is opened
by its South on process ``i % 2`` (which drives it: it took the lease),
its North talks to the other process.  Every human action carries an id
and the client remembers which were acknowledged.

Once every table is in the middle of a deal (at least
:data:`CARDS_BEFORE_KILL` cards played), process 0 is killed with SIGKILL.
Its clients reconnect to the survivor with the version they hold (as the
browser client does) and send again the action they had not seen
acknowledged, with the same id.  The bench polls the tables' leases until
the survivor drives each table the dead process drove (``moved``, each
takeover timed from the kill), lets the tables play on for ``seconds``,
stops the survivor, and reads every table's stored log:

- ``lost_actions``: actions acknowledged to a client (applied, or
  answered ``duplicate``) whose id is not in the log;
- ``duplicate_actions``: ids found more than once in the log;
- ``log_gaps``: tables whose log entries are not numbered 0, 1, 2, ...;
- ``max_takeover_s`` / ``mean_takeover_s``: from the kill to the survivor's
  log line ``table ID taken over`` (the table rebuilt from its log and
  driven), over the moved tables; ``max_lease_s``: from the kill to the
  survivor holding the lease (polled in Redis).

:func:`run_failover` returns every key of the JSON line; they are listed in
``docs/scale-out.md`` ("Figures").

Loopback only; bounded by ``tables`` (1 to :data:`MAX_TABLES`) and
``seconds``; stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from rebelote.server.loadbench import _free_ports, _stop, _wait_ready, forget_keys

__all__ = ["CARDS_BEFORE_KILL", "MAX_TABLES", "run_failover"]

MAX_TABLES = 200
"""The most tables one run opens."""

CARDS_BEFORE_KILL = 6
"""Cards played at every table (seen by its South) before the kill."""

READY_TIMEOUT = 120.0
"""Seconds the tables have to get there before the kill."""

TAKEOVER_TIMEOUT = 30.0
"""Seconds the bench waits for the survivor to drive every moved table."""

SEATS = ("S", "N")


@dataclass
class _Human:
    table: _Table
    seat: str
    token: str
    process: int
    ws: ClientConnection | None = None
    v: int = 0
    turn: dict[str, Any] | None = None
    cards: int = 0
    counter: int = 0
    pending: dict[str, Any] | None = None  # the action sent and not acknowledged
    reconnects: int = 0
    resumed: int = 0  # reconnections answered with the missed events
    snapshots: int = 0  # ... answered with a snapshot
    after_reconnect: bool = False


@dataclass
class _Table:
    id: str
    host_process: int
    address: str
    humans: list[_Human] = field(default_factory=list)
    acked: set[str] = field(default_factory=set)
    driver: int | None = None  # the pid holding its lease before the kill


class _Failover:
    def __init__(
        self,
        bases: list[str],
        pids: list[int],
        tables: int,
        seconds: float,
        seed: int,
        redis_url: str,
        prefix: str,
        say: Callable[[str], None],
    ) -> None:
        self.bases = bases
        self.pids = pids
        self.n = tables
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.redis_url = redis_url
        self.prefix = prefix
        self.say = say
        self.tables: list[_Table] = []
        self.errors: dict[str, int] = {}
        self.dead: set[int] = set()
        self.stopping = False
        self.killed_at = 0.0

    def stopped(self) -> bool:
        """Whether the run is over (the sockets close)."""
        return self.stopping

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    # ------------------------------------------------------------- set-up

    async def _guest(self, http: httpx.AsyncClient, name: str) -> str:
        r = await http.post("/api/auth/guest", json={"name": name})
        r.raise_for_status()
        csrf: str = r.json()["csrf"]
        return csrf

    async def setup(self, i: int) -> _Table | None:
        """Table ``i``: South hosts it on process ``i % 2``, North joins on
        the other, computer players at W and E; started."""
        ip = f"127.2.{i // 250}.{i % 250 + 1}"
        address = {"X-Forwarded-For": ip}
        host_p = i % len(self.bases)
        other_p = (i + 1) % len(self.bases)
        south = httpx.AsyncClient(base_url=self.bases[host_p], timeout=60, headers=address)
        north = httpx.AsyncClient(base_url=self.bases[other_p], timeout=60, headers=address)
        try:
            s_csrf = await self._guest(south, f"F{i} S")
            n_csrf = await self._guest(north, f"F{i} N")
            options = {"speed": "fast", "auto_next": True, "auto_play_forced": False}
            r = await south.post(
                "/api/lobby/tables",
                json={"visibility": "private", "target": 2000, "seat": "S", "options": options},
                headers={"X-CSRF-Token": s_csrf},
            )
            r.raise_for_status()
            made = r.json()
            table = _Table(made["table_id"], host_p, ip)
            table.humans.append(_Human(table, "S", made["token"], host_p))
            r = await north.post(
                f"/api/lobby/tables/{table.id}/join",
                json={"seat": "N", "invite": made["invite"]},
                headers={"X-CSRF-Token": n_csrf},
            )
            r.raise_for_status()
            table.humans.append(_Human(table, "N", r.json()["token"], other_p))
            for path, body in (("fill", {"level": "random"}), ("start", None)):
                r = await south.post(
                    f"/api/lobby/tables/{table.id}/{path}",
                    json=body or {},
                    headers={"X-CSRF-Token": s_csrf},
                )
                r.raise_for_status()
            return table
        except httpx.HTTPStatusError as exc:
            self.error(f"setup_http_{exc.response.status_code}")
        except Exception as exc:
            self.error(f"setup_{type(exc).__name__}")
        finally:
            await south.aclose()
            await north.aclose()
        return None

    # ------------------------------------------------------------ players

    async def _open(self, h: _Human) -> ClientConnection:
        base = self.bases[h.process].replace("http://", "ws://")
        ws = await connect(
            f"{base}/ws/{h.table.id}",
            max_size=2**20,
            max_queue=1024,
            close_timeout=2,
            # from the table's address: the server caps the sockets one
            # address holds open (max_sockets_per_address)
            additional_headers={"X-Forwarded-For": h.table.address},
        )
        await ws.send(json.dumps({"t": "hello", "d": {"token": h.token, "last_v": h.v or None}}))
        return ws

    def _act(self, h: _Human) -> str | None:
        turn = h.turn
        if turn is None or not turn["legal"] or turn["auto"]:
            return None
        if turn["waiting"] == "rematch" and h.seat == "S":
            h.turn = None  # an agreement: stored without an id
            return json.dumps({"t": "act", "d": {"action": "rematch"}})
        if turn["waiting"] != "action" or turn["seat"] != h.seat:
            return None
        action: str = self.rng.choice(turn["legal"])
        h.counter += 1
        d: dict[str, Any] = {"action": action, "id": f"{h.table.id}.{h.seat}.{h.counter}"}
        if action in turn["belote_choice"]:
            d["belote"] = False
        h.pending = {"t": "act", "d": d, "v": h.v}
        h.turn = None
        return json.dumps(h.pending)

    def on_message(self, h: _Human, text: str | bytes) -> str | None:
        msg = json.loads(text)
        t, d = msg["t"], msg["d"]
        if t == "event":
            if msg["v"] != h.v + 1:
                self.error("gap")
            h.v = msg["v"]
            if h.after_reconnect:
                h.after_reconnect = False
                h.resumed += 1
            if d["kind"] == "card":
                h.cards += 1
            elif d["kind"] == "turn":
                h.turn = d
        elif t == "snapshot":
            h.v = msg["v"]
            h.turn = d["turn"]
            if h.after_reconnect:
                h.after_reconnect = False
                h.snapshots += 1
        elif t == "ack":
            h.table.acked.add(d["id"])
            if h.pending is not None and h.pending["d"]["id"] == d["id"]:
                h.pending = None
        elif t == "error":
            self.error(d["code"])
            if h.pending is not None and d["code"] == "unavailable":
                return json.dumps(h.pending)  # the same action again (same id)
            h.pending = None  # refused: nothing stored; look at the table again
            h.turn = None
            return json.dumps({"t": "sync"})
        if h.pending is None:
            return self._act(h)
        return None

    async def play(self, h: _Human) -> None:
        """Read ``h``'s socket and act; after a lost connection, reconnect
        to a live process with the version held and send the action not
        acknowledged again (same id)."""
        while not self.stopped():
            try:
                ws = h.ws
                if ws is None:
                    ws = h.ws = await self._open(h)
                    if h.pending is not None:
                        await ws.send(json.dumps(h.pending))
                async for text in ws:
                    reply = self.on_message(h, text)
                    if reply is not None:
                        await ws.send(reply)
                if self.stopped():
                    return
                self.error(f"closed_{ws.close_code}")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.stopped():
                    return
                if h.process not in self.dead:
                    self.error(type(exc).__name__)
            h.ws = None
            if h.process in self.dead:  # its process is gone: to a live one
                h.process = next(k for k in range(len(self.bases)) if k not in self.dead)
            h.reconnects += 1
            h.after_reconnect = True
            await asyncio.sleep(0.2)

    # ------------------------------------------------------------- leases

    async def owners(self) -> dict[str, int | None]:
        """Each table's lease holder (its pid), read from Redis."""
        from redis.asyncio import Redis

        client: Redis = Redis.from_url(self.redis_url, decode_responses=True)
        try:
            values = await client.mget([f"{self.prefix}lease:{t.id}" for t in self.tables])
        finally:
            await client.aclose()
        return {
            t.id: None if v is None else int(str(v).split(":")[1])
            for t, v in zip(self.tables, values, strict=True)
        }

    # ---------------------------------------------------------------- run

    async def run(self, procs: list[subprocess.Popen[bytes]]) -> dict[str, Any]:
        began = time.monotonic()
        for first in range(0, self.n, 10):
            made = await asyncio.gather(
                *(self.setup(i) for i in range(first, min(self.n, first + 10)))
            )
            self.tables += [t for t in made if t is not None]
        humans = [h for t in self.tables for h in t.humans]
        players = [asyncio.create_task(self.play(h)) for h in humans]
        self.say(f"{len(self.tables)} table(s) set up in {time.monotonic() - began:.1f} s")
        deadline = time.monotonic() + READY_TIMEOUT
        while any(t.humans[0].cards < CARDS_BEFORE_KILL for t in self.tables):
            if time.monotonic() > deadline:
                self.error("not_ready")
                break
            await asyncio.sleep(0.05)
        owners = await self.owners()
        for t in self.tables:
            t.driver = owners[t.id]
        victim = self.pids[0]
        victims = [t for t in self.tables if t.driver == victim]
        acked_before = sum(len(t.acked) for t in self.tables)
        self.say(f"killing process 0 (pid {victim}), the driver of {len(victims)} table(s)")
        killed = time.monotonic()
        self.killed_at = time.time()
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait()
        self.dead.add(0)
        moved_at: dict[str, float] = {}
        survivor = self.pids[1]
        while len(moved_at) < len(victims) and time.monotonic() - killed < TAKEOVER_TIMEOUT:
            owners = await self.owners()
            now = time.monotonic()
            for t in victims:
                if t.id not in moved_at and owners[t.id] == survivor:
                    moved_at[t.id] = now - killed
            await asyncio.sleep(0.05)
        self.say(f"{len(moved_at)} of {len(victims)} table(s) moved; playing {self.seconds:g} s")
        cards_at = {t.id: t.humans[1].cards for t in self.tables}
        await asyncio.sleep(self.seconds)
        self.stopping = True
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for h in humans:
            if h.ws is not None:
                with contextlib.suppress(Exception):
                    await h.ws.close()
        takeovers = sorted(moved_at.values())
        return {
            "victims": victims,
            "moved": len(moved_at),
            "takeovers": takeovers,
            "acked_before_kill": acked_before,
            "played_on": sum(1 for t in self.tables if t.humans[1].cards > cards_at[t.id]),
            "reconnects": sum(h.reconnects for h in humans),
            "resumed": sum(h.resumed for h in humans),
            "snapshots": sum(h.snapshots for h in humans),
        }


def _check_logs(url: str, tables: list[_Table]) -> dict[str, int]:
    """Read every table's log: lost and duplicate actions, gaps."""
    from rebelote.server.storage.tables import Store

    store = Store(url)
    lost = duplicates = gaps = stored_actions = 0
    try:
        for t in tables:
            stored = store.load(t.id)
            if stored is None:
                gaps += 1
                continue
            if [e.seq for e in stored.events] != list(range(len(stored.events))):
                gaps += 1
            ids = [e.payload["id"] for e in stored.events if e.kind == "act" and "id" in e.payload]
            stored_actions += len(ids)
            duplicates += len(ids) - len(set(ids))
            lost += len(t.acked - set(ids))
    finally:
        store.close()
    return {
        "lost_actions": lost,
        "duplicate_actions": duplicates,
        "log_gaps": gaps,
        "stored_actions": stored_actions,
    }


def run_failover(
    *,
    redis: str,
    db: str | None = None,
    tables: int = 10,
    seconds: float = 5.0,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the failover bench (see the module docstring) and return its
    figures: ``tables`` (set up), ``processes`` (2), ``killed_tables``
    (driven by the killed process), ``moved`` (of those, now driven by the
    survivor), ``lost_actions``, ``duplicate_actions``, ``log_gaps``,
    ``max_takeover_s``, ``mean_takeover_s`` (None when nothing moved),
    ``actions_acked``, ``stored_actions``, ``tables_played_on`` (tables
    whose North saw a card after the takeovers), ``reconnects``,
    ``resumed_by_version`` / ``resumed_by_snapshot`` (how the reconnected
    sockets caught up), ``errors`` and ``error_codes``, ``db`` (scheme).

    Raises ``ValueError`` for arguments out of range (``tables`` 1 to
    :data:`MAX_TABLES`, ``seconds`` 0 to 600, a ``redis`` URL that is not
    ``redis://``, ``rediss://`` or ``unix://``) and ``RuntimeError`` when a
    server process does not start."""
    if not 1 <= tables <= MAX_TABLES:
        raise ValueError(f"--tables: 1 to {MAX_TABLES}")
    if not 0 <= seconds <= 600:
        raise ValueError("--seconds: 0 to 600")
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)")
    from rebelote.server.claim import release_cluster
    from rebelote.server.storage.tables import Store

    say = progress or (lambda line: None)
    prefix = f"rbfail{secrets.token_hex(4)}:"
    ports = _free_ports(2)
    with tempfile.TemporaryDirectory() as folder:
        url = db or f"sqlite:///{Path(folder) / 'failover.db'}"
        store = Store(url)
        try:
            store.migrate()  # once, before the processes start together
        finally:
            store.close()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        procs: list[subprocess.Popen[bytes]] = []
        files: list[IO[bytes]] = []
        logs: list[Path] = []
        try:
            for port in ports:
                log = Path(folder) / f"serve-{port}.log"
                logs.append(log)
                files.append(log.open("wb"))
                command = [
                    sys.executable,
                    "-m",
                    "rebelote",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--db",
                    url,
                    "--redis",
                    redis,
                    "--redis-prefix",
                    prefix,
                    "--log-level",
                    "warning",
                    "--log-json",
                    "--no-warm-solver",
                ]
                procs.append(
                    subprocess.Popen(command, stdout=files[-1], stderr=subprocess.STDOUT, env=env)
                )
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            _wait_ready(procs, bases, logs, ports, redis)
            say(f"2 server processes answering on ports {ports[0]}-{ports[1]}")
            bench = _Failover(
                bases, [p.pid for p in procs], tables, seconds, seed, redis, prefix, say
            )
            figures = asyncio.run(bench.run(procs))
        finally:
            _stop(procs)
            for f in files:
                f.close()
            forget_keys(redis, prefix)
            # its processes stopped: the next benchmark on this database
            # (another prefix) need not wait for the claim
            release_cluster(url, redis, prefix)
        checked = _check_logs(url, bench.tables)
        ready = _taken_over(logs[1])
    victims = {t.id for t in figures["victims"]}
    takeovers = sorted(
        at - bench.killed_at for table_id, at in ready.items() if table_id in victims
    )
    leases = figures["takeovers"]
    return {
        "tables": len(bench.tables),
        "processes": 2,
        "killed_tables": len(figures["victims"]),
        "moved": len(takeovers),
        "lost_actions": checked["lost_actions"],
        "duplicate_actions": checked["duplicate_actions"],
        "log_gaps": checked["log_gaps"],
        "max_takeover_s": round(max(takeovers), 2) if takeovers else None,
        "mean_takeover_s": round(sum(takeovers) / len(takeovers), 2) if takeovers else None,
        "leases_moved": figures["moved"],
        "max_lease_s": round(max(leases), 2) if leases else None,
        "actions_acked": sum(len(t.acked) for t in bench.tables),
        "actions_acked_before_kill": figures["acked_before_kill"],
        "stored_actions": checked["stored_actions"],
        "tables_played_on": figures["played_on"],
        "reconnects": figures["reconnects"],
        "resumed_by_version": figures["resumed"],
        "resumed_by_snapshot": figures["snapshots"],
        "errors": sum(bench.errors.values()),
        "error_codes": dict(sorted(bench.errors.items())),
        "db": url.split(":", 1)[0],
    }


def _taken_over(log: Path) -> dict[str, float]:
    """When the survivor had rebuilt each table it took over (``time.time()``
    seconds), from its JSON log lines ``table ID taken over ...``."""
    found: dict[str, float] = {}
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return found
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        words = str(entry.get("message", "")).split()
        if len(words) >= 4 and words[0] == "table" and words[2:4] == ["taken", "over"]:
            stamp = datetime.strptime(entry["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
            found.setdefault(words[1], stamp.replace(tzinfo=UTC).timestamp())
    return found
