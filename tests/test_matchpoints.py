"""Matchpoints of the daily deal (rebelote.server.people.matchpoints,
docs/daily.md): exact values on a fixed set of results, ties included."""

from __future__ import annotations

import pytest

from rebelote.server.people.matchpoints import (
    Standing,
    deal_matchpoints,
    deal_percentages,
    standings,
)


def test_matchpoints_two_per_beaten_one_per_tie() -> None:
    # scores 100, 80, 80, 0, 162: 162 beats 4; 100 beats 3; the 80s beat
    # the 0 and tie each other; 0 beats nobody
    assert deal_matchpoints([100, 80, 80, 0, 162]) == [6, 3, 3, 0, 8]


def test_percentages_of_the_top() -> None:
    # top = 2 * (5 - 1) = 8
    assert deal_percentages([100, 80, 80, 0, 162]) == [75.0, 37.5, 37.5, 0.0, 100.0]


def test_all_tied_and_alone() -> None:
    assert deal_matchpoints([90, 90, 90]) == [2, 2, 2]
    assert deal_percentages([90, 90, 90]) == [50.0, 50.0, 50.0]
    assert deal_percentages([12]) == [50.0]
    assert deal_matchpoints([]) == []


def test_day_standings_exact_with_ties() -> None:
    names = {1: "Ada", 2: "Bob", 3: "Cy", 4: "Dee"}
    per_deal = {
        # deal 0: Ada 162 > Bob 100 = Cy 100 > Dee 0 -> 100, 50, 50, 0
        0: {1: 162, 2: 100, 3: 100, 4: 0},
        # deal 1: Dee 90 > Cy 80 > Bob 0 = Ada 0 -> Dee 100, Cy 66.67, Bob/Ada 16.67
        1: {1: 0, 2: 0, 3: 80, 4: 90},
        # deal 2: only Ada and Bob: Bob 20 > Ada 10 -> Bob 100, Ada 0
        2: {1: 10, 2: 20},
    }
    got = standings(per_deal, 4, names)
    # Ada (100 + 50/3 + 0) / 4 = 29.1666..; Bob (50 + 50/3 + 100) / 4 = 41.666..
    # Cy (50 + 200/3) / 4 = 29.1666..; Dee (0 + 100) / 4 = 25
    assert [(s.key, s.rank) for s in got] == [(2, 1), (1, 2), (3, 2), (4, 4)]
    assert [round(s.percent, 6) for s in got] == [41.666667, 29.166667, 29.166667, 25.0]
    assert got[1] == Standing(1, 100 * 7 / 24, 2)


def test_a_player_who_finished_no_deal_is_listed_at_zero() -> None:
    """Started the set, finished nothing: every deal counts 0 % for him
    (docs/daily.md), so he is listed, last."""
    got = standings({0: {1: 162, 2: 100}}, 8, {1: "Ada", 2: "Bob", 3: "Cy"})
    assert got == [Standing(1, 12.5, 1), Standing(2, 0.0, 2), Standing(3, 0.0, 2)]


def test_standings_refuse_a_deal_out_of_the_day() -> None:
    with pytest.raises(ValueError, match="deal 8 is not one of the day's 8"):
        standings({8: {1: 10}}, 8, {1: "Ada"})
    with pytest.raises(ValueError, match="at least one deal"):
        standings({}, 0, {})
