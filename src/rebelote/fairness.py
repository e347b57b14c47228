"""Provably fair deals: the commitment, the pack derived from a seed, and the
check of a record (``rebelote verify``).

Before a deal the server draws a 32-byte ``seed`` and a 32-byte ``salt``,
derives the pack from the seed (:func:`derive_pack`) and publishes the
:func:`commitment`, ``SHA-256(COMMIT_TAG || seed || salt)``; once the deal
is over it reveals the seed and the salt.  Anyone can then recompute the
commitment and the pack, and deal the pack with the cut and the dealer's
pattern that the record holds (public actions of the deal) to check every
hand (:func:`verify`).  The byte layout and the algorithm, with a test
vector, are in ``docs/fair-deals.md``; nothing here is specific to Python
(HMAC-SHA256, big-endian integers, a Fisher-Yates shuffle).

- Commitment: ``SHA-256(b"rebelote/commit/v1" || seed || salt)``, seed and
  salt 32 bytes each (82 bytes hashed), written as 64 lowercase hex
  digits.
- Stream: block ``i`` (0, 1, 2, ...) is ``HMAC-SHA256(key=seed,
  msg=b"rebelote/shuffle/v1" || i as 8 bytes big-endian)``; the stream is
  the blocks one after the other, read 4 bytes at a time as big-endian
  unsigned 32-bit words.
- Shuffle: the ordered pack (:func:`ordered_pack`: ``7S 8S 9S 10S JS QS KS
  AS 7H ... AC``, 7s and 8s left out with 24 cards), then for ``i`` from
  ``n - 1`` down to 1, ``j`` uniform in ``0..i`` and swap ``pack[i]`` and
  ``pack[j]``.  ``j`` is drawn without modulo bias: with ``bound = i + 1``
  and ``limit = 2**32 - 2**32 % bound``, words ``w >= limit`` are skipped
  and ``j = w % bound`` for the first word below ``limit``.  ``pack[0]``
  is the top card.
- The server's cut (when no person cuts: :func:`derive_cut`): the legal
  packets above 0 in increasing order, the one at an index uniform in
  ``0..count - 1``, drawn as above from the stream of :data:`CUT_TAG`.
  The server's pattern (when no person deals): the rules' first.

This module does no I/O and draws no random numbers: the seed is given.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import ChoosePattern, Cut, InvalidActionError
from .cards import DECK_24, DECK_32, Card, CardMask, CardParseError, CardSet, card_name, cards_of
from .cards import parse_card as _parse_card
from .record import RecordError, replay
from .rules import Rules, RulesError
from .seats import Seat
from .state import AmbiguousActionError, DealError, IllegalActionError, Phase, State

__all__ = [
    "COMMIT_TAG",
    "CUT_TAG",
    "SALT_BYTES",
    "SEED_BYTES",
    "STREAM_TAG",
    "FairProof",
    "FairnessError",
    "VerifiedDeal",
    "commitment",
    "dealt_hands",
    "derive_cut",
    "derive_pack",
    "ordered_pack",
    "random_words",
    "server_cut",
    "server_pattern",
    "verify",
]

COMMIT_TAG = b"rebelote/commit/v1"
"""The 18 bytes hashed before the seed and the salt in a commitment."""

STREAM_TAG = b"rebelote/shuffle/v1"
"""The 19 bytes before the block counter in each HMAC of the shuffle's stream."""

CUT_TAG = b"rebelote/cut/v1"
"""The 15 bytes before the block counter in each HMAC of the cut's stream."""

SEED_BYTES = 32
"""The length of a deal's seed, in bytes."""

SALT_BYTES = 32
"""The length of a deal's salt, in bytes."""

_HEX = frozenset("0123456789abcdef")


def commitment(seed: bytes, salt: bytes) -> str:
    """The commitment to a deal: ``SHA-256(COMMIT_TAG || seed || salt)`` as
    64 lowercase hex digits.  Raises ``ValueError`` unless ``seed`` is
    :data:`SEED_BYTES` and ``salt`` :data:`SALT_BYTES` bytes long (fixed
    lengths: no two pairs give the same bytes)."""
    if len(seed) != SEED_BYTES or len(salt) != SALT_BYTES:
        raise ValueError(f"the seed and the salt are {SEED_BYTES} bytes each")
    return hashlib.sha256(COMMIT_TAG + seed + salt).hexdigest()


