"""Challenges, trophies, coins and the shop (issue 18, item 1), on SQLite
and PostgreSQL: what a real match played through the server counts,
checked against its own stored log replayed by the rules core's records;
nothing for a match a human left or a friendly one; a match counts once
(the end of the match handled twice, or by two processes at once); the
coins ledger and the shop's refusals."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rebelote.record import replay
from rebelote.server.people.awards import award_match, goals_at
from rebelote.server.people.catalogue import COUNTERS, catalogue
from rebelote.server.people.challenges import active_challenges, match_counts, period_bounds
from rebelote.server.storage.progress import Goal
from rebelote.server.storage.tables import Store
from rebelote.server.tables.history import match_record
from rebelote.server.tables.table import game_from_stored

from .live import LiveServer
from .net import Player, Seated, lobby_table, play_together

OPTS = {"speed": "instant", "move_clock": None}


def _until(seated: list[Seated], pred: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "never got there"
        for s in seated:
            s.drain(timeout=0.02)


def _finished(s: Seated) -> bool:
    return any(m["t"] == "room" and m["d"]["status"] == "finished" for m in s.client.received)


def _waiting(s: Seated, what: str) -> bool:
    turn = s.client.turn
    return turn is not None and turn["waiting"] == what


def _value(contract: str | None) -> int:
    if contract is None:
        return 0
    if contract.startswith("capot"):
        return 250
    return int("".join(ch for ch in contract if ch.isdigit()))


def _expected(summary: dict[str, Any], side: str, *, experts: bool) -> dict[str, int]:
    """What the match counts for ``side`` (``NS``), read from its replayed
    record's deal summaries (an oracle apart from the server's counting)."""
    counts = dict.fromkeys(COUNTERS, 0)
    won = summary["winner"] == side
    counts.update(played=1, won=int(won), won_vs_experts=int(won and experts))
    counts["won_501"] = int(won and summary["rules"]["target"] >= 501)
    for deal in summary["deals"]:
        if deal["result"] in ("passed", "cancelled", None) or deal["taker"] is None:
            continue
        ours = deal["taker"] in side
        made = ours and deal["result"] in ("made", "capot")
        coinched = deal["multiplier"] > 1
        counts["capots"] += deal["capot"] == side
        counts["capots_vs_experts"] += deal["capot"] == side and experts
        counts["contracts_made"] += made
        counts["coinche_120_made"] += made and _value(deal["contract"]) >= 120
        counts["coinched_made"] += made and coinched
        counts["defended_coinche"] += (not ours) and coinched and deal["result"] == "dedans"
        belote = deal["belote"]
        counts["belotes"] += belote == side or (isinstance(belote, list) and side in belote)
        counts["no_trump_made"] += made and deal["trump"] in ("SA", "TA")
    return counts


def _play_ranked(
    server: LiveServer, names: list[str], *, bots: str, seed: int, **body: Any
) -> tuple[str, list[Player], list[Seated]]:
    table_id, players = lobby_table(server, names, bots=bots, ranked=True, options=OPTS, **body)
    seated = [Seated(p.seat, p.connect(table_id)) for p in players]
    _play_passing(seated, random.Random(seed))
    _until(seated, lambda: _finished(seated[0]))
    return table_id, players, seated


def _play_passing(seated: list[Seated], rng: random.Random, timeout: float = 240) -> None:
    """Play the humans' seats to the end of the match: they pass in every
    auction (their computer partners take) and play random legal cards."""
    deadline = time.monotonic() + timeout
    while not all(_waiting(s, "rematch") for s in seated):
        assert time.monotonic() < deadline, "the match did not end in time"
        for s in seated:
            s.drain(timeout=0.01)
            turn = s.client.turn
            if s.decides() and turn is not None and turn["waiting"] != "rematch":
                legal = turn["legal"]
                action = "pass" if "pass" in legal else rng.choice(legal)
                s.client.act(action, True if action in turn["belote_choice"] else None)
                s.client.turn = None


def _summary(store: Store, table_id: str) -> dict[str, Any]:
    stored = store.load(table_id)
    assert stored is not None
    record = match_record(stored, 1)
    assert record is not None
    return replay(record)


def test_a_rated_match_counts_exactly_what_its_log_says(server: LiveServer) -> None:
    store: Store = server.app.state.store
    table_id, (ana,), seated = _play_ranked(
        server, ["Ana"], bots="intermediate", seed=7, preset="coinche", target=1000
    )
    assert ana.user is not None
    uid = ana.user["id"]
    summary = _summary(store, table_id)
    expected = _expected(summary, "NS", experts=False)
    assert len(summary["deals"]) >= 2
    assert expected["contracts_made"] >= 1
    nonzero = {k: v for k, v in expected.items() if v}
    assert store.counter_sums(uid) == nonzero
    # the awards: every active goal the counts reach, once, with its coins and XP
    now = datetime.now(UTC)
    reached = [g for g in goals_at(now) if expected[g.counter] >= g.goal]
    assert {g.id for g in reached} >= {"first_match", "daily_play"}
    coins = sum(g.coins for g in reached)
    assert store.coins(uid) == coins
    assert sorted(t.id for t in store.trophies_of(uid)) == sorted(
        g.id for g in reached if g.kind == "trophy"
    )
    ledger = store.ledger(uid)
    assert sorted((d, r, i) for d, r, i, _ in ledger) == sorted(
        (g.coins, g.kind, g.id) for g in reached if g.coins
    )
    # the API says the same
    shown = ana.http.get("/api/challenges", params={"lang": "en"}).json()
    ids = [c["id"] for c in shown]
    assert ids == [c.id for c in active_challenges("daily", now)] + [
        c.id for c in active_challenges("weekly", now)
    ]
    for c in shown:
        challenge = catalogue().challenge(c["id"])
        assert challenge is not None
        assert c["progress"] == min(challenge.goal, expected[challenge.counter])
        assert c["done"] == (expected[challenge.counter] >= challenge.goal)
        assert c["reward"] == {"xp": challenge.xp, "coins": challenge.coins}
        assert c["title"] == challenge.title.en
        assert c["goal"] == challenge.goal
        end = period_bounds(challenge.period, now)[1]
        assert datetime.fromisoformat(c["ends_at"].replace("Z", "+00:00")) == end
    trophies = ana.http.get("/api/profiles/ana/trophies", params={"lang": "fr"}).json()
    assert trophies["coins"] == coins
    assert [t["id"] for t in trophies["trophies"]] == sorted(
        (g.id for g in reached if g.kind == "trophy"),
        key=lambda i: [t.id for t in store.trophies_of(uid)].index(i),
    )
    first = next(t for t in trophies["trophies"] if t["id"] == "first_match")
    assert first["title"] == "Première partie classée"
    # experience: the match's own plus every award's
    xp = store.results_of_match(table_id, 1)
    mine = next(r for r in xp if r.user_id == uid)
    user = store.user(uid)
    assert user is not None
    assert user.xp == mine.xp + sum(g.xp for g in reached)
    # the end of the match handled again (another process, the same log):
    # nothing more
    stored = store.load(table_id)
    assert stored is not None
    game, _ = game_from_stored(stored)
    assert game.match is not None
    counts = match_counts(
        rules=game.rules,
        deals=[d.result for d in game.match.deals],
        side=0,
        won=game.match.winner == 0,
        opponent_levels=["intermediate", "intermediate"],
    )
    assert counts == expected
    other = Store(server.database_url)
    try:
        again = award_match(other, user_id=uid, table_id=table_id, match=1, counts=counts, at=now)
        assert again is None
    finally:
        other.close()
    assert store.coins(uid) == coins and store.counter_sums(uid) == nonzero
    for s in seated:
        s.client.close()


def test_against_experts_the_same_deals_count_for_the_expert_goals(server: LiveServer) -> None:
    """The deals of a real match, counted as if both opponents were
    experts (a real expert match is too slow for a test): the expert
    counters follow ``won`` and ``capots``; a human opponent or one of
    another level spoils them."""
    store: Store = server.app.state.store
    table_id, _, seated = _play_ranked(
        server, ["Ana"], bots="intermediate", seed=11, preset="coinche", target=1000
    )
    stored = store.load(table_id)
    assert stored is not None
    game, _ = game_from_stored(stored)
    assert game.match is not None and game.match.winner is not None
    deals = [d.result for d in game.match.deals]
    summary = _summary(store, table_id)
    won = game.match.winner == 0
    for levels, experts in (
        (["expert", "expert"], True),
        (["expert", None], False),
        (["expert", "intermediate"], False),
    ):
        counts = match_counts(
            rules=game.rules, deals=deals, side=0, won=won, opponent_levels=levels
        )
        assert counts == _expected(summary, "NS", experts=experts)
    for s in seated:
        s.client.close()


def test_nothing_for_a_match_a_human_left_nor_a_friendly_one(server: LiveServer) -> None:
    store: Store = server.app.state.store
    table_id, players = lobby_table(
        server, ["Ana", "Ben"], bots="random", ranked=True, target=1, options=OPTS
    )
    ana, ben = players
    seated = [Seated(p.seat, p.connect(table_id)) for p in players]
    rng = random.Random(5)
    play_together(
        seated,
        rng,
        until=lambda: any(e["kind"] == "card" for e in seated[0].client.events),
    )
    ben.ok(f"/api/lobby/tables/{table_id}/leave")
    rest = seated[:1]
    play_together(rest, rng, until=lambda: _waiting(rest[0], "rematch"), timeout=120)
    _until(rest, lambda: _finished(rest[0]))
    assert {r.seat: r.unrated_reason for r in store.results_of_match(table_id, 1)}["S"] == "left"
    # a friendly (unranked) table of accounts counts nothing either
    host = Player(server).login("Ana")
    friendly = host.open_table(seat="S", target=1, options=OPTS)["table_id"]
    host.ok(f"/api/lobby/tables/{friendly}/fill", {"level": "random"})
    host.ok(f"/api/lobby/tables/{friendly}/start")
    s = Seated("S", host.connect(friendly))
    play_together([s], rng, until=lambda: _waiting(s, "rematch"), timeout=120)
    _until([s], lambda: _finished(s))
    assert store.results_of_match(friendly, 1)[0].unrated_reason == "friendly"
    for p in (ana, ben):
        assert p.user is not None
        uid = p.user["id"]
        assert store.counter_sums(uid) == {}
        assert store.coins(uid) == 0
        assert store.trophies_of(uid) == []
        shown = p.http.get("/api/challenges").json()
        assert [c["progress"] for c in shown] == [0] * len(shown)
        assert p.http.get(f"/api/profiles/{p.user['name']}/trophies").json() == {
            "coins": 0,
            "trophies": [],
        }
    for x in (*seated, s):
        x.client.close()


def _account(store: Store, name: str) -> int:
    return store.create_user(name, None, guest=False).id


AT = datetime(2027, 3, 10, 12, 0, tzinfo=UTC)  # a Wednesday


def _goals() -> list[Goal]:
    since, until = period_bounds("daily", AT)
    return [
        Goal("challenge", "three", "contracts_made", 3, 20, 10, "2027-03-10", since, until),
        Goal("trophy", "first", "played", 1, 5, 7),
    ]


def test_awards_happen_once_per_match_and_period(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    try:
        uid = _account(store, "Ana")
        counts = dict.fromkeys(COUNTERS, 0) | {"played": 1, "contracts_made": 2}
        got = store.record_progress(uid, "t1", 1, counts, AT, _goals())
        assert [g.id for g in got or []] == ["first"]
        # the same match again (its end handled twice): nothing more
        assert store.record_progress(uid, "t1", 1, counts, AT, _goals()) is None
        assert store.counter_sums(uid) == {"played": 1, "contracts_made": 2}
        got = store.record_progress(uid, "t1", 2, counts, AT, _goals())
        assert [g.id for g in got or []] == ["three"]
        got = store.record_progress(uid, "t1", 3, counts, AT, _goals())
        assert got == []  # both earned already this period
        # a match of the next day starts the daily count again
        tomorrow = AT + timedelta(days=1)
        since, until = period_bounds("daily", tomorrow)
        goals = [
            Goal("challenge", "three", "contracts_made", 3, 20, 10, "2027-03-11", since, until)
        ]
        assert store.record_progress(uid, "t1", 4, counts, tomorrow, goals) == []
        assert store.counter_sums(uid, since, until) == {"played": 1, "contracts_made": 2}
        assert store.coins(uid) == 17
        assert [(d, r, i) for d, r, i, _ in store.ledger(uid)] == [
            (7, "trophy", "first"),
            (10, "challenge", "three"),
        ]
        user = store.user(uid)
        assert user is not None and user.xp == store.award_xp(uid) == 25
        assert [t.id for t in store.trophies_of(uid)] == ["first"]
        assert store.challenges_done(uid, "2027-03-10") == {"three"}
    finally:
        store.close()


def test_two_processes_ending_the_same_match_award_it_once(db_url: str) -> None:
    first = Store(db_url)
    first.migrate()
    second = Store(db_url)
    try:
        uid = _account(first, "Ana")
        counts = dict.fromkeys(COUNTERS, 0) | {"played": 1, "contracts_made": 3}
        answers: list[Any] = []
        barrier = threading.Barrier(2)

        def end(store: Store) -> None:
            barrier.wait()
            try:
                answers.append(
                    award_match(store, user_id=uid, table_id="t", match=1, counts=counts, at=AT)
                )
            except Exception as exc:  # a database that refused one of them
                answers.append(exc)

        threads = [threading.Thread(target=end, args=(s,)) for s in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        done = [a for a in answers if isinstance(a, list)]
        assert len(answers) == 2 and len(done) == 1
        expected = [g for g in goals_at(AT) if counts[g.counter] >= g.goal]
        assert first.coins(uid) == sum(g.coins for g in expected)
        assert first.counter_sums(uid) == {"played": 1, "contracts_made": 3}
    finally:
        first.close()
        second.close()


def test_the_shop_spends_only_coins_earned_and_refuses_clearly(server: LiveServer) -> None:
    store: Store = server.app.state.store
    ana = Player(server).signup("Ana")
    assert ana.user is not None
    uid = ana.user["id"]
    shop = ana.http.get("/api/shop", params={"lang": "en"}).json()
    assert shop["coins"] == 0
    assert shop["active"] == {"back": "back_classic", "cloth": "cloth_green"}
    assert [(i["id"], i["owned"], i["active"]) for i in shop["items"]][:2] == [
        ("back_classic", True, True),
        ("back_bordeaux", False, False),
    ]
    # not enough coins: refused, nothing changes
    r = ana.post("/api/shop/buy", {"item": "back_bordeaux", "request_id": "req-0001"})
    assert (r.status_code, r.json()["detail"]["code"]) == (409, "not_enough_coins")
    assert store.ledger(uid) == []
    # 45 coins earned (a trophy of 45)
    goal = Goal("trophy", "rich", "played", 1, 0, 45)
    counts = dict.fromkeys(COUNTERS, 0) | {"played": 1}
    assert store.record_progress(uid, "t", 1, counts, AT, [goal]) == [goal]
    body = {"item": "back_bordeaux", "request_id": "req-0002"}
    bought = ana.ok("/api/shop/buy", body)
    assert bought["coins"] == 5
    # the same request again (a retry): bought once
    assert ana.ok("/api/shop/buy", body)["coins"] == 5
    assert [(d, r, i) for d, r, i, _ in store.ledger(uid)] == [
        (45, "trophy", "rich"),
        (-40, "buy", "back_bordeaux"),
    ]
    refusals = [
        ({"item": "back_bordeaux", "request_id": "req-0003"}, 409, "item_owned"),
        ({"item": "back_forest", "request_id": "req-0004"}, 409, "not_enough_coins"),
        ({"item": "back_forest", "request_id": "req-0002"}, 409, "request_reused"),
        ({"item": "back_classic", "request_id": "req-0005"}, 409, "item_owned"),
        ({"item": "gold_bars", "request_id": "req-0006"}, 404, "unknown_item"),
        ({"item": "back_forest", "request_id": "x"}, 422, "invalid"),
        ({"item": "back_forest", "request_id": "req-0007", "stake": 5}, 422, "invalid"),
    ]
    for sent, status, code in refusals:
        r = ana.post("/api/shop/buy", sent)
        assert (r.status_code, r.json()["detail"]["code"]) == (status, code), sent
    assert store.coins(uid) == 5
    # use: only what one owns
    r = ana.post("/api/shop/use", {"item": "back_night"})
    assert (r.status_code, r.json()["detail"]["code"]) == (403, "not_owned")
    r = ana.post("/api/shop/use", {"item": "nothing"})
    assert (r.status_code, r.json()["detail"]["code"]) == (404, "unknown_item")
    used = ana.ok("/api/shop/use", {"item": "back_bordeaux"})
    assert used["active"] == {"back": "back_bordeaux", "cloth": "cloth_green"}
    assert ana.ok("/api/shop/use", {"item": "back_classic"})["active"]["back"] == "back_classic"
    # without the CSRF header, or as a guest: refused
    r = ana.post("/api/shop/use", {"item": "back_bordeaux"}, csrf=False)
    assert (r.status_code, r.json()["detail"]["code"]) == (403, "csrf")
    # a wrong CSRF token is refused before the body is read: malformed JSON
    # or a body that does not validate, the answer is 403 csrf all the same
    for content in (b"{not json", b'{"nothing": 1}'):
        r = ana.http.post(
            "/api/shop/use",
            content=content,
            headers={"X-CSRF-Token": "wrong", "Content-Type": "application/json"},
        )
        assert (r.status_code, r.json()["detail"]["code"]) == (403, "csrf"), content
    # with the right token, the malformed body is what is wrong
    r = ana.http.post(
        "/api/shop/use",
        content=b"{not json",
        headers={"X-CSRF-Token": ana.csrf or "", "Content-Type": "application/json"},
    )
    assert (r.status_code, r.json()["detail"]["code"]) == (422, "invalid")
    guest = Player(server).guest("Gus")
    r = guest.post("/api/shop/buy", {"item": "cloth_blue", "request_id": "req-0008"})
    assert (r.status_code, r.json()["detail"]["code"]) == (403, "shop_account_required")
    assert guest.http.get("/api/shop").json()["coins"] == 0
    # a profile's trophies are public; an unknown name is 404
    with server.http() as anon:
        assert anon.get("/api/profiles/Ana/trophies").json()["coins"] == 5
        r = anon.get("/api/profiles/nobody/trophies")
        assert (r.status_code, r.json()["detail"]["code"]) == (404, "user_not_found")
        r = anon.get("/api/profiles/Gus/trophies")
        assert r.status_code == 404


@pytest.mark.parametrize("day", range(14))
def test_the_active_challenges_are_the_same_for_everyone_each_day(day: int) -> None:
    at = AT + timedelta(days=day)
    daily = active_challenges("daily", at)
    assert daily == active_challenges("daily", at.replace(hour=23, minute=59))
    assert daily[0].id == "daily_play"
    assert len(daily) == 1 + catalogue().picked["daily"]
    weekly = active_challenges("weekly", at)
    monday = period_bounds("weekly", at)[0]
    assert monday.weekday() == 0 and weekly == active_challenges("weekly", monday)
    assert len(weekly) == 1 + catalogue().picked["weekly"]


def test_the_drawn_challenges_change_from_day_to_day() -> None:
    days = {
        tuple(c.id for c in active_challenges("daily", AT + timedelta(days=d))) for d in range(14)
    }
    assert len(days) > 3
    weeks = {
        tuple(c.id for c in active_challenges("weekly", AT + timedelta(weeks=w))) for w in range(8)
    }
    assert len(weeks) > 2
