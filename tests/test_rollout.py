"""The compiled rollouts (issue 15) against the engine: seeded deals of
every preset, and of rule sets drawn at random over every option, are
played by :mod:`rebelote.rollout` with its actions written down, then
replayed through :class:`State`: every legal set (bids, declarations,
cards with their belote choice), every declaration found and every score
must agree.  The counts are small (the compiled code's compilation is the
test's cost); ``benchmarks/`` and ``rebelote bench engine`` play millions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rebelote import rollout as R
from rebelote.actions import Action, Bid, Play
from rebelote.cards import DECK_24, DECK_32, cards_of
from rebelote.rules import PRESETS, Rules, preset
from rebelote.seats import SEATS_3, SEATS_4, Seat
from rebelote.state import Phase, State

pytestmark = pytest.mark.skipif(not R.AVAILABLE, reason="numba is not installed")


def _pack(rules: Rules, rng: random.Random) -> list[int]:
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    return pack


def replay(state: State, rows: list[tuple[int, ...]], result: dict[str, Any]) -> State:
    """Replay a trace on ``state``: each legal set equal to the engine's,
    each action applied, the result equal to the engine's."""
    for what, a, b, c, d, _ in rows:
        if what == R.TR_FOUND:
            found = state.found.get(Seat(a), ())
            codes = [c >> (7 * i) & 127 for i in range(b)]
            assert [R.declaration_code(x) for x in found] == codes
            continue
        legal = state.legal_actions()
        action: Action
        if what == R.TR_BID:
            mine = [i for i in range(63) if a >> i & 1] + [63 + i for i in range(10) if b >> i & 1]
            bids = [x for x in legal if isinstance(x, Bid)]
            assert len(bids) == len(legal)
            assert sorted(R.bid_code(x) for x in bids) == mine
            action = next(x for x in bids if R.bid_code(x) == c)
        elif what == R.TR_DECLARE:
            assert state.current == Seat(a)
            found = state.found[Seat(a)]
            assert len(found) == b and len(legal) == 2**b
            action = R.declare_action(found, c)
        else:
            assert what == R.TR_PLAY
            cards = choice = 0
            for x in legal:
                assert isinstance(x, Play)
                cards |= 1 << x.card
                if x.belote is not None:
                    choice |= 1 << x.card
            assert (cards, choice) == (a, b)
            action = R.play_action(c, d)
        assert action in legal
        state.apply(action)
    assert state.is_terminal and state.result is not None
    assert R.result_row(state.result, state.players) == result
    return state


def _deals(rules: Rules, count: int, seed: int) -> dict[str, int]:
    """``count`` traced deals replayed; the result kinds met."""
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    kinds: dict[str, int] = {}
    for i in range(count):
        pack = _pack(rules, rng)
        dealer = seats[i % len(seats)]
        policy: R.Policy = "greedy" if i % 3 == 2 else "random"
        rows, result = R.trace_deal(rules, pack, dealer, seed=seed * 1000 + i, policy=policy)
        replay(State.from_deck(rules, dealer, pack, rules.patterns[0]), rows, result)
        kinds[result["kind"]] = kinds.get(result["kind"], 0) + 1
    return kinds


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_compiled_deals_agree_with_the_engine(name: str) -> None:
    kinds = _deals(preset(name), 150, 1)
    assert sum(kinds.values()) == 150
    assert kinds.get("made", 0) + kinds.get("capot", 0) > 0
    assert kinds.get("dedans", 0) > 0


def random_rules(rng: random.Random) -> Rules:
    """A rule set with every option drawn at random."""
    players = rng.choice((3, 4, 4))
    bidding = rng.choice(("classic", "tout_atout") + (("coinche",) if players == 4 else ()))
    return preset("ffb").replace(
        preset="random",
        players=players,
        patterns=(rng.choice(("3-2", "2-3") + (("3-3-2",) if bidding == "coinche" else ())),),
        bidding=bidding,
        round_two_turned_suit=rng.random() < 0.5,
        first_lead=rng.choice(("dealer_right", "dealer")),
        partner_winning_exemption=rng.random() < 0.5,
        must_undertrump=rng.random() < 0.5,
        overtrump_partner_on_trump_lead=rng.random() < 0.5,
        declarations=rng.choice(("off", "choice", "automatic")),
        declaration_turn=rng.random() < 0.5,
        declaration_tie=rng.choice(("none", "first")),
        belote_must_be_said=rng.random() < 0.5,
        belote_requires_trick=rng.random() < 0.5,
        belote_on_dedans=rng.choice(("holders", "defenders")),
        tie=rng.choice(("litige", "takers_fail")),
        capot_points=rng.choice((252, 250, 100)),
        capot_against_takers=rng.choice((252, 162)),
        solo_capot_points=rng.choice((None, 350)),
        carre_of_seven_cancels=rng.random() < 0.5,
        sa_multiplier=rng.choice((1, 2)),
        ta_multiplier=rng.choice((1, 3)),
        ta_points=rng.choice(((0, 0, 9, 5, 14, 1, 3, 6), (0, 0, 14, 10, 20, 3, 4, 11))),
        sa_points=rng.choice(((0, 0, 0, 10, 2, 3, 4, 19), (0, 0, 0, 10, 2, 3, 4, 11))),
        coinche_tout_atout=rng.random() < 0.5,
        coinche_made_score=rng.choice(("contract_and_points", "contract")),
        lower_trump_under_partner=rng.choice(("allowed", "all_trumps_only")),
        after_coinche=rng.choice(("coinched_side", "three_passes")),
        coinche_capot_points=rng.choice((250, 252)),
        coinche_multiplies=rng.choice(("contract", "deal")),
        capot_takes_declarations=rng.random() < 0.5,
        ta_sa_points_to_162=rng.random() < 0.5,
        rounding=rng.choice(("none", "nearest_ten", "house")),
    )


