"""The computer levels a lobby table may seat (every level of
``rebelote.bots.make_bot`` but the benchmark's ``expert-bidder``, expert
included), and chat mutes: a player's own, stored and told on each
connection, kept across his reconnections and a restart of the server,
undone, refused for his own seat or a seat the table lacks, and dropped
when his seat (or the muted one) changes hands."""

from __future__ import annotations

import re
from typing import Any, get_args

from rebelote import bots
from rebelote.server.app import WEB_DIR
from rebelote.server.people.ratings import BOT_RATINGS
from rebelote.server.protocol.messages import BOT_LEVELS, BotLevel

from .live import Client, LiveServer, Message
from .net import Player


def test_the_tables_levels_are_the_bots_levels_but_the_benchmark_variant() -> None:
    assert BOT_LEVELS == ("random", "beginner", "intermediate", "expert")
    assert tuple(level for level in bots.BOT_LEVELS if level != "expert-bidder") == BOT_LEVELS
    assert get_args(BotLevel) == BOT_LEVELS
    for level in BOT_LEVELS:
        assert bots.make_bot(level).level == level
    assert set(BOT_RATINGS) == set(BOT_LEVELS)
    assert BOT_RATINGS["expert"][0] > BOT_RATINGS["intermediate"][0]
    # the lobby page offers exactly these levels
    lobby = (WEB_DIR / "net" / "lobby.js").read_text(encoding="utf-8")
    found = re.search(r"export const LEVELS = \[([^\]]*)\]", lobby)
    assert found is not None
    assert tuple(re.findall(r"'([\w-]+)'", found.group(1))) == BOT_LEVELS


