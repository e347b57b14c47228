"""Random-simulation invariants over every preset (hypothesis picks the seeds).

- Card points plus dix de der make 162 in every deal played out (RULES.md,
  common ground: "Card points total 152; the last trick adds 10").
- Each card is played once; every card of the pack is played.
- The legal set is never empty before the end.
- Records round-trip: a deal written by ``state_to_record`` replays to the
  same summary.
- The points of a classic deal are conserved: what the sides score plus what
  is held over equals the deal's value (162, or the capot value) plus the
  declarations and belote that counted, times the strain multiplier.
- Observations hide the other hands: moving hidden cards between two other
  seats leaves a seat's view unchanged.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.cards import DECK_24, DECK_32, CardParseError, parse_card
from rebelote.observation import observe
from rebelote.record import deal_summary, replay, state_to_record
from rebelote.rules import PRESETS, preset
from rebelote.seats import Seat
from rebelote.simulate import random_deal
from rebelote.state import Phase, State
from rebelote.trump import Strain

PRESET_NAMES = sorted(PRESETS)


def rules_players(name: str) -> int:
    """Players at the table under a preset."""
    return preset(name).players


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_random_deal_invariants_every_preset(name: str, seed: int) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    state = random_deal(rules, rng)
    result = state.result
    assert result is not None and state.phase == Phase.DONE
    if result.result in ("passed", "cancelled"):
        assert result.score == (0,) * len(state.side_names)
        return
    assert len(state.tricks) == 8
    played = [c for t in state.tricks for c in t.cards]
    assert len(played) == len(set(played)) == rules.cards_dealt
    if rules.players == 2:
        # RULES.md "Two players": 16 cards played, 16 set aside.
        assert sum(1 << c for c in played) & ~DECK_32 == 0
        assert sum(result.card_points) == sum(t.points for t in state.tricks)
    else:
        assert sum(1 << c for c in played) == (DECK_24 if rules.players == 3 else DECK_32)
        assert sum(result.card_points) + 10 == 162
    assert all(h == 0 for h in state.hands)


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_legal_set_never_empty_before_the_end(name: str, seed: int) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    dealer = Seat.N if rules.players == 4 else Seat.W
    pack = list(range(32)) if rules.players != 3 else [c for c in range(32) if c & 7 >= 2]
    rng.shuffle(pack)
    state = State.new(rules, dealer, pack)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, state.phase
        if state.phase == Phase.PLAYING and state.legal_play_mask():
            hand = state.hands[state.current] if state.current is not None else 0
            assert state.legal_play_mask() & ~hand == 0
        state.apply(rng.choice(legal))


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_records_round_trip(name: str, seed: int) -> None:
    state = random_deal(preset(name), random.Random(seed))
    record = state_to_record(state)
    assert replay(record) == deal_summary(state)
    # Cut short: the replay stops where the record stops (format 2: after
    # its 13th card; format 1: its first 13 cards).
    cards = [i for i, a in enumerate(record["actions"]) if _is_card(a["action"])]
    short = dict(record, actions=record["actions"][: cards[12] + 1] if cards else [])
    old = state_to_record(state, format=1)
    for summary in (replay(short), replay(dict(old, play=old["play"][:13]))):
        if state.contract is not None and state.result is not None and state.tricks:
            assert summary["complete"] is False
            assert len(summary["tricks"]) == 13 // rules_players(name)


def _swap_with_the_stock(state: State, seat: Seat, other: Seat) -> None:
    """Two players (RULES.md "Two players"): a card of the opponent's hand
    swapped with a card of the 16-card stock changes nothing ``seat`` sees."""
    turned = 0 if state.turned is None else 1 << state.turned
    held = state.hands[seat] | state.hands[other] | state.played | turned
    stock = DECK_32 & ~held
    for card in state.trick_cards:
        stock &= ~(1 << card)
    hand = state.hands[other] & ~turned
    if not hand or not stock or state.found or state.phase == Phase.DECLARING:
        return
    card_a, card_b = hand & -hand, stock & -stock
    swapped = state.copy()
    swapped.hands = list(state.hands)
    swapped.hands[other] = (state.hands[other] & ~card_a) | card_b
    assert observe(state, seat) == observe(swapped, seat)


def _is_card(text: str) -> bool:
    """Whether an action's text is a card (``JS``, ``QH belote``)."""
    try:
        parse_card(text.split()[0])
    except CardParseError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(["ffb", "seed003", "seed000-tout-atout", "ffb-no-declarations"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_points_are_conserved_in_classic_deals(name: str, seed: int) -> None:
    rules = preset(name)
    state = random_deal(rules, random.Random(seed))
    result = state.result
    assert result is not None
    if result.contract is None or result.result == "cancelled":
        return
    strain = result.contract.strain
    mult = {Strain.SA: rules.sa_multiplier, Strain.TA: rules.ta_multiplier}.get(strain, 1)
    base = rules.capot_points if result.capot is not None else 162
    declared = sum(d.points for side in result.declarations for d in side)
    expected = (base + declared + sum(result.belote_points)) * mult
    assert sum(result.score) + result.held_over == expected


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 40))
def test_observe_hides_other_hands(name: str, seed: int, stop: int) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    state = random_deal(rules, rng, None) if stop > 38 else None
    if state is None:
        dealer = Seat.N if rules.players == 4 else Seat.W
        pack = list(range(32)) if rules.players != 3 else [c for c in range(32) if c & 7 >= 2]
        rng.shuffle(pack)
        state = State.from_deck(rules, dealer, pack, rules.patterns[0])
        for _ in range(stop):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    for seat in state.seats:
        others = [s for s in state.seats if s != seat]
        if len(others) == 1:
            _swap_with_the_stock(state, seat, others[0])
            continue
        a, b = others[0], others[1]
        if not state.hands[a] or not state.hands[b]:
            continue
        if state.phase in (Phase.DECLARING,) or state.found:
            continue  # declarations tie hidden cards to the public record
        turned = 0 if state.turned is None else 1 << state.turned
        hand_a, hand_b = state.hands[a] & ~turned, state.hands[b] & ~turned
        if not hand_a or not hand_b:
            continue
        swapped = state.copy()
        card_a = hand_a & -hand_a
        card_b = hand_b & -hand_b
        swapped.hands = list(state.hands)
        swapped.hands[a] = (state.hands[a] & ~card_a) | card_b
        swapped.hands[b] = (state.hands[b] & ~card_b) | card_a
        assert observe(state, seat) == observe(swapped, seat)
        assert observe(state, seat).hand == state.hands[seat]
