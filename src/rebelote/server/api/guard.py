"""The server's edge: what is refused before the application reads it, and
the headers every response carries.

- :class:`Guard`, an ASGI middleware: a request target longer than
  ``max_url_bytes`` gets 414 ``too_long`` at once; a body announced
  (``Content-Length``) or streamed beyond ``max_body_bytes`` gets 413
  ``too_large`` before anything parses it (at most that many bytes are
  ever held); a body slower than ``body_timeout`` gets 408 ``timeout``; a
  JSON body nested deeper than ``max_json_depth`` gets 422 ``invalid``
  (Python's parser would raise ``RecursionError``); an address opening
  WebSockets faster than ``socket_connect_rate`` has the next one accepted
  and closed at once with 4429 ``rate_limited``, before any work; an
  address holding ``max_sockets_per_address`` WebSockets open makes room
  for its next one: its oldest socket whose holder is not known yet (a
  table socket waiting for ``hello``), else the oldest of whoever holds
  the most there (the app tells who holds a socket:
  :func:`settle_socket`), is closed with 4429 ``too_many_sockets``; with
  none to close in this process, the new one is accepted and closed at
  once with 4429 ``too_many_sockets``.  Every HTTP response gets the
  security headers (:data:`SECURITY_HEADERS`, and the
  Content-Security-Policy of the settings).
- :func:`guarded_h11`: uvicorn's h11 protocol with a header-read timeout
  (a connection that sends no complete request line and headers within
  ``header_timeout`` of its first byte, or of opening, is closed: idle or
  slow clients hold no socket), the header size limit on the whole request
  line and headers (431 ``too_large``, however they were cut into
  packets) and the URL limit applied to WebSocket upgrades too (the
  ``websockets`` library would leave a target over 8 KiB unanswered); and
  at most ``max_connections_per_address`` connections open per peer
  address (its /64 for IPv6) until they become WebSockets (counted then by
  the :class:`Guard`): one more takes the place of one of the address's
  connections carrying no request (idle, still sending its headers, or
  still sending its body ``body_grace`` after its headers), closed; when
  each carries one, it is answered 429
  ``too_many_connections`` and closed at once, before anything is read, so
  that one address holding idle connections can neither take every file
  descriptor nor lock its neighbours out.  A trusted proxy (uvicorn's
  ``forwarded_allow_ips``) is not capped.
- :func:`guarded_ws`: uvicorn's WebSocket protocol with a short wait
  (``socket_close_timeout``) for the client's answer to a close the
  server sends, after which the connection is dropped: a refused socket
  holds no file descriptor for long.

Refusals have the shape of every REST error: ``{"detail": {"code",
"message"}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

import h11
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from rebelote.server.api.throttle import (
    MemorySocketCount,
    RateLimited,
    SocketCount,
    Throttle,
    ThrottleUnavailable,
    address_key,
    client_key,
)
from rebelote.server.protocol.depth import json_too_deep
from rebelote.server.settings import ServerSettings

__all__ = [
    "ANONYMOUS_SEATS",
    "SECURITY_HEADERS",
    "SLOT",
    "Guard",
    "GuardedWebSocketProtocol",
    "SocketSlot",
    "guarded_h11",
    "guarded_ws",
    "json_too_deep",
    "settle_socket",
]

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""Headers of every HTTP response besides the CSP: never framed, types not
sniffed, no ``Referer`` sent from the pages (their URLs may hold a seat's
token or a table's invitation)."""


def _error_body(code: str, message: str, **extra: Any) -> bytes:
    return json.dumps({"detail": {"code": code, "message": message, **extra}}).encode()


async def _answer(send: Send, status: int, body: bytes, *, close: bool = False) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


ANONYMOUS_SEATS = "anonymous seats"
"""The holder (:func:`settle_socket`) of every seat socket of an address
whose seat nobody logged in holds: one holder for all of them, so that
anonymous tables, free to create, buy no share of the address's sockets."""

_ANONYMOUS = frozenset({"anonymous", ANONYMOUS_SEATS})
"""The holders without a login (they lose ties for room)."""

SLOT = "rebelote.socket"
"""The scope key of a WebSocket's :class:`SocketSlot` (the app tells who
holds it: :func:`settle_socket`)."""


