"""Running the server: what ``rebelote play`` and ``rebelote serve`` do.

:func:`serve` binds the socket first (a free port when none is given, so the
URL is known before the server starts), prints the URL, opens the default
browser when the machine has a graphical one, and runs uvicorn until
interrupted.  The database is upgraded to the latest schema on start, and
the soft limit of open files raised to the hard one
(:func:`raise_open_files`).

:func:`serve_workers` starts several ``rebelote serve`` processes on
consecutive ports, sharing the tables through Redis (``--workers N``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn

    from rebelote.server.settings import ServerSettings
    from rebelote.server.tables.bots import WarmSolver

__all__ = [
    "bind",
    "browser_available",
    "check_claim",
    "raise_open_files",
    "serve",
    "serve_workers",
    "uvicorn_config",
]

WS_MAX_SIZE = 64 * 1024
"""The largest WebSocket frame uvicorn accepts; the protocol's own limit
(4 KiB) is checked inside, with an ``error`` answer."""


def bind(host: str, port: int | None) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (a free port when ``port``
    is ``None`` or 0).  Raises ``OSError`` (e.g. the port is taken)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port or 0))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def browser_available() -> bool:
    """Whether opening a browser makes sense here: always on macOS and
    Windows; elsewhere only under a graphical session (``DISPLAY`` or
    ``WAYLAND_DISPLAY``), so that a server never starts a text browser in
    its own terminal."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def raise_open_files() -> tuple[int, int] | None:
    """Raise this process's soft limit of open files (``RLIMIT_NOFILE``)
    to its hard limit (where the hard limit is unlimited: to the highest
    of 1,048,576, 65,536 and 10,240 the system takes), so that the server
    does not run out of file descriptors at the usual soft limit of 1,024
    (each connection holds one).  Returns the soft limit before and after,
    or ``None`` where there is no such limit (Windows)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else [1_048_576, 65_536, 10_240]
    for target in wanted:
        if soft != resource.RLIM_INFINITY and target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            continue
        return soft, target
    return soft, soft


def url_of(sock: socket.socket) -> str:
    """The ``http://host:port/`` URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def uvicorn_config(
    app: Any,
    settings: ServerSettings,
    *,
    log_level: str = "warning",
    log_json: bool = False,
    configure_logging: bool = True,
) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` under ``settings``: the guarded
    h11 protocol (:func:`~rebelote.server.api.guard.guarded_h11`: header-read
    timeout, URL limit on WebSocket upgrades, connections per address),
    the guarded WebSocket protocol (:func:`~rebelote.server.api.guard.guarded_ws`:
    a short close handshake), the keep-alive timeout, the
    header size limit, the WebSocket frame limit; logging at ``log_level``
    (:func:`~rebelote.server.logs.log_config`, JSON lines with
    ``log_json``), left alone when not ``configure_logging`` (tests).
    Raises ``ValueError`` for an unknown level."""
    import uvicorn

    from rebelote.server.api.guard import guarded_h11, guarded_ws
    from rebelote.server.logs import log_config

    logging_config = log_config(log_level, as_json=log_json) if configure_logging else None
    return uvicorn.Config(
        app,
        http=guarded_h11(settings),
        ws=guarded_ws(settings),
        log_config=logging_config,
        log_level=log_level if configure_logging else None,
        lifespan="on",
        ws_max_size=WS_MAX_SIZE,
        # small JSON messages: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
        access_log=log_level in ("info", "debug"),
        timeout_keep_alive=settings.keep_alive_timeout,
        h11_max_incomplete_event_size=settings.max_header_bytes,
    )


def serve(
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    database_url: str | None = None,
    open_browser: bool = True,
    bot_delay: float | None = None,
    echo: Callable[[str], None] = print,
    lobby: bool = False,
    log_level: str = "warning",
    log_json: bool = False,
    settings: ServerSettings | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "rb:",
    warm_solver: bool = True,
) -> None:
    """Serve the game until interrupted (Ctrl-C).  ``echo`` receives the
    lines to show (the URL first; with ``lobby``, the lobby's URL next).
    ``log_level`` / ``log_json``: see :func:`uvicorn_config`;
    ``settings``: the limits (default :class:`ServerSettings`);
    ``redis_url`` / ``redis_prefix``: share the tables with the other
    processes on that Redis (``docs/scale-out.md``); ``warm_solver``: compile the
    expert's kernel in the background (see
    :func:`~rebelote.server.app.create_app`; ``False``: never).  Raises ``OSError`` when the
    port cannot be bound, ``ValueError`` for an unknown log level,
    :class:`~rebelote.server.claim.ClusterClaimed` when another cluster
    drives the database's tables (:func:`check_claim`)."""
    import uvicorn

    from rebelote.server.app import create_app
    from rebelote.server.settings import ServerSettings
    from rebelote.server.storage.tables import default_database_url

    settings = settings or ServerSettings()
    url_db = database_url or default_database_url()
    # refused before the app is made (a clear error, no server started)
    # when another cluster drives this database's tables
    check_claim(url_db, redis_url, redis_prefix, settings)
    # the solver's warm-up (``warm_solver``): ``rebelote serve`` (the lobby)
    # once a table seats an expert; ``play`` at start (its player soon
    # picks opponents)
    warm: WarmSolver = "off" if not warm_solver else "experts" if lobby else "start"
    app = create_app(
        url_db,
        bot_delay=bot_delay,
        warm_solver=warm,
        settings=settings,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
    )
    config = uvicorn_config(app, settings, log_level=log_level, log_json=log_json)
    files = raise_open_files()
    if files is not None:
        logging.getLogger(__name__).info("open files: at most %d (was %d)", files[1], files[0])
    sock = bind(host, port)
    url = url_of(sock)
    server = uvicorn.Server(config)
    echo(f"rebelote is serving at {url}")
    if lobby:
        echo(f"lobby: {url}lobby.html (accounts, tables, chat, leaderboard)")
    echo(f"games are stored in {_show_db(url_db)}; press Ctrl-C to stop")
    if redis_url:
        echo(f"tables shared through Redis at {_show_db(redis_url)} (keys {redis_prefix}*)")
    if open_browser and browser_available():

        def opener() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=opener, daemon=True).start()
    try:
        with _stop_on_hangup(server):
            server.run(sockets=[sock])
    finally:
        sock.close()


def check_claim(
    database_url: str, redis_url: str | None, redis_prefix: str, settings: ServerSettings
) -> None:
    """Upgrade the database and claim it for the cluster of ``redis_url``
    and ``redis_prefix`` (none: a process without Redis), before any
    process starts (:func:`rebelote.server.claim.claim_database`); with
    Redis, Redis is reached first (one ``PING``), so that a process that
    cannot start never claims.  Raises
    :class:`~rebelote.server.claim.ClusterClaimed` when another cluster's
    claim is fresh, :class:`~rebelote.server.broker.BrokerUnavailable`
    when Redis cannot be reached (nothing claimed)."""
    from rebelote.server.claim import claim_database
    from rebelote.server.storage.tables import Store

    if redis_url:
        ping_redis(redis_url)

    store = Store(database_url, settings=settings)
    try:
        store.migrate()
        claim_database(store, redis_url, redis_prefix, settings)
    finally:
        store.close()


def ping_redis(redis_url: str) -> None:
    """Reach the Redis at ``redis_url`` (one ``PING``, at most
    ``REDIS_TIMEOUT`` seconds).  Raises
    :class:`~rebelote.server.broker.BrokerUnavailable` (its message says
    where, never a password) when it cannot be reached."""
    import redis as sync_redis
    from redis.exceptions import RedisError

    from rebelote.server.broker.redis import REDIS_TIMEOUT
    from rebelote.server.claim import redis_unreachable

    client = sync_redis.Redis.from_url(
        redis_url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )
    try:
        client.ping()
    except (RedisError, OSError) as exc:
        raise redis_unreachable(redis_url, exc) from None
    finally:
        client.close()


def _show_db(url: str) -> str:
    """The database URL without its password."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


RESTART_PAUSE = 0.5
"""Seconds before a stopped worker is started again, doubled after each
fast crash in a row (up to :data:`RESTART_PAUSE_MAX`)."""

RESTART_PAUSE_MAX = 10.0
"""The longest pause before a worker is started again (seconds)."""

FAST_CRASH_SECONDS = 30.0
"""A worker that stops within so many seconds of its start crashed fast;
one that ran longer starts again after :data:`RESTART_PAUSE`."""

FAST_CRASHES = 5
"""Fast crashes in a row after which :func:`serve_workers` gives up (stops
every worker): the process cannot start (a port taken, a bad setting)."""


STOP_SIGNALS = (
    signal.SIGINT,
    signal.SIGTERM,
    *((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()),
)
"""The signals that stop :func:`serve_workers` and its workers: Ctrl-C
(``SIGINT``), ``SIGTERM`` (``kill``, ``docker stop``, systemd) and
``SIGHUP`` (the terminal or SSH session closed)."""


@contextlib.contextmanager
def _stop_on_hangup(server: Any) -> Iterator[None]:
    """While in the block, ``SIGHUP`` (the terminal or SSH session
    closed) stops the uvicorn ``server`` in order, as ``SIGTERM`` does
    (uvicorn handles only ``SIGINT`` and ``SIGTERM``; Python's default
    would end the process at once, its tables' leases left to expire).
    Nothing is set off the main thread or without ``SIGHUP``."""
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(hangup, server.handle_exit)
    try:
        yield
    finally:
        signal.signal(hangup, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _catch_stop_signals() -> dict[int, Any] | None:
    """Make each of :data:`STOP_SIGNALS` raise :exc:`KeyboardInterrupt` in
    the main thread, and return the previous handlers (``None`` off the
    main thread, where handlers cannot be set: nothing changed).

    Set explicitly because a process started in the background of a
    non-interactive shell (``rebelote serve --workers 2 &`` in a script, a
    test run) inherits ``SIGINT`` ignored, and Python then installs no
    Ctrl-C handler: the supervisor would never stop, only its workers
    (uvicorn sets its own handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return {signum: signal.signal(signum, _interrupt) for signum in STOP_SIGNALS}


def _ignore_stop_signals(previous: dict[int, Any] | None) -> None:
    """While the workers stop: :data:`STOP_SIGNALS` ignored if they were
    caught by :func:`_catch_stop_signals` (whose ``previous`` handlers
    :func:`_restore_signals` puts back afterwards)."""
    if previous is not None:
        for signum in previous:
            signal.signal(signum, signal.SIG_IGN)


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent dies."""


def _stop_with_parent(parent: int) -> None:
    """In a worker, between ``fork`` and ``exec``: get ``SIGTERM`` when the
    supervisor dies (killed with ``SIGKILL``, it could not stop its
    workers, which would keep their ports and leases).  Linux only (elsewhere
    nothing is done); a supervisor already dead by then: the worker stops."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _restore_signals(previous: dict[int, Any] | None) -> None:
    if previous is not None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def serve_workers(
    workers: int,
    args: list[str],
    *,
    host: str,
    port: int,
    database_url: str | None,
    redis_url: str | None = None,
    redis_prefix: str = "rb:",
    echo: Callable[[str], None] = print,
) -> int:
    """Run ``workers`` ``rebelote serve`` processes on consecutive ports
    (``port``, ``port + 1``, ...), each with the command-line ``args``
    (``--redis`` among them: they share their tables), until interrupted
    (Ctrl-C, ``SIGTERM`` or ``SIGHUP``, even when started with ``SIGINT`` ignored:
    every worker is stopped, ``SIGTERM`` then ``SIGKILL`` after 20 s;
    returns 0).  On Linux a worker gets ``SIGTERM`` when the supervisor
    dies, even by ``SIGKILL``.  A worker that stops (killed,
    crashed) is started again on its port after :data:`RESTART_PAUSE` s
    (doubled after each fast crash in a row, up to
    :data:`RESTART_PAUSE_MAX`); meanwhile the others take its tables over.
    After :data:`FAST_CRASHES` crashes in a row each within
    :data:`FAST_CRASH_SECONDS` of its start, it gives up: every worker is
    stopped and the last exit status returned.  The database is upgraded
    once first, so that the processes do not race to create it, and
    claimed for ``redis_url`` and ``redis_prefix`` (the workers' own, in
    ``args``; :func:`check_claim`: raises
    :class:`~rebelote.server.claim.ClusterClaimed` when another cluster
    drives it, no worker started).  Put a load balancer in front (any: no
    sticky sessions needed)."""
    from rebelote.server.settings import ServerSettings
    from rebelote.server.storage.tables import default_database_url

    url = database_url or default_database_url()
    check_claim(url, redis_url, redis_prefix, ServerSettings())

    def start(k: int) -> subprocess.Popen[bytes]:
        command = [
            sys.executable,
            "-m",
            "rebelote",
            "serve",
            "--host",
            host,
            "--port",
            str(port + k),
            "--db",
            url,
            *args,
        ]
        supervisor = os.getpid()
        return subprocess.Popen(command, preexec_fn=lambda: _stop_with_parent(supervisor))

    procs: list[subprocess.Popen[bytes] | None] = []
    started: list[float] = []
    crashes = [0] * workers
    restart_at: dict[int, float] = {}
    previous = _catch_stop_signals()
    try:
        for k in range(workers):
            procs.append(start(k))
            started.append(time.monotonic())
        echo(f"{workers} processes on ports {port}-{port + workers - 1}; press Ctrl-C to stop")
        while True:
            now = time.monotonic()
            for k, proc in enumerate(procs):
                if proc is None:
                    if now >= restart_at[k]:
                        del restart_at[k]
                        procs[k] = start(k)
                        started[k] = now
                    continue
                rc = proc.poll()
                if rc is None:
                    continue
                procs[k] = None
                crashes[k] = crashes[k] + 1 if now - started[k] < FAST_CRASH_SECONDS else 0
                if crashes[k] >= FAST_CRASHES:
                    echo(
                        f"the process on port {port + k} stopped ({rc}) {crashes[k]} times "
                        "in a row soon after its start: stopping every process"
                    )
                    return rc or 1
                pause = min(RESTART_PAUSE * 2 ** max(crashes[k] - 1, 0), RESTART_PAUSE_MAX)
                restart_at[k] = now + pause
                echo(
                    f"the process on port {port + k} stopped ({rc}); "
                    f"starting it again in {pause:g} s"
                )
            time.sleep(0.2)
    except KeyboardInterrupt:
        return 0
    finally:
        # the workers' own stop is under way: a second signal must not cut
        # it short and leave them running without their supervisor
        _ignore_stop_signals(previous)
        running = [proc for proc in procs if proc is not None]
        for proc in running:
            if proc.poll() is None:
                # SIGTERM: a worker that got the terminal's SIGINT too (the
                # same process group) or systemd's SIGTERM still stops in
                # order (uvicorn cuts its stop short on a second SIGINT)
                proc.send_signal(signal.SIGTERM)
        for proc in running:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        _restore_signals(previous)
