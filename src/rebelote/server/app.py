"""The web application: REST endpoints, the WebSocket per seat, the static
client.

- ``POST /api/tables`` (:class:`~rebelote.server.protocol.messages.CreateTable`) ->
  201 :class:`~rebelote.server.protocol.messages.CreatedTable`; also sets the
  ``rebelote_token`` cookie (HttpOnly) so that the start page can offer
  "Continue your match".
- ``GET /api/tables/{id}`` -> :class:`~rebelote.server.protocol.messages.TablePublic`.
- ``GET /api/presets`` -> a list of
  :class:`~rebelote.server.protocol.messages.PresetInfo` (one-line description,
  options, help lines built from the options).
- ``GET /api/me/current[?token=...]`` (token from the query or the cookie) ->
  :class:`~rebelote.server.protocol.messages.CurrentTable`.
- ``GET /api/protocol`` -> the JSON Schemas of the WebSocket messages.
- ``WS /ws/lobby``: the public tables and a waiting room, pushed (see
  :mod:`rebelote.server.tables.lobby`).
- ``WS /ws/{table_id}?token=...[&last_v=N]`` (``?watch=1``: a spectator):
  see :mod:`rebelote.server.api.table_socket`.
- Network play (accounts, lobby, history, replays, leaderboard): see
  :mod:`rebelote.server.api.routes`; the daily deal (``/api/daily...``):
  :mod:`rebelote.server.api.daily`.
- Tournaments (``/api/tournaments``, ``WS /ws/tournament/{id}``): see
  :mod:`rebelote.server.api.tournaments`; every process runs them
  (:mod:`rebelote.server.tournaments.runner`).
- Everything else: the static client in ``static_dir`` (default
  ``rebelote/web/``), ``index.html`` at ``/``.

REST errors are ``{"detail": {"code": ..., "message": ...}}`` with status
400 or 404; a request that does not validate (body, query) gets 422 with
code ``invalid``, the message naming the field and the problem, never the
value sent (:func:`rebelote.server.api.routes.validation_error`).

Limits (:class:`~rebelote.server.settings.ServerSettings`, ``settings``):
the edge (:class:`~rebelote.server.api.guard.Guard`: URL and body sizes, JSON
depth, security headers on every response), throttles
(:class:`~rebelote.server.api.throttle.Throttle`: 429 ``rate_limited``),
bounded password work, idle tables leaving memory.

Several processes (``settings.redis_url``, or a ``broker`` given): the
broker (:mod:`rebelote.server.broker`) carries the lobby and presence, and
the throttles, the chat's rate limit and the sockets per address are counted
in the same Redis (``docs/scale-out.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Cookie, FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi.staticfiles import StaticFiles
from redis.asyncio import Redis
from redis.exceptions import RedisError

from rebelote.server.api import daily as daily_api
from rebelote.server.api import profiles, progression
from rebelote.server.api import routes as api
from rebelote.server.api import tournaments as tournaments_api
from rebelote.server.api.guard import Guard
from rebelote.server.api.help import preset_infos
from rebelote.server.api.replays import Replays
from rebelote.server.api.table_socket import serve_socket
from rebelote.server.api.throttle import (
    Throttle,
    ThrottleUnavailable,
    client_key,
    socket_count,
    throttle_unavailable,
)
from rebelote.server.broker import Broker, MemoryBroker, RedisBroker, new_process_id
from rebelote.server.broker.redis import REDIS_TIMEOUT
from rebelote.server.claim import claim_database, keep_claim, redis_unreachable, release_claim
from rebelote.server.people.chat import RedisRateLimiter
from rebelote.server.people.passwords import PasswordWork
from rebelote.server.protocol.messages import (
    CreatedTable,
    CreateTable,
    CurrentTable,
    PresetInfo,
    ProtocolError,
    TablePublic,
    protocol_schema,
)
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.tables import Store, default_database_url
from rebelote.server.tables import bots
from rebelote.server.tables.analysis import Analyses
from rebelote.server.tables.bots import WarmSolver
from rebelote.server.tables.daily import DailyDeals, check_own_options
from rebelote.server.tables.lobby import serve_lobby
from rebelote.server.tables.registry import TableManager
from rebelote.server.tournaments.runner import TournamentRunner

__all__ = ["COOKIE", "WEB_DIR", "create_app", "new_broker"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The static client shipped in the package (``rebelote/web/``)."""

COOKIE = "rebelote_token"
"""The cookie holding the token of the player's latest table."""


