"""The bots package's layout (issue 15, item 6): the protocol in
``bots/base.py`` imports no bot, the levels are in ``bots/registry.py``, the
evaluation the expert's sampler and double-dummy bidder use is in
``bots/evaluation.py``, and no module of the package imports itself back
through the others (the old registry in ``base.py`` imported the bots,
which import ``base.py``).  The names stay importable where they were."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rebelote.bots as bots
from rebelote.bots import evaluation, heuristic, registry

BOTS = Path(bots.__file__).parent


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports,
    at its top or inside a function."""
    modules = {path.stem for path in BOTS.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((BOTS / f"{name}.py").read_text(encoding="utf-8"))
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    imported.add(node.module.split(".")[0])
                else:
                    imported.update(alias.name for alias in node.names)
        graph[name] = imported & modules
    return graph


def test_no_module_of_the_package_imports_itself_back() -> None:
    graph = import_graph()
    assert graph["base"] == set()
    assert graph["evaluation"] == set()
    assert graph["registry"] == {"base", "random_bot", "heuristic", "expert"}
    assert "heuristic" not in graph["sampling"]
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{start} imports itself back"
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])


def test_importing_the_protocol_imports_no_bot() -> None:
    code = (
        "import sys, rebelote.bots.base\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('rebelote.bots'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["rebelote.bots", "rebelote.bots.base", "rebelote.bots.registry"]


def test_the_names_stay_importable_where_they_were() -> None:
    assert bots.make_bot is registry.make_bot
    assert bots.BOT_LEVELS is registry.BOT_LEVELS
    assert bots.UnknownBotError is registry.UnknownBotError
    moved = [
        "AuctionRead",
        "AuctionStep",
        "Style",
        "TakeOffsets",
        "alone_points",
        "auction_steps",
        "coinche_bid_weight",
        "defence_points",
        "hand_points",
        "read_auction",
        "side_estimate",
        "side_estimate_shown",
        "sigmoid",
        "soft_below",
        "strain_tricks",
        "take_value",
        "INTERMEDIATE",
        "BEGINNER",
        "BREAK_EVEN",
        "TRICK_POINTS",
        "CO_SIDE",
        "CO_ALONE",
        "CO_ALONE_SLOPE",
        "COINCHE_BASE",
        "COINCHE_SLOPE",
        "COINCHE_SHORTFALL",
        "SEED000_MULTIPLIERS",
    ]
    for name in moved:
        assert getattr(heuristic, name) is getattr(evaluation, name), name
    assert set(heuristic.__all__) == {"HeuristicBot", *moved[:16]}
