"""The daily deal (duplicate): each UTC day, the same set of
:data:`DAILY_DEALS` deals for everyone (``docs/daily.md``).

- **The set**: every daily table of a day has the day's seed
  (:meth:`DailyDeals.seed`), so the same packs, the same first dealer and
  the same rotation (the table's deals derive from its seed,
  :func:`~rebelote.server.tables.fair.deal_secrets`, never fresh).  The
  day's seed is drawn at random the first time anyone asks for that day
  and stored (``daily_days``): the same across processes and restarts,
  unknown before the day (a server given a seed, in tests, derives it
  from that seed and the date instead, :func:`proposed_seed`).
- **The table**: :data:`DAILY_PRESET` (belote classique, FFB rules) with
  the player at South and computer players of :data:`DAILY_LEVEL` in the
  three other seats; the table stops after :data:`DAILY_DEALS` deals
  (``options.deals``), whatever the scores, and gives no hint nor
  takeback (``options.help``).  The computers decide from their own view
  and a seed derived from the table's seed, the deal and the place of the
  decision in the deal (:meth:`~rebelote.server.tables.game.TableGame.decision_seed`):
  every player meets the same computers as far as his own play leaves the
  deal the same.
- **Once a day**: an account has one play a day (``daily_plays``);
  starting again resumes the same table with a fresh seat token.  A deal
  finished after the day's end (midnight UTC) does not count (its log
  entries stored after it are not read): once the day is over, everyone
  may see its deals.
- **Results**: each deal is scored alone, South-North's points of that
  deal (:attr:`~rebelote.scoring.DealResult.score`; a deal all passed
  scores 0), read from the table's log (the truth) and kept in
  ``daily_results``; ranked by matchpoints
  (:mod:`rebelote.server.people.matchpoints`), apart from the rating
  (a daily table's match never ends: nothing is rated).
- **Hidden cards**: a deal's results (contracts, scores, the hands, the
  par) are told only to those who finished that deal, or to anyone once
  the day is over.
- **Par**: once the day is over, the double-dummy value of each deal in
  the contract most of its players played (:func:`deal_par`), computed
  once in a worker thread and kept (``daily_days.pars``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from rebelote.cards import Card, card_name, cards_of
from rebelote.seats import Seat, seats_of
from rebelote.server.people.matchpoints import deal_matchpoints, deal_percentages, standings
from rebelote.server.protocol.messages import BotLevel, CreateTable, ProtocolError, TableOptions
from rebelote.server.storage.daily import DailyPlay, DailyResult
from rebelote.server.storage.tables import Store, StoredTable
from rebelote.server.tables.registry import TableManager
from rebelote.server.tables.table import game_from_stored
from rebelote.state import State

__all__ = [
    "DAILY_DEALS",
    "DAILY_LEVEL",
    "DAILY_PRESET",
    "DAILY_SEAT",
    "DailyDeals",
    "DealLine",
    "check_own_options",
    "deal_lines",
    "deal_par",
    "proposed_seed",
    "utc_day",
    "valid_day",
]

log = logging.getLogger(__name__)

DAILY_PRESET = "ffb"
"""The rules of the daily deal: belote classique, FFB rules."""

DAILY_LEVEL: BotLevel = "intermediate"
"""The level of the three computer players."""

DAILY_DEALS = 8
"""The deals of a day's set."""

DAILY_SEAT = Seat.S
"""Where the player sits."""

DAILY_TARGET = 100_000
"""The match target of a daily table: out of reach in its deals, so that
its match never ends (the set stops after :data:`DAILY_DEALS` deals) and
nothing is rated."""

HANDS_KEPT = 1024
"""Deals whose hands a process keeps in memory (then forgets them all)."""

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def utc_day(now: datetime | None = None) -> str:
    """The UTC day of ``now`` (default: now) as ``YYYY-MM-DD``."""
    return (now or datetime.now(UTC)).astimezone(UTC).date().isoformat()


