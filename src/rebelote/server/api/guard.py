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
  address holding ``max_sockets_per_address`` WebSockets open has its next
  one accepted and closed at once with 4429 ``too_many_sockets``.  Every HTTP response
  gets the security headers (:data:`SECURITY_HEADERS`, and the
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
  the :class:`Guard`): one more is answered 429 ``too_many_connections``
  and closed at once, before anything is read, so that one address
  holding idle connections cannot take every file descriptor.  A trusted
  proxy (uvicorn's ``forwarded_allow_ips``) is not capped.

Refusals have the shape of every REST error: ``{"detail": {"code",
"message"}}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
from collections.abc import Callable
from typing import Any, ClassVar

import h11
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

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

__all__ = ["SECURITY_HEADERS", "Guard", "guarded_h11", "json_too_deep"]

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
        ticket = await self.sockets.open(address, self.settings.max_sockets_per_address)
        if ticket is None:
            await _refuse_socket(receive, send, "too_many_sockets")
            return
        try:
            await self.app(scope, receive, send)
        finally:
            await self.sockets.close(ticket)

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
    """The whole body, or :class:`_TooLarge` as soon as it passes ``limit``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # disconnected
            return b"".join(chunks)
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
    set by :func:`guarded_h11`)."""

    settings: ClassVar[ServerSettings] = ServerSettings()
    open_connections: ClassVar[dict[str, int]] = {}
    """The connections each peer address (:func:`address_key`) holds open
    and not upgraded to a WebSocket."""
    refused_connections: ClassVar[list[int]] = [0]
    """How many connections were refused for the cap (one counter)."""
    _trusted: ClassVar[_Trust | None] = None

    _header_timer: asyncio.TimerHandle | None = None
    _counted: str | None = None
    _refused = False

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
        """Count this connection for its peer's address; ``False`` (nothing
        counted) when that address holds the cap already.  A trusted
        proxy's, or no address (a Unix socket), is not counted."""
        cls = type(self)
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
            cls.refused_connections[0] += 1
            return False
        cls.open_connections[key] = held + 1
        self._counted = key
        return True

    def _uncount(self) -> None:
        key, self._counted = self._counted, None
        if key is None:
            return
        left = type(self).open_connections.get(key, 1) - 1
        if left > 0:
            type(self).open_connections[key] = left
        else:
            type(self).open_connections.pop(key, None)

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
        super().data_received(data)
        if self.transport.is_closing():
            self._cancel_header_timer()
        elif self.conn.their_state is h11.IDLE:
            self._arm_header_timer()
        else:
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


def guarded_h11(settings: ServerSettings) -> type[GuardedH11Protocol]:
    """The protocol class to give uvicorn (``Config(http=...)``) for
    ``settings``, with a count of connections per address of its own."""
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {
            "settings": settings,
            "open_connections": {},
            "refused_connections": [0],
            "_trusted": None,
        },
    )
