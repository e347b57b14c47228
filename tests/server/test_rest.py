"""The REST endpoints: presets and their help, the rules' description (a
table's own target, "1 point"), creating a table, its public information,
the player's current table, the protocol's schemas, the static client."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from rebelote.rules import PRESET_DESCRIPTIONS, PRESETS
from rebelote.seats import Seat
from rebelote.server.api.help import rules_help

from .live import LiveServer
from .net import Player


def test_presets_with_descriptions_options_and_help(server: LiveServer) -> None:
    with server.http() as http:
        presets = http.get("/api/presets").json()
    assert [p["name"] for p in presets] == list(PRESETS)
    # each preset's name a player understands (rules.preset_name)
    assert [p["title"] for p in presets] == [
        "ffb",
        "ffb-no-declarations",
        "declaration-turn",
        "tout-atout",
        "belote-said",
        "dealer-leads-501",
        "auto-declarations-501",
        "coinche",
        "three-players",
    ]
    for p in presets:
        rules = PRESETS[p["name"]]
        assert p["description"] == PRESET_DESCRIPTIONS[p["name"]]
        assert p["options"] == rules.options() and p["target"] == rules.target
        assert p["help"] and all(h["text"] for h in p["help"])
        assert {h["option"] for h in p["help"]} <= set(rules.options())


def test_help_follows_the_options() -> None:
    def text(name: str, option: str) -> str:
        lines = {h.option: h.text for h in rules_help(PRESETS[name])}
        return lines.get(option, "")

    assert "said aloud" in text("seed001", "belote_must_be_said")
    assert "automatic" in text("ffb", "belote_must_be_said") or "worth 20" in text(
        "ffb", "belote_must_be_said"
    )
    assert "may cut" in text("seed000", "cut_optional")
    assert "dealer leads" in text("seed002", "first_lead")
    assert "auction" in text("coinche", "bidding")
    assert "Three players" in text("three-players", "players")
    assert text("ffb", "ta_points") == ""  # no Tout Atout in a classic game
    assert "Tout Atout card points" in text("seed000-tout-atout", "ta_points")


def test_a_tables_description_names_its_own_target(server: LiveServer) -> None:
    host = Player(server).guest("Host")
    table_id = host.open_table(preset="ffb", target=200)["table_id"]
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert room["rules"]["target"] == 200
    assert room["rules"]["description"] == (
        "Belote classique, FFB rules: declarations, litige on a tie, 200 points."
    )
    table_id = host.open_table(preset="seed000-tout-atout")["table_id"]
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert room["rules"]["description"] == (
        "Seed 000 with Tout Atout / Sans Atout overbids, 3000 points."
    )
    solo = server.create(preset="seed002", target=300)
    with server.http() as client:
        table = client.get(f"/api/tables/{solo['table_id']}").json()
    assert table["rules"]["description"] == (
        "Seed 002's online room: no declarations, dealer leads, 300 points."
    )
    # the preset list keeps the presets' own targets
    with server.http() as client:
        presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["ffb"]["description"].endswith("litige on a tie, 1000 points.")
    host.close()


def test_a_target_of_one_is_one_point(server: LiveServer) -> None:
    host = Player(server).guest("One Point")
    table_id = host.open_table(preset="ffb", target=1)["table_id"]
    expected = "Belote classique, FFB rules: declarations, litige on a tie, 1 point."
    room = host.http.get(f"/api/lobby/tables/{table_id}").json()
    assert (room["rules"]["target"], room["rules"]["description"]) == (1, expected)
    (listed,) = [t for t in host.http.get("/api/lobby").json() if t["id"] == table_id]
    assert listed["rules"]["description"] == expected
    table = host.http.get(f"/api/tables/{table_id}").json()
    assert table["rules"]["description"] == expected
    host.close()


def test_create_table_and_public_info(server: LiveServer) -> None:
    with server.http() as http:
        r = http.post(
            "/api/tables",
            json={
                "preset": "seed001",
                "target": 700,
                "name": "Ada",
                "levels": {"N": "intermediate", "W": "random"},
                "options": {"player_cuts": True, "speed": "fast"},
            },
        )
        assert r.status_code == 201, r.text
        created = r.json()
        assert created["seat"] == "S" and len(created["token"]) >= 32
        assert created["ws_url"] == f"/ws/{created['table_id']}?token={created['token']}"
        assert r.cookies.get("rebelote_token") == created["token"]
        info = http.get(f"/api/tables/{created['table_id']}").json()
    assert created["token"] not in str(info)
    assert info["status"] == "playing"
    assert info["rules"]["preset"] == "seed001" and info["rules"]["target"] == 700
    assert info["options"]["player_cuts"] is True and info["options"]["speed"] == "fast"
    seats = {s["seat"]: s for s in info["seats"]}
    assert seats["S"] == {
        "seat": "S",
        "kind": "human",
        "name": "Ada",
        "level": None,
        "guest": False,
        "left": False,
    }
    assert seats["N"]["level"] == "intermediate" and seats["W"]["level"] == "random"
    assert seats["E"]["level"] == "beginner"
    assert info["match"]["totals"] == {"NS": 0, "EW": 0} and info["match"]["deal"] == 1


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"preset": "bridge"}, 400),
        ({"preset": "three-players", "levels": {"N": "random"}}, 400),
        ({"levels": {"S": "random"}}, 400),
        ({"levels": {"N": "grandmaster"}}, 422),
        ({"target": 0}, 422),
        ({"name": ""}, 422),
        ({"options": {"speed": "warp"}}, 422),
        ({"colour": "red"}, 422),
    ],
)
def test_create_table_refuses_bad_requests(
    server: LiveServer, body: dict[str, object], status: int
) -> None:
    with server.http() as http:
        r = http.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    if status == 400:
        assert r.json()["detail"]["code"] == "bad_request"


def test_unknown_table_is_404(server: LiveServer) -> None:
    with server.http() as http:
        r = http.get("/api/tables/nope")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "table_not_found"


def test_current_table_by_cookie_or_token(server: LiveServer) -> None:
    with server.http() as http:
        assert http.get("/api/me/current").json() == {"current": None}
        created = http.post("/api/tables", json={"preset": "ffb"}).json()
        # the cookie set by the creation
        current = http.get("/api/me/current").json()["current"]
        assert current["table_id"] == created["table_id"] and current["seat"] == "S"
    with httpx.Client(base_url=server.url) as fresh:
        assert fresh.get("/api/me/current").json() == {"current": None}
        by_token = fresh.get("/api/me/current", params={"token": created["token"]}).json()
        assert by_token["current"]["table_id"] == created["table_id"]
        assert fresh.get("/api/me/current", params={"token": "x"}).json() == {"current": None}


def test_protocol_schema(server: LiveServer) -> None:
    with server.http() as http:
        schema = http.get("/api/protocol").json()
    assert set(schema) == {
        "envelope",
        "client",
        "event",
        "snapshot",
        "error",
        "room",
        "chat",
        "chat_history",
        "muted",
        "notice",
        "hint",
        "lobby_client",
        "lobby",
        "table",
        "table_gone",
        "waiting",
        "seated",
    }
    assert set(schema["seated"]["properties"]) == {"room", "you"}
    assert set(schema["lobby_client"]["discriminator"]["mapping"]) == {
        "watch_room",
        "unwatch_room",
        "ping",
    }
    assert schema["notice"]["properties"]["code"]["const"] == "timed_out"
    turn = schema["event"]["$defs"]["TurnEvent"]["properties"]
    assert {"agreed", "deadline"} <= set(turn)
    text = str(schema["event"])
    for kind in ("card", "trick", "deal_end", "match_end", "turn", "declared", "belote"):
        assert f"'{kind}'" in text
    for kind in ("help", "takeback"):  # issue 16
        assert f"'{kind}'" in text
    assert {"hint", "takeback"} <= set(schema["client"]["discriminator"]["mapping"])


def test_static_client_served(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>table</h1>", encoding="utf-8")
    live = LiveServer(f"sqlite:///{tmp_path / 'db.sqlite'}", static_dir=web).start()
    try:
        with live.http() as http:
            assert http.get("/").text == "<h1>table</h1>"
            assert http.get("/api/presets").status_code == 200
    finally:
        live.stop()


def test_packaged_placeholder_page() -> None:
    from rebelote.server.app import WEB_DIR

    assert (WEB_DIR / "index.html").is_file()


def test_the_solver_warms_up_at_start_or_for_the_first_expert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``create_app(warm_solver=...)``: ``start`` (``rebelote play``)
    compiles the expert's kernel in a background thread at start;
    ``experts`` (``rebelote serve``) only once a table seating an expert
    computer player is created or loaded, or an expert takes a seat;
    ``off`` (tests) never."""
    import asyncio
    import threading

    import rebelote.solver
    from rebelote.server.app import create_app
    from rebelote.server.protocol.messages import CreateTable
    from rebelote.server.tables import bots

    called = threading.Event()
    monkeypatch.setattr(rebelote.solver, "warm_up", called.set)

    async def warmed(timeout: float) -> bool:
        return await asyncio.to_thread(called.wait, timeout)

    async def steps(mode: bots.WarmSolver, name: str) -> list[bool]:
        """Whether the warm-up ran: after the start, after a table of
        beginners, after a table with an expert (or, for ``experts``, after
        a lobby table opened, then after the host seated an expert)."""
        monkeypatch.setattr(bots, "_warm_thread", None)
        called.clear()
        seen = []
        app = create_app(f"sqlite:///{tmp_path / name}", warm_solver=mode)
        async with app.router.lifespan_context(app):
            manager = app.state.tables
            seen.append(await warmed(0.5))
            await manager.create(CreateTable(levels={"N": "beginner", "W": "intermediate"}))
            seen.append(await warmed(0.5))
            room, _ = await manager.open_table(
                name="t",
                preset="ffb",
                target=None,
                visibility="public",
                ranked=False,
                seat="S",
                options=CreateTable().options,
                user_id=1,
                user_name="Ann",
            )
            await room.set_bot(Seat.S, "N", "random")
            seen.append(await warmed(0.5))
            await room.set_bot(Seat.S, "W", "expert")
            seen.append(await warmed(10))
            await manager.create(CreateTable(levels={"E": "expert"}))
            seen.append(await warmed(10))
        return seen

    assert asyncio.run(steps("off", "a.sqlite")) == [False] * 5
    assert asyncio.run(steps("start", "b.sqlite")) == [True] * 5
    assert asyncio.run(steps("experts", "c.sqlite")) == [False, False, False, True, True]

    async def expert_table(mode: bots.WarmSolver, table_id: str | None) -> tuple[str, bool]:
        """Create a table with an expert (or load ``table_id``)."""
        monkeypatch.setattr(bots, "_warm_thread", None)
        called.clear()
        app = create_app(f"sqlite:///{tmp_path / 'd.sqlite'}", warm_solver=mode)
        async with app.router.lifespan_context(app):
            manager = app.state.tables
            if table_id is None:
                table_id = (await manager.create(CreateTable(levels={"E": "expert"}))).table_id
            else:
                assert await manager.get(table_id) is not None
            return table_id, await warmed(10 if mode != "off" else 0.5)

    table_id, warm = asyncio.run(expert_table("experts", None))  # created
    assert warm is True
    assert asyncio.run(expert_table("off", table_id)) == (table_id, False)
    assert asyncio.run(expert_table("experts", table_id)) == (table_id, True)  # loaded