class SocketSlot:
    """One WebSocket counted for its ``address`` (its ``ticket`` in the
    :class:`~rebelote.server.api.throttle.SocketCount`; ``order``: when it
    opened, in this process's order), and who holds it once the app knows
    (``holder``: ``user N`` for a logged-in player's lobby socket or a
    seat of his, ``anonymous seats`` for every seat nobody logged in
    holds (one holder for all of them: tables cost an anonymous client
    nothing, so each may not count as a holder of its own), ``anonymous``
    for a spectator or a lobby socket without a session;
    ``None`` until then).  :meth:`send` is what the app sends through:
    once the slot is given up for a newer socket (:meth:`evict`), what
    the app sends goes nowhere and its ``receive`` gets the
    disconnection."""

    __slots__ = ("_send", "address", "evicted", "holder", "order", "ticket")

    def __init__(self, address: str, ticket: str, order: int, send: Send) -> None:
        self.address = address
        self.ticket = ticket
        self.order = order
        self.holder: str | None = None
        self.evicted = False
        self._send = send

    async def send(self, message: Message) -> None:
        """The app's ``send`` (nothing once evicted)."""
        if not self.evicted:
            await self._send(message)

    async def evict(self) -> None:
        """Close the socket with 4429 ``too_many_sockets`` (the server
        queues the disconnection for the app's ``receive``)."""
        if self.evicted:
            return
        self.evicted = True
        with contextlib.suppress(Exception):
            await self._send(
                {"type": "websocket.close", "code": 4429, "reason": "too_many_sockets"}
            )


def settle_socket(scope: Scope, holder: str) -> None:
    """The WebSocket of ``scope`` is held by ``holder`` (see
    :class:`SocketSlot`): it no longer goes first when its address needs
    room.  Nothing happens for a socket the :class:`Guard` did not count."""
    slot = scope.get(SLOT)
    if isinstance(slot, SocketSlot):
        slot.holder = holder