def random_words(seed: bytes, tag: bytes = STREAM_TAG) -> Iterator[int]:
    """The endless stream of unsigned 32-bit words drawn from ``seed``: the
    HMAC-SHA256 blocks of ``tag`` (:data:`STREAM_TAG`, :data:`CUT_TAG`) and
    a big-endian 8-byte counter (0, 1, ...), each cut into 8 big-endian
    words."""
    counter = 0
    while True:
        block = hmac.new(seed, tag + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k : k + 4], "big")
        counter += 1


def _uniform(words: Iterator[int], bound: int) -> int:
    """A number uniform in ``0..bound - 1`` from ``words``, without modulo
    bias: words at or above ``2**32 - 2**32 % bound`` are skipped."""
    limit = (1 << 32) - (1 << 32) % bound
    word = next(words)
    while word >= limit:
        word = next(words)
    return word % bound


def ordered_pack(players: int = 4) -> list[Card]:
    """The pack before shuffling: ``7S 8S 9S 10S JS QS KS AS``, then hearts,
    diamonds and clubs in the same order (no 7s or 8s for ``players`` 3:
    24 cards; the two-player game uses the 32, RULES.md "Two players").
    Raises ``ValueError`` for another number of players."""
    if players not in (2, 3, 4):
        raise ValueError(f"a Belote table has 2, 3 or 4 players, not {players!r}")
    return list(cards_of(DECK_24 if players == 3 else DECK_32))


def derive_pack(seed: bytes, players: int = 4) -> list[Card]:
    """The shuffled pack (top card first) that ``seed`` gives: the
    Fisher-Yates shuffle of :func:`ordered_pack` driven by
    :func:`random_words`, with rejection sampling (module docstring).
    Raises ``ValueError`` for a seed that is not :data:`SEED_BYTES` bytes."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal's seed is {SEED_BYTES} bytes, not {len(seed)}")
    pack = ordered_pack(players)
    words = random_words(seed)
    for i in range(len(pack) - 1, 0, -1):
        j = _uniform(words, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def derive_cut(seed: bytes, packets: Sequence[int]) -> int:
    """The cut the server makes when no person cuts (a computer player, a
    stand-in, or the table cutting for a player): among ``packets`` (the
    legal cuts above 0, in increasing order, as the rules core lists
    them), the one at an index drawn uniformly from the stream of
    :data:`CUT_TAG` (:func:`random_words`).  Raises ``ValueError`` for no
    packets or a seed of the wrong length."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal's seed is {SEED_BYTES} bytes, not {len(seed)}")
    if not packets:
        raise ValueError("no cut to choose from")
    return packets[_uniform(random_words(seed, CUT_TAG), len(packets))]


def server_cut(state: State, seed: bytes) -> Cut | None:
    """The server's cut (:func:`derive_cut`) of ``state``, a deal at its
    cut, or ``None`` when the deal is not at its cut."""
    if state.phase != Phase.CUT:
        return None
    packets = sorted(a.packet for a in state.legal_actions() if isinstance(a, Cut) and a.packet)
    return Cut(derive_cut(seed, packets)) if packets else None


def server_pattern(state: State) -> ChoosePattern | None:
    """The dealer's pattern the server chooses when no person deals: the
    rules' first (``None`` when the deal does not wait for a pattern)."""
    if state.phase != Phase.PATTERN:
        return None
    return ChoosePattern(state.rules.patterns[0])


class FairnessError(ValueError):
    """A record that does not verify: ``deal`` (1-based; ``None`` for the
    record as a whole), ``check`` (``fair``: no or malformed commitment,
    seed and salt; ``commitment``; ``pack``; ``hands``; ``record``: the
    record itself is malformed or illegal; ``cut`` and ``pattern``: the
    server's cut or pattern is not the seed's) and a plain ``message``.
    :attr:`payload` is the JSON-ready form."""

    def __init__(self, deal: int | None, check: str, message: str) -> None:
        super().__init__(message)
        self.deal = deal
        self.check = check
        self.payload: dict[str, Any] = {
            "ok": False,
            "error": "not verified",
            "deal": deal,
            "check": check,
            "message": message,
        }


