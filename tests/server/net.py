"""Helpers for the network play tests: a browser-like HTTP player (cookies,
CSRF header), lobby tables of several humans, and several WebSocket clients
played together from one thread."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from pydantic import BaseModel, TypeAdapter

from rebelote.server.protocol.messages import (
    ChatData,
    ChatHistory,
    ErrorData,
    EventData,
    HintData,
    MutedData,
    NoticeData,
    RoomData,
    Snapshot,
)

from .live import Client, LiveServer, Message, Server

EVENTS: TypeAdapter[Any] = TypeAdapter(EventData)


class Player:
    """A person with a browser: an HTTP client keeping the session cookie,
    sending the CSRF token with each change."""

    def __init__(self, live: Server) -> None:
        self.live = live
        self.http = httpx.Client(base_url=live.url, timeout=20)
        self.csrf: str | None = None
        self.user: dict[str, Any] | None = None
        self.seat: str | None = None
        self.token: str | None = None

    def close(self) -> None:
        self.http.close()

    def _me(self, r: httpx.Response, status: int = 200) -> Player:
        assert r.status_code == status, r.text
        data = r.json()
        self.csrf, self.user = data["csrf"], data["user"]
        return self

    def signup(self, name: str, password: str = "correct horse") -> Player:
        return self._me(
            self.http.post("/api/auth/signup", json={"name": name, "password": password}), 201
        )

    def login(self, name: str, password: str = "correct horse") -> Player:
        return self._me(
            self.http.post("/api/auth/login", json={"name": name, "password": password})
        )

    def guest(self, name: str) -> Player:
        return self._me(self.http.post("/api/auth/guest", json={"name": name}))

    def post(self, path: str, body: Any = None, *, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf or ""} if csrf else {}
        return self.http.post(path, json=body if body is not None else {}, headers=headers)

    def ok(self, path: str, body: Any = None, status: int = 200) -> Any:
        r = self.post(path, body)
        assert r.status_code == status, r.text
        return r.json()

    def open_table(self, **body: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.ok("/api/lobby/tables", body, 201)
        self.seat, self.token = data["seat"], data["token"]
        return data

    def join(self, table_id: str, seat: str, invite: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"seat": seat}
        if invite is not None:
            body["invite"] = invite
        data: dict[str, Any] = self.ok(f"/api/lobby/tables/{table_id}/join", body)
        self.seat, self.token = data["seat"], data["token"]
        return data

    def connect(self, table_id: str, **query: Any) -> Client:
        return self.live.connect(table_id, self.token, **query)


def lobby_table(
    live: LiveServer,
    names: Sequence[str],
    *,
    bots: str | None = None,
    start: bool = True,
    **body: Any,
) -> tuple[str, list[Player]]:
    """A public lobby table: the first player hosts it at S, the others take
    N, W, E in turn (as guests unless ``ranked``); ``bots`` fills the rest
    with computer players of that level; ``start`` starts it."""
    ranked = bool(body.get("ranked"))
    players = []
    for i, name in enumerate(names):
        p = Player(live)
        if ranked:
            p.signup(name)
        else:
            p.guest(name)
        players.append(p)
        if i == 0:
            table_id = p.open_table(seat="S", **body)["table_id"]
        else:
            p.join(table_id, "NWE"[i - 1])
    host = players[0]
    if bots is not None:
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": bots})
    if start:
        host.ok(f"/api/lobby/tables/{table_id}/start")
    return table_id, players


def decode(msg: Message) -> Any:
    """Decode a server message with the protocol's models (raises when it
    does not fit them)."""
    t, d = msg["t"], msg["d"]
    if t == "event":
        return EVENTS.validate_python(d)
    models: dict[str, type[BaseModel]] = {
        "snapshot": Snapshot,
        "room": RoomData,
        "chat": ChatData,
        "chat_history": ChatHistory,
        "error": ErrorData,
        "muted": MutedData,
        "notice": NoticeData,
        "hint": HintData,
    }
    model = models.get(t)
    if model is not None:
        return model.model_validate(d)
    assert t == "pong" and d == {}, msg
    return d


class Seated:
    """A seat's client with what it received, decoded."""

    def __init__(self, seat: str | None, client: Client) -> None:
        self.seat = seat
        self.client = client
        self.raw: list[str] = []
        self.raw_of: dict[int, str] = {}
        self.chat: list[dict[str, Any]] = []
        self.room: dict[str, Any] | None = None

    def drain(self, timeout: float = 0.0) -> list[Message]:
        """Read every message waiting (at most ``timeout`` seconds for the
        first)."""
        got: list[Message] = []
        wait = timeout
        while True:
            try:
                text = self.client.ws.recv(timeout=wait)
            except TimeoutError:
                return got
            wait = 0.0
            assert isinstance(text, str)
            self.raw.append(text)
            msg: Message = json.loads(text)
            decode(msg)
            self.raw_of[id(msg)] = text
            self.client.received.append(msg)
            if msg["t"] == "event":
                assert msg["v"] == self.client.v + 1, f"{self.seat}: gap {self.client.v} -> {msg}"
                self.client.v = msg["v"]
                self.client.events.append(msg["d"])
                if msg["d"]["kind"] == "turn":
                    self.client.turn = msg["d"]
            elif msg["t"] == "snapshot":
                self.client.v = msg["v"]
                self.client.snapshot = msg["d"]
                self.client.turn = msg["d"]["turn"]
            elif msg["t"] in ("chat", "chat_history"):
                lines = msg["d"]["lines"] if msg["t"] == "chat_history" else [msg["d"]]
                seen = {c["id"] for c in self.chat}
                self.chat += [c for c in lines if c["id"] not in seen]
            elif msg["t"] == "room":
                self.room = msg["d"]
            got.append(msg)

    def decides(self) -> bool:
        return self.seat is not None and Client._decides(self.client, self.seat)


def play_together(
    seated: Sequence[Seated],
    rng: random.Random,
    *,
    until: Callable[[], bool],
    on_message: Callable[[Seated, Message], None] | None = None,
    timeout: float = 120,
) -> None:
    """Run every client until ``until()``: each reads what waits for it and,
    when it must decide, plays a random legal action (each agrees to the
    next deal; none asks for a rematch)."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the table did not get there in time"
        idle = True
        for s in seated:
            for msg in s.drain():
                idle = False
                if on_message is not None:
                    on_message(s, msg)
            if until():
                return
            turn = s.client.turn
            if s.decides() and turn is not None:
                if turn["waiting"] == "rematch":
                    continue
                action = rng.choice(turn["legal"])
                belote = rng.random() < 0.5 if action in turn["belote_choice"] else None
                s.client.act(action, belote)
                s.client.turn = None
                idle = False
        if idle:
            for msg in seated[0].drain(timeout=0.02):
                if on_message is not None:
                    on_message(seated[0], msg)


def seat_of(holder: dict[str, Any], letter: str) -> dict[str, Any]:
    """The seat ``letter`` of a room, a table or a snapshot's table (what
    has a ``seats`` list)."""
    seat: dict[str, Any] = next(s for s in holder["seats"] if s["seat"] == letter)
    return seat
