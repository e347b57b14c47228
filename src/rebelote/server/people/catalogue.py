"""The progression catalogue: challenges (défis), trophies and the shop's
cosmetics, as data (``data/progression.json``, validated here with
pydantic when first read).

- A **challenge** (:class:`Challenge`) counts one :data:`Counter` over the
  rated matches finished in its period (``daily`` or ``weekly``, UTC
  boundaries); reaching ``goal`` earns ``xp`` and ``coins`` once per
  period.  Which challenges are active: :mod:`rebelote.server.people.challenges`.
- A **trophy** (:class:`Trophy`) counts one counter over every rated match
  of the account; reaching ``goal`` earns it once, with its date, and its
  ``xp`` and ``coins``.
- A **shop item** (:class:`ShopItem`) is a cosmetic (a card ``back`` or a
  table ``cloth``) bought with coins; an item of price 0 is everyone's
  from the start (the defaults).  Coins buy nothing else: never stakes.

Titles are in French and English (``title.fr``, ``title.en``).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "COUNTERS",
    "Catalogue",
    "Challenge",
    "Counter",
    "Period",
    "ShopItem",
    "Slot",
    "Title",
    "Trophy",
    "catalogue",
]

Counter = Literal[
    "played",
    "won",
    "won_501",
    "won_vs_experts",
    "capots",
    "capots_vs_experts",
    "contracts_made",
    "coinche_120_made",
    "coinched_made",
    "defended_coinche",
    "belotes",
    "no_trump_made",
]
"""What a challenge or a trophy counts, per rated match
(:func:`rebelote.server.people.challenges.match_counts` says how each is
counted)."""

COUNTERS: tuple[str, ...] = get_args(Counter)
"""Every :data:`Counter`, in order."""

Period = Literal["daily", "weekly"]
"""A challenge's period: a UTC day, or a UTC week from Monday."""

Slot = Literal["back", "cloth"]
"""Where a cosmetic goes: the cards' backs or the table's cloth."""


class _Closed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Title(_Closed):
    """A title in both languages."""

    fr: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def text(self, lang: str) -> str:
        """The title in ``lang`` (``fr``; anything else: English)."""
        return self.fr if lang == "fr" else self.en


class Challenge(_Closed):
    """A challenge: ``counter`` reaching ``goal`` within one ``period``
    earns ``xp`` and ``coins``; ``always``: active every period, else
    drawn (``Catalogue.picked``)."""

    id: str = Field(pattern=r"^[a-z0-9_]{1,40}$")
    period: Period
    counter: Counter
    goal: int = Field(ge=1)
    xp: int = Field(ge=0)
    coins: int = Field(ge=0)
    title: Title
    always: bool = False


class Trophy(_Closed):
    """A milestone: ``counter`` reaching ``goal`` over every rated match
    earns the trophy once, with ``xp`` and ``coins``."""

    id: str = Field(pattern=r"^[a-z0-9_]{1,40}$")
    counter: Counter
    goal: int = Field(ge=1)
    xp: int = Field(ge=0)
    coins: int = Field(ge=0)
    title: Title


class ShopItem(_Closed):
    """A cosmetic for ``slot`` at ``price`` coins (0: everyone's)."""

    id: str = Field(pattern=r"^[a-z0-9_]{1,40}$")
    slot: Slot
    price: int = Field(ge=0)
    title: Title


class Catalogue(_Closed):
    """Every challenge, how many of each period's are drawn beside the
    ``always`` ones (``picked``), every trophy and every shop item.  Ids are
    unique; each slot has exactly one free item (its default)."""

    challenges: tuple[Challenge, ...]
    picked: dict[Period, int]
    trophies: tuple[Trophy, ...]
    shop: tuple[ShopItem, ...]

    @model_validator(mode="after")
    def _check(self) -> Catalogue:
        ids = [c.id for c in self.challenges] + [t.id for t in self.trophies]
        if len(set(ids)) != len(ids):
            raise ValueError("challenge and trophy ids must be unique")
        items = [i.id for i in self.shop]
        if len(set(items)) != len(items):
            raise ValueError("shop item ids must be unique")
        for slot in ("back", "cloth"):
            free = [i for i in self.shop if i.slot == slot and i.price == 0]
            if len(free) != 1:
                raise ValueError(f"the {slot} slot needs exactly one free item")
        for period, n in self.picked.items():
            pool = [c for c in self.challenges if c.period == period and not c.always]
            if not 0 <= n <= len(pool):
                raise ValueError(f"cannot draw {n} {period} challenges from {len(pool)}")
        return self

    def challenge(self, challenge_id: str) -> Challenge | None:
        """The challenge ``challenge_id``, or ``None``."""
        return next((c for c in self.challenges if c.id == challenge_id), None)

    def trophy(self, trophy_id: str) -> Trophy | None:
        """The trophy ``trophy_id``, or ``None``."""
        return next((t for t in self.trophies if t.id == trophy_id), None)

    def item(self, item_id: str) -> ShopItem | None:
        """The shop item ``item_id``, or ``None``."""
        return next((i for i in self.shop if i.id == item_id), None)

    def default(self, slot: Slot) -> ShopItem:
        """The free item of ``slot`` (what an account uses until it
        chooses another)."""
        return next(i for i in self.shop if i.slot == slot and i.price == 0)


@functools.cache
def catalogue() -> Catalogue:
    """The catalogue of ``data/progression.json`` (read and checked once;
    raises ``pydantic.ValidationError`` when the file is wrong)."""
    text = resources.files(__package__).joinpath("data/progression.json").read_text("utf-8")
    return Catalogue.model_validate(json.loads(text))