@dataclass(frozen=True, slots=True)
class FairProof:
    """A deal's ``commitment`` and, once revealed, its ``seed`` and ``salt``
    (64 lowercase hex digits each), as a record's ``fair`` object holds
    them: ``{"commitment": ..., "seed": ..., "salt": ...}``."""

    commitment: str
    seed: str | None = None
    salt: str | None = None

    @classmethod
    def new(cls, seed: bytes, salt: bytes) -> FairProof:
        """The proof of a deal dealt from ``seed`` with ``salt``, revealed."""
        return cls(commitment(seed, salt), seed.hex(), salt.hex())

    @property
    def revealed(self) -> bool:
        """Whether the seed and the salt are given."""
        return self.seed is not None and self.salt is not None

    def sealed(self) -> FairProof:
        """The proof without its seed and salt (what is published before
        the deal ends)."""
        return FairProof(self.commitment)

    def to_json(self) -> dict[str, str]:
        """``{"commitment", "seed", "salt"}`` (the last two only when revealed)."""
        out = {"commitment": self.commitment}
        if self.seed is not None and self.salt is not None:
            out["seed"] = self.seed
            out["salt"] = self.salt
        return out

    @classmethod
    def from_json(cls, value: object, deal: int | None = None) -> FairProof:
        """Read a ``fair`` object.  Raises :class:`FairnessError` (check
        ``fair``) when it is not an object of 64-hex-digit strings, or gives
        the seed without the salt (or the salt without the seed)."""
        where = "the record" if deal is None else f"deal {deal}"
        if not isinstance(value, Mapping):
            raise FairnessError(deal, "fair", f"{where}: 'fair' must be an object")
        fields: dict[str, str | None] = {}
        for key in ("commitment", "seed", "salt"):
            text = value.get(key)
            if text is None and key != "commitment":
                fields[key] = None
                continue
            if not isinstance(text, str) or len(text) != 64 or not set(text) <= _HEX:
                raise FairnessError(
                    deal, "fair", f"{where}: the {key} must be 64 lowercase hex digits"
                )
            fields[key] = text
        if (fields["seed"] is None) != (fields["salt"] is None):
            raise FairnessError(deal, "fair", f"{where}: the seed and the salt go together")
        return cls(str(fields["commitment"]), fields["seed"], fields["salt"])


def dealt_hands(
    rules: Rules, dealer: Seat, pack: Sequence[Card], actions: Sequence[tuple[Seat, str]]
) -> tuple[dict[Seat, CardMask], Card | None]:
    """Deal ``pack`` (top card first, before the cut) with the deal's
    ``actions`` (``(seat, text)`` in order) up to the end of the auction
    (the cut, the dealer's pattern and the bids, whose legality does not
    depend on the cards; the completion of a classic deal follows the
    taker): each seat's cards once dealing is over (or where the actions
    stop), and the turned card when no one took it.  Raises
    :class:`~rebelote.state.DealError` for a pack that is not a whole pack."""
    state = State.new(rules, dealer, pack)
    for seat, text in actions:
        if state.phase not in (Phase.CUT, Phase.PATTERN, Phase.BIDDING):
            break
        try:
            state.apply(state.parse_action(text, seat), seat)
        except (InvalidActionError, AmbiguousActionError, IllegalActionError, DealError):
            break  # the record's replay reports it
    hands = {s: state.hands[s] for s in state.seats}
    turned = state.turned
    if turned is not None and any(m >> turned & 1 for m in hands.values()):
        turned = None
    return hands, turned


@dataclass(frozen=True, slots=True)
class VerifiedDeal:
    """A deal that verified: its number in the record (1-based), its
    ``commitment`` and its ``seed``."""

    deal: int
    commitment: str
    seed: str

    def to_json(self) -> dict[str, Any]:
        """``{"deal", "commitment", "seed"}``."""
        return {"deal": self.deal, "commitment": self.commitment, "seed": self.seed}


