"""Two server processes on one Redis and one PostgreSQL share everything a
person meets outside a table's game (issue 14, item 2): the lobby (a table
opened on one is listed on the other's sockets, every change reaches both,
a lobby page on one keeps its player's seat connected at a table driven by
the other), login attempts (counted together, the claim atomic across
processes), the chat's rate limit and the sockets per address.  Each
"process" is an app of its own (its own event loop, broker, Redis
connections) behind its own port, as ``rebelote serve --redis ... --db
...`` started twice.  Without ``redis_url`` the same app keeps all of it in
memory (``test_embedded_mode_keeps_everything_in_memory``; the lobby's own
tests run in that mode)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from rebelote.server.api.guard import Guard
from rebelote.server.api.throttle import MemorySocketCount, RedisSocketCount
from rebelote.server.broker import MemoryBroker, RedisBroker
from rebelote.server.people.chat import RateLimiter, RedisRateLimiter
from rebelote.server.people.passwords import PasswordWork
from rebelote.server.protocol.messages import ProtocolError
from rebelote.server.settings import ServerSettings

from .brokers import OwnRedis, free_port
from .conftest import _postgres_database
from .live import TEST_SETTINGS, LiveServer
from .net import Player, seat_of
from .test_lobby_socket import LobbyClient

PASS = "a fine passphrase"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database (the processes' shared truth)."""
    yield from _postgres_database()


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the test's own on the shared Redis, its keys deleted
    at the end."""
    made = f"rbtest{secrets.token_hex(4)}:"
    yield made
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{made}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def two_processes(pg_url: str, settings: ServerSettings) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one database and the settings' Redis."""
    with LiveServer(pg_url, settings=settings) as a, LiveServer(pg_url, settings=settings) as b:
        yield a, b


def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait until ``check()`` holds (polling); fails with ``what`` after
    ``timeout`` seconds (a bound for a broken test, not a measure)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def _guard(live: LiveServer) -> Guard:
    """The running app's :class:`Guard` (the outermost middleware but
    Starlette's own)."""
    layer: Any = live.app.middleware_stack
    while layer is not None and not isinstance(layer, Guard):
        layer = getattr(layer, "app", None)
    assert isinstance(layer, Guard)
    return layer


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail: dict[str, Any] = r.json()["detail"]
    return detail


# ------------------------------------------------------------------ lobby


