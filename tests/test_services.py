"""The services the tests run on: the ``redis_url`` fixture names a Redis
server that stores and returns a value (``.ci/run`` starts one and sets
``TEST_REDIS_URL``)."""

from __future__ import annotations

import secrets
import socket
from urllib.parse import urlsplit


def _command(conn: socket.socket, *args: str) -> bytes:
    """Send one RESP command and return the raw reply (small replies only)."""
    wire = f"*{len(args)}\r\n" + "".join(f"${len(a.encode())}\r\n{a}\r\n" for a in args)
    conn.sendall(wire.encode())
    return conn.recv(256)


def test_redis_url_stores_and_returns_a_value(redis_url: str) -> None:
    parts = urlsplit(redis_url)
    assert parts.scheme == "redis"
    key = f"rebelote-test:{secrets.token_hex(6)}"
    with socket.create_connection((parts.hostname, parts.port or 6379), timeout=5) as conn:
        assert _command(conn, "SET", key, "atout", "EX", "60") == b"+OK\r\n"
        assert _command(conn, "GET", key) == b"$5\r\natout\r\n"
        assert _command(conn, "DEL", key) == b":1\r\n"
        assert _command(conn, "GET", key) == b"$-1\r\n"
