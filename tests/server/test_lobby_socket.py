"""The lobby socket (``/ws/lobby``): the public list pushed as it changes,
a waiting room followed (private ones with their code or to their
players), presence in the waiting room, the host who leaves or closes his
page before the start, the errors of a person in words' codes; SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import time
from typing import Any

from pydantic import BaseModel
from websockets.sync.client import ClientConnection, connect

from rebelote.server.protocol.messages import (
    ErrorData,
    LobbyList,
    RoomData,
    SeatedRoom,
    TableGone,
    WaitingRoom,
)

from .live import TEST_SETTINGS, LiveServer
from .net import Player, seat_of

Message = dict[str, Any]

MODELS: dict[str, type[BaseModel]] = {
    "lobby": LobbyList,
    "table": RoomData,
    "table_gone": TableGone,
    "waiting": WaitingRoom,
    "seated": SeatedRoom,
}


class LobbyClient:
    """A lobby socket, with the session cookie of ``player`` when given."""

    def __init__(self, live: LiveServer, player: Player | None = None) -> None:
        headers = {}
        if player is not None:
            cookie = player.http.cookies.get("rebelote_session")
            assert cookie
            headers["Cookie"] = f"rebelote_session={cookie}"
        self.ws: ClientConnection = connect(
            f"{live.ws_url}/ws/lobby", additional_headers=headers, close_timeout=2
        ).__enter__()

    def close(self) -> None:
        self.ws.close()

    def send(self, t: str, d: Any = None) -> None:
        self.ws.send(json.dumps({"t": t, "d": d}))

    def recv(self, timeout: float = 10) -> Message:
        msg: Message = json.loads(self.ws.recv(timeout=timeout))
        model = MODELS.get(msg["t"])
        if model is not None:
            model.model_validate(msg["d"])  # every message fits its model
        elif msg["t"] == "error":
            ErrorData.model_validate(msg["d"])
        else:
            assert msg == {"t": "pong", "d": {}, "v": None}, msg
        assert msg["v"] is None
        return msg

    def until(self, t: str, pred: Any = None, timeout: float = 10) -> Message:
        """The next message of type ``t`` (for which ``pred(d)``)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if msg["t"] == t and (pred is None or pred(msg["d"])):
                return msg

    def quiet(self, wait: float = 0.3) -> list[Message]:
        """Every message that comes within ``wait`` seconds."""
        got = []
        try:
            while True:
                got.append(self.recv(timeout=wait))
        except TimeoutError:
            return got


def test_the_public_list_is_pushed(server: LiveServer) -> None:
    ada, bob = Player(server).guest("Ada"), Player(server).guest("Bob")
    first = ada.open_table(name="before", preset="ffb")
    watcher = LobbyClient(server)
    snap = watcher.recv()
    assert snap["t"] == "lobby"
    assert [t["id"] for t in snap["d"]["tables"]] == [first["table_id"]]
    entry = snap["d"]["tables"][0]
    assert entry["invite"] is None and entry["status"] == "open" and entry["name"] == "before"
    # a private table is never pushed; a public one is, at once
    bob.open_table(name="secret", visibility="private")
    made = bob.open_table(name="Chez Bob", preset="coinche", seat="N")
    msg = watcher.recv()
    assert msg["t"] == "table" and msg["d"]["id"] == made["table_id"]
    assert msg["d"]["name"] == "Chez Bob" and msg["d"]["rules"]["preset"] == "coinche"
    assert seat_of(msg["d"], "N")["name"] == "Bob" and seat_of(msg["d"], "S")["kind"] == "open"
    # Ada sits at Bob's table too (one seat per table)
    ada.join(made["table_id"], "S")
    msg = watcher.until("table", lambda d: d["id"] == made["table_id"])
    assert seat_of(msg["d"], "S")["name"] == "Ada" and seat_of(msg["d"], "S")["guest"] is True
    # filled and started: still listed, playing
    bob.ok(f"/api/lobby/tables/{made['table_id']}/fill", {"level": "random"})
    bob.ok(f"/api/lobby/tables/{made['table_id']}/start")
    msg = watcher.until("table", lambda d: d["status"] == "playing")
    assert msg["d"]["id"] == made["table_id"]
    assert all(s["countdowns"] == [] for s in msg["d"]["seats"])
    # the last one out of an open table closes it: it leaves the list
    ada.ok(f"/api/lobby/tables/{first['table_id']}/leave")
    gone = watcher.until("table_gone")
    assert gone["d"] == {"id": first["table_id"]}
    # a new socket gets the whole list again (a reconnection resyncs)
    again = LobbyClient(server)
    snap = again.recv()
    assert [t["id"] for t in snap["d"]["tables"]] == [made["table_id"]]
    again.send("ping")
    assert again.recv() == {"t": "pong", "d": {}, "v": None}
    for c in (watcher, again):
        c.close()
    for p in (ada, bob):
        p.close()


