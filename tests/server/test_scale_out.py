"""Several real ``rebelote serve`` processes on one Redis and one
PostgreSQL (``--redis URL --db URL``): one table, its players on two
processes; the process driving a table killed mid-deal (another takes it
over, the computer players go on, the clients resync by version, the log
has no gap nor duplicate, a retried action is a duplicate); Redis
restarting.  Skipped when ``TEST_REDIS_URL`` or ``TEST_DATABASE_URL`` is
unset (``.ci/run`` sets both; in CI a missing one fails)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
import redis

from .brokers import OwnRedis, free_port
from .cluster import Cluster, ServeProcess
from .conftest import _postgres_database
from .live import Client, Message
from .net import Player, Seated
from .test_network import Watcher

FAST = {"speed": "instant", "auto_next": False, "auto_play_forced": False}
PUBLIC_KINDS_HIDDEN = ("turn", "dealt", "completed", "declined")
"""The events that differ from seat to seat (a seat's legal moves, its own
cards, its declining to declare); every other event is the same for everyone."""


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from _postgres_database()


@pytest.fixture
def cluster(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(pg_url, redis_url, tmp_path)
    try:
        yield made
    finally:
        made.close()


def _table(
    host_on: ServeProcess,
    others: Sequence[tuple[ServeProcess, str]],
    *,
    fill: str | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[str, Player, list[Player]]:
    """A public table opened on ``host_on`` (the host at S), the others
    joining their seats each on its own process (their REST calls go to
    that process), filled with computer players of level ``fill``, and
    started; returns its id, the host, and the players in the order S,
    then ``others``."""
    host = Player(host_on).guest("Host")
    table_id = host.open_table(seat="S", target=300, options=options or FAST)["table_id"]
    players = [host]
    for k, (process, seat) in enumerate(others):
        p = Player(process).guest(f"Guest {k}")
        p.join(table_id, seat)
        players.append(p)
    if fill is not None:
        host.ok(f"/api/lobby/tables/{table_id}/fill", {"level": fill})
    host.ok(f"/api/lobby/tables/{table_id}/start")
    return table_id, host, players


def _public(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] not in PUBLIC_KINDS_HIDDEN]


def _from_first_bid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public events of the first deal from its first bid to its end."""
    public = _public(events)
    first = next(i for i, e in enumerate(public) if e["kind"] == "bid")
    last = next(i for i, e in enumerate(public) if e["kind"] == "deal_end")
    return public[first : last + 1]


def _until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def _stored_log(cluster: Cluster, table_id: str) -> list[Any]:
    store = cluster.store()
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    return list(stored.events)


def _check_log(cluster: Cluster, table_id: str) -> list[Any]:
    """The stored log: no gap, no duplicate entry, no action id twice."""
    events = _stored_log(cluster, table_id)
    assert [e.seq for e in events] == list(range(len(events)))
    ids = [e.payload["id"] for e in events if e.kind == "act" and "id" in e.payload]
    assert len(ids) == len(set(ids)), "an action id stored twice"
    return events


class Seat:
    """One seat's scripted client that tolerates a server going away: on
    an error it asks for a snapshot (``sync``) and decides again."""

    def __init__(self, letter: str, client: Client) -> None:
        self.letter = letter
        self.client = client
        self.errors: list[str] = []
        self.acked: list[tuple[str, bool]] = []
        self.counter = 0
        self.tag = secrets.token_hex(3)  # ids unique across this seat's clients

    def read(self, timeout: float = 0.0) -> list[Message]:
        got: list[Message] = []
        wait = timeout
        while True:
            try:
                msg = self.client.recv(timeout=wait)
            except TimeoutError:
                return got
            wait = 0.0
            got.append(msg)
            if msg["t"] == "error":
                self.errors.append(msg["d"]["code"])
                self.client.turn = None
                time.sleep(0.2)  # the server may be away a moment: look again
                self.client.send("sync")
            elif msg["t"] == "ack":
                self.acked.append((msg["d"]["id"], msg["d"]["duplicate"]))

    def decides(self) -> bool:
        return Client._decides(self.client, self.letter)

    def act(self, rng: random.Random) -> str:
        turn = self.client.turn
        assert turn is not None
        action: str = rng.choice(turn["legal"])
        self.counter += 1
        d: dict[str, Any] = {"action": action, "id": f"{self.letter}-{self.tag}-{self.counter}"}
        if action in turn["belote_choice"]:
            d["belote"] = False
        self.client.send("act", d)
        self.client.turn = None
        return str(d["id"])


