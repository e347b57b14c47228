"""Tournament pairing: who sits at which table each round (pure: no I/O,
no clock, no randomness; ``docs/tournaments.md`` "Pairing").

Entrants play as individuals ("individual" café tournaments): each round
the pairing seats them four to a table in two partnerships of two, North
and South against West and East, and the partnerships change from round
to round.  An entrant is an account id (``int``); ``None`` in a seat is a
computer player.

- **Groups.**  The entrants, best ranked first, are cut into groups of
  four (:func:`groups`); each group is filled in rank order from the best
  entrant not yet seated, taking each time the next entrant who met the
  group's members least often before (as partner or opponent), so that
  repeats are avoided where possible and otherwise kept few.  Left over
  at the bottom: two or three entrants sit together with computers in the
  empty seats; a single one gets a bye in a Swiss round
  (:func:`swiss_round`: the lowest ranked entrant who has had none yet)
  and keeps waiting in an arena (:func:`arena_wave`) unless he waited long
  enough to play with three computers.
- **Partnerships** in a group (:func:`seat_group`): of the ways to split
  it in two teams, the one repeating the fewest earlier partnerships, then
  the fewest earlier oppositions; between equals, 1st and 4th against 2nd
  and 3rd (the balanced split) before 1st and 3rd against 2nd and 4th,
  before 1st and 2nd against 3rd and 4th.  Three entrants: two partners
  against the third and a computer; two: opponents, each with a computer
  partner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "SEATS",
    "Entrant",
    "History",
    "Round",
    "TablePairing",
    "arena_wave",
    "groups",
    "seat_group",
    "swiss_round",
]

Entrant = int
"""An entrant: his account's id."""

SEATS = ("N", "W", "S", "E")
"""The seats of a four-player table in playing order; N and S are
partners, W and E are partners."""


def _pair(a: Entrant, b: Entrant) -> frozenset[Entrant]:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class TablePairing:
    """One table of a round: ``seats`` maps each seat letter (``N``, ``W``,
    ``S``, ``E``) to its entrant, or ``None`` for a computer player."""

    seats: dict[str, Entrant | None]

    @property
    def teams(self) -> tuple[tuple[Entrant, ...], tuple[Entrant, ...]]:
        """The entrants of each partnership: (N-S, W-E), computers left
        out, each in seat order."""
        ns = tuple(e for s in ("N", "S") if (e := self.seats[s]) is not None)
        we = tuple(e for s in ("W", "E") if (e := self.seats[s]) is not None)
        return ns, we

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The entrants at the table, in seat order."""
        return tuple(e for s in SEATS if (e := self.seats[s]) is not None)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's pairing: its tables, best ranked first, and the entrants
    with a bye (Swiss) or left waiting (arena)."""

    tables: tuple[TablePairing, ...]
    byes: tuple[Entrant, ...] = ()
    waiting: tuple[Entrant, ...] = ()


@dataclass
class History:
    """Who met whom before: ``partners`` and ``opponents`` count each pair
    of entrants (a ``frozenset`` of two ids) by the times they sat as
    partners and as opponents; ``byes`` the entrants who had a bye."""

    partners: Counter[frozenset[Entrant]] = field(default_factory=Counter)
    opponents: Counter[frozenset[Entrant]] = field(default_factory=Counter)
    byes: set[Entrant] = field(default_factory=set)

    def add(self, table: TablePairing) -> None:
        """Count the meetings of ``table``."""
        ns, we = table.teams
        for team in (ns, we):
            for i, a in enumerate(team):
                for b in team[i + 1 :]:
                    self.partners[_pair(a, b)] += 1
        for a in ns:
            for b in we:
                self.opponents[_pair(a, b)] += 1

    @classmethod
    def of(cls, tables: Iterable[TablePairing], byes: Iterable[Entrant] = ()) -> History:
        """The history of the tables (and byes) given."""
        history = cls(byes=set(byes))
        for table in tables:
            history.add(table)
        return history

    def met(self, a: Entrant, b: Entrant) -> int:
        """How often ``a`` and ``b`` sat at the same table."""
        key = _pair(a, b)
        return self.partners[key] + self.opponents[key]