class Guard:
    """The ASGI middleware (see the module docstring); ``settings`` gives
    the limits, ``sockets`` counts the WebSockets per address, and
    ``throttle`` gives the app's :class:`Throttle` once it runs (``None``
    before: nothing throttled), for ``socket_connect_rate``."""

    def __init__(
        self,
        app: ASGIApp,
        settings: ServerSettings,
        sockets: SocketCount | None = None,
        throttle: Callable[[], Throttle | None] | None = None,
    ) -> None:
        self.app = app
        self.settings = settings
        self.headers = (
            *SECURITY_HEADERS,
            (b"content-security-policy", settings.content_security_policy.encode()),
        )
        self.sockets: SocketCount = sockets if sockets is not None else MemorySocketCount()
        self.throttle = throttle
        self._slots: dict[str, dict[SocketSlot, None]] = {}
        self._order = itertools.count()
        self.evicted_sockets = 0
        """How many WebSockets were closed to make room for a new one of
        their address."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        settings = self.settings
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(
            scope.get("query_string", b"")
        )
        if scope["type"] == "websocket":
            if target > settings.max_url_bytes:
                await send({"type": "websocket.close", "code": 1008, "reason": "too_long"})
                return
            await self._socket(scope, receive, send)
            return
        send = self._with_headers(send)
        if target > settings.max_url_bytes:
            await _answer(
                send,
                414,
                _error_body("too_long", f"the URL is over {settings.max_url_bytes} bytes"),
                close=True,
            )
            return
        limit = settings.max_body_bytes
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _answer(send, 413, _too_large(limit), close=True)
            return
        try:
            body = await asyncio.wait_for(_read_body(receive, limit), settings.body_timeout)
        except _Disconnected:  # gone before its whole body: nothing to answer
            return
        except _TooLarge:
            await _answer(send, 413, _too_large(limit), close=True)
            return
        except TimeoutError:
            await _answer(
                send,
                408,
                _error_body("timeout", f"the body took over {settings.body_timeout:g} s"),
                close=True,
            )
            return
        if body and _is_json(scope) and json_too_deep(body, settings.max_json_depth):
            await _answer(
                send,
                422,
                _error_body(
                    "invalid",
                    f"the body nests over {settings.max_json_depth} levels",
                    field=None,
                ),
            )
            return
        await self.app(scope, _replay(body, receive), send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket: counted first against its address's
        ``socket_connect_rate`` (over it: accepted and closed at once with
        4429 ``rate_limited``, nothing else done), then against its
        address's ``max_sockets_per_address`` while it is open (in every
        process sharing the :class:`~rebelote.server.api.throttle.SocketCount`);
        one more is accepted and closed at once with 4429
        ``too_many_sockets``."""
        conn = HTTPConnection(scope)
        if not await self._may_connect(conn):
            await _refuse_socket(receive, send, "rate_limited")
            return
        address = client_key(conn)
        cap = self.settings.max_sockets_per_address
        ticket = await self.sockets.open(address, cap)
        if ticket is None:
            ticket = await self._make_room(address, cap)
        if ticket is None:
            await _refuse_socket(receive, send, "too_many_sockets")
            return
        slot = SocketSlot(address, ticket, next(self._order), send)
        self._slots.setdefault(address, {})[slot] = None
        scope[SLOT] = slot
        try:
            await self.app(scope, receive, slot.send)
        finally:
            self._forget(slot)
            await self.sockets.close(ticket)

    async def _make_room(self, address: str, cap: int) -> str | None:
        """``address`` holds ``cap`` WebSockets: close the one of them this
        process serves that :meth:`_victim` names (4429
        ``too_many_sockets``) and count a new one in its place; its ticket,
        or ``None`` when there is none to close."""
        victim = self._victim(address)
        if victim is None:
            return None
        self._forget(victim)
        self.evicted_sockets += 1
        await self.sockets.close(victim.ticket)
        await victim.evict()
        return await self.sockets.open(address, cap)

    def _victim(self, address: str) -> SocketSlot | None:
        """The WebSocket of ``address`` (served here) to close for a new
        one: the oldest of those whose holder is not known yet (a table
        socket waiting for ``hello``), else the oldest of the holder with
        the most sockets there (fair shares: one holder's many sockets go
        before another's few; between as many, an anonymous holder's go
        before a logged-in player's); ``None`` when none is served here."""
        slots = self._slots.get(address)
        if not slots:
            return None
        waiting = [slot for slot in slots if slot.holder is None]
        if waiting:
            return waiting[0]
        counts = Counter(slot.holder for slot in slots)
        return min(
            slots,
            key=lambda slot: (-counts[slot.holder], slot.holder not in _ANONYMOUS, slot.order),
        )

    def _forget(self, slot: SocketSlot) -> None:
        slots = self._slots.get(slot.address)
        if slots is not None:
            slots.pop(slot, None)
            if not slots:
                del self._slots[slot.address]

    def held_sockets(self, address: str) -> list[SocketSlot]:
        """The WebSockets of ``address`` this process serves, oldest first
        (tests)."""
        return list(self._slots.get(address, {}))

    async def _may_connect(self, conn: HTTPConnection) -> bool:
        """Count one WebSocket opening of ``conn``'s address (and its IPv6
        networks) under ``socket_connect_rate``: whether it is within it.
        The throttles' storage out of reach lets it in (as the socket
        count does: a warning is logged)."""
        throttle = self.throttle() if self.throttle is not None else None
        if throttle is None:
            return True
        try:
            await throttle.hit_all(
                *throttle.by_address("socket-connect", self.settings.socket_connect_rate, conn)
            )
        except RateLimited:
            return False
        except ThrottleUnavailable:
            return True
        return True

    def _with_headers(self, send: Send) -> Send:
        extra = self.headers

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        return sending


async def _refuse_socket(receive: Receive, send: Send, reason: str) -> None:
    """Accept the WebSocket and close it at once with 4429 ``reason``
    (a close code the browser client reads: it tries again later)."""
    with contextlib.suppress(Exception):
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4429, "reason": reason})


def _too_large(limit: int) -> bytes:
    return _error_body("too_large", f"the body is over {limit} bytes", limit=limit)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind = value.split(b";")[0].strip().lower()
            return bool(kind == b"application/json" or kind.endswith(b"+json"))
    return False


