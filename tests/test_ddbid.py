"""The expert's coinche bidding by double-dummy evaluation
(:mod:`rebelote.bots.ddbid`): the scoring of a contract from the takers'
points, the guard against the noise of few deals, and bids on hands whose
outcome is not in doubt."""

from __future__ import annotations

import random

from deals import deal_from_hands, shuffled_pack
from rebelote.actions import Bid
from rebelote.bots import Budget, make_bot
from rebelote.bots.ddbid import (
    _classic_diff,
    _contract_diff,
    _outcomes,
    dd_bid_scores,
    dd_bid_values,
    dd_choose,
)
from rebelote.bots.expert import ExpertBot, _bidding_deal
from rebelote.bots.heuristic import HeuristicBot
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.state import State
from rebelote.trump import Strain


def test_contract_scoring_from_the_takers_points() -> None:
    # Made: contract + the takers' points (belote included) against the
    # defenders' points.
    assert _contract_diff([(100.0, 1.0)], 0, 0, 80, 1) == 80 + 100 - 62
    assert _contract_diff([(100.0, 1.0)], 20, 0, 110, 1) == 110 + 120 - 62
    # Failed: the defenders score 160 + the contract (doubled when coinched).
    assert _contract_diff([(80.0, 1.0)], 0, 0, 90, 1) == -250
    assert _contract_diff([(80.0, 1.0)], 0, 0, 90, 2) == -340
    # The takers must beat the defenders as well as reach the contract.
    assert _contract_diff([(81.0, 1.0)], 0, 0, 80, 1) == -240
    # A capot contract needs every trick (250 points).
    assert _contract_diff([(250.0, 1.0)], 0, 0, 250, 1) == 500
    assert _contract_diff([(162.0, 1.0)], 0, 0, 250, 1) == -410


def test_calibrated_outcomes() -> None:
    # The weights sum to 1; the mean follows the fit (25.2 + 0.741 dd).
    out = _outcomes(100)
    assert abs(sum(w for _, w in out) - 1.0) < 1e-3
    mean = sum(p * w for p, w in out)
    assert abs(mean - (25.2 + 74.1)) < 0.5
    # A double-dummy capot is kept a third of the time.
    capot = _outcomes(250)
    assert abs(sum(w for p, w in capot if p == 250) - 0.33) < 1e-9


def test_choice_needs_a_margin_and_stands_out_of_the_noise() -> None:
    default = Bid("contract", Strain.H, 80)
    higher = Bid("contract", Strain.H, 100).text
    # +30 on every deal: clear.
    scores = {default.text: [10.0, 20.0, 30.0], higher: [40.0, 50.0, 60.0]}
    assert dd_choose(scores, default) == higher
    # +5 on every deal: under the margin.
    scores = {default.text: [10.0, 20.0, 30.0], higher: [15.0, 25.0, 35.0]}
    assert dd_choose(scores, default) is None
    # +30 on average but from one lucky deal: noise.
    scores = {default.text: [0.0, 0.0, 0.0], higher: [-60.0, -60.0, 210.0]}
    assert dd_choose(scores, default) is None


def test_a_hand_sure_of_160_in_hearts_bids_a_hearts_contract() -> None:
    state = deal_from_hands(
        "coinche",
        Seat.E,  # N speaks first
        {
            Seat.N: "JH 9H AH 10H KH QH AS AD",
            Seat.W: "7S 8S 9S 10S 7D 8D 9D 10D",
            Seat.S: "8H 7H JS QS KS JD QD KD",
            Seat.E: "7C 8C 9C 10C JC QC KC AC",
        },
    )
    view = observe(state, Seat.N)
    legal = state.legal_actions()
    bot = make_bot("expert-bidder")
    assert isinstance(bot, ExpertBot)
    bid = bot.act(view, legal, seed=1, budget=Budget())
    assert isinstance(bid, Bid) and bid.kind == "contract" and bid.strain == Strain.H
    assert bid.value is not None and bid.value >= 160