def test_compiled_deals_agree_with_the_engine_on_random_rule_sets() -> None:
    rng = random.Random(15)
    for k in range(40):
        rules = random_rules(rng)
        kinds = _deals(rules, 25, 100 + k)
        assert sum(kinds.values()) == 25, rules


def _mid_deal(rules: Rules, rng: random.Random, phase: Phase, cards: int) -> State | None:
    """A deal played at random to ``phase`` with ``cards`` cards played."""
    state = State.from_deck(rules, SEATS_4[0] if rules.players == 4 else Seat.W, _pack(rules, rng))
    while not state.is_terminal:
        if state.phase is phase and bin(state.played).count("1") == cards:
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize(
    "name", ["ffb", "seed000", "seed001", "seed003", "coinche", "three-players"]
)
def test_play_outs_from_the_middle_of_a_deal_agree_with_the_engine(name: str) -> None:
    """From states in the card play (before any card, with declarations
    still to choose; mid-trick; late) and in seed 000's declaration turn."""
    rules = preset(name)
    rng = random.Random(name)
    met = 0
    for i in range(40):
        phase = Phase.DECLARING if name == "seed000" and i % 2 else Phase.PLAYING
        state = _mid_deal(
            rules, rng, phase, (0, 1, 5, 14, 22)[i % 5] if phase is Phase.PLAYING else 0
        )
        if state is None:
            continue
        before = [a.text for a in state.legal_actions()], state.hands[:], state.played
        policies: tuple[R.Policy, ...] = ("random", "greedy")
        for policy in policies:
            rows, result = R.trace_play_out(state, seed=i, policy=policy)
            replay(state.copy(), rows, result)
        assert ([a.text for a in state.legal_actions()], state.hands, state.played) == before
        met += 1
    assert met >= 20


def test_random_deals_are_seeded() -> None:
    rules = preset("ffb")
    first = R.random_deals(rules, 300, seed=7)
    assert first.shape == (300, 5)
    assert (first == R.random_deals(rules, 300, seed=7)).all()
    assert not (first == R.random_deals(rules, 300, seed=8)).all()
    kinds = {R.RESULT_KINDS[k] for k in first[:, 0]}
    assert kinds <= {"made", "capot", "dedans", "litige", "passed"}
    # Four players: side 2 never scores; a litige holds points over.
    assert (first[:, 3] == 0).all()
    litige = first[:, 0] == R.RESULT_KINDS.index("litige")
    assert (first[litige, 4] > 0).all() and (first[~litige, 4] == 0).all()


def test_greedy_play_outs_repeat_the_same_deal() -> None:
    """The greedy policy has no random card: from a state in the card play
    of ffb-no-declarations (no declaration or belote choice left to draw),
    every play-out is the same deal, the one its trace replays."""
    rules = preset("ffb-no-declarations")
    state = _mid_deal(rules, random.Random(3), Phase.PLAYING, 6)
    assert state is not None
    out = R.play_out(state, 50, seed=1, policy="greedy")
    assert (out == out[0]).all()
    rows, result = R.trace_play_out(state, seed=99, policy="greedy")
    done = replay(state.copy(), rows, result)
    assert done.result is not None
    assert list(out[0, 1:3]) == list(done.result.score)
    random_out = R.play_out(state, 50, seed=1)
    assert len({tuple(row) for row in random_out.tolist()}) > 1


def test_play_out_refuses_a_deal_in_its_bidding() -> None:
    rules = preset("ffb")
    state = State.from_deck(rules, Seat.N, _pack(rules, random.Random(1)), "3-2")
    with pytest.raises(R.RolloutError, match="declarations or card play"):
        R.play_out(state, 1)
    playing = _mid_deal(rules, random.Random(2), Phase.PLAYING, 3)
    assert playing is not None
    with pytest.raises(R.RolloutError, match="unknown policy"):
        R.play_out(playing, 1, policy="best")  # type: ignore[arg-type]
    with pytest.raises(R.RolloutError, match="every card"):
        R.trace_deal(rules, list(range(31)), Seat.N)


def test_bench_engine_gives_the_compiled_rates() -> None:
    """``rebelote bench engine``'s JSON has the compiled rollouts' rates
    (colver's where it can be imported; rates are never asserted)."""
    from rebelote.bench import bench_engine

    result = bench_engine(preset("coinche"), deals=10, rollouts=2000)
    assert result["rules"] == "coinche" and result["deals"] == 10
    assert result["rollouts_per_s"] > 0 and result["play_outs_per_s"] > 0
    assert "rollouts" not in result
    try:
        import colver  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        assert result["colver_rollouts_per_s"] is None
        assert result["colver_play_outs_per_s"] is None
        assert result["colver"] == "not installed"
    else:  # pragma: no cover - colver is not a dependency
        assert result["colver_rollouts_per_s"] > 0