def _seats(room: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {s["seat"]: (s["kind"], s["level"]) for s in room["seats"]}


def test_a_host_seats_expert_computer_players(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    tid = host.open_table(preset="ffb", name="experts")["table_id"]
    host.ok(f"/api/lobby/tables/{tid}/bot", {"seat": "N", "level": "expert"})
    room = host.http.get(f"/api/lobby/tables/{tid}").json()
    assert _seats(room)["N"] == ("bot", "expert")
    r = host.post(f"/api/lobby/tables/{tid}/bot", {"seat": "W", "level": "expert-bidder"})
    assert r.status_code == 422  # a benchmark variant, not a level to play against
    r = host.post(f"/api/lobby/tables/{tid}/fill", {"level": "expert-bidder"})
    assert r.status_code == 422
    host.ok(f"/api/lobby/tables/{tid}/fill", {"level": "expert"})
    room = host.http.get(f"/api/lobby/tables/{tid}").json()
    assert _seats(room) == {
        "N": ("bot", "expert"),
        "W": ("bot", "expert"),
        "S": ("human", None),
        "E": ("bot", "expert"),
    }
    # a solo table may seat the expert too
    created = server.create(levels={"N": "expert", "W": "beginner", "E": "random"})
    with server.http() as client:
        table = client.get(f"/api/tables/{created['table_id']}").json()
    assert {s["seat"]: s["level"] for s in table["seats"]}["N"] == "expert"
    host.close()


def _wait(client: Client, kind: str, pred: Any = None) -> Message:
    return client.recv_until(lambda m: m["t"] == kind and (pred is None or pred(m)))


def test_mutes_are_the_players_and_survive_a_reconnection(server: LiveServer) -> None:
    ana = Player(server).guest("Ana")
    tid = ana.open_table(preset="ffb", name="chat")["table_id"]
    bob = Player(server).guest("Bob")
    bob.join(tid, "N")
    a, b = ana.connect(tid), bob.connect(tid)
    _wait(a, "chat_history")
    _wait(b, "chat_history")
    a.send("mute", {"seat": "N"})
    assert _wait(a, "muted")["d"]["seats"] == ["N"]
    b.send("chat", {"text": "Ana does not read this"})
    _wait(b, "chat", lambda m: m["d"]["text"] == "Ana does not read this")
    a.close()
    # Ana comes back: she still mutes Bob, is told so, and his line is left out
    a = ana.connect(tid)
    history = _wait(a, "chat_history")["d"]["lines"]
    assert history == []
    assert _wait(a, "muted")["d"]["seats"] == ["N"]
    # Bob leaves before the start, Cleo takes his seat: Ana does not mute her
    b.close()
    bob.ok(f"/api/lobby/tables/{tid}/leave")
    cleo = Player(server).guest("Cleo")
    cleo.join(tid, "N")
    c = cleo.connect(tid)
    _wait(c, "chat_history")
    c.send("chat", {"text": "bonjour Ana"})
    line = _wait(a, "chat", lambda m: m["d"]["text"] == "bonjour Ana")
    assert line["d"]["seat"] == "N" and line["d"]["name"] == "Cleo"
    a.close()
    c.close()
    # chat lines are stored by seat: with the mute gone, Bob's old line at N
    # is in Ana's history again (docs/protocol.md says so)
    a = ana.connect(tid)
    history = _wait(a, "chat_history")["d"]["lines"]
    assert [x["text"] for x in history] == ["Ana does not read this", "bonjour Ana"]
    a.close()
    for p in (ana, bob, cleo):
        p.close()


def _texts_until(client: Client, marker: str) -> list[str]:
    """The chat lines this client reads up to ``marker``'s (included)."""
    texts: list[str] = []
    while not texts or texts[-1] != marker:
        texts.append(_wait(client, "chat")["d"]["text"])
    return texts


def test_mutes_are_stored_told_on_connection_and_undone(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        ana = Player(live).guest("Ana")
        table_id = ana.open_table(name="chat")["table_id"]
        bob = Player(live).guest("Bob")
        bob.join(table_id, "N")
        a, b = ana.connect(table_id), bob.connect(table_id)
        _wait(a, "chat_history")
        _wait(b, "chat_history")
        a.send("mute", {"seat": "E"})
        assert _wait(a, "muted")["d"] == {"seats": ["E"]}
        a.send("mute", {"seat": "N", "muted": True})
        assert _wait(a, "muted")["d"] == {"seats": ["E", "N"]}
        a.send("mute", {"seat": "E", "muted": False})
        assert _wait(a, "muted")["d"] == {"seats": ["N"]}
        assert ana.user is not None
        assert live.app.state.store.mutes(table_id) == [(ana.user["id"], "N")]
        b.send("chat", {"text": "before the restart"})
        _wait(b, "chat", lambda m: m["d"]["text"] == "before the restart")
        a.close()
        b.close()
    finally:
        live.stop()
    live = LiveServer(db_url).start()
    try:
        # the server restarted: Ana still mutes Bob, and is told so
        a = live.connect(table_id, ana.token)
        assert _wait(a, "chat_history")["d"]["lines"] == []
        assert _wait(a, "muted")["d"] == {"seats": ["N"]}
        b = live.connect(table_id, bob.token)
        _wait(b, "chat_history")
        b.send("chat", {"text": "hidden"})
        _wait(b, "chat", lambda m: m["d"]["text"] == "hidden")
        a.send("chat", {"text": "marker"})
        assert _texts_until(a, "marker") == ["marker"]
        # she unmutes him: his next line reaches her, and the row is gone
        a.send("mute", {"seat": "N", "muted": False})
        assert _wait(a, "muted")["d"] == {"seats": []}
        assert live.app.state.store.mutes(table_id) == []
        b.send("chat", {"text": "visible"})
        assert _texts_until(a, "visible") == ["visible"]
        # refusals: oneself, a seat not at the table (three players: no N)
        a.send("mute", {"seat": "S"})
        assert a.error()["code"] == "bad_message"
        a.close()
        b.close()
        host = Player(live).guest("Tri")
        three = host.open_table(preset="three-players", seat="S")["table_id"]
        c = host.connect(three)
        _wait(c, "chat_history")
        c.send("mute", {"seat": "N"})
        err = c.error()
        assert (err["code"], err["message"]) == ("bad_message", "no seat N at this table")
        c.close()
        for p in (ana, bob, host):
            p.close()
    finally:
        live.stop()


def test_stored_mutes_go_when_a_seat_changes_hands(server: LiveServer) -> None:
    ana = Player(server).guest("Ana")
    table_id = ana.open_table(name="chat")["table_id"]
    bob, cy = Player(server).guest("Bob"), Player(server).guest("Cy")
    bob.join(table_id, "N")
    cy.join(table_id, "W")
    a, b = ana.connect(table_id), bob.connect(table_id)
    _wait(a, "chat_history")
    _wait(b, "chat_history")
    a.send("mute", {"seat": "N"})
    _wait(a, "muted")
    a.send("mute", {"seat": "W"})
    _wait(a, "muted")
    b.send("mute", {"seat": "S"})
    _wait(b, "muted")
    b.send("mute", {"seat": "W"})
    _wait(b, "muted")
    store = server.app.state.store
    assert ana.user is not None and bob.user is not None
    ids = {ana.user["id"]: "ana", bob.user["id"]: "bob"}
    assert sorted((ids[u], s) for u, s in store.mutes(table_id)) == [
        ("ana", "N"),
        ("ana", "W"),
        ("bob", "S"),
        ("bob", "W"),
    ]
    # Bob leaves: his mutes go, and nobody mutes his seat any longer
    bob.ok(f"/api/lobby/tables/{table_id}/leave")
    assert sorted((ids[u], s) for u, s in store.mutes(table_id)) == [("ana", "W")]
    a.close()
    b.close()
    for p in (ana, bob, cy):
        p.close()
