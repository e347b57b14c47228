"""The ``rebelote`` command, run for real as a subprocess.

The ``replay FILE --json`` output and its errors are an external contract (the
docstring of :mod:`rebelote.record`): exit status 0 and one JSON object; exit
status 2 and a JSON error on stdout for an illegal card, an illegal bid or a
malformed record.  Expected values were computed by hand from the card tables
of RULES.md.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rebelote.record import replay, replay_deal, state_to_record
from rebelote.rules import PRESETS
from rebelote.simulate import random_deal

# Hearts trump, dealer E: N takes, speaks and leads first; S holds the belote.
RECORD: dict[str, Any] = {
    "format": 1,
    "rules": "ffb",
    "dealer": "E",
    "hands": {
        "N": ["JH", "9H", "AS", "KS", "AD", "10D", "AC", "7C"],
        "W": ["AH", "10H", "QS", "10S", "KD", "QD", "KC", "9C"],
        "S": ["KH", "QH", "JS", "9S", "JD", "9D", "QC", "10C"],
        "E": ["8H", "7H", "8S", "7S", "8D", "7D", "JC", "8C"],
    },
    "turned": "9H",
    "bids": ["take"],
    "play": [
        *("JH", "10H", "KH", "7H"),
        *("9H", "AH", "QH", "8H"),
        *("AS", "QS", "9S", "7S"),
        *("KS", "10S", "JS", "8S"),
        *("KD", "JD", "8D", "AD"),
        *("10D", "QD", "9D", "7D"),
        *("AC", "9C", "QC", "8C"),
        *("7C", "KC", "10C", "JC"),
    ],
}


def rebelote(
    *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``python -m rebelote ARGS`` (``env``: variables added to the
    environment); return the process and its wall time."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rebelote", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )
    return done, time.perf_counter() - start


def write(tmp_path: Path, data: Any, name: str = "deal.json") -> str:
    """Write a record to a file; return its path."""
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def error_of(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON error of a refused replay: exit status 2, one line on stdout."""
    assert done.returncode == 2, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    payload: dict[str, Any] = json.loads(lines[0])
    return payload


def test_replay_json_output_keys_and_values(tmp_path: Path) -> None:
    """record.py: ``rebelote replay FILE --json`` prints one JSON object with
    trump, taker, contract, tricks, card_points (without dix de der),
    dix_de_der, declarations, belote, belote_points, capot, result, held_over
    and score; "a replay finishes in under a second".  Tricks: N 34, N 28,
    N 14, W 16, N 17, N 13, N 14, S 16: NS 136 + 10 + belote 20, EW 16."""
    done, _ = rebelote("replay", write(tmp_path, RECORD), "--json")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
    out = json.loads(done.stdout)
    assert out["trump"] == "H"
    assert out["taker"] == "N"
    assert out["contract"] is None
    assert out["tricks"][0] == {
        "leader": "N",
        "cards": ["JH", "10H", "KH", "7H"],
        "winner": "N",
        "points": 34,
    }
    assert out["tricks"][4] == {
        "leader": "W",
        "cards": ["KD", "JD", "8D", "AD"],
        "winner": "N",
        "points": 17,
    }
    assert [t["winner"] for t in out["tricks"]] == ["N", "N", "N", "W", "N", "N", "N", "S"]
    assert [t["points"] for t in out["tricks"]] == [34, 28, 14, 16, 17, 13, 14, 16]
    assert out["card_points"] == {"NS": 136, "EW": 16}
    assert out["dix_de_der"] == "NS"
    assert out["declarations"] == {"NS": [], "EW": []}
    assert out["belote"] == "NS"
    assert out["belote_points"] == {"NS": 20, "EW": 0}
    assert out["capot"] is None
    assert out["result"] == "made"
    assert out["held_over"] == 0
    assert out["score"] == {"NS": 166, "EW": 16}
    assert out == replay(RECORD)
    # "The command starts fast": no heavy import on the replay path (wall
    # time is a benchmark figure, never asserted; machines are noisy).
    traced = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "rebelote", "replay", write(tmp_path, RECORD)],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in traced.stderr.splitlines()}
    heavy = {
        "fastapi",
        "sqlalchemy",
        "uvicorn",
        "numpy",
        "numba",
        "rebelote.server",
        "rebelote.bots",
    }
    assert not heavy & imported


