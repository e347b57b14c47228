"""The feats of a deal (:func:`rebelote.feats.deal_feats`): each side's
feats agree with the deal's own summary (:func:`rebelote.record.deal_summary`,
what a record says) on random deals of every kind of table, and a
coinched contract beaten is the defenders' feat, not the takers'."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rebelote.auction import Contract
from rebelote.feats import DealFeats, deal_feats
from rebelote.record import deal_summary
from rebelote.rules import preset
from rebelote.scoring import DealResult
from rebelote.seats import Seat
from rebelote.simulate import random_deal
from rebelote.trump import Strain


@pytest.mark.parametrize("name", ["coinche", "ffb", "belote-said"])
def test_feats_agree_with_the_deal_summary(name: str) -> None:
    rules = preset(name)
    rng = random.Random(18)
    seen: set[str] = set()
    for _ in range(300):
        state = random_deal(rules, rng)
        result = state.result
        assert result is not None
        summary = deal_summary(state)
        for side, side_name in enumerate(state.side_names):
            feats = deal_feats(rules, result, side)
            if summary["result"] in ("passed", "cancelled"):
                assert feats is None
                continue
            assert feats is not None
            took = state.side_name(state.side_of[Seat[summary["taker"]]]) == side_name
            assert feats.took == took
            assert feats.made == (took and summary["result"] in ("made", "capot"))
            assert feats.capot == (summary["capot"] == side_name)
            assert feats.coinched == (summary["multiplier"] > 1)
            assert feats.defended == (not took and summary["result"] == "dedans")
            assert feats.no_trump == (summary["trump"] in ("SA", "TA"))
            belote = summary["belote"]
            held = belote == side_name or (isinstance(belote, list) and side_name in belote)
            assert feats.belote == (held and summary["belote_points"][side_name] > 0)
            seen |= {k for k, v in dataclasses.asdict(feats).items() if v}
    assert {"took", "made", "defended", "belote"} <= seen


def test_a_coinched_contract_beaten_is_the_defenders_feat() -> None:
    rules = preset("coinche")
    result = DealResult(
        result="dedans",
        contract=Contract(Seat.N, Strain.H, 120, 2),
        card_points=(40, 112),
        dix_de_der=1,
        declarations=((), ()),
        belote=(),
        belote_points=(0, 0),
        capot=None,
        solo_capot=False,
        score=(0, 400),
        held_over=0,
        winner=1,
    )
    takers = DealFeats(
        took=True,
        made=False,
        capot=False,
        coinched=True,
        contract_value=120,
        defended=False,
        belote=False,
        no_trump=False,
    )
    assert deal_feats(rules, result, 0) == takers
    defenders = dataclasses.replace(takers, took=False, contract_value=None, defended=True)
    assert deal_feats(rules, result, 1) == defenders
    with pytest.raises(IndexError):
        deal_feats(rules, result, 2)
