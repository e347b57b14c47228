"""The duplicate arena (issue #3): boards, swapped teams, the result file
(resume and extend), the report's keys and statistics, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rebelote.bots.arena import (
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
from rebelote.rules import preset


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


def test_three_players_and_unknown_levels_are_refused() -> None:
    with pytest.raises(ArenaError, match="two teams of two"):
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
