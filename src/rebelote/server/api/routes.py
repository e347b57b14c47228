"""The REST endpoints of network play: accounts and sessions, the lobby,
history, replays and exports, the leaderboard.

Every body is a strict pydantic model (unknown fields refused, lengths
bounded); every refusal is ``{"detail": {"code", "message"}}`` with its
status, and changes nothing.  A request that changes something on the
strength of the session cookie must carry the session's CSRF token in the
``X-CSRF-Token`` header (:mod:`rebelote.server.people.accounts`).

Accounts: ``POST /api/auth/signup`` ``{name, password}``, ``POST
/api/auth/login``, ``POST /api/auth/guest`` ``{name}``, ``POST
/api/auth/logout``, ``POST /api/auth/password`` ``{old, new}``, ``GET
/api/me``.  Lobby: ``GET /api/lobby``, ``POST /api/lobby/tables``, ``GET
/api/lobby/tables/{id}``, ``POST /api/lobby/tables/{id}/join`` | ``token`` |
``leave`` | ``bot`` | ``fill`` | ``start`` (these also with a bot token,
``Authorization: Bearer``, instead of the session: ``docs/bot-api.md``).
Bot tokens: ``POST /api/me/bot-tokens`` ``{name}``, ``GET
/api/me/bot-tokens``, ``DELETE /api/me/bot-tokens/{id}``.  History: ``GET
/api/me/history``, ``GET /api/users/{id}``, ``GET /api/leaderboard``, ``GET
/api/tables/{id}/replay``, ``GET /api/tables/{id}/record``, ``GET
/api/tables/{id}/analysis``.  Profiles: ``GET /api/profiles/{name}``
(:mod:`rebelote.server.api.profiles`, installed by the app).  See
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt
from sqlalchemy.exc import SQLAlchemyError

from rebelote.seats import Seat
from rebelote.server.api.replays import Replays
from rebelote.server.api.throttle import (
    DEVICE_COOKIE,
    RateLimited,
    Throttle,
    ThrottleUnavailable,
    client_key,
)
from rebelote.server.people.accounts import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    SESSION_LIFETIME,
    Session,
    check_csrf,
    clean_name,
    new_session,
    session_hash,
)
from rebelote.server.people.bot_tokens import (
    MAX_BOT_TOKENS,
    bearer_token,
    bot_token_hash,
    is_bot_token,
    new_bot_token,
)
from rebelote.server.people.names import name_key, plain_text
from rebelote.server.people.passwords import MIN_PASSWORD, Busy, PasswordWork, password_problem
from rebelote.server.people.ratings import level_of, level_threshold
from rebelote.server.protocol.messages import (
    BotLevel,
    ProtocolError,
    RoomData,
    SeatLetter,
    TableOptions,
)
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.people import NameTakenError, User
from rebelote.server.storage.tables import Store, hash_token, storage_failure
from rebelote.server.tables.analysis import Analyses, NotFinished
from rebelote.server.tables.daily import check_own_options
from rebelote.server.tables.history import deal_record, match_record, replay_data
from rebelote.server.tables.registry import AnyRoom, TableManager, ws_path
from rebelote.server.tables.table import MOVED

__all__ = [
    "MIN_PASSWORD",
    "USER_ID_MAX",
    "may_see",
    "optional_session",
    "router",
    "user_id_of",
    "valid_table_id",
    "validation_error",
]

_log = logging.getLogger(__name__)

USER_ID_MAX = 2**31 - 1
"""The largest user id the database holds (a larger one is no user: 404)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _encodable(text: str) -> str:
    """A password that UTF-8 can encode (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds a character that is not text (a lone surrogate)") from None
    return text


class Credentials(_Body):
    """``POST /api/auth/signup`` and ``/login``."""

    name: str = Field(min_length=1, max_length=40)
    password: Annotated[str, AfterValidator(_encodable)] = Field(min_length=1, max_length=200)


class GuestBody(_Body):
    """``POST /api/auth/guest``: the name to play under."""

    name: str = Field(min_length=1, max_length=40)


class PasswordChange(_Body):
    """``POST /api/auth/password``."""

    old: Annotated[str, AfterValidator(_encodable)] = Field(min_length=1, max_length=200)
    new: Annotated[str, AfterValidator(_encodable)] = Field(min_length=1, max_length=200)


class UserInfo(_Body):
    """A player as others may see him: ``rating`` is the displayed rating,
    an integer on an Elo-like scale (1500 for a new account, never below 0:
    :func:`~rebelote.server.people.ratings.display_rating` of ``mu``);
    ``provisional`` while it is still unsure
    (:func:`~rebelote.server.people.ratings.is_provisional`); ``mu`` / ``sigma``
    its OpenSkill parts; ``level`` from ``xp`` (``docs/ratings.md``)."""

    id: int
    name: str
    guest: bool
    rating: int
    provisional: bool
    mu: float
    sigma: float
    rated: int
    matches: int
    xp: int
    level: int
    next_level_xp: int


class Me(_Body):
    """``GET /api/me`` and the answer of ``/api/auth/*``: the user (null when
    not logged in) and the CSRF token to send in ``X-CSRF-Token``."""

    user: UserInfo | None
    csrf: str | None


class CreateLobbyTable(_Body):
    """``POST /api/lobby/tables``: a table waiting for players, its creator
    (the host) at ``seat``.  ``options.move_clock`` defaults to 60 seconds on
    a ranked table, off on a friendly one."""

    name: Annotated[str, AfterValidator(plain_text)] = Field(default="", max_length=60)
    preset: str = Field(default="ffb", max_length=40)
    target: StrictInt | None = Field(default=None, ge=1, le=100_000)
    visibility: Literal["public", "private"] = "public"
    ranked: StrictBool = False
    seat: SeatLetter = "S"
    options: TableOptions = Field(default_factory=TableOptions)


class JoinBody(_Body):
    """``POST /api/lobby/tables/{id}/join``: the free seat to take, and the
    invitation code of a private table."""

    seat: SeatLetter
    invite: str | None = Field(default=None, max_length=64)


class BotBody(_Body):
    """``POST /api/lobby/tables/{id}/bot``: a computer player of ``level`` at
    ``seat`` (``level`` null: empty the seat again)."""

    seat: SeatLetter
    level: BotLevel | None


class FillBody(_Body):
    """``POST /api/lobby/tables/{id}/fill``: computer players of ``level`` in
    every empty seat."""

    level: BotLevel = "intermediate"


class SeatToken(_Body):
    """A seat and its secret token (give it to the WebSocket: ``ws_url``)."""

    table_id: str
    seat: SeatLetter
    token: str
    ws_url: str
    invite: str | None = None


class BotTokenBody(_Body):
    """``POST /api/me/bot-tokens``: a label for the new token."""

    name: Annotated[str, AfterValidator(plain_text)] = Field(
        default="bot", min_length=1, max_length=40
    )


class BotTokenInfo(_Body):
    """A bot token of the account: its ``id``, ``name``, when it was
    ``created`` (Unix seconds), and the ``token`` itself only in the answer
    that made it (the server keeps its SHA-256 alone)."""

    id: int
    name: str
    created: float
    token: str | None = None


class HistoryTable(_Body):
    """One table in a player's history: the seat he holds, the status, the
    room (seats, rules)."""

    table_id: str
    seat: SeatLetter
    status: str
    room: RoomData


class ResultInfo(_Body):
    """One finished (or left) match of a player.  ``ranked``: the match
    changed ratings; else ``unrated_reason`` says why not (``friendly``: an
    unranked table; ``left``: a human left it; ``standins``: computer
    players standing in for an absent human played more than
    :data:`~rebelote.server.people.ratings.STANDIN_SHARE_LIMIT` of his seat's
    cards; ``bots``: an outside program played a seat of a ranked table
    that does not rate them, ``options.bots_rated``).  ``rating_before`` /
    ``rating_after``: the displayed rating (as :class:`UserInfo`'s
    ``rating`` and the leaderboard), before the match and after it (null
    after an unrated match, and for a guest); ``mu_*`` / ``sigma_*``: its
    parts."""

    table_id: str
    match: int
    seat: SeatLetter
    side: str
    won: bool
    left: bool
    ranked: bool
    unrated_reason: Literal["friendly", "left", "standins", "bots"] | None
    rating_before: int | None
    rating_after: int | None
    mu_before: float | None
    sigma_before: float | None
    mu_after: float | None
    sigma_after: float | None
    xp: int
    deals: int
    at: float


class History(_Body):
    """``GET /api/me/history``: running tables and finished matches."""

    running: list[HistoryTable]
    results: list[ResultInfo]


router = APIRouter(prefix="/api")


def _err(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message})


def _refused(exc: ProtocolError) -> HTTPException:
    if exc.code == MOVED:  # the table changed hands meanwhile: nothing stored
        exc = ProtocolError("unavailable", "the table moved to another server process; try again")
    status = {
        "table_not_found": 404,
        "not_host": 403,
        "seat_taken": 409,
        "account_required": 403,
        "unavailable": 503,
        "internal": 500,
        "not_open": 409,
        "table_closed": 409,
        "already_seated": 409,
        "seats_empty": 409,
        "no_human": 409,
        "no_seat": 403,
    }.get(exc.code, 400)
    return _err(status, exc.code, exc.message)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _tables(request: Request) -> TableManager:
    tables: TableManager = request.app.state.tables
    return tables


def _settings(request: Request) -> ServerSettings:
    settings: ServerSettings = request.app.state.settings
    return settings


def _throttle(request: Request) -> Throttle:
    throttle: Throttle = request.app.state.throttle
    return throttle


def _passwords(request: Request) -> PasswordWork:
    work: PasswordWork = request.app.state.passwords
    return work


def _weak(password: str, name: str) -> None:
    problem = password_problem(password, name)
    if problem is not None:
        reason, message = problem
        raise HTTPException(400, {"code": "weak_password", "message": message, "reason": reason})


def valid_table_id(table_id: str) -> bool:
    """Whether ``table_id`` may name a table: 1 to 32 of ``A-Z a-z 0-9 _
    -`` (anything else is no table, without asking the database)."""
    return 0 < len(table_id) <= 32 and all(
        c.isascii() and (c.isalnum() or c in "_-") for c in table_id
    )


def user_info(user: User) -> UserInfo:
    """The public :class:`UserInfo` of ``user``."""
    level = level_of(user.xp)
    return UserInfo(
        id=user.id,
        name=user.name,
        guest=user.guest,
        rating=user.rating,
        provisional=user.provisional,
        mu=round(user.mu, 3),
        sigma=round(user.sigma, 3),
        rated=user.rated,
        matches=user.matches,
        xp=user.xp,
        level=level,
        next_level_xp=level_threshold(level + 1),
    )


async def optional_session(request: Request) -> Session | None:
    """The session of the request's cookie, if valid."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie or len(cookie) > 128:
        return None
    found = await asyncio.to_thread(_store(request).session_user, session_hash(cookie))
    if found is None:
        return None
    return Session(found[0], found[1])


async def session_for_change(
    request: Request,
    csrf: Annotated[str | None, Header(alias=CSRF_HEADER, max_length=128)] = None,
) -> Session:
    """The session of a request that changes something: logged in (401
    ``not_logged_in``) and carrying the CSRF token (403 ``csrf``)."""
    session = await optional_session(request)
    if session is None:
        raise _err(401, "not_logged_in", "log in or play as a guest first")
    if not check_csrf(session, csrf):
        raise _err(403, "csrf", f"missing or wrong {CSRF_HEADER} header")
    return session


async def bot_session(request: Request) -> Session | None:
    """The account of the request's ``Authorization: Bearer <bot token>``
    (a session marked ``bot``), or ``None`` without that header.  An
    unknown or revoked bot token: 401 ``bad_bot_token``."""
    token = bearer_token(request.headers.get("authorization"))
    if token is None:
        return None
    user = None
    if is_bot_token(token):
        user = await asyncio.to_thread(_store(request).bot_token_user, bot_token_hash(token))
    if user is None:
        raise _err(401, "bad_bot_token", "this bot token is unknown or was revoked")
    return Session(user, "", bot=True)


async def player_session(
    request: Request,
    csrf: Annotated[str | None, Header(alias=CSRF_HEADER, max_length=128)] = None,
) -> Session:
    """The player of a lobby request that changes something: an outside
    program with its account's bot token (``Authorization: Bearer``; a
    header a page on another site cannot make a browser send, so no CSRF
    token), else the session as :func:`session_for_change` reads it."""
    bot = await bot_session(request)
    if bot is not None:
        return bot
    return await session_for_change(request, csrf)


Changing = Annotated[Session, Depends(session_for_change)]
Viewing = Annotated[Session | None, Depends(optional_session)]
Playing = Annotated[Session, Depends(player_session)]


def _login(request: Request, response: Response, session: Session) -> Me:
    """Set the session and CSRF cookies (``Secure`` when the request came
    over HTTPS, e.g. through a TLS reverse proxy sending
    ``X-Forwarded-Proto``)."""
    assert session.cookie is not None
    secure = request.url.scheme == "https"
    response.set_cookie(
        SESSION_COOKIE,
        session.cookie,
        max_age=int(SESSION_LIFETIME),
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    response.set_cookie(
        CSRF_COOKIE, session.csrf, max_age=int(SESSION_LIFETIME), samesite="lax", secure=secure
    )
    return Me(user=user_info(session.user), csrf=session.csrf)


async def _remember_device(request: Request, response: Response, key: str) -> None:
    """The browser logged in to the account of name key ``key``: its
    device token (the ``rebelote_device`` cookie, a new one if it has none)
    is known there from now (:meth:`~rebelote.server.api.throttle.Throttle.remember_device`),
    and the cookie is set again (HttpOnly, SameSite=Lax, sent to
    ``/api/auth`` only, ``Secure`` over HTTPS, kept
    ``settings.login_device_ttl`` seconds).  With the throttles' storage
    out of reach, nothing is remembered and the login goes on."""
    try:
        device = await _throttle(request).remember_device(request.cookies.get(DEVICE_COOKIE), key)
    except ThrottleUnavailable:
        return
    response.set_cookie(
        DEVICE_COOKIE,
        device,
        max_age=max(1, int(_settings(request).login_device_ttl)),
        path="/api/auth",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _name(text: str) -> str:
    try:
        return clean_name(text)
    except ValueError as exc:
        raise _err(400, "bad_name", str(exc)) from None


# ------------------------------------------------------------------ accounts


@router.post("/auth/signup", status_code=201)
async def signup(body: Credentials, request: Request, response: Response) -> Me:
    """Create an account and log in.  From a guest's session, the guest
    becomes the account (same user id: his seats, results and history stay
    his; his seats lose their guest mark and take the new name), and his
    session is replaced by a new one."""
    name = _name(body.name)
    store = _store(request)
    if await asyncio.to_thread(store.account_like, name) is not None:
        raise _err(409, "name_taken", f"the name {name!r} is taken, or reads like one taken")
    _weak(body.password, name)
    settings, throttle = _settings(request), _throttle(request)
    await throttle.hit_all(
        *throttle.creation("signup", settings.signup_rate, settings.global_signup_rate, request)
    )
    digest = await _passwords(request).hash(body.password)
    current = await optional_session(request)
    try:
        user = None
        if current is not None and current.user.guest:
            with contextlib.suppress(ValueError):  # signed up meanwhile
                user = await asyncio.to_thread(store.upgrade_guest, current.user.id, name, digest)
        if user is not None:
            await asyncio.to_thread(store.delete_sessions_of, user.id)
            await _tables(request).guest_upgraded(user.id, user.name)
        else:
            user = await asyncio.to_thread(store.create_user, name, digest, guest=False)
    except NameTakenError as exc:
        raise _err(409, "name_taken", str(exc)) from None
    await _remember_device(request, response, name_key(user.name))
    return _login(request, response, await asyncio.to_thread(new_session, store, user))


@router.post("/auth/login")
async def login(body: Credentials, request: Request, response: Response) -> Me:
    """Log in to an account.  Throttled (429 ``rate_limited``) after wrong
    passwords (:class:`~rebelote.server.api.throttle.Throttle`): the attempt
    is counted before its password is checked, so that attempts sent at
    once cannot pass the limit together; a name with no account takes as
    long to refuse as a wrong password.  From a browser that logged in to
    that account before (its ``rebelote_device`` cookie), the address's
    count neither counts nor refuses the attempt (the pair's and the
    name's do); a success makes the browser known there
    (:func:`_remember_device`)."""
    store = _store(request)
    throttle, work = _throttle(request), _passwords(request)
    address = client_key(request)
    try:
        name = clean_name(body.name)
    except ValueError:
        name = None
    key = name_key(name) if name is not None else body.name.casefold()
    known = await throttle.known_device(request.cookies.get(DEVICE_COOKIE), key)
    claim = await throttle.login_claim(key, address, known_device=known)
    user: User | None = None
    rehashed: str | None = None
    checked = False
    try:
        candidates = [] if name is None else await asyncio.to_thread(store.accounts_named, name)
        for candidate in candidates:
            ok, rehashed = await work.verify(candidate.password_hash, body.password)
            checked = True
            if ok:
                user = candidate
                break
        if not candidates:
            await work.verify_nobody(body.password)
    except Exception:
        if not checked:  # busy, or no storage: no password was tried
            await claim.release()
        raise
    if user is None:
        raise _err(401, "bad_credentials", "wrong name or password")
    await claim.succeeded()
    await _remember_device(request, response, key)
    if rehashed is not None:
        await asyncio.to_thread(store.set_password, user.id, rehashed)
    return _login(request, response, await asyncio.to_thread(new_session, store, user))


@router.post("/auth/guest")
async def guest(body: GuestBody, request: Request, response: Response) -> Me:
    """Play as a guest under a chosen name (unranked tables only); 409
    ``name_taken`` for an account's name (compared as account names are:
    casefolded, spaces collapsed), so that nobody passes for its owner."""
    name = _name(body.name)
    store = _store(request)
    if await asyncio.to_thread(store.account_like, name) is not None:
        raise _err(
            409,
            "name_taken",
            f"{name!r} is the name of an account: log in, or choose another name",
        )
    settings, throttle = _settings(request), _throttle(request)
    await throttle.hit_all(*throttle.by_address("guest", settings.guest_rate, request))
    user = await asyncio.to_thread(store.create_user, name, None, guest=True)
    return _login(request, response, await asyncio.to_thread(new_session, store, user))


@router.post("/auth/logout")
async def logout(session: Changing, request: Request, response: Response) -> Me:
    """End this session."""
    cookie = request.cookies.get(SESSION_COOKIE, "")
    await asyncio.to_thread(_store(request).delete_session, session_hash(cookie))
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)
    return Me(user=None, csrf=None)


@router.post("/auth/password")
async def change_password(body: PasswordChange, session: Changing, request: Request) -> Me:
    """Change the password (the old one is asked again); every other
    session of the account is logged out."""
    store = _store(request)
    user = await asyncio.to_thread(store.user, session.user.id)
    assert user is not None
    if user.guest:
        raise _err(400, "guest", "a guest has no password")
    work = _passwords(request)
    ok, _ = await work.verify(user.password_hash, body.old)
    if not ok:
        raise _err(401, "bad_credentials", "the old password is wrong")
    _weak(body.new, user.name)
    digest = await work.hash(body.new)
    await asyncio.to_thread(store.set_password, user.id, digest)
    cookie = request.cookies.get(SESSION_COOKIE, "")
    await asyncio.to_thread(store.delete_sessions_of, user.id, session_hash(cookie))
    return Me(user=user_info(user), csrf=session.csrf)


@router.get("/me")
async def me(session: Viewing) -> Me:
    """Who is logged in, with the CSRF token."""
    if session is None:
        return Me(user=None, csrf=None)
    return Me(user=user_info(session.user), csrf=session.csrf)


# ------------------------------------------------------------------ lobby


async def _room(request: Request, table_id: str) -> AnyRoom:
    if not valid_table_id(table_id):
        raise _err(404, "table_not_found", "no such table")
    try:
        table = await _tables(request).get(table_id)
    except ProtocolError as exc:  # its server cannot be reached now
        raise _refused(exc) from None
    if table is None or not table.networked:
        raise _err(404, "table_not_found", "no such lobby table")
    return table


def may_see(
    table: AnyRoom, session: Session | None, invite: str | None, token: str | None = None
) -> bool:
    """Whether a requester may see a table: any public (or solo) table; a
    private one with its invitation code, to the players seated there (by
    their session, or by a seat's ``token``)."""
    if table.meta.visibility != "private":
        return True
    if session is not None and table.seat_of_user(session.user.id) is not None:
        return True
    if token and len(token) <= 128 and table.seat_of(token) is not None:
        return True
    code = table.meta.invite
    return bool(invite and code and hmac.compare_digest(invite, code))


def _seat_token(table: AnyRoom, seat: Seat, token: str) -> SeatToken:
    return SeatToken(
        table_id=table.id,
        seat=seat.letter,
        token=token,
        ws_url=f"{ws_path(table.id)}?token={token}",
        invite=table.meta.invite,
    )


def _public_room(table: AnyRoom) -> RoomData:
    return table.room_data().model_copy(update={"invite": None})


@router.get("/lobby")
async def lobby(request: Request) -> list[RoomData]:
    """The public tables: open ones (waiting for players) first, then those
    playing (to watch); an open table none of whose humans has been
    connected for a while (:meth:`~rebelote.server.tables.room.Room.deserted`) is
    left out.  Every process answers the same list (the broker's lobby)."""
    return await _tables(request).lobby_hub.public_rooms()


@router.post("/lobby/tables", status_code=201)
async def open_table(body: CreateLobbyTable, session: Playing, request: Request) -> SeatToken:
    """Open a table; the creator hosts it and sits at ``seat``.  Checked
    first (403 ``account_required``, 400 ``bad_request``: an unknown
    preset, a seat the table does not have; such a request counts against
    no limit), then throttled per user and per address (429
    ``rate_limited``)."""
    if body.ranked and session.user.guest:
        raise _err(403, "account_required", "a ranked table needs an account")
    try:
        TableManager.check_open(body.preset, body.target, body.seat)
        check_own_options(body.options)
    except ProtocolError as exc:
        raise _refused(exc) from None
    settings, throttle = _settings(request), _throttle(request)
    await throttle.hit_all(
        ("lobby-table", settings.lobby_table_rate, f"user {session.user.id}"),
        *throttle.by_address("table-address", settings.table_address_rate, request),
    )
    options = body.options
    if body.ranked and "move_clock" not in options.model_fields_set:
        options = options.model_copy(update={"move_clock": 60})
    # no name: stored empty, each page words it in its language from the
    # host's name ("Table de Ada", "Ada's table")
    name = " ".join(body.name.split())
    try:
        table, token = await _tables(request).open_table(
            name=name[:60],
            preset=body.preset,
            target=body.target,
            visibility=body.visibility,
            ranked=body.ranked,
            seat=body.seat,
            options=options,
            user_id=session.user.id,
            user_name=session.user.name,
            user_guest=session.user.guest,
            outside_bot=session.bot,
        )
    except ProtocolError as exc:
        raise _refused(exc) from None
    return _seat_token(table, Seat[body.seat], token)


@router.get("/lobby/tables/{table_id}")
async def lobby_table(
    table_id: str,
    request: Request,
    session: Viewing,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> RoomData:
    """A lobby table's room (a private one: with its invitation code, or to
    its players)."""
    table = await _room(request, table_id)
    if not may_see(table, session, invite):
        raise _err(404, "table_not_found", "no such lobby table")
    room = table.room_data()
    return room if table.meta.visibility == "private" else _public_room(table)


@router.post("/lobby/tables/{table_id}/join")
async def join(table_id: str, body: JoinBody, session: Playing, request: Request) -> SeatToken:
    """Take a free seat before the start (with a bot token: an outside
    program's seat, marked ``outside_bot``)."""
    table = await _room(request, table_id)
    if not may_see(table, session, body.invite):
        raise _err(404, "table_not_found", "no such lobby table")
    try:
        token = await table.join(
            body.seat,
            user_id=session.user.id,
            name=session.user.name,
            guest=session.user.guest,
            outside_bot=session.bot,
        )
    except ProtocolError as exc:
        raise _refused(exc) from None
    return _seat_token(table, Seat[body.seat], token)


@router.post("/lobby/tables/{table_id}/token")
async def seat_token(table_id: str, session: Playing, request: Request) -> SeatToken:
    """A fresh token for the seat the user holds (e.g. on another device);
    the old token stops working."""
    table = await _room(request, table_id)
    try:
        seat, token = await table.new_token(session.user.id)
    except ProtocolError as exc:
        raise _refused(exc) from None
    return _seat_token(table, seat, token)


def _host_seat(table: AnyRoom, session: Session) -> Seat | None:
    return table.seat_of_user(session.user.id)


@router.post("/lobby/tables/{table_id}/leave")
async def leave(table_id: str, session: Playing, request: Request) -> RoomData:
    """Leave: before the start the seat is free again; during a match the
    match is lost for the leaver and a computer player takes the seat."""
    table = await _room(request, table_id)
    seat = table.seat_of_user(session.user.id)
    if seat is None:
        raise _err(403, "no_seat", "you hold no seat at this table")
    try:
        await table.leave(seat)
    except ProtocolError as exc:
        raise _refused(exc) from None
    return table.room_data()


@router.post("/lobby/tables/{table_id}/bot")
async def set_bot(table_id: str, body: BotBody, session: Playing, request: Request) -> RoomData:
    """The host puts (or removes) a computer player at an empty seat."""
    table = await _room(request, table_id)
    try:
        await table.set_bot(_host_seat(table, session), body.seat, body.level)
    except ProtocolError as exc:
        raise _refused(exc) from None
    return table.room_data()


@router.post("/lobby/tables/{table_id}/fill")
async def fill(table_id: str, body: FillBody, session: Playing, request: Request) -> RoomData:
    """The host fills every empty seat with computer players."""
    table = await _room(request, table_id)
    try:
        await table.fill(_host_seat(table, session), body.level)
    except ProtocolError as exc:
        raise _refused(exc) from None
    return table.room_data()


@router.post("/lobby/tables/{table_id}/start")
async def start(table_id: str, session: Playing, request: Request) -> RoomData:
    """The host starts the match."""
    table = await _room(request, table_id)
    try:
        await table.start(_host_seat(table, session))
    except ProtocolError as exc:
        raise _refused(exc) from None
    return table.room_data()


# ------------------------------------------------------------------ bot tokens


@router.post("/me/bot-tokens", status_code=201)
async def create_bot_token(body: BotTokenBody, session: Changing, request: Request) -> BotTokenInfo:
    """A new bot token for the logged-in account (not a guest: 403
    ``account_required``; at most
    :data:`~rebelote.server.people.bot_tokens.MAX_BOT_TOKENS`: 409
    ``too_many_tokens``).  The answer holds the token, once."""
    if session.user.guest:
        raise _err(403, "account_required", "a bot token needs an account")
    token, digest = new_bot_token()
    made = await asyncio.to_thread(
        _store(request).create_bot_token,
        session.user.id,
        " ".join(body.name.split()),
        digest,
        limit=MAX_BOT_TOKENS,
    )
    if made is None:
        raise _err(409, "too_many_tokens", f"an account holds at most {MAX_BOT_TOKENS} bot tokens")
    return BotTokenInfo(id=made.id, name=made.name, created=made.created, token=token)


@router.get("/me/bot-tokens")
async def bot_tokens(session: Viewing, request: Request) -> list[BotTokenInfo]:
    """The account's bot tokens (never the tokens themselves)."""
    if session is None:
        raise _err(401, "not_logged_in", "log in first")
    tokens = await asyncio.to_thread(_store(request).bot_tokens_of, session.user.id)
    return [BotTokenInfo(id=t.id, name=t.name, created=t.created) for t in tokens]


@router.delete("/me/bot-tokens/{token_id}", status_code=204, response_class=Response)
async def revoke_bot_token(token_id: int, session: Changing, request: Request) -> Response:
    """Revoke one of the account's bot tokens (404 ``not_found``); its
    bot's sockets already open stay open, no new one is accepted."""
    done = await asyncio.to_thread(_store(request).delete_bot_token, session.user.id, token_id)
    if not done:
        raise _err(404, "not_found", "no such bot token")
    return Response(status_code=204)


# ------------------------------------------------------------------ history


@router.get("/me/history")
async def history(session: Viewing, request: Request) -> History:
    """The player's running tables and finished matches."""
    if session is None:
        raise _err(401, "not_logged_in", "log in or play as a guest first")
    store = _store(request)
    tables = await asyncio.to_thread(store.tables_of_user, session.user.id)
    running = []
    for table_id, seat, status in tables:
        if status not in ("open", "playing"):
            continue
        try:
            table = await _tables(request).get(table_id)
        except ProtocolError:
            continue  # its server cannot be reached now
        if table is None or table.seat_rows[Seat[seat]].left:
            continue
        running.append(
            HistoryTable(table_id=table_id, seat=seat, status=status, room=table.room_data())
        )
    results = await asyncio.to_thread(store.results_of_user, session.user.id)
    return History(
        running=running,
        results=[
            ResultInfo(
                table_id=r.table_id,
                match=r.match,
                seat=r.seat,
                side=r.side,
                won=r.won,
                left=r.left,
                ranked=r.ranked,
                unrated_reason=_reason(r.unrated_reason),
                rating_before=r.rating_before,
                rating_after=r.rating_after,
                mu_before=_rounded(r.mu_before, 3),
                sigma_before=_rounded(r.sigma_before, 3),
                mu_after=_rounded(r.mu_after, 3),
                sigma_after=_rounded(r.sigma_after, 3),
                xp=r.xp,
                deals=r.deals,
                at=r.at,
            )
            for r in results
        ],
    )


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _reason(value: str | None) -> Literal["friendly", "left", "standins", "bots"] | None:
    """A stored ``unrated_reason`` (anything else: null)."""
    if value == "friendly":
        return "friendly"
    if value == "left":
        return "left"
    if value == "standins":
        return "standins"
    if value == "bots":
        return "bots"
    return None


def user_id_of(text: str) -> int | None:
    """The user id ``text`` spells (1 to :data:`USER_ID_MAX`, at most 10
    ASCII digits), or ``None`` for anything else (no user: read no further,
    never parse a long number)."""
    if not (0 < len(text) <= len(str(USER_ID_MAX)) and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if 1 <= value <= USER_ID_MAX else None


@router.get("/users/{user_id}")
async def user_profile(user_id: str, request: Request) -> UserInfo:
    """A player's public profile (404 ``user_not_found`` for an id no user
    can have, however long, and for one no user has; the message never
    repeats the id sent)."""
    number = user_id_of(user_id)
    user = None if number is None else await asyncio.to_thread(_store(request).user, number)
    if user is None:
        raise _err(404, "user_not_found", "no such user")
    return user_info(user)


@router.get("/leaderboard")
async def leaderboard(
    request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> list[UserInfo]:
    """Accounts with a rated match: established ratings first, then
    provisional ones, each best rating first."""
    users = await asyncio.to_thread(_store(request).leaderboard, limit)
    return [user_info(u) for u in users]


def _replays(request: Request) -> Replays:
    replays: Replays = request.app.state.replays
    return replays


async def _stored_for(
    request: Request,
    table_id: str,
    session: Session | None,
    token: str | None,
    *,
    throttled: tuple[str, str] | None = None,
) -> Any:
    """The stored table, if the requester may see its finished deals: any
    public or solo table (solo tables by their seat token or player), a
    private one to its players.  Throttled per address first
    (``settings.replay_rate``, or ``throttled``'s name and rate: 429
    ``rate_limited``); read in the replays' pool
    (:class:`~rebelote.server.api.replays.Replays`: 503 ``busy`` when it
    is full)."""
    throttle = _throttle(request)
    name, rate = throttled or ("replay", _settings(request).replay_rate)
    await throttle.hit_all(*throttle.by_address(name, rate, request))
    if not valid_table_id(table_id):
        raise _err(404, "table_not_found", "no such table")
    stored = await _replays(request).load(_store(request), table_id)
    if stored is None:
        raise _err(404, "table_not_found", "no such table")
    if stored.meta.visibility == "public":
        return stored
    digest = hash_token(token) if token else None
    for s in stored.seats:
        if session is not None and s.user_id == session.user.id:
            return stored
        if (
            digest is not None
            and s.token_hash is not None
            and hmac.compare_digest(s.token_hash, digest)
        ):
            return stored
    raise _err(404, "table_not_found", "no such table")


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


@router.get("/tables/{table_id}/replay", response_class=Response)
async def replay(
    table_id: str,
    request: Request,
    session: Viewing,
    match: Annotated[int | None, Query(ge=1)] = None,
    token: Annotated[str | None, Query(max_length=128)] = None,
) -> Response:
    """Every finished deal of the table (or of one match), with all hands,
    bids and tricks, for the replay viewer.  Built in the replays' own
    threads, once per state of the table (then kept); throttled per
    address."""
    stored = await _stored_for(request, table_id, session, token)
    body = await _replays(request).answer(
        stored, ("replay", match), lambda base: replay_data(stored, match, base)
    )
    assert body is not None
    return _json(body)


@router.get("/tables/{table_id}/record", response_class=Response)
async def record(
    table_id: str,
    request: Request,
    session: Viewing,
    match: Annotated[int, Query(ge=1)] = 1,
    deal: Annotated[int | None, Query(ge=1)] = None,
    token: Annotated[str | None, Query(max_length=128)] = None,
) -> Response:
    """The record (``rebelote replay`` reads it) of a finished deal, or of
    a match's finished deals.  Built and throttled as the replay."""
    stored = await _stored_for(request, table_id, session, token)
    if deal is None:
        body = await _replays(request).answer(
            stored, ("record", match), lambda base: match_record(stored, match, base)
        )
    else:
        body = await _replays(request).answer(
            stored, ("record", match, deal), lambda base: deal_record(stored, match, deal, base)
        )
    if body is None:
        raise _err(404, "not_finished", "no finished deal there")
    return _json(body)


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


@router.get("/tables/{table_id}/analysis")
async def analysis(
    table_id: str,
    request: Request,
    session: Viewing,
    match: Annotated[int, Query(ge=1)] = 1,
    token: Annotated[str | None, Query(max_length=128)] = None,
) -> dict[str, Any]:
    """The expert's analysis of a finished match (issue 16,
    :mod:`rebelote.server.tables.analysis`): ``{"table_id", "match",
    "status": "done" | "running" | "failed", "done", "total", "analysis"}``.
    The first request starts a job in the background and the page asks
    again (``running``: ``done`` of ``total`` deals so far); once made it
    is kept with the game.  404 ``not_finished`` while the match goes on;
    503 ``busy`` when too many games are being analysed.  Seen by whoever
    may see the game's replay; throttled per address
    (``settings.analysis_rate``)."""
    analyses = _analyses(request)
    settings = _settings(request)
    if valid_table_id(table_id):
        running = analyses.progress(table_id, match)
        if running is not None:  # a poll: the progress alone, nothing read
            throttle = _throttle(request)
            keys = throttle.by_address("analysis", settings.analysis_rate, request)
            await throttle.hit_all(*keys)
            return running
    stored = await _stored_for(
        request, table_id, session, token, throttled=("analysis", settings.analysis_rate)
    )
    try:
        return await analyses.status(_store(request), stored, match)
    except NotFinished:
        raise _err(404, "not_finished", "that match is not over") from None


VALIDATION_PROBLEMS = 3
"""The problems of a refused request that its 422 message names."""

_FIELD_CHARS = 40


def _field(loc: Any) -> str:
    """The dotted path of a problem's location, without ``body`` (a key of
    the request may be anything: each part is cut short)."""
    parts = [str(p)[:_FIELD_CHARS] for p in loc]
    if len(parts) > 1 and parts[0] == "body":
        parts = parts[1:]
    return ".".join(parts) or "body"


def _problem(error: Any) -> tuple[str, str]:
    """The field and the problem of one validation error; a field the model
    does not know is named by where it was sent (``body``, ``options``) and
    said to be an ``unknown field``, its name not repeated (it may be
    anything)."""
    loc = tuple(error.get("loc", ()))
    if error.get("type") == "extra_forbidden":
        return _field(loc[:-1]), "unknown field"
    return _field(loc), str(error.get("msg", "invalid"))[:200]


def _guard_of(request: Request) -> Callable[..., Any] | None:
    """The session check a request's route depends on (directly or through
    another dependency): :func:`player_session` or
    :func:`session_for_change`, or None for a route that needs neither."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    todo = [dependant] if dependant is not None else []
    found: Callable[..., Any] | None = None
    while todo:
        d = todo.pop()
        if d.call is player_session:
            found = player_session
            break
        if d.call is session_for_change:
            found = session_for_change
        todo.extend(d.dependencies)
    return found


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """The session and CSRF checks first: for a route that needs them, a
    request failing them gets their answer (401 ``not_logged_in``, 403
    ``csrf``) whatever its body, as a request with a valid body would
    (a body that is not JSON is read before the route's dependencies run).
    Otherwise 422 ``{"detail": {"code": "invalid", "message", "field"}}`` for a
    request that does not validate: the project's error shape, naming the
    field(s) and what is wrong, never the value sent (pydantic's own answer
    echoes it: a 5 MB password would come back), nor the name of a field
    the model does not know (``unknown field``).  A body that is not JSON:
    ``{"code": "invalid", "message": "the body is not valid JSON"}``."""
    guard = _guard_of(request)
    if guard is not None:
        try:
            await guard(request, request.headers.get(CSRF_HEADER))
        except HTTPException as refused:
            return JSONResponse({"detail": refused.detail}, status_code=refused.status_code)
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse(
            {"detail": {"code": "invalid", "message": "the body is not valid JSON"}},
            status_code=422,
        )
    problems = [_problem(e) for e in errors]
    shown = "; ".join(
        msg if field == "body" else f"{field}: {msg}"
        for field, msg in problems[:VALIDATION_PROBLEMS]
    )
    if len(problems) > VALIDATION_PROBLEMS:
        shown += f"; and {len(problems) - VALIDATION_PROBLEMS} more"
    detail = {
        "code": "invalid",
        "message": shown or "the request does not validate",
        "field": problems[0][0] if problems else None,
    }
    return JSONResponse({"detail": detail}, status_code=422)


def rate_limited(_request: Request, exc: Exception) -> JSONResponse:
    """429 ``{"detail": {"code": "rate_limited", "message",
    "retry_after"}}`` with ``Retry-After`` (seconds), for
    :class:`~rebelote.server.api.throttle.RateLimited`."""
    assert isinstance(exc, RateLimited)
    return JSONResponse(
        {
            "detail": {
                "code": "rate_limited",
                "message": exc.message,
                "retry_after": exc.retry_after,
            }
        },
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )


def busy(_request: Request, exc: Exception) -> JSONResponse:
    """503 ``{"detail": {"code": "busy", "message", "retry_after": 1}}``
    when too many passwords wait to be checked."""
    return JSONResponse(
        {"detail": {"code": "busy", "message": str(exc), "retry_after": 1}},
        status_code=503,
        headers={"Retry-After": "1"},
    )


def unavailable(request: Request, exc: Exception) -> JSONResponse:
    """503 ``{"detail": {"code": "unavailable", "message", "retry_after":
    1}}`` with ``Retry-After: 1`` when the database failed a request
    (:func:`~rebelote.server.storage.tables.storage_failure`: down, read-only,
    full, locked, past a timeout): nothing was changed, try again.  Logged
    as a warning naming the database's error, never a statement's values.
    Any other database error (a defect) is raised again: 500."""
    if not storage_failure(exc):
        raise exc
    orig = getattr(exc, "orig", None) or exc
    first = str(orig).strip().splitlines()[:1]
    _log.warning(
        "%s %s: storage failed: %s %s",
        request.method,
        request.url.path,
        type(orig).__name__,
        first[0] if first else "",
    )
    return JSONResponse(
        {
            "detail": {
                "code": "unavailable",
                "message": "the server cannot reach its storage; nothing changed, try again",
                "retry_after": 1,
            }
        },
        status_code=503,
        headers={"Retry-After": "1"},
    )


def install(app: FastAPI) -> None:
    """Add the network play endpoints to ``app``, and the 422 answer of
    every endpoint (:func:`validation_error`), the 429 of a throttle
    (:func:`rate_limited`), the 503 of too many passwords waiting
    (:func:`busy`) and the 503 of a storage failure (:func:`unavailable`)."""
    app.include_router(router)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(RateLimited, rate_limited)
    app.add_exception_handler(Busy, busy)
    app.add_exception_handler(SQLAlchemyError, unavailable)
