"""``rebelote bench server``: many tables of four WebSocket players at once.

The server runs in processes of its own: ``processes`` times ``rebelote
serve`` on 127.0.0.1, on consecutive free ports, all on one database (a
fresh SQLite file unless ``db`` is given, upgraded once before they start)
and, when ``redis`` is given, one Redis (``--redis URL`` is passed to every
process, with a key prefix of the run's own, whose keys are deleted at the
end).  Several processes need ``redis``: they share their live tables
through it.

Once every process answers, the bench waits (``settle``, at most
:data:`SETTLE_TIMEOUT`) until they are idle: a server that warms the
solver up at start (``rebelote serve`` before issue 14; since, only once a
table seats an expert) would otherwise share the measured time.  Then this
process plays every seat: for each table, four guests (three join the
host's private table by its invitation), each with its own WebSocket.  With
several server processes a table's four players are spread over them (seat
``k`` of table ``i`` talks to process ``(i + k) % processes``; there are no
sticky sessions).  Every socket is read from the moment it opens, so no
frame waits in a socket while the other tables are set up.  Once every table
is set up, the hosts start them; each seat plays a random legal action as
soon as it must decide (a finished match is followed by a rematch).  After
one second of warm-up the figures are counted for ``seconds``.

By default each seat acts as soon as it must decide: the tables play as
fast as the server lets them, and the time from an action to its event is
then mostly queueing (about the tables divided by the actions per second:
Little's law).  ``think`` (seconds) paces the players as people play: each
action is sent a time drawn uniformly between half and one and a half
``think`` after the turn reached the seat (the time is measured from the
send); the load is then about ``tables / think`` actions per second.

Reported (:meth:`BenchResult.report`): the tables held (four seats still
connected, each having received an event in the measured time), the
messages the clients received per second, and the time from an action sent
by one seat to its event (``bid``, ``card``) reaching each of the other
three seats (50th and 99th percentiles, milliseconds; both ends are in this
process, so the figure includes this process's own queueing).  Errors are
counted by code: a server ``error`` message, a socket closed before the end
(``closed_CODE``), a failed table set-up (``setup_...``), a server process
that stopped during the run (``server_exited``).

Only loopback addresses are used for the players; the run is bounded by
``tables`` and ``seconds`` and stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = [
    "MAX_PROCESSES",
    "MAX_TABLES",
    "BenchResult",
    "forget_keys",
    "processes_of_table",
    "run_bench",
]

SEATS = ("S", "N", "W", "E")

MAX_TABLES = 1000
"""The most tables one run opens (4,000 WebSocket clients)."""

MAX_PROCESSES = 16
"""The most ``rebelote serve`` processes one run starts."""

WARMUP = 1.0
"""Seconds of play after the tables start and before counting begins."""

SETUP_BATCH = 10
"""Tables set up (guests, table, joins, sockets) concurrently."""

START_TIMEOUT = 180.0
"""Seconds every server process has to answer its first request."""

SETTLE_TIMEOUT = 120.0
"""Seconds the bench waits, at most, for the server processes to go idle
after they answer (``rebelote serve`` before issue 14 warmed the solver up
in a thread at start: with numba installed that is about half a minute of
one core)."""

IDLE_PERCENT = 10.0
"""A server process using less CPU than this over a second (100 = one core)
counts as idle."""


@dataclass
class BenchResult:
    """The figures of one run: ``seconds`` measured, ``messages`` received
    by all the clients, ``actions`` sent, action-to-event ``latencies_ms``,
    and ``errors`` by code."""

    tables: int
    processes: int
    tables_held: int = 0
    seconds: float = 0.0
    messages: int = 0
    actions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        """Count one error by its code (a server ``error`` message, or a
        client failure)."""
        self.errors[code] = self.errors.get(code, 0) + 1

    def report(self) -> dict[str, Any]:
        """JSON-ready figures: ``tables``, ``processes``, ``tables_held``,
        ``clients``, ``seconds``, ``messages``, ``messages_per_s``,
        ``actions``, ``actions_per_s``, ``latency_samples``, ``p50_ms``,
        ``p99_ms``, ``mean_ms`` (None without samples), ``errors`` (their
        number) and ``error_codes`` (the number of each)."""
        lat = sorted(self.latencies_ms)

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 2)

        per_s = (lambda n: round(n / self.seconds, 1)) if self.seconds else (lambda n: 0.0)
        return {
            "tables": self.tables,
            "processes": self.processes,
            "tables_held": self.tables_held,
            "clients": self.tables * 4,
            "seconds": round(self.seconds, 2),
            "messages": self.messages,
            "messages_per_s": per_s(self.messages),
            "actions": self.actions,
            "actions_per_s": per_s(self.actions),
            "latency_samples": len(lat),
            "p50_ms": pct(50),
            "p99_ms": pct(99),
            "mean_ms": round(statistics.fmean(lat), 2) if lat else None,
            "errors": sum(self.errors.values()),
            "error_codes": dict(sorted(self.errors.items())),
        }


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _free_ports(count: int) -> list[int]:
    """``count`` consecutive ports free on 127.0.0.1 (a moment ago)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base: int = s.getsockname()[1]
        ports = list(range(base, base + count))
        if ports[-1] <= 65535 and all(_port_free(p) for p in ports[1:]):
            return ports
    raise RuntimeError(f"no {count} consecutive free ports on 127.0.0.1")