def test_a_worthless_hand_passes() -> None:
    state = deal_from_hands(
        "coinche",
        Seat.E,  # N speaks first
        {
            Seat.N: "7S 8S 7H 8H 7D 8D 7C 8C",
            Seat.W: "JS 9S AS 10S KS QS 9H 9D",
            Seat.S: "JH 10H KH QH JD 10D KD QD",
            Seat.E: "AH AD JC 9C AC 10C KC QC",
        },
    )
    view = observe(state, Seat.N)
    legal = state.legal_actions()
    bot = make_bot("expert-bidder")
    assert bot.act(view, legal, seed=1, budget=Budget()) == legal[0]
    # Nothing is near a contract: no deal is even solved.
    default = HeuristicBot.intermediate().choose_bid(view, legal)
    bids = [a for a in legal if isinstance(a, Bid)]
    assert dd_bid_values(view, bids, default, seed=1) == {}


def test_a_strong_defence_coinches_and_the_values_are_deterministic() -> None:
    # E deals, N opens 80 spades; W holds the top spades.
    state = deal_from_hands(
        "coinche",
        Seat.E,  # N speaks first
        {
            Seat.N: "AH 10H KH 8S 7S AD 10D KD",
            Seat.W: "JS 9S AS 10S AC 10C 9D 8D",
            Seat.S: "QH JH 9H 7H QD JD 7D 7C",
            Seat.E: "KS QS 8H 8C 9C JC QC KC",
        },
    )
    state.apply(Bid("contract", Strain.S, 80), Seat.N)
    view = observe(state, Seat.W)
    legal = state.legal_actions()
    bids = [a for a in legal if isinstance(a, Bid)]
    default = HeuristicBot.intermediate().choose_bid(view, legal)
    scores = dd_bid_scores(view, bids, default, seed=3)
    assert "coinche" in scores and "pass" in scores
    values = dd_bid_values(view, bids, default, seed=3)
    assert values["coinche"] > values["pass"] > 0
    assert dd_bid_values(view, bids, default, seed=3) == values
    bot = make_bot("expert-bidder")
    assert bot.act(view, legal, seed=3, budget=Budget()).text == "coinche"


def test_classic_scoring_from_the_takers_points() -> None:
    # Made: each side its points; a tie is a litige (the takers' points are
    # held over); failed: the defenders score 162 and the takers'
    # declarations.
    assert _classic_diff([(100.0, 1.0)], (0, 0), (0, 0), 1) == 100 - 62
    assert _classic_diff([(81.0, 1.0)], (0, 0), (0, 0), 1) == -81
    assert _classic_diff([(70.0, 1.0)], (0, 0), (0, 0), 1) == -162
    assert _classic_diff([(70.0, 1.0)], (20, 0), (0, 0), 1) == -182
    assert _classic_diff([(70.0, 1.0)], (20, 0), (20, 0), 1) == 110 - 92
    assert _classic_diff([(50.0, 1.0)], (20, 0), (20, 0), 1) == 20 - 182
    # Sans Atout counts double in ffb.
    assert _classic_diff([(100.0, 1.0)], (0, 0), (0, 0), 2) == 2 * 38
    assert _classic_diff([(252.0, 1.0)], (0, 0), (0, 0), 1) == 252


def test_classic_bidding_deals_give_five_cards_to_each_other_seat() -> None:
    rules = preset("ffb")
    pack = shuffled_pack(0)
    state = State.from_deck(rules, Seat.E, pack, "3-2")
    view = observe(state, Seat.N)
    got, hands = _bidding_deal(view, random.Random(1))
    assert sorted(got) == sorted(pack)
    assert hands[Seat.N] == view.hand
    assert [hands[s].bit_count() for s in (Seat.W, Seat.S, Seat.E)] == [5, 5, 5]
    replay = State.from_deck(rules, Seat.E, got, "3-2")
    assert replay.hands[Seat.N] == view.hand and replay.turned == view.turned


def test_a_sure_take_in_ffb_is_valued_and_taken() -> None:
    state = deal_from_hands(
        "ffb",
        Seat.E,
        {
            Seat.N: "JH 9H AH 10H KH AS AD AC",
            Seat.W: "7S 8S 9S 7D 8D 9D 7C 8C",
            Seat.S: "QH 8H 10S JS QS 10D JD QD",
            Seat.E: "7H KS KD 9C 10C JC QC KC",
        },
        turned="JH",
    )
    view = observe(state, Seat.N)
    legal = state.legal_actions()
    bot = ExpertBot(card_play=False, solve_classic_bids=True)
    assert bot.act(view, legal, seed=2, budget=Budget()).text == "take"
