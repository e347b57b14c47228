"""Ratings and experience: OpenSkill after each ranked match, experience
points and levels by the formula of ``docs/ratings.md``.

- **Rating**: OpenSkill's Plackett-Luce model (a Bayesian, team-aware
  rating: each player has a mean ``mu`` and an uncertainty ``sigma``;
  a team's strength is the sum of its players').  Shown on an Elo-like
  scale, :func:`display_rating` (``1500 + 50 (mu - 25)``, an integer, never
  below 0), marked *provisional* (:func:`is_provisional`) until the
  account has played :data:`PROVISIONAL_MATCHES` rated matches or its
  ``sigma`` fell under :data:`PROVISIONAL_SIGMA`.  Computer players have
  fixed ratings of their own (:data:`BOT_RATINGS`), used as team-mates and
  opponents but never changed, so a table of humans and computer players
  can be ranked.
- **Who is rated**: after a ranked match that everyone really played
  (:func:`unrated_reason`): nobody left it, and no computer player standing
  in for an absent human played more than :data:`STANDIN_SHARE_LIMIT` of
  that human seat's cards.  Otherwise nobody's rating changes, the
  leaver's included (seed 003: "Si un joueur quitte la partie, aucun point
  ne sera attribué").
- **Experience** (seed 003 names it, without a formula): see :func:`match_xp`
  and :func:`level_of`.  Nobody gains experience from a match someone left,
  or one mostly played by stand-ins.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce

__all__ = [
    "BOT_RATINGS",
    "DISPLAY_BASE",
    "DISPLAY_PER_MU",
    "PROVISIONAL_MATCHES",
    "PROVISIONAL_SIGMA",
    "STANDIN_SHARE_LIMIT",
    "XP_PER_DEAL",
    "XP_PER_MATCH",
    "XP_PER_WIN",
    "Rated",
    "UnratedReason",
    "bot_display_rating",
    "bot_rating",
    "display_rating",
    "is_provisional",
    "level_of",
    "level_threshold",
    "match_xp",
    "rate",
    "unrated_reason",
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

DISPLAY_BASE = 1500
"""The displayed rating of a new account (``mu`` 25, OpenSkill's default)."""

DISPLAY_PER_MU = 50
"""Displayed points per unit of ``mu``.  OpenSkill's ``beta`` (25/6, a
player's performance spread in ``mu`` units) plays the part of the 200
points of spread Elo gives each player: 200 / (25/6) = 48, rounded to 50
(``docs/ratings.md``)."""

PROVISIONAL_MATCHES = 5
"""A rating is provisional until its account has this many rated matches
..."""

PROVISIONAL_SIGMA = 6.0
"""... or until its uncertainty ``sigma`` falls under this (it starts at
25/3; 6 is about 300 displayed points either way)."""

STANDIN_SHARE_LIMIT = 0.25
"""The largest share of one human seat's cards that computer players
standing in for its absent player may play in a match that still counts
(ratings, experience): more than a quarter, and the match is unrated."""

UnratedReason = Literal["friendly", "left", "standins", "bots"]
"""Why a finished match changed no rating: a ``friendly`` (unranked)
table; a human ``left`` it; ``standins`` played more than
:data:`STANDIN_SHARE_LIMIT` of a human seat's cards; an outside program
(``bots``, the bot API) held a seat of a ranked table that does not rate
them (``TableOptions.bots_rated``)."""

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


def display_rating(mu: float) -> int:
    """The rating players see: ``1500 + 50 (mu - 25)`` rounded to the
    nearest integer (halves up), never below 0.  ``mu`` is OpenSkill's mean
    (not ``mu - 3 sigma``): a new account shows 1500, and the number moves
    with results only; :func:`is_provisional` says how sure it is."""
    return max(0, math.floor(DISPLAY_BASE + DISPLAY_PER_MU * (mu - 25.0) + 0.5))


def is_provisional(rated: int, sigma: float) -> bool:
    """Whether a rating is still provisional: fewer than
    :data:`PROVISIONAL_MATCHES` rated matches and ``sigma`` not yet under
    :data:`PROVISIONAL_SIGMA`."""
    return rated < PROVISIONAL_MATCHES and sigma >= PROVISIONAL_SIGMA


def bot_display_rating(level: str | None) -> int:
    """The fixed displayed rating of a computer player of ``level``
    (:func:`display_rating` of its ``mu``)."""
    return display_rating(bot_rating(level).mu)


def unrated_reason(
    *,
    ranked: bool,
    someone_left: bool,
    standin_shares: Mapping[str, float],
    outside_bots: bool = False,
    bots_rated: bool = False,
) -> UnratedReason | None:
    """Why a finished match changes no rating, or ``None`` when it does:
    ``left`` (a human left it), else ``standins`` (a share of
    ``standin_shares``, by human seat: cards played by a stand-in over the
    seat's cards, above :data:`STANDIN_SHARE_LIMIT`), else ``friendly``
    (the table is not ranked), else ``bots`` (``outside_bots``: an outside
    program played a seat, and the table does not say ``bots_rated``).
    ``left`` and ``standins`` also cost everyone the match's experience."""
    if someone_left:
        return "left"
    if any(share > STANDIN_SHARE_LIMIT for share in standin_shares.values()):
        return "standins"
    if not ranked:
        return "friendly"
    if outside_bots and not bots_rated:
        return "bots"
    return None


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
    """Experience for one finished match that counts (nobody left, few
    enough stand-ins):
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
