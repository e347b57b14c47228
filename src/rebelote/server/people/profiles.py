"""An account's profile: level and experience, the rating and its history,
what it played (``GET /api/profiles/{name}``, ``docs/profiles.md``).

Which matches count: the account's finished matches that it really
played, i.e. its own result line, not left, of a match nobody left and in
which stand-ins played no more than their share of any human seat's cards
(:data:`~rebelote.server.storage.summaries.NOT_COUNTED`; the matches that
earn experience).  Friendly matches count; a match someone left never
does, for anyone at the table.

The facts of each match come from its event log, asked of the rules core
(:mod:`rebelote.server.tables.summaries`), once: the summaries are kept
(:mod:`rebelote.server.storage.summaries`), and a profile reads them back.
A match finished before summaries were kept is summarized the first time
a profile needs it.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

from rebelote.server.people.ratings import display_rating, level_of
from rebelote.server.storage.people import User
from rebelote.server.storage.tables import Store
from rebelote.server.tables.summaries import SUMMARY_VERSION, summary_lines

__all__ = [
    "LAST_GAMES",
    "LastGame",
    "Profile",
    "RatingHistoryPoint",
    "build_profile",
    "iso",
    "replay_url",
    "summarize_missing",
]

_log = logging.getLogger(__name__)

LAST_GAMES = 20
"""How many of the last counted matches a profile lists."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RatingHistoryPoint(_Model):
    """The displayed rating (as the leaderboard shows it) after one rated
    match: ``at`` (ISO 8601, UTC), ``rating``, ``table`` (its id)."""

    at: str
    rating: int
    table: str


class LastGame(_Model):
    """One counted match: its ``table``, when it ``finished_at`` (ISO 8601,
    UTC), the rules' ``preset``, the ``players``' names by seat (the
    table's order: N W S E, or W S E, or W S), the final ``score`` ``[us,
    them]`` (his side's total, the best other side's), ``won``, and the
    ``replay`` (the main page's route to that match's replay), and the
    match's ``target`` score (its table's, which may differ from the
    preset's; ``null`` when unknown)."""

    table: str
    finished_at: str
    preset: str
    target: int | None
    players: list[str]
    score: list[int]
    won: bool
    replay: str


class Profile(_Model):
    """``GET /api/profiles/{name}``: see ``docs/profiles.md``.  Averages
    and the percentage are rounded to one decimal, ``null`` with nothing
    to average."""

    name: str
    level: int
    xp: int
    rating: int
    rating_history: list[RatingHistoryPoint]
    games_played: int
    games_won: int
    contracts_taken: int
    contracts_made: int
    contracts_made_pct: float | None
    avg_points_taker: float | None
    avg_points_defender: float | None
    capots: int
    last_games: list[LastGame]


def iso(at: float) -> str:
    """Unix seconds as ISO 8601 in UTC, to the second
    (``2027-01-20T10:04:05+00:00``)."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def replay_url(table_id: str, match: int) -> str:
    """The main page's route to the replay of match ``match`` of a table."""
    return f"/#/replay/{table_id}/{match}"


def _ratio(part: int, whole: int, scale: int = 1) -> float | None:
    return None if whole == 0 else round(scale * part / whole, 1)


def summarize_missing(store: Store, user_id: int) -> int:
    """Summarize (and keep) the finished matches of the tables where
    ``user_id`` has a counted match without a summary; returns how many
    tables were replayed.  A table whose log cannot be replayed is logged
    and left out (synchronous: call it in a worker thread)."""
    replayed = 0
    for table_id in store.unsummarized(user_id, SUMMARY_VERSION):
        stored = store.load(table_id)
        if stored is None:
            continue
        try:
            lines = summary_lines(stored, store.result_names(table_id))
        except Exception:
            _log.exception("table %s: cannot summarize its matches", table_id)
            continue
        replayed += 1
        store.save_summaries(lines)
    return replayed


def build_profile(store: Store, user: User, *, public_only: bool) -> Profile:
    """The profile of ``user`` (an account), its missing summaries made
    first (:func:`summarize_missing`).  ``public_only``: the last games at
    public tables only (anyone may open their replays); the account's own
    profile lists its private and solo tables too (synchronous)."""
    summarize_missing(store, user.id)
    totals = store.profile_totals(user.id, SUMMARY_VERSION)
    history = store.rating_history(user.id)
    games = store.last_games(user.id, SUMMARY_VERSION, LAST_GAMES, public_only=public_only)
    return Profile(
        name=user.name,
        level=level_of(user.xp),
        xp=user.xp,
        rating=user.rating,
        rating_history=[
            RatingHistoryPoint(at=iso(p.at), rating=display_rating(p.mu_after), table=p.table_id)
            for p in history
        ],
        games_played=totals.games,
        games_won=totals.won,
        contracts_taken=totals.taken,
        contracts_made=totals.made,
        contracts_made_pct=_ratio(totals.made, totals.taken, 100),
        avg_points_taker=_ratio(totals.taker_points, totals.taken),
        avg_points_defender=_ratio(totals.defender_points, totals.defended),
        capots=totals.capots,
        last_games=[
            LastGame(
                table=g.table_id,
                finished_at=iso(g.at),
                preset=g.preset,
                target=g.target,
                players=list(g.players),
                score=[g.score_us, g.score_them],
                won=g.won,
                replay=replay_url(g.table_id, g.match),
            )
            for g in games
        ],
    )
