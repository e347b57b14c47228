"""The reviewer's minor points of issue 17, at the table: a contract out of
range is refused with the range (``bid_out_of_range``), the all-pass notice
says what the rule in force does next (``then``)."""

from __future__ import annotations

import random

import pytest

from rebelote.events import AllPassed
from rebelote.match import Match
from rebelote.rules import preset
from rebelote.seats import SEATS_2, SEATS_4
from rebelote.server.protocol.messages import AllPassedEvent, ProtocolError, TableOptions
from rebelote.server.protocol.redact import event_wire
from rebelote.server.tables.game import SeatSpec, TableGame


def _game(name: str) -> TableGame:
    """A table of humans under ``name`` in its first auction."""
    rules = preset(name)
    seats = SEATS_2 if rules.players == 2 else SEATS_4
    specs = {s: SeatSpec(s, "human", s.letter) for s in seats}
    game = TableGame("t", rules, TableOptions(), 11, specs)
    for entry in game.start_entries():
        game.apply(entry)
    while (step := game.pending()) is not None:  # the automatic cut and pattern
        for entry in game.automatic_entry(step):
            game.apply(entry)
    assert game.state is not None and game.state.phase.value == "bidding"
    return game


@pytest.mark.parametrize("text", ["70H", "85S", "170S"])
def test_a_contract_out_of_range_says_the_range(text: str) -> None:
    """RULES.md "Coinche": "contracts of 80, 90, ... 160, then capot"."""
    game = _game("coinche")
    state = game.state
    assert state is not None and state.current is not None
    with pytest.raises(ProtocolError) as exc:
        game.request(state.current, text, None)
    assert exc.value.code == "bid_out_of_range"
    strain = text[-1]
    assert exc.value.message.startswith(
        f"not a bid: '{text}' (a contract is 80 to 160 in tens, then capot: "
        f"80{strain} .. 160{strain}, capot{strain}); legal now: pass 80S"
    )
    with pytest.raises(ProtocolError) as other:
        game.request(state.current, "fold", None)
    assert other.value.code == "bad_action"


@pytest.mark.parametrize(
    ("name", "then"),
    [("two-players", "next_dealer"), ("seed000", "redeal"), ("seed002", "dealer_left")],
)
def test_the_all_passed_event_says_what_comes_next(name: str, then: str) -> None:
    """``Rules.all_pass``: at two players (ffb's rule) the deal passes to the
    next dealer; seed 000 redeals; seed 002 the dealer's left deals."""
    rules = preset(name)
    state = Match(rules).deal(rng=random.Random(1))
    public, own = event_wire(AllPassed(), state, match=1, deal=2)
    assert own is None and public is not None
    assert public.data == {"match": 1, "deal": 2, "kind": "all_passed", "then": then}
    AllPassedEvent.model_validate(public.data)
