"""Tournaments through the server (``docs/tournaments.md``), on SQLite and
PostgreSQL: six people (two of them with computers each round) play a
Swiss tournament of two rounds to its standings, pushed live to the
tournament's socket; registration closes at the start."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import update
from websockets.sync.client import ClientConnection, connect

from rebelote.server.storage.tables import Store
from rebelote.server.storage.tournaments import TournamentRow, TournamentStore
from rebelote.server.tournaments.pairing import SEATS
from rebelote.server.tournaments.standings import Game, standings

from .live import LiveServer
from .net import Player, Seated, play_together

NAMES = ["Ada", "Bea", "Cid", "Dan", "Eve", "Fay"]


@pytest.fixture
def live(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(db_url, bot_delay=0.0) as server:
        yield server


def _store(live: LiveServer) -> TournamentStore:
    store: Store = live.app.state.store
    return TournamentStore(store)


def _create(live: LiveServer, **extra: Any) -> int:
    body: dict[str, Any] = {
        "name": "Coupe d'hiver",
        "kind": "swiss",
        "preset": "seed002",
        "target": 1,  # a match of one deal
        "level": "random",
        "rounds": 2,
        "minutes": None,
        "starts_at": time.time() + 3600,
        "now": time.time(),
    }
    body.update(extra)
    return _store(live).create(**body)


def _start_now(live: LiveServer, tournament_id: int) -> None:
    store: Store = live.app.state.store
    with store.engine.begin() as connection:
        connection.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id)
            .values(starts_at=time.time() - 1)
        )


def _wait(live: LiveServer, tournament_id: int, ok: Callable[[dict[str, Any]], bool]) -> Any:
    deadline = time.monotonic() + 60
    while True:
        view = live_view(live, tournament_id)
        if ok(view):
            return view
        assert time.monotonic() < deadline, f"the tournament did not get there: {view}"
        time.sleep(0.1)


def live_view(live: LiveServer, tournament_id: int) -> Any:
    with live.http() as http:
        r = http.get(f"/api/tournaments/{tournament_id}")
        assert r.status_code == 200, r.text
        return r.json()


def _play_round(
    players: dict[str, Player], ids: dict[str, int], view: dict[str, Any], number: int
) -> list[Game]:
    """Every entrant plays his table of round ``number`` to its end;
    the games as the tables' ``match_end`` told them."""
    tables = [t for t in view["tables"] if t["round"] == number]
    seated: list[Seated] = []
    watcher: dict[int, Seated] = {}  # one client of each table
    for i, table in enumerate(tables):
        assert table["table"] is not None
        for letter, name in zip(SEATS, table["seats"], strict=True):
            if name is None:
                continue
            player = players[name]
            token = player.ok(f"/api/lobby/tables/{table['table']}/token")
            player.token = token["token"]
            seated.append(Seated(letter, player.connect(table["table"])))
            watcher.setdefault(i, seated[-1])
    ends: dict[int, str] = {}

    def over() -> bool:
        for i, s in watcher.items():
            for e in s.client.events:
                if e["kind"] == "match_end":
                    ends[i] = e["winner"]
        return len(ends) == len(tables)

    play_together(seated, random.Random(number), until=over, timeout=120)
    for s in seated:
        s.client.close()
    games = []
    for i, table in enumerate(tables):
        names = dict(zip(SEATS, table["seats"], strict=True))
        ns = tuple(ids[n] for s in ("N", "S") if (n := names[s]) is not None)
        we = tuple(ids[n] for s in ("W", "E") if (n := names[s]) is not None)
        games.append(Game(number, (ns, we), winner=0 if ends[i] == "NS" else 1))
    return games


def _views(ws: ClientConnection) -> list[Any]:
    out: list[Any] = []
    while True:
        try:
            text = ws.recv(timeout=0.5)
        except TimeoutError:
            return out
        msg = json.loads(text)
        assert msg["t"] == "tournament"
        out.append(msg["d"])


