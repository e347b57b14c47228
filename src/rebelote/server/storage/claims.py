"""The claim of the cluster that drives a database's live tables
(migration ``r0015``, ``docs/scale-out.md``): one table,
``cluster_claim``, of at most one row:

- ``id`` (always 1), ``redis`` (where the cluster's Redis is:
  ``host:port/db`` or a Unix socket's ``path/db``, never a password; empty
  for a process without Redis), ``prefix`` (its keys' prefix; empty
  without Redis), ``seen_at`` (when one of its processes last said it was
  alive), ``version`` (raised by every write: the claim is taken by a
  compare-and-set on it, so that of two clusters starting at once exactly
  one wins, on SQLite as on PostgreSQL).

:class:`ClaimStore` is mixed into :class:`~rebelote.server.storage.tables.Store`;
every method is synchronous (called in a worker thread, or at start).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, Integer, String, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base, now

__all__ = ["CLAIM_ID", "ClaimStore", "ClusterClaim", "ClusterClaimRow"]

CLAIM_ID = 1
"""The ``id`` of the claim's only row."""

_RETRIES = 5
"""How many times a claim is tried again after losing a race (the row
changed between its reading and its writing)."""


class ClusterClaimRow(Base):
    """The cluster driving the database's live tables, and when it was
    last seen."""

    __tablename__ = "cluster_claim"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    redis: Mapped[str] = mapped_column(String(300))
    prefix: Mapped[str] = mapped_column(String(100))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True, slots=True)
class ClusterClaim:
    """A cluster's claim: its Redis location ``redis`` and key ``prefix``
    (both empty: a process without Redis), last ``seen_at`` (UTC)."""

    redis: str
    prefix: str
    seen_at: datetime

    def age(self, at: datetime | None = None) -> float:
        """Seconds from ``seen_at`` to ``at`` (default: now)."""
        return ((at or now()) - self.seen_at).total_seconds()


def _utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC time (SQLite gives naive ones back)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class ClaimStore:
    """Reading, taking and refreshing the cluster claim (mixed into
    ``Store``)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    def cluster_claim(self) -> ClusterClaim | None:
        """The claim as stored, or ``None`` when nobody ever claimed."""
        with self._session() as session:
            row = session.get(ClusterClaimRow, CLAIM_ID)
            if row is None:
                return None
            return ClusterClaim(row.redis, row.prefix, _utc(row.seen_at))

    def claim_cluster(
        self,
        redis: str,
        prefix: str,
        *,
        window: float,
        at: datetime | None = None,
        gone: Callable[[ClusterClaim], bool] | None = None,
    ) -> ClusterClaim | None:
        """Claim the database for the cluster (``redis``, ``prefix``) at
        ``at`` (default now): taken when nobody claimed it, or when the
        claim is this cluster's own (refreshed), or another's not seen for
        ``window`` seconds (stale), or whose holder ``gone`` says no
        longer runs (a process without Redis killed on this machine).
        Returns ``None`` when claimed, else the other cluster's fresh
        claim (nothing written).  Atomic: the
        write is conditional on the row read (its ``version``), and a lost
        race reads the row again, so of two clusters claiming at once
        exactly one wins.  Raises ``RuntimeError`` when the row keeps
        changing under it (:data:`_RETRIES` races lost in a row)."""
        moment = at or now()
        for _ in range(_RETRIES):
            with self._session() as session:
                row = session.get(ClusterClaimRow, CLAIM_ID)
                if row is None:
                    try:
                        session.execute(
                            insert(ClusterClaimRow).values(
                                id=CLAIM_ID, redis=redis, prefix=prefix, seen_at=moment, version=1
                            )
                        )
                        session.commit()
                    except IntegrityError:  # another claimer inserted first
                        session.rollback()
                        continue
                    return None
                held = ClusterClaim(row.redis, row.prefix, _utc(row.seen_at))
                mine = (row.redis, row.prefix) == (redis, prefix)
                if not mine and held.age(moment) < window and not (gone and gone(held)):
                    return held
                done = session.execute(
                    update(ClusterClaimRow)
                    .where(ClusterClaimRow.id == CLAIM_ID, ClusterClaimRow.version == row.version)
                    .values(redis=redis, prefix=prefix, seen_at=moment, version=row.version + 1)
                )
                session.commit()
                if done.rowcount == 1:  # type: ignore[attr-defined]
                    return None
        raise RuntimeError("the cluster claim kept changing: try again")

    def refresh_cluster_claim(self, redis: str, prefix: str, *, at: datetime | None = None) -> bool:
        """The heartbeat: mark the claim of (``redis``, ``prefix``) seen at
        ``at`` (default now), one ``UPDATE``; returns ``False`` when the
        claim is not (or no longer) this cluster's (nothing written)."""
        row = ClusterClaimRow
        with self._session() as session:
            done = session.execute(
                update(row)
                .where(row.id == CLAIM_ID, row.redis == redis, row.prefix == prefix)
                .values(seen_at=at or now(), version=row.version + 1)
            )
            session.commit()
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def release_cluster_claim(self, redis: str, prefix: str) -> bool:
        """Make the claim of (``redis``, ``prefix``) stale at once (its
        ``seen_at`` a day back), so that another cluster may start without
        waiting; returns ``False`` when it was not this cluster's."""
        return self.refresh_cluster_claim(redis, prefix, at=now() - timedelta(days=1))
