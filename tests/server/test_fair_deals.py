"""Provably fair deals at the server (issue 18, point 5): every ``deal`` log
entry holds the proof of its pack; the streams carry the commitment from the
deal's start and the seed and salt only once the deal is over (a deal thrown
in keeps them until its match is over); a server's record verifies with
``rebelote verify`` (exit 0), and refuses a card swapped between two hands,
a cut the server made that is not the seed's, or a changed salt (exit 2,
naming the deal and the check)."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from rebelote.cards import card_name, cards_of, parse_cards
from rebelote.fairness import commitment, dealt_hands, derive_cut, derive_pack
from rebelote.rules import preset
from rebelote.seats import SEATS_4, Seat
from rebelote.server.protocol.messages import TableOptions, envelope
from rebelote.server.tables.fair import deal_secrets
from rebelote.server.tables.game import SPECTATORS, Entry, SeatSpec, TableGame

from .live import LiveServer, play_match


def _key(seat: Seat | None) -> str:
    return "spectators" if seat is None else seat.letter


def test_seed_and_salt_are_told_only_once_the_deal_is_over() -> None:
    """Four humans play a whole match of seed001 to 300, passing often (the
    player on the dealer's left cuts himself): before a deal's
    ``deal_end``, no message of any stream and no snapshot holds its seed
    or salt; its ``deal_start`` and every snapshot meanwhile hold its
    commitment; a deal played out reveals both in its ``deal_end``, a deal
    thrown in never during its match."""
    rules = preset("seed001").replace(target=300)
    specs = {s: SeatSpec(s, "human", s.letter) for s in SEATS_4}
    game = TableGame("t", rules, TableOptions(player_cuts=True), 7, specs)
    rng = random.Random(7)
    texts: dict[str, list[str]] = {_key(k): [] for k in game.keys}
    secrets: list[tuple[str, str, str]] = []  # each deal's commitment, seed, salt
    played = passed = 0

    def apply(entries: list[Entry]) -> None:
        for entry in entries:
            if entry.kind == "deal":
                fair = entry.payload["fair"]
                assert fair["commitment"] == commitment(
                    bytes.fromhex(fair["seed"]), bytes.fromhex(fair["salt"])
                )
                assert entry.payload["pack"] == [
                    card_name(c) for c in derive_pack(bytes.fromhex(fair["seed"]))
                ]
                secrets.append((fair["commitment"], fair["seed"], fair["salt"]))
            for out in game.apply(entry):
                for key, (v, data) in out.per_seat.items():
                    texts[_key(key)].append(envelope("event", data, v))

    apply(game.start_entries())
    while game.waiting in ("action", "next"):
        state = game.state
        assert state is not None
        if game.waiting == "action":
            _, seed, salt = secrets[-1]
            for key in game.keys:
                snap = game.snapshot(key).model_dump_json()
                assert seed not in snap and salt not in snap
                assert f'"fair":{{"commitment":"{secrets[-1][0]}","seed":null' in snap
        if game.waiting == "next":
            result = state.result
            assert result is not None
            ended = [json.loads(t)["d"] for t in texts["N"] if '"kind":"deal_end"' in t][-1]
            fair = ended["fair"]
            commit, seed, salt = secrets[-1]
            if result.result == "passed":
                passed += 1
                assert fair == {"commitment": commit, "seed": None, "salt": None}
            else:
                played += 1
                assert fair == {"commitment": commit, "seed": seed, "salt": salt}
            for human in game.humans:
                apply(game.request(human, "next", None))
            continue
        step = game.pending()
        if step is not None:
            apply(game.automatic_entry(step))
            continue
        current = state.current
        assert current is not None
        legal = game.turn(current).legal
        action = "pass" if "pass" in legal and rng.random() < 0.8 else rng.choice(legal)
        apply(game.request(current, action, rng.random() < 0.5))
    assert game.status == "finished" and played >= 2 and passed >= 1
    for name, stream in texts.items():
        starts = [i for i, t in enumerate(stream) if '"kind":"deal_start"' in t]
        ends = [i for i, t in enumerate(stream) if '"kind":"deal_end"' in t]
        assert len(starts) == len(ends) == len(secrets), name
        for (commit, seed, salt), start, end in zip(secrets, starts, ends, strict=True):
            assert f'"commitment":"{commit}"' in stream[start]
            before = "\n".join(stream[:end])
            assert seed not in before and salt not in before, name
            told = "\n".join(stream[end:])
            revealed = json.loads(stream[end])["d"]["fair"]["seed"] is not None
            assert (seed in told and salt in told) is revealed, name
    assert SPECTATORS in game.keys


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebelote", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_rebelote_verify_on_a_server_games_record(server: LiveServer, tmp_path: Path) -> None:
    """A match played at a server: its record (``/record``) verifies; one
    card swapped between two hands of its second deal, or a changed salt,
    makes ``rebelote verify`` exit 2 naming the deal and the check."""
    created = server.create(
        preset="ffb",
        target=301,
        levels={"W": "random", "N": "random", "E": "random"},
        options={"speed": "instant", "auto_play_forced": True},
    )
    table_id, token = created["table_id"], created["token"]
    with server.connect(table_id, token) as client:
        play_match(client, random.Random(5))
        first = next(m["d"] for m in client.received if m["t"] == "snapshot")
        starts = [e for e in client.events if e["kind"] == "deal_start"]
        ends = [e for e in client.events if e["kind"] == "deal_end"]
    # deal 1 had started when the client came: its snapshot holds the commitment
    assert first["match"]["deal"] == 1 and first["fair"]["seed"] is None
    starts.insert(0, {"commitment": first["fair"]["commitment"]})
    with server.http() as http:
        answer = http.get(f"/api/tables/{table_id}/record", params={"token": token, "match": 1})
        assert answer.status_code == 200, answer.text
        record: dict[str, Any] = answer.json()
    deals = record["deals"]
    assert len(deals) == len(starts) == len(ends) >= 2
    for deal, start, end in zip(deals, starts, ends, strict=True):
        assert deal["fair"]["commitment"] == start["commitment"]
        # a match over: every deal's revealed; no person cut nor chose the pattern
        assert deal["fair"] == {**end["fair"], "cut": "server", "pattern": "server"}
        seed = bytes.fromhex(deal["fair"]["seed"])
        cut = derive_cut(seed, list(range(2, 31)))  # ffb: packets of at least 2 cards
        assert deal["actions"][0]["action"] == f"cut {cut}"
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    done = _verify(path)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[-1] == f"ok: {len(deals)} deals verified"
    assert lines[0] == f"deal 1: commitment {deals[0]['fair']['commitment']} verified"

    # one card swapped between North's and East's hands in deal 2
    swapped = json.loads(json.dumps(record))
    deal = swapped["deals"][1]
    actions = [(Seat[a["seat"]], a["action"]) for a in deal["actions"]]
    hands, _ = dealt_hands(preset("ffb"), Seat[deal["dealer"]], parse_cards(deal["pack"]), actions)
    north = card_name(next(cards_of(hands[Seat.N])))
    east = card_name(next(cards_of(hands[Seat.E])))
    i, j = deal["pack"].index(north), deal["pack"].index(east)
    deal["pack"][i], deal["pack"][j] = east, north
    path.write_text(json.dumps(swapped))
    done = _verify(path)
    assert done.returncode == 2
    payload = json.loads(done.stdout)
    assert (payload["ok"], payload["deal"], payload["check"]) == (False, 2, "hands")
    assert payload["message"].startswith("deal 2: the hands check failed")
    assert f"({east} instead of {north})" in payload["message"]
    assert done.stderr == f"error: {payload['message']}\n"

    # another cut in deal 1
    recut = json.loads(json.dumps(record))
    first = recut["deals"][0]["actions"][0]
    first["action"] = "cut 2" if first["action"] != "cut 2" else "cut 3"
    path.write_text(json.dumps(recut))
    done = _verify(path)
    assert done.returncode == 2
    payload = json.loads(done.stdout)
    assert (payload["deal"], payload["check"]) == (1, "cut")
    assert payload["message"].startswith("deal 1: the cut check failed: the server made the cut")

    # a changed salt in deal 1
    salted = json.loads(json.dumps(record))
    salt = salted["deals"][0]["fair"]["salt"]
    salted["deals"][0]["fair"]["salt"] = ("1" if salt[0] != "1" else "2") + salt[1:]
    path.write_text(json.dumps(salted))
    done = _verify(path)
    assert done.returncode == 2
    payload = json.loads(done.stdout)
    assert (payload["deal"], payload["check"]) == (1, "commitment")
    assert payload["message"].startswith("deal 1: the commitment check failed")


def test_deal_secrets_are_random_unless_the_server_has_a_seed(tmp_path: Path) -> None:
    """With a seed (tests) a deal's seed and salt are HMAC-SHA256 of
    ``seed/M/D`` and ``salt/M/D`` under SHA-256 of ``rebelote/table/`` and the
    table's seed; a server given none draws them at random."""
    key = hashlib.sha256(b"rebelote/table/7").digest()
    assert deal_secrets(7, 1, 2, fresh=False) == (
        hmac.new(key, b"seed/1/2", hashlib.sha256).digest(),
        hmac.new(key, b"salt/1/2", hashlib.sha256).digest(),
    )
    one, two = deal_secrets(7, 1, 2, fresh=True), deal_secrets(7, 1, 2, fresh=True)
    assert one != two and [len(b) for b in one + two] == [32, 32, 32, 32]
    with LiveServer(f"sqlite:///{tmp_path / 'random.db'}", seed=None) as server:
        created = server.create(preset="ffb")
        (table,) = server.manager.live_tables()
        assert table.game.fresh_secrets is True
        stored = server.app.state.store.load(created["table_id"])
        assert stored is not None
        fair = next(e for e in stored.events if e.kind == "deal").payload["fair"]
        seed, salt = deal_secrets(stored.seed, 1, 1, fresh=False)
        assert (fair["seed"], fair["salt"]) != (seed.hex(), salt.hex())
        assert fair["commitment"] == commitment(
            bytes.fromhex(fair["seed"]), bytes.fromhex(fair["salt"])
        )
    with LiveServer(f"sqlite:///{tmp_path / 'seeded.db'}") as server:
        created = server.create(preset="ffb")
        (table,) = server.manager.live_tables()
        assert table.game.fresh_secrets is False
        stored = server.app.state.store.load(created["table_id"])
        assert stored is not None
        fair = next(e for e in stored.events if e.kind == "deal").payload["fair"]
        seed, salt = deal_secrets(stored.seed, 1, 1, fresh=False)
        assert (fair["seed"], fair["salt"]) == (seed.hex(), salt.hex())
