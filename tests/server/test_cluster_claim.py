"""One database, one cluster (``docs/scale-out.md``): the claim of the
cluster driving a database's live tables
(:mod:`rebelote.server.storage.claims`, :mod:`rebelote.server.claim`), on
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from rebelote.server.claim import (
    ClusterClaimed,
    claim_database,
    claim_window,
    holder_gone,
    identity,
    local_process,
    redis_location,
    refusal,
    release_cluster,
)
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.claims import ClusterClaim
from rebelote.server.storage.orm import now
from rebelote.server.storage.tables import Store

A = ("127.0.0.1:6379/0", "rb:")
B = ("127.0.0.1:6379/0", "blue:")
EMBEDDED = identity(None, "")
"""This process's identity without Redis: ``("", "local:HOST:PID:START")``."""


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    made = Store(db_url)
    made.migrate()
    try:
        yield made
    finally:
        made.close()


def test_nobody_claimed_then_the_first_claims(store: Store) -> None:
    assert store.cluster_claim() is None
    t0 = now().replace(microsecond=0)
    assert store.claim_cluster(*A, window=30, at=t0) is None
    assert store.cluster_claim() == ClusterClaim(*A, t0)


def test_a_fresh_claim_of_another_cluster_is_refused(store: Store) -> None:
    t0 = now().replace(microsecond=0)
    assert store.claim_cluster(*A, window=30, at=t0) is None
    held = store.claim_cluster(*B, window=30, at=t0 + timedelta(seconds=29))
    assert held == ClusterClaim(*A, t0)
    assert store.cluster_claim() == ClusterClaim(*A, t0)  # nothing written
    # a process without Redis is refused too, and refuses a cluster
    assert store.claim_cluster(*EMBEDDED, window=30, at=t0 + timedelta(seconds=5)) == held


def test_a_stale_claim_is_taken(store: Store) -> None:
    t0 = now().replace(microsecond=0)
    assert store.claim_cluster(*A, window=30, at=t0) is None
    later = t0 + timedelta(seconds=30)
    assert store.claim_cluster(*B, window=30, at=later) is None
    assert store.cluster_claim() == ClusterClaim(*B, later)
    # and now A is the one refused
    assert store.claim_cluster(*A, window=30, at=later + timedelta(seconds=1)) == ClusterClaim(
        *B, later
    )


def test_the_own_claim_is_refreshed(store: Store) -> None:
    t0 = now().replace(microsecond=0)
    assert store.claim_cluster(*A, window=30, at=t0) is None
    t1 = t0 + timedelta(seconds=3)
    assert store.claim_cluster(*A, window=30, at=t1) is None
    assert store.cluster_claim() == ClusterClaim(*A, t1)
    # the heartbeat: one UPDATE, for the own claim only
    t2 = t1 + timedelta(seconds=10)
    assert store.refresh_cluster_claim(*A, at=t2) is True
    assert store.refresh_cluster_claim(*B, at=t2 + timedelta(seconds=1)) is False
    assert store.cluster_claim() == ClusterClaim(*A, t2)


