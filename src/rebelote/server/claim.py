"""One database, one cluster (``docs/scale-out.md``): the processes
sharing a Redis (same ``--redis`` and ``--redis-prefix``) drive the live
tables of their database; a process on the same database with another
Redis or prefix, or without Redis, would drive them a second time (two
drivers per table).  So the database holds the claim of the cluster that
drives it (:mod:`rebelote.server.storage.claims`), refreshed by each of
its processes every ``settings.claim_heartbeat_seconds``; a process whose
identity differs from a claim seen within
:func:`claim_window` refuses to start (:class:`ClusterClaimed`).

A process without Redis claims too, as a cluster of its own (its
identity: an empty Redis location and, for prefix, ``local:`` with its
machine, process id and start time, :func:`local_process`), so that
neither kind starts over the other and two processes without Redis never
drive one database together.  Processes of the same identity never refuse
each other.  A claim left by a process without Redis that no longer runs
on this machine (killed, crashed: its id is gone, or belongs to a process
started later) is taken at once (:func:`holder_gone`), so that an
embedded server started again after a crash starts at once; one from
another machine waits for the window.  An embedded process gives its
claim up when it stops cleanly; a Redis cluster's claim stays (its other
processes run on) and grows stale within the window once they are all
gone.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket

from redis.connection import parse_url

from rebelote.server.broker import BrokerUnavailable
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.claims import ClusterClaim
from rebelote.server.storage.tables import Store

__all__ = [
    "ClusterClaimed",
    "claim_database",
    "claim_window",
    "holder_gone",
    "identity",
    "keep_claim",
    "local_process",
    "redis_location",
    "redis_unreachable",
    "refusal",
    "release_claim",
    "release_cluster",
]

log = logging.getLogger(__name__)


class ClusterClaimed(Exception):
    """The database's tables are driven by another cluster, seen lately:
    this process must not start (the message says which, and what to
    do)."""


def claim_window(settings: ServerSettings) -> float:
    """Seconds after which a claim not refreshed is stale: three
    heartbeats (``settings.claim_heartbeat_seconds``)."""
    return 3 * settings.claim_heartbeat_seconds


def redis_location(url: str) -> str:
    """Where the Redis of ``url`` is, without user nor password:
    ``host:port/db`` (``redis://``, ``rediss://``; port 6379 and db 0 by
    default) or ``path/db`` (``unix://``).  Raises ``ValueError`` for
    another scheme."""
    parts = parse_url(url)  # type: ignore[no-untyped-call]
    db = parts.get("db") or 0
    if "path" in parts:
        return f"{parts['path']}/{db}"
    return f"{parts.get('host') or 'localhost'}:{parts.get('port') or 6379}/{db}"


_LOCAL = "local:"
"""How the claim's prefix of a process without Redis starts."""


def _started(pid: int) -> str:
    """When the process ``pid`` started (clock ticks after the boot, from
    ``/proc``, as text); ``"-"`` when no such process runs; ``""`` when
    it cannot be known (no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return "-"
    except OSError:
        return ""
    return fields[19] if len(fields) > 19 else ""


def _host() -> str:
    """This machine's name as a claim holds it: at most 60 characters, no
    ``:``."""
    return socket.gethostname()[:60].replace(":", "_")


def _local_parts(prefix: str) -> tuple[str, str, str] | None:
    """The machine, process id and start time of a claim's ``prefix``
    made by :func:`local_process`; ``None`` for any other prefix."""
    if not prefix.startswith(_LOCAL):
        return None
    parts = prefix.removeprefix(_LOCAL).rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    return parts[0], parts[1], parts[2]


@functools.cache
def local_process() -> str:
    """The claim's prefix of this process when it runs without Redis:
    ``local:HOST:PID:START`` (its machine's name, at most 60 characters,
    its process id, its start time in clock ticks after the boot, empty
    where ``/proc`` is missing).  The same for the whole life of the
    process."""
    pid = os.getpid()
    return f"{_LOCAL}{_host()}:{pid}:{_started(pid)}"


def holder_gone(claim: ClusterClaim) -> bool:
    """Whether ``claim`` is held by a process without Redis known, on this
    machine, to be no longer running: its process id runs no process, or
    a process started at another time (the id taken again).  ``False``
    for a Redis cluster's claim, another machine's, or a process that
    cannot be checked (no ``/proc``): those wait for the window."""
    local = None if claim.redis else _local_parts(claim.prefix)
    if local is None:
        return False
    host, pid, started = local[0], int(local[1]), local[2]
    if host != _host() or pid == os.getpid():
        return False
    now_started = _started(pid)
    if now_started == "-":
        return True
    return bool(started) and bool(now_started) and now_started != started


def redis_unreachable(redis_url: str, exc: BaseException) -> BrokerUnavailable:
    """The error of a process that cannot reach its Redis at start (it
    then claims nothing): ``cannot reach Redis at HOST:PORT/DB: why``
    (:func:`redis_location`: never a password)."""
    return BrokerUnavailable(f"cannot reach Redis at {redis_location(redis_url)}: {exc}")


def identity(redis_url: str | None, prefix: str) -> tuple[str, str]:
    """The claim's identity of a process: its Redis location and prefix,
    or, without Redis, an empty location and :func:`local_process`."""
    if not redis_url:
        return "", local_process()
    return redis_location(redis_url), prefix


def refusal(claim: ClusterClaim, window: float) -> str:
    """The message of a process refused by another's fresh ``claim``
    (``window``: :func:`claim_window`)."""
    seen = f"seen {max(0, round(claim.age()))} s ago"
    if not claim.redis:
        local = _local_parts(claim.prefix)
        who = f"process {local[1]} on {local[0]}, " if local is not None else ""
        return (
            f"this database's tables are driven by another process without Redis "
            f"({who}{seen}): two would drive each table twice; stop it first "
            f"(on another machine, wait {window:g} s after it stopped)"
        )
    return (
        f"this database's tables are driven by the processes sharing Redis {claim.redis} "
        f"with prefix {claim.prefix} ({seen}): start with the same --redis and "
        f"--redis-prefix, or stop them and wait {window:g} s"
    )


def claim_database(
    store: Store, redis_url: str | None, prefix: str, settings: ServerSettings
) -> None:
    """Claim ``store``'s database for the cluster of ``redis_url`` and
    ``prefix`` (none: a process without Redis) before any table is taken.
    Raises :class:`ClusterClaimed` (with :func:`refusal`'s message) when
    another cluster's claim is fresh."""
    redis, key_prefix = identity(redis_url, prefix)
    window = claim_window(settings)
    held = store.claim_cluster(redis, key_prefix, window=window, gone=holder_gone)
    if held is not None:
        raise ClusterClaimed(refusal(held, window))


async def keep_claim(
    store: Store, redis_url: str | None, prefix: str, settings: ServerSettings
) -> None:
    """Refresh the claim every ``settings.claim_heartbeat_seconds`` (one
    ``UPDATE``) until cancelled; when it is no longer this cluster's (it
    went stale, the database out of reach, and was taken, or was never
    written), claim it again, and log an error when another cluster holds
    it.  Database errors are logged, never raised."""
    redis, key_prefix = identity(redis_url, prefix)
    window = claim_window(settings)
    while True:
        await asyncio.sleep(settings.claim_heartbeat_seconds)
        try:
            if await asyncio.to_thread(store.refresh_cluster_claim, redis, key_prefix):
                continue
            held = await asyncio.to_thread(
                functools.partial(store.claim_cluster, window=window, gone=holder_gone),
                redis,
                key_prefix,
            )
        except Exception:
            log.exception("the cluster claim could not be refreshed")
            continue
        if held is not None:
            log.error("two clusters on one database: %s", refusal(held, window))


def release_claim(store: Store, redis_url: str | None, prefix: str) -> None:
    """At a clean stop of a process without Redis: give its claim up
    (another cluster may start at once).  A Redis process keeps it (its
    cluster's other processes may run on).  Database errors are logged."""
    if redis_url:
        return
    try:
        store.release_cluster_claim(*identity(None, ""))
    except Exception:
        log.exception("the cluster claim could not be given up")


def release_cluster(database_url: str, redis_url: str, prefix: str) -> None:
    """Once every process of the cluster of ``redis_url`` and ``prefix``
    has stopped (a benchmark's own cluster, on a random prefix): give its
    claim of the database at ``database_url`` up, so that the next cluster
    starts without waiting :func:`claim_window`.  Nothing happens when the
    claim is another's; database errors are logged."""
    store = Store(database_url)
    try:
        store.release_cluster_claim(redis_location(redis_url), prefix)
    except Exception:
        log.exception("the cluster claim could not be given up")
    finally:
        store.close()
