"""The expert's bids in the classic four-player auction (``ffb``): the
intermediate's take values with thresholds by round and position
(:data:`rebelote.bots.expert.CLASSIC_TAKE_OFFSETS`) and a first-round pass
to take a much better suit in the second round
(:data:`rebelote.bots.expert.CLASSIC_SWITCH_MARGIN`).

Each position states the hand's :func:`take_value` of every suit, the exact
bid of the intermediate and the exact bid of the expert."""

from __future__ import annotations

import pytest

from deals import classic_deal
from rebelote.actions import Action, Bid
from rebelote.bots import Budget, make_bot
from rebelote.bots.expert import CLASSIC_SWITCH_MARGIN, CLASSIC_TAKE_OFFSETS
from rebelote.bots.heuristic import take_value
from rebelote.cards import CardSet, bit, parse_card
from rebelote.declarations import find_declarations
from rebelote.observation import observe
from rebelote.state import State
from rebelote.trump import Strain


def _deal(hand: str, turned: str, position: int) -> State:
    return classic_deal("ffb", hand, turned, position)


def _bid_after(state: State, passes: int, level: str) -> str:
    for _ in range(passes):
        state.apply(Bid("pass"))
    seat = state.current
    assert seat is not None
    action: Action = make_bot(level).act(
        observe(state, seat), state.legal_actions(), seed=1, budget=Budget()
    )
    assert isinstance(action, Bid)
    return action.text


def _values(hand: str, turned: str) -> dict[str, float]:
    mask = CardSet.parse(hand).mask | bit(parse_card(turned))
    out = {}
    for s in range(4):
        strain = Strain(s)
        points = sum(d.points for d in find_declarations(mask, strain))
        out[strain.name] = round(take_value(mask, strain, declarations=points), 1)
    return out


def test_the_constants_are_the_fitted_ones() -> None:
    assert CLASSIC_TAKE_OFFSETS == ((0.0, 0.0, 0.0, -20.0), (0.0, 0.0, -15.0, -5.0))
    assert CLASSIC_SWITCH_MARGIN == 40.0


# AC KC 7C with the KC turned: three trumps without the jack or the nine.
WEAK_CLUBS = ("7D AS AC KS 7C", "KC")


def test_weak_clubs_values() -> None:
    assert _values(*WEAK_CLUBS) == {"S": -52.0, "H": -88.0, "D": -74.0, "C": -14.0}


@pytest.mark.parametrize(
    ("position", "intermediate", "expert"),
    [
        (0, "pass", "pass"),
        (1, "pass", "pass"),
        (2, "pass", "pass"),
        # The dealer, last to speak in round one: -14 clears its -20.
        (3, "pass", "take"),
    ],
)
def test_round_one_the_dealer_takes_a_little_lower(
    position: int, intermediate: str, expert: str
) -> None:
    assert _bid_after(_deal(*WEAK_CLUBS, position), position, "intermediate") == intermediate
    assert _bid_after(_deal(*WEAK_CLUBS, position), position, "expert-bidder") == expert
    assert _bid_after(_deal(*WEAK_CLUBS, position), position, "expert") == expert


# JC AC in clubs (turned) but J 9 A 7 of diamonds.
BETTER_DIAMONDS = ("7D 9D AD JC JD", "AC")


def test_better_diamonds_values() -> None:
    assert _values(*BETTER_DIAMONDS) == {"S": -88.0, "H": -88.0, "D": 144.5, "C": 16.5}


@pytest.mark.parametrize("position", [0, 1, 2, 3])
def test_round_one_passes_to_name_a_much_better_suit(position: int) -> None:
    # Clubs (16.5) reach the intermediate's threshold; diamonds are 128
    # points better, more than the margin of 40: the expert passes...
    assert _bid_after(_deal(*BETTER_DIAMONDS, position), position, "intermediate") == "take"
    assert _bid_after(_deal(*BETTER_DIAMONDS, position), position, "expert-bidder") == "pass"
    # ... and names diamonds in round two when the others pass.
    assert _bid_after(_deal(*BETTER_DIAMONDS, position), 4 + position, "expert-bidder") == "D"


# Q J 8 of diamonds, kings of clubs and spades, the 8S turned.
THIN_DIAMONDS = ("8D KC JD QD KS", "8S")


def test_thin_diamonds_values() -> None:
    assert _values(*THIN_DIAMONDS) == {"S": -92.5, "H": -134.0, "D": -6.5, "C": -120.0}


@pytest.mark.parametrize(
    ("position", "expert"),
    [
        (0, "pass"),
        (1, "pass"),
        # Two passes before in round two: -6.5 clears -15; last: clears -5.
        (2, "D"),
        (3, "pass"),
    ],
)
def test_round_two_takes_lower_late(position: int, expert: str) -> None:
    state = _deal(*THIN_DIAMONDS, position)
    assert _bid_after(state, 4 + position, "intermediate") == "pass"
    assert _bid_after(_deal(*THIN_DIAMONDS, position), 4 + position, "expert-bidder") == expert
