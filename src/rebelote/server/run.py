"""Running the server: what ``rebelote play`` does.

:func:`serve` binds the socket first (a free port when none is given, so the
URL is known before the server starts), prints the URL, opens the default
browser when the machine has a graphical one, and runs uvicorn until
interrupted.  The database is upgraded to the latest schema on start.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable

__all__ = ["bind", "browser_available", "serve"]

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


def url_of(sock: socket.socket) -> str:
    """The ``http://host:port/`` URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve(
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    database_url: str | None = None,
    open_browser: bool = True,
    bot_delay: float | None = None,
    echo: Callable[[str], None] = print,
    lobby: bool = False,
) -> None:
    """Serve the game until interrupted (Ctrl-C).  ``echo`` receives the
    lines to show (the URL first; with ``lobby``, the lobby's URL next).
    Raises ``OSError`` when the port cannot be bound."""
    import uvicorn

    from .app import create_app
    from .storage import default_database_url

    url_db = database_url or default_database_url()
    sock = bind(host, port)
    url = url_of(sock)
    app = create_app(url_db, bot_delay=bot_delay, warm_solver=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        ws_max_size=WS_MAX_SIZE,
        # small JSON messages: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
        access_log=False,
    )
    server = uvicorn.Server(config)
    echo(f"rebelote is serving at {url}")
    if lobby:
        echo(f"lobby: {url}lobby.html (accounts, tables, chat, leaderboard)")
    echo(f"games are stored in {_show_db(url_db)}; press Ctrl-C to stop")
    if open_browser and browser_available():

        def opener() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                webbrowser.open(url)

        threading.Thread(target=opener, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def _show_db(url: str) -> str:
    """The database URL without its password."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
