"""The presets named after their source text (``seed000`` .. ``seed003``)
have names a player understands (``rules.PRESET_NAMES``); both names work
everywhere a preset is named, records keep the old name, and ``rebelote
rules`` shows the new one.

The names follow what each text makes distinctive (docs/rules/RULES.md,
"Presets"): seed 000's declaration turn ("commence alors le tour des
annonces") and its Tout Atout game; seed 001's belote said ("sans annonce la
belote n'est pas comptabilisée"); seed 002's dealer who leads ("le donneur
entamera le premier pli", 501 points); seed 003's automatic declarations
(501 points).
"""

from __future__ import annotations

import copy
import json

import pytest

from rebelote.record import replay
from rebelote.rules import (
    PRESET_NAMES,
    PRESETS,
    Rules,
    RulesError,
    canonical_preset,
    preset,
    preset_name,
)
from test_cli import RECORD, rebelote

NAMES = {
    "seed000": "declaration-turn",
    "seed000-tout-atout": "tout-atout",
    "seed001": "belote-said",
    "seed002": "dealer-leads-501",
    "seed003": "auto-declarations-501",
}


def test_the_names() -> None:
    """Exactly these five names, none clashing with a preset's key."""
    assert PRESET_NAMES == NAMES
    assert not set(NAMES.values()) & set(PRESETS)


@pytest.mark.parametrize(("old", "new"), sorted(NAMES.items()))
def test_both_names_select_the_preset(old: str, new: str) -> None:
    """``preset`` and ``Rules.from_record`` read both names to the same rule
    set, whose ``preset`` (written in records) stays the old name."""
    assert preset(new) is PRESETS[old] is preset(old)
    assert Rules.from_record(new) == PRESETS[old]
    assert Rules.from_record({"preset": new, "target": 300}) == PRESETS[old].replace(target=300)
    assert preset(new).to_record() == old
    assert canonical_preset(new) == old and canonical_preset(old) == old
    assert preset_name(old) == new


def test_other_presets_keep_their_names() -> None:
    """``ffb``, ``coinche``... are already clear: their names do not change."""
    for name in ("ffb", "ffb-no-declarations", "coinche", "three-players"):
        assert preset_name(name) == name and canonical_preset(name) == name


def test_unknown_preset_lists_both_names() -> None:
    """The error names every preset, the new name with the old one."""
    with pytest.raises(RulesError) as info:
        preset("belote-x")
    assert str(info.value) == (
        "unknown preset 'belote-x': known presets are ffb, ffb-no-declarations, "
        "declaration-turn (seed000), tout-atout (seed000-tout-atout), "
        "belote-said (seed001), dealer-leads-501 (seed002), "
        "auto-declarations-501 (seed003), coinche, three-players, ffb-coinche"
    )


def test_a_record_under_the_new_name_replays_like_the_old() -> None:
    """A record may name its rules either way; the replay reports the old
    name, which every version reads."""
    old = copy.deepcopy(RECORD)
    old["rules"] = "seed001"
    new = copy.deepcopy(RECORD)
    new["rules"] = "belote-said"
    assert replay(new) == replay(old)
    assert replay(new)["rules"] == "seed001"


def test_rules_command_shows_the_names() -> None:
    """``rebelote rules`` prints each new name under its preset;
    ``rebelote rules NAME`` takes either name."""
    done, _ = rebelote("rules")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for old, new in NAMES.items():
        header = next(i for i, line in enumerate(lines) if line.startswith(old + ":"))
        assert lines[header + 1] == f"    also named: {new}"
    by_new, _ = rebelote("rules", "belote-said")
    by_old, _ = rebelote("rules", "seed001")
    assert by_new.returncode == 0 and by_new.stdout == by_old.stdout
    assert by_new.stdout.splitlines()[1] == "    also named: belote-said"
    as_json, _ = rebelote("rules", "tout-atout", "--json")
    assert list(json.loads(as_json.stdout)) == ["seed000-tout-atout"]
