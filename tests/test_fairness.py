"""Provably fair deals (issue 18, point 5): the commitment's byte layout, the
pack a seed gives (the test vector of ``docs/fair-deals.md``), the shuffle's
rejection of biased words, and :func:`rebelote.fairness.verify` on deal and
match records, genuine and tampered with (the ``rebelote verify`` command
itself is run in ``tests/server/test_fair_deals.py`` on a server's
record)."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rebelote import fairness
from rebelote.actions import Action, ChoosePattern, Cut
from rebelote.cards import card_name, cards_of, parse_cards
from rebelote.fairness import (
    FairnessError,
    FairProof,
    commitment,
    dealt_hands,
    derive_cut,
    derive_pack,
    ordered_pack,
    random_words,
    server_cut,
    server_pattern,
    verify,
)
from rebelote.record import new_deal_record
from rebelote.rules import Rules, preset
from rebelote.seats import Seat
from rebelote.state import State

SEED = bytes(range(32))
"""The test vector's seed: bytes 0x00 to 0x1f."""

SALT = bytes(range(32, 64))
"""The test vector's salt: bytes 0x20 to 0x3f."""

COMMITMENT = "23736ece39bbb54fd4e539f7910d972f02644dec7990357944fa07632117b3c3"
"""SHA-256 of ``b"rebelote/commit/v1" + SEED + SALT``."""

PACK_32 = (
    "9C QH 10H JC 9S JD AD 9D 8S AS AH 9H QS 8H KH 7H "
    "KC QD JH KS KD 7C 10D 7D 10C 10S 8D JS 7S QC AC 8C"
)
"""The 32-card pack :data:`SEED` gives, top card first."""

PACK_24 = "AD QH 10D JS QC AC JD JC KC AH KH 9H QS KS 9D 9C QD 10H 10C 9S JH AS KD 10S"
"""The 24-card pack (three players) :data:`SEED` gives."""


def test_commitment_of_the_test_vector() -> None:
    assert commitment(SEED, SALT) == COMMITMENT
    # the documented layout: the tag, then the seed, then the salt
    assert hashlib.sha256(b"rebelote/commit/v1" + SEED + SALT).hexdigest() == COMMITMENT
    assert commitment(SALT, SEED) != COMMITMENT


def test_commitment_refuses_other_lengths() -> None:
    with pytest.raises(ValueError, match="32 bytes each"):
        commitment(SEED[:31], SALT)
    with pytest.raises(ValueError, match="32 bytes each"):
        commitment(SEED, SALT + b"\0")


def test_the_stream_is_hmac_sha256_of_the_tag_and_counter() -> None:
    import hmac

    words = random_words(SEED)
    first = [next(words) for _ in range(9)]
    block0 = hmac.new(SEED, b"rebelote/shuffle/v1" + bytes(8), hashlib.sha256).digest()
    block1 = hmac.new(SEED, b"rebelote/shuffle/v1" + (1).to_bytes(8, "big"), "sha256").digest()
    assert first[:8] == [int.from_bytes(block0[i : i + 4], "big") for i in range(0, 32, 4)]
    assert first[8] == int.from_bytes(block1[:4], "big")


def test_the_pack_of_the_test_vector() -> None:
    assert [card_name(c) for c in derive_pack(SEED)] == PACK_32.split()
    assert [card_name(c) for c in derive_pack(SEED, 3)] == PACK_24.split()


def test_the_ordered_pack() -> None:
    four = " ".join(card_name(c) for c in ordered_pack(4))
    three = " ".join(card_name(c) for c in ordered_pack(3))
    assert four.startswith("7S 8S 9S 10S JS QS KS AS 7H 8H") and four.endswith("KC AC")
    assert three.startswith("9S 10S JS QS KS AS 9H") and three.endswith("QC KC AC")
    assert ordered_pack(2) == ordered_pack(4)  # the two-player game: 32 cards
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        ordered_pack(5)


