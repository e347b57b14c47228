"""The Redis + PostgreSQL steps of issue 14's 2026-12-07 work, each alone
(``benchmarks/SERVER.md``).  Run it with each worktree's interpreter, old
then new, on the same machine::

    .venv/bin/python benchmarks/redis_pg_steps.py publish LABEL [REDIS_URL]
    .venv/bin/python benchmarks/redis_pg_steps.py call LABEL [REDIS_URL]
    .venv/bin/python benchmarks/redis_pg_steps.py pgwrite LABEL POSTGRESQL_URL

- ``publish``: one process publishes the five streams' messages of 50
  tables, all 50 at once per round (one busy driver's turn of the loop),
  200 rounds; per message: wall, this process's CPU, Redis's CPU (``INFO
  cpu``);
- ``call``: broker B relays commands to A, the driver of 50 tables, 50 at
  once, 40 rounds; per command: wall, CPU of both brokers (one process);
- ``pgwrite`` (the new code only: it sets ``Store._autocommit`` aside for
  the old statements): ``Store.append_many`` of 10 tables x 2 entries, 6 x
  100 batches alternating; medians per batch.  ``POSTGRESQL_URL``: an empty
  database (``postgresql+psycopg://...``).

Every key it makes starts with a random prefix and is deleted at the end.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from typing import Any

import redis

from rebelote.seats import Seat
from rebelote.server.broker import RedisBroker

TEXT = json.dumps(
    {"t": "event", "d": {"kind": "card", "seat": "S", "card": "KH", "match": 1, "deal": 2}}
)


def _redis_cpu(url: str) -> float:
    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def _forget(url: str, prefix: str) -> None:
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)


async def publish(label: str, url: str) -> None:
    prefix = f"steps{secrets.token_hex(3)}:"
    broker = RedisBroker(url, prefix=prefix)
    await broker.start()
    seats = [Seat.N, Seat.W, Seat.S, Seat.E, None]
    rounds, tables = 200, 50
    r0, c0, w0 = _redis_cpu(url), time.process_time(), time.perf_counter()
    for v in range(1, rounds + 1):
        await asyncio.gather(
            *(broker.publish(f"t{i}", [(s, v, TEXT) for s in seats]) for i in range(tables))
        )
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    redis_cpu = _redis_cpu(url) - r0
    n = rounds * tables * len(seats)
    print(
        f"{label}: {n} messages; per message: wall {wall / n * 1e6:.1f} us, "
        f"process CPU {cpu / n * 1e6:.1f} us, Redis CPU {redis_cpu / n * 1e6:.1f} us"
    )
    await broker.close()
    _forget(url, prefix)


async def _answer(table_id: str, op: str, args: dict[str, Any]) -> Any:
    return {"ok": 1}


async def call(label: str, url: str) -> None:
    prefix = f"steps{secrets.token_hex(3)}:"
    a, b = RedisBroker(url, prefix=prefix), RedisBroker(url, prefix=prefix)
    await a.start()
    await b.start()
    a.serve(_answer)
    tables = [f"t{i}" for i in range(50)]
    for t in tables:
        await a.acquire(t)
    await asyncio.gather(*(b.call(t, "echo", {}) for t in tables))
    rounds = 40
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        await asyncio.gather(*(b.call(t, "act", {"action": "KH"}) for t in tables))
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    n = rounds * len(tables)
    print(
        f"{label}: {n} commands; per command: wall {wall / n * 1e6:.0f} us, "
        f"CPU of both brokers {cpu / n * 1e6:.0f} us"
    )
    await a.close()
    await b.close()
    _forget(url, prefix)


def pgwrite(label: str, url: str) -> None:
    from rebelote.server.storage.log_entries import LogWrite, StoredEvent
    from rebelote.server.storage.tables import Store

    store = Store(url)
    store.migrate()
    tables = [f"pw{i}" for i in range(10)]
    for t in tables:
        store.create_table(
            table_id=t, rules={}, options={}, seed=1, seats=[], events=[], status="playing"
        )
    seq = dict.fromkeys(tables, 0)

    def batch() -> list[LogWrite]:
        writes = []
        for t in tables:
            events = []
            for _ in range(2):
                events.append(StoredEvent(seq[t], 0, "act", "S", {"action": "KH", "id": "x"}))
                seq[t] += 1
            writes.append(LogWrite(t, tuple(events), "playing"))
        return writes

    fast = store._autocommit
    times: dict[str, list[tuple[float, float]]] = {"one transaction": [], "one statement": []}
    for _ in range(6):
        for name in times:
            store._autocommit = fast if name == "one statement" else None
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(100):
                store.append_many(batch())
            times[name].append(((time.perf_counter() - w0) * 10, (time.process_time() - c0) * 10))
    for name, pairs in times.items():
        wall = sorted(w for w, _ in pairs)[len(pairs) // 2]
        cpu = sorted(c for _, c in pairs)[len(pairs) // 2]
        print(f"{label} {name}: per batch, median: wall {wall:.2f} ms, client CPU {cpu:.2f} ms")
    store.close()


def main() -> None:
    what, label = sys.argv[1], sys.argv[2]
    url = sys.argv[3] if len(sys.argv) > 3 else "redis://127.0.0.1:6379/6"
    if what == "publish":
        asyncio.run(publish(label, url))
    elif what == "call":
        asyncio.run(call(label, url))
    elif what == "pgwrite":
        pgwrite(label, url)
    else:
        raise SystemExit(f"unknown step {what!r}: publish, call or pgwrite")


if __name__ == "__main__":
    main()
