"""``rebelote play``: serves on a free port, prints the URL, upgrades the
database, stops on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx


def test_play_serves_and_prints_the_url(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rebelote", "play", "--no-browser", "--db", f"sqlite:///{db}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("rebelote is serving at http://127.0.0.1:"), line
        url = line.split()[-1]
        deadline = time.monotonic() + 20
        while True:
            try:
                r = httpx.get(url + "api/presets", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert r.status_code == 200 and r.json()[0]["name"] == "ffb"
        created = httpx.post(url + "api/tables", json={"preset": "ffb"}, timeout=5)
        assert created.status_code == 201
        assert db.exists()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


def test_play_refuses_a_taken_port(tmp_path: Path) -> None:
    from rebelote.server.run import bind

    sock = bind("127.0.0.1", None)
    try:
        port = sock.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "rebelote",
                "play",
                "--no-browser",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{tmp_path / 'x.db'}",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        sock.close()
    assert done.returncode == 2 and "cannot serve" in done.stderr