def test_derive_pack_refuses_a_short_seed() -> None:
    with pytest.raises(ValueError, match="32 bytes, not 16"):
        derive_pack(SEED[:16])


def test_words_past_the_last_whole_multiple_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing ``j`` in ``0..i``: a word at or above ``2**32 - 2**32 % (i +
    1)`` is skipped (no modulo bias); below it, ``j = word % (i + 1)``.
    With 24 cards the first bound is 24 (limit ``2**32 - 16``)."""
    words = [2**32 - 1, 2**32 - 16, 5] + [0] * 22  # two skipped, then j = 5 ...

    def stream(seed: bytes) -> Iterator[int]:
        yield from words

    monkeypatch.setattr(fairness, "random_words", stream)
    pack = [card_name(c) for c in derive_pack(SEED, 3)]
    # i = 23 swaps with 5 (AS <-> AC), then every j = 0: pack[i] <-> pack[0]
    expected = [card_name(c) for c in ordered_pack(3)]
    expected[23], expected[5] = expected[5], expected[23]
    for i in range(22, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert pack == expected
    assert expected[23] == "AS" and expected[:3] == ["10S", "JS", "QS"]
    # a last word of 2**32 - 17 is kept: 4294967279 % 24 == 23 (no swap)
    words[:3] = [2**32 - 17]
    monkeypatch.setattr(fairness, "random_words", stream)
    assert derive_pack(SEED, 3)[23] == ordered_pack(3)[23]


def test_the_server_cut_of_the_test_vector() -> None:
    """The first word of the cut's stream (HMAC-SHA256 of
    ``b"rebelote/cut/v1"`` and counter 0) is 172314290: index 172314290 %
    29 = 2 among the 29 cuts of 2 to 30 cards (packets of at least 2),
    the cut of 4; 172314290 % 31 = 15 among 1 to 31, 16."""
    import hmac

    block = hmac.new(SEED, b"rebelote/cut/v1" + bytes(8), hashlib.sha256).digest()
    assert int.from_bytes(block[:4], "big") == 172314290
    assert derive_cut(SEED, list(range(2, 31))) == 4
    assert derive_cut(SEED, list(range(1, 32))) == 16
    state = State.new(preset("ffb"), Seat.E, derive_pack(SEED))
    assert server_cut(state, SEED) == Cut(4)
    assert server_pattern(state) is None
    state.apply(Cut(4), Seat.S)  # the dealer's left cuts
    assert server_cut(state, SEED) is None
    assert server_pattern(state) == ChoosePattern("3-2")
    three = State.new(preset("three-players"), Seat.W, derive_pack(SEED, 3))
    assert server_cut(three, SEED) == Cut(10)  # 21 cuts of 2 to 22: index 172314290 % 21 = 8
    with pytest.raises(ValueError, match="no cut"):
        derive_cut(SEED, [])


def _played(rules: Rules, dealer: Seat, seed: bytes, rng: random.Random) -> list[tuple[Seat, str]]:
    """The actions of a deal of the pack ``seed`` gives, played at random."""
    state = State.new(rules, dealer, derive_pack(seed, rules.players))
    actions = []
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        action = rng.choice(state.legal_actions())
        state.apply(action, seat)
        actions.append((seat, action.text))
    return actions


def _deal_record(
    rules: Rules | None = None, seed: bytes = SEED, salt: bytes = SALT, rng_seed: int = 3
) -> dict[str, Any]:
    rules = rules or preset("ffb")
    actions = _played(rules, Seat.E, seed, random.Random(rng_seed))
    return new_deal_record(
        rules,
        Seat.E,
        actions,
        pack=derive_pack(seed, rules.players),
        fair=FairProof.new(seed, salt).to_json(),
    )


def _refused(record: object) -> FairnessError:
    with pytest.raises(FairnessError) as exc:
        verify(record)
    return exc.value


def test_a_genuine_deal_record_verifies() -> None:
    record = _deal_record()
    assert record["fair"] == {"commitment": COMMITMENT, "seed": SEED.hex(), "salt": SALT.hex()}
    (deal,) = verify(record)
    assert deal.to_json() == {"deal": 1, "commitment": COMMITMENT, "seed": SEED.hex()}


def test_a_genuine_match_record_verifies() -> None:
    rules = preset("seed001")
    deals = []
    for n in range(3):
        seed = hashlib.sha256(b"seed %d" % n).digest()
        salt = hashlib.sha256(b"salt %d" % n).digest()
        deal = _deal_record(rules, seed, salt, rng_seed=n)
        del deal["format"], deal["rules"]
        deals.append(deal)
    deals[1]["dealer"], deals[2]["dealer"] = "E", "E"  # a warning, not a refusal
    match = {"format": 2, "rules": "seed001", "deals": deals}
    assert [d.deal for d in verify(match)] == [1, 2, 3]
    assert [d.commitment for d in verify(match)] == [d["fair"]["commitment"] for d in deals]


def _hand_cards(record: dict[str, Any]) -> tuple[dict[Seat, int], list[str]]:
    rules = preset("ffb")
    actions = [(Seat[a["seat"]], a["action"]) for a in record["actions"]]
    hands, _ = dealt_hands(rules, Seat.E, parse_cards(record["pack"]), actions)
    return hands, record["pack"]


def test_one_card_swapped_between_two_hands_is_refused_naming_the_deal() -> None:
    record = _deal_record()
    hands, pack = _hand_cards(record)
    north = card_name(next(cards_of(hands[Seat.N])))
    east = card_name(next(cards_of(hands[Seat.E])))
    i, j = pack.index(north), pack.index(east)
    pack[i], pack[j] = pack[j], pack[i]
    error = _refused(record)
    assert (error.deal, error.check) == (1, "hands")
    message = str(error)
    assert message.startswith("deal 1: the hands check failed")
    assert f"({east} instead of {north})" in message  # North now holds East's card
    assert f"({north} instead of {east})" in message
    assert error.payload == {
        "ok": False,
        "error": "not verified",
        "deal": 1,
        "check": "hands",
        "message": message,
    }


def test_a_changed_salt_is_refused_by_the_commitment_check() -> None:
    record = _deal_record()
    record["fair"]["salt"] = "00" + record["fair"]["salt"][2:]
    error = _refused(record)
    assert (error.deal, error.check) == (1, "commitment")
    other = commitment(SEED, bytes(1) + SALT[1:])
    assert str(error) == (
        f"deal 1: the commitment check failed: the commitment published before the deal "
        f"({COMMITMENT}) is not SHA-256 of the seed and salt revealed after it (they give "
        f"{other}): the seed, the salt or the commitment was changed"
    )


def test_a_changed_seed_with_its_commitment_is_refused_by_the_pack() -> None:
    """Whoever changes the seed and computes the commitment again must
    change the pack too: the seed's pack deals other hands."""
    record = _deal_record()
    seed = bytes(32)
    record["fair"] = FairProof.new(seed, SALT).to_json()
    error = _refused(record)
    assert (error.deal, error.check) == (1, "hands")