def test_a_private_waiting_room_with_its_code_and_presence(server: LiveServer) -> None:
    ada, bob, eve = Player(server).guest("Ada"), Player(server), Player(server).guest("Eve")
    bob.signup("Bob")
    made = ada.open_table(name="entre amis", visibility="private", options={"hold": 5})
    tid, invite = made["table_id"], made["invite"]
    stranger = LobbyClient(server, eve)
    assert stranger.recv()["d"] == {"tables": []}
    stranger.send("watch_room", {"table": tid})
    err = stranger.until("error")
    assert err["d"]["code"] == "table_not_found"
    stranger.send("watch_room", {"table": tid, "invite": "wrong"})
    assert stranger.until("error")["d"]["code"] == "table_not_found"
    stranger.send("watch_room", {"table": "nope"})
    err = stranger.until("error")
    assert (err["d"]["code"], err["d"]["message"]) == ("table_not_found", "no such lobby table")
    stranger.send("watch_room", {"table": tid, "extra": 1})
    assert stranger.until("error")["d"]["code"] == "bad_message"
    stranger.send("join", {"table": tid})
    assert stranger.until("error")["d"]["code"] == "unknown_type"
    # with the code: the room, invitation included; Eve holds no seat
    stranger.send("watch_room", {"table": tid, "invite": invite})
    room = stranger.until("waiting")["d"]
    assert room["you"] is None and room["room"]["invite"] == invite
    assert seat_of(room["room"], "S")["connected"] is False  # Ada's page is not open
    # Ada's waiting room: her seat is connected while she follows it
    host = LobbyClient(server, ada)
    host.recv()
    host.send("watch_room", {"table": tid})  # her own table: no code needed
    mine = host.until("waiting")["d"]
    assert mine["you"] == "S" and mine["room"]["host"] == "S"
    seen = stranger.until("waiting", lambda d: seat_of(d["room"], "S")["connected"])
    assert seen["d"]["room"]["host"] == "S"
    # Bob joins by the code: both pages see him at once; his socket says "you"
    friend = LobbyClient(server, bob)
    friend.recv()
    friend.send("watch_room", {"table": tid, "invite": invite})
    assert friend.until("waiting")["d"]["you"] is None
    bob.join(tid, "N", invite)
    assert friend.until("waiting", lambda d: d["you"] == "N")["d"]["room"]["invite"] == invite
    msg = host.until("waiting", lambda d: seat_of(d["room"], "N")["connected"])
    assert seat_of(msg["d"]["room"], "N")["name"] == "Bob"
    # the host starts: every page of the room learns it
    ada.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    ada.ok(f"/api/lobby/tables/{tid}/start")
    for c, you in ((host, "S"), (friend, "N"), (stranger, None)):
        msg = c.until("waiting", lambda d: d["room"]["status"] == "playing")
        assert msg["d"]["you"] == you
    # a private table is never in the list
    assert LobbyClient(server).recv()["d"] == {"tables": []}
    # stop following: no more rooms
    stranger.send("unwatch_room")
    stranger.quiet(0.2)
    bob.ok(f"/api/lobby/tables/{tid}/leave")
    assert [m for m in stranger.quiet(0.3) if m["t"] == "waiting"] == []
    for c in (stranger, host, friend):
        c.close()
    for p in (ada, bob, eve):
        p.close()


