"""The bots' two-player logic (RULES.md "Two players": 8 cards each, the
other 16 set aside unseen and never played): what a seat infers about the
opponent's hand, the intermediate's take values and its leads, each with
exact values in a fixed position."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rebelote.actions import Bid, Play, parse_bid
from rebelote.bots import Budget, make_bot
from rebelote.bots.evaluation import take_value, two_player_take_value
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.knowledge import infer
from rebelote.cards import DECK_32, cards_of, mask_of, parse_card, parse_cards
from rebelote.observation import PlayerView, observe
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.state import State
from rebelote.trump import Strain

PLAIN2 = preset("two-players").replace(declarations="off")
PLAIN4 = preset("ffb").replace(declarations="off")


def defender_leads() -> State:
    """S (the dealer) takes hearts on the turned jack after W passed; W, the
    first speaker, leads the first trick."""
    state = State.from_hands(
        PLAIN2,
        Seat.S,
        {
            Seat.W: parse_cards("10S 7S 10D 8D 9C 8C 7H 8H"),
            Seat.S: parse_cards("JH 9H AH KH AS AD AC 7D"),
        },
        parse_card("JH"),
    )
    state.apply(parse_bid("pass"))
    state.apply(parse_bid("take"))
    assert state.current == Seat.W
    return state


def test_two_player_opponents_and_hand_sizes() -> None:
    """With two players the only opponent is the other seat (not the empty
    N or E), and each seat holds 8 cards at the first trick."""
    k = infer(observe(defender_leads(), Seat.W))
    assert k.opponents() == (Seat.S,)
    assert k.sizes == (0, 8, 8, 0)
    # The turned jack is known to be with the taker; W sees 24 other cards.
    assert k.known[Seat.S] == mask_of([parse_card("JH")])
    assert k.unseen.bit_count() == 24


def test_chance_the_opponent_holds_no_better_card() -> None:
    """The ace of spades is unseen by W: S's 7 unknown cards are among the 23
    cards W cannot place (24 unseen less the turned jack S holds), so S lacks
    the ace with probability C(22, 7) / C(23, 7) = 16/23; S holds the turned
    jack of trump for sure (chance 0 that it lacks it); nothing beats the
    trump jack (chance 1)."""
    k = infer(observe(defender_leads(), Seat.W))
    assert k.tables is not None
    ten_spades = k.tables.higher[parse_card("10S")]
    chance = k.chance_holds_none(Seat.S, ten_spades)
    assert Fraction(chance).limit_denominator(1000) == Fraction(16, 23)
    assert chance == comb(22, 7) / comb(23, 7)
    assert k.chance_holds_none(Seat.S, mask_of([parse_card("JH")])) == 0.0
    assert k.chance_holds_none(Seat.S, k.tables.higher[parse_card("JH")]) == 1.0


def test_intermediate_cashes_a_likely_master_ten() -> None:
    """W leads against S's hearts: no sure master (both aces unseen), but S
    lacks the ace of spades with probability 16/23 >= 0.65, so the
    intermediate cashes the ten of spades; the beginner, who counts nothing,
    leads its cheapest card, the eight of clubs."""
    state = defender_leads()
    view = observe(state, Seat.W)
    legal = state.legal_actions()
    intermediate = make_bot("intermediate").act(view, legal, seed=1, budget=Budget())
    beginner = make_bot("beginner").act(view, legal, seed=1, budget=Budget())
    assert intermediate == Play(parse_card("10S"))
    assert beginner == Play(parse_card("8C"))


def test_two_player_take_value_exact() -> None:
    """The fitted two-player weights: JH 9H AH 7H with the spade and club
    aces, diamonds void: -52.2 + 60.9 + 37.0 + 20.2 + 2 x 27.4 + 4.4; the
    belote pair and the club ace-ten without the jack: -108.0 (two trumps)
    + 49.5 + 27.4 + 27.4 + 19.3 + 4.4 (spades void)."""
    hand = mask_of(parse_cards("JH 9H AH 7H AS AC"))
    assert two_player_take_value(hand, Strain.H) == pytest.approx(125.1)
    hand = mask_of(parse_cards("QH KH QC 10C AD AC"))
    assert two_player_take_value(hand, Strain.H) == pytest.approx(20.0)
    assert take_value(hand, Strain.H) == pytest.approx(-15.0)


def first_speaker_view(rules_players: int) -> tuple[PlayerView, list[Bid]]:
    """W speaks first holding KH AD 10C QC AC with the queen of hearts
    turned, at two players (dealer S) or four (dealer N)."""
    w = parse_cards("QC KH 10C AD AC")
    turned = parse_card("QH")
    rest = [c for c in cards_of(DECK_32) if c not in [*w, turned]]
    if rules_players == 2:
        pack = w[:3] + rest[:3] + w[3:] + rest[3:5] + [turned] + rest[5:]
        state = State.from_deck(PLAIN2, Seat.S, pack, "3-2")
    else:
        pack = w[:3] + rest[:9] + w[3:] + rest[9:15] + [turned] + rest[15:]
        state = State.from_deck(PLAIN4, Seat.N, pack, "3-2")
    assert state.current == Seat.W
    view = observe(state, Seat.W)
    assert view.hand == mask_of(w) and view.turned == turned
    bids = [a for a in state.legal_actions() if isinstance(a, Bid)]
    return view, bids


def test_intermediate_takes_by_the_two_player_values() -> None:
    """The belote of trump without the jack beside two side aces: capped at
    -15 by the four-player weights (two trumps without the jack), so the
    four-player intermediate passes; the two-player weights value it +20.0
    and the two-player intermediate takes."""
    bot = HeuristicBot.intermediate()
    view, bids = first_speaker_view(2)
    values = bot.classic_bid_values(view, bids)
    assert values == {"pass": 0.0, "take": pytest.approx(20.0)}
    assert bot.act(view, bids, seed=1, budget=Budget()) == parse_bid("take")
    view, bids = first_speaker_view(4)
    values = bot.classic_bid_values(view, bids)
    assert values == {"pass": 0.0, "take": pytest.approx(-15.0)}
    assert bot.act(view, bids, seed=1, budget=Budget()) == parse_bid("pass")


def test_intermediate_cashes_a_sure_master_before_a_likely_one() -> None:
    """After the ace and ten of clubs fell, W's king of clubs is a sure
    master (4 points) and its ten of spades a likely one (the ace of spades
    unseen: S, 4 cards to place among the 20 W cannot, lacks it with
    probability 16/20 = 0.8): the intermediate leads the sure king first,
    though the ten is worth more."""
    state = State.from_hands(
        PLAIN2,
        Seat.S,
        {
            Seat.W: parse_cards("KC QC 8C 9D 10S 7S 7H 8H"),
            Seat.S: parse_cards("JH 9H AH KH AC 10C AS 7D"),
        },
        parse_card("JH"),
    )
    state.apply(parse_bid("pass"))
    state.apply(parse_bid("take"))
    for card in ("QC", "AC", "10C", "8C", "7D", "9D"):
        state.apply(Play(parse_card(card)))
    assert state.current == Seat.W and len(state.tricks) == 3
    view = observe(state, Seat.W)
    k = infer(view)
    assert k.tables is not None
    assert k.is_master(parse_card("KC")) and not k.is_master(parse_card("10S"))
    chance = k.chance_holds_none(Seat.S, k.tables.higher[parse_card("10S")])
    assert Fraction(chance).limit_denominator(1000) == Fraction(4, 5)
    legal = state.legal_actions()
    choice = make_bot("intermediate").act(view, legal, seed=1, budget=Budget())
    assert choice == Play(parse_card("KC"))
