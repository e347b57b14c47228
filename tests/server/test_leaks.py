"""The player's stream reveals no card of another hand before it is played
(the turned card and declarations shown by the rules excepted).

Two independent checks over whole matches: every card a message names must
have been revealed to South by an earlier or the same message (its own
deal, cards played, the turned card, declarations, belote); and, each time
South must decide (the table stands still), no message of the deal names a
card that is, by the server's own state, still hidden from South."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from rebelote.cards import card_name, cards_of
from rebelote.observation import public_declaration_cards
from rebelote.seats import Seat

from .live import Client, LiveServer, Message

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])[SHDC](?![0-9A-Za-z])")


def _cards(value: Any) -> set[str]:
    return {m.group(0) for m in CARD.finditer(json.dumps(value))}


def _without_names(msg: Message) -> Any:
    """The message without free text (player names)."""
    if msg["t"] == "snapshot":
        return {k: v for k, v in msg["d"].items() if k != "table"}
    return msg["d"]


def _reveals(msg: Message) -> set[str]:
    """The cards a message may show South for the first time."""
    if msg["t"] == "snapshot":
        view = msg["d"]["view"]
        shown = set(view["hand"])
        shown |= {c for t in view["tricks"] for c in t["cards"]}
        shown |= {c for _, c in view["trick"]}
        shown |= {c for _, c, _ in view["belotes"]}
        if view["turned"]:
            shown.add(view["turned"])
        return shown
    if msg["t"] != "event":
        return set()
    d = msg["d"]
    kind = d["kind"]
    if kind in ("dealt", "completed"):
        return set(d["cards"] or []) if d["seat"] == "S" else set()
    if kind in ("card", "belote", "turned"):
        return {d["card"]}
    if kind == "declared":
        return set(d["cards"])
    if kind == "shown":
        return {c for _, _, cards in d["declarations"] for c in cards}
    return set()


def _hidden_now(live: LiveServer, table_id: str) -> set[str]:
    """Cards South cannot know now, from the server's state."""
    game = live.manager._tables[table_id].game
    state = game.state
    assert state is not None
    mask = 0
    for seat in state.seats:
        if seat != Seat.S:
            mask |= state.hands[seat]
    dealt = state.played
    for seat in state.seats:
        dealt |= state.hands[seat]
    pack = 0
    for c in state.pack:
        pack |= 1 << c
    mask |= pack & ~dealt  # still in the pack
    if state.turned is not None:
        mask &= ~(1 << state.turned)
    # the winning side's declarations once shown (FFB 8.3), South's own
    mask &= ~public_declaration_cards(state)
    for s, decls in state.declared:
        if s == Seat.S:
            for d in decls:
                mask &= ~d.cards
    return {card_name(c) for c in cards_of(mask)}


@pytest.mark.parametrize(
    ("preset", "target"),
    [
        ("ffb", 500),
        ("seed000", 300),
        ("seed001", 300),
        ("seed003", 300),
        ("coinche", 300),
        ("three-players", 300),
        ("two-players", 300),
    ],
)
def test_no_hidden_card_reaches_the_player(server: LiveServer, preset: str, target: int) -> None:
    created = server.create(
        preset=preset, target=target, options={"speed": "instant", "auto_play_forced": False}
    )
    table_id = created["table_id"]
    rng = random.Random(21)
    known: set[str] = set()
    deal_key: tuple[int, int] | None = None
    this_deal: list[Message] = []
    checks = 0
    hidden_seen = 0
    with server.connect(table_id, created["token"]) as client:
        while True:
            msg = client.recv()
            if msg["t"] == "snapshot":
                key = (msg["d"]["match"]["number"], msg["d"]["match"]["deal"])
            elif msg["t"] == "event":
                key = (msg["d"]["match"], msg["d"]["deal"])
            else:
                key = deal_key or (0, 0)
            if key != deal_key:
                deal_key, known, this_deal = key, set(), []
            this_deal.append(msg)
            known |= _reveals(msg)
            named = _cards(_without_names(msg))
            assert named <= known, f"{sorted(named - known)} named before shown: {msg}"
            turn = client.turn
            if not Client._decides(client, "S") or turn is None:
                continue
            if turn["waiting"] == "rematch":
                break
            if turn["waiting"] == "action":
                hidden = _hidden_now(server, table_id)
                hidden_seen += len(hidden)
                for seen in this_deal:
                    leaked = _cards(_without_names(seen)) & hidden
                    assert not leaked, f"hidden {sorted(leaked)} in {seen}"
                checks += 1
                action = rng.choice(turn["legal"])
                belote = rng.random() < 0.5 if action in turn["belote_choice"] else None
                client.act(action, belote)
            else:
                client.act("next")
            client.turn = None
    assert checks >= 5 and hidden_seen > 0
