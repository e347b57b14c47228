"""Fair deals at a table (:mod:`rebelote.fairness`): each deal's seed and
salt, the ``fair`` object of its ``deal`` log entry, and what the streams
may tell of it when.

A deal's ``deal`` log entry holds ``"fair": {"commitment", "seed",
"salt"}`` beside its ``pack`` (the pack :func:`~rebelote.fairness.derive_pack`
gives from the seed).  The log stays on the server: the streams carry the
commitment at the deal's start (``deal_start.commitment``, and the
snapshot's ``fair``), and the seed and salt only once the deal is over
(``deal_end.fair``), when its cards may be shown: a deal thrown in (all
passed) or cancelled before its cards were played keeps them until its
match is over, like its hands (:data:`WITHHELD_RESULTS`; the record of
the match then carries them).

The seed and the salt are 32 random bytes each (:mod:`secrets`) at a
server that was given no seed; with a seed (tests, ``create_app(seed=...)``)
they derive from the table's seed, so that the same seed gives the same
deals.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from rebelote.fairness import SALT_BYTES, SEED_BYTES, FairProof
from rebelote.state import State

__all__ = ["WITHHELD_RESULTS", "deal_secrets", "may_reveal", "proof_of"]

WITHHELD_RESULTS = frozenset({"passed", "cancelled"})
"""Deal results whose seed and salt wait for the end of the match (their
hands were never shown at the table)."""


def deal_secrets(table_seed: int, match: int, deal: int, *, fresh: bool) -> tuple[bytes, bytes]:
    """The seed and the salt of deal ``deal`` of match ``match``: random
    (``fresh``), else ``HMAC-SHA256(key, "seed/M/D")`` and ``.../"salt/M/D"``
    with ``key = SHA-256("rebelote/table/" + the table's seed in decimal)``
    (reproducible: a server given a seed)."""
    if fresh:
        return secrets.token_bytes(SEED_BYTES), secrets.token_bytes(SALT_BYTES)
    key = hashlib.sha256(f"rebelote/table/{table_seed}".encode()).digest()

    def part(label: str) -> bytes:
        return hmac.new(key, f"{label}/{match}/{deal}".encode(), hashlib.sha256).digest()

    return part("seed"), part("salt")


def proof_of(payload: Mapping[str, Any]) -> FairProof | None:
    """The proof in a ``deal`` entry's payload (``None`` in logs written
    before fair deals).  Raises :class:`~rebelote.fairness.FairnessError`
    for a malformed one."""
    value = payload.get("fair")
    return None if value is None else FairProof.from_json(value)


def may_reveal(state: State, match_over: bool) -> bool:
    """Whether the seed and the salt of ``state``'s deal may be told now:
    the deal is over, and its cards were played face up or its match is
    over (:data:`WITHHELD_RESULTS`)."""
    if not state.is_terminal:
        return False
    result = state.result
    return match_over or result is None or result.result not in WITHHELD_RESULTS
