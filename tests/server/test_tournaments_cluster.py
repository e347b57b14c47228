"""A tournament on two real ``rebelote serve`` processes sharing one Redis
and one PostgreSQL: both run the tournaments, exactly one pairs the round
and opens its table, and the pages of both processes get the pairing and
the final standings pushed.  Skipped without ``TEST_REDIS_URL`` and
``TEST_DATABASE_URL`` (as ``test_scale_out.py``)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from websockets.sync.client import ClientConnection, connect

from rebelote.server.storage.tournaments import TournamentRow, TournamentStore
from rebelote.server.tournaments.pairing import SEATS

from .cluster import Cluster, ServeProcess
from .conftest import _postgres_database
from .net import Player, Seated, play_together


@pytest.fixture
def cluster(redis_url: str, tmp_path: Path) -> Iterator[Cluster]:
    for pg_url in _postgres_database():
        made = Cluster(pg_url, redis_url, tmp_path)
        try:
            yield made
        finally:
            made.close()


def _view(process: ServeProcess, tid: int) -> Any:
    with process.http() as http:
        return http.get(f"/api/tournaments/{tid}").json()


def _until(process: ServeProcess, tid: int, ok: Callable[[Any], bool]) -> Any:
    deadline = time.monotonic() + 90
    while True:
        view = _view(process, tid)
        if ok(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.2)


def _pushed_until(ws: ClientConnection, ok: Callable[[Any], bool]) -> list[Any]:
    seen = []
    while True:
        msg = json.loads(ws.recv(timeout=60))
        assert msg["t"] == "tournament"
        seen.append(msg["d"])
        if ok(msg["d"]):
            return seen


def test_two_processes_pair_a_round_once_and_both_pages_hear_it(cluster: Cluster) -> None:
    a, b = cluster.add(), cluster.add()
    store = cluster.store()
    try:
        tid = TournamentStore(store).create(
            name="Duo",
            kind="swiss",
            preset="seed002",
            target=1,
            level="random",
            rounds=1,
            minutes=None,
            starts_at=time.time() + 3600,
            now=time.time(),
        )
        players = {"Ada": Player(a).signup("Ada"), "Bea": Player(b).signup("Bea")}
        players["Cid"] = Player(b).signup("Cid")
        for p in players.values():
            p.ok(f"/api/tournaments/{tid}/join")
        with (
            connect(f"{a.ws_url}/ws/tournament/{tid}", max_queue=None) as page_a,
            connect(f"{b.ws_url}/ws/tournament/{tid}", max_queue=None) as page_b,
        ):
            with store.engine.begin() as connection:
                connection.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tid)
                    .values(starts_at=time.time() - 1)
                )
            view = _until(a, tid, lambda v: v["tables"] and v["tables"][0]["table"])
            # three entrants: two partners against one with a computer
            assert [t["seats"] for t in view["tables"]] == [["Ada", "Bea", "Cid", None]]
            table_id = view["tables"][0]["table"]
            for page in (page_a, page_b):
                _pushed_until(page, lambda v: v["round"] == 1 and len(v["tables"]) == 1)
            seated = []
            for letter, name in zip(SEATS, view["tables"][0]["seats"], strict=True):
                if name is None:
                    continue
                p = players[name]
                p.token = p.ok(f"/api/lobby/tables/{table_id}/token")["token"]
                seated.append(Seated(letter, p.connect(table_id)))
            play_together(
                seated,
                random.Random(3),
                until=lambda: any(e["kind"] == "match_end" for e in seated[0].client.events),
                timeout=120,
            )
            for s in seated:
                s.client.close()
            final = _until(b, tid, lambda v: v["status"] == "finished")
            for page in (page_a, page_b):
                last = _pushed_until(page, lambda v: v["status"] == "finished")[-1]
                assert last["standings"] == final["standings"]
        # one table only, though both processes ran the tournament
        assert len(TournamentStore(store).pairings(tid)) == 1
        points = sorted(s["points"] for s in final["standings"])
        assert points in ([0, 1, 1], [0, 0, 1])
        assert [s["played"] for s in final["standings"]] == [1, 1, 1]
    finally:
        store.close()