def test_an_embedded_process_restarted_after_a_crash_starts_at_once(store: Store) -> None:
    """A process without Redis is a cluster of its own (machine, process
    id, start time): its own claim is refreshed; another live process's
    refuses it; the claim of one that no longer runs on this machine (its
    id free, or taken by a process started later) is taken at once; one
    from another machine, or in the old shape without a process, waits
    for the window."""
    host, pid, started = local_process().removeprefix("local:").rsplit(":", 2)
    assert (EMBEDDED[0], pid) == ("", str(os.getpid())) and started.isdigit()
    t0 = now().replace(microsecond=0)
    assert store.claim_cluster(*EMBEDDED, window=30, at=t0, gone=holder_gone) is None
    t1 = t0 + timedelta(seconds=1)
    assert store.claim_cluster(*EMBEDDED, window=30, at=t1, gone=holder_gone) is None
    assert store.cluster_claim() == ClusterClaim(*EMBEDDED, t1)
    with subprocess.Popen(["sleep", "60"]) as sleeper:
        try:
            stat = Path(f"/proc/{sleeper.pid}/stat").read_text().rsplit(")", 1)[1].split()
            alive = ("", f"local:{host}:{sleeper.pid}:{stat[19]}")
            reused = ("", f"local:{host}:{sleeper.pid}:{int(stat[19]) - 1}")
            elsewhere = ("", f"local:other-host:{sleeper.pid}:{stat[19]}")
            # this process runs: another process without Redis is refused
            t2 = t1 + timedelta(seconds=1)
            assert store.claim_cluster(*alive, window=30, at=t2, gone=holder_gone) == (
                ClusterClaim(*EMBEDDED, t1)
            )
            # the sleeper (as if it served) holds it: this one is refused
            assert store.release_cluster_claim(*EMBEDDED) is True
            assert store.claim_cluster(*alive, window=30, at=t2, gone=holder_gone) is None
            assert store.claim_cluster(*EMBEDDED, window=30, at=t2, gone=holder_gone) == (
                ClusterClaim(*alive, t2)
            )
            assert holder_gone(ClusterClaim(*alive, t2)) is False
            # its process id run by a process started at another time: gone
            assert holder_gone(ClusterClaim(*reused, t2)) is True
            assert holder_gone(ClusterClaim(*elsewhere, t2)) is False
        finally:
            sleeper.kill()
    # the sleeper ended: its claim is taken at once (here by a Redis cluster)
    assert holder_gone(ClusterClaim(*alive, t2)) is True
    assert store.claim_cluster(*A, window=30, at=t2, gone=holder_gone) is None
    # another machine's, or the old shape: the window
    assert store.claim_cluster(*elsewhere, window=30, at=t2, gone=holder_gone) == (
        ClusterClaim(*A, t2)
    )
    t3 = t2 + timedelta(seconds=40)
    assert store.claim_cluster(*elsewhere, window=30, at=t3, gone=holder_gone) is None
    assert store.claim_cluster(*EMBEDDED, window=30, at=t3, gone=holder_gone) == (
        ClusterClaim(*elsewhere, t3)
    )
    assert holder_gone(ClusterClaim("", "", t3)) is False
    assert holder_gone(ClusterClaim(*A, t3)) is False


def test_a_released_claim_is_stale_at_once(store: Store) -> None:
    assert store.claim_cluster(*EMBEDDED, window=30) is None
    assert store.release_cluster_claim(*A) is False  # not A's
    assert store.claim_cluster(*A, window=30) is not None
    assert store.release_cluster_claim(*EMBEDDED) is True
    assert store.claim_cluster(*A, window=30) is None
    claim = store.cluster_claim()
    assert claim is not None and (claim.redis, claim.prefix) == A