def test_undealt_cards_swapped_are_refused_by_the_pack_check() -> None:
    """Everyone passes: 11 cards are never dealt; two of them swapped
    change no hand, and the pack check names the first card that differs."""
    rules = preset("ffb")
    state = State.new(rules, Seat.E, derive_pack(SEED))
    actions = []
    while not state.is_terminal:  # the first legal action: cut 2, deal 3-2, pass
        seat = state.current
        assert seat is not None
        action = state.legal_actions()[0]
        state.apply(action, seat)
        actions.append((seat, action.text))
    assert [a for _, a in actions] == ["cut 2", "deal 3-2"] + ["pass"] * 8
    pack = [card_name(c) for c in derive_pack(SEED)]
    record = new_deal_record(
        rules, Seat.E, actions, pack=parse_cards(pack), fair=FairProof.new(SEED, SALT).to_json()
    )
    assert verify(record)[0].deal == 1
    # cut n, 21 cards dealt (20 and the turned card): the deck's last 11 are not
    cut = int(actions[0][1].split()[1])
    deck = list(range(cut, 32)) + list(range(cut))
    a, b = sorted(deck[-1:-3:-1])
    record["pack"][a], record["pack"][b] = record["pack"][b], record["pack"][a]
    error = _refused(record)
    assert (error.deal, error.check) == (1, "pack")
    assert str(error) == (
        f"deal 1: the pack check failed: card {a + 1} of the pack is {pack[b]} in the "
        f"record, but {pack[a]} by the seed (a card no one was dealt)"
    )


