"""One database, one cluster (``docs/scale-out.md``): the processes
sharing a Redis (same ``--redis`` and ``--redis-prefix``) drive the live
tables of their database; a process on the same database with another
Redis or prefix, or without Redis, would drive them a second time (two
drivers per table).  So the database holds the claim of the cluster that
drives it (:mod:`rebelote.server.storage.claims`), refreshed by each of
its processes every ``settings.claim_heartbeat_seconds``; a process whose
identity differs from a claim seen within
:func:`claim_window` refuses to start (:class:`ClusterClaimed`).

A process without Redis claims too (its identity: an empty Redis and
prefix), so that neither kind starts over the other; processes of the
same identity never refuse each other (an embedded server started again
after a crash starts at once).  An embedded process gives its claim up
when it stops cleanly; a Redis cluster's claim stays (its other processes
run on) and grows stale within the window once they are all gone.
"""

from __future__ import annotations

import asyncio
import logging

from redis.connection import parse_url

from rebelote.server.settings import ServerSettings
from rebelote.server.storage.claims import ClusterClaim
from rebelote.server.storage.tables import Store

__all__ = [
    "ClusterClaimed",
    "claim_database",
    "claim_window",
    "identity",
    "keep_claim",
    "redis_location",
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


def identity(redis_url: str | None, prefix: str) -> tuple[str, str]:
    """The claim's identity of a process: its Redis location and prefix,
    or two empty strings without Redis."""
    if not redis_url:
        return "", ""
    return redis_location(redis_url), prefix


def refusal(claim: ClusterClaim, window: float) -> str:
    """The message of a process refused by another's fresh ``claim``
    (``window``: :func:`claim_window`)."""
    seen = f"seen {max(0, round(claim.age()))} s ago"
    if not claim.redis:
        return (
            f"this database's tables are driven by a process without Redis ({seen}): "
            f"start without --redis, or stop it and wait {window:g} s"
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
    held = store.claim_cluster(redis, key_prefix, window=window)
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
            held = await asyncio.to_thread(store.claim_cluster, redis, key_prefix, window=window)
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
        store.release_cluster_claim("", "")
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
