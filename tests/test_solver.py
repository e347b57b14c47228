"""The double-dummy solver (issue #6): exact values against an independent
exhaustive minimax, over every preset; positions from states and hands;
the compiled kernel against the pure path.

The exhaustive minimax here shares nothing with the solver but the rules
engine: it plays every legal card with :meth:`State.apply` on copies of the
state, to the end of the deal, and reads the value from the finished
state's tricks (card points, dix de der, capot).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rebelote.actions import Play
from rebelote.bots import Budget, decision_seed, make_bot
from rebelote.cards import DECK_24, DECK_32, cards_of, parse_card
from rebelote.observation import observe
from rebelote.rules import PRESETS, Rules, preset
from rebelote.seats import SEATS_3, SEATS_4, Seat
from rebelote.solver import Position, PositionError, capot_bonus, kernel_available, search
from rebelote.state import Phase, State
from rebelote.trump import Strain

PRESET_NAMES = sorted(PRESETS)


def _side(rules: Rules, seat: Seat) -> int:
    return int(seat) & 1 if rules.players == 4 else int(seat) - 1


def _final_value(state: State, first_trick: int, side: int) -> int:
    """The value for ``side`` of the tricks from ``first_trick`` on, read
    from a finished state (see :mod:`rebelote.solver.search`)."""
    rules = state.rules
    value = 0
    for trick in state.tricks[first_trick:]:
        pts = trick.points
        if trick is state.tricks[-1]:
            pts += 10
        value += pts if _side(rules, trick.winner) == side else -pts
    winners = {_side(rules, t.winner) for t in state.tricks}
    bonus = capot_bonus(rules)
    if winners == {side}:
        value += bonus
    elif rules.players == 4 and side not in winners:
        value -= bonus
    return value


def exhaustive(state: State, side: int, first_trick: int) -> int:
    """Plain minimax (no pruning, no table) over :meth:`State.apply`."""
    if state.phase is not Phase.PLAYING:
        return _final_value(state, first_trick, side)
    seat = state.current
    assert seat is not None
    values = []
    for card in cards_of(state.legal_play_mask()):
        child = state.copy()
        child.apply(Play(card))
        values.append(exhaustive(child, side, first_trick))
    return max(values) if _side(state.rules, seat) == side else min(values)


def exhaustive_moves(state: State) -> dict[int, int]:
    """Each legal card's minimax value for the side to play."""
    seat = state.current
    assert seat is not None
    side = _side(state.rules, seat)
    out = {}
    for card in cards_of(state.legal_play_mask()):
        child = state.copy()
        child.apply(Play(card))
        out[card] = exhaustive(child, side, len(state.tricks))
    return out