def _play(
    seats: Sequence[Seat],
    rng: random.Random,
    until: Callable[[], bool],
    timeout: float = 90.0,
) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the table did not get there in time: " + "; ".join(
            f"{s.letter} v{s.client.v} errors {s.errors} turn {s.client.turn} "
            f"last {s.client.received[-3:]}"
            for s in seats
        )
        busy = False
        for s in seats:
            busy |= bool(s.read())
            if until():
                return
            turn = s.client.turn
            if s.decides() and turn is not None and turn["waiting"] != "rematch":
                s.act(rng)
                busy = True
        if not busy:
            seats[0].read(timeout=0.02)


def _acked(s: Seat, timeout: float = 20.0, action_id: str | None = None) -> None:
    """Read ``s``'s messages until an ``ack`` came (of ``action_id`` when
    given: the acks of earlier actions may come late under load)."""
    deadline = time.monotonic() + timeout
    while not any(action_id in (None, a[0]) for a in s.acked):
        assert time.monotonic() < deadline, "no ack"
        s.read(timeout=0.05)


def _deal_ends(s: Seat) -> int:
    return sum(1 for e in s.client.events if e["kind"] == "deal_end")


def _on_table(s: Seat) -> int:
    """The cards of the trick in progress, as ``s`` has seen them."""
    count = 0
    for e in s.client.events:
        if e["kind"] == "card":
            count += 1
        elif e["kind"] in ("trick", "deal_start", "deal_end"):
            count = 0
    return count


def _cards_played(s: Seat) -> int:
    return sum(1 for e in s.client.events if e["kind"] == "card")


# --------------------------------------------------------------------------- (a)


def test_one_table_four_players_on_two_processes(cluster: Cluster) -> None:
    """S and W talk to the first process, N and E to the second: a whole
    deal, every seat sees the same public events in the same order, each
    only its own cards and legal moves; the table is driven by one process
    (the host's), the other relays."""
    a, b = cluster.add(), cluster.add()
    table_id, _host, players = _table(a, [(b, "N"), (a, "W"), (b, "E")])
    assert cluster.owner(table_id) == a.pid
    seed = _stored_seed(cluster, table_id)
    seated = [Seated(p.seat, p.connect(table_id)) for p in players]
    watchers = {id(s): Watcher(s.seat, seed) for s in seated}

    def check(s: Seated, msg: Message) -> None:
        watchers[id(s)].see(s.raw_of[id(msg)], msg)

    # the driver counts every process's sockets: all four seats connected,
    # as either process tells it
    for p in (players[0], players[1]):

        def connected(p: Player = p) -> bool:
            room = p.http.get(f"/api/lobby/tables/{table_id}").json()
            return all(s["connected"] for s in room["seats"])

        _until(connected, "every seat connected")
    # a refusal through the relay has the driver's code: a late comer's
    # join (REST, on the second process), an act out of turn (socket)
    late = Player(b).guest("Late")
    refused = late.post(f"/api/lobby/tables/{table_id}/join", {"seat": "N"})
    assert refused.status_code == 409
    assert refused.json()["detail"]["code"] == "not_open"
    for s in seated:
        for msg in s.drain(timeout=0.2):
            check(s, msg)
    idle = next(s for s in seated if s.client.turn is None or s.client.turn["seat"] != s.seat)
    idle.client.act("pass")
    for msg in idle.drain(timeout=1.0):
        check(idle, msg)
    errors = [m["d"]["code"] for m in idle.client.received if m["t"] == "error"]
    assert errors == ["not_your_turn"]

    rng = random.Random(14)
    from .net import play_together

    play_together(
        seated,
        rng,
        until=lambda: all(any(e["kind"] == "deal_end" for e in s.client.events) for s in seated),
        on_message=check,
    )
    for s in seated:
        s.drain(timeout=0.3)
    # the events before the last seat connected (the table's automatic
    # start: cut, pattern, deal) are in the others' lists only; every event
    # from the first bid (a human's decision) on is everyone's
    tails = [_from_first_bid(s.client.events) for s in seated]
    for s, t in zip(seated[1:], tails[1:], strict=True):
        assert t == tails[0], s.seat
    assert len(tails[0]) > 30
    assert [e["kind"] for e in tails[0]].count("card") in (0, 32)
    assert all(w.checked > 20 for w in watchers.values())
    # each seat's stream is numbered 1, 2, 3 ... with no gap (checked as
    # read), and ends where the driver's does
    versions = [s.client.v for s in seated]
    events = _check_log(cluster, table_id)
    assert [e.kind for e in events].count("deal") == 1
    assert cluster.owner(table_id) == a.pid
    for s in seated:
        s.client.close()
    assert all(v > 0 for v in versions)