def new_broker(settings: ServerSettings) -> Broker:
    """The broker ``settings`` ask for: a
    :class:`~rebelote.server.broker.RedisBroker` on ``redis_url`` (keys
    under ``redis_prefix``), else a
    :class:`~rebelote.server.broker.MemoryBroker` (one process)."""
    if settings.redis_url:
        return RedisBroker(settings.redis_url, prefix=settings.redis_prefix)
    return MemoryBroker()


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    static_dir: Path | None = None,
    migrate: bool = True,
    seed: int | None = None,
    warm_solver: WarmSolver = "off",
    settings: ServerSettings | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "rb:",
    broker: Broker | None = None,
) -> FastAPI:
    """The application.

    ``database_url``: any SQLAlchemy URL (default:
    :func:`~rebelote.server.storage.tables.default_database_url`); ``bot_delay``:
    seconds before each computer action, overriding every table's speed
    (0 in tests); ``static_dir``: the client's files (default
    :data:`WEB_DIR`); ``migrate``: upgrade the schema on start; ``seed``:
    reproducible table seeds (tests; default: random); ``warm_solver``:
    when to compile the expert's numba kernel in a background thread
    (about 7 s of one core and 200 MB, once per process), so that the
    first expert move of a table does not wait for it: ``experts`` once a
    table seating an expert is created or loaded (``rebelote serve``),
    ``start`` at start (``rebelote play``), ``off`` never (tests; see
    :func:`rebelote.server.tables.bots.warm_solver`); ``settings``: the limits (default
    :class:`ServerSettings`).

    Several processes (``docs/scale-out.md``): ``redis_url``
    (``redis://HOST:PORT/DB``; or ``settings.redis_url``) shares the tables
    with every process using the same Redis and ``redis_prefix`` (its keys'
    and channels' prefix; or ``settings.redis_prefix``) through a
    :class:`~rebelote.server.broker.RedisBroker`, and counts the throttles,
    the chat's rate limit and the sockets per address in that Redis;
    ``broker``: a broker made by the caller (tests; it is started and
    closed with the app).  Neither: one process, a
    :class:`~rebelote.server.broker.MemoryBroker`, everything in memory.
    One database, one cluster: the app claims the database for its Redis
    and prefix (or for processes without Redis) at start, and its start
    fails with :class:`~rebelote.server.claim.ClusterClaimed` when another
    cluster's claim is fresh (:mod:`rebelote.server.claim`).

    The settings, store, broker, tables, throttle, password work and
    replays live in ``app.state`` (``settings``, ``store``, ``broker``,
    ``tables``, ``throttle``, ``passwords``, ``replays``) while the app runs.
    """
    url = database_url or default_database_url()
    settings = settings or ServerSettings()
    if redis_url:
        settings = settings.but(redis_url=redis_url, redis_prefix=redis_prefix)
    # the counters every process shares (made here: the guard needs one)
    shared: Redis | None = None
    if settings.redis_url:
        shared = Redis.from_url(
            settings.redis_url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
        )
    sockets = socket_count(settings, shared, new_process_id())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url, settings=settings)
        if migrate:
            store.migrate()
        made = broker if broker is not None else new_broker(settings)
        # one database, one cluster: refused (ClusterClaimed) before any
        # table is taken when another cluster drives this database
        claim_url, claim_prefix = (
            (made.url, made.prefix) if isinstance(made, RedisBroker) else (None, "")
        )
        try:
            if shared is not None:
                # Redis reached before the claim: a process that cannot
                # start must not claim the database
                try:
                    await shared.ping()
                except (RedisError, OSError) as exc:
                    raise redis_unreachable(str(settings.redis_url), exc) from None
            claim_database(store, claim_url, claim_prefix, settings)
        except Exception:
            store.close()
            raise
        await made.start()
        manager = TableManager(store, made, bot_delay=bot_delay, seed=seed, settings=settings)
        if shared is not None:
            manager.chat_limiter = RedisRateLimiter(shared, prefix=settings.redis_prefix)
        throttle = Throttle(settings)
        app.state.store = store
        app.state.broker = made
        app.state.tables = manager
        app.state.throttle = throttle
        app.state.passwords = PasswordWork(settings.password_workers, settings.password_queue)
        app.state.replays = replays = Replays(settings)
        app.state.analyses = analyses = Analyses(settings)
        app.state.daily = daily = DailyDeals(manager, server_seed=seed)
        await manager.lobby_hub.start()
        bots.warm_solver(warm_solver)
        await manager.restore_unfinished()
        manager.start_sweeping()
        heartbeat = asyncio.create_task(
            keep_claim(store, claim_url, claim_prefix, settings), name="cluster claim"
        )
        app.state.tournaments = tournaments = TournamentRunner(store, manager, made)
        tournaments.start()
        try:
            yield
        finally:
            await tournaments.close()
            await daily.close()
            heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heartbeat
            await manager.close()
            release_claim(store, claim_url, claim_prefix)
            await made.close()
            await sockets.aclose()
            await throttle.close()
            replays.close()
            analyses.close()
            if shared is not None:
                with contextlib.suppress(RedisError, OSError):
                    await shared.aclose()
            store.close()

    app = FastAPI(title="rebelote", version="1", lifespan=lifespan)
    app.state.settings = settings

    def manager_of(app: FastAPI) -> TableManager:
        manager: TableManager = app.state.tables
        return manager

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request, response: Response) -> CreatedTable:
        """Open a new table; the player sits at South (linked to the
        logged-in user, if any, for his history).  Checked first (400
        ``bad_request``: an unknown preset, a level for a seat the table
        does not have; such a request counts against no limit), then
        throttled per user, or per address when anonymous, and per address
        in any case (429 ``rate_limited``)."""
        try:
            TableManager.check_create(body)
            check_own_options(body.options)
        except ProtocolError as exc:
            raise HTTPException(400, {"code": exc.code, "message": exc.message}) from None
        session = await api.optional_session(request)
        throttle: Throttle = app.state.throttle
        who = client_key(request) if session is None else f"user {session.user.id}"
        await throttle.hit_all(
            ("table", settings.solo_table_rate, who),
            *throttle.by_address("table-address", settings.table_address_rate, request),
        )
        try:
            created = await manager_of(app).create(
                body, user_id=None if session is None else session.user.id
            )
        except ProtocolError as exc:
            raise HTTPException(400, {"code": exc.code, "message": exc.message}) from None
        response.set_cookie(
            COOKIE,
            created.token,
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return created

    @app.get("/api/tables/{table_id}")
    async def get_table(
        table_id: str,
        request: Request,
        invite: Annotated[str | None, Query(max_length=64)] = None,
        token: Annotated[str | None, Query(max_length=128)] = None,
    ) -> TablePublic:
        """What anyone may know of a table: a solo or public one to anyone,
        a private one as ``/api/lobby/tables/{id}`` (its players, by their
        session or a seat's ``token``, or with its ``invite``), else 404."""
        try:
            table = await manager_of(app).get(table_id) if api.valid_table_id(table_id) else None
        except ProtocolError as exc:
            raise HTTPException(503, {"code": exc.code, "message": exc.message}) from None
        if table is None or not api.may_see(
            table, await api.optional_session(request), invite, token
        ):
            raise HTTPException(404, {"code": "table_not_found", "message": "no such table"})
        async with table.lock:
            return table.public()

    @app.get("/api/presets")
    async def presets() -> list[PresetInfo]:
        """The rule presets with their descriptions, options and help."""
        return preset_infos()

    @app.get("/api/me/current")
    async def current(
        token: Annotated[str | None, Query(max_length=128)] = None,
        rebelote_token: Annotated[str | None, Cookie(max_length=128)] = None,
    ) -> CurrentTable:
        """The unfinished table of the token given, or of the cookie's."""
        key = token or rebelote_token
        if not key:
            return CurrentTable(current=None)
        return CurrentTable(current=await manager_of(app).current(key))

    @app.get("/api/protocol")
    async def protocol() -> dict[str, Any]:
        """JSON Schemas of the WebSocket messages."""
        return protocol_schema()

    # before /ws/{table_id}: "lobby" is not a table id (ids have 12 characters)
    @app.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        """The lobby's socket (see :mod:`rebelote.server.tables.lobby`)."""
        await serve_lobby(websocket, manager_of(app))

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        """A seat's WebSocket (see :mod:`rebelote.server.api.table_socket`)."""
        await serve_socket(websocket, manager_of(app), table_id, settings.hello_timeout)

    api.install(app)
    tournaments_api.install(app)
    app.include_router(profiles.router)
    app.include_router(progression.router)
    daily_api.install(app)
    app.add_exception_handler(ThrottleUnavailable, throttle_unavailable)
    app.add_middleware(
        Guard,
        settings=settings,
        sockets=sockets,
        throttle=lambda: getattr(app.state, "throttle", None),
    )

    folder = static_dir or WEB_DIR
    if folder.is_dir():
        app.mount("/", StaticFiles(directory=folder, html=True), name="web")
    return app