def endgame(rules_name: str, seed: int, tricks_left: int, extra: int) -> State:
    """A state of ``rules_name`` with ``tricks_left`` tricks to play and
    ``extra`` cards (0..players-1) already on the trick, reached by the
    intermediate bot from a pack drawn from ``seed``."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    bot = make_bot("intermediate")
    for attempt in range(50):
        pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[attempt % len(seats)], pack, rules.patterns[0])
        index = 0
        while not state.is_terminal:
            if (
                state.phase is Phase.PLAYING
                and not state.to_declare
                and len(state.tricks) == 8 - tricks_left
                and len(state.trick_cards) == extra
            ):
                return state
            seat = state.current
            assert seat is not None
            legal = state.legal_actions()
            action = (
                make_bot("random").act(
                    observe(state, seat),
                    legal,
                    seed=decision_seed(seed, seat, index),
                    budget=Budget(),
                )
                if rng.random() < 0.3
                else bot.act(observe(state, seat), legal, seed=index, budget=Budget())
            )
            state.apply(action)
            index += 1
    raise AssertionError("no deal reached the card play")


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_solver_equals_exhaustive_minimax_on_endgames(rules_name: str) -> None:
    checked = 0
    for seed in range(6):
        tricks_left = 2 + seed % 2
        extra = seed % (3 if rules_name == "three-players" else 4)
        state = endgame(rules_name, 7000 + seed, tricks_left, extra)
        pos = Position.from_state(state)
        want = exhaustive_moves(state)
        got = search.solve_moves(pos)
        assert got.values == want, (rules_name, seed)
        side = pos.side_of(pos.turn)
        assert search.solve_value(pos) == max(want.values())
        for other in range(3 if pos.rules.players == 3 else 2):
            if other != side and pos.rules.players == 4:
                assert search.solve_value(pos, other) == -max(want.values())
        checked += 1
    assert checked == 6


def test_solver_equals_exhaustive_minimax_three_tricks_with_capot() -> None:
    # A deal where one side has taken every trick so far: the capot is live.
    found = 0
    for seed in range(200):
        state = endgame("ffb", 9000 + seed, 3, 0)
        won = {_side(state.rules, t.winner) for t in state.tricks}
        if len(won) != 1:
            continue
        pos = Position.from_state(state)
        assert search.solve_moves(pos).values == exhaustive_moves(state)
        found += 1
        if found == 3:
            break
    assert found == 3


def test_root_values_equal_a_re_solve_of_each_child() -> None:
    state = endgame("coinche", 42, 5, 1)
    pos = Position.from_state(state)
    values = search.solve_moves(pos).values
    side = pos.side_of(pos.turn)
    for card, value in values.items():
        child_state = state.copy()
        child_state.apply(Play(card))
        child = Position.from_state(child_state)
        # The child's value counts the trick in progress from scratch: add
        # back nothing, as the trick's cards stay on it until it ends.
        assert search.solve_value(child, side) == value


def test_position_checks_and_views() -> None:
    rules = preset("ffb")
    hands = [0, 0, 0, 0]
    for i, name in enumerate(["JS 9S", "AH 10H", "7D 8D", "AC 10C"]):
        for c in name.split():
            hands[i] |= 1 << parse_card(c)
    pos = Position.from_hands(rules, Strain.S, hands, turn=Seat.N)
    assert pos.tricks_left == 2
    assert pos.remaining_points() == 20 + 14 + 21 + 0 + 21 + 10
    # N holds the two top trumps and leads: both tricks, all 86 points.
    assert search.solve_value(pos) == 86
    with pytest.raises(PositionError, match="holds"):
        Position.from_hands(rules, Strain.S, [hands[0], hands[1], hands[2], 0], turn=Seat.N)
    with pytest.raises(PositionError, match="two seats"):
        Position.from_hands(rules, Strain.S, [hands[0], hands[0], hands[2], hands[3]], turn=Seat.N)
    with pytest.raises(PositionError, match="plays next"):
        Position.from_hands(
            rules,
            Strain.S,
            [hands[0] & ~(1 << parse_card("9S")), hands[1], hands[2], hands[3]],
            trick=[(Seat.N, parse_card("9S"))],
            turn=Seat.S,
        )
    with pytest.raises(PositionError, match="card play"):
        Position.from_state(State.from_deck(rules, Seat.N, list(range(32)), "3-2"))


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_kernel_equals_pure_path(rules_name: str) -> None:
    from rebelote.solver import kernel

    for seed in range(5):
        state = endgame(rules_name, 8000 + seed, 3 + seed % 3, seed % 3)
        pos = Position.from_state(state)
        want = search.solve_moves(pos)
        got = kernel.solve_moves(pos)
        assert got.values == want.values, (rules_name, seed)
        assert got.kernel == "numba"


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
def test_kernel_rules_equal_the_rules_core() -> None:
    from rebelote.solver import kernel
    from rebelote.tricks import beats, legal_play_mask
    from rebelote.trump import strain_tables

    rng = random.Random(5)
    every = [*PRESETS.values(), preset("ffb").replace(lower_trump_under_partner="all_trumps_only")]
    for rules in every:
        for strain in Strain:
            t = strain_tables(strain, rules.ta_points, rules.sa_points)
            for _ in range(300):
                cards = rng.sample(range(32), 10)
                hand = sum(1 << c for c in cards[:8])
                led, winning = cards[8], cards[rng.choice((8, 9))]
                partner = rng.random() < 0.5
                want = legal_play_mask(hand, led, winning, partner, t, rules)
                got = kernel.legal_mask(
                    hand,
                    led,
                    winning,
                    partner,
                    t.trumps,
                    t.higher[winning],
                    rules.overtrump_partner_on_trump_lead,
                    kernel._exemption(rules),
                    rules.must_undertrump,
                )
                assert got == want
                a, b = cards[9], cards[8]
                got_beats = kernel.beats_card(a, b, t.trumps, t.strength[a], t.strength[b])
                assert got_beats == beats(a, b, t)


_RECORDED = Path(__file__).with_name("data") / "solver_kernel_values.json"


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
def test_kernel_gives_the_values_and_node_counts_recorded_from_the_recursive_kernel() -> None:
    """The iterative kernel (issue 15, cacheable on disk) searches exactly as
    the recursive one did: on 56 seeded positions of every preset (4 to 7
    tricks left, 0 to 3 cards on the trick, and two whole deals), each
    card's value, the node count and the other side's value equal those
    that the recursive kernel of commit 4f0a1de gave (recorded in
    ``tests/data/solver_kernel_values.json``)."""
    from rebelote.solver import kernel

    cases = json.loads(_RECORDED.read_text())["cases"]
    assert len(cases) == 56
    for case in cases:
        pos = Position.from_hands(
            preset(case["rules"]),
            Strain[case["strain"]],
            case["hands"],
            trick=[(Seat(s), c) for s, c in case["trick"]],
            turn=Seat(case["turn"]),
            side_tricks=case["side_tricks"],
        )
        got = kernel.solve_moves(pos)
        assert {str(c): v for c, v in got.values.items()} == case["values"], case
        assert got.nodes == case["nodes"], case
        side, value = case["value_other_side"]
        assert kernel.solve_value(pos, side) == value, case


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
def test_kernel_stops_at_its_node_limit() -> None:
    from rebelote.solver import SearchLimitError, kernel

    case = json.loads(_RECORDED.read_text())["cases"][-1]
    pos = Position.from_hands(
        preset(case["rules"]),
        Strain[case["strain"]],
        case["hands"],
        turn=Seat(case["turn"]),
        side_tricks=case["side_tricks"],
    )
    with pytest.raises(SearchLimitError, match="node limit 5000 reached"):
        kernel.solve_moves(pos, max_nodes=5000)
    # The workspace is fresh for each solve: a full solve after the stop
    # gives the recorded values.
    assert kernel.solve_moves(pos).nodes == case["nodes"]