async def _read_body(receive: Receive, limit: int) -> bytes:
    """The whole body, or :class:`_TooLarge` as soon as it passes ``limit``,
    or :class:`_Disconnected` when the client leaves before its end (the
    app never sees a cut body)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # disconnected
            raise _Disconnected
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` giving ``body`` in one message, then the real one's."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the header-read timeout, the URL limit
    on WebSocket upgrades and the cap on connections per address
    (``settings`` and the count, shared by the connections of one server,
    set by :func:`guarded_h11`).

    An address at its cap makes room before it refuses: the new connection
    takes the place of the address's connection that carries no request
    now (idle, still sending a request's line and headers, or still
    sending its body ``body_grace`` after its headers came), those that
    never sent a whole request first, then the one quiet for the longest;
    that one is closed (as the header or keep-alive timeout would close
    it).  Only when every connection of the address carries a request
    (read whole and being answered, or its body coming for less than
    ``body_grace``) is the new one refused."""

    settings: ClassVar[ServerSettings] = ServerSettings()
    open_connections: ClassVar[dict[str, int]] = {}
    """The connections each peer address (:func:`address_key`) holds open
    and not upgraded to a WebSocket."""
    by_address: ClassVar[dict[str, dict[GuardedH11Protocol, None]]] = {}
    """Those connections themselves, per address, oldest first."""
    refused_connections: ClassVar[list[int]] = [0]
    """How many connections were refused for the cap (one counter)."""
    evicted_connections: ClassVar[list[int]] = [0]
    """How many connections were closed to make room for a new one of
    their address (one counter)."""
    _trusted: ClassVar[_Trust | None] = None

    _header_timer: asyncio.TimerHandle | None = None
    _counted: str | None = None
    _refused = False
    _requested = False
    """Whether a whole request's line and headers came on it (once)."""
    _active = 0.0
    """When it was opened or last sent bytes (the loop's clock)."""
    _body_since: float | None = None
    """When the line and headers of the request whose body is coming now
    came (the loop's clock; ``None`` when no body is coming)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection against its address's cap (refused over
        it), then start waiting for the first request's headers."""
        super().connection_made(transport)
        if not self._count():
            self._refuse_connection()
            return
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the header timer; count the connection out."""
        self._cancel_header_timer()
        self._uncount()
        super().connection_lost(exc)

    def _count(self) -> bool:
        """Count this connection for its peer's address; when that address
        holds the cap already, close one of its connections that carries
        no request (see the class docstring) to make room, or return
        ``False`` (nothing counted) when each carries one.  A trusted
        proxy's, or no address (a Unix socket), is not counted."""
        cls = type(self)
        self._active = self.loop.time()
        if self.client is None:
            return True
        host = self.client[0]
        if cls._trusted is None:
            cls._trusted = _Trust(self.config.forwarded_allow_ips, self.config.proxy_headers)
        if cls._trusted.trusts(host):
            return True
        key = address_key(host)
        held = cls.open_connections.get(key, 0)
        if held >= self.settings.max_connections_per_address:
            victim = self._idlest(key)
            if victim is None:
                cls.refused_connections[0] += 1
                return False
            cls.evicted_connections[0] += 1
            victim._cancel_header_timer()
            victim._uncount()
            victim.transport.close()
            held = cls.open_connections.get(key, 0)
        cls.open_connections[key] = held + 1
        cls.by_address.setdefault(key, {})[self] = None
        self._counted = key
        return True

    def _idlest(self, key: str) -> GuardedH11Protocol | None:
        """The connection of address ``key`` to close for a new one: of
        those carrying no request, one that never sent a whole request
        first, then the one quiet for the longest; ``None`` when each
        carries a request."""
        idle = [p for p in type(self).by_address.get(key, {}) if p is not self and p._idle()]
        return min(idle, key=lambda p: (p._requested, p._active), default=None)

    def _idle(self) -> bool:
        """Whether this connection carries no request now: nothing received
        but part of a request's line and headers, and no answer under way;
        or a request whose body is still coming ``body_grace`` after its
        line and headers (a slow upload may not hold its address's
        connections: its whole request never came, nothing is served)."""
        if self.transport.is_closing():
            return False
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            since = self._body_since
            return since is not None and self.loop.time() - since >= self.settings.body_grace
        if state is not h11.IDLE:
            return False
        return self.cycle is None or self.cycle.response_complete

    def _uncount(self) -> None:
        key, self._counted = self._counted, None
        if key is None:
            return
        cls = type(self)
        left = cls.open_connections.get(key, 1) - 1
        if left > 0:
            cls.open_connections[key] = left
        else:
            cls.open_connections.pop(key, None)
        mine = cls.by_address.get(key)
        if mine is not None:
            mine.pop(self, None)
            if not mine:
                del cls.by_address[key]

    def _refuse_connection(self) -> None:
        self._refused = True
        limit = self.settings.max_connections_per_address
        body = _error_body(
            "too_many_connections", f"this address holds {limit} connections open already"
        )
        self.transport.write(
            b"HTTP/1.1 429 Too Many Requests\r\n"
            b"content-type: application/json\r\n"
            + f"content-length: {len(body)}\r\n".encode()
            + b"connection: close\r\n\r\n"
            + body
        )
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does; a request whose headers are not complete
        yet keeps (or starts) the header timer, a complete one stops it.
        A refused connection's bytes are dropped."""
        if self._refused:
            return
        self._active = self.loop.time()
        super().data_received(data)
        if self.transport.is_closing():
            self._cancel_header_timer()
        elif self.conn.their_state is h11.IDLE:
            self._arm_header_timer()
        else:
            self._requested = True
            self._cancel_header_timer()

    def handle_events(self) -> None:
        """Read the request(s) received, as uvicorn does; a request whose
        line and headers (up to the blank line, or all that came when it
        has not come yet) pass ``max_header_bytes`` is answered 431 and the
        connection closed, before anything is parsed, whether they came in
        one packet or several (h11's own limit holds only for the bytes of
        an event not complete yet)."""
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            head = _head_size(self.conn.trailing_data[0])
            limit = self.settings.max_header_bytes
            if head > limit:
                self._cancel_header_timer()
                body = _error_body(
                    "too_large", f"the request line and headers are over {limit} bytes"
                )
                self.transport.write(
                    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                    b"content-type: application/json\r\n"
                    + f"content-length: {len(body)}\r\n".encode()
                    + b"connection: close\r\n\r\n"
                    + body
                )
                self.transport.close()
                return
        super().handle_events()
        if self.conn.their_state is not h11.SEND_BODY:
            self._body_since = None
        elif self._body_since is None:
            self._body_since = self.loop.time()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Upgrade, unless the target is too long: then 414 and close.  An
        upgraded connection leaves this protocol (its end is never told
        here): it is counted out now, and counted as a WebSocket by the
        :class:`Guard`."""
        self._cancel_header_timer()
        limit = self.settings.max_url_bytes
        if len(event.target) > limit:
            body = _error_body("too_long", f"the URL is over {limit} bytes")
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            with contextlib.suppress(h11.LocalProtocolError):
                self.transport.write(
                    (self.conn.send(h11.Response(status_code=414, headers=headers)) or b"")
                    + (self.conn.send(h11.Data(data=body)) or b"")
                    + (self.conn.send(h11.EndOfMessage()) or b"")
                )
            self.transport.close()
            return
        self._uncount()
        super().handle_websocket_upgrade(event)

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(
                self.settings.header_timeout, self._headers_too_slow
            )

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()


_HEAD_END = re.compile(rb"\n\r?\n")


def _head_size(received: bytes) -> int:
    """The bytes of the request line and headers at the start of
    ``received`` (through the blank line ending them, as h11 finds it), or
    all of ``received`` when they have not ended yet."""
    end = _HEAD_END.search(received)
    return len(received) if end is None else end.end()


class _Trust:
    """The peers trusted as proxies: uvicorn's ``forwarded_allow_ips``
    (addresses, networks, ``*``: any), none when ``proxy_headers`` is off."""

    def __init__(self, allowed: list[str] | str, proxy_headers: bool) -> None:
        items = allowed if isinstance(allowed, list) else allowed.split(",")
        names = {item.strip() for item in items if item.strip()} if proxy_headers else set()
        self.anyone = "*" in names
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.literals: set[str] = set()
        for name in names - {"*"}:
            try:
                self.networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                self.literals.add(name)

    def trusts(self, host: str) -> bool:
        """Whether ``host`` (a peer's address) is a trusted proxy."""
        if self.anyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in self.literals
        return any(address in network for network in self.networks)


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (the ``websockets`` library, sans-I/O),
    with a short wait for the client's answer to a close the server sends:
    ``settings.socket_close_timeout`` (uvicorn waits 10 s) after the close
    frame, the connection is dropped (its unsent bytes with it), so that a
    socket refused (4429) or closed for any reason holds no file
    descriptor beyond that, whether or not the client answers
    (``settings`` set by :func:`guarded_ws`)."""

    settings: ClassVar[ServerSettings] = ServerSettings()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = self.settings.socket_close_timeout

    async def send(self, message: Any) -> None:
        """Send as uvicorn does; a close the app sends starts the short
        wait (see the class docstring)."""
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self._drop)

    def _drop(self) -> None:
        self.close_timer = None
        self.transport.abort()


def guarded_ws(settings: ServerSettings) -> type[GuardedWebSocketProtocol]:
    """The WebSocket protocol class to give uvicorn (``Config(ws=...)``)
    for ``settings``."""
    return type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), {"settings": settings})


def guarded_h11(settings: ServerSettings) -> type[GuardedH11Protocol]:
    """The protocol class to give uvicorn (``Config(http=...)``) for
    ``settings``, with a count of connections per address of its own."""
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {
            "settings": settings,
            "open_connections": {},
            "by_address": {},
            "refused_connections": [0],
            "evicted_connections": [0],
            "_trusted": None,
        },
    )
