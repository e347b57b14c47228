"""``rebelote bench server``: many tables of four WebSocket players at once.

The server runs in a process of its own (``rebelote serve`` on 127.0.0.1, a
free port, a fresh SQLite file unless ``--db`` is given); this process plays
every seat: for each table, four guests (three join the host's private
table by its invitation), the host starts, and each seat plays a random
legal action as soon as it must decide, until the time is up (a finished
match is followed by a rematch).  Only loopback addresses are used; the run
is bounded by ``tables`` and ``seconds`` and stops by itself.

Reported: the tables held (set up and playing at once), the messages the
clients received per second, and the time from an action sent by one seat
to its event (``bid``, ``card``, ...) reaching each of the other three seats
(50th and 99th percentiles, milliseconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["BenchResult", "run_bench"]

SEATS = ("S", "N", "W", "E")


@dataclass
class BenchResult:
    """The figures of one run."""

    tables: int
    tables_playing: int
    seconds: float
    messages: int
    actions: int
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        """Count one error by its code (a server ``error`` message, or a
        client failure)."""
        self.errors[code] = self.errors.get(code, 0) + 1

    def report(self) -> dict[str, Any]:
        """JSON-ready figures."""
        lat = sorted(self.latencies_ms)

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 2)

        return {
            "tables": self.tables,
            "tables_held": self.tables_playing,
            "clients": self.tables * 4,
            "seconds": round(self.seconds, 2),
            "messages": self.messages,
            "messages_per_second": round(self.messages / self.seconds, 1) if self.seconds else 0,
            "actions": self.actions,
            "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else 0,
            "latency_samples": len(lat),
            "latency_p50_ms": pct(50),
            "latency_p99_ms": pct(99),
            "latency_mean_ms": round(statistics.fmean(lat), 2) if lat else None,
            "errors": sum(self.errors.values()),
            "error_codes": dict(self.errors),
        }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Seat:
    def __init__(self, table: _Table, seat: str, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.ws: ClientConnection | None = None
        self.playing = False


class _Table:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.seats: list[_Seat] = []
        self.sent: dict[tuple[str, str, int], float] = {}
        self.started = False


class _Bench:
    def __init__(self, base: str, tables: int, seconds: float, seed: int) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.n = tables
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.result = BenchResult(
            tables=tables, tables_playing=0, seconds=0.0, messages=0, actions=0
        )
        self.stop_at = 0.0
        self.counting = False

    async def _guest(self, http: httpx.AsyncClient, name: str) -> str:
        r = await http.post("/api/auth/guest", json={"name": name})
        r.raise_for_status()
        csrf: str = r.json()["csrf"]
        return csrf

    async def setup(self, i: int) -> _Table:
        """One private table with four guests, started."""
        # each table's players come from an address of their own (loopback,
        # told the server as a trusted proxy tells it): the server throttles
        # guests per address
        address = {"X-Forwarded-For": f"127.1.{i // 250}.{i % 250 + 1}"}
        clients = [
            httpx.AsyncClient(base_url=self.base, timeout=30, headers=address) for _ in SEATS
        ]
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
            table = _Table(created["table_id"])
            table.seats.append(_Seat(table, "S", created["token"]))
            for client, csrf, seat in zip(clients[1:], csrfs[1:], SEATS[1:], strict=True):
                r = await client.post(
                    f"/api/lobby/tables/{table.id}/join",
                    json={"seat": seat, "invite": created["invite"]},
                    headers={"X-CSRF-Token": csrf},
                )
                r.raise_for_status()
                table.seats.append(_Seat(table, seat, r.json()["token"]))
            for s in table.seats:
                # from the table's address too: the server caps the sockets
                # one address holds open (max_sockets_per_address)
                s.ws = await connect(
                    f"{self.ws_base}/ws/{table.id}?token={s.token}",
                    max_size=2**20,
                    additional_headers=address,
                )
            r = await clients[0].post(
                f"/api/lobby/tables/{table.id}/start", headers={"X-CSRF-Token": csrfs[0]}
            )
            r.raise_for_status()
            return table
        finally:
            for c in clients:
                await c.aclose()

    async def play(self, s: _Seat) -> None:
        """Read the seat's messages and act when it must decide."""
        ws = s.ws
        assert ws is not None
        table = s.table
        actions = 0
        try:
            while time.monotonic() < self.stop_at:
                try:
                    text = await asyncio.wait_for(ws.recv(), self.stop_at - time.monotonic())
                except TimeoutError:
                    return
                now = time.perf_counter()
                if self.counting:
                    self.result.messages += 1
                msg = json.loads(text)
                t = msg["t"]
                if t == "error":
                    self.result.error(msg["d"]["code"])
                    continue
                if t == "snapshot":
                    turn = msg["d"]["turn"]
                elif t == "event":
                    d = msg["d"]
                    kind = d["kind"]
                    if kind in ("bid", "card") and d["seat"] != s.seat:
                        key = (d["seat"], kind, d["match"] * 10_000 + d["deal"])
                        sent = table.sent.get((*key[:2], key[2]))
                        if sent is not None and self.counting:
                            self.result.latencies_ms.append((now - sent) * 1000)
                    if kind != "turn":
                        continue
                    turn = d
                else:
                    continue
                if not s.playing:
                    s.playing = True
                if turn["legal"] and not turn["auto"]:
                    if turn["waiting"] == "action" and turn["seat"] == s.seat:
                        action = self.rng.choice(turn["legal"])
                        body: dict[str, Any] = {"action": action}
                        if action in turn["belote_choice"]:
                            body["belote"] = False
                        kind = "card" if _is_card(action) else "bid"
                        table.sent[(s.seat, kind, turn["match"] * 10_000 + turn["deal"])] = (
                            time.perf_counter()
                        )
                        await ws.send(json.dumps({"t": "act", "d": body}))
                        actions += 1
                        if self.counting:
                            self.result.actions += 1
                    elif turn["waiting"] == "rematch" and s.seat == "S":
                        await ws.send(json.dumps({"t": "act", "d": {"action": "rematch"}}))
        except Exception as exc:
            self.result.error(type(exc).__name__)

    async def run(self) -> BenchResult:
        """Set the tables up, play for ``seconds``, and measure."""
        tables = []
        for start in range(0, self.n, 10):
            batch = [self.setup(i) for i in range(start, min(self.n, start + 10))]
            tables += await asyncio.gather(*batch)
        warmup = 1.0
        self.stop_at = time.monotonic() + warmup + self.seconds
        tasks = [asyncio.create_task(self.play(s)) for t in tables for s in t.seats]
        await asyncio.sleep(warmup)
        self.counting = True
        begin = time.monotonic()
        await asyncio.gather(*tasks)
        self.result.seconds = time.monotonic() - begin
        self.result.tables_playing = sum(all(s.playing for s in t.seats) for t in tables)
        for t in tables:
            for s in t.seats:
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await s.ws.close()
        return self.result


def _is_card(action: str) -> bool:
    return (
        len(action) in (2, 3)
        and action[-1] in "SHDC"
        and action[:-1]
        in (
            "7",
            "8",
            "9",
            "10",
            "J",
            "Q",
            "K",
            "A",
        )
    )


def run_bench(
    *, tables: int = 50, seconds: float = 20.0, seed: int = 1, db: str | None = None
) -> dict[str, Any]:
    """Run the benchmark (see the module docstring) and return its figures.
    Raises ``RuntimeError`` when the server does not start."""
    if not 1 <= tables <= 1000:
        raise ValueError("tables: 1 to 1000")
    if not 0 < seconds <= 600:
        raise ValueError("seconds: up to 600")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        url = db or f"sqlite:///{Path(folder) / 'bench.db'}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            [
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
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(base + "/api/presets", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
            result = asyncio.run(_Bench(base, tables, seconds, seed).run())
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    report = result.report()
    report["server"] = "rebelote serve (one process), SQLite" if db is None else "rebelote serve"
    report["cpus"] = os.cpu_count()
    return report
