"""The REST endpoints of progression (``docs/progression.md``): challenges,
trophies and coins, the cosmetics shop.

- ``GET /api/challenges``: today's and this week's challenges with the
  caller's progress, ``[{"id", "period", "title", "goal", "progress",
  "done", "reward": {"xp", "coins"}, "ends_at"}]`` (daily ones first;
  ``ends_at``: the period's end, ISO 8601 UTC).  Anyone may ask: without
  an account (or as a guest) the progress is 0.
- ``GET /api/profiles/{name}/trophies``: an account's ``{"coins",
  "trophies": [{"id", "title", "earned_at"}]}`` (public; 404
  ``user_not_found``).
- ``GET /api/shop``: ``{"coins", "items": [{"id", "slot", "price",
  "title", "owned", "active"}], "active": {"back", "cloth"}}``.
- ``POST /api/shop/buy`` ``{"item", "request_id"}``: buys the item (the
  same ``request_id`` again buys nothing more); answers the shop.
  Refusals: 404 ``unknown_item``, 409 ``item_owned``, 409
  ``not_enough_coins``, 409 ``request_reused`` (that request id bought
  another item), 403 ``shop_account_required`` (a guest).
- ``POST /api/shop/use`` ``{"item"}``: uses an item the account owns;
  answers the shop.  Refusals: 404 ``unknown_item``, 403 ``not_owned``,
  403 ``shop_account_required``.

Titles are in the language of ``?lang=`` (``fr`` or ``en``), else of the
``Accept-Language`` header's first language, else French.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from rebelote.server.api.routes import optional_session, session_for_change
from rebelote.server.people.accounts import Session
from rebelote.server.people.catalogue import ShopItem, catalogue
from rebelote.server.people.challenges import active_challenges, period_bounds, progress_of
from rebelote.server.storage.tables import Store

__all__ = [
    "BuyBody",
    "ChallengeInfo",
    "Reward",
    "ShopInfo",
    "ShopItemInfo",
    "TrophiesInfo",
    "TrophyInfo",
    "UseBody",
    "router",
]

router = APIRouter(prefix="/api")

Lang = Literal["fr", "en"]


def _err(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message})


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _lang(request: Request, lang: str | None) -> Lang:
    if lang in ("fr", "en"):
        return "en" if lang == "en" else "fr"
    header = request.headers.get("accept-language", "")[:200]
    first = header.split(",")[0].strip().lower()
    return "en" if first.startswith("en") else "fr"


LangQuery = Annotated[str | None, Query(max_length=5)]


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Reward(_Out):
    """What completing a challenge earns."""

    xp: int
    coins: int


class ChallengeInfo(_Out):
    """One active challenge with the caller's progress (capped at
    ``goal``)."""

    id: str
    period: Literal["daily", "weekly"]
    title: str
    goal: int
    progress: int
    done: bool
    reward: Reward
    ends_at: datetime


class TrophyInfo(_Out):
    """A trophy earned, with its date."""

    id: str
    title: str
    earned_at: datetime


class TrophiesInfo(_Out):
    """An account's coins and trophies."""

    coins: int
    trophies: list[TrophyInfo]


class ShopItemInfo(_Out):
    """A cosmetic of the shop, as the caller sees it."""

    id: str
    slot: Literal["back", "cloth"]
    price: int
    title: str
    owned: bool
    active: bool


class ShopInfo(_Out):
    """The shop: the caller's coins, every item, and what he uses."""

    coins: int
    items: list[ShopItemInfo]
    active: dict[str, str]


class BuyBody(_Body):
    """``POST /api/shop/buy``."""

    item: str = Field(min_length=1, max_length=40)
    request_id: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


class UseBody(_Body):
    """``POST /api/shop/use``."""

    item: str = Field(min_length=1, max_length=40)


def _account(session: Session | None) -> int | None:
    """The caller's account id (``None`` for nobody or a guest)."""
    if session is None or session.user.guest:
        return None
    return session.user.id


def _challenges(store: Store, user_id: int | None, lang: Lang) -> list[ChallengeInfo]:
    now = datetime.now(UTC)
    out: list[ChallengeInfo] = []
    for period in ("daily", "weekly"):
        since, until = period_bounds(period, now)
        sums = store.counter_sums(user_id, since, until) if user_id is not None else {}
        done = (
            store.challenges_done(user_id, since.date().isoformat())
            if user_id is not None
            else set()
        )
        for c in active_challenges(period, now):
            out.append(
                ChallengeInfo(
                    id=c.id,
                    period=c.period,
                    title=c.title.text(lang),
                    goal=c.goal,
                    progress=progress_of(c, sums),
                    done=c.id in done,
                    reward=Reward(xp=c.xp, coins=c.coins),
                    ends_at=until,
                )
            )
    return out