def _stored_seed(cluster: Cluster, table_id: str) -> int:
    store = cluster.store()
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    return stored.seed


# --------------------------------------------------------------------------- (b)


def test_the_driver_killed_mid_deal_another_takes_over(cluster: Cluster) -> None:
    """The process driving a table (the host's) is killed with SIGKILL in
    the middle of a deal, its computer players' moves pending: the other
    process takes the table over, the computer players go on, the player
    on the survivor never loses his socket nor a version, the player of
    the dead process reconnects to the survivor and resumes from his
    version, and his last action, sent again with its id, is a duplicate;
    the stored log has no gap and no duplicate."""
    a, b = cluster.add(), cluster.add()
    options = {**FAST, "speed": "fast"}
    table_id, _host, players = _table(a, [(b, "N")], fill="random", options=options)
    assert cluster.owner(table_id) == a.pid
    south = Seat("S", players[0].connect(table_id))
    north = Seat("N", players[1].connect(table_id))
    rng = random.Random(3)
    # play until South must decide with at least 8 cards down, leading or
    # second in the trick, so that North (on the survivor) plays after him
    # in this trick whatever the computers do before the kill
    _play(
        [south, north],
        rng,
        until=lambda: _cards_played(south) >= 8 and south.decides() and _on_table(south) <= 1,
    )
    last_id = south.act(rng)
    _acked(south, action_id=last_id)
    assert [a for a in south.acked if a[0] == last_id] == [(last_id, False)]
    action = next(
        e for e in reversed(_stored_log(cluster, table_id)) if e.payload.get("id") == last_id
    )
    v_south = south.client.v
    v_north = north.client.v
    killed = time.monotonic()
    a.kill()
    _until(lambda: cluster.owner(table_id) == b.pid, "the survivor drives the table", 20)
    took = time.monotonic() - killed
    # North (on the survivor) keeps his socket: the computer players' moves
    # come on it, numbered on from where he was
    _play(
        [north],
        rng,
        until=lambda: north.client.v > v_north + 2 and not north.errors,
        timeout=30,
    )
    assert north.errors == []
    # South reconnects to the survivor with his version: the missed events,
    # from the next version on
    south.client.close()
    south = Seat("S", b.connect(table_id, players[0].token, last_v=v_south))
    south.client.v = v_south
    first = south.client.recv_until(lambda m: m["t"] in ("event", "snapshot"))
    assert (first["t"], first["v"]) == ("event", v_south + 1)
    # his last action, sent again with its id: a duplicate, not applied twice
    south.client.send(
        "act",
        {"action": action.payload["action"], "id": last_id},
    )
    _acked(south, action_id=last_id)
    assert [a for a in south.acked if a[0] == last_id] == [(last_id, True)]
    _play([south, north], rng, until=lambda: _deal_ends(south) >= 1 and _deal_ends(north) >= 1)
    events = _check_log(cluster, table_id)
    assert [e.payload.get("id") for e in events].count(last_id) == 1
    # the computer players played after the kill
    bots_after = [
        e
        for e in north.client.events[v_north:]
        if e["kind"] in ("bid", "card") and e["seat"] in ("W", "E")
    ]
    assert bots_after
    print(json.dumps({"takeover_s": round(took, 2)}))


