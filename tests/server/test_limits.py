"""Limits against abuse (issue 13, item 4): sizes refused before parsing,
timeouts on slow or silent clients, creations throttled per address,
idle tables out of memory, spectators' comings and goings batched.

Each limit is a setting (:class:`~rebelote.server.settings.ServerSettings`);
the throttles are checked with their defaults, the timeouts with short
ones."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from rebelote.seats import Seat
from rebelote.server.api.guard import Guard
from rebelote.server.broker.hub import MemoryHub
from rebelote.server.protocol.messages import ProtocolError, TableOptions
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, StoredSeat
from rebelote.server.tables.registry import TableManager

from .live import LiveServer
from .net import Player, lobby_table

DEFAULTS = ServerSettings()

FAST = ServerSettings(
    header_timeout=0.3,
    body_timeout=0.3,
    hello_timeout=0.3,
    signup_rate="1000/minute",
    guest_rate="1000/minute",
    solo_table_rate="1000/minute",
    lobby_table_rate="1000/minute",
    table_address_rate="1000/minute",
    global_signup_rate="1000/minute",
    replay_rate="1000/minute",
    socket_connect_rate="100000/minute",
)
"""Short timeouts (the throttles out of the way)."""


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with the default limits (SQLite)."""
    with LiveServer(f"sqlite:///{tmp_path / 'strict.db'}", settings=DEFAULTS) as live:
        yield live


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with short timeouts (SQLite)."""
    with LiveServer(f"sqlite:///{tmp_path / 'fast.db'}", settings=FAST) as live:
        yield live


def _raw(live: LiveServer) -> socket.socket:
    host, port = live.url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def _read_all(sock: socket.socket, timeout: float = 10) -> bytes:
    """Everything the server sends until it closes (or ``timeout``)."""
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail: dict[str, Any] = r.json()["detail"]
    return detail


# ------------------------------------------------------------------ sizes


def test_a_body_announced_too_large_is_refused_before_it_is_sent(strict: LiveServer) -> None:
    sock = _raw(strict)
    sock.sendall(
        b"POST /api/auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 104857600\r\n\r\n"
    )
    answer = _read_all(sock)
    sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    assert json.loads(body) == {
        "detail": {
            "code": "too_large",
            "message": f"the body is over {DEFAULTS.max_body_bytes} bytes",
            "limit": DEFAULTS.max_body_bytes,
        }
    }


def test_a_streamed_body_is_cut_off_at_the_limit(strict: LiveServer) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        for _ in range(100):  # 10 MB if it were all read
            sent += 100_000
            yield b"[" + b"0," * 49_999 + b"0]"

    with strict.http() as client:
        try:
            r = client.post(
                "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
            )
        except httpx.TransportError:  # the server may close while the client still sends
            pytest.fail("the server closed without answering 413")
    assert r.status_code == 413
    assert _detail(r)["code"] == "too_large"
    assert sent < 100 * 100_000


def test_a_body_under_the_limit_passes(strict: LiveServer) -> None:
    with strict.http() as client:
        r = client.post("/api/tables", json={"name": "x" * 40, "options": {}})
        assert r.status_code == 201


def test_a_long_url_is_refused_at_once_over_http_and_websocket(strict: LiveServer) -> None:
    long_id = "a" * (DEFAULTS.max_url_bytes + 1)
    with strict.http() as client:
        r = client.get(f"/api/tables/{long_id}")
    assert r.status_code == 414
    assert _detail(r) == {"code": "too_long", "message": "the URL is over 8192 bytes"}
    sock = _raw(strict)
    sock.sendall(
        f"GET /ws/{long_id}?watch=1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = _read_all(sock)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 414 ")
    assert b'"too_long"' in answer


def test_a_url_just_under_the_limit_is_answered(strict: LiveServer) -> None:
    table_id = "a" * 4000
    with strict.http() as client:
        r = client.get(f"/api/tables/{table_id}")
    assert r.status_code == 404
    assert _detail(r) == {"code": "table_not_found", "message": "no such table"}


def test_deeply_nested_json_gets_a_clean_error_on_rest_and_websocket(strict: LiveServer) -> None:
    deep = "[" * 5000 + "]" * 5000
    with strict.http() as client:
        for body in (deep, '{"name": ' + deep + "}"):
            r = client.post(
                "/api/tables", content=body, headers={"Content-Type": "application/json"}
            )
            assert r.status_code == 422
            assert _detail(r) == {
                "code": "invalid",
                "message": f"the body nests over {DEFAULTS.max_json_depth} levels",
                "field": None,
            }
        # as deep as allowed (the object and 31 arrays): the model refuses it as usual
        inner = DEFAULTS.max_json_depth - 1
        ok_depth = "[" * inner + "]" * inner
        r = client.post(
            "/api/tables",
            content='{"name": ' + ok_depth + "}",
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 422 and _detail(r)["field"] == "name"
    created = strict.create()
    with strict.connect(created["table_id"], created["token"]) as client:
        client.recv()
        client.send_raw('{"t": "act", "d": ' + "[" * 1500 + "]" * 1500 + "}")
        assert client.error() == {
            "code": "bad_json",
            "message": "nested over 8 levels",
            "legal": None,
        }
        client.send("ping")
        assert client.recv_until(lambda m: m["t"] == "pong")["d"] == {}


# ------------------------------------------------------------------ timeouts


def test_a_silent_connection_is_closed_after_the_header_timeout(fast: LiveServer) -> None:
    sock = _raw(fast)
    assert _read_all(sock, timeout=10) == b""  # closed without a word
    sock.close()


def test_headers_sent_too_slowly_are_cut_off(fast: LiveServer) -> None:
    sock = _raw(fast)
    sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")
    closed = False
    for _ in range(100):  # one header byte every 0.1 s: 10 s if never cut
        try:
            sock.sendall(b"X")
        except OSError:
            closed = True
            break
        sock.settimeout(0.1)
        try:
            if sock.recv(1024) == b"":
                closed = True
                break
        except TimeoutError:
            continue
    sock.close()
    assert closed


def test_a_complete_request_after_a_keep_alive_is_served(fast: LiveServer) -> None:
    with fast.http() as client:
        for _ in range(3):
            assert client.get("/api/presets").status_code == 200


def test_a_body_sent_too_slowly_gets_408(fast: LiveServer) -> None:
    sock = _raw(fast)
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 20\r\n\r\n{"na'
    )
    answer = _read_all(sock)
    sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert json.loads(body)["detail"] == {"code": "timeout", "message": "the body took over 0.3 s"}


def test_a_websocket_without_hello_is_closed(fast: LiveServer) -> None:
    created = fast.create()
    with fast.connect(created["table_id"], None) as client:
        assert client.recv()["d"]["code"] == "not_authenticated"
        with pytest.raises(ConnectionClosed) as closed:
            client.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_a_websocket_with_hello_in_time_plays(fast: LiveServer) -> None:
    created = fast.create()
    with fast.connect(created["table_id"], None) as client:
        client.send("hello", {"token": created["token"]})
        assert client.recv_until(lambda m: m["t"] == "snapshot")["d"]["table"]["you"] == "S"


def test_a_second_hello_with_another_token_is_refused_and_closed(fast: LiveServer) -> None:
    """A socket bound to the seat S: ``hello`` with its own token again
    resumes (a snapshot); with any other token, ``bad_token`` and the
    socket is closed 4403 (it was left open, still S's)."""
    created = fast.create()
    for other in ("made up token", "x" * 40):
        with fast.connect(created["table_id"], None) as client:
            client.send("hello", {"token": created["token"]})
            client.recv_until(lambda m: m["t"] == "snapshot")
            client.send("hello", {"token": created["token"], "last_v": None})
            assert client.recv_until(lambda m: m["t"] == "snapshot")["d"]["table"]["you"] == "S"
            client.send("hello", {"token": other})
            error = client.recv_until(lambda m: m["t"] == "error")
            assert error["d"] == {
                "code": "bad_token",
                "message": "this connection is already bound to another token",
                "legal": None,
            }
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    client.recv(timeout=5)
            rcvd = closed.value.rcvd
            assert rcvd is not None and (rcvd.code, rcvd.reason) == (4403, "bad_token")


# ------------------------------------------------------------------ throttles


def test_the_sixth_signup_from_one_address_is_refused(strict: LiveServer) -> None:
    for i in range(5):
        Player(strict).signup(f"Player {i}", "a fine passphrase").close()
    r = Player(strict).http.post(
        "/api/auth/signup", json={"name": "Player 5", "password": "a fine passphrase"}
    )
    assert r.status_code == 429
    detail = _detail(r)
    assert detail["code"] == "rate_limited"
    assert detail["message"] == "too many (at most 5 per 1 hour): try again later"
    assert 3500 <= detail["retry_after"] <= 3600
    assert r.headers["retry-after"] == str(detail["retry_after"])
    assert strict.app.state.store.user_by_name("Player 5") is None
    # another address is not refused (the proxy's X-Forwarded-For is trusted from 127.0.0.1)
    r = Player(strict).http.post(
        "/api/auth/signup",
        json={"name": "Player 5", "password": "a fine passphrase"},
        headers={"X-Forwarded-For": "203.0.113.9"},
    )
    assert r.status_code == 201


def test_refused_signups_do_not_count(strict: LiveServer) -> None:
    for _ in range(8):
        r = Player(strict).http.post(
            "/api/auth/signup", json={"name": "Weak One", "password": "12345678"}
        )
        assert r.status_code == 400 and _detail(r)["code"] == "weak_password"
    Player(strict).signup("Weak One", "a fine passphrase").close()


def test_the_eleventh_guest_from_one_address_is_refused(strict: LiveServer) -> None:
    for i in range(10):
        Player(strict).guest(f"Guest {i}").close()
    r = Player(strict).http.post("/api/auth/guest", json={"name": "Guest 10"})
    assert r.status_code == 429 and _detail(r)["code"] == "rate_limited"
    assert _detail(r)["message"] == "too many (at most 10 per 1 hour): try again later"


def test_the_eleventh_solo_table_in_a_minute_is_refused(strict: LiveServer) -> None:
    with strict.http() as client:
        for _ in range(10):
            assert client.post("/api/tables", json={}).status_code == 201
        r = client.post("/api/tables", json={})
        assert r.status_code == 429
        assert _detail(r)["message"] == "too many (at most 10 per 1 minute): try again later"
        assert 1 <= _detail(r)["retry_after"] <= 60
        other = client.post("/api/tables", json={}, headers={"X-Forwarded-For": "198.51.100.7"})
        assert other.status_code == 201
    # a logged-in player has an allowance of his own (within his address's)
    p = Player(strict).signup("Solo Player", "a fine passphrase")
    assert p.http.post("/api/tables", json={}).status_code == 201
    p.close()


def test_new_guests_from_one_address_share_its_table_allowance(strict: LiveServer) -> None:
    """Each guest has 10 solo tables a minute, but an address makes at most
    20 tables a minute (solo and lobby), whoever is logged in: a new guest
    (or no login) brings no new allowance."""

    def solo(p: Player) -> httpx.Response:
        return p.http.post("/api/tables", json={})

    anonymous = Player(strict)
    assert [solo(anonymous).status_code for _ in range(11)] == [201] * 10 + [429]
    first = Player(strict).guest("First Guest")
    assert [solo(first).status_code for _ in range(11)] == [201] * 10 + [429]
    second = Player(strict).guest("Second Guest")
    r = solo(second)
    assert r.status_code == 429 and _detail(r)["code"] == "rate_limited"
    r = second.post("/api/lobby/tables", {"visibility": "private"})
    assert r.status_code == 429
    assert _detail(r)["message"] == "too many (at most 20 per 1 minute): try again later"
    assert 1 <= _detail(r)["retry_after"] <= 60
    # the same guest from another address is not refused
    r = second.http.post(
        "/api/lobby/tables",
        json={"visibility": "private"},
        headers={"X-CSRF-Token": second.csrf or "", "X-Forwarded-For": "198.51.100.8"},
    )
    assert r.status_code == 201
    for p in (anonymous, first, second):
        p.close()


def test_lobby_tables_are_throttled_per_player(strict: LiveServer) -> None:
    """5 lobby tables a minute per player, from any address; refused ones
    are not made."""
    host = Player(strict).guest("Busy Host")

    def open_from(i: int) -> httpx.Response:
        return host.http.post(
            "/api/lobby/tables",
            json={"name": f"t{i}", "visibility": "private"},
            headers={"X-CSRF-Token": host.csrf or "", "X-Forwarded-For": f"203.0.113.{i + 1}"},
        )

    answers = [open_from(i) for i in range(7)]
    assert [r.status_code for r in answers] == [201] * 5 + [429] * 2
    assert _detail(answers[5]) == {
        "code": "rate_limited",
        "message": "too many (at most 5 per 1 minute): try again later",
        "retry_after": _detail(answers[5])["retry_after"],
    }
    made = {r.json()["table_id"] for r in answers[:5]}
    assert len(made) == 5
    listed = {t.id for t in strict.manager.live_tables() if t.meta.visibility == "private"}
    assert listed == made
    host.close()


def test_ipv6_clients_are_counted_by_their_64_network(strict: LiveServer) -> None:
    with strict.http() as client:
        for i in range(10):
            r = client.post(
                "/api/tables", json={}, headers={"X-Forwarded-For": f"2001:db8:1:2::{i + 1}"}
            )
            assert r.status_code == 201
        r = client.post("/api/tables", json={}, headers={"X-Forwarded-For": "2001:db8:1:2:ffff::1"})
        assert r.status_code == 429
        r = client.post("/api/tables", json={}, headers={"X-Forwarded-For": "2001:db8:1:3::1"})
        assert r.status_code == 201


# ------------------------------------------------------------------ tables in memory


IDLE = FAST.but(idle_table_seconds=0.2, sweep_seconds=0.1)
"""Tables idle for 0.2 s leave memory (checked every 0.1 s)."""


def _wait(condition: Any, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.02)


def test_an_idle_table_leaves_memory_and_comes_back_when_asked_for(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'idle.db'}", settings=IDLE) as live:
        created = live.create()
        table_id, token = created["table_id"], created["token"]
        with live.connect(table_id, token) as client:
            client.my_decision()
            snap = client.sync()
            v = client.v
            time.sleep(0.5)  # connected: kept, however long
            assert table_id in live.manager._tables
        _wait(lambda: table_id not in live.manager._tables)
        assert live.manager.evicted >= 1
        with live.http() as http:
            assert http.get(f"/api/tables/{table_id}").json()["id"] == table_id
        with live.connect(table_id, token, last_v=v) as client:
            client.v = v
            assert client.sync() == snap
            assert table_id in live.manager._tables


def test_a_table_with_a_clock_running_stays_in_memory(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'clock.db'}", settings=IDLE) as live:
        solo = live.create()["table_id"]
        table_id, players = lobby_table(live, ["Held"], bots="random")
        # Held is not connected: his seat is held (a clock), then stood in for
        _wait(lambda: solo not in live.manager._tables)
        assert table_id in live.manager._tables
        for p in players:
            p.close()


def test_only_the_lobby_tables_in_play_are_rebuilt_at_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'start.db'}"
    with LiveServer(url) as live:
        solo = live.create()["table_id"]
        playing, players = lobby_table(live, ["Starter"], bots="random")
        _waiting, more = lobby_table(live, ["Waiter"], start=False)
        for p in players + more:
            p.close()
    with LiveServer(url) as live:
        assert set(live.manager._tables) == {playing}
        with live.http() as http:
            assert http.get(f"/api/tables/{solo}").status_code == 200
        assert set(live.manager._tables) == {playing, solo}


