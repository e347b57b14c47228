"""Logging of the server: configured by default (``rebelote serve
--log-level LEVEL [--log-json]``), so that server errors are seen.

Every line goes to standard error, as text (``time level logger:
message``) or as JSON lines (``{"time", "level", "logger", "message"}``
plus ``exc`` with the traceback), and never holds a secret: the values of
``token`` and ``invite`` in a query string (:data:`SECRET_PARAMS`, their
names percent-encoded or not, in any case) are replaced by ``REDACTED`` in
every message, uvicorn's access log (one line per request or WebSocket,
at ``info``) included.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any
from urllib.parse import unquote_plus

__all__ = [
    "LOG_LEVELS",
    "SECRET_PARAMS",
    "JsonFormatter",
    "Redact",
    "Repeats",
    "log_config",
    "redact",
]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
"""The levels ``--log-level`` takes."""

SECRET_PARAMS = ("token", "invite")
"""Query parameters whose values never reach a log."""

_PARAM = re.compile(r"""(?:[?&;]|%26|%3[bBfF])((?:[^=&;?\s"'%]|%[0-9A-Fa-f]{2})+)(?:=|%3[dD])""")
"""A query parameter's name and its ``=``, after ``?``, ``&`` or ``;``,
any of them percent-encoded or not."""

_VALUE_END = re.compile(r"""&|%26|[\s"']""")


def _secret_name(name: str) -> bool:
    """Whether a parameter's name, percent-decoded (up to three times),
    case folded, is one of :data:`SECRET_PARAMS`."""
    for _ in range(3):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return name.strip().casefold() in SECRET_PARAMS


def redact(text: str) -> str:
    """``text`` with the values of :data:`SECRET_PARAMS` in any query string
    replaced by ``REDACTED``: their names are matched once percent-decoded
    and case folded (``%74oken=``, ``TOKEN=``, ``tok%65n%3D``), after a
    separator encoded or not (``%26token%3D``)."""
    out: list[str] = []
    done = 0
    for match in _PARAM.finditer(text):
        if match.start() < done or not _secret_name(match.group(1)):
            continue
        end = _VALUE_END.search(text, match.end())
        stop = len(text) if end is None else end.start()
        out += [text[done : match.end()], "REDACTED"]
        done = stop
    return "".join(out) + text[done:] if out else text


class Redact(logging.Filter):
    """A handler filter: the record's message, arguments merged, redacted
    (:func:`redact`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message; never drops a record."""
        try:
            message = record.getMessage()
        except Exception:  # pragma: no cover - a bad format: leave it to logging
            return True
        clean = redact(message)
        if clean != message or record.args:
            record.msg, record.args = clean, ()
        return True


class Repeats(logging.Filter):
    """A logger filter: the same message (its first line) at most once per
    ``interval`` seconds; the next one let through says how many were left
    out meanwhile.  On the ``asyncio`` logger: when the process has no file
    descriptor left, asyncio logs every failed ``accept()`` with its
    traceback (thousands a second; 188 MB in two minutes)."""

    KEYS = 1024
    """Messages remembered at most (all forgotten beyond)."""

    def __init__(self, interval: float = 10.0, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged (its message then tells the ones
        left out since the last one logged)."""
        try:
            key = record.getMessage().split("\n", 1)[0][:200]
        except Exception:  # pragma: no cover - a bad format: leave it to logging
            return True
        now = self.clock()
        last = self._seen.get(key)
        if last is not None and now - last[0] < self.interval:
            self._seen[key] = (last[0], last[1] + 1)
            return False
        if len(self._seen) >= self.KEYS:
            self._seen.clear()
        self._seen[key] = (now, 0)
        if last is not None and last[1]:
            record.msg = (
                f"{record.getMessage()}\n({last[1]} more like it in the last "
                f"{now - last[0]:.0f} s not logged)"
            )
            record.args = ()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC), ``level``,
    ``logger``, ``message``, and ``exc`` (the traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        """The JSON line of ``record``."""
        data: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            data["exc"] = record.exc_text
        return json.dumps(data, ensure_ascii=False)


def log_config(level: str = "info", *, as_json: bool = False) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of the server (give it to uvicorn
    as ``log_config``): the root logger, ``rebelote`` and uvicorn's loggers
    at ``level`` (one of :data:`LOG_LEVELS`) to standard error, redacted;
    uvicorn's access log at ``info`` only when ``level`` is ``info`` or
    ``debug``; Alembic's below ``warning`` only at ``debug``; asyncio's
    repeated messages at most once per 10 s (:class:`Repeats`).  Raises
    ``ValueError`` for an unknown level."""
    if level not in LOG_LEVELS:
        raise ValueError(f"unknown log level {level!r}: use one of {', '.join(LOG_LEVELS)}")
    upper = level.upper()
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"}
        if as_json
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "redact": {"()": f"{__name__}.Redact"},
            "repeats": {"()": f"{__name__}.Repeats"},
        },
        "formatters": {"main": formatter},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "main",
                "filters": ["redact"],
            }
        },
        "root": {"handlers": ["main"], "level": upper},
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {"handlers": ["main"], "level": upper, "propagate": False},
            # a failed accept() (no file descriptor left) once per 10 s, not
            # thousands of times a second
            "asyncio": {"filters": ["repeats"]},
            # the migrations' set-up chatter, a dozen lines at every start
            "alembic": {"level": "DEBUG" if level == "debug" else "WARNING"},
        },
    }
