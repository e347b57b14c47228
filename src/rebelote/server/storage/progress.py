"""Storage of progression: what each rated match counted, challenges and
trophies earned, the coins ledger, and the cosmetics bought and chosen
(migration ``r0013``).

- ``feat_counts``: ``user_id``, ``table_id``, ``match``, ``counter``,
  ``count``, ``at`` (when the match ended): one row per counter a rated
  match counted for an account (zeros left out; ``played`` is always
  there).  Its key (account, table, match, counter) is what makes a match
  count once: a second recording of the same match is refused whole.
- ``challenge_awards``: ``user_id``, ``challenge_id``, ``period`` (the
  period's start date, ``YYYY-MM-DD``), ``at``, ``xp`` (the experience it
  gave): a challenge completed, rewarded once per period.
- ``trophies``: ``user_id``, ``trophy_id``, ``earned_at``, ``table_id``,
  ``match``, ``xp``: a trophy, earned once.
- ``coin_ledger``: ``id``, ``user_id``, ``delta`` (coins, + earned, -
  spent), ``reason`` (``challenge``, ``trophy``, ``buy``), ``ref`` (unique
  per account: ``challenge:<id>:<period>``, ``trophy:<id>``,
  ``buy:<request id>``), ``item`` (what was bought, or the challenge's or
  trophy's id), ``at``.  The balance is the sum of ``delta``: auditable,
  never a number kept aside.
- ``owned_items``: ``user_id``, ``item``, ``at``: cosmetics bought.
- ``cosmetics``: ``user_id``, ``slot`` (``back``, ``cloth``), ``item``:
  the one each account uses.

:class:`ProgressStore` is mixed into :class:`~rebelote.server.storage.tables.Store`;
every method is synchronous (called in a worker thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from rebelote.server.storage.orm import Base
from rebelote.server.storage.orm import now as _now
from rebelote.server.storage.people import UserRow

__all__ = [
    "BuyOutcome",
    "ChallengeAwardRow",
    "CoinRow",
    "CosmeticRow",
    "EarnedTrophy",
    "FeatRow",
    "Goal",
    "OwnedItemRow",
    "ProgressStore",
    "TrophyRow",
]


def _user_fk() -> ForeignKey:
    return ForeignKey("users.id", ondelete="CASCADE")


class FeatRow(Base):
    """What one rated match counted for one account, per counter."""

    __tablename__ = "feat_counts"
    __table_args__ = (Index("ix_feat_counts_user_at", "user_id", "at"),)

    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    match: Mapped[int] = mapped_column(Integer, primary_key=True)
    counter: Mapped[str] = mapped_column(String(24), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeAwardRow(Base):
    """A challenge completed by an account in one period."""

    __tablename__ = "challenge_awards"

    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), primary_key=True)
    challenge_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    period: Mapped[str] = mapped_column(String(10), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    xp: Mapped[int] = mapped_column(Integer, default=0)


class TrophyRow(Base):
    """A trophy of an account."""

    __tablename__ = "trophies"

    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), primary_key=True)
    trophy_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    earned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    match: Mapped[int | None] = mapped_column(Integer, nullable=True)
    xp: Mapped[int] = mapped_column(Integer, default=0)


class CoinRow(Base):
    """One line of the coins ledger."""

    __tablename__ = "coin_ledger"
    __table_args__ = (UniqueConstraint("user_id", "ref", name="uq_coin_ledger_user_ref"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), index=True)
    delta: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    ref: Mapped[str] = mapped_column(String(120))
    item: Mapped[str] = mapped_column(String(40))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class OwnedItemRow(Base):
    """A cosmetic an account bought."""

    __tablename__ = "owned_items"

    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), primary_key=True)
    item: Mapped[str] = mapped_column(String(40), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class CosmeticRow(Base):
    """The cosmetic an account uses for one slot."""

    __tablename__ = "cosmetics"

    user_id: Mapped[int] = mapped_column(Integer, _user_fk(), primary_key=True)
    slot: Mapped[str] = mapped_column(String(8), primary_key=True)
    item: Mapped[str] = mapped_column(String(40))


@dataclass(frozen=True, slots=True)
class Goal:
    """Something a match may complete: a ``challenge`` (``period``: its
    period's start date; ``since``/``until``: its bounds, UTC) or a
    ``trophy`` (no period, no bounds: every match counts); ``counter``
    reaching ``goal`` earns ``xp`` and ``coins``."""

    kind: Literal["challenge", "trophy"]
    id: str
    counter: str
    goal: int
    xp: int
    coins: int
    period: str | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True, slots=True)
class EarnedTrophy:
    """A trophy as its account holds it: its ``id`` and when it was earned."""

    id: str
    earned_at: datetime


BuyOutcome = Literal["bought", "again", "owned", "coins", "reused"]
"""What a purchase did: ``bought``; ``again`` (this request id already
bought this item: nothing more happens); refused: ``owned`` (the account
has it already), ``coins`` (not enough coins), ``reused`` (the request id
bought another item)."""


class ProgressStore:
    """Counts, awards, coins and cosmetics of the accounts (mixed into
    ``Store``)."""

    def _session(self) -> Session:  # pragma: no cover - provided by Store
        raise NotImplementedError

    # ------------------------------------------------------------ counting

    def record_progress(
        self,
        user_id: int,
        table_id: str,
        match: int,
        counts: Mapping[str, int],
        at: datetime,
        goals: Sequence[Goal],
    ) -> list[Goal] | None:
        """Store what match ``match`` of ``table_id`` counted for
        ``user_id`` (``counts``, ended ``at``), then award every goal of
        ``goals`` its counter now reaches and that was not awarded before:
        its ledger line (when it gives coins), its ``xp`` added to the
        account's, and the award's row.  All in one transaction: the goals
        awarded now, or ``None`` (and nothing changed) when this match was
        already recorded for this account (a second run of the end of the
        match, here or on another process)."""
        try:
            with self._session() as session, session.begin():
                for counter, count in counts.items():
                    if count or counter == "played":
                        session.add(
                            FeatRow(
                                user_id=user_id,
                                table_id=table_id,
                                match=match,
                                counter=counter,
                                count=count,
                                at=at,
                            )
                        )
                session.flush()
                return [
                    goal
                    for goal in goals
                    if self._award(session, user_id, table_id, match, goal, at)
                ]
        except IntegrityError:
            return None

    @staticmethod
    def _award(
        session: Session, user_id: int, table_id: str, match: int, goal: Goal, at: datetime
    ) -> bool:
        where = [FeatRow.user_id == user_id, FeatRow.counter == goal.counter]
        if goal.since is not None:
            where.append(FeatRow.at >= goal.since)
        if goal.until is not None:
            where.append(FeatRow.at < goal.until)
        total = session.scalar(select(func.coalesce(func.sum(FeatRow.count), 0)).where(*where))
        if int(total or 0) < goal.goal:
            return False
        if goal.kind == "challenge":
            assert goal.period is not None
            key = (user_id, goal.id, goal.period)
            if session.get(ChallengeAwardRow, key) is not None:
                return False
            row: Base = ChallengeAwardRow(
                user_id=user_id, challenge_id=goal.id, period=goal.period, at=at, xp=goal.xp
            )
            ref = f"challenge:{goal.id}:{goal.period}"
        else:
            if session.get(TrophyRow, (user_id, goal.id)) is not None:
                return False
            row = TrophyRow(
                user_id=user_id,
                trophy_id=goal.id,
                earned_at=at,
                table_id=table_id,
                match=match,
                xp=goal.xp,
            )
            ref = f"trophy:{goal.id}"
        try:
            with session.begin_nested():
                session.add(row)
                if goal.coins:
                    session.add(
                        CoinRow(
                            user_id=user_id,
                            delta=goal.coins,
                            reason=goal.kind,
                            ref=ref,
                            item=goal.id,
                            at=at,
                        )
                    )
                if goal.xp:
                    session.execute(
                        update(UserRow).where(UserRow.id == user_id).values(xp=UserRow.xp + goal.xp)
                    )
        except IntegrityError:  # awarded meanwhile by another match's end
            return False
        return True

    def counter_sums(
        self, user_id: int, since: datetime | None = None, until: datetime | None = None
    ) -> dict[str, int]:
        """Per counter, what the rated matches of ``user_id`` ended in
        ``[since, until)`` counted (all of them without bounds)."""
        where = [FeatRow.user_id == user_id]
        if since is not None:
            where.append(FeatRow.at >= since)
        if until is not None:
            where.append(FeatRow.at < until)
        with self._session() as session:
            rows = session.execute(
                select(FeatRow.counter, func.sum(FeatRow.count))
                .where(*where)
                .group_by(FeatRow.counter)
            ).all()
            return {counter: int(total or 0) for counter, total in rows}

    def challenges_done(self, user_id: int, period: str) -> set[str]:
        """The challenges ``user_id`` completed in the period starting on
        ``period`` (``YYYY-MM-DD``)."""
        with self._session() as session:
            rows = session.scalars(
                select(ChallengeAwardRow.challenge_id).where(
                    ChallengeAwardRow.user_id == user_id, ChallengeAwardRow.period == period
                )
            ).all()
            return set(rows)

    def award_xp(self, user_id: int) -> int:
        """The experience ``user_id`` gained from challenges and trophies
        (the rest of his ``xp`` comes from the matches themselves)."""
        with self._session() as session:
            challenges = session.scalar(
                select(func.coalesce(func.sum(ChallengeAwardRow.xp), 0)).where(
                    ChallengeAwardRow.user_id == user_id
                )
            )
            trophies = session.scalar(
                select(func.coalesce(func.sum(TrophyRow.xp), 0)).where(TrophyRow.user_id == user_id)
            )
            return int(challenges or 0) + int(trophies or 0)

    def trophies_of(self, user_id: int) -> list[EarnedTrophy]:
        """The trophies of ``user_id``, first earned first."""
        with self._session() as session:
            rows = session.scalars(
                select(TrophyRow)
                .where(TrophyRow.user_id == user_id)
                .order_by(TrophyRow.earned_at, TrophyRow.trophy_id)
            ).all()
            return [EarnedTrophy(r.trophy_id, r.earned_at) for r in rows]

    # --------------------------------------------------------------- coins

    def coins(self, user_id: int) -> int:
        """The coins of ``user_id``: the sum of his ledger."""
        with self._session() as session:
            return self._balance(session, user_id)

    @staticmethod
    def _balance(session: Session, user_id: int) -> int:
        total = session.scalar(
            select(func.coalesce(func.sum(CoinRow.delta), 0)).where(CoinRow.user_id == user_id)
        )
        return int(total or 0)

    def ledger(self, user_id: int) -> list[tuple[int, str, str, datetime]]:
        """The ledger of ``user_id``, oldest first: ``(delta, reason, item,
        at)``."""
        with self._session() as session:
            rows = session.scalars(
                select(CoinRow).where(CoinRow.user_id == user_id).order_by(CoinRow.id)
            ).all()
            return [(r.delta, r.reason, r.item, r.at) for r in rows]

    def owned_items(self, user_id: int) -> set[str]:
        """The cosmetics ``user_id`` bought."""
        with self._session() as session:
            rows = session.scalars(
                select(OwnedItemRow.item).where(OwnedItemRow.user_id == user_id)
            ).all()
            return set(rows)

    def buy(self, user_id: int, item: str, price: int, request_id: str) -> BuyOutcome:
        """Buy ``item`` for ``price`` coins with request ``request_id``
        (the same request twice buys once): a ledger line of ``-price`` and
        the item owned, in one transaction, or a refusal that changes
        nothing (:data:`BuyOutcome`)."""
        ref = f"buy:{request_id}"
        for _ in range(2):
            try:
                with self._session() as session, session.begin():
                    # one purchase of an account at a time (PostgreSQL)
                    session.execute(
                        select(UserRow.id).where(UserRow.id == user_id).with_for_update()
                    )
                    done = session.scalar(
                        select(CoinRow.item).where(CoinRow.user_id == user_id, CoinRow.ref == ref)
                    )
                    if done is not None:
                        return "again" if done == item else "reused"
                    if session.get(OwnedItemRow, (user_id, item)) is not None:
                        return "owned"
                    if self._balance(session, user_id) < price:
                        return "coins"
                    session.add(
                        CoinRow(user_id=user_id, delta=-price, reason="buy", ref=ref, item=item)
                    )
                    session.add(OwnedItemRow(user_id=user_id, item=item))
                    session.flush()
                    return "bought"
            except IntegrityError:  # the same request, at the same moment: read it
                continue
        return "again"

    # ----------------------------------------------------------- cosmetics

    def cosmetics_of(self, user_id: int) -> dict[str, str]:
        """The cosmetic ``user_id`` chose per slot (slots never chosen are
        absent)."""
        with self._session() as session:
            rows = session.scalars(select(CosmeticRow).where(CosmeticRow.user_id == user_id))
            return {r.slot: r.item for r in rows}

    def use_cosmetic(self, user_id: int, slot: str, item: str) -> None:
        """Make ``item`` the cosmetic ``user_id`` uses for ``slot`` (the
        caller checked that he may)."""
        with self._session() as session, session.begin():
            session.execute(
                delete(CosmeticRow).where(CosmeticRow.user_id == user_id, CosmeticRow.slot == slot)
            )
            session.add(CosmeticRow(user_id=user_id, slot=slot, item=item))