def test_swiss_tournament_with_people_and_computers_runs_to_standings(live: LiveServer) -> None:
    tid = _create(live)
    players: dict[str, Player] = {}
    ids: dict[str, int] = {}
    for name in NAMES:
        p = Player(live).signup(name)
        assert p.user is not None
        ids[name] = p.user["id"]
        view = p.ok(f"/api/tournaments/{tid}/join")
        assert view["joined"] is True
        players[name] = p
    assert view["entrants"] == NAMES
    assert view["status"] == "open"
    # a guest may not enter; leaving and entering again
    guest = Player(live).guest("Gus")
    r = guest.post(f"/api/tournaments/{tid}/join")
    assert (r.status_code, r.json()["detail"]["code"]) == (403, "account_required")
    assert players["Fay"].ok(f"/api/tournaments/{tid}/leave")["entrants"] == NAMES[:5]
    assert players["Fay"].ok(f"/api/tournaments/{tid}/join")["entrants"] == NAMES

    with connect(f"{live.ws_url}/ws/tournament/{tid}", max_queue=None, close_timeout=2) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert (first["t"], first["d"]["status"], first["d"]["entrants"]) == (
            "tournament",
            "open",
            NAMES,
        )

        _start_now(live, tid)
        view = _wait(live, tid, lambda v: v["round"] == 1 and all(t["table"] for t in v["tables"]))
        assert view["status"] == "running"
        # by rating (all equal), then by joining: 1 and 4 against 2 and 3, 5 and 6 with computers
        assert [t["seats"] for t in view["tables"]] == [
            ["Ada", "Bea", "Dan", "Cid"],
            ["Eve", "Fay", None, None],
        ]
        # registration is closed
        late = Player(live).signup("Lou")
        r = late.post(f"/api/tournaments/{tid}/join")
        assert (r.status_code, r.json()["detail"]["code"]) == (409, "tournament_started")
        r = players["Ada"].post(f"/api/tournaments/{tid}/leave")
        assert (r.status_code, r.json()["detail"]["code"]) == (409, "tournament_started")

        games = _play_round(players, ids, view, 1)
        view = _wait(live, tid, lambda v: v["round"] == 2 and all(t["table"] for t in v["tables"]))
        round_two = [t for t in view["tables"] if t["round"] == 2]
        assert len(round_two) == 2
        games += _play_round(players, ids, view, 2)
        view = _wait(live, tid, lambda v: v["status"] == "finished")

        names = {ids[n]: n for n in NAMES}
        expected = [
            {
                "rank": s.rank,
                "name": s.name,
                "points": s.points,
                "played": s.played,
                "tiebreak": s.tiebreak,
            }
            for s in standings("swiss", names, games)
        ]
        assert view["standings"] == expected
        assert sum(s["points"] for s in view["standings"]) == sum(
            len(g.teams[g.winner]) for g in games if g.winner is not None
        )
        assert [s["played"] for s in view["standings"]] == [2] * 6

        pushed = _views(ws)
    assert any(v["round"] == 1 and len(v["tables"]) == 2 for v in pushed)
    assert pushed[-1]["status"] == "finished"
    assert pushed[-1]["standings"] == expected

    listed = live_view_list(live)
    assert [t["id"] for t in listed["finished"]] == [tid]
    with live.http() as http:
        mine = http.get(f"/api/users/{ids['Ada']}/tournaments").json()
    ada = next(s for s in expected if s["name"] == "Ada")
    assert mine == [
        {
            "id": tid,
            "name": "Coupe d'hiver",
            "kind": "swiss",
            "status": "finished",
            "starts_at": view["starts_at"],
            "entrants": 6,
            "rank": ada["rank"],
            "points": ada["points"],
            "played": 2,
        }
    ]


def test_a_profile_lists_the_tournaments_by_account_name(live: LiveServer) -> None:
    """``GET /api/profiles/{name}/tournaments``: the account's entries
    (no standing before the start); 404 for a name no account has."""
    tid = _create(live, starts_at=1_900_000_000.0)
    ada = Player(live).signup("Ada")
    ada.ok(f"/api/tournaments/{tid}/join")
    with live.http() as http:
        r = http.get("/api/profiles/ada/tournaments")
        assert r.status_code == 200, r.text
        assert r.json() == [
            {
                "id": tid,
                "name": "Coupe d'hiver",
                "kind": "swiss",
                "status": "open",
                "starts_at": "2030-03-17T17:46:40Z",
                "entrants": 1,
                "rank": None,
                "points": None,
                "played": None,
            }
        ]
        r = http.get("/api/profiles/Nobody/tournaments")
        assert (r.status_code, r.json()["detail"]["code"]) == (404, "no_such_account")


