"""The analysis of a finished game (``GET /api/tables/{id}/analysis``,
issue 16): made in the background on demand, its progress polled; its
values are the solver's on each position of the deal, with every hand
known; kept with the game, so that a second request, and one after a
restart, read it back without analysing again; refused while the match
goes on."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from rebelote.actions import Play
from rebelote.bots.analysis import ANALYSIS_VERSION, analyse_deal
from rebelote.cards import card_name
from rebelote.record import replay_deal
from rebelote.solver import Position, solve_moves

from .live import LiveServer, play_match


def _analysis(http: httpx.Client, table_id: str, token: str, match: int = 1) -> httpx.Response:
    return http.get(f"/api/tables/{table_id}/analysis", params={"match": match, "token": token})


def _wait_done(http: httpx.Client, table_id: str, token: str) -> list[dict[str, Any]]:
    """Poll until the analysis is made; returns every answer."""
    answers = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        r = _analysis(http, table_id, token)
        assert r.status_code == 200, r.text
        answers.append(r.json())
        if answers[-1]["status"] != "running":
            return answers
        time.sleep(0.3)
    raise AssertionError("the analysis did not end")


def test_the_analysis_of_a_finished_match_is_made_once_and_kept(db_url: str) -> None:
    url = db_url
    with LiveServer(url) as live:
        created = live.create(preset="ffb", target=1)
        table_id, token = created["table_id"], created["token"]
        with live.http() as http:
            # the match goes on: nothing to analyse
            r = _analysis(http, table_id, token)
            assert r.status_code == 404 and r.json()["detail"]["code"] == "not_finished"
            with live.connect(table_id, token) as client:
                play_match(client, random.Random(4))
            answers = _wait_done(http, table_id, token)
            first, last = answers[0], answers[-1]
            assert first["status"] in ("running", "done")
            assert last["status"] == "done", last
            total = last["total"]
            assert total >= 1 and last["done"] == total
            for a in answers[:-1]:
                assert a["status"] == "running" and 0 <= a["done"] <= a["total"] == total
            data = last["analysis"]
            assert data["version"] == ANALYSIS_VERSION and data["match"] == 1
            assert {s["seat"]: s["name"] for s in data["seats"]}["S"] == "You"
            analyses = live.app.state.analyses
            assert (analyses.made, analyses.kept) == (1, 0)
            # the records the replay exports give the same analysis (rebelote analyse)
            record = http.get(
                f"/api/tables/{table_id}/record", params={"match": 1, "token": token}
            ).json()
            assert len(record["deals"]) == len(data["deals"]) == total
            for i, (deal, found) in enumerate(zip(record["deals"], data["deals"], strict=True)):
                full = {**deal, "rules": record["rules"], "format": record["format"]}
                assert {
                    k: v for k, v in found.items() if k not in ("match", "deal", "seats", "help")
                } == (analyse_deal(full, seed=1000 * i))
                assert found["help"] == {"hints": 0, "takebacks": 0}
                assert [s["seat"] for s in found["seats"]] == ["N", "W", "S", "E"]
            # each card's values: the solver's on that position, every hand known
            played = next(
                (i, d) for i, d in enumerate(record["deals"]) if data["deals"][i]["cards"]
            )
            full = {**played[1], "rules": record["rules"], "format": record["format"]}
            cards = iter(data["deals"][played[0]]["cards"])
            state = replay_deal({**full, "actions": []}).state
            for done in replay_deal(full).actions:
                if isinstance(done.action, Play):
                    line = next(cards)
                    values = solve_moves(Position.from_state(state)).values
                    assert (line["seat"], line["card"]) == (
                        done.seat.letter,
                        card_name(done.action.card),
                    )
                    assert line["before"] - line["points"] == max(values.values())
                    assert line["after"] - line["points"] == values[done.action.card]
                    assert line["cost"] == max(values.values()) - values[done.action.card]
                state.apply(done.action, done.seat)
            # asked again: the analysis kept, not made again
            again = _analysis(http, table_id, token).json()
            assert again == last
            assert analyses.made == 1
            # another match of the table does not exist yet
            r = _analysis(http, table_id, token, match=2)
            assert r.status_code == 404 and r.json()["detail"]["code"] == "not_finished"
            # a stranger without the table's token does not see a solo table's analysis
            r = http.get(f"/api/tables/{table_id}/analysis", params={"match": 1})
            assert r.status_code == 404 and r.json()["detail"]["code"] == "table_not_found"
    # after a restart: read back from the database at once
    with LiveServer(url) as live, live.http() as http:
        r = _analysis(http, table_id, token)
        assert r.status_code == 200 and r.json() == last
        analyses = live.app.state.analyses
        assert (analyses.made, analyses.kept) == (0, 1)
