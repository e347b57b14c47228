"""The bot API (issue 18, point 6): an account's bot tokens (made, listed,
revoked, at most ten, never for a guest), the lobby's endpoints with
``Authorization: Bearer``, the table socket with the bot token (header or
``hello``), a wrong token refused with ``bad_bot_token``, the bot's seat
marked ``outside_bot`` in the room and the table's seats, its stream the
seat's own; and ``examples/bot.py`` playing a whole match against the
server through one forced disconnection."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rebelote.server.people.bot_tokens import MAX_BOT_TOKENS
from rebelote.server.people.ratings import unrated_reason

from .live import Client, LiveServer
from .net import Player

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


def _token(player: Player, name: str = "robot") -> str:
    r = player.post("/api/me/bot-tokens", {"name": name})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def _bearer(server: LiveServer, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=server.url, timeout=20, headers={"Authorization": f"Bearer {token}"}
    )


def _socket(server: LiveServer, table_id: str, headers: dict[str, str] | None = None) -> Client:
    ws = connect(
        f"{server.ws_url}/ws/{table_id}",
        additional_headers=headers,
        max_queue=None,
        close_timeout=2,
    )
    return Client(ws.__enter__())


def test_bot_tokens_are_made_listed_and_revoked(server: LiveServer) -> None:
    guest = Player(server).guest("Passant")
    r = guest.post("/api/me/bot-tokens", {"name": "robot"})
    assert (r.status_code, r.json()["detail"]["code"]) == (403, "account_required")
    ada = Player(server).signup("Ada")
    assert ada.post("/api/me/bot-tokens", {"name": "x"}, csrf=False).status_code == 403
    # a wrong CSRF token is refused before the body is read (403 csrf, not 422)
    for content in (b"{not json", b'{"name": 5, "extra": 1}'):
        r = ada.http.post(
            "/api/me/bot-tokens",
            content=content,
            headers={"X-CSRF-Token": "wrong", "Content-Type": "application/json"},
        )
        assert (r.status_code, r.json()["detail"]["code"]) == (403, "csrf"), content
    # no session at all: 401 not_logged_in, whatever the body
    with server.http() as anon:
        r = anon.post(
            "/api/me/bot-tokens", content=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert (r.status_code, r.json()["detail"]["code"]) == (401, "not_logged_in")
    token = _token(ada)
    assert token.startswith("rbb_") and len(token) == 47
    listed = ada.http.get("/api/me/bot-tokens").json()
    assert [(t["name"], t["token"]) for t in listed] == [("robot", None)]
    assert token not in json.dumps(listed)
    with server.app.state.store.engine.connect() as conn:  # the hash alone is kept
        kept = conn.execute(sqlalchemy.text("SELECT token_hash, name FROM bot_tokens")).all()
    assert [tuple(row) for row in kept] == [(hashlib.sha256(token.encode()).hexdigest(), "robot")]
    with _bearer(server, token) as bot:  # the token opens a table for its account
        r = bot.post("/api/lobby/tables", json={"visibility": "private"})
        assert r.status_code == 201, r.text
        r = bot.post("/api/me/bot-tokens", json={"name": "again"})  # not with a bot token
        assert r.status_code == 401
    r = ada.http.delete(
        f"/api/me/bot-tokens/{listed[0]['id']}", headers={"X-CSRF-Token": ada.csrf or ""}
    )
    assert r.status_code == 204
    r = ada.http.delete(
        f"/api/me/bot-tokens/{listed[0]['id']}", headers={"X-CSRF-Token": ada.csrf or ""}
    )
    assert (r.status_code, r.json()["detail"]["code"]) == (404, "not_found")
    with _bearer(server, token) as bot:  # revoked
        r = bot.post("/api/lobby/tables", json={"visibility": "private"})
        assert (r.status_code, r.json()["detail"]["code"]) == (401, "bad_bot_token")
    for n in range(MAX_BOT_TOKENS):
        _token(ada, f"bot {n}")
    r = ada.post("/api/me/bot-tokens", {"name": "one too many"})
    assert (r.status_code, r.json()["detail"]["code"]) == (409, "too_many_tokens")
    assert Player(server).http.get("/api/me/bot-tokens").status_code == 401
    for p in (guest, ada):
        p.close()


def _refusal(client: Client) -> tuple[str, int, str]:
    """The error a refused socket gets, and its close code and reason."""
    error = client.error()
    with pytest.raises(ConnectionClosed) as closed:
        client.recv()
    assert closed.value.rcvd is not None
    return error["code"], closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_wrong_bot_token_is_refused(server: LiveServer) -> None:
    ada = Player(server).signup("Ada")
    table = ada.open_table(visibility="private")
    with _bearer(server, "rbb_" + "x" * 43) as bot:
        r = bot.post("/api/lobby/tables", json={})
        assert r.status_code == 401
        assert r.json()["detail"] == {
            "code": "bad_bot_token",
            "message": "this bot token is unknown or was revoked",
        }
    wrong = {"Authorization": "Bearer rbb_" + "y" * 43}
    with _socket(server, table["table_id"], wrong) as client:
        assert _refusal(client) == ("bad_bot_token", 4403, "bad_bot_token")
    with _socket(server, table["table_id"]) as client:  # the hello's token
        client.send("hello", {"token": "rbb_" + "z" * 43})
        assert _refusal(client) == ("bad_bot_token", 4403, "bad_bot_token")
    # Ada's seat was taken with her session: her bot token does not play it
    token = _token(ada)
    with _socket(server, table["table_id"], {"Authorization": f"Bearer {token}"}) as client:
        assert _refusal(client) == ("not_bot_seat", 4403, "not_bot_seat")
    # nor one of a table where her account holds no seat
    other = Player(server).signup("Bob").open_table(visibility="private")
    with _socket(server, other["table_id"], {"Authorization": f"Bearer {token}"}) as client:
        assert _refusal(client) == ("bad_token", 4403, "bad_token")
    ada.close()


def test_the_bot_seat_is_marked_and_sees_its_seat_alone(server: LiveServer) -> None:
    """A bot opens a public table with its token: the lobby and the table's
    seats say ``outside_bot`` for its seat alone; its socket (the bearer
    header) gets the seat's own stream: the snapshot a connection with the
    seat's token gets, its hand and nobody else's."""
    ada = Player(server).signup("Ada")
    token = _token(ada)
    bob = Player(server).signup("Bob")
    with _bearer(server, token) as bot:
        r = bot.post(
            "/api/lobby/tables",
            json={"visibility": "public", "seat": "S", "options": {"speed": "instant"}},
        )
        assert r.status_code == 201, r.text
        seat = r.json()
        table_id = seat["table_id"]
        lobby = httpx.get(server.url + "/api/lobby", timeout=10).json()
        room = next(t for t in lobby if t["id"] == table_id)
        south = next(s for s in room["seats"] if s["seat"] == "S")
        assert south["outside_bot"] is True and south["name"] == "Ada"
        assert all("outside_bot" not in s for s in room["seats"] if s["seat"] != "S")
        bob.join(table_id, "N")
        assert bot.post(f"/api/lobby/tables/{table_id}/fill", json={"level": "random"}).is_success
        assert bot.post(f"/api/lobby/tables/{table_id}/start").is_success
    info = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    seats = {s["seat"]: s for s in info["seats"]}
    assert seats["S"] == {
        "seat": "S",
        "kind": "human",
        "name": "Ada",
        "level": None,
        "guest": False,
        "left": False,
        "outside_bot": True,
    }
    assert "outside_bot" not in seats["N"] and seats["N"]["name"] == "Bob"
    rows = {s.seat: s for s in server.app.state.store.load(table_id).seats}
    assert (rows["S"].outside_bot, rows["N"].outside_bot) == (True, False)

    def dealt_to_s(m: dict[str, Any]) -> bool:
        return bool(m["t"] == "event" and m["d"]["kind"] == "dealt" and m["d"]["seat"] == "S")

    with _socket(server, table_id, {"Authorization": f"Bearer {token}"}) as client:
        snap = client.recv_until(lambda m: m["t"] == "snapshot")
        assert snap["d"]["table"]["you"] == "S"
        hand = snap["d"]["view"]["hand"]
        if not hand:  # not dealt yet when the socket opened: its own cards come
            own = client.recv_until(dealt_to_s)
            assert len(own["d"]["cards"]) == own["d"]["count"] > 0
            hand = own["d"]["cards"]
        assert hand  # its own cards (3, 5 or 8 of them as the deal goes)
        dealt = [e for e in client.events if e["kind"] == "dealt" and e["seat"] != "S"]
        assert all(e["cards"] is None for e in dealt)  # nobody else's
        with server.connect(table_id, seat["token"]) as same:  # the seat's own token
            other = same.recv_until(lambda m: m["t"] == "snapshot")["d"]
            assert other["table"]["you"] == "S"
            assert set(hand) <= set(other["view"]["hand"])  # the same seat's view
    for p in (ada, bob):
        p.close()


def test_a_match_with_an_outside_bot_is_unrated_unless_the_table_says_so() -> None:
    fine: dict[str, float] = {"S": 0.0}
    assert unrated_reason(ranked=True, someone_left=False, standin_shares=fine) is None
    assert (
        unrated_reason(ranked=True, someone_left=False, standin_shares=fine, outside_bots=True)
        == "bots"
    )
    assert (
        unrated_reason(
            ranked=True,
            someone_left=False,
            standin_shares=fine,
            outside_bots=True,
            bots_rated=True,
        )
        is None
    )
    assert (
        unrated_reason(ranked=False, someone_left=False, standin_shares=fine, outside_bots=True)
        == "friendly"
    )
    assert (
        unrated_reason(ranked=True, someone_left=True, standin_shares=fine, outside_bots=True)
        == "left"
    )


def test_the_example_bot_plays_a_match(server: LiveServer) -> None:
    """``examples/bot.py`` opens a (public, ranked) table with its bot
    token, fills it with computers, starts it and plays the whole match,
    cutting its connection once after 25 messages and resuming from its
    last version; the match is unrated (``bots``: the table does not say
    ``bots_rated``)."""
    ada = Player(server).signup("Ada")
    token = _token(ada)
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--server",
            server.url,
            "--token",
            token,
            "--target",
            "300",
            "--level",
            "random",
            "--speed",
            "instant",
            "--seed",
            "4",
            "--drop-after",
            "25",
            "--public",
            "--ranked",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    lines = done.stdout.splitlines()
    table_id = lines[0].removeprefix("table ")
    assert "dropping the connection after 25 messages" in lines
    assert any(line.startswith("reconnected, resuming after v") for line in lines)
    assert lines[-1].startswith("match over: ") and lines[-1].endswith(", 1 reconnection(s)")
    deals = [line for line in lines if line.startswith("deal ")]
    info = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    assert info["status"] == "finished"
    assert info["match"]["winner"] in ("NS", "EW")
    assert len(deals) == info["match"]["deal"] == len(info["match"]["sheet"])
    seats: dict[str, dict[str, Any]] = {s["seat"]: s for s in info["seats"]}
    assert seats["S"]["outside_bot"] is True and seats["S"]["name"] == "Ada"
    assert {seats[s]["kind"] for s in "NWE"} == {"bot"}
    # every action of S in the log is the bot's (none a stand-in's)
    stored = server.app.state.store.load(table_id)
    by = {e.payload["by"] for e in stored.events if e.kind == "act" and e.seat == "S"}
    assert by <= {"human", "auto", "forced"} and "human" in by
    history = ada.http.get("/api/me/history").json()
    (result,) = history["results"]
    assert (result["table_id"], result["ranked"], result["unrated_reason"]) == (
        table_id,
        False,
        "bots",
    )
    assert result["rating_after"] is None
    ada.close()


def test_the_example_bots_action_ids_differ_between_processes() -> None:
    """A restarted bot (a new process on the same seat) must not reuse the
    ids its previous run sent (the server keeps a seat's ids for the whole
    match): two runs answering the same turn send different ids, each run
    its own numbered from 1."""
    import asyncio
    import importlib.util
    import re

    spec = importlib.util.spec_from_file_location("example_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    class Sink:
        def __init__(self) -> None:
            self.sent: list[Any] = []

        async def send(self, text: str) -> None:
            self.sent.append(json.loads(text))

    turn = {"legal": ["JS"], "auto": False, "waiting": "action", "seat": "S", "belote_choice": []}
    ids = []
    for _run in range(2):  # two processes, one after the other
        bot = module.Bot("http://127.0.0.1:1", "rbb_x", "t1", random.Random(1))
        bot.seat, bot.turn, bot.turn_v = "S", dict(turn), 41
        sink = Sink()
        asyncio.run(bot.answer(sink))
        assert [m["d"]["action"] for m in sink.sent] == ["JS"]
        ids.append(sink.sent[0]["d"]["id"])
    assert all(re.fullmatch(r"bot-[0-9a-f]{8}-1", i) for i in ids), ids
    assert ids[0] != ids[1]
