"""The admin's commands, ``rebelote tournament create | list | cancel``,
on SQLite and PostgreSQL: what they store, and bad input refused with
exit status 2 and nothing stored."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rebelote.cli import app
from rebelote.server.storage.tables import Store
from rebelote.server.storage.tournaments import TournamentStore
from rebelote.tournament_admin import parse_starts_at


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tournament", *args])
    return result.exit_code, result.stdout, result.stderr


def test_create_list_cancel(db_url: str) -> None:
    code, out, _ = _run(
        "create", "--kind", "swiss", "--name", " Coupe  de Noël ", "--starts-at",
        "2036-12-24T20:00+01:00", "--rounds", "5", "--preset", "coinche", "--target", "1000",
        "--db", db_url, "--json",
    )  # fmt: skip
    assert (code, json.loads(out)) == (0, {"id": 1})
    code, out, _ = _run(
        "create", "--kind", "arena", "--name", "Arène", "--starts-at", "2036-12-25T18:00",
        "--minutes", "45", "--level", "expert", "--db", db_url,
    )  # fmt: skip
    assert (code, out) == (0, "tournament 2 created: arena 'Arène', starts 2036-12-25T18:00:00Z\n")
    code, out, _ = _run("list", "--db", db_url, "--json")
    listed = json.loads(out)
    assert [(t["id"], t["name"], t["kind"], t["status"], t["starts_at"]) for t in listed] == [
        (1, "Coupe de Noël", "swiss", "open", "2036-12-24T19:00:00Z"),
        (2, "Arène", "arena", "open", "2036-12-25T18:00:00Z"),
    ]
    assert (_run("cancel", "2", "--db", db_url)[:2]) == (0, "tournament 2 cancelled\n")
    assert _run("cancel", "2", "--db", db_url)[0] == 2
    assert _run("cancel", "9", "--db", db_url)[0] == 2
    store = Store(db_url)
    try:
        stored = TournamentStore(store).get(1)
        assert stored is not None
        assert (stored.preset, stored.target, stored.rounds, stored.minutes, stored.level) == (
            "coinche", 1000, 5, None, "intermediate",
        )  # fmt: skip
        assert stored.starts_at == parse_starts_at("2036-12-24T19:00Z")
        assert [t.status for t in TournamentStore(store).all()] == ["open", "cancelled"]
    finally:
        store.close()


def test_bad_input_is_refused_and_nothing_stored(db_url: str) -> None:
    base = ["create", "--name", "X", "--starts-at", "2036-12-24T20:00", "--db", db_url]
    for extra, message in [
        (["--kind", "cup", "--rounds", "3"], "--kind: swiss or arena"),
        (["--kind", "swiss"], "a swiss tournament needs --rounds 1 to 20"),
        (["--kind", "swiss", "--rounds", "3", "--minutes", "4"], "needs --rounds"),
        (["--kind", "arena", "--minutes", "0"], "an arena needs --minutes 1 to 1440"),
        (["--kind", "swiss", "--rounds", "3", "--preset", "three-players"], "--preset: one of"),
        (["--kind", "swiss", "--rounds", "3", "--level", "god"], "--level: one of"),
        (["--kind", "swiss", "--rounds", "3", "--target", "0"], "--target: 1 to 100000"),
    ]:
        code, _, err = _run(*base, *extra)
        assert code == 2 and message in err, (extra, err)
    code, _, err = _run(
        "create", "--kind", "swiss", "--rounds", "2", "--name", "X", "--starts-at", "demain",
        "--db", db_url,
    )  # fmt: skip
    assert code == 2 and "--starts-at: an ISO 8601 date and time" in err
    # a start in the past: refused, said clearly, nothing stored
    code, out, err = _run(
        "create", "--kind", "swiss", "--rounds", "2", "--name", "X", "--starts-at",
        "2020-01-01T10:00Z", "--db", db_url,
    )  # fmt: skip
    assert (code, out) == (2, "")
    assert "--starts-at: 2020-01-01T10:00:00Z is in the past (now " in err
    assert err.strip().endswith("): give a time to come")
    assert json.loads(_run("list", "--db", db_url, "--json")[1]) == []
