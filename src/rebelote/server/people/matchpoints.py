"""Matchpoints: how the daily deal (``docs/daily.md``) ranks each deal's
scores against everyone who played it, and the day's standings.

The duplicate convention (bridge's matchpoint scoring, as BBO's robot
duplicate and club duplicate count it):

- on one deal, each player gets **2 matchpoints per player whose score he
  beat and 1 per player he tied with** (himself left out);
- the top on that deal is ``2 * (n - 1)`` for ``n`` players; his
  **percentage** is ``100 * matchpoints / top``; a deal played by one
  player alone gives him 50 % (nobody to compare with: an average);
- a **day's** percentage is the average of the day's deal percentages over
  all the day's deals, a deal the player did not finish counting 0 %;
- the day's **rank**: by that percentage, highest first; equal
  percentages share a rank (1, 1, 3: competition ranking), listed by
  name.

Pure functions of the scores: no I/O, exact integers for the matchpoints.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

__all__ = ["Standing", "deal_matchpoints", "deal_percentages", "standings"]

K = TypeVar("K", bound=Hashable)


def deal_matchpoints(scores: Sequence[int]) -> list[int]:
    """The matchpoints of each score of ``scores`` (one deal, one score
    per player, the player's side's points): 2 per other score below it,
    1 per other score equal to it.  ``[]`` for no scores."""
    return [
        sum(2 if other < mine else 1 if other == mine else 0 for other in scores) - 1
        for mine in scores
    ]


def deal_percentages(scores: Sequence[int]) -> list[float]:
    """Each score's percentage of the top, ``100 * matchpoints / (2 * (n -
    1))``; ``[50.0]`` for a score alone."""
    if len(scores) == 1:
        return [50.0]
    top = 2 * (len(scores) - 1)
    return [100.0 * mp / top for mp in deal_matchpoints(scores)]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a day's standings: the player's ``key`` (an account
    id), his day ``percent`` (0..100) and his ``rank`` (1 = best)."""

    key: Hashable
    percent: float
    rank: int


def standings(
    per_deal: Mapping[int, Mapping[K, int]], deals: int, names: Mapping[K, str]
) -> list[Standing]:
    """The day's standings from ``per_deal`` (deal index -> player ->
    score) over ``deals`` deals: each player of ``names`` (those who
    started the day's set, a player with no finished deal included) at
    his average deal percentage (a deal he has no score on counts 0),
    ranked highest first, equal
    percentages sharing a rank and ordered by ``names``.  Raises
    ``ValueError`` when ``deals`` is not positive or a deal index is not
    in ``0..deals - 1``."""
    if deals <= 0:
        raise ValueError("a day has at least one deal")
    totals: dict[K, Fraction] = dict.fromkeys(names, Fraction(0))
    for deal, scores in per_deal.items():
        if not 0 <= deal < deals:
            raise ValueError(f"deal {deal} is not one of the day's {deals}")
        keys = list(scores)
        values = [scores[k] for k in keys]
        top = 2 * (len(keys) - 1)
        for key, mp in zip(keys, deal_matchpoints(values), strict=True):
            # exact fractions: equal percentages tie whatever the order
            pct = Fraction(50) if top == 0 else Fraction(100 * mp, top)
            totals[key] = totals.get(key, Fraction(0)) + pct
    average = {k: v / deals for k, v in totals.items()}
    order = sorted(average, key=lambda k: (-average[k], names[k], str(k)))
    out: list[Standing] = []
    previous: Fraction | None = None
    for i, key in enumerate(order):
        rank = out[-1].rank if previous == average[key] else i + 1
        out.append(Standing(key, float(average[key]), rank))
        previous = average[key]
    return out
