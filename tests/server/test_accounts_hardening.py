"""Accounts (issue 13, item 5): logins throttled with growing delays
(never a lockout a stranger can cause), argon2 within bounds, weak
passwords refused, names that read like an account's refused, invisible
and direction characters refused."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rebelote.server.api.throttle import (
    DEVICE_COOKIE,
    LoginClaim,
    RateLimited,
    Throttle,
    device_token,
    valid_device,
)
from rebelote.server.people import passwords
from rebelote.server.people.names import (
    hidden_characters,
    loose_marks,
    lower_skeleton,
    skeleton,
    skeletons,
)
from rebelote.server.people.passwords import Busy, PasswordWork, password_problem
from rebelote.server.settings import ServerSettings

from .live import TEST_SETTINGS, LiveServer
from .net import Player

PASS = "a fine passphrase"


@pytest.fixture
def strict(db_url: str) -> Iterator[LiveServer]:
    """The default limits, on SQLite and PostgreSQL."""
    with LiveServer(db_url, settings=ServerSettings()) as live:
        yield live


@pytest.fixture
def long_lock(db_url: str) -> Iterator[LiveServer]:
    """The default limits with a first delay of 5 s instead of 1 s, so that
    argon2 on a loaded machine (one check can take over a second) does not
    outlast the lock a test is looking at."""
    with LiveServer(db_url, settings=ServerSettings(login_delay=5.0)) as live:
        yield live


def _login(live: LiveServer, name: str, password: str, address: str | None = None) -> Any:
    headers = {"X-Forwarded-For": address} if address else {}
    with live.http() as http:
        return http.post(
            "/api/auth/login", json={"name": name, "password": password}, headers=headers
        )


def _detail(r: httpx.Response) -> dict[str, Any]:
    detail: dict[str, Any] = r.json()["detail"]
    return detail


# ------------------------------------------------------------------ logins


def test_wrong_passwords_bring_growing_delays_for_that_name_and_address(
    long_lock: LiveServer,
) -> None:
    strict = long_lock
    Player(strict).signup("Victim Name", PASS).close()
    for _ in range(5):  # free tries
        assert _login(strict, "Victim Name", "wrong password").status_code == 401
    assert _login(strict, "Victim Name", "wrong password").status_code == 401  # the 6th: 5 s
    r = _login(strict, "Victim Name", PASS)  # even the right one waits
    assert r.status_code == 429
    assert _detail(r) == {
        "code": "rate_limited",
        "message": "too many wrong passwords: wait before trying again",
        "retry_after": 5,
    }
    assert r.headers["retry-after"] == "5"
    # the owner, from elsewhere, logs in at once
    r = _login(strict, "Victim Name", PASS, address="192.0.2.44")
    assert r.status_code == 200 and r.json()["user"]["name"] == "Victim Name"
    # once the delay is over, the right password works, and the count starts again
    time.sleep(5.1)
    assert _login(strict, "Victim Name", PASS).status_code == 200
    for _ in range(5):
        assert _login(strict, "Victim Name", "wrong password").status_code == 401


def test_an_unknown_name_is_throttled_and_checked_like_a_known_one(
    long_lock: LiveServer,
) -> None:
    strict = long_lock
    work: PasswordWork = strict.app.state.passwords
    calls: list[str] = []
    verify = work.verify

    async def counting(stored: str | None, password: str) -> tuple[bool, str | None]:
        calls.append(password)
        return await verify(stored, password)

    work.verify = counting  # type: ignore[method-assign]
    for _ in range(6):
        r = _login(strict, "Nobody Here", "some password")
        assert r.status_code == 401 and _detail(r)["code"] == "bad_credentials"
    assert calls == ["some password"] * 6  # a dummy hash verified each time
    assert _login(strict, "Nobody Here", "some password").status_code == 429
    r = _login(strict, "bad\x00name", "some password")  # no valid name: no query at all
    assert r.status_code == 401


async def _expire_locks(throttle: Throttle) -> None:
    """As if every login lock had run out (the memory storage's keys)."""
    storage: Any = throttle.storage
    for key in [k for k in storage.storage if k.endswith(":lock")]:
        await storage.clear(key)


def test_the_backoff_doubles_up_to_its_caps() -> None:
    async def run() -> tuple[list[int], list[int]]:
        throttle = Throttle(ServerSettings())
        pair = []
        for _ in range(16):  # each a wrong password, tried once its lock ran out
            pair.append((await throttle.login_claim("alice", "192.0.2.1")).delay)
            if _ != 15:
                await _expire_locks(throttle)
        with pytest.raises(RateLimited) as refused:
            await throttle.login_claim("alice", "192.0.2.1")
        assert refused.value.retry_after == 900
        # another address: only the name's small cap may apply (50 free failures)
        assert (await throttle.login_claim("alice", "192.0.2.2")).delay == 0  # the 17th
        name = []
        for i in range(41):
            name.append((await throttle.login_claim("alice", f"198.51.100.{i}")).delay)
            await _expire_locks(throttle)
        return pair, name

    pair, name = asyncio.run(run())
    assert pair == [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]
    # failures 18..58 of the name, each from a new address: free until the 50th, then
    # 1, 2, 4... up to the name's cap (60 s)
    assert name[:33] == [0] * 33 and name[33:] == [1, 2, 4, 8, 16, 32, 60, 60]


def test_a_refused_or_unchecked_attempt_counts_nowhere_and_a_success_clears() -> None:
    async def run() -> None:
        throttle = Throttle(ServerSettings(login_pair_free=2, login_delay=60))
        for _ in range(3):  # 2 free failures, the 3rd takes the lock (60 s)
            await throttle.login_claim("bob", "192.0.2.7")
        for _ in range(5):
            with pytest.raises(RateLimited) as refused:
                await throttle.login_claim("bob", "192.0.2.7")
            assert refused.value.retry_after == 60
        # the refused ones were given back: 3 failures counted for the pair and address
        storage = throttle.storage
        keys = throttle._login_keys("bob", "192.0.2.7")
        assert [await storage.get(f"{key}:fails") for _, key in keys] == [3, 3, 3]
        # from elsewhere: a claim whose password could not be checked counts nowhere
        claim = await throttle.login_claim("bob", "192.0.2.8")
        await claim.release()
        assert await storage.get(f"{keys[2][1]}:fails") == 3
        # the right password: the name and that pair start again, the address keeps
        # the failures it had (not this attempt)
        claim = await throttle.login_claim("bob", "192.0.2.8")
        await claim.succeeded()
        others = throttle._login_keys("bob", "192.0.2.8")
        assert [await storage.get(f"{key}:fails") for _, key in others] == [0, 0, 0]
        assert await storage.get(f"{keys[1][1]}:fails") == 3

    asyncio.run(run())


def test_concurrent_wrong_passwords_cannot_pass_the_limit(db_url: str) -> None:
    """20 wrong passwords sent at once from one address: the 5 free ones and
    the one that takes the lock reach argon2, the 14 others are refused at
    once (before the fix, all 20 were checked)."""
    settings = ServerSettings(login_delay=60)
    with LiveServer(db_url, settings=settings) as live:
        Player(live).signup("Burst Victim", PASS).close()
        work: PasswordWork = live.app.state.passwords
        checked: list[str] = []
        verify = work.verify

        async def slow(stored: str | None, password: str) -> tuple[bool, str | None]:
            checked.append(password)
            await asyncio.sleep(0.3)  # every request is in flight before any ends
            return await verify(stored, password)

        work.verify = slow  # type: ignore[method-assign]

        async def burst() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
                return await asyncio.gather(
                    *(
                        http.post(
                            "/api/auth/login",
                            json={"name": "Burst Victim", "password": f"wrong {i}"},
                        )
                        for i in range(20)
                    )
                )

        answers = asyncio.run(burst())
        codes = sorted((r.status_code, _detail(r)["code"]) for r in answers)
        assert codes == [(401, "bad_credentials")] * 6 + [(429, "rate_limited")] * 14
        assert len(checked) == 6
        assert {_detail(r)["retry_after"] for r in answers if r.status_code == 429} == {60}
        # the right password from another address goes through
        r = _login(live, "Burst Victim", PASS, address="192.0.2.60")
        assert r.status_code == 200


# ------------------------------------------------------------------ known devices

NAT = "192.0.2.80"
"""The address a stranger and his neighbour share (a NAT)."""


def _post_login(http: httpx.Client, name: str, password: str, address: str) -> httpx.Response:
    return http.post(
        "/api/auth/login",
        json={"name": name, "password": password},
        headers={"X-Forwarded-For": address},
    )


def _lock_the_address(live: LiveServer, address: str) -> None:
    """21 wrong passwords for 21 made-up names from ``address`` (20 free,
    the 21st takes the address's lock), as ``samenat.py`` sends them."""
    with live.http() as stranger:
        answers = [
            _post_login(stranger, f"Made Up {i}", "wrong password", address).status_code
            for i in range(21)
        ]
        assert answers == [401] * 21
        r = _post_login(stranger, "Made Up 21", "wrong password", address)
        assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
        assert _detail(r)["retry_after"] in (59, 60)


def test_a_known_device_logs_in_while_its_address_is_locked(db_url: str) -> None:
    """A stranger behind the neighbour's address locks it with wrong
    passwords for made-up names; the neighbour's browser, which logged in
    to his account before, still logs in (its right password); a new
    browser behind that address, even with the right password, and the
    known browser at another account are refused until the lock ends."""
    with LiveServer(db_url, settings=ServerSettings(login_delay=60)) as live:
        Player(live).signup("Other Person", PASS).close()
        with live.http() as signup:
            r = signup.post("/api/auth/signup", json={"name": "Neighbour", "password": PASS})
            assert r.status_code == 201
        with live.http() as own:
            r = _post_login(own, "Neighbour", PASS, NAT)
            assert r.status_code == 200
            device = own.cookies.get(DEVICE_COOKIE, path="/api/auth")
            assert device is not None and len(device) == 43
            cookie = r.headers["set-cookie"]
            assert f"{DEVICE_COOKIE}={device}" in cookie and "HttpOnly" in cookie
            assert "Path=/api/auth" in cookie and "Max-Age=7776000" in cookie
            _lock_the_address(live, NAT)
            for _ in range(3):
                r = _post_login(own, "neighbour", PASS, NAT)  # the name as typed: any case
                assert r.status_code == 200 and r.json()["user"]["name"] == "Neighbour"
            assert own.cookies.get(DEVICE_COOKIE, path="/api/auth") == device  # kept
            # a wrong password from it is checked, not refused for the address
            r = _post_login(own, "Neighbour", "not the password", NAT)
            assert (r.status_code, _detail(r)["code"]) == (401, "bad_credentials")
            # known for his account only
            r = _post_login(own, "Other Person", PASS, NAT)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
        with live.http() as new_device:
            r = _post_login(new_device, "Neighbour", PASS, NAT)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
            # a made-up device cookie is no known device
            new_device.cookies.set(DEVICE_COOKIE, "x" * 43, path="/api/auth")
            r = _post_login(new_device, "Neighbour", PASS, NAT)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
        # elsewhere the new browser logs in, and from then on it is known
        with live.http() as new_device:
            assert _post_login(new_device, "Neighbour", PASS, "198.51.100.9").status_code == 200
            assert _post_login(new_device, "Neighbour", PASS, NAT).status_code == 200


def test_a_known_device_still_meets_its_accounts_locks(db_url: str) -> None:
    """The name's lock (wrong passwords from many addresses) and the
    pair's (wrong passwords from the device's own address) refuse the
    known device as any other."""
    settings = ServerSettings(login_delay=60, login_name_free=3, login_pair_free=1)
    with LiveServer(db_url, settings=settings) as live:
        Player(live).signup("Guarded Name", PASS).close()
        Player(live).signup("Paired Name", PASS).close()
        with live.http() as own:
            assert _post_login(own, "Guarded Name", PASS, NAT).status_code == 200
            assert _post_login(own, "Paired Name", PASS, NAT).status_code == 200
            # the name: 3 free failures from 3 addresses, the 4th takes its lock (60 s)
            for i in range(4):
                r = _login(live, "Guarded Name", "wrong password", address=f"198.51.100.{i}")
                assert r.status_code == 401
            r = _post_login(own, "Guarded Name", PASS, NAT)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
            assert _detail(r)["retry_after"] in (59, 60)
            # the pair: 1 free failure, the 2nd takes its lock (60 s)
            answers = [
                _post_login(own, "Paired Name", "wrong password", NAT).status_code for _ in range(2)
            ]
            assert answers == [401, 401]
            r = _post_login(own, "Paired Name", PASS, NAT)
            assert (r.status_code, _detail(r)["code"]) == (429, "rate_limited")
            assert _detail(r)["retry_after"] in (59, 60)
            # another address is another pair
            assert _post_login(own, "Paired Name", PASS, "198.51.100.20").status_code == 200


@pytest.fixture(params=["memory", "redis"])
def throttle_settings(request: pytest.FixtureRequest) -> Iterator[ServerSettings]:
    """Login settings whose throttle counts in memory, or in the tests'
    Redis (keys under a prefix of the test's own, deleted at the end)."""
    settings = ServerSettings(login_pair_free=2, login_address_free=2, login_delay=60)
    if request.param == "memory":
        yield settings
        return
    import secrets

    import redis

    url: str = request.getfixturevalue("redis_url")
    prefix = f"rbtest{secrets.token_hex(4)}:"
    yield settings.but(redis_url=url, redis_prefix=prefix)
    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def test_known_devices_pass_the_address_lock_only(throttle_settings: ServerSettings) -> None:
    """:class:`Throttle` alone, in memory and in Redis: a device known for
    a name passes its address's lock (and adds nothing to its count), not
    the pair's; it is known for that name only, for ``login_device_ttl``."""

    async def run() -> None:
        throttle = Throttle(throttle_settings)
        try:
            assert not await throttle.known_device(None, "bob")
            device = await throttle.remember_device(None, "bob")
            assert valid_device(device) and len(device) == 43
            assert await throttle.remember_device(device, "bob") == device  # kept
            assert await throttle.remember_device("short", "bob") != "short"  # not a token
            assert await throttle.known_device(device, "bob")
            assert not await throttle.known_device(device, "eve")
            assert not await throttle.known_device(device_token(), "bob")
            # 2 free failures at the address, the 3rd takes its lock (60 s)
            for i in range(3):
                await throttle.login_claim(f"made up {i}", NAT)
            with pytest.raises(RateLimited):
                await throttle.login_claim("bob", NAT)
            address = f"login:address:{NAT}"
            assert await throttle.storage.get(f"{address}:fails") == 3
            # the known device: its pair's 2 free failures, the 3rd takes the pair's lock
            delays = [(await throttle.login_claim("bob", NAT, known_device=True)).delay]
            delays += [(await throttle.login_claim("bob", NAT, known_device=True)).delay]
            delays += [(await throttle.login_claim("bob", NAT, known_device=True)).delay]
            assert delays == [0, 0, 60]
            with pytest.raises(RateLimited) as refused:
                await throttle.login_claim("bob", NAT, known_device=True)
            assert refused.value.retry_after in (59, 60)
            assert await throttle.storage.get(f"{address}:fails") == 3  # nothing added
            key = Throttle._device_key(device, "bob")
            assert 0 < await throttle.storage.get_expiry(key) - time.time() <= 90 * 24 * 3600
        finally:
            await throttle.close()

    asyncio.run(run())


def test_claims_sent_at_once_count_as_if_one_after_the_other(
    throttle_settings: ServerSettings,
) -> None:
    """20 claims of one name from one address at once (in memory, and in
    Redis, where each would otherwise be several round trips): the 2 free
    failures and the 3rd, which takes the 60 s lock, pass; the 17 others
    are refused for 60 s, never a doubling earned by attempts that were
    then given back, and they count nowhere (3 failures per key).  The
    storage's steps are slowed, later ones less, so that steps of
    different claims would overtake each other if a claim were not one
    step."""

    async def run() -> None:
        throttle = Throttle(throttle_settings)
        storage: Any = throttle.storage
        calls = itertools.count()

        async def overtaken(key: str, expiry: float, amount: int = 1) -> int:
            await asyncio.sleep(max(0.0, 0.04 - 0.0004 * next(calls)))
            result: int = await real_incr(key, expiry, amount)
            return result

        real_incr = storage.incr
        storage.incr = overtaken
        try:
            answers = await asyncio.gather(
                *(throttle.login_claim("carol", "192.0.2.9") for _ in range(20)),
                return_exceptions=True,
            )
            passed = [a.delay for a in answers if isinstance(a, LoginClaim)]
            refused = [a.retry_after for a in answers if isinstance(a, RateLimited)]
            assert sorted(passed) == [0, 0, 60]
            # what is left of the 60 s lock (the slowed steps take a few seconds)
            assert len(refused) == 17 and all(50 <= wait <= 60 for wait in refused)
            keys = throttle._login_keys("carol", "192.0.2.9")
            assert [await throttle.storage.get(f"{key}:fails") for _, key in keys] == [3, 3, 3]
        finally:
            await throttle.close()

    asyncio.run(run())


def test_password_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    running = 0
    most = 0
    lock = threading.Lock()

    def slow_hash(password: str) -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return "h:" + password

    async def run() -> tuple[list[str | BaseException], int]:
        work = PasswordWork(workers=2, queue=3)
        results = await asyncio.gather(
            *(work.hash(str(i)) for i in range(8)), return_exceptions=True
        )
        return results, most

    monkeypatch.setattr(passwords, "hash_password", slow_hash)
    results, peak = asyncio.run(run())
    assert peak == 2
    assert [r for r in results if isinstance(r, str)] == [f"h:{i}" for i in range(5)]
    assert all(isinstance(r, Busy) for r in results[5:])


# ------------------------------------------------------------------ passwords


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short", "short"),
        ("12345678", "common"),
        ("PassWord1", "common"),
        ("azertyuiop", "common"),
        ("victor hugo", "name"),
        ("hugo-2024-hugo", "name"),
        ("zzzzzzzzzzzz", "repeated"),
        ("abababababab", "repeated"),
        ("9876543210987", "sequence"),
        ("qsdfghjklm", "sequence"),
        ("hgfedcbazyx", "sequence"),
        ("correct horse battery", None),
    ],
)
def test_weak_passwords(password: str, reason: str | None) -> None:
    found = password_problem(password, "Victor Hugo")
    assert (found and found[0]) == reason


