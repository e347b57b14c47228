"""``rebelote hint``: the values are the ones the expert chooses on, the
whole record is checked, and positions it cannot judge are refused.

Records are random deals (``rebelote record``'s ``random_deal``) whose
scores are known: a forced last card is worth exactly the deal's score."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rebelote.bots.hint import MAX_WORLDS, HintError, hint
from rebelote.cards import card_name
from rebelote.record import IllegalRecordError, RecordError, replay_deal, state_to_record
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.simulate import random_deal
from rebelote.solver import kernel_selected


def _record(rules: str, seed: int) -> dict[str, Any]:
    """A format 1 record (``after`` counts its bids, then its cards)."""
    return state_to_record(random_deal(preset(rules), random.Random(seed)), format=1)


def test_classic_bids_are_valued_by_the_take_values_the_expert_bids_on() -> None:
    # ffb, seed 1: S speaks first; its take value is 4.5 points over the
    # threshold, so the expert takes.
    report = hint(_record("ffb", 1), Seat.S, 0)
    assert report["phase"] == "bidding" and report["basis"] == "take values"
    assert report["values"] == [
        {"action": "take", "value": 4.5},
        {"action": "pass", "value": 0.0},
    ]
    assert report["best"] == report["expert"] == "take"
    assert report["rule"] is None


@pytest.mark.parametrize(
    ("rules", "seed", "seat", "value"),
    [
        # W's side (EW) 119, NS 43.
        ("ffb", 1, Seat.W, 76.0),
        # A Tout Atout deal scored x3: NS 666, EW 0.
        ("seed000-tout-atout", 3, Seat.S, 666.0),
        # Belote, declarations and the dix de der: NS 202, EW 0.
        ("ffb", 2, Seat.S, 202.0),
        # A defenders' capot (dedans): NS 0, EW 252.
        ("ffb", 85, Seat.S, -252.0),
        # A litige: the defenders (NS) score 91, the takers' points held over.
        ("ffb", 139, Seat.E, -91.0),
        # Tout Atout, capot against the takers, x3: NS 756, EW 0.
        ("seed000-tout-atout", 46, Seat.W, -756.0),
        # Sans Atout litige, x2: NS 202, EW 0.
        ("seed000-tout-atout", 104, Seat.N, 202.0),
    ],
)
def test_a_forced_last_card_is_worth_the_deal_score(
    rules: str, seed: int, seat: Seat, value: float
) -> None:
    record = _record(rules, seed)
    last = len(record["bids"]) + len(record["play"]) - 1
    report = hint(record, seat, last)
    assert [v["value"] for v in report["values"]] == [value]
    assert report["basis"] == "worlds" and report["worlds"] >= 1


def test_the_best_card_is_the_expert_card_at_the_first_trick() -> None:
    record = _record("ffb", 1)
    after = len(record["bids"])
    report = hint(record, Seat.S, after)  # S leads the first trick
    assert report["trick"] == 1 and report["phase"] == "playing"
    if kernel_selected():
        # The expert's own plan: 10 worlds at the first trick, less those
        # over the node cap (dropped).
        assert 1 <= report["worlds"] <= 10 and report["basis"] == "worlds"
        assert report["best"] == report["expert"]
        assert report["values"][0]["action"] == report["expert"]
    else:
        # Without the kernel the expert plays the intermediate's first cards.
        assert report["worlds"] == 0 and report["best"] is None


def test_a_classic_record_by_hands_gets_no_bidding_hint() -> None:
    record = _record("ffb", 1)
    state_hands = {
        "format": 1,
        "rules": "ffb",
        "dealer": record["dealer"],
        "hands": _final_hands(record),
        "turned": record["turned"],
        "bids": record["bids"],
        "play": record["play"],
    }
    with pytest.raises(HintError, match="'deck'"):
        hint(state_hands, Seat.S, 0)
    # Card positions are fine: the hands are the ones played.
    assert hint(state_hands, Seat.W, len(record["play"]) + 1)["values"][0]["value"] == 76.0


def _final_hands(record: dict[str, Any]) -> dict[str, list[str]]:
    """Each seat's eight cards, from the tricks of the replayed record."""
    hands: dict[str, list[str]] = {"N": [], "W": [], "S": [], "E": []}
    for trick in replay_deal(record).state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[seat.letter].append(card_name(card))
    return hands


def test_the_whole_record_is_checked_not_only_the_actions_before() -> None:
    record = _record("ffb", 1)
    bad = dict(record)
    play = list(record["play"])
    play[-1], play[-2] = play[-2], play[-1]  # the last two cards swapped: not W's card
    bad["play"] = play
    with pytest.raises(IllegalRecordError):
        hint(bad, Seat.S, 0)
    bad = dict(record, play={"x": 1})
    with pytest.raises(RecordError, match="play must be a list"):
        hint(bad, Seat.S, 0)


@pytest.mark.parametrize("worlds", [0, -3, MAX_WORLDS + 1])
def test_worlds_out_of_range_are_refused(worlds: int) -> None:
    with pytest.raises(HintError, match="--worlds must be between 1 and 200"):
        hint(_record("ffb", 1), Seat.S, 0, worlds=worlds)


def test_the_command_and_the_function_take_the_same_worlds() -> None:
    from rebelote.cli import HINT_MAX_WORLDS

    assert HINT_MAX_WORLDS == MAX_WORLDS == 200


def test_a_belote_choice_lists_both_texts_at_the_card_value() -> None:
    """Seed 001 (belote must be said): W, at trick 4 of seed 36's deal,
    holds the QS and KS of trump; each card is listed under both its texts
    (``QS belote``, ``QS no-belote``) with the card's value, and the expert
    says belote."""
    report = hint(_record("seed001", 36), Seat.W, 17, worlds=2, seed=1)
    values = {v["action"]: v["value"] for v in report["values"]}
    assert sorted(values) == ["KS belote", "KS no-belote", "QS belote", "QS no-belote"]
    assert values["QS belote"] == values["QS no-belote"] is not None
    assert values["KS belote"] == values["KS no-belote"] is not None
    assert report["expert"] in ("QS belote", "KS belote")


@pytest.mark.parametrize(("rules", "seed", "seat"), [("ffb", 1, Seat.W), ("seed001", 36, Seat.W)])
def test_a_format_2_record_gives_the_hint_of_its_format_1_record(
    rules: str, seed: int, seat: Seat
) -> None:
    """``after`` counts a format 2 record's actions (the dealer's pattern,
    declarations included): at the same position the hint is the same as
    its format 1 record's (bids, then cards), here before ``seat``'s last
    card and at the auction's first bid."""
    state = random_deal(preset(rules), random.Random(seed))
    old = state_to_record(state, format=1)
    new = state_to_record(state)
    texts = [a["action"] for a in new["actions"]]
    assert texts[0] in ("deal 3-2", "deal 2-3")  # both allowed: the dealer's choice
    last = max(i for i, a in enumerate(new["actions"]) if a["seat"] == seat.letter)
    cards_before = len(old["bids"]) + len(old["play"]) - (len(texts) - last)
    assert hint(new, seat, last, worlds=4) == {
        **hint(old, seat, cards_before, worlds=4),
        "after": last,
    }
    first_bidder = new["actions"][1]["seat"]
    assert hint(new, Seat[first_bidder], 1) == {**hint(old, Seat[first_bidder], 0), "after": 1}
    with pytest.raises(HintError, match=f"the record has {len(texts)} actions"):
        hint(new, seat, len(texts) + 1)