def test_spectators_coming_and_going_make_one_room_message() -> None:
    async def run() -> tuple[int, int]:
        settings = ServerSettings(presence_interval=0.05)
        store = Store("sqlite://")
        store.migrate()
        hub = MemoryHub()
        manager = TableManager(store, hub, bot_delay=0, seed=1, settings=settings)
        room, _ = await manager.open_table(
            name="watched",
            preset="ffb",
            target=None,
            visibility="public",
            ranked=False,
            seat="S",
            options=TableOptions(),
            user_id=1,
            user_name="Host",
        )
        rooms: list[dict[str, Any]] = []
        hub.subscribe(
            room.id,
            None,
            lambda v, text: None,
            lambda sender, text: rooms.append(json.loads(text)["d"]),
        )
        for _ in range(600):
            room.attach(None)
        for _ in range(250):
            room.detach(None)
        assert rooms == []  # nothing yet: one message for them all, later
        await asyncio.sleep(0.2)
        told = len(rooms)
        count = rooms[-1]["spectators"]
        await manager.close()
        store.close()
        return told, count

    assert asyncio.run(run()) == (1, 350)


# ------------------------------------------------------------------ nobody there


def test_a_lobby_table_with_nobody_connected_does_not_play_by_itself(tmp_path: Path) -> None:
    """Filled with computers and started, its host never connected: the
    computer players wait (no action stored) until he connects; a spectator
    does not count; away for ``leave_after`` he has left and the table
    closes, still without a card played."""
    with LiveServer(f"sqlite:///{tmp_path / 'nobody.db'}") as live:
        options = {"speed": "instant", "hold": 0, "leave_after": 600}
        table_id, (host,) = lobby_table(live, ["Lone Host"], bots="expert", options=options)
        room = live.manager._tables[table_id]
        assert room.status == "playing"
        assert room.game.pending() is not None  # something to do (S is stood in for)
        assert room.nobody_there() and room.pending() is None and room._driver is None
        with live.connect(table_id, None, watch=1) as spectator:
            spectator.recv_until(lambda m: m["t"] == "snapshot")
            assert room.nobody_there() and room._driver is None
        stored = live.app.state.store.load(table_id)
        assert [e.kind for e in stored.events if e.kind == "act"] == []
        with host.connect(table_id) as client:
            client.my_decision()  # the computer players played up to him
            assert not room.nobody_there()
        host.close()
    with LiveServer(f"sqlite:///{tmp_path / 'closes.db'}") as live:
        options = {"speed": "instant", "hold": 0, "leave_after": 1}
        table_id, (host,) = lobby_table(live, ["Gone Host"], bots="expert", options=options)
        room = live.manager._tables[table_id]
        _wait(lambda: room.status == "closed")
        stored = live.app.state.store.load(table_id)
        assert [e.kind for e in stored.events if e.kind == "act"] == []
        assert {s.seat: s.left for s in stored.seats} == {
            "S": True,
            "N": False,
            "W": False,
            "E": False,
        }
        host.close()