def test_a_paused_driver_wakes_up_after_the_takeover(cluster: Cluster) -> None:
    """The driving process is paused (SIGSTOP, as a long pause of the
    machine would) until the other has taken the table over and played on;
    woken up (SIGCONT), it finds its lease gone and drops the table (its
    log says so), stores nothing over the new driver's entries (the log
    replays whole, no gap, no duplicate), and its socket goes on, now
    relaying: both players finish the deal, their streams without a gap."""
    import signal

    a, b = cluster.add(), cluster.add()
    options = {**FAST, "speed": "fast"}
    table_id, _host, players = _table(a, [(b, "N")], fill="random", options=options)
    south = Seat("S", players[0].connect(table_id))
    north = Seat("N", players[1].connect(table_id))
    rng = random.Random(11)
    _play([south, north], rng, until=lambda: _cards_played(north) >= 4 and north.decides())
    assert a.proc is not None
    a.proc.send_signal(signal.SIGSTOP)
    try:
        _until(lambda: cluster.owner(table_id) == b.pid, "the other takes the table", 20)
        v = north.client.v
        _play([north], rng, until=lambda: north.client.v >= v + 3, timeout=30)
    finally:
        a.proc.send_signal(signal.SIGCONT)
    _play([south, north], rng, until=lambda: _deal_ends(south) >= 1 and _deal_ends(north) >= 1)
    assert cluster.owner(table_id) == b.pid
    _until(lambda: f"table {table_id}: lease lost" in a.log.read_text(), "A drops the table")
    events = _check_log(cluster, table_id)
    store = cluster.store()
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    from rebelote.server.tables.table import game_from_stored

    game, _ = game_from_stored(stored)  # every entry applies, in order
    assert game.entries == len(events)
    assert _public(south.client.events)[-1] == _public(north.client.events)[-1]


def test_an_action_in_flight_when_its_driver_dies_goes_to_the_next(cluster: Cluster) -> None:
    """North's action is on its way to the driver (sent through the relay
    while the driver is paused) when the driver is killed: the relay sees
    the lease expire or move and sends it again to the next driver at
    once, rather than after its 5 s reply timeout; it is applied once."""
    import signal

    a, b = cluster.add(), cluster.add()
    options = {**FAST, "speed": "fast"}
    table_id, _host, players = _table(a, [(b, "N")], fill="random", options=options)
    south = Seat("S", players[0].connect(table_id))
    north = Seat("N", players[1].connect(table_id))
    rng = random.Random(5)
    _play([south, north], rng, until=lambda: _cards_played(north) >= 2 and north.decides())
    assert a.proc is not None
    a.proc.send_signal(signal.SIGSTOP)  # the relay's call reaches it, never answered
    sent = time.monotonic()
    last_id = north.act(rng)
    time.sleep(0.3)
    a.kill()
    _acked(north, action_id=last_id)
    answered = time.monotonic() - sent
    assert [a for a in north.acked if a[0] == last_id] == [(last_id, False)]
    assert cluster.owner(table_id) == b.pid
    # the relay did not wait for its reply timeout
    assert "no reply within" not in b.log.read_text()
    events = _check_log(cluster, table_id)
    assert [e.payload.get("id") for e in events].count(last_id) == 1
    print(json.dumps({"answered_s": round(answered, 2)}))


