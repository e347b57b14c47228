"""A small outside bot for rebelote's bot API (docs/bot-api.md).

It plays one seat of a lobby table over the table's WebSocket, with an
account's bot token, choosing at random among the legal actions the server
sends in each ``turn`` (no rules here), and survives a dropped connection:
it connects again and resumes from the last version it read (``last_v``),
getting the events it missed or a snapshot.

    python examples/bot.py --server http://127.0.0.1:8000 --token rbb_...

opens a private table, fills the other seats with computer players and
starts it; ``--table ID --seat N`` (with ``--invite CODE`` for a private
table) takes a seat at someone else's table instead, and plays once its host
starts.  It stops when the match is over (exit 0), or when the server
refuses it (exit 1, the server's error code printed).  ``--drop-after N``
cuts its own connection once, after N messages, to show the reconnection.

Needs Python 3.11 and the ``websockets`` library (``pip install
websockets``); nothing else beyond the standard library.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

FINAL_CLOSE_CODES = {4000, 4401, 4403, 4404}
"""Close codes after which connecting again is no use (the player left,
no token, refused, no such table): docs/protocol.md."""


class Refused(Exception):
    """The server refused the bot: its error ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def rest(server: str, token: str, method: str, path: str, body: Any = None) -> Any:
    """One call of the REST API with the bot token; the JSON answer.
    Raises :class:`Refused` with the server's code."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}").get("detail") or {}
        raise Refused(detail.get("code", str(exc.code)), detail.get("message", "")) from None
    return json.loads(text) if text else None


class Bot:
    """One seat's player: reads the stream, answers each turn that is its
    own with a legal action."""

    def __init__(self, server: str, token: str, table_id: str, rng: random.Random) -> None:
        self.url = server.replace("http", "ws", 1) + f"/ws/{table_id}"
        self.token = token
        self.rng = rng
        self.v: int | None = None  # the version of the last event or snapshot read
        self.seat: str | None = None
        self.turn: dict[str, Any] | None = None
        self.turn_v = 0  # the version of the turn we answer
        self.chosen: dict[int, dict[str, Any]] = {}  # turn version -> the act sent for it
        self.acts = 0
        # the ids of our actions: unique for the seat across processes (the
        # server remembers a seat's ids for the whole match, whichever
        # connection sent them), so a restarted bot never reuses one
        self.id_prefix = f"bot-{secrets.token_hex(4)}-"
        self.messages = 0
        self.reconnections = 0
        self.dropped = False  # the connection was cut once (--drop-after)
        self.result: dict[str, Any] | None = None

    async def run(self, drop_after: int | None = None) -> dict[str, Any]:
        """Play until the match is over; returns its ``match_end`` event."""
        while self.result is None:
            url = self.url if self.v is None else f"{self.url}?last_v={self.v}"
            headers = {"Authorization": f"Bearer {self.token}"}
            try:
                async with connect(url, additional_headers=headers, max_queue=None) as ws:
                    if self.v is not None:
                        self.reconnections += 1
                        print(f"reconnected, resuming after v{self.v}", flush=True)
                    await self.play(ws, drop_after)
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code in FINAL_CLOSE_CODES:
                    raise Refused(exc.rcvd.reason if exc.rcvd else str(code), "closed") from None
                print(f"connection lost ({code}); connecting again", flush=True)
            except OSError as exc:
                print(f"cannot connect ({exc}); trying again", flush=True)
                await asyncio.sleep(1)
        return self.result

    async def play(self, ws: ClientConnection, drop_after: int | None) -> None:
        """Read messages and act until the match is over or the socket drops."""
        await self.answer(ws)  # after a reconnection, the turn we had may still be ours
        async for raw in ws:
            self.messages += 1
            message = json.loads(raw)
            kind = message["t"]
            if kind == "error":
                code = message["d"]["code"]
                if code in ("bad_bot_token", "bad_token", "not_bot_seat", "left"):
                    raise Refused(code, message["d"]["message"])
                # a stale or refused action: ask for the table as it is now
                await ws.send(json.dumps({"t": "sync"}))
            elif kind == "snapshot":
                data = message["d"]
                self.v = message["v"]
                self.seat = data["table"]["you"]
                self.turn, self.turn_v = data["turn"], message["v"]
                await self.answer(ws)
            elif kind == "event":
                self.v = message["v"]
                event = message["d"]
                if event["kind"] == "turn":
                    self.turn, self.turn_v = event, message["v"]
                    await self.answer(ws)
                elif event["kind"] == "deal_end":
                    line = event["line"]
                    print(f"deal {line['deal']}: {line['result']}, totals {event['totals']}")
                elif event["kind"] == "match_end":
                    self.result = event
                    return
            if drop_after is not None and not self.dropped and self.messages >= drop_after:
                print(f"dropping the connection after {self.messages} messages", flush=True)
                self.dropped = True
                ws.transport.abort()  # as a network failure would: no close frame

    async def answer(self, ws: ClientConnection) -> None:
        """Act when the turn asks this seat for a decision: a legal action
        at random, ``next`` between deals (the match's end stops the bot)."""
        turn = self.turn
        if not turn or not turn["legal"] or turn["auto"]:
            return
        if turn["waiting"] == "rematch":
            return
        if turn["waiting"] == "action" and turn["seat"] != self.seat:
            return
        sent = self.chosen.get(self.turn_v)
        if sent is None:  # the same turn again after a reconnection: the same act, same id
            action = "next" if turn["waiting"] == "next" else self.rng.choice(turn["legal"])
            self.acts += 1
            sent = {"action": action, "id": f"{self.id_prefix}{self.acts}"}
            if action in turn["belote_choice"]:
                sent["belote"] = True
            self.chosen[self.turn_v] = sent
        await ws.send(json.dumps({"t": "act", "d": sent, "v": self.turn_v}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    parser.add_argument("--token", required=True, help="the account's bot token (rbb_...)")
    parser.add_argument("--table", help="join this lobby table (else open one)")
    parser.add_argument("--seat", default="S", help="the seat to take (N W S E)")
    parser.add_argument("--invite", help="the invitation code of a private table")
    parser.add_argument("--preset", default="ffb", help="the rules of a table it opens")
    parser.add_argument("--target", type=int, default=500, help="the match target")
    parser.add_argument("--level", default="beginner", help="the computers' level")
    parser.add_argument("--public", action="store_true", help="open a public table")
    parser.add_argument("--ranked", action="store_true", help="open a ranked table")
    parser.add_argument("--speed", default="fast", help="the computers' pace")
    parser.add_argument("--seed", type=int, help="seed of the bot's random choices")
    parser.add_argument("--drop-after", type=int, help="cut the connection once, after N messages")
    args = parser.parse_args()
    server = args.server.rstrip("/")
    try:
        if args.table:
            body = {"seat": args.seat, "invite": args.invite}
            path = f"/api/lobby/tables/{args.table}/join"
            table_id = rest(server, args.token, "POST", path, body)["table_id"]
        else:
            seat = rest(
                server,
                args.token,
                "POST",
                "/api/lobby/tables",
                {
                    "preset": args.preset,
                    "target": args.target,
                    "visibility": "public" if args.public else "private",
                    "ranked": args.ranked,
                    "seat": args.seat,
                    "options": {"speed": args.speed},
                },
            )
            table_id = seat["table_id"]
            path = f"/api/lobby/tables/{table_id}"
            rest(server, args.token, "POST", f"{path}/fill", {"level": args.level})
            rest(server, args.token, "POST", f"{path}/start")
        print(f"table {table_id}", flush=True)
        bot = Bot(server, args.token, table_id, random.Random(args.seed))
        end = asyncio.run(bot.run(args.drop_after))
    except Refused as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    print(
        f"match over: {end['winner']} won, totals {end['totals']}; "
        f"{bot.acts} actions, {bot.reconnections} reconnection(s)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