def test_signup_and_change_refuse_weak_passwords(server: LiveServer) -> None:
    p = Player(server)
    for password, reason in (("12345678", "common"), ("Ada Byron!", "name")):
        r = p.http.post("/api/auth/signup", json={"name": "Ada Byron", "password": password})
        assert r.status_code == 400
        assert _detail(r)["code"] == "weak_password" and _detail(r)["reason"] == reason
    p.signup("Ada Byron", PASS)
    r = p.post("/api/auth/password", {"old": PASS, "new": "iloveyou"})
    assert r.status_code == 400 and _detail(r) == {
        "code": "weak_password",
        "message": "that password is one of the most common ones: choose another",
        "reason": "common",
    }
    lone = '{"name": "Ada Byron", "password": "\\ud800\\ud800\\ud800\\ud800x"}'  # JSON escapes
    r = p.http.post("/api/auth/login", content=lone, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and _detail(r)["field"] == "password"
    p.close()


# ------------------------------------------------------------------ names


def _alike(a: str, b: str) -> bool:
    """Whether an account named ``b`` is refused beside one named ``a``
    for reading like it (either skeleton the same)."""
    return any(x == y for x, y in zip(skeletons(a), skeletons(b), strict=True))


def test_skeletons_join_look_alikes_only() -> None:
    assert skeleton("\u0410lice Smith") == skeleton("Alice Smith") == "a1ice smith"
    assert lower_skeleton("ALICE SMITH") == lower_skeleton("Alice Smith") == "a1ice smith"
    assert skeleton("\u0420\u0430\u0443\u0440\u0430l") == skeleton(
        "Paypal"
    )  # Cyrillic Er, a, u, er, a
    assert not _alike("Ali", "All")
    assert not _alike("Bob", "Rob")
    assert not _alike("Zo\u00e9", "Zoe")
    assert not _alike("H\u00e9l\u00e8ne", "Helene")
    assert not _alike("Fran\u00e7ois", "Francois")
    # two letters that read as one, and a dot under a letter
    assert skeleton("Alice Srnith") == skeleton("Alice Smith") == lower_skeleton("ALICE SRNITH")
    assert skeleton("Vvill") == skeleton("Will")
    assert skeleton("Ali\u0323ce") == skeleton("Al\u1ecbce") == skeleton("Alice")
    assert not _alike("Smith", "Snith")


# the look-alikes the second review found accepted (capitals casefolded before
# their shape was read), each beside the name it imitates
REVIEW_LOOK_ALIKES = [
    ("Alice Smith", "AIice Smith"),  # capital I for l
    ("Hugo Bell", "\u041dugo Bell"),  # Cyrillic capital En
    ("Ben Marsh", "\u0412en Marsh"),  # Cyrillic capital Ve
    ("Kate Hill", "\u041aate Hill"),  # Cyrillic capital Ka
    ("Mark Tate", "\u041cark \u0422ate"),  # Cyrillic capitals Em, Te
    ("Helen Ross", "\u0397elen Ross"),  # Greek capital Eta
    ("Ivan Petit", "lvan Petit"),  # small l for I
    ("Olivia Moon", "0livia Moon"),  # digit 0 for O
    ("Booker Bay", "B\ua74fker Bay"),  # U+A74F, a small letter oo
]

# names that must stay apart: a letter more, an accent that shows, a capital
# that reads as itself
DISTINCT_NAMES = [
    ("Ana", "Anna"),
    ("Lea", "L\u00e9a"),
    ("Zoe", "Zo\u00e9"),
    ("Ian", "Lan"),
    ("Ivan", "Evan"),
    ("Olivia", "Oliva"),
    ("Booker", "Booher"),
]


@pytest.mark.parametrize(("first", "second"), REVIEW_LOOK_ALIKES)
def test_capitals_are_read_by_their_shape(first: str, second: str) -> None:
    assert skeleton(first) == skeleton(second)
    assert _alike(first, second) and _alike(second, first)


@pytest.mark.parametrize(("first", "second"), DISTINCT_NAMES)
def test_names_that_only_look_close_stay_apart(first: str, second: str) -> None:
    assert not _alike(first, second)


def test_the_lower_case_reading_is_kept() -> None:
    """A capital that reads as a small l beside a name stored in lower
    case: ``"\u0406van"`` (a Cyrillic capital I) shows as ``"Ivan"``, the
    name of the account ``"ivan"``."""
    assert skeleton("\u0406van") == skeleton("Ivan") == "1van" != skeleton("ivan")
    assert lower_skeleton("\u0406van") == lower_skeleton("ivan") == "ivan"
    assert _alike("ivan", "\u0406van") and _alike("\u0406van", "Ivan")
    # 0 reads as O, and O as o once casefolded
    assert skeletons("0livia") == skeletons("olivia") == ("o1ivia", "o1ivia")


def test_a_long_skeleton_is_stored_as_its_digest() -> None:
    name = "\ua74f" * 30  # 30 characters, each read as "oo"
    assert skeleton(name) == "~" + hashlib.sha256(("o" * 60).encode()).hexdigest()[:39]
    assert skeleton("o" * 60) == skeleton(name)
    assert len(skeleton(name)) == 40 and skeleton("Alice") == "a1ice"


def test_hidden_characters() -> None:
    assert hidden_characters("Al\u200bice\u202e\x00\ufeff") == [
        "U+200B",
        "U+202E",
        "U+0000",
        "U+FEFF",
    ]
    assert hidden_characters("Ren\u00e9 O'Brien-\u674e") == []
    fillers = "a\u3164b\u115fc\u1160d\uffa0e\u2800f\u034fg\u17b4h\u180bi\ufe0f"
    assert hidden_characters(fillers) == [
        "U+3164",
        "U+115F",
        "U+1160",
        "U+FFA0",
        "U+2800",
        "U+034F",
        "U+17B4",
        "U+180B",
        "U+FE0F",
    ]
    # an emoji's presentation selector, after its symbol, is no hidden character
    assert hidden_characters("\u2665\ufe0f Belote") == []


def test_marks_that_do_not_join_their_letter() -> None:
    assert loose_marks("Zoe\u0301 Ali\u0323ce") == []  # they join: \u00e9, \u1ecb
    assert loose_marks("x\u0323\u0323y a\u0300\u0301") == ["U+0323", "U+0301"]


def test_a_name_that_reads_like_an_accounts_is_refused(server: LiveServer) -> None:
    Player(server).signup("Alice Smith", PASS).close()
    cyrillic = "\u0410lice Smith"
    r = Player(server).http.post("/api/auth/signup", json={"name": cyrillic, "password": PASS})
    assert r.status_code == 409
    assert _detail(r) == {
        "code": "name_taken",
        "message": f"the name {cyrillic!r} is taken, or reads like one taken",
    }
    r = Player(server).http.post("/api/auth/guest", json={"name": cyrillic})
    assert r.status_code == 409 and _detail(r)["code"] == "name_taken"
    # a guest who signs up under it is refused too
    gus = Player(server).guest("Gus")
    r = gus.http.post("/api/auth/signup", json={"name": "A1ice Smith", "password": PASS})
    assert r.status_code == 409
    assert server.app.state.store.account_like("alice smith").name == "Alice Smith"
    gus.close()


@pytest.mark.parametrize(
    "name",
    [
        "Alice\u202eSmith",
        "Al\u200bice",
        "Bob\u200d",
        "a\x00b",
        "\u2066Eve\u2069",
        "x\ufeffy",
        "Alice\u3164Smith",
        "Alice \u115fSmith",
        "Alice\u1160Smith",
        "Alice\uffa0Smith",
        "Alice\u2800Smith",
    ],
)
def test_invisible_and_direction_characters_are_refused_in_names(
    server: LiveServer, name: str
) -> None:
    for path, body in (
        ("/api/auth/signup", {"name": name, "password": PASS}),
        ("/api/auth/guest", {"name": name}),
    ):
        r = Player(server).http.post(path, json=body)
        assert r.status_code == 400 and _detail(r)["code"] == "bad_name", r.text
    with server.http() as http:
        r = http.post("/api/tables", json={"name": name})
        assert r.status_code == 422 and _detail(r)["field"] == "name"
    host = Player(server).guest("Table Host")
    r = host.post("/api/lobby/tables", {"name": name})
    assert r.status_code == 422 and _detail(r)["field"] == "name"
    host.close()


def test_look_alike_names_of_the_review_are_refused(server: LiveServer) -> None:
    """After "Alice Smith": "rn" for "m" and a dot below are taken (409), a
    mark that joins no letter and a Hangul filler are refused (400); names
    with accents, typed precomposed or as combining marks, are accepted
    (and stored precomposed)."""
    Player(server).signup("Alice Smith", PASS).close()
    outcomes = {}
    for name in ("Alice Srnith", "Ali\u0323ce Smith", "Al\u0131ce Smith"):
        for path, body in (
            ("/api/auth/signup", {"name": name, "password": PASS}),
            ("/api/auth/guest", {"name": name}),
        ):
            r = Player(server).http.post(path, json=body)
            outcomes[(name, path)] = (r.status_code, _detail(r)["code"])
    assert set(outcomes.values()) == {(409, "name_taken")}
    for name, shown in (
        ("Alice \u0323\u0301Smith", "U+0323, U+0301"),
        ("Alice\u3164Smith", "U+3164"),
    ):
        r = Player(server).http.post("/api/auth/signup", json={"name": name, "password": PASS})
        assert r.status_code == 400 and _detail(r)["code"] == "bad_name"
        assert shown in _detail(r)["message"]
    accepted = []
    for typed in ("He\u0301le\u0300ne", "Zo\u00e9", "Franc\u0327ois", "N\u0303on\u0303o"):
        p = Player(server).signup(typed, PASS)
        assert p.user is not None
        accepted.append(p.user["name"])
        p.close()
    assert accepted == ["H\u00e9l\u00e8ne", "Zo\u00e9", "Fran\u00e7ois", "\u00d1o\u00f1o"]


def test_the_migration_computes_the_skeletons_again(tmp_path: Path) -> None:
    """``r0007``: the skeletons as the rule reads them now, in id order; a
    later account whose new skeleton an older one has keeps none."""
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage.tables import Store, alembic_config

    store = Store(f"sqlite:///{tmp_path / 'r0006.db'}")
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0006")
    with store.engine.begin() as connection:
        # the skeletons the rule before r0007 gave them (no folds)
        for name, key, look in (
            ("Alice Smith", "alice smith", "a1ice smith"),
            ("Alice Srnith", "alice srnith", "a1ice srnith"),
            ("Will", "will", "wi11"),
            ("Vvill", "vvill", "vvi11"),
        ):
            connection.execute(
                text(
                    "INSERT INTO users (name, name_key, name_skeleton, guest, created, mu, "
                    "sigma, rated, matches, xp) VALUES (:n, :k, :s, 0, '2026-12-01 00:00:00', "
                    "25, 8.3, 0, 0, 0)"
                ),
                {"n": name, "k": key, "s": look},
            )
    store.migrate()
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT name, name_skeleton FROM users ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [
        ("Alice Smith", "a1ice smith"),
        ("Alice Srnith", None),
        ("Will", "wi11"),
        ("Vvill", None),
    ]
    store.close()


def test_the_migration_fills_the_skeletons_of_existing_accounts(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage.tables import Store, alembic_config

    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0004")
    with store.engine.begin() as connection:
        for name, key in (("Alice", "alice"), ("\u0410lice", "\u0430lice"), ("Bob", "bob")):
            connection.execute(
                text(
                    "INSERT INTO users (name, name_key, guest, created, mu, sigma, rated, "
                    "matches, xp) VALUES (:n, :k, 0, '2026-12-01 00:00:00', 25, 8.3, 0, 0, 0)"
                ),
                {"n": name, "k": key},
            )
    store.migrate()
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT name, name_skeleton FROM users ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [
        ("Alice", skeleton("Alice")),
        ("\u0410lice", None),
        ("Bob", "bob"),
    ]
    store.close()


def test_r0008_keeps_both_accounts_that_now_read_alike(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``r0008``: both skeletons of every account, in id order; two accounts
    opened before the rule that now read alike are both kept, the later
    without the key the older has (null), a warning naming them; both still
    log in by name; a new look-alike of either is taken."""
    from alembic import command
    from sqlalchemy import text

    from rebelote.server.storage.people import NameTakenError
    from rebelote.server.storage.tables import Store, alembic_config

    store = Store(db_url)
    config = alembic_config(store.url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "r0007")
    accounts = [
        ("Alice", "a1ice"),  # the skeletons the rule of r0007 gave them
        ("AIice", "aiice"),
        ("ivan", "ivan"),
        ("\u0406van", None),  # Cyrillic capital I: r0007 left it none beside ivan
        ("Bob", "bob"),
    ]
    with store.engine.begin() as connection:
        for name, look in accounts:
            connection.execute(
                text(
                    "INSERT INTO users (name, name_key, name_skeleton, guest, created, mu, "
                    "sigma, rated, matches, xp) VALUES (:n, :k, :s, false, "
                    "'2026-12-01 00:00:00', 25, 8.3, 0, 0, 0)"
                ),
                {"n": name, "k": name.casefold(), "s": look},
            )
    with caplog.at_level("WARNING"):
        store.migrate()
    with store.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT name, name_skeleton, name_lower_skeleton FROM users ORDER BY id")
        ).all()
    assert [tuple(r) for r in rows] == [
        ("Alice", "a1ice", "a1ice"),
        ("AIice", None, "aiice"),
        ("ivan", "ivan", "ivan"),
        ("\u0406van", "1van", None),
        ("Bob", "bob", "bob"),
    ]
    warnings = [r.getMessage() for r in caplog.records if "r0008" in r.getMessage()]
    assert warnings == [
        "r0008: account 2 'AIice' reads like the older account 1 'Alice': "
        "both kept, the later without that key",
        "r0008: account 4 '\u0406van' reads like the older account 3 'ivan': "
        "both kept, the later without that key",
    ]
    assert [u.name for u in store.accounts_named("aiice")] == ["AIice"]
    assert [u.name for u in store.accounts_named("\u0406VAN")] == ["\u0406van"]
    for taken in ("A1ice", "Al\u0131ce", "IVAN", "lvan"):
        with pytest.raises(NameTakenError):
            store.create_user(taken, None, guest=False)
    assert store.account_like("AIice") is not None and store.account_like("A1ice") is not None
    assert store.create_user("Alma", None, guest=False).name == "Alma"
    store.close()


def test_the_look_alikes_of_the_second_review_are_taken(server: LiveServer) -> None:
    """Each pair of the second review (``names2.py``), and its reverse: the
    second name is 409 ``name_taken`` beside the first, for a sign-up and a
    guest; names that only look close are both accepted."""
    outcomes: dict[str, tuple[int, str]] = {}
    for n, (first, second) in enumerate(REVIEW_LOOK_ALIKES):
        if n % 2:
            first, second = second, first
        Player(server).signup(first, PASS).close()
        for path, body in (
            ("/api/auth/signup", {"name": second, "password": PASS}),
            ("/api/auth/guest", {"name": second}),
        ):
            r = Player(server).http.post(path, json=body)
            outcomes[f"{second} {path}"] = (r.status_code, _detail(r)["code"])
    assert set(outcomes.values()) == {(409, "name_taken")}
    assert len(outcomes) == 2 * len(REVIEW_LOOK_ALIKES)
    accepted = []
    for pair in DISTINCT_NAMES:
        for name in pair:
            p = Player(server).signup(name, PASS)
            assert p.user is not None
            accepted.append(p.user["name"])
            p.close()
    assert accepted == [name for pair in DISTINCT_NAMES for name in pair]


def test_tests_servers_relax_only_the_throttles() -> None:
    defaults = ServerSettings()
    relaxed = {
        "signup_rate",
        "guest_rate",
        "solo_table_rate",
        "lobby_table_rate",
        "table_address_rate",
        "global_signup_rate",
        "replay_rate",
        "socket_connect_rate",
        "login_pair_free",
        "login_address_free",
        "login_name_free",
    }
    for field in dataclasses.fields(ServerSettings):
        same = getattr(defaults, field.name) == getattr(TEST_SETTINGS, field.name)
        assert same != (field.name in relaxed), field.name
