"""The Redis broker with several processes: two brokers ("processes")
share one real Redis in each test (see :mod:`.brokers`); a process dies
by :meth:`RedisBroker.abandon` (its tasks stop, nothing is released), and
Redis restarts on a server of the test's own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from rebelote.seats import Seat
from rebelote.server.broker import (
    BrokerUnavailable,
    CommandError,
    Lease,
    LeaseLost,
    NoOwner,
    OwnerGone,
    RedisBroker,
)
from rebelote.server.broker.hub import StreamKey
from rebelote.server.broker.redis import LOOP_STALL_TTLS

from .brokers import Backend, Cluster, OwnRedis, free_port, redis_url, until

SCENARIO_TIMEOUT = 120.0
"""Seconds a scenario may take, its cluster's start and close included."""


@pytest.fixture
def backend() -> Backend:
    """The shared Redis."""
    return Backend("redis", redis_url())


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    """A ``redis-server`` of the test's own (killed at the end)."""
    server = OwnRedis(free_port())
    server.start()
    try:
        yield server
    finally:
        server.kill()


def run(backend: Backend, scenario: Callable[[Cluster], Awaitable[None]]) -> None:
    async def main() -> None:
        async with backend.cluster() as cluster:
            await scenario(cluster)

    # a scenario that hangs fails with its stack instead of holding the run
    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT))


async def redis_broker(cluster: Cluster, **options: Any) -> RedisBroker:
    broker = await cluster.broker(**options)
    assert isinstance(broker, RedisBroker)
    return broker


async def answer(table_id: str, op: str, args: dict[str, Any]) -> Any:
    """The driver's handler: ``echo``, ``refuse`` (with the code and
    message given), ``crash``, ``hang`` (never answers in time)."""
    if op == "refuse":
        raise CommandError(args["code"], args["message"], args.get("extra"))
    if op == "crash":
        raise ValueError("a bug")
    if op == "hang":
        await asyncio.sleep(30)
    return {"table": table_id, "op": op, "args": args}


