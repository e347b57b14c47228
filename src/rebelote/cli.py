"""The ``rebelote`` command.

Commands: ``play`` (the browser table: a match against computer players),
``serve`` (the multi-table server for network play, with the lobby),
``hint FILE --seat S --after N`` (the expert's value of each legal action),
``verify FILE`` (a server's record against its deals' commitments),
``analyse FILE`` (the double-dummy cost of every card, the expert's bids),
``demo`` (a deal by random legal moves, trick by trick), ``rules``
(the presets and their options), ``replay FILE [--json]`` (records of format 1
or 2), ``record --seed N [--events]`` (format 2),
``bench engine``, ``arena`` (duplicate boards between two bot levels),
``tournament create | list | cancel`` (the admin's, ``docs/tournaments.md``).
Modules are imported inside each command so that the command starts fast.

Exit status: 0 on success, 2 for a malformed or illegal record or bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperOption

from .tournament_admin import tournament_app

if TYPE_CHECKING:
    from .seats import Seat

app = typer.Typer(
    name="rebelote",
    help="Belote: rules engine, records and tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench_app = typer.Typer(help="Benchmarks (figures per core).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(tournament_app, name="tournament")

EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 3
"""A service the command needs (Redis) cannot be reached."""


def _fail(payload: dict[str, Any], as_json: bool) -> NoReturn:
    """Print an error (the JSON object on stdout, a readable line on stderr)
    and exit with status 2."""
    print(json.dumps(payload, ensure_ascii=False))
    print(f"error: {payload.get('message', payload)}", file=sys.stderr)
    raise typer.Exit(EXIT_BAD_INPUT)


def _read_record(file: str, as_json: bool) -> Any:
    """The JSON value in ``file`` (``-``: stdin), for the commands that read
    a record; exits with status 2 and a JSON error if the file cannot be
    read, is not UTF-8 text, is not JSON, or is nested too deeply to parse."""
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        text = raw.decode("utf-8")
    except OSError as exc:
        _fail({"error": "cannot read file", "message": str(exc)}, as_json)
    except UnicodeDecodeError as exc:
        _fail({"error": "malformed record", "message": f"not UTF-8 text: {exc}"}, as_json)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        _fail({"error": "malformed record", "message": f"not JSON: {exc}"}, as_json)
    except RecursionError:
        _fail({"error": "malformed record", "message": "JSON nested too deeply"}, as_json)
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        _fail({"error": "malformed record", "message": f"not JSON we can read: {exc}"}, as_json)


def _rules_or_exit(name: str, as_json: bool | None = None) -> Any:
    """The preset ``name`` (any case), or exit with status 2: the JSON error
    and a readable line (``as_json`` ``None``, the commands' usual form), the
    JSON error alone on stdout (``True``) or the readable line alone on
    stderr (``False``, a human form)."""
    from .rules import RulesError, preset

    try:
        return preset(name)
    except RulesError as exc:
        payload = {"error": "unknown preset", "message": str(exc)}
        if as_json is None:
            _fail(payload, False)
        if as_json:
            print(json.dumps(payload, ensure_ascii=False))
        else:
            print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None


def _sides(values: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items())


def format_deal(summary: dict[str, Any]) -> list[str]:
    """Readable lines for one deal summary (see :func:`rebelote.record.deal_summary`)."""
    lines = [f"Dealer {summary['dealer']}; bids: {' '.join(summary['bids']) or '(none)'}"]
    if summary["taker"] is None:
        if summary["result"] == "passed":
            lines.append("All passed: no deal.")
        else:
            lines.append("The auction is not over.")
        return lines
    contract = summary["contract"] or summary["trump"]
    mult = {2: " coinche", 4: " surcoinche"}.get(summary["multiplier"], "")
    lines.append(f"Contract: {contract}{mult} by {summary['taker']}")
    for number, trick in enumerate(summary["tricks"], start=1):
        seats = {4: "NWSE", 3: "WSE", 2: "WS"}[len(trick["cards"])]
        start = seats.index(trick["leader"])
        order = [seats[(start + i) % len(seats)] for i in range(len(trick["cards"]))]
        played = "  ".join(f"{s} {c:>3}" for s, c in zip(order, trick["cards"], strict=True))
        lines.append(f"Trick {number}: {played}  -> {trick['winner']} ({trick['points']} points)")
    if summary["result"] is None:
        lines.append("The record stops here.")
        return lines
    if summary["result"] == "cancelled":
        lines.append("Cancelled: a player holds the four 7s.")
        return lines
    lines.append(
        f"Card points: {_sides(summary['card_points'])}; dix de der: {summary['dix_de_der']}"
    )
    decls = {k: v for k, v in summary["declarations"].items() if v}
    if decls:
        lines.append("Declarations: " + "; ".join(f"{k} {' '.join(v)}" for k, v in decls.items()))
    if any(summary["belote_points"].values()):
        lines.append(f"Belote: {_sides(summary['belote_points'])}")
    if summary["capot"]:
        lines.append(f"Capot: {summary['capot']}{' (solo)' if summary['solo_capot'] else ''}")
    held = f"; held over: {summary['held_over']}" if summary["held_over"] else ""
    lines.append(f"Result: {summary['result']}; score: {_sides(summary['score'])}{held}")
    return lines


def format_summary(summary: dict[str, Any]) -> str:
    """Readable text for a deal or match summary."""
    if "deals" not in summary:
        return "\n".join(format_deal(summary))
    lines: list[str] = []
    for number, deal in enumerate(summary["deals"], start=1):
        lines.append(f"== Deal {number}")
        lines.extend(format_deal(deal))
        if "totals" in deal:
            lines.append(f"Totals: {_sides(deal['totals'])}")
    winner = summary["winner"]
    lines.append(f"Match totals: {_sides(summary['totals'])}; winner: {winner or 'none yet'}")
    return "\n".join(lines)


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="A deal or match record (JSON); '-' for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Replay a deal or match record: the tricks, the points and the score."""
    from .record import RecordError
    from .record import replay as replay_record

    data = _read_record(file, as_json)
    try:
        summary = replay_record(data)
    except RecordError as exc:
        _fail(exc.payload, as_json)
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(format_summary(summary))


@app.command()
def verify(
    file: Annotated[
        str, typer.Argument(help="A deal or match record from a server (JSON); '-' for stdin.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Verify a server's deal or match record (docs/fair-deals.md): each
    deal's commitment against its revealed seed and salt, the pack the
    seed gives against the record's, every dealt hand, and the replay.
    Exit 0 when everything agrees; exit 2 naming the deal and the check
    that failed."""
    from .fairness import FairnessError
    from .fairness import verify as verify_record

    data = _read_record(file, as_json)
    try:
        deals = verify_record(data)
    except FairnessError as exc:
        _fail(exc.payload, as_json)
    if as_json:
        print(json.dumps({"ok": True, "deals": [d.to_json() for d in deals]}))
        return
    for d in deals:
        print(f"deal {d.deal}: commitment {d.commitment} verified")
    print(f"ok: {len(deals)} deal{'s' if len(deals) != 1 else ''} verified")


@app.command()
def record(
    seed: Annotated[int, typer.Option(help="Seed of the shuffle and the random moves.")] = 0,
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "ffb",
    match: Annotated[bool, typer.Option("--match", help="A whole match, not one deal.")] = False,
    out: Annotated[Path | None, typer.Option(help="Write to this file, not stdout.")] = None,
    events: Annotated[
        bool,
        typer.Option(
            "--events",
            help="Write each action's events beside it (and a match's end, with --match).",
        ),
    ] = False,
) -> None:
    """Write the record (format 2) of a random deal (or match) played by
    random legal moves."""
    import random

    from .record import FORMAT, state_to_record
    from .simulate import random_deal, random_match

    rule_set = _rules_or_exit(rules)
    rng = random.Random(seed)
    data: dict[str, Any]
    if match:
        match_state, states = random_match(rule_set, rng)
        deals = []
        for state in states:
            deal = state_to_record(state, events=events)
            del deal["format"], deal["rules"]
            deals.append(deal)
        data = {"format": FORMAT, "rules": rule_set.to_record(), "deals": deals}
        if events:  # the match's own: MatchEnded once a side has won
            ended = match_state.ended
            data["events"] = [] if ended is None else [ended.to_json()]
    else:
        data = state_to_record(random_deal(rule_set, rng), events=events)
    text = json.dumps(data, ensure_ascii=False)
    if out is None:
        print(text)
    else:
        out.write_text(text + "\n", encoding="utf-8")


@app.command()
def demo(
    seed: Annotated[int | None, typer.Option(help="Seed (random if not given).")] = None,
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "ffb",
) -> None:
    """Play one deal by random legal moves and print it trick by trick."""
    import random

    from .cards import CardSet
    from .record import deal_summary
    from .simulate import random_deal

    rule_set = _rules_or_exit(rules)
    if seed is None:
        seed = random.randrange(1 << 30)
    state = random_deal(rule_set, random.Random(seed))
    print(f"rebelote demo --seed {seed} --rules {rules}")
    record_hands = _hands_at_start(state)
    for seat, cards in record_hands.items():
        print(f"{seat}: {CardSet(cards)}")
    if state.turned is not None:
        from .cards import card_name

        print(f"Turned card: {card_name(state.turned)}")
    print("\n".join(format_deal(deal_summary(state))))


def _hands_at_start(state: Any) -> dict[str, int]:
    """Each seat's full hand at the start of the play (from the tricks)."""
    hands: dict[str, int] = {s.letter: state.hands[s] for s in state.seats}
    for trick in state.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            hands[seat.letter] |= 1 << card
    return hands


@app.command("rules")
def rules_command(
    name: Annotated[str | None, typer.Argument(help="One preset to show.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the rule presets and their options (a preset named after its
    source text shows its player's name too, e.g. ``belote-said`` for
    ``seed001``; either name selects it)."""
    from .rules import PRESET_DESCRIPTIONS, PRESET_NAMES, PRESETS

    names = list(PRESETS) if name is None else [_rules_or_exit(name, as_json).preset]
    if as_json:
        print(json.dumps({n: PRESETS[n].options() for n in names}, ensure_ascii=False))
        return
    base = PRESETS["ffb"].options()
    for n in names:
        print(f"{n}: {PRESET_DESCRIPTIONS[n]}")
        if n in PRESET_NAMES:
            print(f"    also named: {PRESET_NAMES[n]}")
        options = PRESETS[n].options()
        for key, value in options.items():
            mark = "" if n == "ffb" or base[key] == value else "  *"
            if name is not None or n == "ffb" or mark:
                print(f"    {key} = {json.dumps(value)}{mark}")
        print()
    if name is None:
        print("(ffb lists every option; other presets list what differs from ffb, marked *)")


@bench_app.command("engine")
def bench_engine(
    deals: Annotated[int, typer.Option(help="Random full deals to play.")] = 2000,
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "ffb",
    seed: Annotated[int, typer.Option(help="Seed.")] = 1,
    rollouts: Annotated[int, typer.Option(help="Compiled rollouts to time.")] = 200_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Random full deals per second (the fast path of simulations and the
    checked API), legal-move generations per second and compiled rollouts
    per second (colver's beside them where it is installed), on one core;
    ``--json``: one JSON line."""
    from .bench import bench_engine as run

    result = run(_rules_or_exit(rules), deals=deals, seed=seed, rollouts=rollouts)
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


_LEVELS = "{levels}"
"""Stands for the bot levels in a command's help (:class:`_LevelsHelp`)."""


class _LevelsHelp(TyperCommand):
    """A command whose options' help names the bot levels,
    :data:`rebelote.bots.BOT_LEVELS`: they are filled in when the help is
    shown, so that the bots are imported for ``--help`` only."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from .bots import BOT_LEVELS

        for param in self.params:
            if isinstance(param, TyperOption) and param.help and _LEVELS in param.help:
                param.help = param.help.replace(_LEVELS, ", ".join(BOT_LEVELS))
        super().format_help(ctx, formatter)


@app.command(cls=_LevelsHelp)
def arena(
    team1: Annotated[str, typer.Option(help=f"Bot level of team 1: {_LEVELS}.")],
    team2: Annotated[str, typer.Option(help=f"Bot level of team 2: {_LEVELS}.")],
    boards: Annotated[
        int, typer.Option(help="Boards in all (a resumed run adds the missing ones).")
    ] = 1000,
    rules: Annotated[
        str, typer.Option(help="Rule preset (a four-player one, or two-players).")
    ] = "ffb",
    seed: Annotated[int, typer.Option(help="Seed of the boards and the bots.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    out: Annotated[
        Path | None, typer.Option(help="JSONL result file: resumed and extended when it exists.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Duplicate play: each board (a pack and a dealer) is played twice with
    the teams swapped; reports team 1's score minus team 2's per board (mean,
    95% confidence interval) and each bot's time per decision."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from .bots.arena import ArenaError, ArenaSettings, check_run, load_results, run_arena

    settings = ArenaSettings(team1=team1, team2=team2, rules=rules, seed=seed)
    try:
        settings.check()
        check_run(boards, jobs, out)
        if out is not None:
            load_results(out, settings)
    except ArenaError as exc:
        _fail({"error": "bad arena settings", "message": str(exc)}, as_json)
    console = Console(stderr=True)
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=as_json,
    )
    task = progress.add_task(f"{team1} vs {team2} ({rules})", total=boards)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    try:
        with progress:
            report = run_arena(settings, boards, jobs=jobs, out=out, progress=advance)
    except ArenaError as exc:
        _fail({"error": "bad arena settings", "message": str(exc)}, as_json)
    if as_json:
        print(json.dumps(report))
        return
    lo, hi = report["ci95"]
    print(f"{team1} (team 1) vs {team2} (team 2), rules {rules}, seed {seed}")
    mean, sd = report["mean_diff_per_board"], report["sd"]
    spread = (
        f"95% CI {lo:+.1f} .. {hi:+.1f}; sd {sd:.1f}"
        if report["ci95_defined"]
        else "no interval from a single board"
    )
    print(f"boards: {report['boards']}; team 1 minus team 2 per board: {mean:+.1f} ({spread})")
    print(f"boards won: team 1 {report['team1_board_wins']}, team 2 {report['team2_board_wins']}")
    for name, t in report["decision_ms"].items():
        print(
            f"{name}: {t['median']:.3f} ms median, {t['p95']:.3f} ms p95 per decision "
            f"({t['decisions']} decisions)"
        )


HINT_MAX_WORLDS = 200
"""The most sampled worlds ``rebelote hint --worlds`` takes: the hint's time
grows with the worlds, and one hint should not run for minutes (the same
as :data:`rebelote.bots.hint.MAX_WORLDS`, kept here so that bad options are
refused without loading the expert)."""


def _three_player_seat_error(data: dict[str, Any], seat: Seat) -> str | None:
    """Why ``seat`` has no hint in the deal record ``data`` when its rules
    are a three-player game and the seat is not at the table (``None``
    otherwise, or when the rules cannot be read: the replay says why)."""
    from .rules import Rules, RulesError
    from .seats import seats_of

    if "rules" not in data:
        return None
    try:
        rules = Rules.from_record(data["rules"])
    except RulesError:
        return None
    table = seats_of(rules.players)
    if rules.players == 4 or seat in table:
        return None
    seats = ", ".join(s.letter for s in table[:-1]) + f" and {table[-1].letter}"
    count = "three" if rules.players == 3 else "two"
    return f"seat {seat.letter} does not play in a {count}-player deal: its seats are {seats}"


@app.command()
def hint(
    file: Annotated[str, typer.Argument(help="A deal record (JSON); '-' for stdin.")],
    seat: Annotated[str, typer.Option(help="The seat to advise: N, W, S or E.")],
    after: Annotated[
        int,
        typer.Option(
            help="Actions of the record played, 0 or more (format 2: of its actions; "
            "format 1: bids, then cards)."
        ),
    ],
    worlds: Annotated[
        int | None,
        typer.Option(
            help=f"The expert's budget of worlds, 1 to {HINT_MAX_WORLDS} "
            "(default: the one it plays with; coinche bids use 2 to 24 deals)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sampling.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The values the expert chooses on for each legal action of SEAT after
    N actions of a deal record, with the expert's own budget and seed: cards
    by sampled worlds solved double-dummy (the seat's side's score minus the
    other's, in points), classic bids by their take value against passing,
    coinche bids by sampled deals solved double-dummy.

    With --json, one object:
      {"seat": "S", "after": 8, "phase": "playing", "trick": 2, "worlds": 20,
       "basis": "worlds", "values": [{"action": "7C", "value": -170.6}, ...],
       "best": "7C", "expert": "7C", "rule": null}

      phase   the deal's phase: "bidding", "playing", ...
      trick   the trick's number (null in the auction)
      worlds  the worlds (cards) or deals (coinche bids) behind the values;
              0 when none
      basis   "worlds", "take values", "deals", "intermediate" (nothing
              valued: the expert plays the intermediate's choice here),
              "only" (a single legal bid, not valued)
      values  every legal action, best first, then those not valued (null)
      best    the best valued action (the expert's on ties; null if none)
      expert  the action the expert plays
      rule    why the expert's choice is not the best value, or null
              (coinche bids: the intermediate's bid stands unless another
              beats it by a margin)

    Exit status 2 and a JSON error for an unreadable or malformed record,
    a position where SEAT does not play, or an option out of range."""
    from .record import RecordError
    from .seats import parse_seat

    if worlds is not None and not 1 <= worlds <= HINT_MAX_WORLDS:
        message = f"--worlds must be between 1 and {HINT_MAX_WORLDS}, not {worlds}"
        _fail({"error": "bad input", "message": message}, as_json)
    if after < 0:
        _fail({"error": "bad input", "message": f"--after must be 0 or more, not {after}"}, as_json)
    try:
        advised = parse_seat(seat)
    except ValueError as exc:
        _fail({"error": "bad input", "message": str(exc)}, as_json)
    data = _read_record(file, as_json)
    if not isinstance(data, dict) or "deals" in data:
        _fail({"error": "malformed record", "message": "hint reads one deal record"}, as_json)
    absent = _three_player_seat_error(data, advised)
    if absent is not None:
        _fail({"error": "no hint", "message": absent}, as_json)

    from .bots.hint import HintError
    from .bots.hint import hint as run_hint

    try:
        report = run_hint(data, advised, after, worlds=worlds, seed=seed)
    except ValueError as exc:
        if isinstance(exc, RecordError | HintError):
            _fail(exc.payload, as_json)
        _fail({"error": "bad input", "message": str(exc)}, as_json)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    trick = f", trick {report['trick']}" if report["trick"] else ""
    print(
        f"{report['seat']} after {after} actions ({report['phase']}{trick}), "
        f"{report['worlds']} worlds; expert plays {report['expert']}"
    )
    for item in report["values"]:
        value = "-" if item["value"] is None else f"{item['value']:+.1f}"
        print(f"  {item['action']:>10}  {value}")


@app.command()
def analyse(
    file: Annotated[str, typer.Argument(help="A deal or match record (JSON); '-' for stdin.")],
    seed: Annotated[int, typer.Option(help="Seed of the expert's bids.")] = 0,
    bids: Annotated[
        bool, typer.Option("--bids/--no-bids", help="Set each bid beside the expert's.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The expert's analysis of a finished deal or match: for each card, its
    double-dummy value before and after it was played (the deal's points of
    the player's side minus the other side's under best play, every hand
    known) and what it cost against best play; for each bid, the bid the
    expert would have made from the bidder's view.  The same analysis as
    the replay's (rebelote serve).

    With --json, one object:
      {"version": 1, "deals": [{"dealer", "contract", "result",
        "cards": [{"index", "trick", "seat", "side", "card", "action",
                   "points", "before", "after", "cost", "best"}, ...],
        "mistakes": [indexes into cards, costliest first],
        "cost": {"NS": 40, "EW": 0},
        "bids": [{"index", "seat", "bid", "expert", "same", "basis"}, ...]}]}

    Exit status 2 and a JSON error for an unreadable or malformed record."""
    from .record import RecordError

    data = _read_record(file, as_json)
    from .bots.analysis import analyse_match

    try:
        report = analyse_match(data, seed=seed, bids=bids)
    except RecordError as exc:
        _fail(exc.payload, as_json)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    for number, deal in enumerate(report["deals"], start=1):
        print(f"deal {number}: {deal['contract'] or deal['result']}, cost {deal['cost']}")
        for i in deal["mistakes"]:
            c = deal["cards"][i]
            best = " ".join(c["best"])
            print(
                f"  trick {c['trick']} {c['seat']} {c['card']}: {c['before']:+d} -> "
                f"{c['after']:+d} (cost {c['cost']}; best {best})"
            )
        for b in deal["bids"] or []:
            if not b["same"]:
                print(f"  bid {b['seat']} {b['bid']}: the expert bids {b['expert']}")


@app.command()
def play(
    port: Annotated[
        int | None, typer.Option(help="Port to serve on (a free one if not given).")
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL (SQLAlchemy); default: DATABASE_URL, else SQLite in the "
            "user's data folder."
        ),
    ] = None,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open a browser (servers, tests).")
    ] = False,
) -> None:
    """Play a match in the browser against computer players: start the
    server, print its URL and open the browser."""
    from .server.claim import ClusterClaimed
    from .server.run import serve

    try:
        serve(host=host, port=port, database_url=db, open_browser=not no_browser)
    except ClusterClaimed as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except OSError as exc:
        print(f"error: cannot serve on {host}:{port or 0}: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt:  # pragma: no cover - interactive
        pass


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to serve on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL (SQLAlchemy; postgresql://... for PostgreSQL); default: "
            "DATABASE_URL, else SQLite in the user's data folder."
        ),
    ] = None,
    log_level: Annotated[
        str,
        typer.Option(
            help="Log level: critical, error, warning, info (one line per request, "
            "secrets redacted) or debug."
        ),
    ] = "info",
    log_json: Annotated[
        bool, typer.Option("--log-json", help="Log JSON lines (for a log collector).")
    ] = False,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://HOST:PORT/DB): share the tables with every process "
            "started with the same Redis and database (docs/scale-out.md)."
        ),
    ] = None,
    redis_prefix: Annotated[
        str,
        typer.Option(help="Prefix of the Redis keys and channels (processes sharing tables)."),
    ] = "rb:",
    workers: Annotated[
        int,
        typer.Option(
            help="Start this many processes on consecutive ports from --port (more than "
            "one needs --redis); put a load balancer in front."
        ),
    ] = 1,
    warm_solver: Annotated[
        bool,
        typer.Option(help="Compile the expert's solver at start (a thread, about 7 s of a core)."),
    ] = True,
) -> None:
    """Serve the multi-table server for network play: the lobby, accounts,
    chat, spectators, ratings (see the README for a reverse proxy with TLS).
    Logs go to standard error.  Several processes (--redis, --workers):
    see docs/scale-out.md."""
    from .server.broker import BrokerUnavailable
    from .server.claim import ClusterClaimed
    from .server.logs import LOG_LEVELS
    from .server.run import serve as run_server
    from .server.run import serve_workers

    level = log_level.lower()
    if level not in LOG_LEVELS:
        print(
            f"error: unknown log level {log_level!r}: use one of {', '.join(LOG_LEVELS)}",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_BAD_INPUT)
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        print("error: --redis: a URL redis://HOST:PORT/DB (or rediss://, unix://)", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT)
    if not 1 <= workers <= 64:
        print("error: --workers: 1 to 64", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT)
    if workers > 1 and redis is None:
        print(
            "error: --workers above 1 needs --redis URL: the processes share their tables "
            "through Redis",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_BAD_INPUT)
    if workers > 1:
        args = ["--log-level", level, "--redis", str(redis), "--redis-prefix", redis_prefix]
        if log_json:
            args.append("--log-json")
        if not warm_solver:
            args.append("--no-warm-solver")
        try:
            status = serve_workers(
                workers,
                args,
                host=host,
                port=port,
                database_url=db,
                redis_url=redis,
                redis_prefix=redis_prefix,
            )
        except ClusterClaimed as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except BrokerUnavailable as exc:
            print(f"error: {exc}", file=sys.stderr)
            raise typer.Exit(EXIT_UNAVAILABLE) from None
        raise typer.Exit(status)
    try:
        run_server(
            host=host,
            port=port,
            database_url=db,
            open_browser=False,
            lobby=True,
            log_level=level,
            log_json=log_json,
            redis_url=redis,
            redis_prefix=redis_prefix,
            warm_solver=warm_solver,
        )
    except ClusterClaimed as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except BrokerUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_UNAVAILABLE) from None
    except OSError as exc:
        print(f"error: cannot serve on {host}:{port}: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt:  # pragma: no cover - interactive
        pass


@bench_app.command("server")
def bench_server(
    tables: Annotated[int, typer.Option(help="Tables of four WebSocket players.")] = 50,
    seconds: Annotated[float, typer.Option(help="Seconds of play measured.")] = 20.0,
    seed: Annotated[int, typer.Option(help="Seed of the players' random moves.")] = 1,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL for every server process (default: a fresh SQLite)."),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            help="rebelote serve processes on consecutive ports; a table's four players "
            "are spread over them (more than one needs --redis)."
        ),
    ] = 1,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL passed to every server process (redis://HOST:PORT/DB)."),
    ] = None,
    settle: Annotated[
        bool,
        typer.Option(
            help="Wait for the server processes to go idle (the solver's warm-up) "
            "before the tables start."
        ),
    ] = True,
    think: Annotated[
        float,
        typer.Option(
            help="The players' mean time to act, in seconds (each action is sent 0.5 to "
            "1.5 times it after the turn): people's pace; 0, as fast as they can."
        ),
    ] = 0.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Load: many tables of four WebSocket clients at once against local
    server processes (loopback only; stops by itself): tables held, messages
    per second, 50th/99th percentile time from an action to its event
    reaching the other seats, errors.  Progress lines go to standard
    error."""
    from .server.loadbench import run_bench

    try:
        result = run_bench(
            tables=tables,
            seconds=seconds,
            seed=seed,
            db=db,
            processes=processes,
            redis=redis,
            settle=settle,
            think=think,
            progress=lambda line: print(f"bench: {line}", file=sys.stderr, flush=True),
        )
    except (ValueError, RuntimeError) as exc:
        _fail({"error": "bench failed", "message": str(exc)}, as_json)
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


@bench_app.command("failover")
def bench_failover(
    redis: Annotated[
        str,
        typer.Option(help="Redis URL shared by the two server processes (redis://HOST:PORT/DB)."),
    ],
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL of both processes (postgresql+psycopg://...; default: a fresh "
            "SQLite)."
        ),
    ] = None,
    tables: Annotated[int, typer.Option(help="Tables of two scripted humans and two bots.")] = 10,
    seconds: Annotated[
        float, typer.Option(help="Seconds of play after the killed process's tables moved.")
    ] = 5.0,
    seed: Annotated[int, typer.Option(help="Seed of the players' random moves.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Failover: two server processes on one Redis and one database, tables
    in the middle of a deal, the process driving half of them killed with
    SIGKILL: how long the other takes to drive them, and whether any action
    acknowledged to a player was lost or stored twice (see
    docs/scale-out.md).  Progress lines go to standard error."""
    from .server.failbench import run_failover

    try:
        result = run_failover(
            redis=redis,
            db=db,
            tables=tables,
            seconds=seconds,
            seed=seed,
            progress=lambda line: print(f"bench: {line}", file=sys.stderr, flush=True),
        )
    except (ValueError, RuntimeError) as exc:
        _fail({"error": "bench failed", "message": str(exc)}, as_json)
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


def main() -> None:
    """Entry point of the ``rebelote`` command."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
