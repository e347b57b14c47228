"""The daily deal (docs/daily.md): the same set for everyone, one play a
day, ranked by matchpoints, hidden cards kept hidden, the rating left
alone.  Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import update

from rebelote.server.people.matchpoints import deal_matchpoints
from rebelote.server.storage.daily import DailyPlay
from rebelote.server.storage.table_rows import EventRow
from rebelote.server.tables import daily
from rebelote.server.tables.daily import (
    DAILY_DEALS,
    deal_lines,
    deal_par,
    dealt_of,
    hands_of,
    utc_day,
)

from .live import Client, LiveServer
from .net import Player


@pytest.fixture
def live(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(db_url) as server:
        yield server


def _player(live: LiveServer, name: str) -> Player:
    return Player(live).signup(name)


def _start(player: Player) -> tuple[str, str]:
    data = player.ok("/api/daily/start")
    assert set(data) == {"table"}
    token = player.http.cookies.get("rebelote_token")
    assert token
    return data["table"], token


def _play(client: Client, pick: Callable[[list[str]], str], deals: int = DAILY_DEALS) -> None:
    """Play South's decisions with ``pick`` until ``deals`` deals are over
    (counted from the connection) or the set is."""
    ended = 0
    while True:
        if client._decides("S") and client.turn is not None:
            turn = client.turn
            if turn["waiting"] == "next":
                if ended >= deals:
                    return
                client.act("next")
            else:
                action = pick(turn["legal"])
                client.act(action, True if action in turn["belote_choice"] else None)
            client.turn = None
        msg = client.recv(timeout=30)
        if msg["t"] == "event" and msg["d"]["kind"] == "deal_end":
            ended += 1
        if client.turn is not None and client.turn["waiting"] is None:
            return  # the set is over: the table waits for nothing more


def _deal_entries(live: LiveServer, table_id: str) -> list[tuple[str, list[str]]]:
    stored = live.manager.store.load(table_id)
    assert stored is not None
    return [(e.payload["dealer"], e.payload["pack"]) for e in stored.events if e.kind == "deal"]


def test_daily_status_and_start_need_an_account(live: LiveServer) -> None:
    anon = Player(live)
    got = anon.http.get("/api/daily").json()
    assert got == {"date": utc_day(), "preset": "ffb", "deals": 8, "played": [], "table": None}
    assert anon.post("/api/daily/start").status_code == 401
    guest = Player(live).guest("Gus")
    r = guest.post("/api/daily/start")
    assert r.status_code == 403
    assert r.json()["detail"]["code"] == "account_required"
    bad = anon.http.get("/api/daily/2026-13-01/results")
    assert bad.status_code == 404
    assert bad.json()["detail"]["code"] == "bad_date"
    assert anon.http.get("/api/daily/2999-01-01/results").status_code == 404


def test_same_deals_for_two_accounts_and_resume(live: LiveServer) -> None:
    ada, bob = _player(live, "Ada"), _player(live, "Bob")
    ada_table, ada_token = _start(ada)
    bob_table, _ = _start(bob)
    assert ada_table != bob_table
    # the same first deal (dealer, pack), at tables of the same seed
    assert _deal_entries(live, ada_table) == _deal_entries(live, bob_table)
    stored = live.manager.store.load(ada_table)
    assert stored is not None
    assert [s.kind for s in stored.seats] == ["bot", "bot", "human", "bot"]  # N W S E
    assert {s.level for s in stored.seats if s.kind == "bot"} == {"intermediate"}
    assert stored.options["deals"] == 8 and stored.options["help"] is False
    # starting again the same day resumes the same table, with a new token
    again, new_token = _start(ada)
    assert again == ada_table and new_token != ada_token
    assert ada.http.get("/api/daily").json()["table"] == ada_table
    with live.connect(ada_table, new_token) as client:
        snap = client.recv_until(lambda m: m["t"] == "snapshot")["d"]
        assert snap["table"]["you"] == "S"
        assert snap["help"]["allowed"] is False
    assert _deal_entries(live, ada_table) == _deal_entries(live, bob_table)  # never redealt


def test_two_players_ranked_by_matchpoints(live: LiveServer) -> None:
    ada, bob = _player(live, "Ada"), _player(live, "Bob")
    tables = {}
    for player, pick in ((ada, lambda legal: legal[0]), (bob, lambda legal: legal[-1])):
        table_id, token = _start(player)
        tables[player.user["name"] if player.user else ""] = table_id
        with live.connect(table_id, token) as client:
            _play(client, pick)
    # the whole set: the same 8 deals, dealers included, at both tables
    assert _deal_entries(live, tables["Ada"]) == _deal_entries(live, tables["Bob"])
    assert len(_deal_entries(live, tables["Ada"])) == 8
    # the set is over: the tables wait for nothing more (no 9th deal)
    assert ada.http.get("/api/daily").json()["played"] == list(range(8))
    scores = {}
    for name, table_id in tables.items():
        stored = live.manager.store.load(table_id)
        assert stored is not None and stored.status == "finished"
        scores[name] = [line.score for line in deal_lines(stored)]
    got = bob.http.get(f"/api/daily/{utc_day()}/results").json()
    assert [d["deal"] for d in got["deals"]] == list(range(8))
    percent = {"Ada": 0.0, "Bob": 0.0}
    for d in got["deals"]:
        i = d["deal"]
        pair = [scores["Ada"][i], scores["Bob"][i]]
        mps = dict(zip(["Ada", "Bob"], deal_matchpoints(pair), strict=True))
        rows = {r["name"]: r for r in d["rows"]}
        assert set(rows) == {"Ada", "Bob"}
        for name in ("Ada", "Bob"):
            assert rows[name]["score"] == scores[name][i]
            assert rows[name]["matchpoints"] == mps[name]
            assert rows[name]["percent"] == 50.0 * mps[name]
            percent[name] += 50.0 * mps[name] / 8
        # what everyone got, whoever took: 5 cards each and the turned card,
        # the same at both tables
        assert sorted(d["hands"]) == ["E", "N", "S", "W"]
        assert sorted(len(h) for h in d["hands"].values()) == [5, 5, 5, 5]
        assert d["turned"] is not None
        dealt = {c for h in d["hands"].values() for c in h} | {d["turned"]}
        assert len(dealt) == 21
    standings = got["standings"]
    assert [s["name"] for s in standings] == sorted(percent, key=lambda n: (-percent[n], n))
    for s in standings:
        assert s["percent"] == round(percent[s["name"]], 2)
    ranks = [s["rank"] for s in standings]
    assert ranks == ([1, 1] if percent["Ada"] == percent["Bob"] else [1, 2])
    assert percent["Ada"] + percent["Bob"] == 100.0
    # rated apart: no match result, no rating change
    for player in (ada, bob):
        assert player.user is not None
        history = player.http.get("/api/me/history").json()
        assert history["results"] == []
        profile = player.http.get(f"/api/users/{player.user['id']}").json()
        assert (profile["rating"], profile["mu"], profile["sigma"]) == (
            player.user["rating"],
            player.user["mu"],
            player.user["sigma"],
        )


def test_hidden_cards_not_leaked(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    ada, bob = _player(live, "Ada"), _player(live, "Bob")
    table_id, token = _start(ada)
    with live.connect(table_id, token) as client:
        _play(client, lambda legal: legal[0], deals=1)
        text = json.dumps(client.received)
    later = [pack for _, pack in _deal_entries(live, table_id)]
    # the later deals are dealt only when they start: no pack of theirs
    # exists anywhere yet, so none can have been sent; the first deal's
    # pack itself was never sent either (South's cards only)
    assert len(later) == 1
    assert ", ".join(json.dumps(c) for c in later[0][:10]) not in text
    stored = live.manager.store.load(table_id)
    assert stored is not None
    # Bob has finished nothing: deal 0's results are not his to see
    got = bob.http.get(f"/api/daily/{utc_day()}/results").json()
    assert got["deals"][0] == {"deal": 0, "par": None, "rows": [], "hands": None, "turned": None}
    # Ada, who finished deal 0, sees it (and only it)
    mine = ada.http.get(f"/api/daily/{utc_day()}/results").json()
    assert [r["name"] for r in mine["deals"][0]["rows"]] == ["Ada"]
    row = mine["deals"][0]["rows"][0]
    hands = mine["deals"][0]["hands"]
    assert sorted(len(h) for h in hands.values()) == [5, 5, 5, 5]  # dealt, even all passed
    assert (row["matchpoints"], row["percent"]) == (0, 50.0)  # alone on the deal
    assert mine["deals"][1] == {"deal": 1, "par": None, "rows": [], "hands": None, "turned": None}
    # once the day is over, everyone sees every deal played, with its par
    tomorrow = "9999-12-31"
    monkeypatch.setattr(daily, "utc_day", lambda now=None: tomorrow)
    anon = Player(live)
    after: dict[str, Any] = anon.http.get(f"/api/daily/{stored_day(live, table_id)}/results").json()
    assert [r["name"] for r in after["deals"][0]["rows"]] == ["Ada"]


def stored_day(live: LiveServer, table_id: str) -> str:
    plays = [p for p in live.manager.store.daily_plays(utc_day()) if p.table_id == table_id]
    assert plays
    return plays[0].day


def test_deals_finished_after_their_day_do_not_count(live: LiveServer) -> None:
    ada = _player(live, "Ada")
    table_id, token = _start(ada)
    with live.connect(table_id, token) as client:
        _play(client, lambda legal: legal[0], deals=1)
    assert ada.user is not None
    # the same table as the play of a day long over: its deal was finished
    # (its log written) after that day's end, so it counts for nothing
    live.manager.store.add_daily_play(DailyPlay("2000-01-01", ada.user["id"], table_id, "Ada", 0))
    got = Player(live).http.get("/api/daily/2000-01-01/results").json()
    # she started that day's set and finished no deal in time: listed at 0 %
    assert got["standings"] == [{"name": "Ada", "percent": 0.0, "rank": 1}]
    assert all(
        d == {"deal": d["deal"], "par": None, "rows": [], "hands": None, "turned": None}
        for d in got["deals"]
    )
    # today's play of the same table counts its deal
    today = Player(live).http.get(f"/api/daily/{utc_day()}/results").json()
    assert [s["name"] for s in today["standings"]] == ["Ada"]


def _taker(legal: list[str]) -> str:
    """Take whenever allowed, else the first legal action."""
    return next((a for a in legal if a.startswith("take")), legal[0])


def test_par_once_the_day_is_over(live: LiveServer) -> None:
    ada = _player(live, "Ada")
    assert ada.user is not None
    table_id, token = _start(ada)
    with live.connect(table_id, token) as client:
        _play(client, _taker, deals=1)
    store = live.manager.store
    # the same table as played on a day long over (its log written then)
    day = "2000-01-01"
    with store.engine.begin() as conn:
        conn.execute(
            update(EventRow.__table__)  # type: ignore[arg-type]
            .where(EventRow.__table__.c.table_id == table_id)
            .values(created=datetime(2000, 1, 1, 12, tzinfo=UTC))
        )
    store.daily_seed(day, 1)
    store.add_daily_play(DailyPlay(day, ada.user["id"], table_id, "Ada", 0))
    stored = store.load(table_id)
    assert stored is not None
    line = deal_lines(stored)[0]
    assert line.contract is not None  # someone took
    anon = Player(live)
    first = anon.http.get(f"/api/daily/{day}/results").json()
    # the day is over: anyone sees the deal, its hands; its par comes
    # once computed in the background
    deal = first["deals"][0]
    assert [r["name"] for r in deal["rows"]] == ["Ada"]
    row = deal["rows"][0]
    # who took what: the trump alone (classic), the taker apart
    assert row["contract"] in ("S", "H", "D", "C")
    assert (row["contract"], row["taker"], row["score"]) == (line.contract, line.taker, line.score)
    dealt = dealt_of(line.state)
    assert dealt is not None
    assert (deal["hands"], deal["turned"]) == (dealt["hands"], dealt["turned"])
    # the 5 cards each are in the final hands; the taker's completion
    # holds the turned card, which is in nobody's 5
    final = hands_of(line.state)
    assert final is not None
    for seat, cards in deal["hands"].items():
        assert len(cards) == 5 and set(cards) <= set(final[seat])
    assert deal["turned"] in final[line.taker or ""]
    assert first["deals"][1] == {"deal": 1, "par": None, "rows": [], "hands": None, "turned": None}
    expected = deal_par([line.state])
    assert expected is not None
    deadline = time.monotonic() + 300
    while True:
        got = anon.http.get(f"/api/daily/{day}/results").json()
        if got["deals"][0]["par"] is not None or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert got["deals"][0]["par"] == expected
    assert store.daily_pars(day) == [expected] + [None] * 7


def test_same_deals_across_a_restart_without_a_server_seed(db_url: str) -> None:
    """A server given no seed draws the day's seed at random once and
    stores it: after a restart, a table resumed and a table opened deal
    the same set (the resumed one is not dealt fresh random deals)."""
    with LiveServer(db_url, seed=None) as first:
        ada = _player(first, "Ada")
        ada_table, token = _start(ada)
        with first.connect(ada_table, token) as client:
            _play(client, lambda legal: legal[0], deals=1)
    with LiveServer(db_url, seed=None) as second:
        ada = Player(second).login("Ada")
        again, token = _start(ada)
        assert again == ada_table
        with second.connect(ada_table, token) as client:
            _play(client, lambda legal: legal[0], deals=1)
        bob = _player(second, "Bob")
        bob_table, token = _start(bob)
        with second.connect(bob_table, token) as client:
            _play(client, lambda legal: legal[-1], deals=2)
        ada_deals = _deal_entries(second, ada_table)
        assert len(ada_deals) == 2  # one before the restart, one after
        assert ada_deals == _deal_entries(second, bob_table)
        assert ada_deals[0][1] != ada_deals[1][1]


def test_daily_options_only_at_daily_tables(live: LiveServer) -> None:
    with live.http() as http:
        r = http.post("/api/tables", json={"options": {"deals": 8}})
        assert r.status_code == 400
        assert r.json()["detail"]["code"] == "bad_request"
    ada = _player(live, "Ada")
    r = ada.post("/api/lobby/tables", {"options": {"help": False}})
    assert r.status_code == 400
    assert r.json()["detail"]["code"] == "bad_request"
    assert ada.post("/api/lobby/tables", {}).status_code == 201