def test_a_host_who_closes_his_page_passes_the_table(server: LiveServer) -> None:
    """Before the start, a host with no connection for ``hold`` seconds
    passes the table to the first connected human; with nobody connected
    the table waits, and the first human back takes it.  A host who leaves
    alone closes the table, which his visitors see."""
    ada, bob, cy = Player(server).guest("Ada"), Player(server).guest("Bob"), Player(server)
    cy.guest("Cy")
    tid = ada.open_table(name="passe", options={"hold": 0.5})["table_id"]
    bob.join(tid, "W")
    cy.join(tid, "N")
    pages = {}
    for name, p in (("ada", ada), ("bob", bob), ("cy", cy)):
        pages[name] = LobbyClient(server, p)
        pages[name].recv()
        pages[name].send("watch_room", {"table": tid})
        pages[name].until("waiting")
    # Ada closes her page: a countdown, then the first connected human in
    # seat order (N before W) hosts the table
    pages.pop("ada").close()
    msg = pages["bob"].until("waiting", lambda d: seat_of(d["room"], "S")["countdowns"])
    (countdown,) = seat_of(msg["d"]["room"], "S")["countdowns"]
    assert countdown["reason"] == "host" and 0 < countdown["seconds"] <= 0.5
    msg = pages["bob"].until("waiting", lambda d: d["room"]["host"] != "S", timeout=10)
    assert msg["d"]["room"]["host"] == "N"
    assert seat_of(msg["d"]["room"], "S")["countdowns"] == []
    stored = bob.http.get(f"/api/lobby/tables/{tid}").json()
    assert stored["host"] == "N"
    # Cy closes his page too, then Bob: nobody connected, the table waits
    pages.pop("cy").close()
    pages["bob"].until("waiting", lambda d: seat_of(d["room"], "N")["countdowns"])
    pages.pop("bob").close()
    time.sleep(1.0)
    assert bob.http.get(f"/api/lobby/tables/{tid}").json()["host"] == "N"
    # Ada is back first: the table is hers again
    back = LobbyClient(server, ada)
    back.recv()
    back.send("watch_room", {"table": tid})
    msg = back.until("waiting", lambda d: d["room"]["host"] == "S")
    assert msg["d"]["you"] == "S"
    # everyone leaves; the last one out closes it, and a visitor sees it closed
    visitor = LobbyClient(server)
    visitor.recv()
    visitor.send("watch_room", {"table": tid})
    visitor.until("waiting")
    for p in (bob, cy, ada):
        p.ok(f"/api/lobby/tables/{tid}/leave")
    msg = visitor.until("waiting", lambda d: d["room"]["status"] == "closed")
    assert msg["d"]["room"]["host"] is None
    assert all(s["kind"] == "open" for s in msg["d"]["room"]["seats"])
    r = ada.post(f"/api/lobby/tables/{tid}/join", {"seat": "S"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "table_closed"
    for c in (back, visitor):
        c.close()
    for p in (ada, bob, cy):
        p.close()


def test_the_codes_a_person_meets_in_the_waiting_room(server: LiveServer) -> None:
    ada, bob = Player(server).guest("Ada"), Player(server).guest("Bob")
    tid = ada.open_table(name="codes")["table_id"]
    r = bob.post(f"/api/lobby/tables/{tid}/leave")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "no_seat"
    r = bob.post(f"/api/lobby/tables/{tid}/token")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "no_seat"
    r = ada.post(f"/api/lobby/tables/{tid}/start")
    assert r.status_code == 409
    assert r.json()["detail"] == {
        "code": "seats_empty",
        "message": "seats N W E are empty: fill them first",
    }
    ada.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    ada.ok(f"/api/lobby/tables/{tid}/start")
    r = bob.post(f"/api/lobby/tables/{tid}/join", {"seat": "N"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_open"
    ranked = Player(server)
    ranked.signup("Carla")
    rid = ranked.open_table(name="classée", ranked=True)["table_id"]
    r = bob.post(f"/api/lobby/tables/{rid}/join", {"seat": "N"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "account_required"
    for p in (ada, bob, ranked):
        p.close()


def test_any_lobby_page_keeps_a_waiting_seat_connected_until_the_start(
    server: LiveServer,
) -> None:
    ada, bob = Player(server).guest("Ada"), Player(server).guest("Bob")
    tid = ada.open_table(name="présence", options={"hold": 30})["table_id"]
    bob.join(tid, "N")
    room = bob.http.get(f"/api/lobby/tables/{tid}").json()
    assert [seat_of(room, s)["connected"] for s in "SN"] == [False, False]
    page = LobbyClient(server, ada)  # the lobby list, no room followed
    page.recv()
    room = bob.http.get(f"/api/lobby/tables/{tid}").json()
    assert [seat_of(room, s)["connected"] for s in "SN"] == [True, False]
    assert seat_of(room, "S")["countdowns"] == []
    # the start: from now on only a table socket is a presence
    ada.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    ada.ok(f"/api/lobby/tables/{tid}/start")
    room = bob.http.get(f"/api/lobby/tables/{tid}").json()
    south = seat_of(room, "S")
    assert room["status"] == "playing" and south["connected"] is False
    assert sorted(c["reason"] for c in south["countdowns"]) == ["hold", "leave"]
    page.close()
    for p in (ada, bob):
        p.close()


def test_a_player_is_told_of_his_own_tables(server: LiveServer) -> None:
    """``seated``: each lobby table where the socket's player holds a seat,
    private ones too, on connection and at each change of its status or of
    his seat (null once he holds none); nobody else hears of it."""
    ada, bob, eve = (Player(server).guest(n) for n in ("Ada", "Bob", "Eve"))
    made = ada.open_table(name="chez Ada", visibility="private")
    tid = made["table_id"]
    bob.join(tid, "N", made["invite"])
    other = eve.open_table(name="chez Eve")["table_id"]
    bob.join(other, "N")
    pages = {name: LobbyClient(server, p) for name, p in (("ada", ada), ("bob", bob))}
    stranger = LobbyClient(server, eve)
    nobody = LobbyClient(server)
    for c in (*pages.values(), stranger, nobody):
        assert c.recv()["t"] == "lobby"

    def told(c: LobbyClient) -> list[tuple[str, str, str | None]]:
        return [
            (m["d"]["room"]["id"], m["d"]["room"]["status"], m["d"]["you"])
            for m in c.quiet()
            if m["t"] == "seated"
        ]

    assert told(pages["ada"]) == [(tid, "open", "S")]
    assert sorted(told(pages["bob"])) == sorted([(tid, "open", "N"), (other, "open", "N")])
    assert told(stranger) == [(other, "open", "S")]
    # Bob leaves Eve's table before its start: told once, seat null
    bob.ok(f"/api/lobby/tables/{other}/leave")
    assert told(pages["bob"]) == [(other, "open", None)]
    # the private table starts: both players, once; the room as the list has it
    ada.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
    ada.ok(f"/api/lobby/tables/{tid}/start")
    msg = pages["ada"].until("seated")
    room = msg["d"]["room"]
    assert (room["id"], room["status"], room["visibility"], msg["d"]["you"]) == (
        tid,
        "playing",
        "private",
        "S",
    )
    assert room["invite"] is None and all(s["countdowns"] == [] for s in room["seats"])
    assert told(pages["bob"]) == [(tid, "playing", "N")]
    assert told(pages["ada"]) == []  # presence and countdowns change: nothing more
    # Eve heard nothing of Ada's table, a page not logged in nothing at all
    assert told(stranger) == []
    assert [m for m in nobody.quiet() if m["t"] == "seated"] == []
    # a new socket is told again of the table playing
    again = LobbyClient(server, bob)
    assert again.recv()["t"] == "lobby"
    assert told(again) == [(tid, "playing", "N")]
    for c in (*pages.values(), stranger, nobody, again):
        c.close()
    for p in (ada, bob, eve):
        p.close()


def test_a_deserted_waiting_room_leaves_the_list_until_one_of_its_people_is_back(
    db_url: str,
) -> None:
    """An open public table none of whose humans has had a connection for
    ``deserted_table_seconds`` is no longer listed (``table_gone``, not in
    a new socket's list nor in ``GET /api/lobby``); it comes back
    (``table``) when one of them opens a lobby page again."""
    settings = TEST_SETTINGS.but(deserted_table_seconds=0.6)

    def listed(server: LiveServer) -> list[str]:
        page = LobbyClient(server)
        ids = [t["id"] for t in page.recv()["d"]["tables"]]
        page.close()
        return ids

    with LiveServer(db_url, settings=settings) as server:
        ada, bob = Player(server).guest("Ada"), Player(server).guest("Bob")
        tid = ada.open_table(name="abandonnée", options={"hold": 30})["table_id"]
        bob.join(tid, "N")
        watcher = LobbyClient(server)
        assert [t["id"] for t in watcher.recv()["d"]["tables"]] == [tid]
        ada_page = LobbyClient(server, ada)  # Ada's lobby page keeps her seat
        ada_page.recv()
        time.sleep(1.0)  # longer than the setting: Ada is connected, still listed
        assert listed(server) == [tid]
        assert [t["id"] for t in ada.http.get("/api/lobby").json()] == [tid]
        # Ada closes her page: nobody of the table is connected
        ada_page.close()
        gone = watcher.until("table_gone", timeout=5)
        assert gone["d"] == {"id": tid}
        assert listed(server) == []
        assert ada.http.get("/api/lobby").json() == []
        # the table itself is still there, open, with its people
        room = bob.http.get(f"/api/lobby/tables/{tid}").json()
        assert room["status"] == "open" and seat_of(room, "N")["name"] == "Bob"
        # Bob opens the lobby again: the table is listed again, at once
        bob_page = LobbyClient(server, bob)
        bob_page.recv()
        back = watcher.until("table", lambda d: d["id"] == tid)
        assert back["d"]["status"] == "open" and seat_of(back["d"], "N")["connected"] is True
        assert listed(server) == [tid]
        for c in (watcher, bob_page):
            c.close()
        for p in (ada, bob):
            p.close()
