"""Feats of a deal: what one side did in it, read from its scored
:class:`~rebelote.scoring.DealResult` (challenges and trophies count them;
the rules say what each word means, this module only reads the result).

- **took**: the side's player (or a player of the side) holds the contract.
- **made**: the side took and its contract was made (``made`` or ``capot``,
  scoring.py); a *litige* or a *dedans* is not made.
- **capot**: the side took all 8 tricks (``DealResult.capot``), as takers
  or as defenders.
- **coinched**: the contract was coinched or surcoinched (multiplier 2
  or 4).
- **contract_value**: the coinche contract in points when the side took
  (250: a capot bid), ``None`` in classic games or as defenders.
- **defended**: the side defended and won the deal (the contract failed,
  ``DealResult.winner`` is the side).
- **belote**: the side scored a belote in the deal.
- **no_trump**: the contract was Sans Atout or Tout Atout.

Void deals (everyone passed, or cancelled) have no feats:
:func:`deal_feats` answers ``None`` for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules
from .scoring import DealResult, _taker_side
from .trump import Strain

__all__ = ["DealFeats", "deal_feats"]


@dataclass(frozen=True, slots=True)
class DealFeats:
    """What one side did in one played deal (see the module docstring)."""

    took: bool
    made: bool
    capot: bool
    coinched: bool
    contract_value: int | None
    defended: bool
    belote: bool
    no_trump: bool


def deal_feats(rules: Rules, result: DealResult, side: int) -> DealFeats | None:
    """The feats of ``side`` (0 = NS, 1 = EW at four; the seat's side at
    three or two, as ``DealResult`` indexes them) in a deal scored
    ``result`` under ``rules``; ``None`` for a deal without a contract or
    not played (``passed``, ``cancelled``).  Raises ``IndexError`` for a
    side the result does not have."""
    contract = result.contract
    if contract is None or result.result in ("passed", "cancelled"):
        return None
    _ = result.score[side]  # IndexError for a side the deal does not have
    took = _taker_side(rules, contract.taker) == side
    made = took and result.result in ("made", "capot")
    return DealFeats(
        took=took,
        made=made,
        capot=result.capot == side,
        coinched=contract.multiplier > 1,
        contract_value=contract.value if took else None,
        defended=not took and result.winner == side,
        belote=side in result.belote and result.belote_points[side] > 0,
        no_trump=contract.strain in (Strain.SA, Strain.TA),
    )
