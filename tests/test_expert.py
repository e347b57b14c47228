"""The expert (issue #6): legal play of every preset with a tiny budget,
worlds that agree with the view, determinism and the plan of
worlds.  (The no-peeking test of the bots issue
covers the expert too: ``tests/test_bots.py::test_no_peeking``.)"""

from __future__ import annotations

import random

import pytest

from rebelote.actions import Action
from rebelote.bots import Bot, Budget, decision_seed, make_bot
from rebelote.bots.expert import ExpertBot, plan_worlds
from rebelote.bots.knowledge import infer
from rebelote.bots.sampling import sample_worlds
from rebelote.cards import DECK_24, DECK_32, cards_of
from rebelote.observation import observe
from rebelote.rules import PRESETS, preset
from rebelote.seats import SEATS_3, SEATS_4, Seat
from rebelote.state import Phase, State

TINY = Budget(worlds=2, nodes=20_000)


def play(rules_name: str, bots: dict[Seat, Bot], seed: int, budget: Budget) -> list[Action]:
    """A whole deal drawn from ``seed``; every action is checked legal."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    state = State.from_deck(rules, seats[seed % len(seats)], pack, rules.patterns[0])
    actions: list[Action] = []
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        action = bots[seat].act(
            observe(state, seat), legal, seed=decision_seed(seed, seat, len(actions)), budget=budget
        )
        assert action in legal, (rules_name, seat, action)
        state.apply(action, seat)
        actions.append(action)
    assert state.result is not None
    return actions


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_expert_plays_every_preset_legally(rules_name: str) -> None:
    seats = SEATS_3 if preset(rules_name).players == 3 else SEATS_4
    for seed in range(2):
        levels = ["expert", "intermediate"] * 2
        bots = {s: make_bot(lv) for s, lv in zip(seats, levels, strict=False)}
        play(rules_name, bots, 40 + seed, TINY)


def test_expert_is_deterministic_for_a_seed() -> None:
    bots = {s: make_bot("expert") for s in SEATS_4}
    assert play("coinche", bots, 3, TINY) == play("coinche", bots, 3, TINY)


def test_expert_bidder_plays_cards_as_the_intermediate() -> None:
    bot = make_bot("expert-bidder")
    assert bot.level == "expert-bidder"
    assert isinstance(bot, ExpertBot) and not bot.card_play


def test_plan_of_worlds() -> None:
    assert plan_worlds(20, 4, compiled=False) == 20
    assert plan_worlds(20, 5, compiled=False) == 6
    assert plan_worlds(20, 8, compiled=False) == 0
    assert plan_worlds(20, 5, compiled=True) == 20
    assert plan_worlds(20, 8, compiled=True) == 2


@pytest.mark.parametrize("rules_name", ["ffb", "coinche", "seed003", "three-players"])
def test_worlds_agree_with_the_view(rules_name: str) -> None:
    rules = preset(rules_name)
    rng = random.Random(11)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    bot = make_bot("intermediate")
    checked = 0
    for seed in range(6):
        pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
        rng.shuffle(pack)
        state = State.from_deck(rules, seats[seed % len(seats)], pack, rules.patterns[0])
        index = 0
        while not state.is_terminal:
            seat = state.current
            assert seat is not None
            view = observe(state, seat)
            if state.phase is Phase.PLAYING and index % 3 == 0 and not state.to_declare:
                k = infer(view)
                sizes = dict(view.hand_sizes)
                worlds = sample_worlds(view, 5, seed=index)
                assert worlds == sample_worlds(view, 5, seed=index)
                for w in worlds:
                    assert w.hands[seat] == view.hand
                    held = 0
                    for s in seats:
                        assert w.hands[s].bit_count() == sizes[s]
                        assert w.hands[s] & ~k.possible[s] == 0
                        assert k.known[s] & ~w.hands[s] == 0
                        assert held & w.hands[s] == 0
                        held |= w.hands[s]
                    assert held & view.played == 0
                    checked += 1
            action = bot.act(view, state.legal_actions(), seed=index, budget=Budget())
            state.apply(action, seat)
            index += 1
    assert checked > 50
