"""Awarding challenges and trophies at the end of a rated match.

:func:`award_match` stores what the match counted for one account
(:func:`~rebelote.server.people.challenges.match_counts`) and, in the same
transaction, awards every active challenge (daily and weekly, of the
periods holding the match's end) and every trophy its counters now reach
(:meth:`~rebelote.server.storage.progress.ProgressStore.record_progress`).
A match counts once per account: a second call for it (the end of the
match handled twice, here or on another process) changes nothing.  The
caller calls it only for a rated match (nobody left, few enough stand-ins,
a ranked table: the ratings' rule, seed 003).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from rebelote.server.people.catalogue import catalogue
from rebelote.server.people.challenges import active_challenges, period_bounds
from rebelote.server.storage.progress import Goal, ProgressStore

__all__ = ["award_match", "goals_at"]


def goals_at(at: datetime) -> list[Goal]:
    """What a match ending ``at`` may complete: the daily and weekly
    challenges active then (bounded by their period), then every trophy."""
    goals: list[Goal] = []
    for period in ("daily", "weekly"):
        since, until = period_bounds(period, at)
        for c in active_challenges(period, at):
            goals.append(
                Goal(
                    kind="challenge",
                    id=c.id,
                    counter=c.counter,
                    goal=c.goal,
                    xp=c.xp,
                    coins=c.coins,
                    period=since.date().isoformat(),
                    since=since,
                    until=until,
                )
            )
    for t in catalogue().trophies:
        goals.append(
            Goal(kind="trophy", id=t.id, counter=t.counter, goal=t.goal, xp=t.xp, coins=t.coins)
        )
    return goals


def award_match(
    store: ProgressStore,
    *,
    user_id: int,
    table_id: str,
    match: int,
    counts: Mapping[str, int],
    at: datetime,
) -> list[Goal] | None:
    """Record match ``match`` of ``table_id`` for ``user_id`` (what it
    ``counts``, ended ``at``) and award what it completes: the goals
    awarded, or ``None`` when the match was already recorded for him."""
    return store.record_progress(user_id, table_id, match, counts, at, goals_at(at))