def valid_day(text: str) -> bool:
    """Whether ``text`` is a real day written ``YYYY-MM-DD``."""
    if not _DAY.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def day_end(day: str) -> datetime:
    """The end of ``day`` (``YYYY-MM-DD``): midnight UTC after it."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(), tzinfo=UTC)


def proposed_seed(day: str, server_seed: int | None) -> int:
    """The seed a day gets when first asked for: 62 random bits, or, at a
    server given a seed, ``HMAC-SHA256(key=the seed in decimal,
    "rebelote/daily/v1/" + day)``'s first 8 bytes shifted right by 2."""
    if server_seed is None:
        return secrets.randbits(62)
    digest = hmac.new(
        str(server_seed).encode(), f"rebelote/daily/v1/{day}".encode(), hashlib.sha256
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def check_own_options(options: TableOptions) -> None:
    """Refuse (:class:`ProtocolError` ``bad_request``) the options only
    the daily deal's tables have (``deals``, ``help`` off) in a table a
    person opens: a table with ``options.deals`` is a daily table (its
    page leads to the daily results)."""
    if options.deals is not None or not options.help:
        raise ProtocolError("bad_request", "options deals and help are the daily deal's")


def daily_request(name: str) -> CreateTable:
    """The solo table of the daily deal for a player named ``name``."""
    return CreateTable(
        preset=DAILY_PRESET,
        target=DAILY_TARGET,
        name=name,
        levels={s: DAILY_LEVEL for s in ("N", "W", "E")},
        options=TableOptions(deals=DAILY_DEALS, help=False, auto_play_forced=True),
    )


@dataclass(frozen=True, slots=True)
class DealLine:
    """A deal of a daily table, over: ``deal`` (from 0), ``contract``
    (its text without the taker: ``H``, ``120S coinche``; ``None`` when
    all passed), ``taker`` (seat letter),
    ``score`` (South-North's points of the deal), ``state`` (the deal's
    final state, for its hands and par)."""

    deal: int
    contract: str | None
    taker: str | None
    score: int
    state: State


def deal_lines(stored: StoredTable) -> list[DealLine]:
    """The deals over at a stored daily table, in order (replayed from its
    log)."""
    game, _ = game_from_stored(stored, keep_deals=True)
    out = []
    for match, number, state in game.finished or []:
        result = state.result
        if match != 1 or not 1 <= number <= DAILY_DEALS or result is None:
            continue
        contract = result.contract
        out.append(
            DealLine(
                deal=number - 1,
                contract=None if contract is None else _contract_words(contract.text),
                taker=None if contract is None else contract.taker.letter,
                score=result.score[0],
                state=state,
            )
        )
    return out


def _contract_words(text: str) -> str:
    """A contract's text without its taker: ``H by N`` -> ``H``, ``120S
    by W coinche`` -> ``120S coinche`` (the taker has a field of its
    own)."""
    head, _, rest = text.partition(" by ")
    return head + rest[1:]


def hands_of(state: State) -> dict[str, list[str]] | None:
    """Each seat's hand of the card play of ``state``'s deal, over
    (letter -> card names: the cards it played in the 8 tricks), or
    ``None`` (no card play: all passed)."""
    if len(state.tricks) != 8:
        return None
    hands: dict[str, list[Card]] = {s.letter: [] for s in seats_of(state.players)}
    for trick in state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[seat.letter].append(card)
    return {k: [card_name(c) for c in sorted(v)] for k, v in hands.items()}


def dealt_of(state: State) -> dict[str, Any] | None:
    """What everyone got in ``state``'s deal, whoever takes: ``{"hands":
    {letter: card names}, "turned": card name or None}``: the first
    distribution (5 cards each in classic belote, and the turned card),
    dealt again by the core from the deal's deck, dealer and pattern;
    ``None`` when the state does not say them (no distribution made).
    The completion after the auction depends on the taker, so it differs
    between tables: it is not part of this."""
    if not state.deck or state.pattern is None:
        return None
    first = State.from_deck(state.rules, state.dealer, state.deck, state.pattern)
    hands = {
        seat.letter: [card_name(c) for c in sorted(cards_of(first.hands[int(seat)]))]
        for seat in seats_of(state.players)
    }
    return {"hands": hands, "turned": None if first.turned is None else card_name(first.turned)}


def deal_par(states: Sequence[State]) -> int | None:
    """The par of a deal: the double-dummy value, for South-North, of the
    card play of the contract most of ``states`` (the deal's final states,
    one per player) reached (ties: the first met), from its first card:
    South-North's card points minus East-West's, dix de der and capot
    included (:func:`rebelote.solver.solve_value`, every hand visible;
    belote and declarations left out).  ``None`` when none reached a
    contract whose 8 tricks were played."""
    from rebelote.solver import Position, solve_value

    played = [
        s for s in states if s.result is not None and s.contract is not None and len(s.tricks) == 8
    ]
    if not played:
        return None
    counts = Counter(s.contract.text for s in played if s.contract is not None)
    best = counts.most_common(1)[0][0]
    state = next(s for s in played if s.contract is not None and s.contract.text == best)
    assert state.contract is not None
    hands = [0, 0, 0, 0]
    for trick in state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[int(seat)] |= 1 << card
    position = Position.from_hands(
        state.rules, state.contract.strain, hands, turn=state.tricks[0].leader
    )
    value = solve_value(position, 0)
    return int(value)


class DailyDeals:
    """The daily deal of one server process: the day's seed, the players'
    tables, their results and the pars.  ``manager``: the tables;
    ``server_seed``: the server's seed (tests), else ``None``."""

    def __init__(self, manager: TableManager, *, server_seed: int | None = None) -> None:
        self.manager = manager
        self.store: Store = manager.store
        self.server_seed = server_seed
        self._seeds: dict[str, int] = {}
        self._par_tasks: dict[str, asyncio.Task[None]] = {}
        self._hands_kept: dict[tuple[str, int], dict[str, Any]] = {}
        """Hands found per ``(day, deal)`` (a deal over never changes)."""

    async def seed(self, day: str) -> int:
        """The seed of ``day`` (stored the first time it is asked for)."""
        seed = self._seeds.get(day)
        if seed is None:
            seed = await asyncio.to_thread(
                self.store.daily_seed, day, proposed_seed(day, self.server_seed)
            )
            self._seeds[day] = seed
        return seed

    async def start(self, user_id: int, name: str, day: str | None = None) -> tuple[str, str]:
        """Open (the first time that day) or resume the account's daily
        table of ``day`` (default: today); returns the table's id and a
        fresh token of the player's seat (the old one stops working).
        Raises :class:`ProtocolError` ``unavailable`` when the table
        cannot be reached."""
        day = day or utc_day()
        play = await asyncio.to_thread(self.store.daily_play, day, user_id)
        if play is None:
            seed = await self.seed(day)
            created = await self.manager.create(daily_request(name), user_id=user_id, seed=seed)
            kept = await asyncio.to_thread(
                self.store.add_daily_play, DailyPlay(day, user_id, created.table_id, name, 0)
            )
            if kept.table_id == created.table_id:
                return created.table_id, created.token
            play = kept  # two requests at once: the first table stands
        table = await self.manager.get(play.table_id)
        if table is None:
            raise ProtocolError("internal", "the daily table is gone")
        _, token = await table.new_token(user_id)
        return play.table_id, token

    async def _lines(self, play: DailyPlay) -> list[DealLine]:
        """The deals over at ``play``'s table, read from its log; once
        the day is over, only from the entries stored before its end (a
        deal finished after it does not count)."""
        stored = await asyncio.to_thread(self.store.load, play.table_id)
        if stored is None:
            return []
        end = day_end(play.day)
        if datetime.now(UTC) >= end:
            kept = await asyncio.to_thread(self.store.entries_before, play.table_id, end)
            stored = dataclasses.replace(stored, events=stored.events[:kept])
        return await asyncio.to_thread(deal_lines, stored)

    async def sync(self, play: DailyPlay) -> DailyPlay:
        """Read the deals over at ``play``'s table from its log
        (:meth:`_lines`) and keep their results (nothing to read once all
        are kept)."""
        if play.done >= DAILY_DEALS:
            return play
        lines = await self._lines(play)
        if len(lines) <= play.done:
            return play
        results = [
            DailyResult(
                play.day, line.deal, play.user_id, play.name, line.contract, line.taker, line.score
            )
            for line in lines
        ]
        await asyncio.to_thread(self.store.save_daily_results, play, results)
        return DailyPlay(play.day, play.user_id, play.table_id, play.name, len(lines))

    async def status(self, user_id: int | None) -> dict[str, Any]:
        """``GET /api/daily``: today's ``date``, ``preset``, ``deals``,
        the deals the caller ``played`` (finished, indexes from 0) and his
        ``table`` (or null)."""
        day = utc_day()
        played: list[int] = []
        table: str | None = None
        if user_id is not None:
            play = await asyncio.to_thread(self.store.daily_play, day, user_id)
            if play is not None:
                play = await self.sync(play)
                played = list(range(play.done))
                table = play.table_id
        return {
            "date": day,
            "preset": DAILY_PRESET,
            "deals": DAILY_DEALS,
            "played": played,
            "table": table,
        }

    async def results(self, day: str, viewer: int | None) -> dict[str, Any]:
        """``GET /api/daily/{date}/results``: per deal its ``par`` and
        ``rows`` (each player's ``name``, ``contract``, ``taker``,
        ``score``, ``matchpoints``, ``percent``), told only to a
        ``viewer`` who finished that deal, or to anyone once the day is
        over (else ``rows`` empty, ``par`` and ``hands`` null); and the
        day's ``standings`` (``name``, ``percent``, ``rank``)."""
        over = day < utc_day()
        plays = await asyncio.to_thread(self.store.daily_plays, day)
        plays = [await self.sync(play) for play in plays]
        results = await asyncio.to_thread(self.store.daily_results, day)
        pars = await asyncio.to_thread(self.store.daily_pars, day) if over else None
        if over and pars is None and results:
            self._compute_pars_soon(day, plays)
        names = {p.user_id: p.name for p in plays}
        mine = {r.deal for r in results if r.user_id == viewer}
        deals = []
        cache: dict[str, list[DealLine]] = {}
        per_deal: dict[int, dict[int, int]] = {}
        for deal in range(DAILY_DEALS):
            rows = [r for r in results if r.deal == deal]
            per_deal[deal] = {r.user_id: r.score for r in rows}
            shown = over or deal in mine
            scores = [r.score for r in rows]
            mps = deal_matchpoints(scores)
            pcts = deal_percentages(scores) if scores else []
            order = sorted(range(len(rows)), key=lambda i: (-scores[i], rows[i].name))
            deals.append(
                {
                    "deal": deal,
                    "par": pars[deal] if shown and pars is not None else None,
                    "rows": [
                        {
                            "name": rows[i].name,
                            "contract": rows[i].contract,
                            "taker": rows[i].taker,
                            "score": rows[i].score,
                            "matchpoints": mps[i],
                            "percent": round(pcts[i], 2),
                        }
                        for i in order
                    ]
                    if shown
                    else [],
                    **(
                        (await self._hands(deal, plays, cache) if shown and rows else None)
                        or {"hands": None, "turned": None}
                    ),
                }
            )
        table = standings(per_deal, DAILY_DEALS, names)
        return {
            "date": day,
            "deals": deals,
            "standings": [
                {"name": names[int(str(s.key))], "percent": round(s.percent, 2), "rank": s.rank}
                for s in table
            ],
        }

    async def _hands(
        self, deal: int, plays: Sequence[DailyPlay], cache: dict[str, list[DealLine]]
    ) -> Any:
        """What everyone got in ``deal`` (:func:`dealt_of`: the first
        distribution and the turned card, the same at every table), read
        from the first table where it is over, or ``None``.  ``cache``:
        the tables' deals read in this request, by table id."""
        for play in plays:
            kept = self._hands_kept.get((play.day, deal))
            if kept is not None:
                return kept
            if play.done > deal:
                if play.table_id not in cache:
                    cache[play.table_id] = await self._lines(play)
                for line in cache[play.table_id]:
                    hands = dealt_of(line.state) if line.deal == deal else None
                    if hands is not None:
                        if len(self._hands_kept) >= HANDS_KEPT:
                            self._hands_kept.clear()
                        self._hands_kept[(play.day, deal)] = hands
                        return hands
        return None

    def _compute_pars_soon(self, day: str, plays: Sequence[DailyPlay]) -> None:
        """Compute ``day``'s pars in a worker thread (once per process at a
        time) and keep them."""
        task = self._par_tasks.get(day)
        if task is not None and not task.done():
            return
        self._par_tasks[day] = asyncio.get_running_loop().create_task(
            self._compute_pars(day, list(plays))
        )

    async def _compute_pars(self, day: str, plays: list[DailyPlay]) -> None:
        try:
            states: dict[int, list[State]] = {d: [] for d in range(DAILY_DEALS)}
            for play in plays:
                for line in await self._lines(play):
                    states[line.deal].append(line.state)
            pars = []
            for deal in range(DAILY_DEALS):
                pars.append(await asyncio.to_thread(deal_par, states[deal]))
            await asyncio.to_thread(self.store.save_daily_pars, day, pars)
        except Exception:
            log.exception("daily %s: cannot compute the pars", day)

    async def close(self) -> None:
        """Cancel the pars being computed."""
        for task in self._par_tasks.values():
            task.cancel()