@pytest.mark.parametrize("before", ["nobody", "stale"])
def test_of_clusters_claiming_at_once_exactly_one_wins(store: Store, before: str) -> None:
    t0 = now().replace(microsecond=0)
    if before == "stale":
        assert store.claim_cluster("10.0.0.9:6379/0", "old:", window=30, at=t0) is None
    at = t0 + timedelta(seconds=60)
    claimers = [("127.0.0.1:6379/0", f"c{k}:") for k in range(4)]
    barrier = threading.Barrier(len(claimers))
    outcomes: dict[str, ClusterClaim | None] = {}

    def claim(redis: str, prefix: str) -> None:
        barrier.wait()
        outcomes[prefix] = store.claim_cluster(redis, prefix, window=30, at=at)

    threads = [threading.Thread(target=claim, args=c) for c in claimers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(outcomes) == 4
    winners = [prefix for prefix, held in outcomes.items() if held is None]
    assert len(winners) == 1
    won = ClusterClaim("127.0.0.1:6379/0", winners[0], at)
    assert store.cluster_claim() == won
    assert all(held == won for held in outcomes.values() if held is not None)


def test_the_redis_location_never_shows_a_password() -> None:
    assert redis_location("redis://127.0.0.1:6379/0") == "127.0.0.1:6379/0"
    assert redis_location("redis://:s3cret@cache.example:6380/2") == "cache.example:6380/2"
    assert redis_location("rediss://ada:s3cret@cache.example") == "cache.example:6379/0"
    assert redis_location("redis://localhost") == "localhost:6379/0"
    assert redis_location("unix:///run/redis.sock?db=3") == "/run/redis.sock/3"
    assert redis_location("unix://:s3cret@/run/redis.sock") == "/run/redis.sock/0"


def test_the_refusal_says_who_drives_the_database_and_what_to_do() -> None:
    seen = now() - timedelta(seconds=4)
    assert refusal(ClusterClaim("127.0.0.1:6379/0", "rb:", seen), 30) == (
        "this database's tables are driven by the processes sharing Redis "
        "127.0.0.1:6379/0 with prefix rb: (seen 4 s ago): start with the same --redis "
        "and --redis-prefix, or stop them and wait 30 s"
    )
    assert refusal(ClusterClaim("", "local:box:4242:1234", seen), 30) == (
        "this database's tables are driven by another process without Redis "
        "(process 4242 on box, seen 4 s ago): two would drive each table twice; "
        "stop it first (on another machine, wait 30 s after it stopped)"
    )
    assert refusal(ClusterClaim("", "", seen), 30) == (
        "this database's tables are driven by another process without Redis "
        "(seen 4 s ago): two would drive each table twice; "
        "stop it first (on another machine, wait 30 s after it stopped)"
    )


def test_claim_database_raises_for_another_fresh_cluster(store: Store) -> None:
    settings = ServerSettings()
    assert claim_window(settings) == 30.0
    claim_database(store, "redis://:pw@127.0.0.1:6379/0", "rb:", settings)
    claim_database(store, "redis://127.0.0.1:6379", "rb:", settings)  # same cluster
    with pytest.raises(ClusterClaimed) as refused:
        claim_database(store, "redis://127.0.0.1:6379/0", "blue:", settings)
    assert re.fullmatch(
        r"this database's tables are driven by the processes sharing Redis "
        r"127\.0\.0\.1:6379/0 with prefix rb: \(seen \d+ s ago\): start with the same "
        r"--redis and --redis-prefix, or stop them and wait 30 s",
        str(refused.value),
    )
    with pytest.raises(ClusterClaimed):
        claim_database(store, None, "rb:", settings)


def test_a_benchmark_gives_its_stopped_cluster_s_claim_up(store: Store, db_url: str) -> None:
    """:func:`release_cluster` (the benchmarks, after stopping their
    processes): the claim of that cluster only is made stale."""
    assert store.claim_cluster(*A, window=30) is None
    release_cluster(db_url, "redis://127.0.0.1:6379/0", "blue:")  # not the claimer
    assert store.claim_cluster(*B, window=30) is not None
    release_cluster(db_url, "redis://:pw@127.0.0.1:6379/0", "rb:")
    assert store.claim_cluster(*B, window=30) is None
    claim = store.cluster_claim()
    assert claim is not None and (claim.redis, claim.prefix) == B


def test_the_app_refuses_to_start_on_another_fresh_claim(store: Store, db_url: str) -> None:
    from rebelote.server.app import create_app

    assert store.claim_cluster(*A, window=30) is None
    app = create_app(db_url, bot_delay=0, settings=ServerSettings(sweep_seconds=0))

    async def start() -> None:
        async with app.router.lifespan_context(app):
            raise AssertionError("started")

    with pytest.raises(ClusterClaimed):
        asyncio.run(start())
    claim = store.cluster_claim()
    assert claim is not None and (claim.redis, claim.prefix) == A


def test_the_app_keeps_its_claim_seen_and_gives_it_up_at_its_stop(
    store: Store, db_url: str
) -> None:
    """A process without Redis: claimed at start, seen again every
    heartbeat, stale at once after a clean stop."""
    from rebelote.server.app import create_app

    settings = ServerSettings(sweep_seconds=0, claim_heartbeat_seconds=0.05)
    app = create_app(db_url, bot_delay=0, settings=settings)

    async def run() -> None:
        async with app.router.lifespan_context(app):
            first = store.cluster_claim()
            assert first is not None and (first.redis, first.prefix) == EMBEDDED
            deadline = time.monotonic() + 30
            while (seen := await asyncio.to_thread(store.cluster_claim)) == first:
                assert time.monotonic() < deadline, "never seen again"
                await asyncio.sleep(0.02)
            assert seen is not None and seen.seen_at > first.seen_at

    asyncio.run(run())
    last = store.cluster_claim()
    assert last is not None and last.age() > 3600
    assert store.claim_cluster(*A, window=30) is None


@pytest.mark.parametrize("before", ["nobody", "stale"])
def test_a_claimer_overtaken_between_its_read_and_its_write_is_refused(
    store: Store, db_url: str, before: str
) -> None:
    """The race made certain: cluster B claims (and commits) just before
    A's write, after A read the row; A's write finds the row changed, A
    reads it again and is refused."""
    from sqlalchemy import event

    t0 = now().replace(microsecond=0)
    if before == "stale":
        assert store.claim_cluster("10.0.0.9:6379/0", "old:", window=30, at=t0) is None
    at = t0 + timedelta(seconds=60)
    other = Store(db_url)
    overtaken: list[ClusterClaim | None] = []

    def overtake(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if not overtaken and statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
            overtaken.append(other.claim_cluster(*B, window=30, at=at))

    event.listen(store.engine, "before_cursor_execute", overtake)
    try:
        assert store.claim_cluster(*A, window=30, at=at) == ClusterClaim(*B, at)
    finally:
        event.remove(store.engine, "before_cursor_execute", overtake)
        other.close()
    assert overtaken == [None]
    assert store.cluster_claim() == ClusterClaim(*B, at)


def _serve(db: str, port: int, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "rebelote", "serve", "--port", str(port), "--db", db]
    command += ["--log-level", "warning", "--no-warm-solver", *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _answers(port: int) -> bool:
    import httpx

    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def _until_answers(proc: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + 60
    while not _answers(port):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the server never answered"
        time.sleep(0.1)


def test_two_processes_without_redis_never_serve_one_database(tmp_path: Path) -> None:
    """``rebelote serve`` without Redis, twice on one database: the second
    exits with status 2 and says which process drives it; once the first
    is killed (``SIGKILL``: no clean stop), a new one starts at once; it
    stops in order on ``SIGHUP`` (exit 0) and gives its claim up.  With a
    Redis it cannot reach, a process exits with status 3 and one line,
    and claims nothing."""
    from .brokers import free_port

    db = f"sqlite:///{tmp_path / 'one.db'}"
    first_port, second_port = free_port(), free_port()
    first = _serve(db, first_port)
    try:
        _until_answers(first, first_port)
        second = _serve(db, second_port)
        out, err = second.communicate(timeout=120)
        assert second.returncode == 2 and out == ""
        assert re.fullmatch(
            r"error: this database's tables are driven by another process without Redis "
            rf"\(process {first.pid} on [^,]+, seen \d+ s ago\): two would drive each table "
            r"twice; stop it first \(on another machine, wait 30 s after it stopped\)\n",
            err,
        ), err
        first.kill()
        first.communicate()
        third = _serve(db, second_port)
        try:
            _until_answers(third, second_port)  # at once: no 30 s wait
            third.send_signal(signal.SIGHUP)
            out, err = third.communicate(timeout=60)
            assert third.returncode == 0 and "Traceback" not in err, err
        finally:
            if third.poll() is None:
                third.kill()
                third.communicate()
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    store = Store(db)
    try:
        claim = store.cluster_claim()
        assert claim is not None and claim.redis == "" and claim.age() > 3600  # given up
        unreachable = _serve(db, second_port, "--redis", "redis://:pw@127.0.0.1:1/0")
        out, err = unreachable.communicate(timeout=120)
        assert unreachable.returncode == 3 and out == ""
        assert re.fullmatch(r"error: cannot reach Redis at 127\.0\.0\.1:1/0: [^\n]+\n", err), err
        assert "pw" not in err
        assert store.cluster_claim() == claim  # nothing claimed
    finally:
        store.close()