def groups(ranked: Sequence[Entrant], history: History) -> list[list[Entrant]]:
    """Cut ``ranked`` (best first) into groups of four, then one of the
    rest (1 to 3) when the count is not a multiple of four, avoiding
    repeated meetings (see the module's docstring).  Each group lists its
    entrants in rank order."""
    left = list(ranked)
    rank = {e: i for i, e in enumerate(ranked)}
    sizes = [4] * (len(left) // 4) + ([len(left) % 4] if len(left) % 4 else [])
    out = []
    for size in sizes:
        group = [left.pop(0)]
        while len(group) < size:
            best = min(left, key=lambda e: (sum(history.met(e, g) for g in group), rank[e]))
            left.remove(best)
            group.append(best)
        out.append(sorted(group, key=rank.__getitem__))
    return out


_SPLITS_4 = (((0, 3), (1, 2)), ((0, 2), (1, 3)), ((0, 1), (2, 3)))
_SPLITS_3 = (((0, 2), (1,)), ((0, 1), (2,)), ((1, 2), (0,)))


def seat_group(group: Sequence[Entrant], history: History) -> TablePairing:
    """Seat a group of two to four entrants (rank order) at a table: the
    partnerships of the module's docstring, the first team at N and S, the
    second at W and E, computers in the empty seats.  Raises
    ``ValueError`` for a group of another size."""
    n = len(group)
    if n == 2:
        return TablePairing({"N": group[0], "W": group[1], "S": None, "E": None})
    if n not in (3, 4):
        raise ValueError(f"a table seats 2 to 4 entrants, not {n}")
    splits = _SPLITS_4 if n == 4 else _SPLITS_3

    def cost(split: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int]:
        teams = [[group[i] for i in team] for team in split]
        partners = sum(history.partners[_pair(t[0], t[1])] for t in teams if len(t) == 2)
        opponents = sum(history.opponents[_pair(a, b)] for a in teams[0] for b in teams[1])
        return partners, opponents

    first, second = min(splits, key=cost)
    seats: dict[str, Entrant | None] = {
        "N": group[first[0]],
        "S": group[first[1]],
        "W": group[second[0]],
        "E": group[second[1]] if len(second) > 1 else None,
    }
    return TablePairing({s: seats[s] for s in SEATS})


def swiss_round(ranked: Sequence[Entrant], history: History) -> Round:
    """A Swiss round for ``ranked`` (every entrant, best first: by points,
    then tie-break, then the order of the caller's choice): a bye for a
    single entrant left over (the lowest ranked without a bye yet, else
    the lowest ranked), groups (:func:`groups`) seated
    (:func:`seat_group`).  Raises ``ValueError`` with fewer than two
    entrants."""
    if len(ranked) < 2:
        raise ValueError("a Swiss round needs two entrants at least")
    players = list(ranked)
    byes: tuple[Entrant, ...] = ()
    if len(players) % 4 == 1:
        fresh = [e for e in players if e not in history.byes]
        bye = (fresh or players)[-1]
        players.remove(bye)
        byes = (bye,)
    tables = tuple(seat_group(g, history) for g in groups(players, history))
    return Round(tables, byes=byes)


def arena_wave(ranked: Sequence[Entrant], history: History, *, lonely: bool) -> Round:
    """Tables for the arena entrants waiting now (``ranked``: best first):
    groups of four, the rest (two or three) with computers; a single one
    left over plays with three computers when ``lonely`` (he waited long
    enough), else keeps waiting (:attr:`Round.waiting`)."""
    players = list(ranked)
    waiting: tuple[Entrant, ...] = ()
    alone: list[TablePairing] = []
    if len(players) % 4 == 1:
        last = players.pop()
        if lonely:
            alone.append(TablePairing({"N": last, "W": None, "S": None, "E": None}))
        else:
            waiting = (last,)
    tables = [seat_group(g, history) for g in groups(players, history)]
    return Round(tuple(tables + alone), waiting=waiting)
