"""The per-match summaries of the profiles (``server/tables/summaries.py``)
over whole matches played by the rules core with random legal actions,
every preset (four, three and two players): each seat's counts add up with
the core's own results, deal by deal, and its final score is the core's
match totals; an unfinished match has no summary."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rebelote.rules import PRESETS, preset
from rebelote.scoring import explain_deal
from rebelote.seats import seats_of
from rebelote.server.tables.summaries import tally_match
from rebelote.simulate import random_match


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_seats_counts_add_up_with_the_cores_results(name: str) -> None:
    rules = dataclasses.replace(preset(name), target=300)
    seats = seats_of(rules.players)
    for seed in range(4):
        match, states = random_match(rules, random.Random(seed))
        assert match.is_over
        tallies = tally_match(rules, states)
        assert tallies is not None and set(tallies) == set(seats)
        played = [
            s
            for s in states
            if s.result is not None and s.result.result not in ("passed", "cancelled")
        ]
        side = {seat: states[0].side_of[int(seat)] for seat in seats}
        for seat, t in tallies.items():
            assert t.deals == len(played)
            partners = [o for o in seats if o != seat and side[o] == side[seat]]
            assert t.taken + sum(tallies[p].taken for p in partners) + t.defended == len(played)
            assert 0 <= t.made <= t.taken
            assert t.score_us == match.totals[side[seat]]
            assert t.score_them == max(v for i, v in enumerate(match.totals) if i != side[seat])
            assert t.capots == sum(s.result.capot == side[seat] for s in played if s.result)
            mine = [s for s in played if s.contract is not None and s.contract.taker == seat]
            assert t.taken == len(mine)
            assert t.taker_points == sum(s.result.score[side[seat]] for s in mine if s.result)
        # every contract made is one the core scored as made (or capot by its takers)
        made = sum(t.made for t in tallies.values())
        assert made == sum(s.result.result in ("made", "capot") for s in played if s.result)
        verdicts = [explain_deal(rules, s.result) for s in played if s.result]
        assert made == sum(v is not None and v.verdict == "made" for v in verdicts)


def test_a_match_not_over_has_no_summary() -> None:
    rules = dataclasses.replace(preset("ffb"), target=300)
    _match, states = random_match(rules, random.Random(1))
    assert tally_match(rules, states[:-1]) is None
    assert tally_match(rules, []) is None
