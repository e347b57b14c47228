"""Ratings and experience: OpenSkill after each ranked match, experience
points and levels by the formula of ``docs/ratings.md``.

- **Rating**: OpenSkill's Plackett-Luce model (a Bayesian, team-aware
  rating: each player has a mean ``mu`` and an uncertainty ``sigma``;
  a team's strength is the sum of its players').  Shown as the *ordinal*
  ``mu - 3 sigma``.  Computer players have fixed ratings of their own
  (:data:`BOT_RATINGS`), used as team-mates and opponents but never changed,
  so a table of humans and computer players can be ranked.
- **Who is rated**: after a ranked match that ends with no one having left,
  every human account at the table.  A player who leaves a ranked match is
  rated at once as a loss of his side against the others; the others'
  ratings do not change for that match (seed 003: "Si un joueur quitte la
  partie, aucun point ne sera attribué").
- **Experience** (seed 003 names it, without a formula): see :func:`match_xp`
  and :func:`level_of`.  Nobody gains experience from a match someone left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BOT_RATINGS",
    "XP_PER_DEAL",
    "XP_PER_MATCH",
    "XP_PER_WIN",
    "Rated",
    "bot_rating",
    "level_of",
    "level_threshold",
    "match_xp",
    "rate",
]

BOT_RATINGS: Mapping[str, tuple[float, float]] = {
    "random": (15.5, 1.0),
    "beginner": (23.3, 1.0),
    "intermediate": (25.0, 1.0),
    "expert": (26.8, 1.0),
}
"""Fixed ``(mu, sigma)`` of each computer level.  ``intermediate`` sits at a
new player's mean, so beating it is what an average player does.  The
others are measured against it (``benchmarks/bot_ratings.py``): matches
drawn from the deals of 1000-board arena runs (``coinche`` and ``ffb``,
seed 1) give the share of matches a team of the level wins against two
intermediates, and ``mu`` is where OpenSkill predicts that share; the mean
of the two presets.  Expert: 77.7 % (coinche) and 65.9 % (ffb) of matches,
mu 27.37 and 26.27.  Beginner: 20.6 % and 40.0 %, mu 22.44 and 24.21.
Random: 0 of 20,000 matches in coinche (counted as half a match, mu 12.38)
and 2.0 % in ffb (mu 18.61).  A level not listed counts as
``intermediate``."""

XP_PER_MATCH = 20
"""Experience for finishing a match."""

XP_PER_DEAL = 5
"""Experience for each deal played in a finished match."""

XP_PER_WIN = 30
"""Experience for winning a match."""

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rated:
    """One player of a rated match: a human's current ``mu``/``sigma``
    (``user_id`` set) or a computer player's fixed rating (``user_id``
    ``None``)."""

    user_id: int | None
    mu: float
    sigma: float


def bot_rating(level: str | None) -> Rated:
    """The fixed rating of a computer player of ``level``."""
    mu, sigma = BOT_RATINGS.get(level or "", BOT_RATINGS["intermediate"])
    return Rated(None, mu, sigma)


def rate(teams: Sequence[Sequence[Rated]], ranks: Sequence[int]) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` of every human in ``teams`` after a match where
    team ``i`` finished at rank ``ranks[i]`` (1 = first; equal ranks: a
    tie).  Computer players are left out of the answer: their ratings never
    change."""
    model_teams = [[_MODEL.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in teams]
    new = _MODEL.rate(model_teams, ranks=list(ranks))
    out: dict[int, tuple[float, float]] = {}
    for team, rated in zip(teams, new, strict=True):
        for player, r in zip(team, rated, strict=True):
            if player.user_id is not None:
                out[player.user_id] = (float(r.mu), float(r.sigma))
    return out


def match_xp(*, deals: int, won: bool) -> int:
    """Experience for one finished match (nobody left):
    ``XP_PER_MATCH + XP_PER_DEAL * deals + (XP_PER_WIN if won)``, i.e.
    ``20 + 5 d (+ 30)``."""
    return XP_PER_MATCH + XP_PER_DEAL * max(deals, 0) + (XP_PER_WIN if won else 0)


def level_threshold(level: int) -> int:
    """The experience at which ``level`` is reached: ``50 L (L - 1)``
    (level 1 at 0, 2 at 100, 3 at 300, 4 at 600, 5 at 1000: each level
    costs 100 more than the one before)."""
    return 50 * level * (level - 1)


def level_of(xp: int) -> int:
    """The level of a player with ``xp`` experience points (1 and up)."""
    level = 1
    while level_threshold(level + 1) <= xp:
        level += 1
    return level
