"""``rebelote bench server``: its arguments, its figures, and a short real
run against ``rebelote serve`` on loopback that holds every table and prints
one JSON line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from rebelote.server.loadbench import (
    BenchResult,
    _Bench,
    _refused,
    _Seat,
    _Table,
    processes_of_table,
)

REPORT_KEYS = {
    "think_s",
    "tables",
    "processes",
    "tables_held",
    "clients",
    "seconds",
    "messages",
    "messages_per_s",
    "actions",
    "actions_per_s",
    "latency_samples",
    "p50_ms",
    "p99_ms",
    "mean_ms",
    "errors",
    "error_codes",
    "db",
    "redis",
    "cpus",
    "load_average",
    "server_cpu_percent",
    "client_cpu_percent",
    "settle_s",
}


def _bench(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebelote", "bench", "server", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_bench_server_prints_one_json_line_with_every_table_held() -> None:
    done = _bench("--tables", "2", "--seconds", "3", "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert set(report) == REPORT_KEYS
    assert report["tables"] == 2 and report["processes"] == 1 and report["clients"] == 8
    assert report["tables_held"] == 2
    assert report["errors"] == 0 and report["error_codes"] == {}
    assert report["db"] == "sqlite" and report["redis"] is False
    assert report["messages"] > 0 and report["messages_per_s"] > 0 and report["actions"] > 0
    assert report["latency_samples"] > 0
    assert 0 < report["p50_ms"] <= report["p99_ms"]
    assert len(report["server_cpu_percent"]) == 1


def test_bench_server_think_paces_the_players() -> None:
    """``--think 0.2``: each action is sent 0.1 to 0.3 s after its turn, so
    two tables make at most 2 / 0.1 = 20 actions a second (as fast as they
    can, hundreds)."""
    done = _bench("--tables", "2", "--seconds", "3", "--think", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["think_s"] == 0.2
    assert report["tables_held"] == 2 and report["errors"] == 0
    assert 0 < report["actions_per_s"] <= 20
    assert report["latency_samples"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tables", "0"], "--tables: 1 to 1000"),
        (["--tables", "1001"], "--tables: 1 to 1000"),
        (["--seconds", "0"], "--seconds: more than 0, up to 600"),
        (["--seconds", "601"], "--seconds: more than 0, up to 600"),
        (["--processes", "0"], "--processes: 1 to 16"),
        (["--think", "-1"], "--think: 0 to 60 seconds"),
        (["--think", "61"], "--think: 0 to 60 seconds"),
        (["--processes", "17", "--redis", "redis://127.0.0.1:6379/0"], "--processes: 1 to 16"),
        (
            ["--processes", "2"],
            "--processes 2 needs --redis URL: several server processes share their "
            "live tables through Redis",
        ),
        (
            ["--redis", "http://127.0.0.1:6379"],
            "--redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)",
        ),
    ],
)
def test_bench_server_refuses_bad_arguments_before_starting(args: list[str], message: str) -> None:
    done = _bench(*args, "--json", timeout=60)
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": "bench failed", "message": message}
    assert done.stderr == f"error: {message}\n"


def test_bench_server_options_are_listed_in_its_help() -> None:
    done = _bench("--help", timeout=60)
    assert done.returncode == 0
    for option in ("--tables", "--seconds", "--processes", "--redis", "--db", "--think", "--json"):
        assert option in done.stdout


def test_a_tables_four_players_are_spread_over_the_processes() -> None:
    assert processes_of_table(0, 1) == [0, 0, 0, 0]
    assert processes_of_table(0, 2) == [0, 1, 0, 1]
    assert processes_of_table(1, 2) == [1, 0, 1, 0]
    assert processes_of_table(0, 4) == [0, 1, 2, 3]
    assert processes_of_table(5, 4) == [1, 2, 3, 0]
    assert processes_of_table(2, 3) == [2, 0, 1, 2]


def test_report_figures() -> None:
    result = BenchResult(tables=3, processes=2, tables_held=3, seconds=4.0, messages=10, actions=6)
    result.latencies_ms = [float(x) for x in range(100, 0, -1)]  # 100 ms down to 1 ms
    result.error("illegal")
    result.error("closed_1011")
    result.error("illegal")
    report = result.report()
    assert report == {
        "tables": 3,
        "processes": 2,
        "tables_held": 3,
        "clients": 12,
        "seconds": 4.0,
        "messages": 10,
        "messages_per_s": 2.5,
        "actions": 6,
        "actions_per_s": 1.5,
        "latency_samples": 100,
        "p50_ms": 51.0,
        "p99_ms": 100.0,
        "mean_ms": 50.5,
        "errors": 3,
        "error_codes": {"closed_1011": 1, "illegal": 2},
    }
    empty = BenchResult(tables=1, processes=1).report()
    assert empty["p50_ms"] is None and empty["p99_ms"] is None and empty["mean_ms"] is None
    assert empty["messages_per_s"] == 0.0


def test_a_refused_redis_flag_is_named(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    log.write_text(
        "Usage: python -m rebelote serve [OPTIONS]\n"
        "╭─ Error ─────────────╮\n"
        "│ No such option: --redis          │\n"
        "╰─────────────────────╯\n"
    )
    assert str(_refused(log, 2, 8001, "redis://127.0.0.1:6379/0")) == (
        "rebelote serve refused the bench's flags (No such option: --redis); this server "
        "runs one process on its own database, without Redis: --redis (and --processes "
        "above 1) need a server that serves with --redis"
    )
    log.write_text("Traceback (most recent call last):\nOSError: [Errno 98] in use\n")
    assert str(_refused(log, 1, 8001, None)) == (
        "the server on port 8001 stopped before answering (exit status 1): "
        "Traceback (most recent call last): | OSError: [Errno 98] in use"
    )


def test_every_seat_asks_for_the_rematch_once() -> None:
    """A rematch needs every human's word: each seat whose turn offers it
    sends ``rematch``, once per match (the turns sent while the others
    agree offer it again), so that the tables play on past their first
    match."""
    bench = _Bench(["http://127.0.0.1:1"], [0], tables=1, seconds=1.0, seed=1, say=print)
    table = _Table("t", httpx.AsyncClient(), "csrf")
    seats = [_Seat(table, letter, "token", "http://127.0.0.1:1") for letter in "NWSE"]

    def turn(seat: str, legal: list[str], match: int = 1) -> str:
        d = {
            "seat": None,
            "phase": "done",
            "waiting": "rematch",
            "legal": legal,
            "belote_choice": [],
            "auto": False,
            "agreed": [],
            "deadline": None,
            "match": match,
            "deal": 12,
            "kind": "turn",
        }
        return json.dumps({"t": "event", "d": d, "v": 1})

    rematch = (json.dumps({"t": "act", "d": {"action": "rematch"}}), None)
    assert [bench.on_message(s, turn(s.seat, ["rematch"])) for s in seats] == [rematch] * 4
    assert [bench.on_message(s, turn(s.seat, ["rematch"])) for s in seats] == [None] * 4
    assert bench.on_message(seats[0], turn("N", [])) is None  # it agreed already
    assert bench.on_message(seats[0], turn("N", ["rematch"], match=2)) == rematch
    assert bench.result.errors == {}