@router.get("/challenges")
async def challenges(
    request: Request,
    session: Annotated[Session | None, Depends(optional_session)],
    lang: LangQuery = None,
) -> list[ChallengeInfo]:
    """Today's and this week's challenges with the caller's progress."""
    return await asyncio.to_thread(
        _challenges, _store(request), _account(session), _lang(request, lang)
    )


def _trophies(store: Store, name: str, lang: Lang) -> TrophiesInfo | None:
    user = store.user_by_name(name)
    if user is None or user.guest:
        return None
    cat = catalogue()
    trophies = []
    for earned in store.trophies_of(user.id):
        trophy = cat.trophy(earned.id)
        if trophy is not None:
            trophies.append(
                TrophyInfo(id=earned.id, title=trophy.title.text(lang), earned_at=earned.earned_at)
            )
    return TrophiesInfo(coins=store.coins(user.id), trophies=trophies)


@router.get("/profiles/{name}/trophies")
async def trophies(name: str, request: Request, lang: LangQuery = None) -> TrophiesInfo:
    """An account's coins and trophies (public; 404 ``user_not_found``)."""
    info = None
    if 0 < len(name) <= 40:
        info = await asyncio.to_thread(_trophies, _store(request), name, _lang(request, lang))
    if info is None:
        raise _err(404, "user_not_found", "no such user")
    return info


def _shop(store: Store, user_id: int | None, lang: Lang) -> ShopInfo:
    cat = catalogue()
    owned = store.owned_items(user_id) if user_id is not None else set()
    chosen = store.cosmetics_of(user_id) if user_id is not None else {}
    active = {slot: chosen.get(slot, cat.default(slot).id) for slot in ("back", "cloth")}
    items = [
        ShopItemInfo(
            id=i.id,
            slot=i.slot,
            price=i.price,
            title=i.title.text(lang),
            owned=i.price == 0 or i.id in owned,
            active=active[i.slot] == i.id,
        )
        for i in cat.shop
    ]
    coins = store.coins(user_id) if user_id is not None else 0
    return ShopInfo(coins=coins, items=items, active=active)


@router.get("/shop")
async def shop(
    request: Request,
    session: Annotated[Session | None, Depends(optional_session)],
    lang: LangQuery = None,
) -> ShopInfo:
    """The shop as the caller sees it (anyone may look)."""
    return await asyncio.to_thread(_shop, _store(request), _account(session), _lang(request, lang))


def _member(session: Session) -> int:
    user_id = _account(session)
    if user_id is None:
        raise _err(403, "shop_account_required", "coins and cosmetics need an account")
    return user_id


def _item(item_id: str) -> ShopItem:
    """The shop's item ``item_id``; 404 ``unknown_item`` when it has none."""
    item = catalogue().item(item_id)
    if item is None:
        raise _err(404, "unknown_item", "no such item in the shop")
    return item


@router.post("/shop/buy")
async def buy(
    body: BuyBody,
    request: Request,
    session: Annotated[Session, Depends(session_for_change)],
    lang: LangQuery = None,
) -> ShopInfo:
    """Buy a cosmetic with coins (idempotent per ``request_id``)."""
    user_id = _member(session)
    item = _item(body.item)
    store = _store(request)
    if item.price == 0:
        raise _err(409, "item_owned", "this item is everyone's already")
    outcome = await asyncio.to_thread(store.buy, user_id, item.id, item.price, body.request_id)
    if outcome == "owned":
        raise _err(409, "item_owned", "you own this item already")
    if outcome == "coins":
        raise _err(409, "not_enough_coins", f"this item costs {item.price} coins")
    if outcome == "reused":
        raise _err(409, "request_reused", "this request id bought another item")
    return await asyncio.to_thread(_shop, store, user_id, _lang(request, lang))


@router.post("/shop/use")
async def use(
    body: UseBody,
    request: Request,
    session: Annotated[Session, Depends(session_for_change)],
    lang: LangQuery = None,
) -> ShopInfo:
    """Use a cosmetic the account owns (a free one, or one bought)."""
    user_id = _member(session)
    item = _item(body.item)
    store = _store(request)
    if item.price > 0 and item.id not in await asyncio.to_thread(store.owned_items, user_id):
        raise _err(403, "not_owned", "buy this item first")
    await asyncio.to_thread(store.use_cosmetic, user_id, item.slot, item.id)
    return await asyncio.to_thread(_shop, store, user_id, _lang(request, lang))
