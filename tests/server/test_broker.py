"""The broker's contract, one process: the same tests run against the
in-process broker and the Redis one (real Redis; see :mod:`.brokers`).
The tests with several processes are in ``test_broker_redis.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from rebelote.seats import Seat
from rebelote.server.broker import (
    BrokerError,
    CommandError,
    Lease,
    LeaseLost,
    MemoryBroker,
    NoOwner,
    OwnerGone,
)
from rebelote.server.broker.hub import MemoryHub, StreamKey

from .brokers import Backend, Cluster, redis_url, until


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """Each implementation in turn."""
    if request.param == "memory":
        return Backend("memory")
    return Backend("redis", redis_url())


SCENARIO_TIMEOUT = 120.0
"""Seconds a scenario may take, its cluster's start and close included."""


def run(backend: Backend, scenario: Callable[[Cluster], Awaitable[None]]) -> None:
    """Run ``scenario`` with a fresh cluster of ``backend``."""

    async def main() -> None:
        async with backend.cluster() as cluster:
            await scenario(cluster)

    # a scenario that hangs fails with its stack instead of holding the run
    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT))


async def echo(table_id: str, op: str, args: dict[str, Any]) -> Any:
    """A driver's handler for the tests: ``echo`` answers what it got,
    ``refuse`` refuses with the code and message given, ``crash`` fails."""
    if op == "refuse":
        raise CommandError(args["code"], args["message"], args.get("extra"))
    if op == "crash":
        raise ValueError("a bug")
    return {"table": table_id, "op": op, "args": args}