def test_a_table_with_no_human_cannot_be_filled_or_started() -> None:
    """No request can leave a lobby table without a human (the host is one,
    a computer player never takes a human's seat, the last human leaving
    closes it); should one have none, fill and start refuse ``no_human``."""

    async def run() -> list[str]:
        store = Store("sqlite://")
        store.migrate()
        manager = TableManager(store, MemoryHub(), bot_delay=0, seed=1, settings=FAST)
        room, _ = await manager.open_table(
            name="empty",
            preset="ffb",
            target=None,
            visibility="private",
            ranked=False,
            seat="S",
            options=TableOptions(),
            user_id=1,
            user_name="Host",
        )
        codes = []
        with pytest.raises(ProtocolError) as refused:
            await room.set_bot(Seat.S, "S", "expert")
        codes.append(refused.value.code)
        room._put(StoredSeat("S", "bot", "South", "expert", None))  # a defect's table
        for attempt in (room.fill(Seat.S, "expert"), room.start(Seat.S)):
            with pytest.raises(ProtocolError) as refused:
                await attempt
            codes.append(refused.value.code)
        assert room.status == "open" and room.seat_rows[Seat.N].kind == "open"
        await manager.close()
        store.close()
        return codes

    assert asyncio.run(run()) == ["seat_taken", "no_human", "no_human"]


