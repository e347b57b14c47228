"""The heuristic levels' choices in hand-made and frozen positions, one test
per behaviour fixed after the review of the bots:

- A: taking in the classic game: trump length and the jack or nine come
  first; never a take, nor a suit named in round two, without real trumps.
- B: Tout Atout from jacks and nines, Sans Atout from aces and tens.
- C: the coinche auction: a raise never counts again the cards of an
  earlier bid; coinches from the defence's estimate, at 80 too; the
  beginner's milder weakness (its raw estimate, no coinche).
- D: card play: a master ten or ace charged on the partner's sure trick
  when keeping it cannot win a later trick; a ten never discarded while a
  lower card is available.

Frozen positions give every hand and every action up to the decision (as
played by the intermediate in ``ffb-no-declarations`` deals seeded like
``tests/test_bots.py``), so that they do not depend on the bots' earlier
choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from deals import classic_deal, deal_from_hands, shuffled_pack
from rebelote.actions import Action, Bid, Play, parse_bid
from rebelote.bots import Budget, decision_seed, make_bot
from rebelote.bots.heuristic import (
    HeuristicBot,
    alone_points,
    hand_points,
    strain_tricks,
    take_value,
)
from rebelote.cards import CardSet
from rebelote.observation import PlayerView, observe
from rebelote.rules import preset
from rebelote.seats import SEATS_4, Seat
from rebelote.state import State
from rebelote.trump import Strain

BUDGET = Budget()


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def _classic(rules_name: str, n_hand: str, turned: str) -> State:
    """Dealer E, N speaks first holding ``n_hand``; the others get what is
    left in order."""
    return classic_deal(rules_name, n_hand, turned)


def _choose(state: State, level: str = "intermediate") -> Action:
    seat = state.current
    assert seat is not None
    return make_bot(level).act(observe(state, seat), state.legal_actions(), seed=1, budget=BUDGET)


def _self_play_auctions(
    rules_name: str, watch: Callable[[PlayerView, Action], None] | None = None
) -> list[State]:
    """300 deals of ``rules_name`` (deal ``seed``: the pack shuffled by
    ``seed``, dealer ``SEATS_4[seed % 4]``), each bid by four intermediates
    until a contract is made or all pass; ``watch`` sees each decision (the
    view and the action) before it is applied."""
    rules = preset(rules_name)
    bots = {s: make_bot("intermediate") for s in SEATS_4}
    done = []
    for seed in range(300):
        state = State.from_deck(rules, SEATS_4[seed % 4], shuffled_pack(seed), "3-2")
        index = 0
        while state.contract is None and not state.is_terminal:
            seat = state.current
            assert seat is not None
            view = observe(state, seat)
            action = bots[seat].act(
                view, state.legal_actions(), seed=decision_seed(seed, seat, index), budget=BUDGET
            )
            if watch is not None:
                watch(view, action)
            state.apply(action, seat)
            index += 1
        done.append(state)
    return done


def _card(action: Action) -> str:
    assert isinstance(action, Play)
    return str(CardSet([action.card]))


# ------------------------------------------------------- A: classic taking


def test_a_single_trump_never_takes_whatever_the_side_aces() -> None:
    # Review: ffb, round 1, 8D AD 10C KC AC with 7H turned: the 7 is its only
    # trump; the old estimate took (a side ace 0.9, a trump ace 0.3).
    state = _classic("ffb", "8D AD 10C KC AC", "7H")
    assert _choose(state) == Bid("pass")
    assert _choose(state, "beginner") == Bid("pass")
    assert take_value(_mask("8D AD 10C KC AC 7H"), Strain.H) <= -60


def test_round_two_never_names_a_suit_without_trumps_in_it() -> None:
    # Review: ffb, round 2, 10S QD AD 7C AC with AS turned: it bid H holding
    # no heart.  Two trumps without the jack (D, C) are not enough either.
    state = _classic("ffb", "10S QD AD 7C AC", "AS")
    for _ in range(4):
        state.apply(Bid("pass"))
    assert state.current == Seat.N
    assert _choose(state) == Bid("pass")
    hand = _mask("10S QD AD 7C AC AS")
    assert take_value(hand, Strain.H) <= -60
    assert take_value(hand, Strain.D) <= -15 and take_value(hand, Strain.C) <= -15


def test_trump_length_and_honours_outweigh_side_aces() -> None:
    # The trump ace (with the trump it makes) is worth more than a side ace.
    side = _mask("JH 9H 7H AS 8D 7C")
    trump = _mask("JH 9H 7H AH 8D 7C")
    assert take_value(trump, Strain.H) > take_value(side, Strain.H) + 35
    # A club player's take: three trumps with the jack and a side ace ...
    state = _classic("ffb-no-declarations", "JH 8H AS 7D 8C", "7H")
    assert _choose(state) == Bid("take")
    # ... or with the nine and two side aces; the nine and one ace: pass.
    assert _choose(_classic("ffb-no-declarations", "9H 8H AS AD 8C", "7H")) == Bid("take")
    assert _choose(_classic("ffb-no-declarations", "9H 8H AS 7D 8C", "7H")) == Bid("pass")
    # Three aces and a ten beside one of them, two trumps without the jack:
    # the intermediate passes, the beginner (lower threshold) takes.
    weak_trumps = _classic("ffb-no-declarations", "9H AS 10S AD AC", "7H")
    assert _choose(weak_trumps) == Bid("pass")
    assert _choose(weak_trumps, "beginner") == Bid("take")


def test_strain_tricks_scale() -> None:
    # 2.8 is the break-even take; 40 points of expected difference a trick.
    hand = _mask("JH 8H AS 7D 8C 7H")
    assert strain_tricks(hand, Strain.H) == 2.8 + take_value(hand, Strain.H) / 40


def test_takes_in_self_play_hold_trumps() -> None:
    # 300 ffb deals: no taker ever held fewer than two trumps when bidding.
    takes: list[Bid] = []

    def check(view: PlayerView, action: Action) -> None:
        if isinstance(action, Bid) and action.kind in ("take", "strain"):
            assert view.turned is not None
            suit = view.turned >> 3 if action.kind == "take" else action.strain
            assert suit is not None
            held = (view.hand | 1 << view.turned) >> (8 * int(suit)) & 0xFF
            assert held.bit_count() >= 2
            takes.append(action)

    _self_play_auctions("ffb", check)
    assert len(takes) > 200


# ------------------------------------------------ B: Tout Atout, Sans Atout


def test_tout_atout_from_three_jacks_and_two_nines() -> None:
    # Review: JS JH JD 9S 9H with 7C turned passed both rounds.
    state = _classic("seed000-tout-atout", "JS JH JD 9S 9H", "7C")
    assert _choose(state) == Bid("strain", Strain.TA)


def test_sans_atout_from_aces_and_tens() -> None:
    # Review: AS 10S AH 10H AD with 7C turned took clubs on the 7C alone.
    state = _classic("seed000-tout-atout", "AS 10S AH 10H AD", "7C")
    assert _choose(state) == Bid("strain", Strain.SA)


def test_tout_atout_from_jacks_with_nines_beside_them() -> None:
    # Three jacks, or two jacks with their nines, make Tout Atout; two bare
    # jacks do not.
    assert _choose(_classic("seed000-tout-atout", "JS JH JD 7S 8H", "8D")) == Bid(
        "strain", Strain.TA
    )
    assert _choose(_classic("seed000-tout-atout", "JS 9S JH 9H AD", "7C")) == Bid(
        "strain", Strain.TA
    )
    assert _choose(_classic("seed000-tout-atout", "JS JH 7D 8C QS", "7C")) == Bid("pass")


def test_tout_atout_and_sans_atout_are_bid_in_self_play() -> None:
    strains: Counter[Strain] = Counter()
    for state in _self_play_auctions("seed000-tout-atout"):
        if state.contract is not None:
            strains[state.contract.strain] += 1
    assert strains[Strain.TA] >= 15 and strains[Strain.SA] >= 25


# ------------------------------------------------------- C: coinche auction


RAISE_HANDS = {
    Seat.N: "JH 9H 8H AS 7D 8D 7C 8C",
    Seat.W: "7S 8S 9S QS 9D 10D 9C 10C",
    Seat.S: "AH 10H 7H KD AD AC KS 10S",
    Seat.E: "JS QH KH JD QD JC QC KC",
}


def test_a_raise_counts_only_what_the_raisers_hand_adds() -> None:
    # Review (seed 155): S:90C N:110C S:140C N:160C, coinched, surcoinched,
    # -800: each raise added the partner's bid to cards already counted.
    state = deal_from_hands("coinche", Seat.E, RAISE_HANDS)
    assert _choose(state) == parse_bid("90H")  # N: its hand alone
    state.apply(parse_bid("90H"))
    state.apply(Bid("pass"))  # W
    # S: its own hand (88.6 points in hearts) on what 90H showed (99.7),
    # less the side's constant 26.3 and its margin 40: 122.
    assert hand_points(_mask(RAISE_HANDS[Seat.S]), Strain.H) == pytest.approx(88.6)
    assert _choose(state) == parse_bid("120H")
    state.apply(parse_bid("120H"))
    state.apply(Bid("pass"))  # E
    # N has nothing beyond what its 90H showed: it passes.
    assert _choose(state) == Bid("pass")


def test_few_auctions_escalate_in_self_play() -> None:
    # Review: 172 of 1,792 contracts had four bids or more by the takers.
    contracts = escalated = 0
    for state in _self_play_auctions("coinche"):
        contract = state.contract
        if contract is None:
            continue
        contracts += 1
        assert state.auction is not None
        side = [
            b
            for s, b in state.auction.bids
            if b.kind == "contract" and (s ^ contract.taker) & 1 == 0
        ]
        escalated += len(side) >= 4
    assert contracts > 250
    assert escalated <= contracts // 50


DEFENCE = "JH 9H 7H AS AD 7C 8C 9C"


def test_coinches_an_80_its_defence_beats() -> None:
    # Review: holding JH 9H 7H AS AD 7C 8C 9C over an opponent's 80H it
    # passed (a coinche needed 90 or more).
    hands = {
        Seat.W: "10H KH QH 8H AC 10C KS 7S",
        Seat.S: DEFENCE,
        Seat.E: "8S 9S 10S JS QS 7D 8D 9D",
        Seat.N: "AH 10D JD QD KD JC QC KC",
    }
    state = deal_from_hands("coinche", Seat.N, hands)
    assert state.current == Seat.W
    state.apply(parse_bid("80H"))
    assert observe(state, Seat.S).current == Seat.S
    assert _choose(state) == Bid("coinche")
    # The beginner never coinches.
    assert _choose(state, "beginner") != Bid("coinche")


def test_no_coinche_of_a_high_contract_on_one_ace() -> None:
    # Review (seed 67): E coinched 140H holding one ace; 49 of 61 coinched
    # contracts were made.
    hands = {
        Seat.W: "JH 9H AH 10H KH AC 10C AD",
        Seat.S: "AS 7S 8S 7D 8D 9D 7C 8C",
        Seat.E: "9S 10S JS QS KS 10D JD QD",
        Seat.N: "7H 8H QH KD 9C JC QC KC",
    }
    state = deal_from_hands("coinche", Seat.N, hands)
    state.apply(parse_bid("140H"))
    assert _choose(state) == Bid("pass")


def test_the_beginner_bids_with_less_prudence() -> None:
    # The beginner's designed weakness: an opening margin of -10 where the
    # intermediate keeps -20 (it opens 10 points higher on the same hand),
    # raises at -15 rather than -40, and no coinche.
    hand = _mask(RAISE_HANDS[Seat.N])
    assert alone_points(hand, Strain.H) == pytest.approx(118.2, abs=0.05)
    state = deal_from_hands("coinche", Seat.E, RAISE_HANDS)
    assert _choose(state) == parse_bid("90H")
    assert _choose(state, "beginner") == parse_bid("100H")
    state.apply(parse_bid("90H"))
    state.apply(Bid("pass"))
    # S raises: the intermediate 88.6 + 99.7 - 26.3 - 40 = 122; the
    # beginner reads 90H with its own margin (85.2): 88.6 + 85.2 - 26.3 - 15.
    assert _choose(state) == parse_bid("120H")
    assert _choose(state, "beginner") == parse_bid("130H")
    assert not HeuristicBot.beginner().style.coinches


# ------------------------------------------------------------ D: card play


def test_charges_a_master_ten_on_the_seventh_trick() -> None:
    # Review (seed 47, trick 7): holding 9H 10H with the partner surely
    # winning, it kept the 10H and lost it at trick 8.  Here (seed 38,
    # trick 7): N holds 10S (master) and KS; its partner S has ruffed.
    state = deal_from_hands(
        "ffb-no-declarations",
        Seat.W,
        {
            Seat.N: "9S 10S KS 9H 7D AD 10C QC",
            Seat.W: "JS QS AS QH 9D 7C 9C JC",
            Seat.S: "8S 8H 10D JD QD 8C KC AC",
            Seat.E: "7S 7H 10H JH KH AH 8D KD",
        },
        "10D",
        "take JD 8D 7D 9D AC KD QC JC AH 9H QH 8H 7H AD 7C KC 10C 9C 8C 7S 9S AS 8S 10H JS QD JH",
    )
    assert state.current == Seat.N and len(state.tricks) == 6
    assert _card(_choose(state)) == "10S"


def test_charges_a_master_ace_an_opponent_may_ruff() -> None:
    # Seed 266, trick 5: E's partner W wins surely with the 10S; S has shown
    # a void in hearts and may hold trumps: the AH is charged now.
    state = deal_from_hands(
        "ffb-no-declarations",
        Seat.S,
        {
            Seat.N: "QS KS 7H 8H 10H JD AD KC",
            Seat.W: "7S 10S AS 9H KH JC QC AC",
            Seat.S: "8S 9S JS 7D 8D QD 9C 10C",
            Seat.E: "JH QH AH 9D 10D KD 7C 8C",
        },
        "9D",
        "take KD AD 7S 7D 7H 9H 8D JH 8S 10D QS AS 7C KC AC 9C 10S 9S",
    )
    assert state.current == Seat.E and len(state.tricks) == 4
    assert _card(_choose(state)) == "AH"


def test_charges_a_master_ten_of_a_suit_no_opponent_holds() -> None:
    # Seed 15, trick 5: N's partner S has ruffed; no diamond is left outside
    # N's hand, so the master 10D would take nothing later.
    state = deal_from_hands(
        "ffb-no-declarations",
        Seat.E,
        {
            Seat.N: "JS AH 8D 9D 10D QD 10C AC",
            Seat.W: "QS KS AS 8H 7C 9C QC KC",
            Seat.S: "8S 9S 10H JH KH JD KD AD",
            Seat.E: "7S 10S 7H 9H QH 7D 8C JC",
        },
        "10H",
        "pass pass take AC 7C KD 8C 10C 9C JD JC 8D 8H AD 7D AS 8S 7S JS QC JH 7H",
    )
    assert state.current == Seat.N and len(state.tricks) == 4
    assert _card(_choose(state)) == "10D"


def test_keeps_a_master_ace_that_can_still_win_a_trick() -> None:
    # Seed 1, trick 1: E's partner W wins surely with the AH.  E keeps its
    # master AS (no void shown, spades still out) and charges the 10C, which
    # the AC would catch.
    state = deal_from_hands(
        "ffb-no-declarations",
        Seat.N,
        {
            Seat.N: "KS 7H 8H JH 7D 9D 10D JD",
            Seat.W: "10H QH KH AH 8D AD 9C KC",
            Seat.S: "7S 8S 9S 10S 9H KD JC AC",
            Seat.E: "JS QS AS QD 7C 8C 10C QC",
        },
        "JD",
        "pass pass pass take AH 9H",
    )
    assert state.current == Seat.E and not state.tricks
    assert _card(_choose(state)) == "10C"


def test_discards_a_king_under_its_own_ten_rather_than_another_ten() -> None:
    # Review (seed 178, trick 6): E threw 10C rather than KD under the
    # taker's winning trick; the KD sits under E's own 10D (the AD is out),
    # the 10C is not master (the AC is out).
    state = deal_from_hands(
        "ffb-no-declarations",
        Seat.E,
        {
            Seat.N: "10S JS QS 8H 10H JH QH AH",
            Seat.W: "8S 7H 9H 7D QD 7C 9C AC",
            Seat.S: "7S KS KH 9D JD 8C JC QC",
            Seat.E: "9S AS 8D 10D KD AD 10C KC",
        },
        "QS",
        "take JS 8S 7S AS AH 7H KH 9S AD 10S 7D JD 8H 9H KS 8D 8C KC QS 7C 10H 9C QC",
    )
    assert state.current == Seat.E and len(state.tricks) == 5
    assert _card(_choose(state)) == "KD"