def test_nobody_there_after_a_takeover_the_computers_wait(cluster: Cluster) -> None:
    """Both humans' sockets are on the driver, killed while a computer
    player is to play; nobody reconnects: the process that takes the table
    over does not count the dead process's sockets (its heartbeat is
    gone), so the computer players do not play (nobody there)."""
    a, b = cluster.add(), cluster.add()
    options = {**FAST, "speed": "fast"}
    table_id, _host, players = _table(a, [(a, "N")], fill="random", options=options)
    south = Seat("S", players[0].connect(table_id))
    north = Seat("N", players[1].connect(table_id))
    rng = random.Random(9)
    _play([south, north], rng, until=lambda: _cards_played(south) >= 4 and south.decides())
    south.act(rng)  # East, a computer, plays next
    time.sleep(0.05)
    a.kill()
    _until(lambda: cluster.owner(table_id) == b.pid, "the table taken over", 20)
    # read once the new driver has rebuilt the table: a batch the dead
    # process sent just before the kill may still land in the log until then
    stored = len(_stored_log(cluster, table_id))
    time.sleep(7.0)  # past the dead process's presence entries' time to live
    after = _stored_log(cluster, table_id)[stored:]
    assert [(e.kind, e.seat) for e in after if e.kind == "act"] == []


def test_a_stand_in_for_a_timed_out_player_survives_a_takeover(cluster: Cluster) -> None:
    """North (on the relay) never plays: his clock runs out once (a
    ``timed_out`` notice), a computer player stands in for him; the driver
    killed, the process that takes the table over stands in for him at
    once (no second clock, no second notice)."""
    a, b = cluster.add(), cluster.add()
    options = {**FAST, "speed": "fast", "move_clock": 1.5, "hold": 60}
    table_id, _host, players = _table(a, [(b, "N")], fill="random", options=options)
    south = Seat("S", players[0].connect(table_id))
    north = players[1].connect(table_id)
    rng = random.Random(4)

    def standins() -> int:
        events = _stored_log(cluster, table_id)
        return sum(1 for e in events if e.seat == "N" and e.payload.get("by") == "standin")

    def notices() -> int:
        while True:
            try:
                north.recv(timeout=0.0)
            except TimeoutError:
                break
        return sum(
            1 for m in north.received if m["t"] == "notice" and m["d"]["code"] == "timed_out"
        )

    _play([south], rng, until=lambda: standins() >= 1, timeout=60)
    before = standins()
    a.kill()
    v_south = south.client.v
    south.client.close()
    south = Seat("S", b.connect(table_id, players[0].token, last_v=v_south))
    south.client.v = v_south
    _until(lambda: cluster.owner(table_id) == b.pid, "the table taken over", 20)
    _play([south], rng, until=lambda: standins() >= before + 2, timeout=60)
    assert notices() == 1


# --------------------------------------------------------------------------- (c)