def processes_of_table(table: int, processes: int) -> list[int]:
    """The server process (0 to ``processes - 1``) each seat of the
    ``table``-th table talks to, in the order S, N, W, E: seat ``k`` to
    ``(table + k) % processes``, so that with several processes a table's
    players are on different ones and the hosts are spread evenly."""
    return [(table + k) % processes for k in range(len(SEATS))]


class _Seat:
    def __init__(self, table: _Table, seat: str, token: str, base: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.base = base
        self.ws: ClientConnection | None = None
        self.last_event = 0.0
        # this seat's count of each seat's bids and cards in the current deal:
        # the n-th card of a seat in a deal is the same action at every seat
        self.deal: tuple[int, int] = (0, 0)
        self.seen: dict[tuple[str, str], int] = {}
        # the match this seat asked a rematch after (once each)
        self.rematch_after = 0


class _Table:
    def __init__(self, table_id: str, host: httpx.AsyncClient, csrf: str) -> None:
        self.id = table_id
        self.host = host
        self.csrf = csrf
        self.seats: list[_Seat] = []
        # (seat, kind, (match, deal), n) -> [sent at, receivers still to see it]
        self.sent: dict[tuple[str, str, tuple[int, int], int], list[float]] = {}


class _Bench:
    def __init__(
        self,
        bases: list[str],
        pids: list[int],
        tables: int,
        seconds: float,
        seed: int,
        say: Callable[[str], None],
        think: float = 0.0,
    ) -> None:
        self.say = say
        self.think = think
        self.later: set[asyncio.Task[None]] = set()
        self.bases = bases
        self.pids = pids
        self.n = tables
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.result = BenchResult(tables=tables, processes=len(bases))
        self.counting = False
        self.stopping = False
        self.window_start = float("inf")
        self.client_cpu = 0.0
        self.server_cpu: list[float | None] = []

    async def _guest(self, http: httpx.AsyncClient, name: str) -> str:
        r = await http.post("/api/auth/guest", json={"name": name})
        r.raise_for_status()
        csrf: str = r.json()["csrf"]
        return csrf

    async def setup(self, i: int, readers: list[asyncio.Task[None]]) -> _Table | None:
        """One private table with four guests, each with an open socket
        already read by its task (appended to ``readers``); not started.
        None (and an error counted) when the set-up fails."""
        # each table's players come from an address of their own (loopback,
        # told the server as a trusted proxy tells it): the server throttles
        # guests per address
        address = {"X-Forwarded-For": f"127.1.{i // 250}.{i % 250 + 1}"}
        bases = [self.bases[k] for k in processes_of_table(i, len(self.bases))]
        clients = [httpx.AsyncClient(base_url=b, timeout=60, headers=address) for b in bases]
        table: _Table | None = None
        try:
            csrfs = [await self._guest(c, f"T{i} {s}") for c, s in zip(clients, SEATS, strict=True)]
            options = {"speed": "instant", "auto_next": True, "auto_play_forced": False}
            r = await clients[0].post(
                "/api/lobby/tables",
                json={"visibility": "private", "target": 1000, "seat": "S", "options": options},
                headers={"X-CSRF-Token": csrfs[0]},
            )
            r.raise_for_status()
            created = r.json()
            table = _Table(created["table_id"], clients[0], csrfs[0])
            table.seats.append(_Seat(table, "S", created["token"], bases[0]))
            for client, csrf, seat, base in zip(
                clients[1:], csrfs[1:], SEATS[1:], bases[1:], strict=True
            ):
                r = await client.post(
                    f"/api/lobby/tables/{table.id}/join",
                    json={"seat": seat, "invite": created["invite"]},
                    headers={"X-CSRF-Token": csrf},
                )
                r.raise_for_status()
                table.seats.append(_Seat(table, seat, r.json()["token"], base))
            for s in table.seats:
                # from the table's address too: the server caps the sockets
                # one address holds open (max_sockets_per_address)
                s.ws = await connect(
                    f"{s.base.replace('http://', 'ws://')}/ws/{table.id}?token={s.token}",
                    max_size=2**20,
                    max_queue=1024,
                    close_timeout=2,
                    additional_headers=address,
                )
                readers.append(asyncio.create_task(self.read(s)))
            return table
        except httpx.HTTPStatusError as exc:
            self.result.error(f"setup_http_{exc.response.status_code}{_code_of(exc.response)}")
        except Exception as exc:
            self.result.error(f"setup_{type(exc).__name__}")
        finally:
            for c in clients[1:]:
                await c.aclose()
            if table is None:
                await clients[0].aclose()
        return None

    async def start(self, table: _Table) -> bool:
        """The host starts the table; False (and an error counted) if refused."""
        try:
            r = await table.host.post(
                f"/api/lobby/tables/{table.id}/start", headers={"X-CSRF-Token": table.csrf}
            )
            r.raise_for_status()
            return True
        except httpx.HTTPStatusError as exc:
            self.result.error(f"setup_http_{exc.response.status_code}{_code_of(exc.response)}")
        except Exception as exc:
            self.result.error(f"setup_{type(exc).__name__}")
        finally:
            await table.host.aclose()
        return False

    async def read(self, s: _Seat) -> None:
        """Read every message of the seat's socket as it comes, and act when
        the seat must decide; until cancelled or the socket closes."""
        ws = s.ws
        assert ws is not None
        try:
            async for text in ws:
                reply = self.on_message(s, text)
                if reply is None:
                    continue
                timed = s.table.sent.get(reply[1]) if reply[1] is not None else None
                if self.think > 0 and reply[1] is not None:
                    delay = self.think * self.rng.uniform(0.5, 1.5)
                    task = asyncio.create_task(self._send_later(ws, reply[0], timed, delay))
                    self.later.add(task)
                    task.add_done_callback(self.later.discard)
                    continue
                if timed is not None:
                    timed[0] = time.perf_counter()
                await ws.send(reply[0])
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self.stopping:
                received = getattr(exc, "rcvd", None)  # a websockets ConnectionClosed
                code = "" if received is None else f"_{received.code}"
                self.result.error(f"{type(exc).__name__}{code}")
            return
        if not self.stopping:
            self.result.error(f"closed_{ws.close_code}")

    async def _send_later(
        self, ws: ClientConnection, text: str, timed: list[float] | None, delay: float
    ) -> None:
        """Send an action ``delay`` s from now (a player thinking); its
        event's clock (``timed``) starts at the send."""
        await asyncio.sleep(delay)
        if timed is not None:
            timed[0] = time.perf_counter()
        with contextlib.suppress(Exception):  # the socket closed: read() counts it
            await ws.send(text)

    def on_message(
        self, s: _Seat, text: str | bytes
    ) -> tuple[str, tuple[str, str, tuple[int, int], int] | None] | None:
        """Count one message; the ``act`` to send, if the seat must decide,
        with the key of its entry in the table's ``sent`` (a bid or a card,
        whose events are timed; ``None`` for another action)."""
        now = time.perf_counter()
        counting = self.counting
        if counting:
            self.result.messages += 1
        msg = json.loads(text)
        t = msg["t"]
        d = msg["d"]
        if t == "error":
            self.result.error(d["code"])
            return None
        if t == "snapshot":
            turn = d["turn"]
            match = d.get("match") or {}
            deal = (match.get("number", 0), match.get("deal", 0))
        elif t == "event":
            s.last_event = now
            kind = d["kind"]
            deal = (d["match"], d["deal"])
            if kind in ("bid", "card"):
                if deal != s.deal:
                    s.deal = deal
                    s.seen.clear()
                seen = (d["seat"], kind)
                n = s.seen.get(seen, 0)
                s.seen[seen] = n + 1
                if d["seat"] != s.seat:
                    key = (d["seat"], kind, deal, n)
                    entry = s.table.sent.get(key)
                    if entry is not None:
                        if counting:
                            self.result.latencies_ms.append((now - entry[0]) * 1000)
                        entry[1] -= 1
                        if entry[1] <= 0:
                            del s.table.sent[key]
                return None
            if kind != "turn":
                return None
            turn = d
        else:
            return None
        if not turn["legal"] or turn["auto"]:
            return None
        if turn["waiting"] == "action" and turn["seat"] == s.seat:
            action: str = self.rng.choice(turn["legal"])
            body: dict[str, Any] = {"action": action}
            if action in turn["belote_choice"]:
                body["belote"] = False
            # timed: bids and cards (a cut, a pattern, a declaration are not)
            kind = {"bidding": "bid", "playing": "card"}.get(turn["phase"])
            if kind == "card" and not _is_card(action):
                kind = None
            mine: tuple[str, str, tuple[int, int], int] | None = None
            if kind is not None:
                n = s.seen.get((s.seat, kind), 0) if deal == s.deal else 0
                # the three other seats will each see its event once (the
                # time is set again when the action is sent)
                mine = (s.seat, kind, deal, n)
                s.table.sent[mine] = [time.perf_counter(), 3]
            if counting:
                self.result.actions += 1
            return json.dumps({"t": "act", "d": body}), mine
        if (
            turn["waiting"] == "rematch"
            and "rematch" in turn["legal"]
            and s.rematch_after != deal[0]
        ):
            # a rematch needs every human's word: each seat gives it, once
            # (the turns sent meanwhile still offer it)
            s.rematch_after = deal[0]
            return json.dumps({"t": "act", "d": {"action": "rematch"}}), None
        return None

    async def run(self) -> BenchResult:
        """Set the tables up, start them, play for ``seconds``, and measure."""
        readers: list[asyncio.Task[None]] = []
        tables: list[_Table] = []
        began = time.monotonic()
        for first in range(0, self.n, SETUP_BATCH):
            batch = [self.setup(i, readers) for i in range(first, min(self.n, first + SETUP_BATCH))]
            tables += [t for t in await asyncio.gather(*batch) if t is not None]
        started: list[_Table] = []
        for first in range(0, len(tables), SETUP_BATCH * 2):
            batch_tables = tables[first : first + SETUP_BATCH * 2]
            oks = await asyncio.gather(*(self.start(t) for t in batch_tables))
            started += [t for t, ok in zip(batch_tables, oks, strict=True) if ok]
        self.say(
            f"{len(tables)} table(s) set up, {len(started)} started "
            f"in {time.monotonic() - began:.1f} s"
        )
        await asyncio.sleep(WARMUP)
        cpu = time.process_time()
        server_cpu = [_cpu_seconds(pid) for pid in self.pids]
        self.window_start = time.perf_counter()
        self.counting = True
        self.say(f"measuring for {self.seconds:g} s")
        begin = time.monotonic()
        await asyncio.sleep(self.seconds)
        self.counting = False
        self.say("measured; closing the sockets")
        self.result.seconds = time.monotonic() - begin
        self.client_cpu = time.process_time() - cpu
        self.server_cpu = [
            None if a is None or b is None else a - b
            for a, b in zip([_cpu_seconds(pid) for pid in self.pids], server_cpu, strict=True)
        ]
        self.result.tables_held = sum(
            all(
                s.ws is not None and s.ws.close_code is None and s.last_event >= self.window_start
                for s in t.seats
            )
            for t in started
        )
        self.stopping = True
        for task in [*readers, *self.later]:
            task.cancel()
        await asyncio.gather(*readers, *self.later, return_exceptions=True)
        sockets = [s.ws for t in tables for s in t.seats if s.ws is not None]
        for first in range(0, len(sockets), 200):
            await asyncio.gather(
                *(ws.close() for ws in sockets[first : first + 200]), return_exceptions=True
            )
        return self.result


def _code_of(response: httpx.Response) -> str:
    """``_{code}`` of a refusal's JSON (``{"detail": {"code": ...}}``), or
    ``""``."""
    try:
        data = response.json()
    except ValueError:
        return ""
    detail = data.get("detail") if isinstance(data, dict) else None
    if isinstance(detail, dict) and isinstance(detail.get("code"), str):
        return f"_{detail['code']}"
    return ""


def _is_card(action: str) -> bool:
    return (
        len(action) in (2, 3)
        and action[-1] in "SHDC"
        and action[:-1] in ("7", "8", "9", "10", "J", "Q", "K", "A")
    )


def _cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of a process so far (Linux ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the command: state is field 3, utime 14 and stime 15 (1-based)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tail(path: Path, lines: int = 5) -> str:
    try:
        text = path.read_text(errors="replace").strip()
    except OSError:
        return ""
    return " | ".join(text.splitlines()[-lines:])


def _refused(log: Path, rc: int, port: int, redis: str | None) -> RuntimeError:
    """The error for a server process that stopped before answering: the
    flag it refused, else its last lines of output."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        if "no such option" in line.lower():
            said = line.strip(" │|\t")
            need = (
                "; this server runs one process on its own database, without Redis: "
                "--redis (and --processes above 1) need a server that serves with --redis"
                if redis
                else ""
            )
            return RuntimeError(f"rebelote serve refused the bench's flags ({said}){need}")
    return RuntimeError(
        f"the server on port {port} stopped before answering (exit status {rc}): {_tail(log)}"
    )


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_bench(
    *,
    tables: int = 50,
    seconds: float = 20.0,
    seed: int = 1,
    db: str | None = None,
    processes: int = 1,
    redis: str | None = None,
    settle: bool = True,
    think: float = 0.0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the benchmark (see the module docstring) and return its figures:
    :meth:`BenchResult.report`'s keys, and ``db`` (the database's scheme),
    ``redis`` (whether one was used), ``cpus``, ``load_average`` (the
    machine's 1-minute load average at the end of the measured time),
    ``server_cpu_percent`` (each server process's CPU use over the measured
    time, 100 = one core), ``client_cpu_percent`` (this process's) and
    ``settle_s`` (the seconds waited, with ``settle``, for the server
    processes to go idle after they answered, at most
    :data:`SETTLE_TIMEOUT`), ``think_s`` (``think``: the players' mean
    time to act, seconds; 0 for as fast as they can).  ``progress``, if given, is called with a
    line at each stage (servers ready, tables set up and started, measuring,
    done).

    Raises ``ValueError`` for arguments out of range (``tables`` 1 to
    :data:`MAX_TABLES`, ``seconds`` up to 600, ``processes`` 1 to
    :data:`MAX_PROCESSES`, ``think`` 0 to 60, several processes without
    ``redis``, a ``redis``
    URL that is not ``redis://``, ``rediss://`` or ``unix://``), and
    ``RuntimeError`` when a server process does not start (with its last
    lines of output, or the flags it refused)."""
    if not 1 <= tables <= MAX_TABLES:
        raise ValueError(f"--tables: 1 to {MAX_TABLES}")
    if not 0 < seconds <= 600:
        raise ValueError("--seconds: more than 0, up to 600")
    if not 1 <= processes <= MAX_PROCESSES:
        raise ValueError(f"--processes: 1 to {MAX_PROCESSES}")
    if not 0 <= think <= 60:
        raise ValueError("--think: 0 to 60 seconds")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)")
    if processes > 1 and redis is None:
        raise ValueError(
            f"--processes {processes} needs --redis URL: several server processes "
            "share their live tables through Redis"
        )
    from rebelote.server.claim import release_cluster
    from rebelote.server.storage.tables import Store

    ports = _free_ports(processes)
    prefix = f"rbbench{secrets.token_hex(4)}:"
    with tempfile.TemporaryDirectory() as folder:
        url = db or f"sqlite:///{Path(folder) / 'bench.db'}"
        store = Store(url)
        try:
            store.migrate()  # once, before the processes start together
        finally:
            store.close()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        procs: list[subprocess.Popen[bytes]] = []
        logs: list[Path] = []
        files: list[IO[bytes]] = []
        try:
            for port in ports:
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
                    "--log-level",
                    "warning",
                ]
                if redis is not None:
                    command += ["--redis", redis, "--redis-prefix", prefix]
                # the server's output goes to a file (never a pipe nobody reads)
                log = Path(folder) / f"serve-{port}.log"
                logs.append(log)
                files.append(log.open("wb"))
                procs.append(
                    subprocess.Popen(command, stdout=files[-1], stderr=subprocess.STDOUT, env=env)
                )
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            say = progress or (lambda line: None)
            _wait_ready(procs, bases, logs, ports, redis)
            say(f"{processes} server process(es) answering on ports {ports[0]}-{ports[-1]}")
            settled = time.monotonic()
            if settle:
                _wait_idle(procs)
                say(f"server process(es) idle after {time.monotonic() - settled:.0f} s")
            settled = time.monotonic() - settled
            bench = _Bench(bases, [p.pid for p in procs], tables, seconds, seed, say, think)
            result = asyncio.run(bench.run())
            load = os.getloadavg()[0]
            for proc, out, log, port in zip(procs, files, logs, ports, strict=True):
                if proc.poll() is not None:
                    result.error("server_exited")
                    out.flush()
                    tail = log.read_text(errors="replace").splitlines()[-20:]
                    say(f"the server on port {port} stopped ({proc.returncode}); its log ends:")
                    for line in tail:
                        say(f"  {line}")
        finally:
            _stop(procs)
            for f in files:
                f.close()
            if redis is not None:
                forget_keys(redis, prefix)
                # its processes stopped: the next benchmark on this
                # database (another prefix) need not wait for the claim
                release_cluster(url, redis, prefix)
    report = result.report()
    report["db"] = url.split(":", 1)[0]
    report["redis"] = redis is not None
    report["cpus"] = os.cpu_count()
    report["load_average"] = round(load, 2)
    report["server_cpu_percent"] = [
        None if cpu is None else round(100 * cpu / result.seconds, 1) for cpu in bench.server_cpu
    ]
    report["client_cpu_percent"] = round(100 * bench.client_cpu / result.seconds, 1)
    report["settle_s"] = round(settled, 1)
    report["think_s"] = think
    return report