# ------------------------------------------------------------------ headers


def _head_answer(live: LiveServer, header: int, *, pieces: int = 0) -> bytes:
    """What the server answers a ``GET /api/presets`` whose ``X-Big`` header
    holds ``header`` bytes, sent in one ``sendall`` (or in ``pieces`` bytes
    at a time)."""
    request = b"GET /api/presets HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * header + b"\r\n\r\n"
    sock = _raw(live)
    try:
        if pieces:
            for i in range(0, len(request), pieces):
                sock.sendall(request[i : i + pieces])
        else:
            sock.sendall(request)
    except OSError:  # closed while sending: the answer came already
        pass
    answer = _read_all(sock, timeout=5)
    sock.close()
    return answer


def test_headers_over_the_limit_are_refused_in_one_packet_or_many(strict: LiveServer) -> None:
    limit = DEFAULTS.max_header_bytes
    under = limit - 200  # the request line and the other headers take the rest
    for pieces in (0, 4096):
        answer = _head_answer(strict, under, pieces=pieces)
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:40]
    for size, pieces in ((limit + 1, 0), (100_000, 0), (60_000, 4096), (limit + 1, 4096)):
        answer = _head_answer(strict, size, pieces=pieces)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 431 "), (size, pieces, answer[:40])
        assert json.loads(body) == {
            "detail": {
                "code": "too_large",
                "message": f"the request line and headers are over {limit} bytes",
            }
        }


