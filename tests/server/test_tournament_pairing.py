"""Tournament pairing and standings (pure: no server, no database;
``docs/tournaments.md``)."""

from __future__ import annotations

import pytest

from rebelote.server.tournaments.pairing import (
    History,
    TablePairing,
    arena_wave,
    seat_group,
    swiss_round,
)
from rebelote.server.tournaments.standings import Bye, Game, Standing, standings


def _t(n: int | None, w: int | None, s: int | None, e: int | None) -> TablePairing:
    return TablePairing({"N": n, "W": w, "S": s, "E": e})


ROUND_1 = (_t(1, 2, 4, 3), _t(5, 6, 8, 7))


def test_swiss_round_two_exact_pairs_no_repeated_partner_and_a_bye() -> None:
    history = History.of(ROUND_1, byes=[9])
    # after round 1: 1-4 and 6-7 won, 9 had the bye
    ranked = [1, 4, 6, 7, 9, 2, 3, 5, 8]
    paired = swiss_round(ranked, history)
    assert paired.byes == (8,)  # the lowest ranked without a bye (9 had one)
    assert paired.tables == (_t(1, 4, 9, 6), _t(7, 2, 3, 5))
    for table in paired.tables:
        for team in table.teams:
            assert history.partners[frozenset(team)] == 0


def test_swiss_round_left_over_pair_sits_with_computers() -> None:
    paired = swiss_round([1, 2, 3, 4, 5, 6], History())
    assert paired.byes == ()
    assert paired.tables == (_t(1, 2, 4, 3), _t(5, 6, None, None))


def test_three_entrants_two_partners_against_one_with_a_computer() -> None:
    assert seat_group([1, 2, 3], History()) == _t(1, 2, 3, None)
    # 1 and 3 were partners: 1 and 2 then
    history = History.of([_t(1, None, 3, None)])
    assert seat_group([1, 2, 3], history) == _t(1, 3, 2, None)


def test_a_bye_goes_to_the_lowest_when_everyone_had_one() -> None:
    paired = swiss_round([1, 2, 3, 4, 5], History(byes={1, 2, 3, 4, 5}))
    assert paired.byes == (5,)
    assert paired.tables == (_t(1, 2, 4, 3),)


def test_swiss_round_needs_two() -> None:
    with pytest.raises(ValueError, match="two entrants"):
        swiss_round([7], History())


def test_arena_wave_keeps_a_single_waiting_unless_lonely() -> None:
    assert arena_wave([3, 1, 2, 4, 5], History(), lonely=False).waiting == (5,)
    wave = arena_wave([3, 1, 2, 4, 5], History(), lonely=True)
    assert wave.waiting == ()
    assert wave.tables == (_t(3, 1, 4, 2), _t(5, None, None, None))


def test_swiss_standings_exact_after_fixed_results() -> None:
    names = {1: "Ada", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve"}
    games = [
        Game(1, ((1, 4), (2, 3)), winner=0),
        # 1 and 5 win, but 5 left: a loss for 5
        Game(2, ((1, 5), (2, 4)), winner=0, left=frozenset({5})),
    ]
    table = standings("swiss", names, games, [Bye(1, 5)])
    assert table == [
        Standing(1, 1, "Ada", 2, 2, 1),
        Standing(2, 4, "Dee", 1, 2, 3),
        Standing(3, 5, "Eve", 1, 1, 1),
        Standing(4, 2, "Bob", 0, 2, 6),
        Standing(5, 3, "Cy", 0, 1, 3),
    ]


def test_arena_standings_streak_and_shared_ranks() -> None:
    names = {1: "A", 2: "B"}
    games = [Game(i, ((1,), (2,)), winner=0) for i in (1, 2, 3)]
    games += [Game(4, ((1,), (2,)), winner=1), Game(5, ((1,), (2,)), winner=0)]
    games.append(Game(6, ((1,), (2,)), winner=None))  # never played: counts for nobody
    assert standings("arena", names, games) == [
        Standing(1, 1, "A", 10, 5, 10),
        Standing(2, 2, "B", 2, 5, 50),
    ]
    assert standings("swiss", {1: "Zed", 2: "amy"}, []) == [
        Standing(1, 2, "amy", 0, 0, 0),
        Standing(1, 1, "Zed", 0, 0, 0),
    ]
