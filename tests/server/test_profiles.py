"""Profiles (issue 18, item 2), on SQLite and PostgreSQL: an account's
profile after matches played through the server (computer players in the
other seats), every key's exact value worked out from the replays and the
match ends the players saw; a match someone left counts for nobody; an
unknown name is 404; summaries are made once and kept."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rebelote.server.people.profiles import LAST_GAMES
from rebelote.server.storage.summaries import MatchSummaryRow
from rebelote.server.tables.summaries import SUMMARY_VERSION

from .live import LiveServer
from .net import Player, Seated, lobby_table, play_together

OPTS = {"speed": "instant", "auto_next": False, "auto_play_forced": False}

KEYS = [
    "name",
    "level",
    "xp",
    "rating",
    "rating_history",
    "games_played",
    "games_won",
    "contracts_taken",
    "contracts_made",
    "contracts_made_pct",
    "avg_points_taker",
    "avg_points_defender",
    "capots",
    "last_games",
]


def _until(seated: list[Seated], pred: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "never got there"
        for s in seated:
            s.drain(timeout=0.02)


def _ended(s: Seated, match: int) -> bool:
    return any(e["kind"] == "match_end" and e["match"] == match for e in s.client.events)


def _rematch_waiting(s: Seated) -> bool:
    turn = s.client.turn
    return turn is not None and turn["waiting"] == "rematch"


class Bidder(random.Random):
    """Random legal actions, but a bid rather than a pass two times in
    three (so that the player takes contracts)."""

    def choice(self, seq: Any) -> Any:
        bids = [a for a in seq if a != "pass"]
        if "pass" in seq and bids and self.random() < 2 / 3:
            return super().choice(bids)
        return super().choice(seq)


def _match_over(s: Seated, match: int) -> Callable[[], bool]:
    return lambda: _ended(s, match) and _rematch_waiting(s)


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def _expected_from_replays(
    player: Player, seat: str, side: str, matches: list[tuple[str, int, dict[str, Any]]]
) -> dict[str, Any]:
    """The statistics of ``seat`` (on ``side``) over ``matches``
    (``(table, match, match_end event)``), read from each table's replay:
    the deals' summaries as the rules core wrote them."""
    taken = made = taker_points = defended = defender_points = capots = won = 0
    last: list[dict[str, Any]] = []
    for table_id, match, end in matches:
        data = player.http.get(f"/api/tables/{table_id}/replay").json()
        deals = [d for d in data["deals"] if d["match"] == match]
        assert deals
        for d in deals:
            summary = d["summary"]
            if summary["breakdown"] is None:  # thrown in: not played
                continue
            if summary["taker"] == seat:
                taken += 1
                made += summary["breakdown"]["verdict"] == "made"
                taker_points += summary["score"][side]
            elif summary["breakdown"]["taker"] != side:
                defended += 1
                defender_points += summary["score"][side]
            capots += summary["capot"] == side
        won += end["winner"] == side
        others = [v for k, v in end["totals"].items() if k != side]
        last.append(
            {
                "table": table_id,
                "preset": None,
                "players": [s["name"] for s in deals[-1]["seats"]],
                "score": [end["totals"][side], max(others)],
                "won": end["winner"] == side,
                "replay": f"/#/replay/{table_id}/{match}",
            }
        )
    return {
        "games_played": len(matches),
        "games_won": won,
        "contracts_taken": taken,
        "contracts_made": made,
        "contracts_made_pct": None if taken == 0 else round(100 * made / taken, 1),
        "avg_points_taker": None if taken == 0 else round(taker_points / taken, 1),
        "avg_points_defender": None if defended == 0 else round(defender_points / defended, 1),
        "capots": capots,
        "last_games": last[::-1],
    }


def play_rated_matches(
    server: LiveServer, name: str, matches: int, rng: random.Random, *, target: int
) -> tuple[str, Player, list[tuple[str, int, dict[str, Any]]]]:
    """``matches`` rated matches of a new account ``name`` at S of a
    public lobby table, random computer players in the other seats, each
    played to its end (``rng`` chooses his actions) and its results
    stored.  Returns the table, the player and ``(table, match, match_end
    event)`` of each match."""
    table_id, (player,) = lobby_table(
        server, [name], bots="random", ranked=True, target=target, options=OPTS
    )
    s = Seated("S", player.connect(table_id))
    ends: list[tuple[str, int, dict[str, Any]]] = []
    for match in range(1, matches + 1):
        if match > 1:
            s.client.act("rematch")
        play_together([s], rng, until=_match_over(s, match))
        end = next(e for e in s.client.events if e["kind"] == "match_end" and e["match"] == match)
        ends.append((table_id, match, end))
    _until([s], lambda: len(player.http.get("/api/me/history").json()["results"]) == matches)
    s.client.close()
    return table_id, player, ends


