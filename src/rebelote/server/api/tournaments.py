"""The tournaments' endpoints (``docs/tournaments.md``):

- ``GET /api/tournaments`` -> ``{"upcoming", "running", "finished"}``, each
  a list of summaries ``{"id", "name", "kind", "status", "starts_at",
  "ends_at", "round", "rounds", "minutes", "entrants"}`` (``entrants``: how
  many; ``finished`` holds the cancelled ones too, newest first, the last
  :data:`FINISHED_LISTED`);
- ``GET /api/tournaments/{id}`` -> the tournament's view
  (:meth:`~rebelote.server.tournaments.runner.TournamentRunner.view`: ``id``,
  ``name``, ``kind``, ``status``, ``starts_at``, ``round``, ``rounds``,
  ``entrants`` (names), ``standings`` (``rank``, ``name``, ``points``,
  ``played``, ``tiebreak``), ``tables`` (``round``, ``table``, ``seats``:
  four names in seat order N, W, S, E, ``null`` for a computer), ...) and
  ``joined``: whether the requester is entered;
- ``POST /api/tournaments/{id}/join`` and ``/leave`` (session and CSRF
  token, an account: guests get 403 ``account_required``) -> the view;
  refused 409 ``tournament_started`` once registration is closed, 409
  ``not_entered`` (leave), 404 ``tournament_not_found``;
- ``GET /api/profiles/{name}/tournaments`` -> the same by account name
  (for the profile page).
- ``GET /api/users/{id}/tournaments`` -> the tournaments an account
  entered, newest first, with its line of the standings (``rank``,
  ``points``, ``played``; ``null`` before the start) (for profiles);
- ``WS /ws/tournament/{id}``: the view at once, then
  ``{"t": "tournament", "d": view}`` at each change (pairings, results,
  entrants), from whichever process made it (the broker's broadcast on
  :func:`~rebelote.server.tournaments.runner.channel`); a ``ping`` gets
  ``pong``; closed 4404 for no such tournament.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from rebelote.server.api.guard import settle_socket
from rebelote.server.api.routes import optional_session, session_for_change, user_id_of
from rebelote.server.broker.base import Broker, BrokerUnavailable, Subscription
from rebelote.server.people.accounts import Session
from rebelote.server.storage.people import NAME_KEY_LENGTH
from rebelote.server.storage.tournaments import TournamentError
from rebelote.server.tournaments.runner import TournamentRunner, channel, heading

__all__ = ["FINISHED_LISTED", "install", "router", "serve_tournament_socket"]

log = logging.getLogger(__name__)

FINISHED_LISTED = 50
"""Finished (or cancelled) tournaments ``GET /api/tournaments`` lists."""

SOCKET_QUEUE = 64
"""Views waiting for a slow page; beyond it the page gets the latest one
only."""

router = APIRouter(prefix="/api")

Changing = Annotated[Session, Depends(session_for_change)]
Viewing = Annotated[Session | None, Depends(optional_session)]


def _runner(request: Request) -> TournamentRunner:
    runner: TournamentRunner = request.app.state.tournaments
    return runner


def _err(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message})


def _id(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 9):
        raise _err(404, "tournament_not_found", "no such tournament")
    return int(text)


def _refused(exc: TournamentError) -> HTTPException:
    status = {"tournament_not_found": 404}.get(exc.code, 409)
    return _err(status, exc.code, exc.message)


async def _view(runner: TournamentRunner, tournament_id: int, user: Session | None) -> Any:
    view = await asyncio.to_thread(runner.view, tournament_id)
    if view is None:
        raise _err(404, "tournament_not_found", "no such tournament")
    joined = False
    if user is not None:
        ids = await asyncio.to_thread(runner.db.tournaments_of, user.user.id)
        joined = tournament_id in ids
    return {**view, "joined": joined}


@router.get("/tournaments")
async def tournaments(request: Request) -> dict[str, list[dict[str, Any]]]:
    """The tournaments to come, running, and finished (see the module)."""
    every = await asyncio.to_thread(_runner(request).db.all)
    out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    for t in every:
        summary = {**heading(t), "entrants": t.entrants}
        key = {"open": "upcoming", "running": "running"}.get(t.status, "finished")
        out[key].append(summary)
    out["finished"] = out["finished"][::-1][:FINISHED_LISTED]
    return out


@router.get("/tournaments/{tournament_id}")
async def tournament(tournament_id: str, request: Request, session: Viewing) -> Any:
    """One tournament's view, with ``joined``."""
    return await _view(_runner(request), _id(tournament_id), session)


def _account(session: Session) -> None:
    if session.user.guest:
        raise _err(403, "account_required", "a tournament needs an account")


@router.post("/tournaments/{tournament_id}/join")
async def join(tournament_id: str, request: Request, session: Changing) -> Any:
    """Enter the tournament before its start (again: no change)."""
    _account(session)
    runner = _runner(request)
    number = _id(tournament_id)
    try:
        await asyncio.to_thread(
            runner.db.join, number, session.user.id, session.user.name, now=time.time()
        )
    except TournamentError as exc:
        raise _refused(exc) from None
    await runner.publish(number)
    return await _view(runner, number, session)