# ------------------------------------------------------------------ sockets per address


def test_websockets_per_address_are_capped(tmp_path: Path) -> None:
    """3 WebSockets at once per address (the setting): a 4th, lobby or
    table, makes room: the oldest socket of whoever holds the most there
    (everyone anonymous together: the two lobby sockets) is closed with
    4429; another address is not touched; once one closes, a new one
    takes its place without closing any; with no room at all (a cap of
    0), a socket is closed at once with 4429."""
    from websockets.sync.client import ClientConnection, connect

    settings = FAST.but(max_sockets_per_address=3)
    with LiveServer(f"sqlite:///{tmp_path / 'sockets.db'}", settings=settings) as live:
        created = live.create()

        def lobby(address: str | None = None) -> ClientConnection:
            headers = {"X-Forwarded-For": address} if address else None
            return connect(f"{live.ws_url}/ws/lobby", additional_headers=headers).__enter__()

        def seat() -> ClientConnection:
            url = f"{live.ws_url}/ws/{created['table_id']}?token={created['token']}"
            return connect(url).__enter__()

        def refused(ws: ClientConnection) -> int | None:
            try:
                while True:
                    ws.recv(timeout=5)
            except ConnectionClosed as closed:
                return None if closed.rcvd is None else closed.rcvd.code
            except TimeoutError:
                return None
            finally:
                ws.close()

        def alive(ws: ClientConnection) -> bool:
            ws.send(json.dumps({"t": "ping"}))
            while json.loads(ws.recv(timeout=5))["t"] != "pong":
                pass
            return True

        held = [lobby() for _ in range(2)]
        held.append(seat())
        assert [json.loads(ws.recv(timeout=5))["t"] for ws in held] == [
            "lobby",
            "lobby",
            "snapshot",
        ]
        newcomer = lobby()
        assert json.loads(newcomer.recv(timeout=5))["t"] == "lobby"
        assert refused(held.pop(0)) == 4429
        held.append(newcomer)
        other = lobby("198.51.100.20")
        assert json.loads(other.recv(timeout=5))["t"] == "lobby"
        assert all(alive(ws) for ws in held)
        other.close()
        held.pop().close()
        guard: Any = live.app.middleware_stack
        while not isinstance(guard, Guard):
            guard = guard.app
        # the server counts the closed one out once it has seen it close
        _wait(lambda: len(guard.held_sockets("127.0.0.1")) == 2)
        again = seat()
        assert json.loads(again.recv(timeout=5))["t"] == "snapshot"
        assert all(alive(ws) for ws in (*held, again))
        assert guard.evicted_sockets == 1
        again.close()
        for ws in held:
            ws.close()
    with LiveServer(
        f"sqlite:///{tmp_path / 'none.db'}", settings=FAST.but(max_sockets_per_address=0)
    ) as live:
        assert refused(lobby()) == 4429