def _record_rules(record: Mapping[str, Any], deal: int | None) -> Rules:
    if "rules" not in record:
        raise FairnessError(deal, "record", "the record has no 'rules'")
    try:
        return Rules.from_record(record["rules"])
    except RulesError as exc:
        raise FairnessError(deal, "record", str(exc)) from None


def _actions(record: Mapping[str, Any], deal: int) -> list[tuple[Seat, str]]:
    items = record.get("actions", [])
    if not isinstance(items, list):
        raise FairnessError(deal, "record", f"deal {deal}: 'actions' must be a list")
    out = []
    for i, item in enumerate(items, start=1):
        seat = item.get("seat") if isinstance(item, Mapping) else None
        text = item.get("action") if isinstance(item, Mapping) else None
        if not isinstance(seat, str) or seat not in Seat.__members__ or not isinstance(text, str):
            raise FairnessError(
                deal, "record", f'deal {deal}: action {i} must be {{"seat": "N", "action": "JS"}}'
            )
        out.append((Seat[seat], text))
    return out


def _pack(record: Mapping[str, Any], deal: int) -> list[Card]:
    if "pack" not in record:
        raise FairnessError(
            deal,
            "pack",
            f"deal {deal} gives no 'pack' (the 32 cards before the cut, as the server "
            "dealt them): its cards cannot be checked against the seed",
        )
    value = record["pack"]
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FairnessError(deal, "record", f"deal {deal}: 'pack' must be a list of card names")
    try:
        return [_parse_card(c) for c in value]
    except CardParseError as exc:
        raise FairnessError(deal, "record", f"deal {deal}: {exc}") from None


def _names(mask: CardMask) -> str:
    return str(CardSet(mask))


def _verify_deal(record: Mapping[str, Any], rules: Rules, deal: int) -> VerifiedDeal:
    """Check one deal record's commitment, pack and hands (see :func:`verify`)."""
    if "fair" not in record:
        raise FairnessError(
            deal,
            "fair",
            f"deal {deal} carries no commitment, seed and salt ('fair'): "
            "it was not dealt by a server with fair deals, and cannot be verified",
        )
    proof = FairProof.from_json(record["fair"], deal)
    if proof.seed is None or proof.salt is None:
        raise FairnessError(
            deal,
            "fair",
            f"deal {deal}: the seed and the salt are not revealed (the server reveals "
            "them once the deal is over)",
        )
    seed, salt = bytes.fromhex(proof.seed), bytes.fromhex(proof.salt)
    computed = commitment(seed, salt)
    if computed != proof.commitment:
        raise FairnessError(
            deal,
            "commitment",
            f"deal {deal}: the commitment check failed: the commitment published before "
            f"the deal ({proof.commitment}) is not SHA-256 of the seed and salt revealed "
            f"after it (they give {computed}): the seed, the salt or the commitment "
            "was changed",
        )
    dealer_letter = record.get("dealer")
    if not isinstance(dealer_letter, str) or dealer_letter not in Seat.__members__:
        raise FairnessError(deal, "record", f"deal {deal}: 'dealer' must be a seat letter")
    dealer = Seat[dealer_letter]
    pack = _pack(record, deal)
    derived = derive_pack(seed, rules.players)
    actions = _actions(record, deal)
    if pack == derived:
        _check_server_choices(record["fair"], rules, dealer, pack, seed, actions, deal)
        return VerifiedDeal(deal, proof.commitment, proof.seed)
    try:
        given, given_turned = dealt_hands(rules, dealer, pack, actions)
    except DealError as exc:
        raise FairnessError(
            deal,
            "pack",
            f"deal {deal}: the pack check failed: the record's pack is not a whole pack "
            f"({exc}), unlike the one the seed gives",
        ) from None
    fair, fair_turned = dealt_hands(rules, dealer, derived, actions)
    wrong = []
    for seat in given:
        extra, missing = given[seat] & ~fair[seat], fair[seat] & ~given[seat]
        if extra or missing:
            wrong.append(
                f"{seat.letter} was dealt {_names(given[seat])}, but the seed deals "
                f"{seat.letter} {_names(fair[seat])} ({_names(extra) or 'nothing'} instead "
                f"of {_names(missing) or 'nothing'})"
            )
    if given_turned != fair_turned:
        wrong.append(
            f"the turned card is {'none' if given_turned is None else card_name(given_turned)},"
            f" but the seed turns {'none' if fair_turned is None else card_name(fair_turned)}"
        )
    if wrong:
        raise FairnessError(
            deal,
            "hands",
            f"deal {deal}: the hands check failed: the record's pack does not deal the "
            f"hands the seed deals: {'; '.join(wrong)}",
        )
    first = next(i for i, (a, b) in enumerate(zip(pack, derived, strict=True)) if a != b)
    raise FairnessError(
        deal,
        "pack",
        f"deal {deal}: the pack check failed: card {first + 1} of the pack is "
        f"{card_name(pack[first])} in the record, but {card_name(derived[first])} by the "
        "seed (a card no one was dealt)",
    )


