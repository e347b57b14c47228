"""Scripted tables for the browser tests: the computer players' decisions
and the first dealer are set by the test, so that a deal's auction, play
and score are known in advance (the pack is shuffled from the test server's
fixed seed as tables dealt before fair deals: ``unfair_deal_entry``).

The fixture ``script_table`` (``conftest.py``) replaces, in the test
server's process, the computer players' choice
(:func:`rebelote.server.tables.bots.choose_action`, as the table driver
calls it) by :class:`Script` and the dealer of each match's first deal by
``dealer``."""

from __future__ import annotations

from dataclasses import dataclass, field

from rebelote.actions import Action
from rebelote.observation import PlayerView
from rebelote.state import Phase


@dataclass
class Script:
    """What the computer players do: ``bids[seat]``, the bids each seat
    makes in turn (``pass`` once its list is used up), and otherwise the
    first of its legal actions (the lowest card in card order, the first
    cut, no declaration)."""

    bids: dict[str, list[str]] = field(default_factory=dict)
    made: list[tuple[str, str]] = field(default_factory=list)

    def choose(self, level: str, view: PlayerView, seed: int, budget_ms: float = 0) -> Action:
        """The scripted decision (the signature of ``choose_action``)."""
        legal = view.legal
        seat = view.seat.letter
        chosen: Action | None = None
        if view.phase == Phase.BIDDING:
            wanted = self.bids.get(seat, [])
            text = wanted.pop(0) if wanted else "pass"
            chosen = next((a for a in legal if a.text == text), None)
            if chosen is None:
                raise AssertionError(f"{seat} may not bid {text!r}: {[a.text for a in legal]}")
        else:
            none = [a for a in legal if a.text == "declare none"]
            chosen = none[0] if none else legal[0]
        self.made.append((seat, chosen.text))
        return chosen
