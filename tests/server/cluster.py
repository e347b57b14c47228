"""Real ``rebelote serve`` processes sharing one PostgreSQL database and one
Redis, for the scale-out tests: started as subprocesses on free ports
(``--redis URL --db URL --redis-prefix P``), killed with SIGKILL as a crash
would, or stopped with SIGINT.

Each cluster uses a Redis key prefix of its own (deleted at the end) and a
PostgreSQL database of its own (``server/conftest.py``).  The processes log
to files in the test's temporary folder (shown when a process does not
start)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import redis

from rebelote.server.storage.tables import Store

from .brokers import free_port
from .live import Client, connect_client

__all__ = ["Cluster", "ServeProcess"]


class ServeProcess:
    """One ``rebelote serve`` process on 127.0.0.1:``port`` (a free one by
    default), on ``db`` and ``redis_url`` with ``prefix``; its output goes
    to ``log``."""

    def __init__(self, db: str, redis_url: str, prefix: str, log: Path, port: int | None = None):
        self.db = db
        self.redis_url = redis_url
        self.prefix = prefix
        self.log = log
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 180.0) -> ServeProcess:
        """Start the process and wait until it answers."""
        command = [
            sys.executable,
            "-m",
            "rebelote",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--redis",
            self.redis_url,
            "--redis-prefix",
            self.prefix,
            "--log-level",
            "warning",
            "--no-warm-solver",
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + timeout
        while True:
            rc = self.proc.poll()
            if rc is not None:
                raise RuntimeError(f"rebelote serve stopped ({rc}): {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.TransportError):
                # a loaded machine may take seconds to answer the first request
                if httpx.get(self.url + "/api/presets", timeout=10).status_code == 200:
                    return self
            if time.monotonic() > deadline:
                raise RuntimeError(f"rebelote serve did not answer: {self.log.read_text()[-2000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL, as a crash: no lease given back, no socket closed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        """SIGINT (a clean stop), SIGKILL after 20 s."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def connect(self, table_id: str, token: str | None, **query: Any) -> Client:
        """A scripted WebSocket client of this process."""
        return connect_client(self.ws_url, table_id, token, **query)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)


class Cluster:
    """Server processes on one database and one Redis (key prefix of its
    own): :meth:`add` starts one more."""

    def __init__(self, db: str, redis_url: str, folder: Path) -> None:
        self.db = db
        self.redis_url = redis_url
        self.folder = folder
        self.prefix = f"rbtest{secrets.token_hex(4)}:"
        self.processes: list[ServeProcess] = []
        store = Store(db)  # once, before processes start together
        try:
            store.migrate()
        finally:
            store.close()

    def add(self, port: int | None = None) -> ServeProcess:
        n = len(self.processes)
        made = ServeProcess(
            self.db, self.redis_url, self.prefix, self.folder / f"serve-{n}.log", port
        )
        self.processes.append(made)
        return made.start()

    def redis(self) -> redis.Redis:
        client: redis.Redis = redis.Redis.from_url(self.redis_url, decode_responses=True)
        return client

    def owner(self, table_id: str) -> int | None:
        """The pid of the process driving ``table_id`` (its lease), or
        ``None``."""
        client = self.redis()
        try:
            value = client.get(f"{self.prefix}lease:{table_id}")
        finally:
            client.close()
        if value is None:
            return None
        return int(str(value).split(":")[1])

    def store(self) -> Store:
        return Store(self.db)

    def close(self) -> None:
        for made in self.processes:
            made.stop()
        with contextlib.suppress(redis.RedisError, OSError):
            client = self.redis()
            try:
                keys = list(client.scan_iter(match=f"{self.prefix}*"))
                if keys:
                    client.delete(*keys)
            finally:
                client.close()