def _check_server_choices(
    fair: Mapping[str, Any],
    rules: Rules,
    dealer: Seat,
    pack: Sequence[Card],
    seed: bytes,
    actions: Sequence[tuple[Seat, str]],
    deal: int,
) -> None:
    """The cut (``fair.cut`` ``server``) and the dealer's pattern
    (``fair.pattern`` ``server``) the server made are the seed's
    (:func:`server_cut`, :func:`server_pattern`); ``player`` (a person
    chose) or absent: not checked."""
    for key in ("cut", "pattern"):
        if fair.get(key) not in (None, "server", "player"):
            raise FairnessError(
                deal, "fair", f'deal {deal}: \'fair.{key}\' must be "server" or "player"'
            )
    state = State.new(rules, dealer, pack)
    for i, (seat, text) in enumerate(actions):
        if state.phase not in (Phase.CUT, Phase.PATTERN):
            break
        at_cut = state.phase == Phase.CUT
        key = "cut" if at_cut else "pattern"
        expected = server_cut(state, seed) if at_cut else server_pattern(state)
        try:
            action = state.parse_action(text, seat)
            state.apply(action, seat)
        except (InvalidActionError, AmbiguousActionError, IllegalActionError, DealError):
            return  # the record's replay reports it
        if fair.get(key) == "server" and expected is not None and action != expected:
            what = "cut" if at_cut else "dealer's pattern"
            raise FairnessError(
                deal,
                key,
                f"deal {deal}: the {key} check failed: the server made the {what} "
                f"(action {i + 1}, {text!r}), but the seed gives {expected.text!r}",
            )


def verify(record: object) -> list[VerifiedDeal]:
    """Verify a deal or match record (format 2, as the server's
    ``/record`` export writes it): for every deal, its ``fair`` object
    (the commitment, the seed and the salt), the commitment of the seed
    and salt, the pack the seed gives against the record's ``pack`` and the
    hands it deals (with the record's cut, pattern and bids), the cut and
    the pattern the server made (``fair.cut`` / ``fair.pattern``
    ``server``: the seed's); then the whole record's replay (every action
    legal).  Returns each deal's
    :class:`VerifiedDeal`.  Raises :class:`FairnessError` naming the first
    deal and check that fail."""
    if not isinstance(record, Mapping):
        raise FairnessError(None, "record", "a record must be a JSON object")
    rules = _record_rules(record, None)
    deals = record.get("deals") if "deals" in record else [record]
    if not isinstance(deals, list) or not deals:
        raise FairnessError(None, "record", "'deals' must be a non-empty list of deal records")
    out = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, Mapping):
            raise FairnessError(number, "record", f"deal {number} must be a JSON object")
        deal_rules = _record_rules(deal, number) if "rules" in deal else rules
        out.append(_verify_deal(deal, deal_rules, number))
    try:
        replay(record)
    except RecordError as exc:
        where = exc.payload.get("deal")
        at: int | None = where if isinstance(where, int) else None
        if "deals" not in record:
            at = 1
        raise FairnessError(
            at,
            "record",
            f"{'the record' if at is None else f'deal {at}'}: the record does not replay: {exc}",
        ) from None
    return out
