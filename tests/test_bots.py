"""Bots: legality over every preset, no peeking, determinism, and the
heuristic's choices in hand-made positions (issue #3).

- Every level plays seeded deals of every preset without an illegal action
  or an exception: a thousand deals a preset, levels in turn, and mixed
  tables.
- No peeking: the cards a seat cannot see are re-dealt in several ways
  consistent with its view (its own hand, the cards played, the voids the
  play revealed, the turned card with the taker, declared cards); the view
  and the bot's action with the same seed must not change.
- Determinism: the same bots, pack and seed replay the same deal, action
  for action, and a bot built afresh in the middle of a deal plays as the
  original.
"""

from __future__ import annotations

import random

import pytest

from deals import classic_pack
from rebelote.actions import Action, Bid, Declare, Play
from rebelote.bots import BOT_LEVELS, Bot, Budget, UnknownBotError, decision_seed, make_bot
from rebelote.bots.heuristic import HeuristicBot, strain_tricks
from rebelote.bots.knowledge import infer
from rebelote.cards import DECK_24, DECK_32, SUIT_MASKS, CardSet, cards_of, parse_card
from rebelote.observation import PlayerView, observe
from rebelote.rules import PRESETS, preset
from rebelote.seats import Seat, seats_of
from rebelote.state import IllegalActionError, State
from rebelote.trump import Strain

BUDGET = Budget()
TINY = Budget(worlds=2, nodes=20_000)
"""The expert's budget in these tests: two worlds, few nodes (fast, deterministic)."""
HEURISTIC_LEVELS = ("random", "beginner", "intermediate")


def _pack(players: int, rng: random.Random) -> list[int]:
    pack = list(cards_of(DECK_24 if players == 3 else DECK_32))
    rng.shuffle(pack)
    return pack


