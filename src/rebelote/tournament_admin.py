"""The admin's commands: ``rebelote tournament create | list | cancel``
(``docs/tournaments.md`` "Scheduling").

Whoever may run them against the server's database (``--db URL``, else
``DATABASE_URL``, else the default SQLite file) is the admin: the commands
write to the database directly, and every server process using it picks
the change up within a second.  Nobody is admin through the web.

Exit status: 0 on success, 2 for bad input or an unknown tournament.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from typing import Annotated, Any, NoReturn

import typer

__all__ = ["parse_starts_at", "tournament_app"]

EXIT_BAD_INPUT = 2

tournament_app = typer.Typer(
    help="Tournaments: schedule, list, cancel (the admin's commands).", no_args_is_help=True
)

DbOption = Annotated[
    str | None,
    typer.Option(help="Database URL (default: DATABASE_URL, else the server's SQLite file)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(EXIT_BAD_INPUT)


def parse_starts_at(text: str) -> float:
    """An ISO 8601 date and time (``2026-12-24T20:00``, ``...Z``,
    ``...+01:00``; without an offset: UTC) as Unix seconds.  Raises
    ``ValueError``."""
    at = datetime.fromisoformat(text.strip())
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.timestamp()


def _tournaments(db: str | None) -> Any:
    from rebelote.server.storage.tables import Store, default_database_url
    from rebelote.server.storage.tournaments import TournamentStore

    store = Store(db or default_database_url())
    store.migrate()
    return TournamentStore(store)


@tournament_app.command("create")
def create(
    kind: Annotated[str, typer.Option(help="swiss or arena.")],
    name: Annotated[str, typer.Option(help="The tournament's name (1 to 60 characters).")],
    starts_at: Annotated[
        str, typer.Option(help="Start, ISO 8601 (2026-12-24T20:00Z; no offset: UTC).")
    ],
    preset: Annotated[str, typer.Option(help="Rules preset (a four-player one).")] = "seed002",
    rounds: Annotated[int | None, typer.Option(help="Swiss: rounds (1 to 20).")] = None,
    minutes: Annotated[int | None, typer.Option(help="Arena: minutes (1 to 1440).")] = None,
    target: Annotated[
        int | None, typer.Option(help="Each match's target score (default: the preset's).")
    ] = None,
    level: Annotated[str, typer.Option(help="The computers' level in empty seats.")] = (
        "intermediate"
    ),
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Schedule a tournament, open for registration until it starts."""
    import time

    from rebelote.rules import PRESETS
    from rebelote.server.protocol.messages import BOT_LEVELS

    clean = " ".join(name.split())
    if not 1 <= len(clean) <= 60:
        _fail("--name: 1 to 60 characters")
    if kind == "swiss":
        if rounds is None or not 1 <= rounds <= 20 or minutes is not None:
            _fail("a swiss tournament needs --rounds 1 to 20 (and no --minutes)")
    elif kind == "arena":
        if minutes is None or not 1 <= minutes <= 1440 or rounds is not None:
            _fail("an arena needs --minutes 1 to 1440 (and no --rounds)")
    else:
        _fail("--kind: swiss or arena")
    rules = PRESETS.get(preset)
    if rules is None or rules.players != 4:
        four = ", ".join(k for k, r in PRESETS.items() if r.players == 4)
        _fail(f"--preset: one of {four}")
    if target is not None and not 1 <= target <= 100000:
        _fail("--target: 1 to 100000")
    if level not in BOT_LEVELS:
        _fail(f"--level: one of {', '.join(BOT_LEVELS)}")
    try:
        at = parse_starts_at(starts_at)
    except ValueError:
        _fail("--starts-at: an ISO 8601 date and time, e.g. 2026-12-24T20:00Z")
    now = time.time()
    if at <= now:
        _fail(f"--starts-at: {_iso(at)} is in the past (now {_iso(now)}): give a time to come")
    store = _tournaments(db)
    try:
        number = store.create(
            name=clean,
            kind=kind,
            preset=preset,
            target=target,
            level=level,
            rounds=rounds,
            minutes=minutes,
            starts_at=at,
            now=now,
        )
    finally:
        store.store.close()
    if as_json:
        print(json.dumps({"id": number}))
    else:
        print(f"tournament {number} created: {kind} {clean!r}, starts {_iso(at)}")


def _iso(at: float) -> str:
    from rebelote.server.tournaments.runner import iso

    return str(iso(at))


@tournament_app.command("list")
def list_command(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every tournament, by start time."""
    store = _tournaments(db)
    try:
        rows = store.all()
    finally:
        store.store.close()
    items = [
        {
            "id": t.id,
            "name": t.name,
            "kind": t.kind,
            "status": t.status,
            "starts_at": _iso(t.starts_at),
            "round": t.round,
            "rounds": t.rounds,
            "minutes": t.minutes,
            "entrants": t.entrants,
        }
        for t in rows
    ]
    if as_json:
        print(json.dumps(items, ensure_ascii=False))
        return
    for t in items:
        length = f"{t['rounds']} rounds" if t["kind"] == "swiss" else f"{t['minutes']} min"
        print(
            f"{t['id']:>4}  {t['status']:<9} {t['kind']:<5} {t['starts_at']}  {length:<9} "
            f"{t['entrants']:>3} entrants  {t['name']}"
        )


@tournament_app.command("cancel")
def cancel(
    tournament_id: Annotated[int, typer.Argument(help="The tournament's id.")],
    db: DbOption = None,
) -> None:
    """Cancel a tournament not finished (its tables already playing go on,
    unscored)."""
    import time

    store = _tournaments(db)
    try:
        if store.get(tournament_id) is None:
            _fail(f"no tournament {tournament_id}")
        done = store.set_status(
            tournament_id, was=["open", "running"], status="cancelled", now=time.time()
        )
    finally:
        store.store.close()
    if not done:
        _fail(f"tournament {tournament_id} is already over")
    print(f"tournament {tournament_id} cancelled")
