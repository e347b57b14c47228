"""Issue 13's probes of the server's limits, before and after: each starts
``rebelote serve`` from a source tree and measures it from outside.

usage: uv run python benchmarks/limits_probe.py SRC WHAT [DB]

SRC: the ``src`` folder to run (put first on ``PYTHONPATH``; an older
checkout, e.g. ``git archive OLD src | tar -x -C /tmp/base``, for
"before": its path must start with ``/tmp/base``, its ``serve`` has no
``--log-level``).  WHAT:

- ``body``: the server's peak memory (VmHWM) under four 100 MB bodies at once;
- ``spectators``: 600 spectators connect to one public table, then leave:
  messages they receive, the server's CPU seconds;
- ``logins``: 200 wrong passwords in a row, then the right one;
- ``timing``: median login time (20 each) of a known and an unknown name;
- ``start-make`` / ``start``: store 1,000 solo tables in DB / time a start on it;
- ``held``: how long an idle connection, a request with endless headers and a
  WebSocket upgrade with a 9 KB URL hold their socket.

``PROFILE=FILE`` runs the server under cProfile.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

SRC, WHAT = sys.argv[1], sys.argv[2]
DB = sys.argv[3] if len(sys.argv) > 3 else f"sqlite:////tmp/measure-{os.getpid()}.db"


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(extra: list[str] | None = None) -> tuple[subprocess.Popen[bytes], str, float]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=SRC)
    prof = ["-m", "cProfile", "-o", os.environ["PROFILE"]] if os.environ.get("PROFILE") else []
    cmd = [sys.executable, *prof, "-m", "rebelote", "serve", "--port", str(port), "--db", DB] + (
        [] if SRC.startswith("/tmp/base") else (extra or [])
    )
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(url + "/api/presets", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(proc.stderr.read().decode() if proc.stderr else "died")
        time.sleep(0.05)
    return proc, url, time.monotonic() - t0


def status(pid: int) -> dict[str, str]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        out[k] = v.strip()
    return out


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(pid: int) -> None:
    """Wait until the server is idle (the solver's warm-up over)."""
    last = cpu(pid)
    while True:
        time.sleep(2)
        now = cpu(pid)
        if now - last < 0.05:
            return
        last = now


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(2)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


async def big_bodies(url: str, n: int = 4, size: int = 100 * 1024 * 1024) -> list[str]:
    body = b'{"name": "Big Body", "password": "' + b"p" * size + b'"}'
    async with httpx.AsyncClient(timeout=120) as client:

        async def one() -> str:
            try:
                r = await client.post(
                    url + "/api/auth/signup",
                    content=body,
                    headers={"Content-Type": "application/json"},
                )
                return f"{r.status_code} {r.text[:80]}"
            except httpx.HTTPError as exc:
                return f"error {type(exc).__name__}"

        return list(await asyncio.gather(*(one() for _ in range(n))))


async def spectators(url: str, n: int = 600) -> tuple[int, float, dict[str, int]]:
    import websockets

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post("/api/auth/guest", json={"name": "Watched Host"})
        csrf = r.json()["csrf"]
        r = await http.post(
            "/api/lobby/tables", json={"name": "watched"}, headers={"X-CSRF-Token": csrf}
        )
        table_id = r.json()["table_id"]
    ws_url = url.replace("http://", "ws://") + f"/ws/{table_id}?watch=1"
    counts: dict[str, int] = {}
    socks = []
    stop_reading = asyncio.Event()

    async def reader(ws: object) -> None:
        try:
            async for raw in ws:  # type: ignore[attr-defined]
                t = json.loads(raw)["t"]
                counts[t] = counts.get(t, 0) + 1
        except Exception:
            pass

    tasks = []
    for i in range(n):
        # 50 spectators an address (as a trusted proxy tells it): the server
        # caps the sockets one address holds open (max_sockets_per_address)
        address = {"X-Forwarded-For": f"127.3.0.{i // 50 + 1}"}
        ws = await websockets.connect(
            ws_url, max_queue=None, open_timeout=60, additional_headers=address
        )
        socks.append(ws)
        tasks.append(asyncio.create_task(reader(ws)))
    await asyncio.sleep(3)
    for ws in socks:
        await ws.close()
    await asyncio.sleep(3)
    stop_reading.set()
    for t in tasks:
        t.cancel()
    return sum(counts.values()), 0.0, counts


def held(url: str, mode: str, cap: float = 40.0) -> str:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    t0 = time.monotonic()
    if mode == "longws":
        target = "/ws/" + "a" * 9000 + "?watch=1"
        sock.sendall(
            (
                f"GET {target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
    if mode == "partial":
        sock.sendall(b"GET /api/presets HTTP/1.1\r\n")
    sock.settimeout(1.0)
    got = b""
    while time.monotonic() - t0 < cap:
        if mode == "partial":
            try:
                sock.sendall(b"X")
            except OSError:
                return f"closed after {time.monotonic() - t0:.1f} s"
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return f"closed after {time.monotonic() - t0:.1f} s"
        if not chunk:
            return f"closed after {time.monotonic() - t0:.1f} s" + (
                f", answered {got[:12]!r}" if got else ""
            )
        got += chunk
    return f"still open after {cap:.0f} s" + (f", answered {got[:12]!r}" if got else ", no answer")


def main() -> None:
    if WHAT == "body":
        proc, url, _ = start(["--log-level", "warning"])
        settle(proc.pid)
        base = int(status(proc.pid)["VmHWM"].split()[0])
        t0 = time.monotonic()
        results = asyncio.run(big_bodies(url))
        took = time.monotonic() - t0
        peak = int(status(proc.pid)["VmHWM"].split()[0])
        stop(proc)
        print(
            json.dumps(
                {
                    "peak_before_kb": base,
                    "peak_kb": peak,
                    "seconds": round(took, 2),
                    "answers": results,
                }
            )
        )
    elif WHAT == "spectators":
        proc, url, _ = start(["--log-level", "warning"])
        settle(proc.pid)
        c0 = cpu(proc.pid)
        t0 = time.monotonic()
        total, _, counts = asyncio.run(spectators(url))
        took = time.monotonic() - t0
        c1 = cpu(proc.pid)
        peak = int(status(proc.pid)["VmHWM"].split()[0])
        stop(proc)
        print(
            json.dumps(
                {
                    "messages": total,
                    "by_type": counts,
                    "server_cpu_s": round(c1 - c0, 2),
                    "wall_s": round(took, 1),
                    "peak_kb": peak,
                }
            )
        )
    elif WHAT == "logins":
        proc, url, _ = start(["--log-level", "warning"])
        with httpx.Client(base_url=url, timeout=30) as http:
            r = http.post(
                "/api/auth/signup", json={"name": "Target Name", "password": "a fine passphrase"}
            )
            assert r.status_code == 201, r.text
            statuses: dict[int, int] = {}
            t0 = time.monotonic()
            for i in range(200):
                r = http.post(
                    "/api/auth/login", json={"name": "Target Name", "password": f"wrong {i}"}
                )
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            took = time.monotonic() - t0
            right = http.post(
                "/api/auth/login", json={"name": "Target Name", "password": "a fine passphrase"}
            )
            detail = right.json().get("detail") if right.status_code != 200 else "logged in"
            other = http.post(
                "/api/auth/login",
                json={"name": "Target Name", "password": "a fine passphrase"},
                headers={"X-Forwarded-For": "203.0.113.50"},
            )
            wait = right.json()["detail"].get("retry_after", 0) if right.status_code == 429 else 0
            time.sleep(wait + 0.2)
            later = http.post(
                "/api/auth/login", json={"name": "Target Name", "password": "a fine passphrase"}
            )
        stop(proc)
        print(
            json.dumps(
                {
                    "wrong_200": statuses,
                    "seconds": round(took, 1),
                    "right_after": [right.status_code, detail],
                    "right_from_elsewhere": other.status_code,
                    f"right_after_waiting_{wait}s": later.status_code,
                }
            )
        )
    elif WHAT == "timing":
        proc, url, _ = start(["--log-level", "warning"])
        with httpx.Client(base_url=url, timeout=30) as http:
            r = http.post(
                "/api/auth/signup", json={"name": "Known Name", "password": "a fine passphrase"}
            )
            assert r.status_code == 201, r.text
            times: dict[str, list[float]] = {"known": [], "unknown": []}
            for i in range(20):
                for which, name in (("known", "Known Name"), ("unknown", f"Nobody {i}")):
                    headers = {"X-Forwarded-For": f"10.{i}.{len(which)}.1"}
                    t0 = time.perf_counter()
                    r = http.post(
                        "/api/auth/login",
                        json={"name": name, "password": "wrong password"},
                        headers=headers,
                    )
                    times[which].append(time.perf_counter() - t0)
                    assert r.status_code == 401, r.text
        stop(proc)
        print(json.dumps({k: round(statistics.median(v) * 1000, 1) for k, v in times.items()}))
    elif WHAT == "start-make":
        proc, url, _ = start(["--log-level", "warning"])
        with httpx.Client(base_url=url, timeout=30) as http:
            for i in range(1000):
                r = http.post(
                    "/api/tables",
                    json={},
                    headers={"X-Forwarded-For": f"10.9.{i // 250}.{i % 250 + 1}"},
                )
                assert r.status_code == 201, r.text
        stop(proc)
        print("made 1000 tables in", DB)
    elif WHAT == "held":
        proc, url, _ = start(["--log-level", "warning"])
        out = {m: held(url, m) for m in ("idle", "partial", "longws")}
        stop(proc)
        print(json.dumps(out))
    elif WHAT == "start":
        proc, url, took = start(["--log-level", "warning"])
        rss = int(status(proc.pid)["VmRSS"].split()[0])
        stop(proc)
        print(json.dumps({"start_s": round(took, 2), "rss_kb": rss}))


if __name__ == "__main__":
    main()
