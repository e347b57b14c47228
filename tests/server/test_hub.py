"""The fan-out hub: numbered messages per seat, a bounded buffer for
resuming, listeners."""

from __future__ import annotations

from rebelote.seats import Seat
from rebelote.server.broker.hub import MemoryHub
from rebelote.server.protocol.messages import ProtocolError, parse_client_message


def test_since_returns_missed_messages_while_kept() -> None:
    hub = MemoryHub(buffer_size=3)
    got: list[tuple[int, str]] = []
    sub = hub.subscribe("t", Seat.S, lambda v, text: got.append((v, text)))
    assert hub.since("t", Seat.S, 0) == []
    for v in range(1, 6):
        hub.publish("t", Seat.S, v, f"m{v}")
    hub.publish("t", Seat.N, 1, "north")
    assert got == [(v, f"m{v}") for v in range(1, 6)]
    assert hub.since("t", Seat.S, 5) == []
    assert hub.since("t", Seat.S, 3) == [(4, "m4"), (5, "m5")]
    assert hub.since("t", Seat.S, 2) == [(3, "m3"), (4, "m4"), (5, "m5")]
    assert hub.since("t", Seat.S, 1) is None  # m2 is no longer kept: a snapshot
    assert hub.since("t", Seat.S, 9) is None  # ahead of the stream
    assert hub.since("t", Seat.N, 0) == [(1, "north")]
    hub.unsubscribe(sub)
    hub.publish("t", Seat.S, 6, "m6")
    assert len(got) == 5 and hub.listeners("t", Seat.S) == 0
    hub.forget("t")
    assert hub.since("t", Seat.S, 5) is None


def test_parse_client_messages() -> None:
    msg = parse_client_message('{"t": "act", "d": {"action": "KH", "belote": false}}')
    assert msg.t == "act" and msg.d is not None
    hello = parse_client_message(b'{"t": "hello", "d": {"token": "abc", "last_v": 4}, "v": null}')
    assert hello.t == "hello"
    assert parse_client_message('{"t": "ping"}').t == "ping"
    assert parse_client_message('{"t": "sync", "d": {}}').t == "sync"
    for raw, code in [
        ('{"t": "ping", "d": {"x": 1}}', "bad_message"),
        ('{"t": "hello", "d": {"token": "a", "last_v": -1}}', "bad_message"),
        ('"act"', "bad_json"),
        ("", "bad_json"),
        ('{"t": 5}', "unknown_type"),
    ]:
        try:
            parse_client_message(raw)
        except ProtocolError as exc:
            assert exc.code == code, (raw, exc.code)
            assert exc.data().message
        else:
            raise AssertionError(f"{raw!r} accepted")