@router.post("/tournaments/{tournament_id}/leave")
async def leave(tournament_id: str, request: Request, session: Changing) -> Any:
    """Withdraw before the start."""
    _account(session)
    runner = _runner(request)
    number = _id(tournament_id)
    try:
        await asyncio.to_thread(runner.db.leave, number, session.user.id)
    except TournamentError as exc:
        raise _refused(exc) from None
    await runner.publish(number)
    return await _view(runner, number, session)


def _entered(runner: TournamentRunner, number: int) -> list[dict[str, Any]]:
    """The tournaments account ``number`` entered, newest first, each as
    ``{"id", "name", "kind", "status", "starts_at", "entrants", "rank",
    "points", "played"}`` (the last three ``None`` before the start);
    synchronous (call it in a worker thread)."""
    user = runner.store.user(number)
    out: list[dict[str, Any]] = []
    if user is None:
        return out
    for tid in reversed(runner.db.tournaments_of(number)):
        view = runner.view(tid)
        if view is None:
            continue
        line = next((s for s in view["standings"] if s["name"] == user.name), None)
        started = view["status"] in ("running", "finished")
        out.append(
            {
                "id": view["id"],
                "name": view["name"],
                "kind": view["kind"],
                "status": view["status"],
                "starts_at": view["starts_at"],
                "entrants": len(view["entrants"]),
                "rank": line["rank"] if line and started else None,
                "points": line["points"] if line and started else None,
                "played": line["played"] if line and started else None,
            }
        )
    return out


@router.get("/users/{user_id}/tournaments")
async def user_tournaments(user_id: str, request: Request) -> list[dict[str, Any]]:
    """The tournaments an account entered, newest first, with its standing."""
    number = user_id_of(user_id)
    if number is None:
        raise _err(404, "user_not_found", "no such user")
    runner = _runner(request)
    return await asyncio.to_thread(_entered, runner, number)


@router.get("/profiles/{name}/tournaments")
async def profile_tournaments(name: str, request: Request) -> list[dict[str, Any]]:
    """The tournaments of the account named ``name`` (casefolded, as at
    login), as ``/api/users/{id}/tournaments`` gives them: for its
    profile page.  404 ``no_such_account`` for a name no account has."""
    runner = _runner(request)
    user = None
    if 0 < len(name) <= NAME_KEY_LENGTH:
        user = await asyncio.to_thread(runner.store.user_by_name, name)
    if user is None or user.guest:
        raise _err(404, "no_such_account", "no account has this name")
    return await asyncio.to_thread(_entered, runner, user.id)


async def serve_tournament_socket(ws: WebSocket, runner: TournamentRunner, text_id: str) -> None:
    """One tournament page's socket (see the module's docstring); closed
    with 4404 for no such tournament."""
    await ws.accept()
    settle_socket(ws.scope, "tournament")
    number = int(text_id) if text_id.isascii() and text_id.isdigit() and len(text_id) <= 9 else 0
    broker: Broker = runner.broker
    queue: asyncio.Queue[str | None] = asyncio.Queue(SOCKET_QUEUE)

    def put(item: str | None) -> None:
        if queue.full():  # a slow page: it gets the latest view only
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    queue.get_nowait()
            item = None
        queue.put_nowait(item)

    subscription: Subscription | None = None
    reader: asyncio.Task[Any] | None = None
    try:
        try:
            subscription = await broker.subscribe(
                channel(number),
                None,
                lambda _v, _text: None,
                direct=lambda _sender, text: put(text),
                resync=lambda: put(None),
            )
        except BrokerUnavailable:
            await ws.close(code=1013, reason="try again later")
            return
        view = await asyncio.to_thread(runner.view, number)
        if view is None:
            await ws.close(code=4404, reason="tournament_not_found")
            return
        await ws.send_text(json.dumps({"t": "tournament", "d": view}, ensure_ascii=False))
        reader = asyncio.create_task(_drain(ws, put))
        while True:
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                getter.cancel()
                return
            item = getter.result()
            if item is None:  # missed some: read it again
                fresh = await asyncio.to_thread(runner.view, number)
                if fresh is None:
                    return
                item = json.dumps({"t": "tournament", "d": fresh}, ensure_ascii=False)
            await ws.send_text(item)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if subscription is not None:
            broker.unsubscribe(subscription)
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


PONG = json.dumps({"t": "pong", "d": {}})
"""The answer to a page's ``ping`` (its socket's heartbeat)."""


async def _drain(ws: WebSocket, put: Callable[[str | None], None]) -> None:
    """Read what the page sends until it closes: ``ping`` gets ``pong`` (one
    a second at most: a page pings every 20 s), anything else is ignored."""
    ponged = -1.0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        ping = isinstance(text, str) and len(text) < 100 and '"ping"' in text
        if ping and time.monotonic() - ponged >= 1.0:
            ponged = time.monotonic()
            put(PONG)


def install(app: FastAPI) -> None:
    """Add the tournaments' endpoints and socket to ``app``."""
    app.include_router(router)

    @app.websocket("/ws/tournament/{tournament_id}")
    async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
        """A tournament page's socket."""
        runner: TournamentRunner = websocket.app.state.tournaments
        await serve_tournament_socket(websocket, runner, tournament_id)
