"""``rebelote bench failover`` (two processes on real Redis and PostgreSQL,
the driver of half the tables killed mid-deal) and ``rebelote bench server
--processes 2`` on the same services: short real runs printing one JSON
line, and the arguments refused before anything starts.  The runs need
``TEST_REDIS_URL`` and ``TEST_DATABASE_URL`` (skipped without them, except
in CI)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from .conftest import _postgres_database

FAILOVER_KEYS = {
    "tables",
    "processes",
    "killed_tables",
    "moved",
    "lost_actions",
    "duplicate_actions",
    "log_gaps",
    "max_takeover_s",
    "mean_takeover_s",
    "leases_moved",
    "max_lease_s",
    "actions_acked",
    "actions_acked_before_kill",
    "stored_actions",
    "tables_played_on",
    "reconnects",
    "resumed_by_version",
    "resumed_by_snapshot",
    "errors",
    "error_codes",
    "db",
}


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from _postgres_database()


def _rebelote(*args: str, timeout: float = 400) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebelote", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_bench_failover_loses_nothing_and_moves_the_killed_tables(
    redis_url: str, pg_url: str
) -> None:
    """Two tables: table 0 driven by process 0 (killed), table 1 by process
    1; the clients of process 0 (South of table 0, North of table 1)
    reconnect to process 1 and resume from their versions."""
    done = _rebelote(
        "bench",
        "failover",
        "--redis",
        redis_url,
        "--db",
        pg_url,
        "--tables",
        "2",
        "--seconds",
        "2",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert set(report) == FAILOVER_KEYS
    assert (report["tables"], report["processes"], report["killed_tables"]) == (2, 2, 1)
    assert (report["moved"], report["leases_moved"]) == (1, 1)
    assert (report["lost_actions"], report["duplicate_actions"], report["log_gaps"]) == (0, 0, 0)
    assert report["reconnects"] == 2
    # each reconnected socket caught up once; by its version at least once
    # (a socket whose subscription saw a gap under load resyncs from a
    # snapshot, which loses nothing: the log checks above)
    assert report["resumed_by_version"] + report["resumed_by_snapshot"] == 2
    assert report["resumed_by_version"] >= 1
    assert report["tables_played_on"] == 2
    assert report["errors"] == 0 and report["error_codes"] == {}
    assert report["max_takeover_s"] == report["mean_takeover_s"] > 0  # one table moved
    assert report["stored_actions"] >= report["actions_acked"] > report["actions_acked_before_kill"]
    assert report["db"] == "postgresql+psycopg"
    print(json.dumps(report))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tables", "0"], "--tables: 1 to 200"),
        (["--tables", "201"], "--tables: 1 to 200"),
        (["--seconds", "601"], "--seconds: 0 to 600"),
    ],
)
def test_bench_failover_refuses_bad_arguments_before_starting(
    args: list[str], message: str
) -> None:
    done = _rebelote("bench", "failover", "--redis", "redis://127.0.0.1:1/0", *args, "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": "bench failed", "message": message}
    assert done.stderr == f"error: {message}\n"


def test_bench_failover_needs_a_redis_url() -> None:
    done = _rebelote("bench", "failover", "--redis", "http://127.0.0.1:6379", "--json")
    assert done.returncode == 2
    message = "--redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)"
    assert json.loads(done.stdout) == {"error": "bench failed", "message": message}
    done = _rebelote("bench", "failover", "--json")
    assert done.returncode == 2 and "--redis" in done.stderr


def test_bench_server_on_two_processes_holds_every_table(redis_url: str, pg_url: str) -> None:
    done = _rebelote(
        "bench",
        "server",
        "--processes",
        "2",
        "--redis",
        redis_url,
        "--db",
        pg_url,
        "--tables",
        "2",
        "--seconds",
        "3",
        "--no-settle",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert (report["tables"], report["processes"], report["clients"]) == (2, 2, 8)
    assert report["tables_held"] == 2
    assert report["errors"] == 0 and report["error_codes"] == {}
    assert report["redis"] is True and report["db"] == "postgresql+psycopg"
    assert report["latency_samples"] > 0
    assert len(report["server_cpu_percent"]) == 2