def live_view_list(live: LiveServer) -> Any:
    with live.http() as http:
        return http.get("/api/tournaments").json()


def test_unknown_tournament_and_too_few_entrants(live: LiveServer) -> None:
    with live.http() as http:
        r = http.get("/api/tournaments/999")
        assert (r.status_code, r.json()["detail"]["code"]) == (404, "tournament_not_found")
        r = http.get("/api/tournaments/abc")
        assert (r.status_code, r.json()["detail"]["code"]) == (404, "tournament_not_found")
    tid = _create(live)
    ada = Player(live).signup("Ada")
    ada.ok(f"/api/tournaments/{tid}/join")
    r = ada.post("/api/tournaments/999/join")
    assert (r.status_code, r.json()["detail"]["code"]) == (404, "tournament_not_found")
    _start_now(live, tid)
    view = _wait(live, tid, lambda v: v["status"] == "cancelled")
    assert view["tables"] == []
    r = ada.post(f"/api/tournaments/{tid}/leave")
    assert (r.status_code, r.json()["detail"]["code"]) == (409, "tournament_started")


def test_an_arena_pairs_again_at_once_and_ends_at_its_time(live: LiveServer) -> None:
    """Four people: their first match over, they are paired again at once;
    past the arena's end nobody is paired any more, and the tournament
    finishes once the matches begun are over.  Points: 2 a win."""
    tid = _create(live, kind="arena", rounds=None, minutes=1)
    players: dict[str, Player] = {}
    ids: dict[str, int] = {}
    for name in NAMES[:4]:
        p = Player(live).signup(name)
        assert p.user is not None
        ids[name] = p.user["id"]
        p.ok(f"/api/tournaments/{tid}/join")
        players[name] = p
    _start_now(live, tid)
    view = _wait(live, tid, lambda v: v["round"] == 1 and all(t["table"] for t in v["tables"]))
    assert [t["seats"] for t in view["tables"]] == [["Ada", "Bea", "Dan", "Cid"]]
    games = _play_round(players, ids, view, 1)
    view = _wait(live, tid, lambda v: v["round"] == 2 and all(t["table"] for t in v["tables"]))
    second = [t["seats"] for t in view["tables"] if t["round"] == 2]
    assert len(second) == 1 and sorted(n for n in second[0] if n) == ["Ada", "Bea", "Cid", "Dan"]
    # the partnerships change: nobody has the same partner again
    assert {second[0][0], second[0][2]} != {"Ada", "Dan"}
    # the arena's time is up (the server's clock moved on): no third wave
    runner = live.app.state.tournaments
    runner.clock = lambda: time.time() + 120
    games += _play_round(players, ids, view, 2)
    view = _wait(live, tid, lambda v: v["status"] == "finished")
    assert view["round"] == 2
    names = {ids[n]: n for n in NAMES[:4]}
    expected = [
        {
            "rank": s.rank,
            "name": s.name,
            "points": s.points,
            "played": s.played,
            "tiebreak": s.tiebreak,
        }
        for s in standings("arena", names, games)
    ]
    assert view["standings"] == expected
    points = sorted(int(s["points"]) for s in view["standings"])
    assert points in ([0, 0, 4, 4], [0, 2, 2, 4], [2, 2, 2, 2])


def test_the_tournament_socket_answers_ping_and_closes_for_no_tournament(
    live: LiveServer,
) -> None:
    from websockets.exceptions import ConnectionClosed

    tid = _create(live)
    with connect(f"{live.ws_url}/ws/tournament/{tid}") as ws:
        first = json.loads(ws.recv(timeout=10))
        assert (first["t"], first["d"]["id"], first["d"]["standings"]) == ("tournament", tid, [])
        ws.send(json.dumps({"t": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"t": "pong", "d": {}}
    with connect(f"{live.ws_url}/ws/tournament/4242") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4404, "tournament_not_found")