def _wait_ready(
    procs: list[subprocess.Popen[bytes]],
    bases: list[str],
    logs: list[Path],
    ports: list[int],
    redis: str | None,
) -> None:
    """Wait until every server process answers; raises ``RuntimeError`` if
    one stops or :data:`START_TIMEOUT` passes."""
    deadline = time.monotonic() + START_TIMEOUT
    waiting = set(range(len(procs)))
    while waiting:
        for k in sorted(waiting):
            rc = procs[k].poll()
            if rc is not None:
                raise _refused(logs[k], rc, ports[k], redis)
            with contextlib.suppress(httpx.TransportError):
                # a loaded machine may take seconds to answer the first request
                if httpx.get(bases[k] + "/api/presets", timeout=10).status_code == 200:
                    waiting.discard(k)
        if waiting and time.monotonic() > deadline:
            ports_left = ", ".join(str(ports[k]) for k in sorted(waiting))
            raise RuntimeError(
                f"the server did not start in {START_TIMEOUT:.0f} s (ports {ports_left})"
            )
        if waiting:
            time.sleep(0.1)


def _wait_idle(procs: list[subprocess.Popen[bytes]]) -> None:
    """Wait until every server process uses less than :data:`IDLE_PERCENT`
    of a core over a second, or :data:`SETTLE_TIMEOUT` passes (no wait where
    ``/proc`` cannot tell)."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while time.monotonic() < deadline:
        before = [_cpu_seconds(p.pid) for p in procs]
        time.sleep(1.0)
        after = [_cpu_seconds(p.pid) for p in procs]
        if all(
            a is None or b is None or 100 * (a - b) < IDLE_PERCENT
            for a, b in zip(after, before, strict=True)
        ):
            return


def forget_keys(url: str, prefix: str) -> None:
    """Delete the Redis keys of a run (those starting with ``prefix``; best
    effort)."""
    import redis as redis_sync

    with contextlib.suppress(redis_sync.RedisError, OSError):
        client = redis_sync.Redis.from_url(url, socket_connect_timeout=2)
        try:
            keys = list(client.scan_iter(match=f"{prefix}*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
