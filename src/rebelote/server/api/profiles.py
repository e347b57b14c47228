"""The profiles' endpoint: ``GET /api/profiles/{name}`` (public).

An account's profile (:class:`~rebelote.server.people.profiles.Profile`,
``docs/profiles.md``); 404 ``no_such_account`` for a name no account has
(a guest has no profile).  Throttled per address as the replays are
(``settings.replay_rate``: the first profile after new matches replays
their tables' logs) and built in the replays' thread pool
(:meth:`~rebelote.server.api.replays.Replays.work`: 503 ``busy`` when it
is full).
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request

from rebelote.server.api.replays import Replays
from rebelote.server.api.throttle import Throttle
from rebelote.server.people.profiles import Profile, build_profile
from rebelote.server.settings import ServerSettings
from rebelote.server.storage.people import NAME_KEY_LENGTH
from rebelote.server.storage.tables import Store

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/profiles/{name}")
async def profile(name: str, request: Request) -> Profile:
    """The profile of the account named ``name`` (names compare as at
    login: casefolded).  The last games list the matches at public tables,
    and at every table for the account itself (its session).  404
    ``no_such_account`` when no account has that name (the message never
    repeats it)."""
    from rebelote.server.api.routes import optional_session

    settings: ServerSettings = request.app.state.settings
    throttle: Throttle = request.app.state.throttle
    await throttle.hit_all(*throttle.by_address("profile", settings.replay_rate, request))
    store: Store = request.app.state.store
    user = None
    if 0 < len(name) <= NAME_KEY_LENGTH:
        user = await asyncio.to_thread(store.user_by_name, name)
    if user is None or user.guest:
        raise HTTPException(404, {"code": "no_such_account", "message": "no account has this name"})
    session = await optional_session(request)
    own = session is not None and session.user.id == user.id
    replays: Replays = request.app.state.replays
    found: Profile = await replays.work(
        ("profile", user.id, own), lambda: build_profile(store, user, public_only=not own)
    )
    return found