def test_replay_text_output(tmp_path: Path) -> None:
    """Without ``--json``, the replay is printed trick by trick for a reader."""
    done, _ = rebelote("replay", write(tmp_path, RECORD))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Dealer E; bids: take"
    assert lines[1] == "Contract: H by N"
    assert lines[2] == "Trick 1: N  JH  W 10H  S  KH  E  7H  -> N (34 points)"
    assert lines[-1] == "Result: made; score: NS 166, EW 16"


def moved(record: dict[str, Any], turn: int) -> dict[str, Any]:
    """The same deal with every seat (and the dealer) ``turn`` places to the
    right: the same cards are played by the next seats."""
    seats = "NWSE"

    def seat(letter: str) -> str:
        return seats[(seats.index(letter) + turn) % 4]

    hands = {seat(k): v for k, v in record["hands"].items()}
    return dict(record, dealer=seat(record["dealer"]), hands=hands)


def test_replay_match_record_from_stdin() -> None:
    """record.py: "for a match record a ``deals`` list of those plus ``totals``
    and ``winner``"; seed 000: "Dans le cas où les deux équipes atteignent dans
    le même tour ce score, celle ayant le plus de points est gagnante".  Target
    170: NS 166 | EW 166 (182 each: equal, no winner) | NS 166: 348 to 198."""
    rules = {"preset": "ffb", "target": 170}
    deals = [moved(RECORD, t) for t in (0, 1, 2)]
    for d in deals:
        del d["rules"]  # the deals follow the match's rules
    data = {"format": 1, "rules": rules, "deals": deals}
    done = subprocess.run(
        [sys.executable, "-m", "rebelote", "replay", "-", "--json"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [d["score"] for d in out["deals"]] == [
        {"NS": 166, "EW": 16},
        {"NS": 16, "EW": 166},
        {"NS": 166, "EW": 16},
    ]
    assert [d["taker"] for d in out["deals"]] == ["N", "W", "S"]
    assert out["totals"] == {"NS": 348, "EW": 198}
    assert out["winner"] == "NS"


def test_replay_illegal_card_exit_2_json_error(tmp_path: Path) -> None:
    """record.py: "An illegal card: exit status 2 and a JSON error naming the
    trick (1-8), the seat, the card and the legal cards."  Trick 3: N leads
    AS; W holds QS 10S and plays KD (seed 001: "il doit jouer l'une de ces
    cartes")."""
    bad = json.loads(json.dumps(RECORD))
    bad["play"][9] = "KD"
    payload = error_of(rebelote("replay", write(tmp_path, bad), "--json")[0])
    assert payload == {
        "error": "illegal card",
        "message": "illegal card KD by W at trick 3",
        "trick": 3,
        "seat": "W",
        "card": "KD",
        "legal": ["10S", "QS"],
    }


def test_replay_illegal_bid_exit_2_json_error(tmp_path: Path) -> None:
    """record.py: "An illegal bid: exit status 2 naming the seat, the bid and
    the legal bids."  Round two, N names the turned suit, which ffb refuses
    (seeds 000, 002: "sauf la couleur de la carte")."""
    bad = dict(RECORD, bids=["pass", "pass", "pass", "pass", "H"])
    payload = error_of(rebelote("replay", write(tmp_path, bad), "--json")[0])
    assert payload == {
        "error": "illegal bid",
        "message": "illegal bid 'H' by N",
        "seat": "N",
        "bid": "H",
        "legal": ["pass", "S", "D", "C"],
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": "belote-x"}, "unknown preset 'belote-x'"),
        ({"hands": dict(RECORD["hands"], E=RECORD["hands"]["E"][:7])}, "the hand of E has 7"),
    ],
)
def test_replay_malformed_record_exit_2_message(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    """record.py: "A malformed record (a card twice, a hand of 7, an unknown
    preset, a deck of 31): exit status 2 and a message that says what is
    wrong"; the text form also gives it on stderr."""
    done, _ = rebelote("replay", write(tmp_path, dict(RECORD, **change)))
    payload = error_of(done)
    assert payload["error"] == "malformed record"
    assert payload["message"].startswith(message)
    assert done.stderr.startswith(f"error: {message}")


def test_record_seed_7_is_deterministic_and_round_trips(tmp_path: Path) -> None:
    """record.py: "``rebelote record --seed N`` writes the record of a random
    deal played by random legal moves, with its deck": twice the same record,
    which replays (by the command too) to one summary and writes back to
    itself."""
    first, _ = rebelote("record", "--seed", "7")
    second, _ = rebelote("record", "--seed", "7")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    record = json.loads(first.stdout)
    assert record["format"] == 2
    assert record["rules"] == "ffb"
    assert len(record["deck"]) == 32
    assert len(set(record["deck"])) == 32
    # ffb lets the dealer deal 3-2 or 2-3: his choice is the first action
    assert record["actions"][0]["seat"] == record["dealer"]
    assert record["actions"][0]["action"] in ("deal 3-2", "deal 2-3")
    summary = replay(record)
    assert summary["complete"] is True
    assert summary == replay(json.loads(first.stdout))
    assert state_to_record(replay_deal(record).state) == record
    cards = [a for a in record["actions"] if a["action"][0] in "789JQKA1"]
    assert len(cards) == (32 if summary["taker"] else 0)
    if summary["tricks"]:
        assert sum(summary["card_points"].values()) + 10 == 162
    done, _ = rebelote("replay", write(tmp_path, record), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == summary


def test_record_match_with_events_ends_with_match_ended() -> None:
    """``rebelote record --match --events``: the match record carries the
    match's own event, ``match_ended``, and replays with it."""
    done, _ = rebelote("record", "--seed", "7", "--match", "--events", "--rules", "seed002")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["events"] == [
        {
            "kind": "match_ended",
            "winner": 1,
            "totals": [268, 562],
            "target": 501,
            "deals": 5,
            "seat": None,
        }
    ]
    assert len(record["deals"]) == 5
    summary = replay(record)
    assert (summary["winner"], summary["totals"]) == ("EW", {"NS": 268, "EW": 562})


def test_rules_lists_every_preset() -> None:
    """RULES.md "Presets": ffb, ffb-no-declarations, seed000,
    seed000-tout-atout, seed001, seed002, seed003, coinche, the
    three-player game, the two-player game (RULES.md "Two players") and
    ffb-coinche (docs/rules/FFB.md)."""
    done, _ = rebelote("rules")
    assert done.returncode == 0, done.stderr
    listed = [
        line.split(":")[0]
        for line in done.stdout.splitlines()
        if line and not line.startswith((" ", "("))
    ]
    assert listed == [
        "ffb",
        "ffb-no-declarations",
        "seed000",
        "seed000-tout-atout",
        "seed001",
        "seed002",
        "seed003",
        "coinche",
        "three-players",
        "two-players",
        "ffb-coinche",
    ]
    assert listed == list(PRESETS)
    assert '    tie = "takers_fail"  *' in done.stdout


def test_demo_seed_1_runs() -> None:
    """``rebelote demo --seed 1`` plays one deal by random legal moves and
    prints it: the four hands, then the tricks; each seat plays the cards it
    was shown holding, each trick's winner leads the next, and the card points
    make 152 (RULES.md: "Card points total 152")."""
    done, _ = rebelote("demo", "--seed", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "rebelote demo --seed 1 --rules ffb"
    held = {line[0]: set(line[3:].split()) for line in lines[1:5]}
    assert list(held) == ["N", "W", "S", "E"]
    assert all(len(cards) == 8 for cards in held.values())
    tricks = [line for line in lines if line.startswith("Trick ")]
    if "All passed: no deal." in lines:
        assert tricks == []
        return
    assert len(tricks) == 8
    played: dict[str, set[str]] = {seat: set() for seat in held}
    leader = None
    for line in tricks:
        body, winner = line.split(": ", 1)[1].split("  -> ")
        words = body.split()
        seats, cards = words[0::2], words[1::2]
        assert leader is None or seats[0] == leader
        for seat, card in zip(seats, cards, strict=True):
            played[seat].add(card)
        leader = winner[0]
    assert played == held
    card_points = next(line for line in lines if line.startswith("Card points: "))
    ns, ew = (int(part.split()[-1]) for part in card_points[13:].split(";")[0].split(", "))
    assert ns + ew == 152
    assert lines[-1].startswith("Result: ")


NOT_UTF8 = "not UTF-8 text: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"


@pytest.mark.parametrize("command", [["replay"], ["hint", "--seat", "N", "--after", "0"]])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe", NOT_UTF8),
        (b"[" * 100_000 + b"]" * 100_000, "JSON nested too deeply"),
        (
            b"{",
            "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
    ],
)
def test_hint_reads_a_record_file_as_replay_does(
    tmp_path: Path, command: list[str], content: bytes, message: str
) -> None:
    """``replay`` and ``hint`` read FILE alike: bytes that are not UTF-8,
    JSON nested past the parser's depth, or text that is not JSON give exit
    status 2 and a JSON error, never a traceback."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    done, _ = rebelote(command[0], str(path), *command[1:], "--json")
    assert error_of(done) == {"error": "malformed record", "message": message}
    assert done.stderr == f"error: {message}\n"


def test_hint_and_replay_refuse_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    message = f"[Errno 2] No such file or directory: '{missing}'"
    for args in (["replay", str(missing)], ["hint", str(missing), "--seat", "N", "--after", "0"]):
        done, _ = rebelote(*args)
        assert error_of(done) == {"error": "cannot read file", "message": message}
        assert done.stderr == f"error: {message}\n"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--worlds", "-100"], "--worlds must be between 1 and 200, not -100"),
        (["--worlds", "0"], "--worlds must be between 1 and 200, not 0"),
        (["--worlds", "201"], "--worlds must be between 1 and 200, not 201"),
        (["--worlds", "100000"], "--worlds must be between 1 and 200, not 100000"),
        (["--after", "-1"], "--after must be 0 or more, not -1"),
        (["--seat", "X"], "unknown seat 'X': use N, E, S or W"),
    ],
)
def test_hint_refuses_options_out_of_range(
    tmp_path: Path, options: list[str], message: str
) -> None:
    """``--worlds`` is 1 to 200 and ``--after`` 0 or more: anything else is
    refused (exit status 2, a JSON error naming the option) before any
    world is sampled."""
    args = ["hint", write(tmp_path, RECORD), "--seat", "N", "--after", "0", *options, "--json"]
    done, _ = rebelote(*args)
    assert error_of(done) == {"error": "bad input", "message": message}
    assert done.stderr == f"error: {message}\n"


@pytest.mark.parametrize("worlds", ["1", "200"])
def test_hint_takes_the_bounds_of_worlds(tmp_path: Path, worlds: str) -> None:
    """1 and 200 worlds pass the command's check: here the hint itself then
    refuses an ``--after`` past the end of the record."""
    args = ["hint", write(tmp_path, RECORD), "--seat", "N", "--after", "99", "--worlds", worlds]
    payload = error_of(rebelote(*args, "--json")[0])
    assert payload == {
        "error": "no hint",
        "message": "--after 99 is out of range: the record has 1 bids and 32 cards",
    }


def test_hint_says_seat_n_does_not_play_in_a_three_player_deal(tmp_path: Path) -> None:
    """The three-player game seats W, S and E (rebelote.seats): N has no
    turn to wait for."""
    record = state_to_record(random_deal(PRESETS["three-players"], random.Random(1)))
    message = "seat N does not play in a three-player deal: its seats are W, S and E"
    for after in ("0", "5"):
        args = ["hint", write(tmp_path, record), "--seat", "N", "--after", after, "--json"]
        done, _ = rebelote(*args)
        assert error_of(done) == {"error": "no hint", "message": message}
        assert done.stderr == f"error: {message}\n"


def test_hint_help_gives_the_json_shape() -> None:
    """``rebelote hint --help`` shows the keys of the ``--json`` object."""
    done, _ = rebelote("hint", "--help", env={"COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    start = lines.index(" With --json, one object:")
    assert lines[start : start + 20] == [
        " With --json, one object:",
        '   {"seat": "S", "after": 8, "phase": "playing", "trick": 2, "worlds": 20,',
        '    "basis": "worlds", "values": [{"action": "7C", "value": -170.6}, ...],',
        '    "best": "7C", "expert": "7C", "rule": null}',
        "",
        '   phase   the deal\'s phase: "bidding", "playing", ...',
        "   trick   the trick's number (null in the auction)",
        "   worlds  the worlds (cards) or deals (coinche bids) behind the values;",
        "           0 when none",
        '   basis   "worlds", "take values", "deals", "intermediate" (nothing',
        "           valued: the expert plays the intermediate's choice here),",
        '           "only" (a single legal bid, not valued)',
        "   values  every legal action, best first, then those not valued (null)",
        "   best    the best valued action (the expert's on ties; null if none)",
        "   expert  the action the expert plays",
        "   rule    why the expert's choice is not the best value, or null",
        "           (coinche bids: the intermediate's bid stands unless another",
        "           beats it by a margin)",
        "",
        " Exit status 2 and a JSON error for an unreadable or malformed record,",
    ]


@pytest.mark.parametrize("command", ["hint", "replay"])
def test_records_on_stdin_are_read_as_files_are(command: str) -> None:
    """Non-UTF-8 bytes on stdin and an integer too long to convert are
    malformed records (exit 2), not tracebacks."""
    extra = ["--seat", "S", "--after", "0"] if command == "hint" else []
    for data, message in (
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b'{"format": ' + b"9" * 5000 + b"}", "not JSON we can read"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "rebelote", command, "-", *extra, "--json"],
            input=data,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        error = json.loads(done.stdout)
        assert error["error"] == "malformed record"
        assert error["message"].startswith(message)


def test_replay_prints_a_two_player_deal(tmp_path: Path) -> None:
    """RULES.md "Two players": a record of the preset ``two-players`` replays
    trick by trick with the seats W and S; seed 3 deals S a capot (8 tricks,
    82 card points + the capot's 252: the preset keeps the classic values,
    RULES.md "Two players")."""
    done, _ = rebelote("record", "--rules", "two-players", "--seed", "3")
    assert done.returncode == 0, done.stderr
    path = tmp_path / "two.json"
    path.write_text(done.stdout)
    shown, _ = rebelote("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert "Trick 1: S  JC  W  AC  -> S (31 points)" in lines
    assert "Card points: W 0, S 82; dix de der: S" in lines
    assert "Result: capot; score: W 0, S 252" in lines


def test_rules_unknown_preset_human_form_prints_one_error_line() -> None:
    """``rebelote rules nosuch`` (the human form): nothing on stdout, one
    readable line on stderr, status 2; ``--json``: the JSON error alone."""
    done, _ = rebelote("rules", "nosuch")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: unknown preset 'nosuch': known presets are ffb, ffb-no-declarations, "
        "declaration-turn (seed000), tout-atout (seed000-tout-atout), belote-said (seed001), "
        "dealer-leads-501 (seed002), auto-declarations-501 (seed003), coinche, "
        "three-players, two-players, ffb-coinche"
    ]
    done, _ = rebelote("rules", "nosuch", "--json")
    assert done.returncode == 2 and done.stderr == ""
    assert json.loads(done.stdout)["error"] == "unknown preset"


def test_rules_preset_names_in_any_case() -> None:
    """``rebelote rules FFB-COINCHE --json`` is ``ffb-coinche``'s."""
    done, _ = rebelote("rules", "FFB-COINCHE", "--json")
    assert done.returncode == 0, done.stderr
    assert list(json.loads(done.stdout)) == ["ffb-coinche"]
    done, _ = rebelote("rules", "Belote-Said", "--json")
    assert list(json.loads(done.stdout)) == ["seed001"]