def test_messages_of_one_process_reach_the_listeners_of_another(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        assert a.process_id != b.process_id
        south: list[tuple[int, str]] = []
        watchers: list[tuple[int, str]] = []
        direct: list[tuple[str | None, str]] = []
        await b.subscribe(
            "t", Seat.S, lambda v, t: south.append((v, t)), lambda s, t: direct.append((s, t))
        )
        await b.subscribe("t", None, lambda v, t: watchers.append((v, t)))
        texts = [f'{{"t":"event","v":{v},"d":"a|b|c\\n"}}' for v in range(1, 41)]
        for v in range(1, 41, 4):  # batches of four, each seat's versions in order
            await a.publish(
                "t",
                [(Seat.S, v + i, texts[v + i - 1]) for i in range(4)]
                + [(Seat.N, v, "north"), (None, (v + 3) // 4, f"w{v}")],
            )
        await a.broadcast("t", '{"t":"chat","d":"x|y"}', "E")
        await until(lambda: len(direct) == 1, "the chat line reaches B")
        assert south == [(v, texts[v - 1]) for v in range(1, 41)]
        assert watchers == [((v + 3) // 4, f"w{v}") for v in range(1, 41, 4)]
        assert direct == [("E", '{"t":"chat","d":"x|y"}')]
        # B reads A's recent past
        assert await b.since("t", Seat.S, 37) == [(v, texts[v - 1]) for v in range(38, 41)]
        assert await b.since("t", None, 10) == []
        assert await b.since("t", Seat.N, 99) is None

    run(backend, scenario)


def test_a_gap_is_filled_from_the_stream_or_resynced(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        got: list[tuple[int, str]] = []
        resyncs: list[int] = []
        await b.subscribe(
            "t", Seat.W, lambda v, t: got.append((v, t)), resync=lambda: resyncs.append(len(got))
        )
        await a.publish("t", [(Seat.W, 1, "one")])
        await until(lambda: len(got) == 1, "B gets version 1")
        raw = cluster.raw()
        try:  # version 2 is kept but never reached B (a lost pub/sub message)
            await raw.xadd(f"{cluster.prefix}s:t:W", {"t": "two"}, id="2-0")
        finally:
            await raw.aclose()
        await a.publish("t", [(Seat.W, 3, "three")])
        await until(lambda: len(got) == 3, "B gets versions 2 and 3")
        assert got == [(1, "one"), (2, "two"), (3, "three")]
        assert resyncs == []
        # versions 4 and 5 were never kept: B is told to resync, then gets 6
        await a.publish("t", [(Seat.W, 6, "six")])
        await until(lambda: len(got) == 4, "B gets version 6")
        assert got[-1] == (6, "six")
        assert resyncs == [3]

    run(backend, scenario)


def test_a_lease_is_refused_to_others_until_released(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        lease_a = await a.acquire("t")
        assert lease_a == Lease("t", a.process_id, 1)
        assert await b.acquire("t") is None
        assert await b.owner_of("t") == a.process_id
        assert b.held("t") is None
        fake = Lease("t", b.process_id, 1)
        assert await b.renew(fake) is False  # not B's
        await b.release(fake)  # not B's: nothing happens
        assert await b.owner_of("t") == a.process_id
        await a.release(lease_a)
        lease_b = await b.acquire("t")
        assert lease_b == Lease("t", b.process_id, 2)
        assert await a.acquire("t") is None
        assert await a.owner_of("t") == b.process_id
        # a publish under a lease no longer held sends nothing
        with pytest.raises(LeaseLost):
            await a.publish("t", [(Seat.S, 1, "stale")], lease=lease_a)
        assert await b.since("t", Seat.S, 0) == []
        await b.publish("t", [(Seat.S, 1, "fresh")], lease=lease_b)
        assert await a.since("t", Seat.S, 0) == [(1, "fresh")]

    run(backend, scenario)


def test_a_dead_drivers_lease_is_taken_over(backend: Backend) -> None:
    ttl = 0.5

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster, lease_ttl=ttl)
        b = await redis_broker(cluster, lease_ttl=ttl)
        lost: list[str] = []
        a.watch_leases(lost.append)
        lease_a = await a.acquire("t")
        assert lease_a is not None
        await asyncio.sleep(4 * ttl)  # the heartbeat keeps it
        assert await b.acquire("t") is None
        assert lost == []
        assert a.held("t") == lease_a
        await a.abandon()  # A dies: no renewal, no release
        died = time.monotonic()
        lease_b = None
        while lease_b is None:
            assert time.monotonic() - died < ttl + 1, "B did not take the lease in ttl + 1 s"
            await asyncio.sleep(0.05)
            lease_b = await b.acquire("t")
        assert lease_b == Lease("t", b.process_id, lease_a.fence + 1)
        # A, not renewed for a whole ttl, no longer trusts its lease (as a
        # process waking up from a long pause)
        assert a.held("t") is None
        # A wakes up: its renewal fails and it is told
        assert await a.renew(lease_a) is False
        assert lost == ["t"]
        assert a.held("t") is None
        assert await a.renew(lease_a) is False
        assert lost == ["t"]  # told once
        await asyncio.sleep(2 * ttl)  # B's heartbeat keeps it
        assert await a.owner_of("t") == b.process_id

    run(backend, scenario)


def test_a_busy_event_loop_keeps_its_leases_a_stuck_one_loses_them(backend: Backend) -> None:
    """The heartbeat runs in a thread: an event loop that does not turn for
    3 ttl (a process busy with hundreds of tables) keeps its lease; one that
    does not turn for LOOP_STALL_TTLS ttl (stuck) gets no renewal, its lease
    expires and another process takes it; when the loop turns again, the
    lease is dropped and the table's driver told."""
    ttl = 0.5

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster, lease_ttl=ttl)
        b = await redis_broker(cluster, lease_ttl=ttl)
        lost: list[str] = []
        a.watch_leases(lost.append)
        lease = await a.acquire("t")
        assert lease is not None
        time.sleep(3 * ttl)  # the event loop does not turn (busy)
        assert a.held("t") == lease
        assert await b.acquire("t") is None
        assert lost == []
        time.sleep((LOOP_STALL_TTLS + 2) * ttl)  # the event loop is stuck
        assert await b.acquire("t") == Lease("t", b.process_id, lease.fence + 1)
        await until(lambda: lost == ["t"], "the stuck process drops the lease")
        assert a.held("t") is None
        await asyncio.sleep(2 * ttl)  # nobody takes it back from B
        assert await a.owner_of("t") == b.process_id

    run(backend, scenario)


def test_the_heartbeat_tells_of_a_lease_taken_by_another(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster, lease_ttl=0.6)
        lost: list[str] = []
        a.watch_leases(lost.append)
        lease = await a.acquire("t")
        raw = cluster.raw()
        try:
            await raw.set(f"{cluster.prefix}lease:t", "another:7", px=5000)
        finally:
            await raw.aclose()
        await until(lambda: lost == ["t"], "the heartbeat finds the lease lost")
        assert a.held("t") is None
        assert await a.owner_of("t") == "another"
        with pytest.raises(LeaseLost):
            await a.publish("t", [(Seat.S, 1, "stale")], lease=lease)

    run(backend, scenario)


def test_commands_reach_the_driver_in_another_process(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        a.serve(answer)
        b.serve(answer)
        with pytest.raises(NoOwner):
            await b.call("t", "echo", {})
        await a.acquire("t")
        args = {"action": "KH", "id": "a-1", "belote": False, "n": [1, 2.5, None]}
        assert await b.call("t", "act", args) == {"table": "t", "op": "act", "args": args}
        with pytest.raises(CommandError) as refused:
            await b.call("t", "refuse", {"code": "not_your_turn", "message": "it is W's turn"})
        assert (refused.value.code, refused.value.message) == ("not_your_turn", "it is W's turn")
        assert refused.value.extra == {}
        with pytest.raises(CommandError) as detailed:
            extra = {"legal": ["AS", "7H"]}
            await b.call("t", "refuse", {"code": "illegal", "message": "no", "extra": extra})
        assert (detailed.value.code, detailed.value.message) == ("illegal", "no")
        assert detailed.value.extra == {"legal": ["AS", "7H"]}
        with pytest.raises(CommandError) as crashed:
            await b.call("t", "crash", {})
        assert (crashed.value.code, crashed.value.message) == (
            "internal",
            "the table's driver failed to run crash",
        )
        with pytest.raises(OwnerGone) as slow:
            await b.call("t", "hang", {}, timeout=0.3)
        assert (slow.value.owner, slow.value.reason) == (a.process_id, "no reply within 0.3 s")
        # a lease naming A for a table A does not drive
        raw = cluster.raw()
        try:
            await raw.set(f"{cluster.prefix}lease:u", f"{a.process_id}:9", px=5000)
        finally:
            await raw.aclose()
        with pytest.raises(OwnerGone) as stale:
            await b.call("u", "echo", {})
        assert stale.value.reason == "it no longer drives the table"
        # A dies: B's call fails at once (nobody listens), then B takes over
        await a.abandon()
        with pytest.raises(OwnerGone) as dead:
            await b.call("t", "echo", {}, timeout=5)
        assert (dead.value.owner, dead.value.reason) == (
            a.process_id,
            "no process listens on its channel",
        )

    run(backend, scenario)


def test_presence_of_a_dead_process_expires(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster, presence_ttl=0.6)
        b = await redis_broker(cluster, presence_ttl=0.6)
        changes: list[dict[StreamKey, int]] = []
        a.watch_presence(lambda table_id, counts: changes.append(counts))
        await a.acquire("t")
        await b.enter("t", Seat.N, "b1")
        await a.enter("t", Seat.N, "a1")
        await until(lambda: len(changes) == 2, "A is told of both connections")
        assert changes == [{Seat.N: 1}, {Seat.N: 2}]
        await asyncio.sleep(1.2)  # twice the time to live: both refreshed
        assert await b.presence("t") == {Seat.N: 2}
        assert len(changes) == 2
        await b.abandon()  # B dies: its connection expires
        await until(lambda: len(changes) == 3, "A is told B's connection expired")
        assert changes[2] == {Seat.N: 1}
        assert await a.presence("t") == {Seat.N: 1}
        await a.leave("t", Seat.N, "a1")
        await until(lambda: len(changes) == 4, "A is told its connection left")
        assert changes[3] == {}

    run(backend, scenario)


def test_lobby_changes_reach_every_process(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        seen: list[tuple[str, str | None]] = []
        await b.subscribe_lobby(lambda t, room: seen.append((t, room)))
        await a.lobby_put("x", '{"id":"x","seats":["a|b"]}')
        await a.lobby_put("y", '{"id":"y"}')
        await a.lobby_remove("x")
        await until(lambda: len(seen) == 3, "B is told of three changes")
        assert seen == [("x", '{"id":"x","seats":["a|b"]}'), ("y", '{"id":"y"}'), ("x", None)]
        assert await b.lobby() == {"y": '{"id":"y"}'}

    run(backend, scenario)


def test_close_releases_leases_and_presence(backend: Backend) -> None:
    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        await a.acquire("t")
        await a.enter("t", Seat.S, "c")
        assert await b.presence("t") == {Seat.S: 1}
        await a.close()
        assert await b.owner_of("t") is None
        assert await b.presence("t") == {}
        assert await b.acquire("t") == Lease("t", b.process_id, 2)

    run(backend, scenario)


def test_redis_restarting(own_redis: OwnRedis) -> None:
    backend = Backend("redis", own_redis.url)

    async def scenario(cluster: Cluster) -> None:
        # a lease lives 5 s: it outlasts the restart
        a = await redis_broker(cluster, lease_ttl=5.0)
        b = await redis_broker(cluster, lease_ttl=5.0)
        a.serve(answer)
        lost: list[str] = []
        a.watch_leases(lost.append)
        got: list[tuple[int, str]] = []
        resyncs: list[str] = []
        await b.subscribe(
            "t", Seat.S, lambda v, t: got.append((v, t)), resync=lambda: resyncs.append("table")
        )
        await b.subscribe_lobby(lambda t, room: None, resync=lambda: resyncs.append("lobby"))
        lease = await a.acquire("t")
        assert lease is not None
        await a.publish("t", [(Seat.S, 1, "one")])
        await until(lambda: got == [(1, "one")], "B gets version 1")

        own_redis.kill()
        with pytest.raises(BrokerUnavailable):
            await a.publish("t", [(Seat.S, 2, "two")])
        with pytest.raises(BrokerUnavailable):
            await b.since("t", Seat.S, 0)
        with pytest.raises(BrokerUnavailable):
            await b.call("t", "echo", {})
        with pytest.raises(BrokerUnavailable):
            await b.lobby()

        own_redis.start()
        await until(lambda: len(resyncs) == 2, "B's listeners are told to resync")
        assert sorted(resyncs) == ["lobby", "table"]
        # A's heartbeat sets its lease again (Redis lost it)
        await until_owner(b, "t", a.process_id)
        assert a.held("t") == lease
        assert lost == []
        # version 2 never reached Redis: B is told to resync, and gets 3
        await a.publish("t", [(Seat.S, 3, "three")], lease=lease)
        await until(lambda: len(got) == 2, "B gets version 3")
        assert got == [(1, "one"), (3, "three")]
        assert resyncs[2:] == ["table"]
        assert await b.since("t", Seat.S, 0) is None
        assert await b.since("t", Seat.S, 2) == [(3, "three")]
        # commands flow again
        assert await b.call("t", "echo", {"k": 1}) == {"table": "t", "op": "echo", "args": {"k": 1}}
        # the fence counter was raised to the lease's: the next is greater
        assert lease is not None
        await a.release(lease)
        assert await b.acquire("t") == Lease("t", b.process_id, lease.fence + 1)

    async def until_owner(broker: RedisBroker, table_id: str, owner: str) -> None:
        deadline = time.monotonic() + 10
        while await broker.owner_of(table_id) != owner:
            assert time.monotonic() < deadline, "the lease never came back"
            await asyncio.sleep(0.05)

    run(backend, scenario)


def test_redis_out_of_reach(own_redis: OwnRedis) -> None:
    backend = Backend("redis", own_redis.url)

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster, lease_ttl=0.5)
        lost: list[str] = []
        a.watch_leases(lost.append)
        await a.acquire("t")
        own_redis.kill()
        with pytest.raises(BrokerUnavailable):
            await a.acquire("u")
        with pytest.raises(BrokerUnavailable):
            await a.subscribe("t", Seat.S, lambda v, t: None)
        assert a.listeners("t", Seat.S) == 0
        # not renewed for its time to live: the lease may be another's now
        await until(lambda: lost == ["t"], "the lease is given up")
        assert a.held("t") is None
        await a.close()  # does not raise
        with pytest.raises(BrokerUnavailable):
            await RedisBroker(own_redis.url, prefix=cluster.prefix, timeout=0.5).start()

    run(backend, scenario)


def test_one_turns_publishes_go_together_and_each_batch_in_one_payload(
    backend: Backend,
) -> None:
    """The publishes asked for during one turn of the event loop run in one
    pipeline; each batch's added messages go out in one payload
    (``E|{origin}`` then a line per message), a message already kept is
    left out of it, and another process delivers each message in order."""

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        got: list[tuple[str, int, str]] = []
        await b.subscribe("t", Seat.S, lambda v, text: got.append(("t", v, text)))
        await b.subscribe("u", Seat.S, lambda v, text: got.append(("u", v, text)))
        raw = cluster.raw()
        pubsub = raw.pubsub()
        await pubsub.subscribe(f"{cluster.prefix}c:t")
        pipelines: list[int] = []
        send = a._evalsha_all

        async def counted(sha: str, batch: Any) -> list[Any]:
            pipelines.append(len(batch))
            return await send(sha, batch)

        a._evalsha_all = counted  # type: ignore[method-assign]
        try:
            await asyncio.gather(
                a.publish("t", [(Seat.S, 1, '{"v":1}'), (Seat.N, 1, "n|1")]),
                a.publish("u", [(Seat.S, 1, "u1")]),
                a.publish("u", [(Seat.S, 2, "u2")]),
            )
            assert pipelines == [3]
            await a.publish("t", [(Seat.S, 1, '{"v":1}'), (Seat.S, 2, "two")])
            assert pipelines == [3, 1]
            payloads: list[str] = []
            while len(payloads) < 2:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
                if message is not None:
                    payloads.append(message["data"])
            assert payloads == [
                f'E|{a.process_id}\nS|1|{{"v":1}}\nN|1|n|1',
                f"E|{a.process_id}\nS|2|two",
            ]
            await until(lambda: len(got) == 4, "B gets every message")
            assert sorted(got) == [
                ("t", 1, '{"v":1}'),
                ("t", 2, "two"),
                ("u", 1, "u1"),
                ("u", 2, "u2"),
            ]
            with pytest.raises(ValueError):
                await a.publish("t", [(Seat.S, 3, "two\nlines")])
            assert await b.since("t", Seat.S, 2) == []
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            await raw.aclose()

    run(backend, scenario)


def test_a_script_redis_no_longer_knows_is_loaded_again(backend: Backend) -> None:
    """After ``SCRIPT FLUSH`` (as after a restart), the publishes of a turn
    are refused ``NOSCRIPT``: the script is loaded again and they are sent
    again, in order."""

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        got: list[tuple[int, str]] = []
        await b.subscribe("t", Seat.W, lambda v, t: got.append((v, t)))
        await a.publish("t", [(Seat.W, 1, "one")])
        raw = cluster.raw()
        try:
            await raw.script_flush()
        finally:
            await raw.aclose()
        await asyncio.gather(
            a.publish("t", [(Seat.W, 2, "two")]), a.publish("t", [(Seat.W, 3, "three")])
        )
        await until(lambda: len(got) == 3, "B gets versions 1 to 3")
        assert got == [(1, "one"), (2, "two"), (3, "three")]

    run(backend, scenario)


def test_a_tables_driver_is_read_once_until_a_command_to_it_fails(backend: Backend) -> None:
    """B reads the lease for its first command only; once the table moved
    (A released it, C took it), the command sent to A is answered "gone"
    (``OwnerGone``: the caller tries again) and the next one reads the
    lease again and reaches C."""

    async def scenario(cluster: Cluster) -> None:
        a = await redis_broker(cluster)
        b = await redis_broker(cluster)
        c = await redis_broker(cluster)
        for broker in (a, b, c):
            broker.serve(answer)
        reads: list[str] = []
        read = b.owner_of

        async def counted(table_id: str) -> str | None:
            reads.append(table_id)
            return await read(table_id)

        b.owner_of = counted  # type: ignore[method-assign]
        lease = await a.acquire("t")
        assert lease is not None
        for n in range(3):
            assert await b.call("t", "echo", {"n": n}) == {
                "table": "t",
                "op": "echo",
                "args": {"n": n},
            }
        assert reads == ["t"]
        await a.release(lease)
        assert await c.acquire("t") is not None
        with pytest.raises(OwnerGone) as gone:
            await b.call("t", "echo", {})
        assert (gone.value.owner, gone.value.reason) == (
            a.process_id,
            "it no longer drives the table",
        )
        assert await b.call("t", "echo", {}) == {"table": "t", "op": "echo", "args": {}}
        assert reads == ["t", "t"]
        # a refusal forgets the driver too (it may be a stale one's "moved")
        with pytest.raises(CommandError):
            await b.call("t", "refuse", {"code": "moved", "message": "not here"})
        assert await b.call("t", "echo", {}) == {"table": "t", "op": "echo", "args": {}}
        assert reads == ["t", "t", "t"]

    run(backend, scenario)


def test_the_brokers_pool_checks_connections_out_side_by_side() -> None:
    """Two commands take two connections at once: neither waits for the
    other's check (redis-py's own pool makes the second wait for the first
    under its lock)."""
    from redis.asyncio.connection import ConnectionPool

    from rebelote.server.broker.redis import UnlockedPool

    async def checked_out_together(pool_class: type[ConnectionPool]) -> int:
        pool = pool_class.from_url("redis://127.0.0.1:1/0")
        inside = 0
        most = 0
        release = asyncio.Event()

        async def ensure(connection: Any) -> None:
            nonlocal inside, most
            inside += 1
            most = max(most, inside)
            await release.wait()
            inside -= 1

        pool.ensure_connection = ensure  # type: ignore[method-assign]
        tasks = [
            asyncio.create_task(pool.get_connection())  # type: ignore[no-untyped-call]
            for _ in range(2)
        ]
        for _ in range(20):
            await asyncio.sleep(0)
        release.set()
        await asyncio.gather(*tasks)
        return most

    assert asyncio.run(checked_out_together(UnlockedPool)) == 2
    assert asyncio.run(checked_out_together(ConnectionPool)) == 1