def play_seeded(
    rules_name: str, bots: dict[Seat, Bot], seed: int, budget: Budget = BUDGET
) -> tuple[State, list[tuple[Seat, Action]], list[int], Seat, str]:
    """A whole deal from a pack, dealer and pattern drawn from ``seed``, the
    seats played by ``bots``; returns the finished state, the actions, the
    pack, the dealer and the pattern."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    seats = seats_of(rules.players)
    pack = _pack(rules.players, rng)
    dealer = seats[rng.randrange(len(seats))]
    pattern = rules.patterns[rng.randrange(len(rules.patterns))]
    state = State.from_deck(rules, dealer, pack, pattern)
    actions: list[tuple[Seat, Action]] = []
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        legal = state.legal_actions()
        view = observe(state, seat)
        action = bots[seat].act(
            view, legal, seed=decision_seed(seed, seat, len(actions)), budget=budget
        )
        assert action in legal, (rules_name, seat, action, legal)
        state.apply(action, seat)
        actions.append((seat, action))
    return state, actions, pack, dealer, pattern


def _all(level: str, rules_name: str) -> dict[Seat, Bot]:
    seats = seats_of(preset(rules_name).players)
    return {s: make_bot(level) for s in seats}


# ----------------------------------------------------------------- registry


def test_registry_levels_and_unknown() -> None:
    assert BOT_LEVELS == ("random", "beginner", "intermediate", "expert", "expert-bidder")
    for level in BOT_LEVELS:
        bot = make_bot(level)
        assert bot.level == level
        assert isinstance(bot, Bot)
    with pytest.raises(UnknownBotError, match="unknown bot level"):
        make_bot("grandmaster")


def test_decision_seed_is_stable_and_spread() -> None:
    assert decision_seed(1, 2, 3) == decision_seed(1, 2, 3)
    seeds = {decision_seed(s, seat, i) for s in range(5) for seat in range(4) for i in range(40)}
    assert len(seeds) == 5 * 4 * 40
    assert all(0 <= x < 2**63 for x in seeds)


# ---------------------------------------------------------------- legality

PRESET_NAMES = sorted(PRESETS)


@pytest.mark.parametrize("level", HEURISTIC_LEVELS)
@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_every_level_plays_every_preset_legally(level: str, rules_name: str) -> None:
    for seed in range(12):
        state, actions, *_ = play_seeded(rules_name, _all(level, rules_name), 1000 + seed)
        assert state.result is not None
        assert actions


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_mixed_tables_play_legally(rules_name: str) -> None:
    seats = seats_of(preset(rules_name).players)
    for seed in range(8):
        levels = [BOT_LEVELS[(seed + i) % 3] for i in range(len(seats))]
        bots = {s: make_bot(lv) for s, lv in zip(seats, levels, strict=True)}
        state, *_ = play_seeded(rules_name, bots, 5000 + seed)
        assert state.result is not None


@pytest.mark.parametrize("rules_name", PRESET_NAMES)
def test_thousands_of_deals_every_preset(rules_name: str) -> None:
    # 1000 deals a preset (9000 in all), the levels in turn: about 1 s each.
    for seed in range(1000):
        level = BOT_LEVELS[seed % 3]
        state, *_ = play_seeded(rules_name, _all(level, rules_name), 90_000 + seed)
        assert state.result is not None


# --------------------------------------------------------------- no peeking


def _owners(
    rules_name: str, pack: list[int], dealer: Seat, pattern: str, actions: list[tuple[Seat, Action]]
) -> dict[int, Seat]:
    """Which seat each card of the pack was dealt to (undealt cards absent)."""
    state = State.from_deck(preset(rules_name), dealer, pack, pattern)
    owner: dict[int, Seat] = {}
    for seat in state.seats:
        for c in cards_of(state.hands[seat]):
            owner[c] = seat
    for seat, action in actions:
        state.apply(action, seat)
        for s in state.seats:
            for c in cards_of(state.hands[s]):
                owner.setdefault(c, s)
    for trick in state.tricks:
        for s, c in zip(trick.seats, trick.cards, strict=True):
            owner.setdefault(c, s)
    return owner


def _redeal(
    rules_name: str,
    pack: list[int],
    dealer: Seat,
    pattern: str,
    actions: list[tuple[Seat, Action]],
    upto: int,
    view: PlayerView,
    rng: random.Random,
) -> State | None:
    """Re-deal the cards ``view.seat`` cannot see, consistently with its view,
    and replay the first ``upto`` actions; ``None`` if that history is not
    legal with the new cards (the caller draws again)."""
    rules = preset(rules_name)
    owner = _owners(rules_name, pack, dealer, pattern, actions)
    k = infer(view)
    visible = view.hand | view.played
    if view.turned is not None:
        visible |= 1 << view.turned
    for _, decls in view.declarations:
        for d in decls:
            visible |= d.cards
    for s in range(4):
        visible |= k.known[s]
    hidden = [p for p, c in enumerate(pack) if not visible >> c & 1]
    cards = [pack[p] for p in hidden]
    rng.shuffle(cards)
    # Cards to seats: respect what each seat is known not to hold.
    slots: dict[Seat | None, list[int]] = {}
    for p in hidden:
        slots.setdefault(owner.get(pack[p]), []).append(p)
    new_pack = list(pack)
    pool = cards[:]
    for who, positions in sorted(slots.items(), key=lambda kv: -1 if kv[0] is None else kv[0]):
        for p in positions:
            allowed = [c for c in pool if who is None or not k.excluded[who] >> c & 1]
            if who is not None and who == view.seat:
                allowed = pool
            if not allowed:
                return None
            c = rng.choice(allowed)
            pool.remove(c)
            new_pack[p] = c
    state = State.from_deck(rules, dealer, new_pack, pattern)
    try:
        for seat, action in actions[:upto]:
            state.apply(action, seat)
    except IllegalActionError:
        return None
    if state.current != view.seat:
        return None
    other = observe(state, view.seat)
    if (
        other.belotes != view.belotes
        or other.declarations != view.declarations
        or other.declared_kinds != view.declared_kinds
    ):
        return None  # the new cards do not give the same public history
    return state


@pytest.mark.parametrize("level", ["beginner", "intermediate", "random", "expert"])
@pytest.mark.parametrize("rules_name", ["ffb", "coinche", "seed003", "seed000-tout-atout"])
def test_no_peeking(level: str, rules_name: str) -> None:
    rng = random.Random(7)
    budget = TINY if level == "expert" else BUDGET
    checked = 0
    for seed in range(4):
        bots = _all(level, rules_name)
        _, actions, pack, dealer, pattern = play_seeded(rules_name, bots, 300 + seed, budget)
        for upto in range(0, len(actions), 3):
            # Replay to the decision and look from the seat to act.
            original = State.from_deck(preset(rules_name), dealer, pack, pattern)
            for seat, action in actions[:upto]:
                original.apply(action, seat)
            seat = actions[upto][0]
            view = observe(original, seat)
            legal = original.legal_actions()
            dseed = decision_seed(seed, seat, upto)
            expected = bots[seat].act(view, legal, seed=dseed, budget=budget)
            for _ in range(3):
                other = None
                for _attempt in range(30):
                    other = _redeal(rules_name, pack, dealer, pattern, actions, upto, view, rng)
                    if other is not None:
                        break
                if other is None:
                    continue
                other_view = observe(other, seat)
                assert other_view == view
                got = bots[seat].act(other_view, other.legal_actions(), seed=dseed, budget=budget)
                assert got == expected
                checked += 1
    assert checked > 40


# ------------------------------------------------------------- determinism


@pytest.mark.parametrize("rules_name", ["ffb", "coinche", "seed001", "three-players"])
def test_same_bots_pack_and_seed_replay_the_same_deal(rules_name: str) -> None:
    for seed in range(5):
        levels = ["intermediate", "beginner", "random", "intermediate"]
        seats = seats_of(preset(rules_name).players)
        first = play_seeded(
            rules_name, {s: make_bot(lv) for s, lv in zip(seats, levels, strict=False)}, seed
        )
        again = play_seeded(
            rules_name, {s: make_bot(lv) for s, lv in zip(seats, levels, strict=False)}, seed
        )
        assert first[1] == again[1]
        assert first[0].result == again[0].result


def test_a_fresh_bot_mid_deal_plays_as_the_original() -> None:
    bot = make_bot("intermediate")
    rules = preset("ffb")
    _, actions, pack, dealer, pattern = play_seeded("ffb", _all("intermediate", "ffb"), 42)
    replay = State.from_deck(rules, dealer, pack, pattern)
    for index, (seat, action) in enumerate(actions):
        view = observe(replay, seat)
        legal = replay.legal_actions()
        seed = decision_seed(42, seat, index)
        assert bot.act(view, legal, seed=seed, budget=BUDGET) == action
        assert make_bot("intermediate").act(view, legal, seed=seed, budget=BUDGET) == action
        replay.apply(action, seat)


# ------------------------------------------------------ hand-made positions


def _play(state: State, texts: str) -> None:
    for text in texts.split():
        state.apply(Play(parse_card(text)))


def _choose(state: State, level: str = "intermediate") -> Action:
    seat = state.current
    assert seat is not None
    return make_bot(level).act(observe(state, seat), state.legal_actions(), seed=1, budget=BUDGET)


def test_takes_with_jack_nine_ace_of_the_turned_suit() -> None:
    rules = preset("ffb-no-declarations")
    deck = classic_pack(
        Seat.E,
        {
            Seat.N: "JH 9H 7C 8D 7S",
            Seat.W: "8H AC 10C KC QC",
            Seat.S: "7D 9D 10D QD KD",
            Seat.E: "8S 9S 10S QS KS",
        },
        "AH",
    )
    state = State.from_deck(rules, Seat.E, deck, "3-2")
    assert state.current == Seat.N
    assert _choose(state) == Bid("take")
    assert _choose(state, "beginner") == Bid("take")


def test_passes_with_seven_eight_of_the_turned_suit_and_no_master() -> None:
    rules = preset("ffb-no-declarations")
    deck = classic_pack(
        Seat.E,
        {
            Seat.N: "7H 9C 8D 7S QC",
            Seat.W: "JH AC 10C KC JC",
            Seat.S: "7D 9D 10D QD KD",
            Seat.E: "8S 9S 10S QS KS",
        },
        "8H",
    )
    state = State.from_deck(rules, Seat.E, deck, "3-2")
    assert state.current == Seat.N
    assert _choose(state) == Bid("pass")
    assert _choose(state, "beginner") == Bid("pass")


def _hands_state(rules_name: str, dealer: Seat, hands: dict[Seat, str], turned: str) -> State:
    return State.from_hands(
        preset(rules_name),
        dealer,
        {s: [parse_card(c) for c in text.split()] for s, text in hands.items()},
        parse_card(turned),
    )


def test_taker_with_jack_and_nine_of_trump_leads_trump() -> None:
    state = _hands_state(
        "ffb-no-declarations",
        Seat.E,
        {
            Seat.N: "JH 9H 7H AS KS 8C 7D QD",
            Seat.W: "8H AC 10C KC QC 9S 8S 7S",
            Seat.S: "AH 9D 10D KD 10S QS JS 9C",
            Seat.E: "10H KH QH AD 8D JD JC 7C",
        },
        "7H",
    )
    state.apply(Bid("take"))  # N takes hearts
    assert state.contract is not None and state.current == Seat.N
    assert _choose(state) == Play(parse_card("JH"))


def test_does_not_overtrump_a_winning_partner_when_it_may_discard() -> None:
    # E leads, N (partner of S) wins with the ace; S has no spade but trumps.
    state = _hands_state(
        "ffb-no-declarations",
        Seat.S,
        {
            Seat.N: "AS KS AH 8C 7D QD 9C 10C",
            Seat.W: "8S JS 9S QC KC AC 8D 9D",
            Seat.S: "JH 9H 7H 10H 7C AD KD JC",
            Seat.E: "7S 10S QS 8H KH QH 10D JD",
        },
        "7H",
    )
    for _ in range(3):
        state.apply(Bid("pass"))
    state.apply(Bid("take"))  # S takes hearts; E leads
    assert state.current == Seat.E
    _play(state, "7S AS 8S")
    assert observe(state, Seat.S).current == Seat.S
    choice = _choose(state)
    assert isinstance(choice, Play)
    assert not SUIT_MASKS[1] >> choice.card & 1, CardSet([choice.card])


def test_charges_a_ten_on_a_partners_winning_trick() -> None:
    state = _hands_state(
        "ffb-no-declarations",
        Seat.S,
        {
            Seat.N: "AS KS AH 8C 7D QD 9C JC",
            Seat.W: "8S JS 9S QC KC AC 8D 9D",
            Seat.S: "JH 9H 7H 10H 7C 10D KD 10C",
            Seat.E: "7S 10S QS 8H KH QH AD JD",
        },
        "7H",
    )
    for _ in range(3):
        state.apply(Bid("pass"))
    state.apply(Bid("take"))
    _play(state, "7S AS 8S")
    choice = _choose(state)
    assert isinstance(choice, Play)
    # The tens of diamonds and clubs are not masters (their aces are out).
    assert choice.card in (parse_card("10D"), parse_card("10C"))


def test_declares_everything_it_holds() -> None:
    declared = 0
    for seed in range(40):
        _, actions, *_ = play_seeded("ffb", _all("intermediate", "ffb"), seed)
        for _seat, action in actions:
            if isinstance(action, Declare):
                assert action.declarations  # never less than all it holds
                declared += 1
    assert declared > 0


def test_knowledge_voids_from_a_failure_to_follow() -> None:
    state = _hands_state(
        "ffb-no-declarations",
        Seat.S,
        {
            Seat.N: "AS KS AH 8C 7D QD 9C JC",
            Seat.W: "8S JS 9S QC KC AC 8D 9D",
            Seat.S: "JH 9H 7H 10H 7C 10D KD 10C",
            Seat.E: "7S 10S QS 8H KH QH AD JD",
        },
        "7H",
    )
    for _ in range(3):
        state.apply(Bid("pass"))
    state.apply(Bid("take"))
    _play(state, "7S AS 8S 10D")
    k = infer(observe(state, Seat.E))
    assert k.void(Seat.S, 0)  # S did not follow spades
    beginner = infer(observe(state, Seat.E), counting=False, voids=False)
    assert not beginner.void(Seat.S, 0)
    # The turned card is known to be with the taker while he holds it.
    assert k.known[Seat.S] >> parse_card("7H") & 1


def test_strain_tricks_orders_hands() -> None:
    strong = CardSet.parse("JH 9H AH 10H AS AD 7C 8C").mask
    weak = CardSet.parse("7H 8H 9C 8D 7S QC KD 8S").mask
    assert strain_tricks(strong, Strain.H) > 5 > 1 > strain_tricks(weak, Strain.H)


def test_coinche_opens_a_strong_hand_and_passes_a_weak_one() -> None:
    rules = preset("coinche")
    bot = HeuristicBot.intermediate()
    strong = "JH 9H AH 10H AS AD 7C 8C"
    weak = "7H 8H 9C 8D 7S QC KD 8S"
    for hand_text, opens in ((strong, True), (weak, False)):
        hand = [parse_card(c) for c in hand_text.split()]
        rest = [c for c in range(32) if c not in hand]
        hands = {Seat.N: hand, Seat.W: rest[:8], Seat.S: rest[8:16], Seat.E: rest[16:24]}
        state = State.from_hands(rules, Seat.E, hands)
        view = observe(state, Seat.N)
        bid = bot.act(view, state.legal_actions(), seed=0, budget=BUDGET)
        assert isinstance(bid, Bid)
        if opens:
            assert bid.kind == "contract" and bid.strain == Strain.H
            assert bid.value is not None and bid.value >= 100
        else:
            assert bid.kind == "pass"
