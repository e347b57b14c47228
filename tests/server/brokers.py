"""Helpers of the broker tests: the two implementations behind one
fixture, a Redis of the test's own that can be killed and restarted, and
waiting for a condition.

The Redis tests use ``TEST_REDIS_URL`` when set (it must be reachable),
else ``redis://127.0.0.1:6379/9`` when it answers; otherwise they are
skipped, except in CI (``CI=true``), where they fail.  Each test uses keys
and channels of its own (a random prefix: pub/sub channels ignore the
database number), deleted at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis

from rebelote.server.broker import Broker, MemoryBroker, RedisBroker

REDIS_ENV = "TEST_REDIS_URL"
DEFAULT_REDIS = "redis://127.0.0.1:6379/9"


def redis_url() -> str:
    """The Redis of the tests; skips (fails in CI, or when ``TEST_REDIS_URL``
    names one) when it does not answer."""
    url = os.environ.get(REDIS_ENV) or DEFAULT_REDIS
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1.0)
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as exc:
        if os.environ.get("CI") == "true" or os.environ.get(REDIS_ENV):
            pytest.fail(f"the Redis tests need Redis at {url}: {exc}")
        pytest.skip(f"no Redis at {url} (set {REDIS_ENV}): {exc}")
    return url


@dataclass
class Cluster:
    """The brokers ("processes") of one test, closed at its end, and for
    Redis the raw client and key prefix they share."""

    kind: str
    url: str | None
    prefix: str = field(default_factory=lambda: f"rbtest{secrets.token_hex(4)}:")
    brokers: list[Broker] = field(default_factory=list)

    async def broker(self, **options: Any) -> Broker:
        """A started broker; for Redis ``options`` go to
        :class:`RedisBroker` (``lease_ttl`` and ``presence_ttl`` default to
        2 s); for memory ``buffer_size`` only."""
        made: Broker
        if self.kind == "memory":
            if self.brokers:
                raise AssertionError("the in-process broker is one process")
            made = MemoryBroker(buffer_size=options.get("buffer_size", 1024))
        else:
            assert self.url is not None
            options.pop("buffer_size", None)
            options.setdefault("lease_ttl", 2.0)
            options.setdefault("presence_ttl", 2.0)
            made = RedisBroker(self.url, prefix=self.prefix, **options)
        await made.start()
        self.brokers.append(made)
        return made

    def raw(self) -> redis.asyncio.Redis:
        """A plain client of the shared Redis (to look at or spoil keys)."""
        assert self.url is not None
        client: redis.asyncio.Redis = redis.asyncio.Redis.from_url(self.url, decode_responses=True)
        return client

    async def close(self) -> None:
        for made in self.brokers:
            with contextlib.suppress(Exception):
                await made.close()
        if self.url is not None:
            with contextlib.suppress(redis.RedisError, OSError):
                client = self.raw()
                try:
                    keys = [k async for k in client.scan_iter(match=f"{self.prefix}*")]
                    if keys:
                        await client.delete(*keys)
                finally:
                    await client.aclose()


@dataclass(frozen=True)
class Backend:
    """One implementation: ``memory``, or ``redis`` at ``url``."""

    kind: str
    url: str | None = None

    @contextlib.asynccontextmanager
    async def cluster(self, url: str | None = None) -> AsyncIterator[Cluster]:
        """Brokers sharing one Redis (``url``, default the backend's),
        closed and cleaned at the end."""
        made = Cluster(self.kind, url or self.url)
        try:
            yield made
        finally:
            await made.close()


async def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait until ``check()`` is true (polling every 10 ms); fails with
    ``what`` after ``timeout`` seconds (a bound for a broken test, not a
    measure)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class OwnRedis:
    """A ``redis-server`` of the test's own on ``port`` (no persistence), to
    kill and start again: the shared server must never be stopped."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers."""
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("CI") == "true":
                pytest.fail("CI must run the Redis restart tests: apt-get install redis-server")
            pytest.skip("redis-server is not installed")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
                try:
                    client.ping()
                    return
                finally:
                    client.close()
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        """Kill the server (as a crash would) and wait for its end."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
