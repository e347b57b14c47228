"""Summarise a py-spy profile of ``rebelote serve`` (``py-spy record --format
raw``: one line per stack, ``frame;frame;... COUNT``) as percentages of the
samples: grouped by what the server was doing, then by function
(inclusive: the function anywhere on the stack) and by package (self: the
innermost frame).

    uv run python benchmarks/pyspy_summary.py PROFILE.txt [--top 25]

Each sample goes to the first group whose frame pattern it holds, in the
order of ``GROUPS``.  Used for benchmarks/SERVER.md ("Profile of one
process (issue 14)").
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

GROUPS: list[tuple[str, tuple[str, ...]]] = [
    (
        "storage: the log's writes (before issue 14: Store.append, an ORM transaction "
        "per action in a worker thread; since: the log writer thread, SQLAlchemy Core, "
        "one transaction per batch)",
        ("Store.append (", "_Shard.run (", "LogWriter.write_batch ("),
    ),
    (
        "thread hand-off (executor queue, futures; the log writer's queue)",
        (
            "concurrent/futures",
            "to_thread",
            "LogWriter.write (",
            "LogWriter._hand_over (",
            "_resolve (rebelote/server/storage/writer.py",
        ),
    ),
    ("storage: other (worker thread)", ("rebelote/server/storage.py", "rebelote/server/storage/")),
    ("leak scan: check_visible, check_wire", ("check_visible (", "check_wire (")),
    (
        "turn messages: TableGame._turn (turn data per seat, views, pydantic; since "
        "issue 14 once per viewer class)",
        ("TableGame._turn (", "TableGame.turn (", "TableGame._turn_wire ("),
    ),
    (
        "event data and views per seat (TableGame._apply_act: observe, event_data; since "
        "issue 14 event_wire, once per viewer class)",
        (
            "observe (",
            "public_view (",
            "event_data (",
            "event_wire (",
            "TableGame._apply_act.<locals>",
        ),
    ),
    (
        "fan-out: Table.publish (envelope, JSON per seat, hub, queues)",
        ("Table.publish (",),
    ),
    ("rules engine (state, legality)", ("TableGame._apply_act (", "TableGame.apply (")),
    (
        "rest of Table.act (request checks, legality, lock, Room.changed)",
        ("Table.act (", "Table._commit ("),
    ),
    ("socket writes (_Outbox.run, websocket frames)", ("_Outbox.run (",)),
    ("socket reads and parsing (_receive_loop)", ("_Connection._receive_loop (",)),
    ("bots and table driving (Table._drive)", ("Table._drive (",)),
    ("HTTP requests", ("http_impl.py", "h11_impl.py", "httptools_impl.py")),
    ("event loop and other", ("",)),
]

_LINE = re.compile(r":\d+\)$")

WRAPPERS = (
    "rebelote/cli.py",
    "rebelote/__main__.py",
    "rebelote/server/run.py",
    "rebelote/server/guard.py",
    "rebelote/server/app.py",
    "serve_socket (",
    "_Connection.run (",
    "_Connection._serve (",
)
"""Frames on (nearly) every stack of the event loop: left out of the list
by function."""


def _read(path: str) -> list[tuple[list[str], int]]:
    samples = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, count = line.rsplit(" ", 1)
            samples.append(([_LINE.sub(")", fr) for fr in stack.split(";")], int(count)))
    return samples


def _package(frame: str) -> str:
    m = re.search(r"\(([^)]*)\)$", frame)
    where = m.group(1) if m else frame
    if where.startswith("rebelote/"):
        return where.rsplit(".", 1)[0].replace("/", ".")
    if where.startswith("<"):
        return "generated (dataclasses, sqlalchemy)"
    return where.split("/", 1)[0].removesuffix(".py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    samples = _read(args.profile)
    total = sum(n for _, n in samples)
    groups: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    self_by_package: Counter[str] = Counter()
    for frames, n in samples:
        text = ";".join(frames)
        for label, patterns in GROUPS:
            if any(p in text for p in patterns):
                groups[label] += n
                break
        for fr in set(frames):
            if any(w in fr for w in WRAPPERS):
                continue
            if "rebelote/" in fr or "Session.execute (" in fr or "dumps (json" in fr:
                inclusive[fr] += n
        self_by_package[_package(frames[-1])] += n
    print(f"samples: {total}")
    print("\n| group | % of samples |\n| --- | --- |")
    for label, _ in GROUPS:
        if groups[label]:
            print(f"| {label} | {100 * groups[label] / total:.1f} |")
    print("\n| function (inclusive) | % of samples |\n| --- | --- |")
    for fr, n in inclusive.most_common(args.top):
        print(f"| `{fr}` | {100 * n / total:.1f} |")
    print("\n| package (self) | % of samples |\n| --- | --- |")
    for pkg, n in self_by_package.most_common(12):
        print(f"| {pkg} | {100 * n / total:.1f} |")


if __name__ == "__main__":
    main()
