"""The daily deal's par (rebelote.server.tables.daily.deal_par): the
double-dummy value of the most played contract, checked against the
expert's analysis of the same deal (another path through the solver:
from the replayed state of the record, not from the hands)."""

from __future__ import annotations

from typing import Any

from rebelote.actions import Action
from rebelote.bots.analysis import analyse_deal
from rebelote.cards import card_name
from rebelote.fairness import derive_pack
from rebelote.rules import preset
from rebelote.seats import Seat
from rebelote.server.tables.daily import deal_par, hands_of
from rebelote.state import State


def _played(taker_first: bool) -> tuple[State, dict[str, Any]]:
    """Deal 1 of a fixed seed played out: the first who may take takes
    (``taker_first``) or everyone passes; then the first legal card."""
    rules = preset("ffb")
    pack = derive_pack(bytes(range(32)))
    state = State.new(rules, Seat.N, pack)
    actions = []
    while not state.is_terminal:
        legal = state.legal_actions()
        takes = [a for a in legal if a.text.startswith("take")]
        action: Action = takes[0] if taker_first and takes else legal[0]
        if not taker_first:
            passes = [a for a in legal if a.text == "pass"]
            action = passes[0] if passes else legal[0]
        seat = state.current
        assert seat is not None
        actions.append({"seat": seat.letter, "action": action.text})
        state.apply(action, seat)
    record = {
        "format": 2,
        "rules": rules.to_record(),
        "dealer": "N",
        "pack": [card_name(c) for c in pack],
        "actions": actions,
    }
    return state, record


def test_par_is_the_double_dummy_value_of_the_contract_played() -> None:
    state, record = _played(taker_first=True)
    assert state.contract is not None and len(state.tricks) == 8
    analysis = analyse_deal(record, bids=False)
    first = analysis["cards"][0]
    ns = first["before"] if first["side"] == "NS" else -first["before"]
    assert deal_par([state]) == ns
    hands = hands_of(state)
    assert hands is not None and sorted(len(h) for h in hands.values()) == [8, 8, 8, 8]


def test_no_par_when_all_passed() -> None:
    state, _ = _played(taker_first=False)
    assert state.contract is None
    assert deal_par([state]) is None
    assert hands_of(state) is None
