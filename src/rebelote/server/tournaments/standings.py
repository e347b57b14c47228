"""Tournament standings: points, tie-break and rank of each entrant from
the games played (pure: no I/O; ``docs/tournaments.md`` "Scoring").

- **Swiss**: a won match scores 1 point, a lost one 0, a bye 1 (a bye is
  not a match played).
- **Arena**: a won match scores 2 points, or 4 while *on a streak* (the
  entrant's two previous matches, in the order they were paired, were both
  won); a lost match scores 0 and ends the streak.
- A match its entrant **left** is lost, whatever his partner did; a match
  whose result is unknown (its table never played) counts for nobody.
- **Tie-break** (both kinds): the sum of the final points of every
  opponent met (the humans of the other partnership, once per match; a
  Buchholz score): a higher one ranks first.
- **Rank**: by points, then tie-break (higher first); entrants equal on
  both share the rank (1, 2, 2, 4), listed by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rebelote.server.tournaments.pairing import Entrant

__all__ = ["Bye", "Game", "Kind", "Standing", "standings"]

Kind = Literal["swiss", "arena"]
"""The kinds of tournament."""


@dataclass(frozen=True, slots=True)
class Game:
    """One tournament match: ``order`` when it was paired (the round of a
    Swiss tournament, the wave of an arena; earlier first), ``teams`` the
    entrants of each partnership (computers left out), ``winner`` the
    index of the winning partnership (``None``: no result), ``left`` the
    entrants who left it."""

    order: int
    teams: tuple[tuple[Entrant, ...], tuple[Entrant, ...]]
    winner: int | None
    left: frozenset[Entrant] = frozenset()


@dataclass(frozen=True, slots=True)
class Bye:
    """A Swiss bye of ``entrant`` in round ``order``."""

    order: int
    entrant: Entrant


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    entrant: Entrant
    name: str
    points: int
    played: int
    tiebreak: int


def standings(
    kind: Kind,
    names: Mapping[Entrant, str],
    games: Sequence[Game],
    byes: Sequence[Bye] = (),
) -> list[Standing]:
    """The standings of the entrants ``names`` (id -> name) after ``games``
    and ``byes`` (see the module's docstring), best first.  Games of
    entrants not in ``names`` count for the others all the same."""
    points = dict.fromkeys(names, 0)
    played = dict.fromkeys(names, 0)
    streak = dict.fromkeys(names, 0)
    met: dict[Entrant, list[Entrant]] = {e: [] for e in names}
    for bye in byes:
        if bye.entrant in points:
            points[bye.entrant] += 1
    for game in sorted(games, key=lambda g: g.order):
        if game.winner is None:
            continue
        for side, team in enumerate(game.teams):
            others = game.teams[1 - side]
            for e in team:
                if e not in points:
                    continue
                played[e] += 1
                met[e] += others
                won = side == game.winner and e not in game.left
                if kind == "swiss":
                    points[e] += 1 if won else 0
                elif won:
                    points[e] += 4 if streak[e] >= 2 else 2
                    streak[e] += 1
                else:
                    streak[e] = 0
    tiebreak = {e: sum(points.get(o, 0) for o in met[e]) for e in names}
    order = sorted(names, key=lambda e: (-points[e], -tiebreak[e], names[e].casefold(), e))
    lines: list[Standing] = []
    for i, e in enumerate(order):
        rank = i + 1
        if lines and (lines[-1].points, lines[-1].tiebreak) == (points[e], tiebreak[e]):
            rank = lines[-1].rank
        lines.append(Standing(rank, e, names[e], points[e], played[e], tiebreak[e]))
    return lines
