"""How deep a JSON text nests, found before parsing it: Python's parser
recurses once per level and raises ``RecursionError`` near 1,000 levels,
so that a small body or WebSocket message of ``[[[[...`` must be refused
before it is parsed (REST: 422 ``invalid``; WebSocket: ``bad_json``)."""

from __future__ import annotations

import re

__all__ = ["json_too_deep"]

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_OPEN = frozenset(b"[{")
_CLOSE = frozenset(b"]}")


def json_too_deep(raw: str | bytes, limit: int) -> bool:
    """Whether the JSON text ``raw`` nests arrays and objects more than
    ``limit`` deep (strings skipped; an invalid text is judged the same
    way, its parser refuses it afterwards).  Linear in the size."""
    data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    depth = 0
    for byte in _STRING.sub(b"", data):
        if byte in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif byte in _CLOSE:
            depth -= 1
    return False
