"""Seats and sides.

Seats are N, W, S, E numbered in *playing order*: play and dealing go
counter-clockwise (all four source texts: "dans le sens inverse des aiguilles
d'une montre", seed 001), so after N comes W, then S, then E.  Partners sit face
to face: N and S form the side ``NS``, E and W the side ``EW``.

The three-player game (seeds 000 and 003, "chacun pour soi") seats W, S and E;
each player is a side of his own.  The two-player game (RULES.md "Two
players") seats W and S, the same numbering: each is a side of his own, side
``seat - 1``; the page shows the opponent facing the player.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "SEATS_2",
    "SEATS_3",
    "SEATS_4",
    "Seat",
    "next_seat",
    "parse_seat",
    "previous_seat",
    "seats_of",
]


class Seat(IntEnum):
    """A seat at the table, numbered in counter-clockwise playing order."""

    N = 0
    W = 1
    S = 2
    E = 3

    @property
    def letter(self) -> str:
        """One-letter text form: ``N``, ``W``, ``S`` or ``E``."""
        return self.name

    @property
    def partner(self) -> Seat:
        """The seat facing this one (four-player game)."""
        return Seat((self + 2) & 3)


SEATS_4: tuple[Seat, ...] = (Seat.N, Seat.W, Seat.S, Seat.E)
"""The four seats in playing order."""

SEATS_3: tuple[Seat, ...] = (Seat.W, Seat.S, Seat.E)
"""The three seats of the three-player game, in playing order."""


SEATS_2: tuple[Seat, ...] = (Seat.W, Seat.S)
"""The two seats of the two-player game, in playing order."""


def seats_of(players: int) -> tuple[Seat, ...]:
    """The seats of a ``players``-player table (2, 3 or 4), in playing order.

    Raises ``ValueError`` for any other count.
    """
    if players == 4:
        return SEATS_4
    if players == 3:
        return SEATS_3
    if players == 2:
        return SEATS_2
    raise ValueError(f"a table has 2, 3 or 4 players, not {players!r}")


def next_seat(seat: Seat, players: int = 4) -> Seat:
    """The seat that plays after ``seat`` (to its right): ``next_seat(N) == W``.

    With ``players=3`` the empty seat N is skipped: W -> S -> E -> W; with
    ``players=2`` the two seats alternate: W -> S -> W.
    """
    if players == 2:
        return Seat.S if seat == Seat.W else Seat.W
    if players == 3:
        return Seat.W if seat == Seat.E else Seat(seat + 1)
    return Seat((seat + 1) & 3)


def previous_seat(seat: Seat, players: int = 4) -> Seat:
    """The seat that plays before ``seat`` (to its left): the cutter of a dealer."""
    if players == 2:
        return Seat.S if seat == Seat.W else Seat.W
    if players == 3:
        return Seat.E if seat == Seat.W else Seat(seat - 1)
    return Seat((seat - 1) & 3)


def parse_seat(text: str) -> Seat:
    """Read ``N``, ``W``, ``S`` or ``E`` (case-insensitive); ``ValueError`` otherwise."""
    try:
        return Seat[text.strip().upper()]
    except KeyError:
        raise ValueError(f"unknown seat {text!r}: use N, E, S or W") from None
