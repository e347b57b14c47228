"""The two-player game (RULES.md "Two players"; exoty.com "la belote à deux
(presque) classique": "les règles sont les mêmes que pour la Belote
classique"): seats W and S, 8 cards each from a 32-card pack, the other 16
set aside unseen, classic obligations and scoring."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote import rollout
from rebelote.actions import Play, parse_bid
from rebelote.cards import DECK_32, card_name, cards_of, parse_card, parse_cards
from rebelote.match import Match
from rebelote.observation import observe
from rebelote.record import replay, replay_deal, state_to_record
from rebelote.rules import PRESETS, Rules, RulesError, preset
from rebelote.seats import SEATS_2, Seat, next_seat, previous_seat, seats_of
from rebelote.simulate import random_deal, random_match
from rebelote.state import DealError, State

PRESET_TWO = preset("two-players")
TWO = PRESET_TWO.replace(deal_points="played")
"""The preset with the option ``deal_points="played"`` (RULES.md "Two
players"): the scoring tests below state both counts."""
PLAIN = TWO.replace(declarations="off")


def two_hands(w: str, s: str, turned: str, rules: Rules = PLAIN, dealer: Seat = Seat.S) -> State:
    """A two-player deal from W's and S's final eight cards."""
    return State.from_hands(
        rules, dealer, {Seat.W: parse_cards(w), Seat.S: parse_cards(s)}, parse_card(turned)
    )


def names(mask: int) -> set[str]:
    return {card_name(c) for c in cards_of(mask)}


def test_preset_two_players_is_ffb_with_two_seats() -> None:
    """RULES.md "Two players": the preset is ffb with players=2."""
    assert TWO.players == 2
    assert PRESET_TWO.replace(players=4, preset="ffb") == PRESETS["ffb"]
    assert PRESET_TWO.deal_points == "fixed" == PRESETS["ffb"].deal_points
    assert seats_of(2) == SEATS_2 == (Seat.W, Seat.S)
    assert next_seat(Seat.W, 2) == Seat.S and next_seat(Seat.S, 2) == Seat.W
    assert previous_seat(Seat.W, 2) == Seat.S
    assert TWO.cards_per_deal == 32 and TWO.cards_dealt == 16


def test_two_players_refuse_coinche_and_other_seats() -> None:
    with pytest.raises(RulesError, match="four-player game"):
        Rules(players=2, bidding="coinche")
    with pytest.raises(RulesError, match="2, 3 or 4"):
        Rules(players=5)  # type: ignore[arg-type]
    with pytest.raises(DealError, match="not at a 2-player table"):
        State(TWO, Seat.N)


def test_dealing_gives_five_then_eight_cards_and_sets_sixteen_aside() -> None:
    """3 + 2 cards each, the next card turned; the taker gets it and 2 more,
    the other 3 more; 16 cards stay in the stock, in no hand."""
    pack = list(cards_of(DECK_32))  # 7C 8C 9C ... : card order
    state = State.from_deck(TWO, Seat.W, pack, "3-2")
    # S (after the dealer W) gets cards 0-2 and 6-7, W cards 3-5 and 8-9.
    assert state.hands[Seat.S] == 0b11000111
    assert state.hands[Seat.W] == 0b1100111000
    assert state.hands[Seat.N] == state.hands[Seat.E] == 0
    assert state.turned == 10
    assert state.current == Seat.S
    state.apply(parse_bid("pass"))
    state.apply(parse_bid("take"))  # W takes
    assert state.hands[Seat.W].bit_count() == 8 and state.hands[Seat.S].bit_count() == 8
    assert state.hands[Seat.W] >> 10 & 1  # the turned card
    held = state.hands[Seat.W] | state.hands[Seat.S]
    assert held.bit_count() == 16
    # The deal went on in pack order: W 11-12, S 13-15; cards 16-31 aside.
    assert held == (1 << 16) - 1


def test_must_trump_then_any_trump_under_the_jack() -> None:
    """Classic obligations with no partner: the opponent always holds the
    trick, so a player without the suit led must trump (seed 001; exoty.com
    "il y a obligation de couper"), and under the trump jack any trump."""
    state = two_hands("JH 9H AH 10H AS 10S KS QS", "7H 8H KH AC 10C KC QC JC", "JH", dealer=Seat.S)
    # The dealer is S: W speaks first and takes hearts, then leads.
    state.apply(parse_bid("take"))
    assert state.contract is not None and state.contract.taker == Seat.W
    assert state.current == Seat.W
    state.apply(Play(parse_card("AS")))
    assert names(state.legal_play_mask()) == {"7H", "8H", "KH"}
    state.apply(Play(parse_card("8H")))  # S trumps and wins
    assert state.tricks[-1].winner == Seat.S
    state.apply(Play(parse_card("AC")))
    # W has no club: must trump; the AC holds the trick, any trump beats it.
    assert names(state.legal_play_mask()) == {"JH", "9H", "AH", "10H"}


def test_capot_of_the_taker_scores_the_cards_played_plus_100_and_belote() -> None:
    """W holds every heart (trump), S every spade: W takes all 8 tricks.
    Card points 62 (trumps) + 30 (spades A 10 K Q J) = 92; capot: the cards
    played + 100 (RULES.md "Two players", ``deal_points`` ``played``: seed
    000's "100 au lieu du dix de der" on the 16 cards in play) = 192, +
    belote 20; S scores 0.  (The four-player 252 would give W 160 points
    that were never in play.)"""
    state = two_hands("JH 9H AH 10H KH QH 8H 7H", "AS 10S KS QS JS 9S 8S 7S", "JH", dealer=Seat.S)
    state.apply(parse_bid("take"))  # W speaks first (the dealer is S)
    while not state.is_terminal:
        mask = state.legal_play_mask()
        state.apply(Play(min(cards_of(mask))))
    result = state.result
    assert result is not None
    assert result.card_points == (92, 0)
    assert result.result == "capot"
    assert result.score == (212, 0)
    assert result.solo_capot is False  # no partner: a plain capot ("Capot")
    fixed = two_hands(
        "JH 9H AH 10H KH QH 8H 7H",
        "AS 10S KS QS JS 9S 8S 7S",
        "JH",
        PLAIN.replace(deal_points="fixed"),
        Seat.S,
    )
    fixed.apply(parse_bid("take"))
    while not fixed.is_terminal:
        fixed.apply(Play(min(cards_of(fixed.legal_play_mask()))))
    assert fixed.result is not None and fixed.result.score == (272, 0)


def test_belote_makes_the_taker_s_contract() -> None:
    """S takes hearts with 7H 8H KH QH against W's four top trumps; each
    plays its highest-numbered legal card.  Tricks: AC AH (W 22), JH KH (W
    24), 10H QH (W 13), 9H 8H (W 14), AS 7H (S 11, S must trump), KC KS (S
    8), QC QS (S 6), 10C 10S (S 20 + dix de der).  W 73; S 45 + 10 + belote
    20 = 75 > 73: made (ffb: the takers must score more), the 16 played cards
    total 118 + 10."""
    state = two_hands("JH 9H AH 10H AS 10S KS QS", "7H 8H KH QH AC 10C KC QC", "QH", dealer=Seat.W)
    assert state.current == Seat.S
    state.apply(parse_bid("take"))
    while not state.is_terminal:
        state.apply(Play(max(cards_of(state.legal_play_mask()))))
    assert [(t.winner.letter, t.points) for t in state.tricks] == [
        ("W", 22),
        ("W", 24),
        ("W", 13),
        ("W", 14),
        ("S", 11),
        ("S", 8),
        ("S", 6),
        ("S", 20),
    ]
    result = state.result
    assert result is not None
    assert result.card_points == (73, 45)
    assert result.belote_points == (0, 20)
    assert result.result == "made"
    assert result.score == (73, 75)


def test_taker_made_capot_the_opponent_scores_the_cards_played_plus_100() -> None:
    """The same deal with S's QH swapped for the 9C (KH turned): S holds
    three trumps; W trumps S's AC lead with the AH, draws the trumps with
    JH 10H 9H and takes all 8 tricks: card
    points 115 (118 - QH 3) to W; the failed takers are capot, W scores
    115 + 100 = 215 (``deal_points`` ``played``: ffb's capot_against_takers
    252 less the 152 card points of a whole pack, plus the cards played)."""
    state = two_hands("JH 9H AH 10H AS 10S KS QS", "7H 8H KH 9C AC 10C KC QC", "KH", dealer=Seat.W)
    state.apply(parse_bid("take"))
    while not state.is_terminal:
        state.apply(Play(max(cards_of(state.legal_play_mask()))))
    result = state.result
    assert result is not None
    assert [t.winner for t in state.tricks] == [Seat.W] * 8
    assert result.card_points == (115, 0)
    assert result.result == "dedans"
    assert result.capot == 0
    assert result.score == (215, 0)


def test_failed_taker_s_opponent_scores_the_points_in_play() -> None:
    """Random deal 7 (two-players): W takes hearts and makes 38 card points;
    S 44 + the dix de der 10, its tierce-AH 20 and its belote 20: W fails.
    S scores the points in play, 38 + 44 + 10 = 92, + 20 + 20 = 132 (the
    four-player game's fixed 162 would give 202)."""
    state = random_deal(TWO, random.Random(7))
    result = state.result
    assert result is not None and state.contract is not None
    assert state.contract.text == "H by W"
    assert (result.card_points, result.dix_de_der) == ((38, 44), 1)
    assert [[d.text for d in side] for side in result.declarations] == [[], ["tierce-AH"]]
    assert result.belote_points == (0, 20)
    assert (result.result, result.capot, result.score) == ("dedans", None, (0, 132))


def test_rollouts_refuse_the_two_player_game() -> None:
    """rollout.py compiles the four- and three-player games only; the
    two-player game is played by the engine."""
    assert not rollout.supports(TWO)
    assert rollout.supports(preset("three-players")) and rollout.supports(preset("ffb"))
    if rollout.AVAILABLE:
        with pytest.raises(rollout.RolloutError, match="two-player"):
            rollout.rule_params(TWO)


def test_random_match_reaches_the_target() -> None:
    match, _states = random_match(TWO, random.Random(5))
    assert match.is_over
    assert max(match.totals) >= 1000
    assert len(match.totals) == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_each_card_once_points_total_and_record_round_trip(seed: int) -> None:
    state = random_deal(TWO, random.Random(seed))
    result = state.result
    assert result is not None
    if result.result in ("passed", "cancelled"):
        return
    assert len(state.tricks) == 8
    played = [c for t in state.tricks for c in t.cards]
    assert len(played) == 16 == len(set(played))
    assert sum(result.card_points) == sum(t.points for t in state.tricks)
    record = state_to_record(state)
    again = replay_deal(record)
    assert again.state.result == result
    assert state_to_record(again.state) == record


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_seat_never_sees_the_other_hand_or_the_stock(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(TWO, rng.choice(SEATS_2))
    state = match.deal(rng=rng)
    pack = list(state.pack)
    while not state.is_terminal:
        for seat in SEATS_2:
            view = observe(state, seat)
            other = state.hands[next_seat(seat, 2)]
            assert view.hand == state.hands[seat]
            assert view.hand & other == 0
            shown = set(view.to_json()["hand"])
            assert shown.isdisjoint(names(other))
            # The turned card was shown to both; the rest of the other hand
            # and the 16 stock cards never are.
            turned = 0 if state.turned is None else 1 << state.turned
            seen = view.played | view.hand | turned
            assert seen & other & ~turned == 0
            stock = DECK_32 & ~(state.hands[Seat.W] | state.hands[Seat.S] | state.played | turned)
            assert seen & stock == 0
            assert names(stock).isdisjoint(str(view.to_json()).replace("'", " ").split())
        state.apply(rng.choice(state.legal_actions()))
    assert sorted(pack) == sorted(cards_of(DECK_32))


def test_match_record_replays_with_two_sides() -> None:
    match, states = random_match(TWO, random.Random(3), max_deals=3)
    record = {
        "rules": TWO.to_record(),
        "deals": [state_to_record(s) for s in states],
    }
    summary = replay(record)
    assert set(summary["totals"]) == {"W", "S"}
    assert [summary["totals"]["W"], summary["totals"]["S"]] == match.totals


def test_expert_samples_the_opponent_hand_and_leaves_the_stock_aside() -> None:
    """The expert's worlds (bots/sampling.py) deal the unseen cards between
    the opponent's hand and the 16-card stock: the opponent gets exactly its
    hand size, N and E nothing, and every world's opponent hand is unseen
    by the seat.  The expert solves each world double-dummy (two hands) and
    plays a legal card."""
    from rebelote.bots.base import Budget
    from rebelote.bots.registry import make_bot
    from rebelote.bots.sampling import sample_worlds

    state = two_hands("JH 9H AH 10H AS 10S KS QS", "7H 8H KH QH AC 10C KC QC", "QH", dealer=Seat.W)
    state.apply(parse_bid("take"))
    state.apply(Play(parse_card("AC")))  # S leads; W to play
    view = observe(state, Seat.W)
    worlds = sample_worlds(view, 20, 7)
    assert len(worlds) == 20
    unseen = DECK_32 & ~view.hand & ~view.played
    for world in worlds:
        assert world.hands[Seat.W] == view.hand
        assert world.hands[Seat.S].bit_count() == 7
        assert world.hands[Seat.S] & ~unseen == 0
        assert world.hands[Seat.N] == world.hands[Seat.E] == 0
    assert len({w.hands[Seat.S] for w in worlds}) > 1  # really sampled
    expert = make_bot("expert")
    action = expert.act(view, view.legal, seed=1, budget=Budget(worlds=8))
    assert action in view.legal
    values, solved = expert.card_values(  # type: ignore[attr-defined]
        view, state.legal_play_mask(), seed=1, budget=Budget(worlds=8)
    )
    assert 1 <= solved <= 8  # a world past the node cap is skipped
    # W must trump the AC: JH 9H AH 10H, each valued over the 8 worlds.
    assert {card_name(c) for c in values} == {"JH", "9H", "AH", "10H"}


def test_a_match_s_default_dealer_sits_at_the_table() -> None:
    """``Match(rules)`` with no dealer: N at four, W at three and two (those
    tables have no N; REVIEW15b saw ``Match(preset('three-players'))``
    raise); a seat not at the table is refused."""
    assert Match(preset("ffb")).dealer is Seat.N
    assert Match(preset("three-players")).dealer is Seat.W
    assert Match(preset("two-players")).dealer is Seat.W
    with pytest.raises(ValueError, match="seat E is not at this table"):
        Match(preset("two-players"), Seat.E)