def test_play_goes_on_after_redis_restarts(pg_url: str, tmp_path: Path) -> None:
    """Both processes on a Redis of the test's own, killed mid-deal and
    started again (empty: no persistence): the processes reconnect, the
    table is driven again, and both players finish the deal, each stream
    without a gap (a snapshot where the stream was lost)."""
    own = OwnRedis(free_port())
    own.start()
    made = Cluster(pg_url, own.url, tmp_path)
    try:
        a, b = made.add(), made.add()
        table_id, _host, players = _table(a, [(b, "N")], fill="random")
        south = Seat("S", players[0].connect(table_id))
        north = Seat("N", players[1].connect(table_id))
        rng = random.Random(8)
        _play([south, north], rng, until=lambda: _cards_played(north) >= 4)
        before = (south.client.v, north.client.v)
        seen = (len(south.client.received), len(north.client.received))
        own.kill()
        time.sleep(1.0)
        own.start()
        _play(
            [south, north],
            rng,
            until=lambda: _deal_ends(south) >= 1 and _deal_ends(north) >= 1,
            timeout=120,
        )
        assert south.client.v > before[0] and north.client.v > before[1]
        # Redis came back empty: each socket either resynced with a snapshot
        # (its stream's past was gone) or missed nothing (its subscription
        # was back before the next event); the client checks that every
        # event follows the one before, so no socket skipped one
        for seat, n in ((south, seen[0]), (north, seen[1])):
            kinds = [m["t"] for m in seat.client.received[n:]]
            assert "snapshot" in kinds or "event" in kinds, seat.letter
        assert made.owner(table_id) in (a.pid, b.pid)
        _check_log(made, table_id)
        publics = [_public(s.client.events) for s in (south, north)]
        assert publics[0][-1] == publics[1][-1]
    finally:
        made.close()
        own.kill()


def test_a_table_nobody_watches_comes_back_after_redis_restarts_empty(
    pg_url: str, tmp_path: Path
) -> None:
    """A playing table with nobody connected, its driver losing its lease
    while Redis is down for longer than the lease: Redis back (empty),
    the live set is filled again from the database, the table is taken
    over (a lease), and both processes' lobbies list it again."""
    own = OwnRedis(free_port())
    own.start()
    made = Cluster(pg_url, own.url, tmp_path)
    try:
        a, b = made.add(), made.add()
        table_id, _host, _ = _table(a, [], fill="random")

        def listed(p: ServeProcess) -> bool:
            with p.http() as http:
                return table_id in [r["id"] for r in http.get("/api/lobby").json()]

        _until(lambda: listed(a) and listed(b), "the table listed")
        own.kill()
        _until(lambda: "dropped here" in a.log.read_text(), "the driver drops the table")
        own.start()
        _until(lambda: made.owner(table_id) in (a.pid, b.pid), "the table taken over")
        client = made.redis()
        try:
            assert client.sismember(f"{made.prefix}live", table_id)
        finally:
            client.close()
        _until(lambda: listed(a) and listed(b), "the table listed again")
    finally:
        made.close()
        own.kill()


# --------------------------------------------------------------------------- one cluster


def test_another_cluster_or_a_process_without_redis_is_refused_on_the_database(
    cluster: Cluster,
) -> None:
    """One database, one cluster: while a process of the cluster (Redis,
    prefix A) runs, ``rebelote serve`` on the same database with prefix B
    (alone, or ``--workers 2``), or without Redis, exits with status 2 and
    says who drives the database; it writes nothing in Redis under B, and
    the claim stays the cluster's."""
    import subprocess
    import sys

    from rebelote.server.claim import redis_location

    a = cluster.add()
    other = f"rbtest{secrets.token_hex(4)}:"
    where = redis_location(cluster.redis_url)
    pattern = (
        "error: this database's tables are driven by the processes sharing Redis "
        + re.escape(f"{where} with prefix {cluster.prefix} (seen ")
        + r"\d+"
        + re.escape(
            " s ago): start with the same --redis and --redis-prefix, or stop them and wait 30 s\n"
        )
    )
    base = [sys.executable, "-m", "rebelote", "serve", "--port", str(_free_pair())]
    base += ["--db", cluster.db, "--log-level", "warning", "--no-warm-solver"]
    for extra in (
        ["--redis", cluster.redis_url, "--redis-prefix", other],
        ["--workers", "2", "--redis", cluster.redis_url, "--redis-prefix", other],
        [],
    ):
        done = subprocess.run(
            base + extra, capture_output=True, text=True, timeout=120, env=os.environ.copy()
        )
        assert done.returncode == 2, (extra, done.stdout, done.stderr)
        assert re.fullmatch(pattern, done.stderr), (extra, done.stderr)
        assert done.stdout == ""
    client = cluster.redis()
    try:
        assert list(client.scan_iter(match=f"{other}*")) == []
    finally:
        client.close()
    store = cluster.store()
    try:
        claim = store.cluster_claim()
    finally:
        store.close()
    assert claim is not None and (claim.redis, claim.prefix) == (where, cluster.prefix)
    assert _answers(a.url)


