"""``rebelote bench server``: a short run against ``rebelote serve`` on
loopback holds every table and measures the figures it reports."""

from __future__ import annotations

from rebelote.server.loadbench import run_bench


def test_bench_server_holds_tables_and_measures() -> None:
    report = run_bench(tables=3, seconds=1.5, seed=2)
    assert report["tables"] == 3 and report["tables_held"] == 3
    assert report["errors"] == 0
    assert report["messages_per_second"] > 0 and report["actions"] > 0
    assert report["latency_samples"] > 0
    assert 0 < report["latency_p50_ms"] <= report["latency_p99_ms"]
