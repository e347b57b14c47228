"""The daily deal's routes (``docs/daily.md``,
:mod:`rebelote.server.tables.daily`):

- ``GET /api/daily`` -> ``{"date", "preset", "deals": 8, "played": [the
  indexes of the deals the caller finished today, from 0], "table": his
  daily table's id or null}`` (anyone; a visitor or a guest has played
  nothing);
- ``POST /api/daily/start`` -> ``{"table": id}``: opens (the first time
  that day) or resumes the caller's daily table, and sets the
  ``rebelote_token`` cookie to a fresh token of his seat (the table page
  finds it through ``/api/me/current``).  An account only: 401
  ``not_logged_in``, 403 ``csrf``, 403 ``account_required`` (a guest);
- ``GET /api/daily/{date}/results`` -> ``{"date", "deals": [{"deal",
  "par", "rows": [{"name", "contract", "taker", "score", "matchpoints",
  "percent"}], "hands", "turned"}], "standings": [{"name", "percent",
  "rank"}]}`` (``hands`` and ``turned``: the first distribution, what
  everyone got whoever takes); a deal's ``rows``, ``par``, ``hands``
  and ``turned`` only to those who finished it, or once the day is over
  (else ``[]``, null, null, null).  404
  ``bad_date`` for a date not written ``YYYY-MM-DD`` or after today;
  throttled per address as the replays (``settings.replay_rate``: 429
  ``rate_limited``), as it may read the logs of the tables still
  playing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response

from rebelote.server.api.routes import Changing, Viewing, optional_session
from rebelote.server.api.throttle import Throttle
from rebelote.server.protocol.messages import ProtocolError
from rebelote.server.settings import ServerSettings
from rebelote.server.tables.daily import DailyDeals, utc_day, valid_day

__all__ = ["TOKEN_COOKIE", "install", "router"]

TOKEN_COOKIE = "rebelote_token"
"""The cookie of the player's solo table token (as ``POST /api/tables``
sets it)."""

router = APIRouter(prefix="/api/daily")


def _daily(request: Request) -> DailyDeals:
    daily: DailyDeals = request.app.state.daily
    return daily


def _err(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message})


@router.get("")
async def daily(request: Request, session: Viewing) -> dict[str, Any]:
    """Today's daily deal and the caller's progress."""
    user = None if session is None or session.user.guest else session.user.id
    return await _daily(request).status(user)


@router.post("/start")
async def start(request: Request, response: Response, session: Changing) -> dict[str, str]:
    """Open or resume the caller's daily table."""
    if session.user.guest:
        raise _err(403, "account_required", "the daily deal needs an account")
    try:
        table_id, token = await _daily(request).start(session.user.id, session.user.name)
    except ProtocolError as exc:
        raise _err(503 if exc.code == "unavailable" else 400, exc.code, exc.message) from None
    response.set_cookie(
        TOKEN_COOKIE,
        token,
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return {"table": table_id}


@router.get("/{day}/results")
async def results(
    day: str,
    request: Request,
    session: Annotated[Any, Depends(optional_session)],
) -> dict[str, Any]:
    """A day's results per deal and its standings."""
    throttle: Throttle = request.app.state.throttle
    settings: ServerSettings = request.app.state.settings
    await throttle.hit_all(*throttle.by_address("daily-results", settings.replay_rate, request))
    if not valid_day(day) or day > utc_day():
        raise _err(404, "bad_date", "no daily deal on that date")
    viewer = None if session is None or session.user.guest else session.user.id
    return await _daily(request).results(day, viewer)


def install(app: Any) -> None:
    """Add the daily deal's routes to ``app``."""
    app.include_router(router)