# --------------------------------------------------------------------------- workers


def test_serve_workers_starts_processes_that_share_the_tables(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    """``rebelote serve --workers 2``: two processes on consecutive ports
    (the database upgraded once first); a table opened on the first is
    seen, with the same room, from the second (which relays to its
    driver); the first killed (SIGKILL), the second goes on and drives
    the table, and the first is started again on its port; Ctrl-C
    (SIGINT) stops both, even though the supervisor was started with
    SIGINT ignored, as a background job of a script is."""

    import httpx

    port = _free_pair()
    prefix = f"rbtest{secrets.token_hex(4)}:"
    log = (tmp_path / "workers.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rebelote",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--redis",
            redis_url,
            "--redis-prefix",
            prefix,
            "--db",
            pg_url,
            "--log-level",
            "warning",
            "--no-warm-solver",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        urls = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"]
        _until(lambda: all(_answers(url) for url in urls), "both processes answer", timeout=60)
        with httpx.Client(base_url=urls[0], timeout=20) as first:
            csrf = first.post("/api/auth/guest", json={"name": "Ada"}).json()["csrf"]
            made = first.post(
                "/api/lobby/tables", json={"seat": "S"}, headers={"X-CSRF-Token": csrf}
            )
            assert made.status_code == 201, made.text
            table_id = made.json()["table_id"]
            here = first.get(f"/api/lobby/tables/{table_id}").json()
        with httpx.Client(base_url=urls[1], timeout=20) as second:
            there = second.get(f"/api/lobby/tables/{table_id}").json()
        assert there == here
        assert [s["name"] for s in there["seats"] if s["kind"] == "human"] == ["Ada"]
        first_pid = _child_on_port(proc.pid, port)
        os.kill(first_pid, signal.SIGKILL)
        _until(lambda: not _answers(urls[0]), "the first process is gone", timeout=10)
        with httpx.Client(base_url=urls[1], timeout=20) as second:
            assert _seats(second.get(f"/api/lobby/tables/{table_id}").json()) == _seats(here)
        assert proc.poll() is None
        _until(lambda: _answers(urls[0]), "the first process started again", timeout=60)
        assert _child_on_port(proc.pid, port) != first_pid
        with httpx.Client(base_url=urls[0], timeout=20) as first:
            assert _seats(first.get(f"/api/lobby/tables/{table_id}").json()) == _seats(here)
        proc.send_signal(signal.SIGINT)
        # the supervisor gives each worker up to 20 s to stop (then kills
        # it): on a loaded machine a worker's orderly stop can take that long
        assert proc.wait(timeout=90) == 0
        assert not _answers(urls[0]) and not _answers(urls[1])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()
        client = redis.Redis.from_url(redis_url)
        try:
            keys = list(client.scan_iter(match=f"{prefix}*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


def _start_workers(
    pg_url: str, redis_url: str, prefix: str, log: IO[bytes]
) -> tuple[subprocess.Popen[bytes], list[str]]:
    """``rebelote serve --workers 2`` in a session (a process group) of its
    own, and the URLs of its two workers once both answer."""
    port = _free_pair()
    command = [sys.executable, "-m", "rebelote", "serve", "--port", str(port)]
    command += ["--workers", "2", "--redis", redis_url, "--redis-prefix", prefix]
    command += ["--db", pg_url, "--log-level", "warning", "--no-warm-solver"]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    urls = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"]
    try:
        _until(lambda: all(_answers(url) for url in urls), "both processes answer", timeout=60)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, urls


def _forget(redis_url: str, prefix: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_serve_workers_stop_in_order_on_a_signal_to_their_group(
    pg_url: str, redis_url: str, tmp_path: Path, signum: int
) -> None:
    """``SIGTERM``, ``SIGINT`` or ``SIGHUP`` to the whole process group
    (``kill -- -PGID``, systemd, Ctrl-C in a terminal, the terminal or
    SSH session closed): every process gets it, the
    supervisor forwards ``SIGTERM`` too, and each worker still stops in
    order: exit status 0, ports closed, and the lease of the live table
    given back (not left to expire)."""
    import httpx

    prefix = f"rbtest{secrets.token_hex(4)}:"
    log = (tmp_path / "workers.log").open("wb")
    proc, urls = _start_workers(pg_url, redis_url, prefix, log)
    try:
        with httpx.Client(base_url=urls[0], timeout=20) as first:
            csrf = first.post("/api/auth/guest", json={"name": "Ada"}).json()["csrf"]
            made = first.post(
                "/api/lobby/tables", json={"seat": "S"}, headers={"X-CSRF-Token": csrf}
            )
            assert made.status_code == 201, made.text
        client = redis.Redis.from_url(redis_url)
        try:
            assert len(list(client.scan_iter(match=f"{prefix}lease:*"))) == 1
            workers = [int(pid) for pid in _children(proc.pid)]
            assert len(workers) == 2
            os.killpg(proc.pid, signum)
            assert proc.wait(timeout=90) == 0
            # given back: a lease left to expire would live up to 3 s more
            assert list(client.scan_iter(match=f"{prefix}lease:*")) == []
        finally:
            client.close()
        assert not _answers(urls[0]) and not _answers(urls[1])
        for pid in workers:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert b"Traceback" not in (tmp_path / "workers.log").read_bytes()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
        _forget(redis_url, prefix)


def test_serve_workers_stop_when_their_supervisor_is_killed(
    pg_url: str, redis_url: str, tmp_path: Path
) -> None:
    """The supervisor killed with ``SIGKILL`` (it cannot stop them): its
    workers get ``SIGTERM`` from the kernel (Linux's parent-death signal),
    stop, and free their ports for a new ``serve --workers``."""
    prefix = f"rbtest{secrets.token_hex(4)}:"
    log = (tmp_path / "workers.log").open("wb")
    proc, urls = _start_workers(pg_url, redis_url, prefix, log)
    workers = [int(pid) for pid in _children(proc.pid)]
    try:
        assert len(workers) == 2
        proc.kill()
        proc.wait()
        _until(lambda: not any(_answers(url) for url in urls), "the workers stop", timeout=60)
        _until(lambda: not any(_alive(pid) for pid in workers), "the workers end", timeout=30)
    finally:
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        log.close()
        _forget(redis_url, prefix)


def _children(parent: int) -> list[str]:
    return Path(f"/proc/{parent}/task/{parent}/children").read_text().split()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (not ended, nor a zombie its new parent did not
    reap yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_serve_workers_needs_redis() -> None:

    done = subprocess.run(
        [sys.executable, "-m", "rebelote", "serve", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: --workers above 1 needs --redis URL: the processes share their tables "
        "through Redis\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "rebelote", "serve", "--redis", "http://127.0.0.1:6379"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "error: --redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)\n"


def _seats(room: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(s["seat"], s["kind"], s["name"]) for s in room["seats"]]


def _child_on_port(parent: int, port: int) -> int:
    """The pid of ``parent``'s child ``rebelote serve`` on ``port``."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    for pid in children:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if command[command.index(b"--port") + 1] == str(port).encode():
            return int(pid)
    raise AssertionError(f"no child on port {port}")


def _answers(url: str) -> bool:
    import httpx

    try:
        return httpx.get(url + "/api/presets", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def _free_pair() -> int:
    """A port free with the next one too."""
    for _ in range(50):
        port = free_port()
        if port < 65535 and _port_free(port + 1):
            return port
    raise RuntimeError("no two consecutive free ports")


def _port_free(port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
