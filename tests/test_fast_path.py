"""The engine's fast path against the checked paths and a plain reference
(issue 15, item 5): 300 seeded random deals over every preset, half of
them with random rule options, each played three times from the same pack.

- The fast path is how simulations play, :func:`rebelote.simulate.play_randomly`
  (``State._play_out``: the legal cards from the play table, the action
  drawn from them applied without a second check, no events).
- The quiet path is the checked API without events:
  ``rng.choice(state.legal_actions())`` then ``state.apply(action,
  events=False)``.
- The plain path is the checked, listening API: each action's text read
  by :meth:`State.parse_action`, applied by :meth:`State.apply` with the
  seat and its events.
- Each path draws its actions with its own ``random.Random`` of the same
  seed, so the three play the same actions exactly when they list the
  same legal actions in the same order at every step.
- At every step the plain path's legal actions are the reference's
  (``tests/reference.py``): the cards by :func:`reference.legal_plays`
  (each card of the hand asked with :meth:`State.is_legal`,
  :meth:`State.why_illegal` and ``in state.legal`` too, and the mask by
  the rules' own :func:`rebelote.tricks.legal_play_mask`), the bids by
  :func:`reference.legal_bids`.
- The declarations each hand holds are the reference's; every trick's
  winner and points are the reference's; the three paths end with the
  same bids, tricks, hands, declarations, belotes and
  :class:`DealResult`, whose card points are the reference's.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

import reference as ref
from rebelote.actions import Action, Declare, Play
from rebelote.cards import DECK_24, DECK_32, cards_of
from rebelote.declarations import find_declarations
from rebelote.rules import PRESETS, Rules, RulesError
from rebelote.seats import SEATS_3, SEATS_4
from rebelote.simulate import play_randomly
from rebelote.state import Phase, State
from rebelote.tricks import legal_play_mask
from rebelote.trump import Strain, strain_tables

PRESET_NAMES = sorted(PRESETS)
DEALS = 300

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "cut_optional": (False, True),
    "patterns": (("3-2", "2-3"), ("3-2",), ("2-3",), ("3-2", "3-3-2", "2-3")),
    "bidding": ("classic", "tout_atout", "coinche"),
    "round_two_turned_suit": (False, True),
    "first_lead": ("dealer_right", "dealer"),
    "partner_winning_exemption": (False, True),
    "must_undertrump": (False, True),
    "overtrump_partner_on_trump_lead": (False, True),
    "declarations": ("off", "choice", "automatic"),
    "declaration_turn": (False, True),
    "declaration_tie": ("none", "first"),
    "belote_must_be_said": (False, True),
    "belote_requires_trick": (False, True),
    "belote_on_dedans": ("holders", "defenders"),
    "tie": ("litige", "takers_fail"),
    "capot_points": (252, 100),
    "solo_capot_points": (None, 350),
    "carre_of_seven_cancels": (False, True),
    "coinche_tout_atout": (False, True),
    "coinche_made_score": ("contract_and_points", "contract"),
    "lower_trump_under_partner": ("allowed", "all_trumps_only"),
    "after_coinche": ("coinched_side", "three_passes"),
    "coinche_capot_points": (250, 252),
    "coinche_multiplies": ("contract", "deal"),
    "capot_takes_declarations": (False, True),
    "ta_sa_points_to_162": (False, True),
    "rounding": ("none", "nearest_ten", "house"),
}
"""Each option a random rule set may change, with values to draw from."""


def deal_rules(index: int, rng: random.Random) -> Rules:
    """Deal ``index``'s rules: the presets in turn, every other deal with
    each option redrawn with probability one half (an impossible mix, such
    as a three-player coinche, keeps the preset's value)."""
    rules = PRESETS[PRESET_NAMES[index % len(PRESET_NAMES)]]
    if index % 2 == 0:
        return rules
    for option, values in OPTION_VALUES.items():
        if rng.random() < 0.5:
            with contextlib.suppress(RulesError):
                rules = rules.replace(**{option: rng.choice(values)})
    return rules


def check_legal(state: State, legal: list[Action]) -> None:
    """``legal`` (the fast path's list) against the reference, and each
    card of the hand against ``is_legal``, ``why_illegal`` and
    :func:`rebelote.tricks.legal_play_mask`."""
    seat = state.current
    assert seat is not None
    if state.phase is Phase.BIDDING:
        assert state.auction is not None
        turned = None if state.turned is None else state.turned >> 3
        assert set(legal) == ref.legal_bids(state.rules, turned, state.auction.bids, seat)
        assert len(legal) == len(set(legal))
        return
    if state.phase is not Phase.PLAYING or isinstance(legal[0], Declare):
        return
    assert state.contract is not None
    strain = state.contract.strain
    hand = list(cards_of(state.hands[seat]))
    trick, trick_seats = state.trick_cards, state.trick_seats
    expected = ref.legal_plays(hand, trick, trick_seats, seat, strain, state.rules)
    assert set(legal) == expected
    assert len(legal) == len(expected)
    cards = ref.legal_cards(hand, trick, trick_seats, seat, strain, state.rules)
    assert state.legal_play_mask() == sum(1 << c for c in cards)
    if trick:
        winning = ref.trick_winner(trick, strain)
        partner = state.players == 4 and trick_seats[winning] == (seat + 2) % 4
        tables = strain_tables(strain, state.rules.ta_points, state.rules.sa_points)
        rules_mask = legal_play_mask(
            state.hands[seat], trick[0], trick[winning], partner, tables, state.rules
        )
        assert rules_mask == state.legal_play_mask()
    for card in hand:
        play = Play(card)
        legal_play = play in expected
        assert state.is_legal(play) is legal_play
        assert play in state.legal if legal_play else play not in state.legal
        why = state.why_illegal(play)
        assert (why is None) is legal_play
        if card not in cards:
            assert why is not None and why.code not in ("belote_choice_needed",)


def check_declarations(state: State) -> None:
    """The declarations found in each hand once the deal is complete."""
    assert state.contract is not None
    for seat in state.seats:
        hand = list(cards_of(state.hands[seat]))
        expected = [
            (d.kind, sum(1 << c for c in d.cards), d.top, d.points)
            for d in ref.declarations(hand, state.contract.strain)
        ]
        found = find_declarations(state.hands[seat], state.contract.strain)
        assert [(d.kind, d.cards, d.top, d.points) for d in found] == expected
        if state.rules.declarations != "off":
            assert state.found.get(seat, ()) == found


def check_tricks(state: State) -> None:
    """Each trick's winner and points, and the card points of the result."""
    assert state.contract is not None and state.result is not None
    strain = state.contract.strain
    sides = [0] * len(state.side_names)
    for trick in state.tricks:
        assert trick.winner == trick.seats[ref.trick_winner(trick.cards, strain)]
        points = sum(ref.card_points(c, strain, state.rules) for c in trick.cards)
        assert trick.points == points
        sides[state.side_of[trick.winner]] += points
    assert state.result.card_points == tuple(sides)
    pack = DECK_24 if state.players == 3 else DECK_32
    # 152 with a trump suit and the usual tables; ffb-coinche's Sans Atout
    # table (FFB coinche 2015, 11.2: "Valet 0 points") makes 144.
    assert sum(sides) == sum(ref.card_points(c, strain, state.rules) for c in cards_of(pack))
    if strain < Strain.SA:
        assert sum(sides) == 152


def deal_states(index: int) -> tuple[list[State], int]:
    """Three copies of deal ``index``'s start (from the cut, or from the
    cut pack with the first distribution made), and the seed of its
    actions."""
    rng = random.Random(15_000 + index)
    rules = deal_rules(index, rng)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    dealer = rng.choice(seats)
    if index % 3 == 0:  # from the cut, the pattern chosen by the dealer
        states = [State.new(rules, dealer, pack) for _ in range(3)]
    else:
        pattern = rng.choice(rules.patterns)
        states = [State.from_deck(rules, dealer, pack, pattern) for _ in range(3)]
    return states, rng.randrange(2**32)


def play_paths(index: int) -> tuple[State, State, State, int]:
    """Deal ``index`` through the three paths, each drawing its actions with
    ``random.Random(seed).choice`` from the legal ones: the fast path
    (:func:`play_randomly`), the quiet checked path (``legal_actions``,
    ``apply(events=False)``) and the plain path (``parse_action`` of each
    action's text, ``apply`` with the seat and its events), checked
    against the reference at every step.  Returns the three finished
    states and the number of actions."""
    (fast, quiet, plain), seed = deal_states(index)
    play_randomly(fast, random.Random(seed))
    quiet_rng, plain_rng = random.Random(seed), random.Random(seed)
    actions = 0
    declarations_checked = False
    while not quiet.is_terminal:
        legal = quiet.legal_actions()
        assert legal
        action = quiet_rng.choice(legal)
        assert quiet.apply(action, events=False) == []
        plain_legal = plain.legal_actions()
        assert plain_legal == legal
        check_legal(plain, plain_legal)
        chosen = plain_rng.choice(plain_legal)
        assert chosen == action
        seat = plain.current
        assert seat is not None
        parsed = plain.parse_action(chosen.text)
        assert parsed == chosen
        assert plain.apply(parsed, seat)
        actions += 1
        complete = plain.phase in (Phase.DECLARING, Phase.PLAYING)
        if complete and not declarations_checked and not plain.tricks and not plain.trick_cards:
            check_declarations(plain)
            declarations_checked = True
    assert plain.is_terminal and fast.is_terminal
    return fast, quiet, plain, actions


def same_deal(a: State, b: State) -> None:
    """Two finished states played the same actions to the same result."""
    assert a.result == b.result
    assert a.result is not None
    assert a.pack == b.pack and a.deck == b.deck and a.pattern == b.pattern
    assert a.auction is not None and b.auction is not None
    assert a.auction.bids == b.auction.bids
    assert a.contract == b.contract
    assert a.tricks == b.tricks
    assert a.hands == b.hands and a.played == b.played
    assert a.found == b.found
    assert a.declared == b.declared and a.declined == b.declined
    assert a.belotes == b.belotes and a.belote_said == b.belote_said


@pytest.mark.parametrize("block", range(10))
def test_fast_quiet_and_plain_paths_agree_with_the_reference(block: int) -> None:
    for index in range(block, DEALS, 10):
        fast, quiet, plain, actions = play_paths(index)
        assert actions >= fast.players  # at least the bids
        same_deal(fast, plain)
        same_deal(quiet, plain)
        assert plain.result is not None
        if plain.result.result not in ("passed", "cancelled"):
            check_tricks(plain)


def test_the_deals_cover_every_preset_and_the_options() -> None:
    rng_rules = [deal_rules(i, random.Random(15_000 + i)) for i in range(DEALS)]
    assert {r.preset for r in rng_rules} == set(PRESETS)
    for option, values in OPTION_VALUES.items():
        seen = {getattr(r, option) for r in rng_rules}
        assert seen == set(values), option


def test_declarations_of_random_and_crafted_hands_are_the_references() -> None:
    rng = random.Random(7)
    hands: list[int] = []
    for _ in range(20_000):
        hands.append(sum(1 << c for c in rng.sample(range(32), 8)))
    for rank_a in range(8):  # carrés with and without runs through them
        for rank_b in range(8):
            carre = sum(1 << (rank_a + 8 * s) for s in range(4))
            run = sum(1 << c for c in range(rank_b, min(rank_b + 4, 8)))
            hands.append(carre | run)
    hands.append(DECK_32 & 0x00FF00FF)  # two suits of 8: two quintes
    for hand in hands:
        for strain in Strain:
            expected = [
                (d.kind, sum(1 << c for c in d.cards), d.top, d.points)
                for d in ref.declarations(list(cards_of(hand)), strain)
            ]
            found = find_declarations(hand, strain)
            assert [(d.kind, d.cards, d.top, d.points) for d in found] == expected