def test_a_table_opened_on_one_process_is_listed_and_followed_on_the_other(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    settings = TEST_SETTINGS.but(redis_url=redis_url, redis_prefix=prefix)
    with two_processes(pg_url, settings) as (a, b):
        assert isinstance(a.app.state.broker, RedisBroker)
        assert a.app.state.broker.process_id != b.app.state.broker.process_id
        on_a, on_b = LobbyClient(a), LobbyClient(b)
        assert on_a.recv()["d"] == {"tables": []}
        assert on_b.recv()["d"] == {"tables": []}
        # Ada opens a public table on A: B's socket hears of it
        ada = Player(a).guest("Ada")
        tid = ada.open_table(name="chez Ada", preset="coinche", options={"hold": 30})["table_id"]
        for client in (on_a, on_b):
            msg = client.until("table", lambda d: d["id"] == tid)
            assert msg["d"]["name"] == "chez Ada" and msg["d"]["status"] == "open"
            assert msg["d"]["rules"]["preset"] == "coinche" and msg["d"]["invite"] is None
            assert seat_of(msg["d"], "S")["name"] == "Ada"
            assert all(s["countdowns"] == [] for s in msg["d"]["seats"])
        # a new socket on B lists it; so does B's REST list
        fresh = LobbyClient(b)
        assert [t["id"] for t in fresh.recv()["d"]["tables"]] == [tid]
        fresh.close()
        listed = httpx.get(f"{b.url}/api/lobby").json()
        assert [(t["id"], t["name"]) for t in listed] == [(tid, "chez Ada")]
        # Bob joins on A: both processes' sockets see him at North
        bob = Player(a).guest("Bob")
        bob.join(tid, "N")
        for client in (on_a, on_b):
            msg = client.until("table", lambda d: seat_of(d, "N")["kind"] == "human")
            assert seat_of(msg["d"], "N")["name"] == "Bob"
            assert seat_of(msg["d"], "N")["guest"] is True
        # Bob's lobby page on B: told of his seat, and keeps it connected at
        # the table A drives
        bob_page = LobbyClient(b, bob)
        assert bob_page.recv()["t"] == "lobby"
        seated = bob_page.until("seated")
        assert (seated["d"]["room"]["id"], seated["d"]["you"]) == (tid, "N")

        def north_connected() -> bool:
            room = bob.http.get(f"/api/lobby/tables/{tid}").json()
            connected: bool = seat_of(room, "N")["connected"]
            return connected

        until(north_connected, "Bob's lobby page on B keeps his seat at A's table")
        msg = on_b.until("table", lambda d: seat_of(d, "N")["connected"])
        assert seat_of(msg["d"], "S")["connected"] is False
        bob_page.close()
        until(lambda: not north_connected(), "Bob's page on B closed: his seat is not kept")
        # a visitor on B follows the waiting room; the start reaches him
        visitor = LobbyClient(b)
        visitor.recv()
        visitor.send("watch_room", {"table": tid})
        room = visitor.until("waiting")["d"]
        assert room["you"] is None and room["room"]["id"] == tid
        ada.ok(f"/api/lobby/tables/{tid}/fill", {"level": "random"})
        ada.ok(f"/api/lobby/tables/{tid}/start")
        started = visitor.until("waiting", lambda d: d["room"]["status"] == "playing")
        assert started["d"]["room"]["host"] == "S"
        for client in (on_a, on_b):
            msg = client.until("table", lambda d: d["status"] == "playing")
            assert msg["d"]["id"] == tid
        for c in (on_a, on_b, visitor):
            c.close()
        for p in (ada, bob):
            p.close()


def test_a_private_room_is_followed_on_the_other_process_with_its_code(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    settings = TEST_SETTINGS.but(redis_url=redis_url, redis_prefix=prefix)
    with two_processes(pg_url, settings) as (a, b):
        ada = Player(a).guest("Ada")
        made = ada.open_table(name="entre amis", visibility="private")
        tid, invite = made["table_id"], made["invite"]
        stranger = LobbyClient(b)
        assert stranger.recv()["d"] == {"tables": []}
        until(lambda: b.manager.lobby_hub.entry(tid) is not None, "B knows the table")
        stranger.send("watch_room", {"table": tid})
        err = stranger.until("error")["d"]
        assert (err["code"], err["message"]) == ("table_not_found", "no such lobby table")
        stranger.send("watch_room", {"table": tid, "invite": invite})
        room = stranger.until("waiting")["d"]
        assert room["you"] is None and room["room"]["invite"] == invite
        assert room["room"]["visibility"] == "private"
        # the host's own page on B: no code needed; "you" is her seat
        page = LobbyClient(b, ada)
        assert page.recv()["d"] == {"tables": []}
        assert page.until("seated")["d"]["you"] == "S"
        page.send("watch_room", {"table": tid})
        assert page.until("waiting")["d"]["you"] == "S"
        for c in (stranger, page):
            c.close()
        ada.close()


def test_the_lobby_is_written_again_after_redis_restarts_empty(pg_url: str, tmp_path: Path) -> None:
    """Redis killed and started again with nothing in it: the process that
    drives the table writes its entry again, and the other process's new
    sockets list it."""
    own = OwnRedis(free_port())
    own.start()
    try:
        settings = TEST_SETTINGS.but(redis_url=own.url)
        with two_processes(pg_url, settings) as (a, b):
            ada = Player(a).guest("Ada")
            tid = ada.open_table(name="survivante")["table_id"]
            first = LobbyClient(b)
            assert [t["id"] for t in first.recv()["d"]["tables"]] == [tid]
            first.close()
            own.kill()
            own.start()
            raw = redis.Redis.from_url(own.url)
            try:
                until(lambda: bool(raw.hexists("rb:lobby", tid)), "A wrote its entry again")
            finally:
                raw.close()
            again = LobbyClient(b)
            assert [t["id"] for t in again.recv()["d"]["tables"]] == [tid]
            again.close()
            ada.close()
    finally:
        own.kill()


# ------------------------------------------------------------------ logins


def test_login_attempts_on_two_processes_count_together(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    """3 free failures per (name, address), spread over both processes; the
    4th takes a 60 s lock; then every attempt, the right password too, is
    refused on either process."""
    settings = ServerSettings(
        redis_url=redis_url, redis_prefix=prefix, login_pair_free=3, login_delay=60
    )
    with two_processes(pg_url, settings) as (a, b):
        Player(a).signup("Shared Victim", PASS).close()

        def login(live: LiveServer, password: str) -> httpx.Response:
            return httpx.post(
                f"{live.url}/api/auth/login",
                json={"name": "Shared Victim", "password": password},
                timeout=30,
            )

        answers = [login(live, "wrong") for live in (a, b, a, b)]
        assert [r.status_code for r in answers] == [401, 401, 401, 401]
        assert [_detail(r)["code"] for r in answers] == ["bad_credentials"] * 4
        for live in (a, b):
            r = login(live, PASS)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
            assert _detail(r)["retry_after"] in (59, 60)
            assert r.headers["Retry-After"] == str(_detail(r)["retry_after"])


def test_wrong_passwords_sent_at_once_to_two_processes_cannot_pass_the_limit(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    """20 wrong passwords at once, 10 to each process: the 5 free ones and
    the one that takes the lock reach argon2, the 14 others are refused at
    once, whichever process they reached."""
    settings = ServerSettings(redis_url=redis_url, redis_prefix=prefix, login_delay=60)
    with two_processes(pg_url, settings) as (a, b):
        Player(a).signup("Burst Victim", PASS).close()
        checked: list[str] = []
        for live in (a, b):
            work: PasswordWork = live.app.state.passwords
            verify = work.verify

            async def slow(
                stored: str | None, password: str, verify: Any = verify
            ) -> tuple[bool, str | None]:
                checked.append(password)
                await asyncio.sleep(0.3)  # every request is in flight before any ends
                result: tuple[bool, str | None] = await verify(stored, password)
                return result

            work.verify = slow  # type: ignore[method-assign]

        async def burst() -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=30) as http:
                return await asyncio.gather(
                    *(
                        http.post(
                            f"{(a, b)[i % 2].url}/api/auth/login",
                            json={"name": "Burst Victim", "password": f"wrong {i}"},
                        )
                        for i in range(20)
                    )
                )

        answers = asyncio.run(burst())
        codes = sorted((r.status_code, _detail(r)["code"]) for r in answers)
        assert codes == [(401, "bad_credentials")] * 6 + [(429, "rate_limited")] * 14
        assert len(checked) == 6
        assert {_detail(r)["retry_after"] for r in answers if r.status_code == 429} <= {59, 60}
        # the right password from another address goes through, on either
        r = httpx.post(
            f"{b.url}/api/auth/login",
            json={"name": "Burst Victim", "password": PASS},
            headers={"X-Forwarded-For": "192.0.2.61"},
        )
        assert r.status_code == 200


def test_a_device_known_on_one_process_passes_the_address_lock_on_the_other(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    """A browser logs in on one process; a stranger behind its address
    locks the address with wrong passwords for made-up names on both; the
    browser logs in on the other (its device known in Redis), a new one is
    refused there."""
    settings = ServerSettings(
        redis_url=redis_url, redis_prefix=prefix, login_address_free=2, login_delay=60
    )
    nat = {"X-Forwarded-For": "192.0.2.81"}
    with two_processes(pg_url, settings) as (a, b):
        Player(a).signup("Shared Neighbour", PASS).close()
        mine = {"name": "Shared Neighbour", "password": PASS}
        with httpx.Client(timeout=30) as own, httpx.Client(timeout=30) as stranger:
            assert own.post(f"{a.url}/api/auth/login", json=mine, headers=nat).status_code == 200
            answers = [
                stranger.post(
                    f"{(a, b)[i % 2].url}/api/auth/login",
                    json={"name": f"Made Up {i}", "password": "wrong"},
                    headers=nat,
                )
                for i in range(4)
            ]
            assert [r.status_code for r in answers] == [401, 401, 401, 429]
            r = own.post(f"{b.url}/api/auth/login", json=mine, headers=nat)
            assert r.status_code == 200 and r.json()["user"]["name"] == "Shared Neighbour"
            r = stranger.post(f"{b.url}/api/auth/login", json=mine, headers=nat)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")


def test_creations_are_throttled_across_processes(pg_url: str, redis_url: str, prefix: str) -> None:
    """Guests: 3 an hour per address; the 4th is refused on either process."""
    settings = TEST_SETTINGS.but(redis_url=redis_url, redis_prefix=prefix, guest_rate="3/hour")
    with two_processes(pg_url, settings) as (a, b):
        codes = [
            httpx.post(f"{live.url}/api/auth/guest", json={"name": f"G{i}"}).status_code
            for i, live in enumerate((a, b, a, b, a))
        ]
        assert codes == [200, 200, 200, 429, 429]


def test_a_throttle_out_of_reach_is_503_and_lets_nothing_through(pg_url: str) -> None:
    own = OwnRedis(free_port())
    own.start()
    try:
        settings = TEST_SETTINGS.but(redis_url=own.url)
        with LiveServer(pg_url, settings=settings) as live:
            r = httpx.post(f"{live.url}/api/auth/guest", json={"name": "Avant"})
            assert r.status_code == 200
            own.kill()
            r = httpx.post(f"{live.url}/api/auth/guest", json={"name": "Pendant"}, timeout=30)
            assert r.status_code == 503
            assert r.json() == {
                "detail": {
                    "code": "unavailable",
                    "message": "the server cannot count requests now: try again shortly",
                    "retry_after": 1,
                }
            }
            assert r.headers["Retry-After"] == "1"
    finally:
        own.kill()


# ------------------------------------------------------------------ chat


def test_the_chat_limit_is_one_bucket_for_every_process(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    """Both apps count chat lines in Redis; lines of South at a table spent
    by another process (here the test's own limiter) count against what
    South may say on A: 3 spent elsewhere, 2 more pass, the 3rd is refused
    (5 in a row)."""
    settings = TEST_SETTINGS.but(redis_url=redis_url, redis_prefix=prefix)
    with two_processes(pg_url, settings) as (a, b):
        for live in (a, b):
            limiter = live.manager.chat_limiter
            assert isinstance(limiter, RedisRateLimiter) and limiter.prefix == prefix
        ada = Player(a).guest("Ada")
        tid = ada.open_table(name="bavarde")["table_id"]

        async def spend(n: int) -> list[str | None]:
            client = redis.asyncio.Redis.from_url(redis_url)
            try:
                other = RedisRateLimiter(client, prefix=prefix)
                codes: list[str | None] = []
                for _ in range(n):
                    try:
                        await other.take(f"{tid}:S", time.time())
                        codes.append(None)
                    except ProtocolError as exc:
                        codes.append(exc.code)
                return codes
            finally:
                await client.aclose()

        assert asyncio.run(spend(3)) == [None, None, None]
        with ada.connect(tid) as client:
            for i in range(3):
                client.send("chat", {"text": f"ligne {i}"})
            said: list[str] = []
            refused: list[str] = []
            while len(said) + len(refused) < 3:
                msg = client.recv()
                if msg["t"] == "chat":
                    said.append(msg["d"]["text"])
                elif msg["t"] == "error":
                    refused.append(msg["d"]["code"])
        assert said == ["ligne 0", "ligne 1"]
        assert refused == ["rate_limited"]
        assert asyncio.run(spend(1)) == ["rate_limited"]
        ada.close()


def test_the_redis_bucket_is_the_memory_buckets_rule(redis_url: str, prefix: str) -> None:
    """Both limits: 5 lines at once, then a wait of one refill (2 s) for the
    next; the message names the wait in tenths of a second."""

    async def run() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            for limiter in (RateLimiter(), RedisRateLimiter(client, prefix=prefix)):
                now = time.time()
                for _ in range(5):
                    await limiter.take("t:S", now)
                with pytest.raises(ProtocolError) as refused:
                    await limiter.take("t:S", now)
                assert refused.value.code == "rate_limited"
                found = re.fullmatch(
                    r"too many chat lines: wait (\d+\.\d) s", refused.value.message
                )
                assert found is not None and 1.5 <= float(found.group(1)) <= 2.0
            key = f"{prefix}chat:t:S"
            assert 8000 <= await client.pttl(key) <= 10000  # full again in 5 refills
        finally:
            await client.aclose()

    asyncio.run(run())


# ------------------------------------------------------------------ sockets


def test_sockets_per_address_are_counted_over_both_processes(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    """3 WebSockets per address, all on A: a 4th on B, which serves none
    of them (none it could close to make room), is closed with 4429; a
    4th on A makes room (its oldest one is closed with 4429); once one
    closes, a new one is let in on B."""
    settings = TEST_SETTINGS.but(
        redis_url=redis_url, redis_prefix=prefix, max_sockets_per_address=3
    )
    with two_processes(pg_url, settings) as (a, b):

        def lobby(live: LiveServer) -> ClientConnection:
            return connect(f"{live.ws_url}/ws/lobby").__enter__()

        def refused(ws: ClientConnection) -> int | None:
            try:
                ws.recv(timeout=5)
            except ConnectionClosed as closed:
                return None if closed.rcvd is None else closed.rcvd.code
            finally:
                ws.close()
            return None

        held = [lobby(a), lobby(a), lobby(a)]
        assert [ws.recv(timeout=5)[:12] for ws in held] == ['{"t":"lobby"'] * 3
        assert refused(lobby(b)) == 4429
        newcomer = lobby(a)
        assert str(newcomer.recv(timeout=5)).startswith('{"t":"lobby"')
        assert refused(held.pop(0)) == 4429
        held.append(newcomer)
        held.pop(0).close()

        def let_in() -> bool:
            ws = lobby(b)
            try:
                return str(ws.recv(timeout=5)).startswith('{"t":"lobby"')
            except ConnectionClosed:
                return False
            finally:
                ws.close()

        until(let_in, "a closed socket on A is counted out for B")
        for ws in held:
            ws.close()


# ------------------------------------------------------------------ one process


def test_embedded_mode_keeps_everything_in_memory(tmp_path: Path) -> None:
    """No Redis: the in-process broker, the lobby in it, memory throttles,
    each room's own chat bucket, sockets counted in memory."""
    with LiveServer(f"sqlite:///{tmp_path / 'alone.db'}") as live:
        assert isinstance(live.app.state.broker, MemoryBroker)
        assert live.manager.lobby_hub.broker is live.app.state.broker
        assert live.manager.chat_limiter is None
        assert type(live.app.state.throttle.storage).__name__ == "MemoryStorage"
        assert isinstance(_guard(live).sockets, MemorySocketCount)
        ada = Player(live).guest("Ada")
        tid = ada.open_table(name="seule")["table_id"]
        page = LobbyClient(live)
        assert [t["id"] for t in page.recv()["d"]["tables"]] == [tid]
        page.close()
        ada.close()


def test_a_redis_process_counts_its_sockets_in_redis(
    pg_url: str, redis_url: str, prefix: str
) -> None:
    settings = TEST_SETTINGS.but(redis_url=redis_url, redis_prefix=prefix)
    with LiveServer(pg_url, settings=settings) as live:
        assert isinstance(_guard(live).sockets, RedisSocketCount)
        ws = connect(f"{live.ws_url}/ws/lobby").__enter__()
        ws.recv(timeout=5)
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            members = cast(list[str], client.zrange(f"{prefix}sockets:127.0.0.1", 0, -1))
            assert len(members) == 1
            assert re.fullmatch(r".+:\d+:[0-9a-f]{8}:1", members[0])  # {process id}:{n}
            ws.close()
            until(
                lambda: client.zcard(f"{prefix}sockets:127.0.0.1") == 0,
                "the closed socket leaves the count",
            )
        finally:
            client.close()


def test_one_process_follows_a_closed_table_after_its_entry_left_the_lobby(
    tmp_path: Path,
) -> None:
    """The in-process lobby drops a closed table's entry (here after 0.2 s)
    but still answers ``watch_room`` for it: the table is loaded and its
    entry written again."""
    with LiveServer(f"sqlite:///{tmp_path / 'closed.db'}") as live:
        hub = live.manager.lobby_hub
        hub.final_seconds = 0.2
        ada = Player(live).guest("Ada")
        tid = ada.open_table(name="fermée", visibility="private")["table_id"]
        ada.ok(f"/api/lobby/tables/{tid}/leave")
        until(lambda: hub.entry(tid) is None, "the closed table's entry leaves the lobby")
        page = LobbyClient(live, ada)
        assert page.recv()["d"] == {"tables": []}
        page.send("watch_room", {"table": tid})
        err = page.until("error")["d"]  # she left: a private table is not hers any more
        assert err["code"] == "table_not_found"
        entry = hub.entry(tid)
        assert entry is not None and entry.status == "closed"
        page.close()
        visitor = Player(live).guest("Vi")
        public = visitor.open_table(name="publique")["table_id"]
        visitor.ok(f"/api/lobby/tables/{public}/leave")
        until(lambda: hub.entry(public) is None, "the closed table's entry leaves the lobby")
        page = LobbyClient(live)
        page.recv()
        page.send("watch_room", {"table": public})
        room = page.until("waiting")["d"]["room"]
        assert (room["id"], room["status"], room["host"]) == (public, "closed", None)
        page.close()
        for p in (ada, visitor):
            p.close()


def test_a_table_out_of_memory_leaves_the_lobby_and_its_host_brings_it_back(
    tmp_path: Path,
) -> None:
    """One process: an idle open table leaves memory and the lobby (no
    entry kept for it); its host's lobby page loads it again, keeps her
    seat connected, and the list shows it again."""
    settings = TEST_SETTINGS.but(idle_table_seconds=0.3, sweep_seconds=0.1)
    with LiveServer(f"sqlite:///{tmp_path / 'idle.db'}", settings=settings) as live:
        hub = live.manager.lobby_hub
        ada = Player(live).guest("Ada")
        tid = ada.open_table(name="endormie")["table_id"]
        until(lambda: tid not in live.manager._tables, "the idle table leaves memory")
        until(lambda: hub.entry(tid) is None, "its entry leaves the lobby")
        watcher = LobbyClient(live)
        assert watcher.recv()["d"] == {"tables": []}  # loaded, but deserted
        page = LobbyClient(live, ada)
        assert page.recv()["t"] == "lobby"
        back = watcher.until("table", lambda d: d["id"] == tid)
        assert seat_of(back["d"], "S")["connected"] is True
        assert back["d"]["name"] == "endormie" and back["d"]["status"] == "open"
        room = ada.http.get(f"/api/lobby/tables/{tid}").json()
        assert seat_of(room, "S")["connected"] is True
        for c in (watcher, page):
            c.close()
        ada.close()