def test_publish_delivers_each_stream_in_order(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        south: list[tuple[int, str]] = []
        watchers: list[tuple[int, str]] = []
        south_direct: list[tuple[str | None, str]] = []
        watchers_direct: list[tuple[str | None, str]] = []
        sub = await broker.subscribe(
            "t", Seat.S, lambda v, t: south.append((v, t)), lambda s, t: south_direct.append((s, t))
        )
        await broker.subscribe(
            "t",
            None,
            lambda v, t: watchers.append((v, t)),
            lambda s, t: watchers_direct.append((s, t)),
        )
        await broker.publish(
            "t", [(Seat.S, 1, "s1"), (Seat.N, 1, "n1"), (None, 1, "x1"), (Seat.S, 2, "s2")]
        )
        await broker.publish("other", [(Seat.S, 1, "elsewhere")])
        await broker.broadcast("t", '{"t":"chat"}', "N")
        await broker.broadcast("t", '{"t":"room"}')
        assert south == [(1, "s1"), (2, "s2")]
        assert watchers == [(1, "x1")]
        assert south_direct == [("N", '{"t":"chat"}'), (None, '{"t":"room"}')]
        assert watchers_direct == south_direct
        assert (broker.listeners("t", Seat.S), broker.listeners("t", Seat.N)) == (1, 0)
        # a version already published is skipped
        await broker.publish("t", [(Seat.S, 2, "again"), (Seat.S, 3, "s3")])
        assert south == [(1, "s1"), (2, "s2"), (3, "s3")]
        assert await broker.since("t", Seat.S, 1) == [(2, "s2"), (3, "s3")]
        broker.unsubscribe(sub)
        broker.unsubscribe(sub)  # twice: nothing
        await broker.publish("t", [(Seat.S, 4, "s4")])
        await broker.broadcast("t", "late")
        assert south == [(1, "s1"), (2, "s2"), (3, "s3")]
        assert south_direct == [("N", '{"t":"chat"}'), (None, '{"t":"room"}')]
        assert watchers_direct[-1] == (None, "late")
        assert broker.listeners("t", Seat.S) == 0

    run(backend, scenario)


def test_since_answers_the_missed_messages_or_none(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        await broker.publish("t", [(Seat.S, v, f"m{v}") for v in range(1, 6)])
        await broker.publish("t", [(None, 1, "watch")])
        assert await broker.since("t", Seat.S, 0) == [(v, f"m{v}") for v in range(1, 6)]
        assert await broker.since("t", Seat.S, 3) == [(4, "m4"), (5, "m5")]
        assert await broker.since("t", Seat.S, 5) == []
        assert await broker.since("t", Seat.S, 6) is None  # ahead of the stream
        assert await broker.since("t", None, 0) == [(1, "watch")]
        assert await broker.since("t", Seat.N, 0) == []  # nothing published
        assert await broker.since("t", Seat.N, 1) is None
        assert await broker.since("nowhere", Seat.S, 0) == []
        # the last version kept of each stream (a rebuilt table's driver
        # publishes only what came after)
        assert await broker.last_versions("t") == {Seat.S: 5, None: 1}
        assert await broker.last_versions("nowhere") == {}
        await broker.forget("t")
        assert await broker.last_versions("t") == {}
        assert await broker.since("t", Seat.S, 0) == []
        assert await broker.since("t", Seat.S, 3) is None
        assert await broker.since("t", None, 1) is None
        # a forgotten table starts again from version 1
        await broker.publish("t", [(Seat.S, 1, "again")])
        assert await broker.since("t", Seat.S, 0) == [(1, "again")]

    run(backend, scenario)


def test_since_answers_none_once_the_messages_are_trimmed(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        # Redis trims whole nodes of 100 entries (MAXLEN ~): 300 messages
        # are enough to lose the first ones
        broker = await cluster.broker(buffer_size=10, stream_max=10)
        for start in range(1, 301, 50):
            await broker.publish("t", [(Seat.E, v, f"m{v}") for v in range(start, start + 50)])
        assert await broker.since("t", Seat.E, 0) is None
        assert await broker.since("t", Seat.E, 290) == [(v, f"m{v}") for v in range(291, 301)]
        assert await broker.since("t", Seat.E, 300) == []

    run(backend, scenario)


def test_leases_fences_and_the_live_tables(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        me = broker.process_id
        assert await broker.owner_of("t") is None
        assert broker.held("t") is None
        lease = await broker.acquire("t")
        assert lease == Lease("t", me, 1)
        assert await broker.acquire("t") == lease  # held already: the same
        assert broker.held("t") == lease
        assert await broker.owner_of("t") == me
        assert await broker.renew(lease) is True
        await broker.release(lease)
        assert await broker.owner_of("t") is None
        assert broker.held("t") is None
        assert await broker.renew(lease) is False
        again = await broker.acquire("t")
        assert again == Lease("t", me, 2)
        # a publish under the earlier lease is refused; the later one stays
        with pytest.raises(LeaseLost):
            await broker.publish("t", [(Seat.S, 1, "stale")], lease=lease)
        assert broker.held("t") == again
        assert await broker.since("t", Seat.S, 0) == []
        # the live tables, and those nobody drives
        await broker.add_live("t")
        await broker.add_live("u")
        await broker.add_live("v")
        assert await broker.live() == {"t", "u", "v"}
        assert await broker.orphans() == ["u", "v"]
        await broker.remove_live("v")
        await broker.remove_live("v")
        assert await broker.live() == {"t", "u"}
        assert await broker.orphans() == ["u"]
        assert again is not None
        await broker.release(again)
        assert await broker.orphans() == ["t", "u"]

    run(backend, scenario)


def test_call_runs_the_drivers_handler(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        with pytest.raises(NoOwner) as no_owner:
            await broker.call("t", "echo", {})
        assert no_owner.value.table_id == "t"
        await broker.acquire("t")
        with pytest.raises(OwnerGone) as gone:
            await broker.call("t", "echo", {})
        assert (gone.value.owner, gone.value.reason) == (broker.process_id, "it serves no commands")
        broker.serve(echo)
        args = {"action": "KH", "id": "a1", "n": [1, 2]}
        assert await broker.call("t", "act", args) == {"table": "t", "op": "act", "args": args}
        with pytest.raises(CommandError) as refused:
            await broker.call("t", "refuse", {"code": "not_your_turn", "message": "wait"})
        assert (refused.value.code, refused.value.message) == ("not_your_turn", "wait")
        assert refused.value.extra == {}
        with pytest.raises(CommandError) as detailed:
            extra = {"legal": ["AS", "7H"]}
            await broker.call("t", "refuse", {"code": "illegal", "message": "no", "extra": extra})
        assert (detailed.value.code, detailed.value.extra) == ("illegal", {"legal": ["AS", "7H"]})
        with pytest.raises(CommandError) as crashed:
            await broker.call("t", "crash", {})
        assert crashed.value.code == "internal"
        assert crashed.value.message == "the table's driver failed to run crash"
        with pytest.raises(NoOwner):
            await broker.call("u", "echo", {})
        assert isinstance(refused.value, BrokerError)

    run(backend, scenario)


def test_presence_counts_and_tells_the_driver(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        changes: list[tuple[str, dict[StreamKey, int]]] = []
        broker.watch_presence(lambda table_id, counts: changes.append((table_id, counts)))
        await broker.enter("u", Seat.S, "c0")  # no driver: nobody told
        await broker.acquire("t")
        assert await broker.presence("t") == {}
        await broker.enter("t", Seat.S, "c1")
        await broker.enter("t", Seat.S, "c2")
        await broker.enter("t", None, "c3")
        await broker.enter("t", Seat.S, "c2")  # the same again: no change
        assert await broker.presence("t") == {Seat.S: 2, None: 1}
        await broker.leave("t", Seat.S, "c1")
        await broker.leave("t", Seat.S, "c1")  # twice: no change
        assert await broker.presence("t") == {Seat.S: 1, None: 1}
        assert await broker.presence("u") == {Seat.S: 1}
        expected = [
            ("t", {Seat.S: 1}),
            ("t", {Seat.S: 2}),
            ("t", {Seat.S: 2, None: 1}),
            ("t", {Seat.S: 1, None: 1}),
        ]
        await until(lambda: len(changes) >= 4, "four presence changes told")
        await asyncio.sleep(0.1)  # nothing more comes
        assert changes == expected

    run(backend, scenario)


def test_lobby_lists_and_tells_its_changes(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        broker = await cluster.broker()
        seen: list[tuple[str, str | None]] = []
        listener = await broker.subscribe_lobby(lambda t, room: seen.append((t, room)))
        assert await broker.lobby() == {}
        await broker.lobby_put("a", '{"id":"a","n":1}')
        await broker.lobby_put("b", '{"id":"b"}')
        await broker.lobby_put("a", '{"id":"a","n":1}')  # unchanged: not told
        await broker.lobby_put("a", '{"id":"a","n":2}')
        assert await broker.lobby() == {"a": '{"id":"a","n":2}', "b": '{"id":"b"}'}
        await broker.lobby_remove("b")
        await broker.lobby_remove("b")  # not listed: not told
        assert await broker.lobby() == {"a": '{"id":"a","n":2}'}
        assert seen == [
            ("a", '{"id":"a","n":1}'),
            ("b", '{"id":"b"}'),
            ("a", '{"id":"a","n":2}'),
            ("b", None),
        ]
        broker.unsubscribe_lobby(listener)
        await broker.lobby_remove("a")
        assert len(seen) == 4
        assert await broker.lobby() == {}

    run(backend, scenario)


def test_memory_broker_publishes_through_the_given_hub() -> None:
    async def scenario() -> None:
        hub = MemoryHub(buffer_size=8)
        broker = MemoryBroker(hub, process_id="solo")
        got: list[tuple[int, str]] = []
        hub.subscribe("t", Seat.W, lambda v, t: got.append((v, t)))
        await broker.publish("t", [(Seat.W, 1, "w1"), (Seat.W, 2, "w2")])
        assert got == [(1, "w1"), (2, "w2")]
        assert hub.since("t", Seat.W, 0) == [(1, "w1"), (2, "w2")]
        assert hub.last("t", Seat.W) == 2
        assert broker.process_id == "solo"
        lease = await broker.acquire("t")
        await broker.release(lease)
        with pytest.raises(BrokerError):
            await broker.publish("t", [(Seat.W, 3, "w3")], lease=lease)
        assert got == [(1, "w1"), (2, "w2")]

    asyncio.run(scenario())


def test_a_driver_that_does_not_answer_is_logged_once_every_few_seconds(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A relay tries a dead driver's table again every 0.1 s: it logs the
    driver's silence once per table (``GONE_LOG_SECONDS``), not at each
    try; a call left without reply for its whole timeout is a warning."""
    import logging

    from rebelote.server.broker import OwnerGone
    from rebelote.server.storage.tables import Store
    from rebelote.server.tables.registry import TableManager

    store = Store("sqlite://")
    store.migrate()
    manager = TableManager(store, MemoryHub())
    gone = OwnerGone("t1", "host:1:ab", "no process listens on its channel")
    with caplog.at_level(logging.INFO, logger="rebelote.server.tables.registry"):
        for _ in range(25):
            manager._log_gone("t1", gone)
        manager._log_gone("t2", OwnerGone("t2", "host:1:ab", "no process listens on its channel"))
        manager._log_gone("t1", OwnerGone("t1", "host:1:ab", "no reply within 5.0 s"))
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "INFO",
            "table t1: the driver host:1:ab of table t1 did not answer: "
            "no process listens on its channel (retrying)",
        ),
        (
            "INFO",
            "table t2: the driver host:1:ab of table t2 did not answer: "
            "no process listens on its channel (retrying)",
        ),
        (
            "WARNING",
            "table t1: the driver host:1:ab of table t1 did not answer: no reply within 5.0 s",
        ),
    ]
    store.close()


def test_a_join_or_start_sent_again_after_a_lost_answer_stands() -> None:
    """A relay sends ``join`` or ``start`` again when the driver did not
    answer (the first may have been applied): marked ``retried``, a join
    that stands answers a fresh token for the seat and a start that stands
    answers as the first would have; not marked, they are refused as a
    second request (``already_seated``, ``not_open``)."""
    from rebelote.server.protocol.messages import ProtocolError, TableOptions
    from rebelote.server.storage.tables import Store
    from rebelote.server.tables.commands import run_command
    from rebelote.server.tables.registry import TableManager

    async def run() -> list[Any]:
        store = Store("sqlite://")
        store.migrate()
        manager = TableManager(store, MemoryHub(), bot_delay=0, seed=1)
        room, _ = await manager.open_table(
            name="t",
            preset="ffb",
            target=None,
            visibility="private",
            ranked=False,
            seat="S",
            options=TableOptions(),
            user_id=1,
            user_name="Host",
        )
        seen: list[Any] = []
        join = {"seat": "N", "user_id": 2, "name": "Two", "guest": True}
        first = (await run_command(room, "join", join))["result"]
        with pytest.raises(ProtocolError) as again:
            await run_command(room, "join", join)
        seen.append(again.value.code)
        second = (await run_command(room, "join", {**join, "retried": True}))["result"]
        seen.append((isinstance(second, str), second != first))
        with pytest.raises(ProtocolError) as elsewhere:  # a seat it does not hold
            await run_command(room, "join", {**join, "seat": "W", "retried": True})
        seen.append(elsewhere.value.code)
        for seat, user in (("W", 3), ("E", 4)):
            await run_command(room, "join", {**join, "seat": seat, "user_id": user})
        with pytest.raises(ProtocolError) as not_host:
            await run_command(room, "start", {"by": "N", "retried": True})
        seen.append(not_host.value.code)
        await run_command(room, "start", {"by": "S"})
        with pytest.raises(ProtocolError) as started:
            await run_command(room, "start", {"by": "S"})
        seen.append(started.value.code)
        seen.append((await run_command(room, "start", {"by": "S", "retried": True}))["result"])
        seen.append(room.seat_of_user(2))
        await manager.close()
        store.close()
        return seen

    assert asyncio.run(run()) == [
        "already_seated",
        (True, True),
        "already_seated",
        "not_host",
        "not_open",
        None,
        Seat.N,
    ]


def test_a_command_sent_again_after_the_driver_was_silent_is_marked_retried() -> None:
    """``TableManager.command``: after ``OwnerGone`` (no answer: the command
    may have run) the next try carries ``"retried": true``; the first does
    not."""
    from rebelote.server.broker import OwnerGone
    from rebelote.server.storage.tables import Store
    from rebelote.server.tables.registry import TableManager

    async def run() -> list[dict[str, Any]]:
        store = Store("sqlite://")
        store.migrate()
        manager = TableManager(store, MemoryHub())
        sent: list[dict[str, Any]] = []

        async def call(table_id: str, op: str, args: dict[str, Any], timeout: float = 2.0) -> Any:
            sent.append(args)
            if len(sent) == 1:
                raise OwnerGone(table_id, "host:1:ab", "no reply within 5.0 s")
            return "ok"

        manager.broker.call = call  # type: ignore[method-assign]
        manager.driven = lambda table_id: None  # type: ignore[method-assign]
        assert await manager.command("t", "start", {"by": "S"}) == "ok"
        await manager.close()
        store.close()
        return sent

    assert asyncio.run(run()) == [{"by": "S"}, {"by": "S", "retried": True}]
