"""Challenges (défis) and trophies: which challenges are active, and what
one finished rated match counts toward them.

- **Periods** (UTC): a ``daily`` challenge runs from 00:00 to the next
  00:00; a ``weekly`` one from Monday 00:00 to the next Monday
  (:func:`period_bounds`).
- **Active challenges**: every ``always`` challenge of the period, plus
  ``Catalogue.picked[period]`` of the others drawn from the period's start
  date (:func:`active_challenges`): a deterministic choice, the same for
  everyone.
- **Counting a match** (:func:`match_counts`): the feats of each deal come
  from the rules core (:func:`rebelote.feats.deal_feats`); the server only
  adds them up for the player's side.  Only a rated match counts (the rule
  of the ratings, :func:`~rebelote.server.people.ratings.unrated_reason`:
  nobody left it, few enough stand-ins, a ranked table): the caller
  decides, and counts nothing for any other.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta

from rebelote.feats import deal_feats
from rebelote.rules import Rules
from rebelote.scoring import DealResult
from rebelote.server.people.catalogue import COUNTERS, Challenge, Period, catalogue

__all__ = [
    "EXPERT",
    "WIN_501",
    "active_challenges",
    "match_counts",
    "period_bounds",
    "progress_of",
]

EXPERT = "expert"
"""The computer level a match "against experts" is played against: every
opponent is a computer player of this level."""

WIN_501 = 501
"""The target of a "501 match" (seed 002: "Visez 501 points"): a match won
at this target or a higher one counts toward ``won_501``."""


def period_bounds(period: Period, at: datetime) -> tuple[datetime, datetime]:
    """The UTC start and end (exclusive) of the ``period`` holding ``at``
    (an aware datetime; a naive one is taken as UTC)."""
    at = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    day = datetime(at.year, at.month, at.day, tzinfo=UTC)
    if period == "daily":
        return day, day + timedelta(days=1)
    start = day - timedelta(days=day.weekday())
    return start, start + timedelta(days=7)


def active_challenges(period: Period, at: datetime) -> list[Challenge]:
    """The challenges of ``period`` active at ``at``: the ``always`` ones,
    then ``picked[period]`` others drawn with a seed made of the period and
    its start date (SHA-256), in catalogue order."""
    cat = catalogue()
    start, _ = period_bounds(period, at)
    pool = [c for c in cat.challenges if c.period == period and not c.always]
    seed = int.from_bytes(
        hashlib.sha256(f"{period}:{start.date().isoformat()}".encode()).digest()[:8], "big"
    )
    chosen = set(random.Random(seed).sample([c.id for c in pool], cat.picked.get(period, 0)))
    return [c for c in cat.challenges if c.period == period and (c.always or c.id in chosen)]


def match_counts(
    *,
    rules: Rules,
    deals: Iterable[DealResult],
    side: int,
    won: bool,
    opponent_levels: Sequence[str | None],
) -> dict[str, int]:
    """What one finished rated match counts for a player of ``side``
    (every :data:`~rebelote.server.people.catalogue.Counter`, zeros
    included): ``played`` 1; ``won`` 1 when his side won; ``won_501`` when
    it won at a target of :data:`WIN_501` or more; ``won_vs_experts`` when
    it won and every opponent is a computer player of level
    :data:`EXPERT` (``opponent_levels``: each opponent seat's computer
    level, ``None`` for a human); and per deal of ``deals`` (the match's
    scored deals, in order): ``capots`` (his side took all 8 tricks),
    ``capots_vs_experts`` (the same against experts), ``contracts_made``,
    ``coinche_120_made`` (a coinche contract of 120 or more made),
    ``coinched_made`` (a coinched or surcoinched contract made),
    ``defended_coinche`` (a coinched contract beaten in defence),
    ``belotes`` and ``no_trump_made`` (Sans Atout or Tout Atout made)."""
    counts = dict.fromkeys(COUNTERS, 0)
    experts = bool(opponent_levels) and all(level == EXPERT for level in opponent_levels)
    counts["played"] = 1
    counts["won"] = int(won)
    counts["won_501"] = int(won and rules.target >= WIN_501)
    counts["won_vs_experts"] = int(won and experts)
    for result in deals:
        feats = deal_feats(rules, result, side)
        if feats is None:
            continue
        counts["capots"] += feats.capot
        counts["capots_vs_experts"] += feats.capot and experts
        counts["contracts_made"] += feats.made
        counts["coinche_120_made"] += feats.made and (feats.contract_value or 0) >= 120
        counts["coinched_made"] += feats.made and feats.coinched
        counts["defended_coinche"] += feats.defended and feats.coinched
        counts["belotes"] += feats.belote
        counts["no_trump_made"] += feats.made and feats.no_trump
    return counts


def progress_of(challenge: Challenge, sums: Mapping[str, int]) -> int:
    """A challenge's progress from the period's counter ``sums``, capped
    at its goal."""
    return min(challenge.goal, sums.get(challenge.counter, 0))
