"""A live server in a thread and a scripted WebSocket client, for the
protocol tests; the same server serves the pages of the browser tests
(``tests/web`` and ``test_browser.py``)."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import httpx
import uvicorn
from fastapi import FastAPI
from websockets.sync.client import ClientConnection, connect

from rebelote.server.app import create_app
from rebelote.server.run import bind, url_of, uvicorn_config
from rebelote.server.settings import ServerSettings
from rebelote.server.tables.registry import TableManager

Message = dict[str, Any]

TEST_SETTINGS = ServerSettings(
    signup_rate="1000/minute",
    guest_rate="1000/minute",
    solo_table_rate="1000/minute",
    lobby_table_rate="1000/minute",
    table_address_rate="1000/minute",
    global_signup_rate="1000/minute",
    replay_rate="1000/minute",
    socket_connect_rate="100000/minute",
    login_pair_free=1000,
    login_address_free=1000,
    login_name_free=1000,
)
"""The limits of the tests' servers: the defaults but the throttles, which
a test of many players from 127.0.0.1 would reach (``test_limits.py``
checks them with the defaults)."""


class LiveServer:
    """The app served by uvicorn on 127.0.0.1 (a free port) in a thread.

    ``bot_delay``: seconds before each computer action (``None``: each
    table's own speed); ``static_dir``: the client's files (none by
    default); ``port``: listen there (default: a free port; a restart of
    the server reuses the stopped one's, so that its pages reconnect);
    ``settings``: the limits (default :data:`TEST_SETTINGS`); ``url`` has
    no trailing slash.  uvicorn runs as ``rebelote serve`` runs it
    (:func:`~rebelote.server.run.uvicorn_config`), logging aside.  As a
    context manager: started on the way in, stopped on the way out."""

    def __init__(
        self,
        database_url: str,
        *,
        bot_delay: float | None = 0.0,
        static_dir: Path | None = None,
        seed: int | None = 2024,
        port: int | None = None,
        settings: ServerSettings = TEST_SETTINGS,
    ) -> None:
        self.database_url = database_url
        self.settings = settings
        self.app: FastAPI = create_app(
            database_url,
            bot_delay=bot_delay,
            static_dir=static_dir or Path("/nonexistent"),
            seed=seed,
            settings=settings,
        )
        self.sock = bind("127.0.0.1", port)
        self.url = url_of(self.sock).rstrip("/")
        self.ws_url = self.url.replace("http://", "ws://")
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn_config(self.app, settings, configure_logging=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *args: object) -> None:
        self.stop()

    @property
    def manager(self) -> TableManager:
        manager: TableManager = self.app.state.tables
        return manager

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        with self.http() as client:
            r = client.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            data: dict[str, Any] = r.json()
            return data

    def connect(self, table_id: str, token: str | None, **query: Any) -> Client:
        return connect_client(self.ws_url, table_id, token, **query)


class Server(Protocol):
    """What the players of ``net.py`` need of a server: its ``url`` and
    WebSocket clients (a :class:`LiveServer`, or a real ``rebelote serve``
    process of ``cluster.py``)."""

    url: str

    def connect(self, table_id: str, token: str | None, **query: Any) -> Client:
        """A scripted client of table ``table_id``."""
        ...


def connect_client(ws_url: str, table_id: str, token: str | None, **query: Any) -> Client:
    """A scripted client of table ``table_id`` at ``ws_url`` (``ws://host:port``)."""
    params = dict(query)
    if token is not None:
        params["token"] = token
    qs = "&".join(f"{k}={v}" for k, v in params.items())
    url = f"{ws_url}/ws/{table_id}" + (f"?{qs}" if qs else "")
    ws = connect(url, max_queue=None, close_timeout=2)
    return Client(ws.__enter__())


class Client:
    """A scripted seat: reads messages, keeps the latest version, turn and
    snapshot, and sends messages."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[Message] = []
        self.v = 0
        self.turn: Message | None = None
        self.snapshot: Message | None = None
        self.events: list[Message] = []

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def send(self, t: str, d: Any = None) -> None:
        self.ws.send(json.dumps({"t": t, "d": d}))

    def send_raw(self, raw: str | bytes) -> None:
        self.ws.send(raw)

    def act(self, action: str, belote: bool | None = None, seat: str | None = None) -> None:
        d: dict[str, Any] = {"action": action}
        if belote is not None:
            d["belote"] = belote
        if seat is not None:
            d["seat"] = seat
        self.send("act", d)

    def recv(self, timeout: float = 10) -> Message:
        msg: Message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(msg)
        if msg["t"] == "event":
            assert msg["v"] == self.v + 1, f"gap or repeat: {self.v} then {msg['v']}"
            self.v = msg["v"]
            self.events.append(msg["d"])
            if msg["d"]["kind"] == "turn":
                self.turn = msg["d"]
        elif msg["t"] == "snapshot":
            self.v = msg["v"]
            self.snapshot = msg["d"]
            self.turn = msg["d"]["turn"]
        return msg

    def recv_until(self, pred: Callable[[Message], bool], timeout: float = 20) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if pred(msg):
                return msg

    def my_decision(self, seat: str = "S") -> Message:
        """Read until this seat must decide (a turn with legal actions the
        server will not take for it); returns that turn."""
        while not self._decides(seat):
            self.recv()
        assert self.turn is not None
        return self.turn

    def _decides(self, seat: str) -> bool:
        turn = self.turn
        return bool(
            turn
            and turn["legal"]
            and not turn["auto"]
            and (turn["seat"] == seat or turn["waiting"] in ("next", "rematch"))
        )

    def error(self, timeout: float = 10) -> Message:
        msg = self.recv_until(lambda m: m["t"] == "error", timeout)
        data: Message = msg["d"]
        return data

    def sync(self) -> Message:
        self.send("sync")
        msg = self.recv_until(lambda m: m["t"] == "snapshot")
        data: Message = msg["d"]
        return data


def play_match(
    client: Client,
    rng: random.Random,
    *,
    on_decision: Callable[[Message], None] | None = None,
    deals: int = 200,
) -> Message:
    """Play S's decisions at random until the match ends; returns the
    ``match_end`` event."""
    while True:
        if client._decides("S") and client.turn is not None:
            turn = client.turn
            if turn["waiting"] == "rematch":
                ends = [e for e in client.events if e["kind"] == "match_end"]
                assert ends, "waiting for a rematch without a match_end"
                return ends[-1]
            if on_decision is not None:
                on_decision(turn)
            if turn["waiting"] == "next":
                client.act("next")
            else:
                action = rng.choice(turn["legal"])
                belote = rng.choice([True, False]) if action in turn["belote_choice"] else None
                client.act(action, belote)
            client.turn = None
        client.recv()