def test_a_profile_after_matches_played_and_one_left(server: LiveServer) -> None:
    # two rated matches of Ana (S) with three computer players
    rng = Bidder(18)
    table_id, ana, ends = play_rated_matches(server, "Ana", 2, rng, target=400)

    # a match Ben left: counted for neither Ana nor Ben
    bob = Player(server).signup("Ben")
    host = Player(server).login("Ana")
    left_table = host.open_table(seat="S", ranked=True, target=150, options=OPTS)["table_id"]
    bob.join(left_table, "N")
    host.ok(f"/api/lobby/tables/{left_table}/fill", {"level": "random"})
    host.ok(f"/api/lobby/tables/{left_table}/start")
    hs, bs = Seated("S", host.connect(left_table)), Seated("N", bob.connect(left_table))
    play_together([hs, bs], rng, until=lambda: any(e["kind"] == "card" for e in hs.client.events))
    bob.ok(f"/api/lobby/tables/{left_table}/leave")
    play_together([hs], rng, until=lambda: _ended(hs, 1))
    _until([hs], lambda: len(host.http.get("/api/me/history").json()["results"]) == 3)
    hs.client.close()
    bs.client.close()

    me = ana.http.get("/api/me").json()["user"]
    history = ana.http.get("/api/me/history").json()["results"]
    left = [r for r in history if r["table_id"] == left_table]
    assert [(r["left"], r["unrated_reason"]) for r in left] == [(False, "left")]
    rated = sorted((r for r in history if r["ranked"]), key=lambda r: r["at"])
    assert len(rated) == 2
    profile = ana.http.get("/api/profiles/ana").json()  # names compare casefolded
    assert list(profile) == KEYS
    expected = _expected_from_replays(ana, "S", "NS", ends)
    at = {(r["table_id"], r["match"]): r["at"] for r in history}
    for game in expected["last_games"]:
        match = int(game["replay"].rsplit("/", 1)[1])
        game["finished_at"] = _iso(at[(game["table"], match)])
        game["preset"] = "ffb"  # the lobby's default rules
        game["target"] = 400  # the table's own, not the preset's 1000
    assert profile == {
        "name": "Ana",
        "level": me["level"],
        "xp": me["xp"],
        "rating": me["rating"],
        "rating_history": [
            {"at": _iso(r["at"]), "rating": r["rating_after"], "table": table_id} for r in rated
        ],
        **{
            k: expected[k]
            for k in KEYS
            if k not in ("name", "level", "xp", "rating", "rating_history")
        },
    }
    assert [list(g) for g in profile["last_games"]] == [
        ["table", "finished_at", "preset", "target", "players", "score", "won", "replay"]
    ] * 2
    assert [g["players"] for g in profile["last_games"]] == [["North", "West", "Ana", "East"]] * 2
    assert [g["replay"] for g in profile["last_games"]] == [
        f"/#/replay/{table_id}/2",
        f"/#/replay/{table_id}/1",
    ]
    # the matches played gave something to count on every side
    assert me["xp"] > 0 and profile["games_played"] == 2
    assert profile["contracts_taken"] > 0 and profile["avg_points_defender"] is not None
    # Ben: his left match counts nowhere; his rating never moved
    ben = Player(server).login("Ben")
    theirs = ben.http.get("/api/profiles/Ben").json()
    assert (theirs["games_played"], theirs["rating_history"], theirs["last_games"]) == (0, [], [])
    assert (theirs["contracts_taken"], theirs["contracts_made_pct"], theirs["capots"]) == (
        0,
        None,
        0,
    )
    assert (theirs["avg_points_taker"], theirs["avg_points_defender"]) == (None, None)
    # the summaries were kept once, for every seat of the counted matches
    store = server.app.state.store
    with store._session() as session:
        rows = session.query(MatchSummaryRow).filter_by(table_id=table_id).all()
    assert sorted((r.match, r.seat, r.version) for r in rows) == [
        (m, seat, SUMMARY_VERSION) for m in (1, 2) for seat in "ENSW"
    ]
    assert store.unsummarized(me["id"], SUMMARY_VERSION) == []
    # the same answer read back from them
    assert ana.http.get("/api/profiles/Ana").json() == profile
    assert LAST_GAMES == 20
    for p in (ana, bob, host, ben):
        p.close()


def test_an_unknown_name_has_no_profile(server: LiveServer) -> None:
    guest = Player(server).guest("Gus")
    with server.http() as anon:
        for name in ("Nobody", "Gus", "x" * 41, "%20"):
            r = anon.get(f"/api/profiles/{name}")
            assert (r.status_code, r.json()) == (
                404,
                {"detail": {"code": "no_such_account", "message": "no account has this name"}},
            )
    guest.close()


def test_a_new_account_has_an_empty_profile(server: LiveServer) -> None:
    p = Player(server).signup("Zoé")
    with server.http() as anon:
        r = anon.get("/api/profiles/ZOÉ")
    assert r.status_code == 200
    assert r.json() == {
        "name": "Zoé",
        "level": 1,
        "xp": 0,
        "rating": 1500,
        "rating_history": [],
        "games_played": 0,
        "games_won": 0,
        "contracts_taken": 0,
        "contracts_made": 0,
        "contracts_made_pct": None,
        "avg_points_taker": None,
        "avg_points_defender": None,
        "capots": 0,
        "last_games": [],
    }
    p.close()


def test_a_private_match_counts_but_is_listed_to_its_player_only(server: LiveServer) -> None:
    ana = Player(server).signup("Ana")
    table_id = ana.open_table(seat="S", visibility="private", target=1, options=OPTS)["table_id"]
    ana.ok(f"/api/lobby/tables/{table_id}/fill", {"level": "random"})
    ana.ok(f"/api/lobby/tables/{table_id}/start")
    s = Seated("S", ana.connect(table_id))
    play_together([s], Bidder(3), until=_match_over(s, 1))
    _until([s], lambda: len(ana.http.get("/api/me/history").json()["results"]) == 1)
    s.client.close()
    (line,) = ana.http.get("/api/me/history").json()["results"]
    assert (line["ranked"], line["unrated_reason"]) == (False, "friendly")
    with server.http() as anon:
        theirs = anon.get("/api/profiles/Ana").json()
    own = ana.http.get("/api/profiles/Ana").json()
    assert (theirs["games_played"], theirs["last_games"]) == (1, [])
    assert theirs["rating_history"] == [] and own["rating_history"] == []
    assert [g["table"] for g in own["last_games"]] == [table_id]
    assert {k: v for k, v in own.items() if k != "last_games"} == {
        k: v for k, v in theirs.items() if k != "last_games"
    }
    ana.close()