def test_a_record_without_proof_or_pack_is_not_verified() -> None:
    record = _deal_record()
    bare = copy.deepcopy(record)
    del bare["fair"]
    error = _refused(bare)
    assert (error.deal, error.check) == (1, "fair")
    assert "carries no commitment, seed and salt" in str(error)
    sealed = copy.deepcopy(record)
    sealed["fair"] = {"commitment": COMMITMENT}
    assert "not revealed" in str(_refused(sealed))
    bad = copy.deepcopy(record)
    bad["fair"]["seed"] = "XY" * 32
    assert str(_refused(bad)) == "deal 1: the seed must be 64 lowercase hex digits"
    deck = copy.deepcopy(record)
    deck["deck"] = deck.pop("pack")
    assert _refused(deck).check == "pack"
    match = {"format": 2, "rules": "ffb", "deals": [record, bare]}
    assert (_refused(match).deal, _refused(match).check) == (2, "fair")


def test_the_servers_cut_and_pattern_are_the_seeds() -> None:
    """``fair.cut`` / ``fair.pattern`` ``server``: the record's cut and the
    dealer's pattern must be the seed's (a person's, ``player``, are not
    checked)."""
    rules = preset("ffb")
    state = State.new(rules, Seat.E, derive_pack(SEED))
    actions = []
    first: list[Action] = [Cut(4), ChoosePattern("3-2")]
    rng = random.Random(2)
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        action = first.pop(0) if first else rng.choice(state.legal_actions())
        state.apply(action, seat)
        actions.append((seat, action.text))
    fair = {**FairProof.new(SEED, SALT).to_json(), "cut": "server", "pattern": "server"}
    record = new_deal_record(rules, Seat.E, actions, pack=derive_pack(SEED), fair=fair)
    assert [d.deal for d in verify(record)] == [1]
    other = copy.deepcopy(record)
    other["actions"][0]["action"] = "cut 5"
    error = _refused(other)
    assert (error.deal, error.check) == (1, "cut")
    assert str(error) == (
        "deal 1: the cut check failed: the server made the cut (action 1, 'cut 5'), "
        "but the seed gives 'cut 4'"
    )
    other["fair"]["cut"] = "player"  # a person's cut: not the seed's to check
    assert _refused(other).check != "cut"
    pattern = copy.deepcopy(record)
    pattern["actions"][1]["action"] = "deal 2-3"
    error = _refused(pattern)
    assert (error.deal, error.check) == (1, "pattern")
    assert "but the seed gives 'deal 3-2'" in str(error)
    pattern["fair"]["pattern"] = "robot"
    assert str(_refused(pattern)) == 'deal 1: \'fair.pattern\' must be "server" or "player"'


def test_an_illegal_action_is_refused_by_the_replay() -> None:
    """The cards are the seed's, an action is not legal: the record check
    (the replay's reason) names the deal."""
    record = _deal_record()
    last = record["actions"][-1]
    last["seat"] = "N" if last["seat"] != "N" else "W"
    error = _refused(record)
    assert (error.deal, error.check) == (1, "record")
    assert str(error).startswith("deal 1: the record does not replay: action 3")
