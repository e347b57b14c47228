"""The server's limits, in one place: each a setting with a default meant
for a public server, overridable (``create_app(settings=...)``; tests
pass their own).

Rates are `limits <https://limits.readthedocs.io>`_ strings (``"5/hour"``,
several joined by ``;``: each must hold), counted per client address
(IPv6: per /64 network) in a moving window; a request over a rate gets 429
``rate_limited`` with ``retry_after`` (seconds).  The counters live in
``throttle_storage`` (a ``limits`` storage URI: in memory by default; a
shared one such as Redis when several processes serve the same tables).
See ``docs/protocol.md`` ("Limits") for what each refusal looks like.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["DEFAULT_CSP", "ServerSettings"]

DEFAULT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'none'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self' ws: wss:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response: scripts from the
server's own files only (no inline ``<script>``, no event-handler
attributes, no ``eval``), styles from its files only (no ``<style>``
element, the chat's shadow root included: it links ``chat/chat.css``; no
``style=""`` attribute: set styles from scripts through ``element.style``),
WebSockets to the page's own host (``ws:`` or ``wss:``), never framed."""


def _cores() -> int:
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Every limit of the server (sizes in bytes, durations in seconds).

    HTTP and WebSocket:

    - ``max_body_bytes``: the largest request body (413 ``too_large``, told
      by ``Content-Length`` before reading, or counted while it streams);
    - ``max_json_depth``: the deepest nesting of arrays and objects in a
      JSON body or WebSocket message (422 ``invalid`` / ``bad_json``);
    - ``max_url_bytes``: the longest request target, path and query
      (414 ``too_long``; a WebSocket upgrade gets the same 414);
    - ``max_header_bytes``: the request line and headers together (431
      ``too_large``, the connection closed; counted on the whole, whether
      they came in one packet or several);
    - ``header_timeout``: time to send a request's line and headers once
      its first byte came (or once the connection opened): the connection
      is closed past it (slow or idle clients hold no socket);
    - ``keep_alive_timeout``: an idle keep-alive connection is closed after
      it (uvicorn's ``timeout_keep_alive``);
    - ``body_timeout``: time to send a whole body (408 ``timeout``);
    - ``body_grace``: how long a request whose body is still coming
      counts as carrying a request for ``max_connections_per_address``
      (once its line and headers came); past it, the connection may be
      closed to make room for another of its address (a slow upload may
      not hold them all);
    - ``hello_timeout``: a WebSocket without a token in its URL (nor
      ``?watch=1``) must send ``hello`` within it (closed with 4401);
    - ``max_sockets_per_address``: WebSockets (lobby, seats, spectators)
      one client address holds open at once.  One more makes room: the
      address's socket whose holder is not known yet (waiting for
      ``hello``) is closed with 4429 ``too_many_sockets``, the oldest
      first, else the oldest socket of whoever holds the most there (a
      logged-in player; every seat nobody logged in holds, together; or
      every other anonymous socket together); only when
      none can be closed (with several processes: none is served by this
      one) is the new one accepted and closed at once with 4429
      ``too_many_sockets``;
    - ``max_connections_per_address``: TCP connections one peer address
      holds open at once before they become WebSockets (idle, or reading
      or sending a request).  One more makes room: the address's
      connection carrying no request (idle, still sending a request's
      line and headers, or its body past ``body_grace``; one that never
      sent a whole request first, then
      the one quiet for the longest) is closed; only when each carries a
      request is the new one answered 429 ``too_many_connections`` and
      closed at once.  A trusted proxy's address (uvicorn's
      ``forwarded_allow_ips``, ``FORWARDED_ALLOW_IPS``) is not capped: the
      proxy carries everyone's requests;
    - ``socket_close_timeout``: how long a WebSocket the server closes
      (refused, made room for, or any other close) waits for the client's
      answer to the close frame before its connection is dropped, so that
      a refused socket holds no file descriptor longer;
    - ``socket_message_burst``, ``socket_message_rate``: the messages a
      table's WebSocket may send, a token bucket: ``burst`` at once, then
      ``rate`` a second, an action applied giving its token back (the
      game's pace bounds those); a message beyond is not read (the first
      one of a run gets ``error`` ``rate_limited``), and ``socket_message_excess``
      such messages before the bucket refills close the socket (1008
      ``rate_limited``).  A ``sync`` while the snapshot of the last one is
      still waiting to be sent gets no second one (it would say the same);
      a socket holds at most one snapshot not yet sent (a newer one
      replaces it).  The same budget counts the messages a socket sends
      before its ``hello`` (each refused one gets an error), and each lobby
      socket has one too;
    - ``socket_connect_rate``: WebSockets (``/ws/*``) one client address
      may open (a ``limits`` string, per address as the throttles below,
      IPv6 by /64 with its /56 and /48): one more is accepted and closed at
      once with 4429 ``rate_limited``, before any work, so that
      reconnecting does not buy a new message budget;
    - ``lobby_lookup_seconds``: a lobby socket asking to follow a room the
      lobby does not know (``watch_room``) has the database looked up at
      most once per that many seconds (a further one waits its turn).

    Throttles (per client address unless said):

    - ``signup_rate``, ``guest_rate``: account and guest creations;
    - ``solo_table_rate``: ``POST /api/tables`` (per logged-in user, or
      per address when anonymous);
    - ``lobby_table_rate``: ``POST /api/lobby/tables`` (per user);
    - ``table_address_rate``: every table created (solo and lobby), per
      address whoever is logged in, so that new guests from one address do
      not bring new allowances;
    - an IPv6 client is counted by its /64 network, and also by its /56
      and its /48, under ``ipv6_56_factor`` and ``ipv6_48_factor`` times
      the rate (sign-ups, guests, tables, replays): one holder of a /48
      does not get 65,536 allowances;
    - ``global_signup_rate``: a ceiling on accounts over every address
      together, so that many addresses cannot fill the table of accounts
      (high enough for ``rebelote bench server``, which uses guests).
      Guests and tables have no such ceiling: one that many addresses could
      spend together would be a lever, every legitimate player refused for
      an hour (their per-address counts bound them);
    - every creation is checked before it is counted: a request refused
      for what it asks (an unknown preset, a seat the table does not have,
      a name taken, a weak password) spends no allowance;
    - ``replay_rate``: ``GET /api/tables/{id}/replay`` and ``/record``;
      the replays are built in a pool of ``replay_workers`` threads of
      their own (not the one the database's writes use), at most
      ``replay_queue`` more waiting (beyond: 503 ``busy``); the log
      replayed for them is kept for the last tables, up to
      ``replay_cache_deals`` deals in all (about 16 KB each), and the JSON
      built (least recently used out first, ``replay_cache_bytes`` in
      all), while the table's log, status and seats stay the same;
    - ``analysis_rate``: ``GET /api/tables/{id}/analysis`` (the page polls
      it while an analysis runs); the analyses of finished games run in
      ``analysis_workers`` processes of their own (the solver off the
      event loop and off its GIL), at most ``analysis_jobs`` games at once
      (one more: 503 ``busy``); each, once made, is kept in the database;
    - login: attempts are counted (as failures until the right password
      takes them back) per (name, address) pair, per address and per name,
      before the password is checked; past ``login_*_free`` failures each
      further one locks that key for ``login_delay`` seconds doubled at
      each failure, and is the only one checked meanwhile, at most
      ``login_*_cap`` (the name alone: at most ``login_name_cap``, so that
      a stranger can delay an account's owner, never lock him out); a
      count is forgotten ``login_forget_after`` seconds after its first
      failure; a success clears its pair and name; ``login_device_ttl``:
      a browser that logged in to an account (its ``rebelote_device``
      cookie) stays known there for that many seconds after its last
      success, and its attempts at that account are neither counted nor
      refused by its address's key (the pair's and the name's still
      apply);
    - ``password_workers``: argon2 hashes computed at once (each takes
      64 MiB); ``password_queue``: logins and sign-ups waiting for one
      beyond that are refused (503 ``busy``).

    Tables:

    - ``idle_table_seconds``: a table nobody used for that long, with no
      connection, computer player or clock running, leaves memory (it stays
      stored and is reloaded when asked for); checked every
      ``sweep_seconds``;
    - ``presence_interval``: spectators' comings and goings are told to a
      table (its ``room``, with the ``spectators`` count) at most once per
      that many seconds;
    - ``deserted_table_seconds``: an open table (not started) none of whose
      humans has had a connection (table or lobby socket) for that long is
      no longer listed in the lobby, until one of them is back;
    - ``takeover_seconds``: with several processes (a Redis broker), how
      often each looks for live tables whose driver died (their lease
      expired) to take them over (``docs/scale-out.md``);
    - ``claim_heartbeat_seconds``: how often each process marks the
      database's cluster claim as seen (one ``UPDATE``); a claim not seen
      for three times that is stale (:mod:`rebelote.server.claim`).

    Database (:class:`~rebelote.server.storage.tables.Store`):

    - ``db_statement_timeout_ms``: the longest a statement may run
      (PostgreSQL ``statement_timeout``; 0: no limit);
    - ``db_lock_timeout_ms``: the longest a statement waits for a lock held
      by another session (PostgreSQL ``lock_timeout``; SQLite's busy
      timeout, waiting for another writer);
    - ``db_connect_timeout_s``: the longest a new connection may take
      (PostgreSQL ``connect_timeout``, whole seconds, at least 1).

    A statement past one of them fails as any refused write does: the
    action gets ``unavailable`` (REST: 503) and changes nothing, so one
    stuck table or lock holds no request for long.

    ``content_security_policy``: the CSP header of every response.

    Several processes (``docs/scale-out.md``):

    - ``redis_url``: the Redis the processes share (``redis://host:port/db``;
      ``None``: one process, everything in memory).  With it, the broker is
      a :class:`~rebelote.server.broker.RedisBroker`, and the throttles
      (unless ``throttle_storage`` names another shared storage), the chat's
      rate limit and the sockets per address are counted in Redis, so that
      a limit holds whichever process a request reaches;
    - ``redis_prefix``: the prefix of every Redis key and channel (the
      processes sharing tables use the same);
    - ``socket_ttl``: how long a process's count of an open WebSocket
      outlives the process (it is refreshed every third of it; a killed
      process's sockets stop counting after it).
    """

    max_body_bytes: int = 64 * 1024
    max_json_depth: int = 32
    max_url_bytes: int = 8 * 1024
    max_header_bytes: int = 16 * 1024
    header_timeout: float = 10.0
    keep_alive_timeout: int = 5
    body_timeout: float = 30.0
    body_grace: float = 2.0
    hello_timeout: float = 5.0
    max_sockets_per_address: int = 64
    max_connections_per_address: int = 128
    socket_close_timeout: float = 1.0
    socket_message_burst: int = 40
    socket_message_rate: float = 5.0
    socket_message_excess: int = 40
    socket_connect_rate: str = "120/minute"
    lobby_lookup_seconds: float = 2.0

    signup_rate: str = "5/hour"
    guest_rate: str = "10/hour"
    solo_table_rate: str = "10/minute;60/hour"
    lobby_table_rate: str = "5/minute;30/hour"
    table_address_rate: str = "20/minute;120/hour"
    ipv6_56_factor: int = 4
    ipv6_48_factor: int = 16
    global_signup_rate: str = "1000/hour"
    replay_rate: str = "30/minute;300/hour"
    replay_workers: int = 2
    replay_queue: int = 32
    replay_cache_bytes: int = 16 * 1024 * 1024
    replay_cache_deals: int = 2000
    analysis_rate: str = "120/minute;2000/hour"
    analysis_workers: int = 1
    analysis_jobs: int = 4
    login_pair_free: int = 5
    login_address_free: int = 20
    login_name_free: int = 50
    login_delay: float = 1.0
    login_pair_cap: float = 900.0
    login_address_cap: float = 900.0
    login_name_cap: float = 60.0
    login_forget_after: float = 3600.0
    login_device_ttl: float = 90 * 24 * 3600.0
    password_workers: int = field(default_factory=_cores)
    password_queue: int = 64
    throttle_storage: str = "async+memory://"

    idle_table_seconds: float = 600.0
    sweep_seconds: float = 60.0
    presence_interval: float = 1.0
    deserted_table_seconds: float = 300.0
    takeover_seconds: float = 1.0
    claim_heartbeat_seconds: float = 10.0

    db_statement_timeout_ms: int = 10_000
    db_lock_timeout_ms: int = 3_000
    db_connect_timeout_s: int = 5

    content_security_policy: str = DEFAULT_CSP

    redis_url: str | None = None
    redis_prefix: str = "rb:"
    socket_ttl: float = 30.0

    @property
    def throttle_uri(self) -> str:
        """The ``limits`` storage of the throttles: ``throttle_storage``, or,
        when it is left in memory and ``redis_url`` is set, that Redis
        (``async+redis://...``)."""
        if self.redis_url and self.throttle_storage == "async+memory://":
            return f"async+{self.redis_url}"
        return self.throttle_storage

    def but(self, **changes: Any) -> ServerSettings:
        """A copy with ``changes`` (e.g. ``settings.but(signup_rate="1/minute")``)."""
        return replace(self, **changes)
