"""A table's log and the rules core's records are one format: a deal's
``deal`` entry and ``act`` entries are its record of format 2
(:mod:`rebelote.record`), and the record export is sliced from the log.
Logs written before the one notation (``{"action": "QH", "belote": true}``)
still load and export the same records."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from rebelote.actions import Play
from rebelote.cards import parse_card
from rebelote.record import deal_summary, replay, replay_deal
from rebelote.rules import preset
from rebelote.seats import SEATS_4, Seat, previous_seat
from rebelote.server.protocol.messages import TableOptions
from rebelote.server.storage.log_entries import StoredEvent
from rebelote.server.storage.tables import StoredSeat, StoredTable
from rebelote.server.tables.game import Entry, SeatSpec, TableGame
from rebelote.server.tables.history import deal_logs, deal_record, match_record, shown_deals
from rebelote.server.tables.table import game_from_stored, stored_event

from .live import LiveServer


def _played(name: str, seed: int, *, deals: int) -> StoredTable:
    """The log of a table of four humans playing ``deals`` deals of the
    rules ``name`` at random (the cut and the dealer's pattern are made for
    them), as stored."""
    rules = preset(name)
    specs = {s: SeatSpec(s, "human", s.name) for s in SEATS_4}
    game = TableGame("t", rules, TableOptions(), seed, specs)
    rng = random.Random(seed)
    stored: list[StoredEvent] = []

    def apply(entries: list[Entry]) -> None:
        for entry in entries:
            game.apply(entry)
            stored.append(stored_event(entry, len(stored), game.deal_number))

    apply(game.start_entries())
    while game.match is not None and not game.match.is_over:
        step = game.pending()
        if step is not None:
            apply(game.automatic_entry(step))
            continue
        if game.waiting == "next":
            if game.deal_number == deals:
                break
            for seat in game.humans:
                apply(game.request(seat, "next", None))
            continue
        state = game.state
        assert state is not None and state.current is not None
        seat = state.current
        turn = game.turn(seat)
        action = rng.choice(turn.legal)
        belote = rng.random() < 0.5 if action in turn.belote_choice else None
        apply(game.request(seat, action, belote))
    return StoredTable(
        id="t",
        rules=rules.to_record(),
        options={},
        seed=seed,
        status="playing",
        seats=tuple(StoredSeat(s.letter, "human", s.name, None, None) for s in SEATS_4),
        events=tuple(stored),
    )


def _old_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """An ``act`` payload as logs stored it before the one notation: the
    card's name, and beside it ``belote`` (false where the player chose not
    to say it, true for every other card, null for other actions)."""
    words = payload["action"].split()
    old = {k: v for k, v in payload.items() if k != "action"}
    try:
        parse_card(words[0])
    except ValueError:
        return {"action": payload["action"], "belote": None, **old}
    return {"action": words[0], "belote": words[1:] != ["no-belote"], **old}


def _old_log(stored: StoredTable) -> StoredTable:
    events = tuple(
        dataclasses.replace(e, payload=_old_payload(e.payload)) if e.kind == "act" else e
        for e in stored.events
    )
    return dataclasses.replace(stored, events=events)


def _acts(stored: StoredTable, match: int, deal: int) -> list[dict[str, Any]]:
    return [
        {"seat": e.seat, "action": e.payload["action"]}
        for e in deal_logs(stored)[(match, deal)].acts
    ]


def test_a_deal_record_is_its_log() -> None:
    """seed001 (belote must be said): the record of each deal played is its
    ``deal`` entry (dealer, pack, fair proof) and its ``act`` entries' seats and texts,
    word for word, the belote words included; it replays to the deal the
    table played."""
    stored = _played("seed001", 1, deals=6)
    shown = shown_deals(stored)
    assert len(shown) >= 3
    starts = [e for e in stored.events if e.kind == "deal"]
    words = []
    for match, deal, state in shown:
        record = deal_record(stored, match, deal)
        start = starts[deal - 1]
        assert record == {
            "format": 2,
            "rules": "seed001",
            "dealer": start.payload["dealer"],
            "pack": start.payload["pack"],
            "actions": _acts(stored, match, deal),
            # the server cut and chose the pattern (the seed's: rebelote verify)
            "fair": {**start.payload["fair"], "cut": "server", "pattern": "server"},
        }
        # the cutter (the dealer's left) cuts first
        cutter = previous_seat(Seat[start.payload["dealer"]], 4).letter
        assert record["actions"][0]["seat"] == cutter
        assert record["actions"][0]["action"].startswith("cut ")
        assert replay(record) == deal_summary(state)
        assert replay_deal(record).state.tricks == state.tricks
        words += [a["action"] for a in record["actions"] if a["action"].endswith("belote")]
    assert words  # some card said (or did not say) belote in the one notation
    matched = match_record(stored, 1)
    assert matched is not None
    assert matched["format"] == 2 and matched["rules"] == "seed001"
    assert [d["actions"] for d in matched["deals"]] == [_acts(stored, 1, d) for _, d, _ in shown]
    assert all("format" not in d and "rules" not in d for d in matched["deals"])
    summary = replay(matched)
    assert [d["score"] for d in summary["deals"]] == [deal_summary(s)["score"] for _, _, s in shown]


def test_a_log_of_the_old_shape_loads_and_exports_the_same_records() -> None:
    """A log stored before the one notation (``{"action": "QH", "belote":
    false, "by": ...}``) replays to the same table, message for message, and
    its records are the same, written in the one notation."""
    stored = _played("seed001", 1, deals=6)
    old = _old_log(stored)
    payloads = [e.payload for e in old.events if e.kind == "act"]
    assert {"action", "belote", "by"} == set(payloads[0])
    assert any(p["belote"] is False for p in payloads)  # a belote not said
    assert payloads != [e.payload for e in stored.events if e.kind == "act"]
    game, messages = game_from_stored(stored)
    old_game, old_messages = game_from_stored(old)
    assert old_messages == messages
    assert old_game.versions == game.versions
    for seat in SEATS_4:
        assert old_game.snapshot(seat) == game.snapshot(seat)
    for match, deal, _ in shown_deals(stored):
        assert deal_record(old, match, deal) == deal_record(stored, match, deal)
    assert match_record(old, 1) == match_record(stored, 1)


def test_a_new_act_entry_holds_the_one_text_form() -> None:
    """``act`` payloads: ``{"action": text, "by": ...}``; a card whose
    belote the player chose holds its word."""
    stored = _played("seed001", 1, deals=6)
    acts = [e for e in stored.events if e.kind == "act"]
    assert all(set(e.payload) == {"action", "by"} for e in acts)
    texts = {e.payload["action"] for e in acts}
    said = {t for t in texts if t.endswith(" belote") or t.endswith(" no-belote")}
    assert said
    for text in said:
        card = Play.parse(text)
        assert card.belote is not None and card.text == text


def test_the_record_endpoint_gives_the_log(server: LiveServer) -> None:
    """``GET /api/tables/{id}/record`` of a played deal: format 2, its
    actions the log's ``act`` entries of that deal (seat and text)."""
    created = server.create(preset="seed001", options={"speed": "instant"})
    table_id, token = created["table_id"], created["token"]
    with server.connect(table_id, token) as client:
        while not any(e["kind"] == "deal_end" for e in client.events):
            turn = client.my_decision()
            if turn["waiting"] != "action":
                break
            takes = [a for a in turn["legal"] if a != "pass"]  # South takes: the deal is played
            action = takes[0] if takes else "pass"
            client.act(action, False if action in turn["belote_choice"] else None)
            client.turn = None
        ends = [e for e in client.events if e["kind"] == "deal_end"]
    assert ends and ends[0]["summary"]["result"] not in ("passed", "cancelled")
    with server.http() as http:
        record = http.get(
            f"/api/tables/{table_id}/record", params={"token": token, "match": 1, "deal": 1}
        ).json()
        matched = http.get(
            f"/api/tables/{table_id}/record", params={"token": token, "match": 1}
        ).json()
    stored = server.app.state.store.load(table_id)
    assert stored is not None
    start = next(e for e in stored.events if e.kind == "deal")
    acts = [e for e in stored.events if e.kind == "act" and e.deal == 1]
    assert record["format"] == 2 and record["rules"] == "seed001"
    assert (record["dealer"], record["pack"]) == (start.payload["dealer"], start.payload["pack"])
    assert record["actions"] == [{"seat": e.seat, "action": e.payload["action"]} for e in acts]
    assert record["actions"][0]["action"].startswith("cut ")
    assert matched == {
        "format": 2,
        "rules": "seed001",
        "deals": [{k: v for k, v in record.items() if k not in ("format", "rules")}],
    }
    summary = replay(record)
    assert summary["score"] == ends[0]["summary"]["score"]
    assert summary["tricks"] == ends[0]["summary"]["tricks"]
