"""The duplicate arena (issue #3): boards, swapped teams, the result file
(resume and extend), the report's keys and statistics, the CLI."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rebelote.solver
from rebelote.actions import Action
from rebelote.bots import BOT_LEVELS, Budget, arena
from rebelote.bots.arena import (
    SOLVER_LEVELS,
    ArenaError,
    ArenaSettings,
    BoardResult,
    board_setup,
    load_results,
    play_board,
    run_arena,
    summarize,
)
from rebelote.cli import app
from rebelote.observation import PlayerView
from rebelote.rules import preset
from rebelote.seats import Seat


def test_a_board_is_the_same_pack_for_both_deals_and_a_level_against_itself_scores_zero() -> None:
    settings = ArenaSettings("intermediate", "intermediate", "ffb", 3)
    for board in range(6):
        result = play_board(settings, board)
        assert result.diff == 0
        # Same cards, same bots, seats swapped: the scores mirror.
        assert result.score_a == result.score_b


def test_board_setup_is_deterministic_and_rotates_the_dealer() -> None:
    rules = preset("ffb")
    assert board_setup(rules, 1, 5) == board_setup(rules, 1, 5)
    assert board_setup(rules, 1, 5)[0] != board_setup(rules, 2, 5)[0]
    assert [board_setup(rules, 1, b)[1] for b in range(4)] == [0, 1, 2, 3]


def test_board_diff_adds_both_deals() -> None:
    result = play_board(ArenaSettings("intermediate", "random", "coinche", 1), 0)
    a, b = result.score_a, result.score_b
    assert result.diff == (a[0] - a[1]) + (b[1] - b[0])
    assert result.ms1 and result.ms2


def test_run_reports_keys(tmp_path: Path) -> None:
    report = run_arena(ArenaSettings("beginner", "random", "ffb", 1), 4)
    assert report["boards"] == 4
    assert {"boards", "mean_diff_per_board", "ci95", "decision_ms"} <= set(report)
    assert len(report["ci95"]) == 2 and report["ci95"][0] <= report["ci95"][1]
    assert set(report["decision_ms"]) == {"beginner", "random"}
    for times in report["decision_ms"].values():
        assert {"median", "p95"} <= set(times)
        assert 0 <= times["median"] <= times["p95"]


def test_resume_adds_boards_and_keeps_the_earlier_ones(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    settings = ArenaSettings("intermediate", "beginner", "ffb", 9)
    first = run_arena(settings, 3, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["team1"] == "intermediate"
    second = run_arena(settings, 6, jobs=2, out=out)
    assert second["boards"] == 6
    lines_after = out.read_text().splitlines()
    assert lines_after[:4] == lines
    assert len(lines_after) == 7
    boards = load_results(out, settings)
    assert sorted(boards) == list(range(6))
    # The same boards played in one go (one process) give the same results.
    fresh = run_arena(settings, 6)
    assert fresh["mean_diff_per_board"] == second["mean_diff_per_board"]
    assert first["boards"] == 3
    # Asking for fewer boards than the file holds reports on those only.
    assert run_arena(settings, 2, out=out)["boards"] == 2


def test_a_file_of_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    run_arena(ArenaSettings("intermediate", "beginner", "ffb", 1), 1, out=out)
    with pytest.raises(ArenaError, match="other settings"):
        run_arena(ArenaSettings("intermediate", "beginner", "coinche", 1), 2, out=out)


def test_an_interrupted_last_line_is_played_again(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    settings = ArenaSettings("random", "beginner", "ffb", 4)
    run_arena(settings, 2, out=out)
    text = out.read_text()
    out.write_text(text[: len(text) - 20])  # the last board cut short
    assert sorted(load_results(out, settings)) == [0]
    assert run_arena(settings, 2, out=out)["boards"] == 2


def test_three_resumes_after_a_write_cut_short(tmp_path: Path) -> None:
    # The last board's line cut short (a killed run), then three resumes:
    # each must append whole lines, never glue a board to the cut line.
    out = tmp_path / "run.jsonl"
    settings = ArenaSettings("random", "beginner", "ffb", 4)
    run_arena(settings, 2, out=out)
    text = out.read_text()
    out.write_text(text[: len(text) - 20])
    for boards in (3, 4, 5):
        assert run_arena(settings, boards, out=out)["boards"] == boards
        lines = out.read_text().splitlines()
        assert len(lines) == boards + 1
        assert [json.loads(line)["board"] for line in lines[1:]] == list(range(boards))
        assert out.read_text().endswith("\n")
        assert sorted(load_results(out, settings)) == list(range(boards))
    resumed, fresh = run_arena(settings, 5, out=out), run_arena(settings, 5)
    assert resumed.pop("decision_ms").keys() == fresh.pop("decision_ms").keys()
    assert resumed == fresh


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    settings = ArenaSettings("random", "beginner", "ffb", 4)
    run_arena(settings, 2, out=out)
    out.write_text(out.read_text().rstrip("\n"))
    assert run_arena(settings, 3, out=out)["boards"] == 3
    lines = out.read_text().splitlines()
    assert [json.loads(line)["board"] for line in lines[1:]] == [0, 1, 2]


def test_out_must_be_a_file_in_an_existing_folder(tmp_path: Path) -> None:
    settings = ArenaSettings("random", "beginner", "ffb", 4)
    with pytest.raises(ArenaError, match="is a directory"):
        run_arena(settings, 1, out=tmp_path)
    with pytest.raises(ArenaError, match="does not exist"):
        run_arena(settings, 1, out=tmp_path / "missing" / "run.jsonl")
    runner = CliRunner()
    base = ["arena", "--team1", "random", "--team2", "beginner", "--boards", "1"]
    for out in (tmp_path, tmp_path / "missing" / "run.jsonl"):
        result = runner.invoke(app, [*base, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output


def test_boards_and_jobs_below_one_are_refused_before_any_progress_bar() -> None:
    runner = CliRunner()
    base = ["arena", "--team1", "random", "--team2", "beginner"]
    for extra in (["--boards", "0"], ["--boards", "1", "--jobs", "0"]):
        result = runner.invoke(app, [*base, *extra])
        assert result.exit_code == 2
        assert "must be at least 1" in result.output
        assert "random vs beginner" not in result.output  # no progress bar drawn
    with pytest.raises(ArenaError, match="boards must be at least 1"):
        run_arena(ArenaSettings("random", "beginner", "ffb", 1), 0)


def test_a_single_board_has_a_collapsed_documented_interval() -> None:
    settings = ArenaSettings("beginner", "random", "ffb", 1)
    report = summarize(settings, [BoardResult(0, 42, (0, 0), (0, 0), (1.0,), (0.5,))])
    assert report["ci95"] == [42.0, 42.0]
    assert report["ci95_defined"] is False
    assert report["sd"] == 0.0
    assert json.loads(json.dumps(report, allow_nan=False)) == report
    two = summarize(
        settings, [BoardResult(i, d, (0, 0), (0, 0), (), ()) for i, d in enumerate((10, 30))]
    )
    assert two["ci95_defined"] is True and two["ci95"][0] < 20 < two["ci95"][1]
    result = CliRunner().invoke(
        app, ["arena", "--team1", "beginner", "--team2", "random", "--boards", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "no interval from a single board" in result.output


def test_three_players_and_unknown_levels_are_refused() -> None:
    with pytest.raises(ArenaError, match="between two sides"):
        run_arena(ArenaSettings("intermediate", "random", "three-players", 1), 1)
    with pytest.raises(ArenaError, match="unknown bot level"):
        run_arena(ArenaSettings("grandmaster", "random", "ffb", 1), 1)


def test_summary_statistics() -> None:
    settings = ArenaSettings("beginner", "random", "ffb", 1)
    diffs = [10, -20, 30, 40]
    results = [
        BoardResult(i, d, (0, 0), (0, 0), (1.0, 2.0, 3.0), (0.5,)) for i, d in enumerate(diffs)
    ]
    report = summarize(settings, results)
    mean = sum(diffs) / 4
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 3)
    assert report["mean_diff_per_board"] == pytest.approx(mean)
    assert report["sd"] == pytest.approx(sd, abs=1e-3)
    half = 1.96 * sd / 2
    assert report["ci95"] == pytest.approx([mean - half, mean + half], abs=1e-3)
    assert report["decision_ms"]["beginner"]["median"] == 2.0
    assert report["decision_ms"]["random"]["p95"] == 0.5


def test_cli_arena_json_and_resume(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli.jsonl"
    args = ["arena", "--team1", "intermediate", "--team2", "random", "--rules", "coinche"]
    args += ["--seed", "1", "--jobs", "2", "--out", str(out), "--json"]
    first = runner.invoke(app, [*args, "--boards", "2"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout.strip().splitlines()[-1])
    assert report["boards"] == 2
    second = runner.invoke(app, [*args, "--boards", "4"])
    assert json.loads(second.stdout.strip().splitlines()[-1])["boards"] == 4
    bad = runner.invoke(app, ["arena", "--team1", "x", "--team2", "random", "--boards", "1"])
    assert bad.exit_code == 2


class _FirstLegal:
    """A stand-in bot: plays its first legal action and notes each decision."""

    level = "first-legal"

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def act(
        self, view: PlayerView, legal: Sequence[Action], *, seed: int, budget: Budget
    ) -> Action:
        self.events.append("act")
        return legal[0]


@pytest.mark.parametrize(
    ("team1", "team2", "warm_ups"),
    [("expert", "random", 1), ("intermediate", "expert-bidder", 1), ("intermediate", "random", 0)],
)
def test_the_solver_is_compiled_before_the_first_timed_decision(
    monkeypatch: pytest.MonkeyPatch, team1: str, team2: str, warm_ups: int
) -> None:
    """Decision times leave out the kernel's compilation: with a level that
    uses the solver, a board calls ``rebelote.solver.warm_up`` before any bot
    decides (the worker processes of ``--jobs`` play boards the same way);
    without one, it is not called.  The bots are stand-ins: no solver runs."""
    events: list[str] = []
    monkeypatch.setattr(rebelote.solver, "warm_up", lambda: events.append("warm_up"))
    monkeypatch.setattr(arena, "make_bot", lambda level: _FirstLegal(events))
    play_board(ArenaSettings(team1, team2, "ffb", 1), 0)
    assert events[: warm_ups + 1] == ["warm_up"] * warm_ups + ["act"]
    assert events.count("warm_up") == warm_ups
    assert {"expert", "expert-bidder"} == SOLVER_LEVELS
    assert set(BOT_LEVELS) >= SOLVER_LEVELS


def test_arena_help_names_every_bot_level() -> None:
    """``--team1`` and ``--team2`` list the levels of ``BOT_LEVELS``."""
    result = CliRunner().invoke(app, ["arena", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    levels = ", ".join(BOT_LEVELS)
    assert levels == "random, beginner, intermediate, expert, expert-bidder"
    assert f"Bot level of team 1: {levels}. [required]" in result.output
    assert f"Bot level of team 2: {levels}. [required]" in result.output


def test_two_player_boards_swap_the_two_seats() -> None:
    """``--rules two-players`` (RULES.md "Two players"): one bot a side,
    team 1 at W then at S; a level against itself scores exactly 0, and
    each board's diff is team 1's W score minus S in deal A plus S minus W
    in deal B."""
    same = play_board(ArenaSettings("beginner", "beginner", "two-players", 1), 0)
    assert same.diff == 0
    for board in range(3):
        r = play_board(ArenaSettings("beginner", "random", "two-players", 1), board)
        assert r.diff == (r.score_a[0] - r.score_a[1]) + (r.score_b[1] - r.score_b[0])
    assert board_setup(preset("two-players"), 1, 0)[1] == Seat.W
    assert board_setup(preset("two-players"), 1, 1)[1] == Seat.S
