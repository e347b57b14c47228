"""Scoring a deal: card points, dix de der, capot, declarations, belote, the
contract (made, *dedans*, *litige*) and multipliers.

Classic games (seeds 000 to 003, FFB):

- Each side counts the card points of its tricks (152 in all) and the last
  trick's 10 (*dix de der*: "dernier", the last): 162.  A side that took all 8
  tricks (*capot*) counts ``Rules.capot_points`` (252) instead, or
  ``Rules.solo_capot_points`` when one player took them all (seed 002).
- Each side adds the declarations that count and its belote (20 each).
- The takers must score more than the defenders (seed 001 "son total doit donc
  dépasser 81", belote and declarations included).  Made: each side scores
  its points.  Failed (*dedans*, "inside"): the defenders score 162 (or
  ``Rules.capot_against_takers`` after a capot against the takers, or
  ``Rules.solo_capot_points`` when one defender took them all) plus all
  declarations; belote stays with its holders (``Rules.belote_on_dedans``).
- Equal points: ``Rules.tie``: the takers fail, or *litige* (dispute, seed
  003): the defenders score their points and the takers' points are held over
  for the winner of the next deal.
- Each side's score is rounded as ``Rules.rounding`` says, once the
  contract is judged (FFB coinche 2015, 10.2: to the nearest ten).
- Sans Atout and Tout Atout deals count ``Rules.sa_multiplier`` and
  ``Rules.ta_multiplier`` times (seed 000: double and triple); their card
  points are converted to the 162 scale where
  ``Rules.ta_sa_points_to_162`` (FFB classique 2016, 11.3).

Three players (RULES.md): the taker must score more than each opponent, else
each opponent scores 81 plus his own declarations and belote (the taker keeps
his belote); an opponent who took all 8 tricks scores
``Rules.capot_against_takers`` and the other opponent 0 for the cards.

Coinche (club rules, as colver plays them): the takers must reach their
contract with cards, dix de der, declarations and belote, and beat the
defenders' points (a capot contract needs all 8 tricks; a capot counts
``Rules.coinche_capot_points``, 250, or 252 in the FFB's text).
Made: the takers score contract x multiplier + their points (or the contract
alone, ``Rules.coinche_made_score``), the defenders their points.  Failed: the
defenders score 160 + contract x multiplier, plus all declarations.  Belote
always scores for its holders, outside the multiplier.  Where
``Rules.coinche_multiplies`` is ``deal`` (FFB coinche 2015, 10.1.1 and
10.1.2, docs/rules/FFB.md), a coinched contract multiplies the whole deal:
made, the takers score (160, or 250 after a capot, + every declaration +
their belote + the contract) x multiplier, the defenders their belote alone;
failed, the defenders score (160 + every declaration + their belote + the
contract) x multiplier, the takers their belote alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .auction import Contract
from .declarations import Declaration
from .rules import Rules
from .seats import Seat
from .tricks import Trick
from .trump import Strain

__all__ = [
    "DIX_DE_DER",
    "DealResult",
    "ResultKind",
    "rounded_scores",
    "scale_to_162",
    "score_deal",
]

DIX_DE_DER = 10
"""Points of the last trick (*dix de der*)."""

DEAL_POINTS = 162
"""Card points plus dix de der: the value of a deal in points."""

COINCHE_FAIL_POINTS = 160
"""What the defenders add to the contract when a coinche contract fails."""

COINCHE_CAPOT_DEAL = 250
"""The FFB's whole coinched deal after a capot by the takers (10.1.1: "160
points (ou 250 points si capot réalisé, même non demandé)")."""

_OTHERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(s for s in range(n) if s != side) for side in range(n)) for n in (2, 3)
}
"""``_OTHERS[sides][side]``: the other sides, in order."""

_SA, _TA = Strain.SA, Strain.TA

ResultKind = Literal["made", "dedans", "litige", "capot", "passed", "cancelled"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal.  Every per-side tuple is indexed by side
    (0 = NS, 1 = EW; in the three-player game the seats W, S, E).

    - ``result``: ``made``, ``capot`` (made with all 8 tricks), ``dedans``,
      ``litige``, ``passed`` (all passed) or ``cancelled`` (carré of 7s).
    - ``card_points``: card points of each side's tricks, without dix de der.
    - ``dix_de_der``: the side that won the last trick.
    - ``declarations``: per side, the declarations that counted (the
      defenders' count for the takers after their capot where
      ``Rules.capot_takes_declarations``).
    - ``belote``: one entry per belote held, the holder's side.
    - ``belote_points``: per side, the belote points that counted.
    - ``capot``: the side that took all 8 tricks; ``solo_capot``: one player did.
    - ``score``: what the deal adds to each side's total (litige release aside).
    - ``held_over``: points held for the winner of the next deal (litige).
    - ``winner``: the side that won the deal (takers if made, defenders if
      dedans), to which earlier litige points go; ``None`` otherwise.
    """

    result: ResultKind
    contract: Contract | None
    card_points: tuple[int, ...]
    dix_de_der: int | None
    declarations: tuple[tuple[Declaration, ...], ...]
    belote: tuple[int, ...]
    belote_points: tuple[int, ...]
    capot: int | None
    solo_capot: bool
    score: tuple[int, ...]
    held_over: int
    winner: int | None


def scale_to_162(points: int, total: int) -> int:
    """``points`` of a deal worth ``total`` (card points + dix de der)
    converted to the 162 scale: ``points x 162 / total`` rounded to the
    nearest whole point, a half up (FFB belote classique 2016, 11.3: "198 x
    162 / 258" gives 124).  With ``total`` 258 (or any ``total`` whose half
    is odd) no result falls on a half, so the two sides' converted points
    add up to 162.  Raises ``ValueError`` when ``total`` is not positive."""
    if total <= 0:
        raise ValueError(f"a deal's total must be positive, not {total}")
    return (2 * points * DEAL_POINTS + total) // (2 * total)


def rounded_scores(
    mode: str, score: Sequence[int], held: int, taker_side: int
) -> tuple[tuple[int, ...], int]:
    """A deal's ``score`` per side and its ``held`` over points rounded as
    ``Rules.rounding`` says (``mode``): ``none`` unchanged; ``nearest_ten``
    each to the nearest ten, a 5 up (FFB coinche 2015, 10.2: 84 -> 80, 85 ->
    90); ``house`` the takers' points (their score and the points held over)
    to the nearest ten, a 5 down, and, with two sides, the defenders the
    rest of the deal's total rounded the same way (64 -> 60 and 100 for the
    others, 106 -> 110 and 50).  Scores are whole points, never negative.
    Raises ``ValueError`` for an unknown ``mode``."""
    if mode == "none":
        return tuple(score), held
    if mode == "nearest_ten":
        return tuple((p + 5) // 10 * 10 for p in score), (held + 5) // 10 * 10
    if mode != "house":
        raise ValueError(f"unknown rounding {mode!r}")
    if len(score) != 2:
        return tuple((p + 4) // 10 * 10 for p in score), (held + 4) // 10 * 10
    other = 1 - taker_side
    takers = (score[taker_side] + held + 4) // 10 * 10
    deal = (score[taker_side] + held + score[other] + 4) // 10 * 10
    out = [0, 0]
    out[other] = deal - takers
    out[taker_side] = (score[taker_side] + 4) // 10 * 10 if held else takers
    return tuple(out), takers - out[taker_side]


def void_result(kind: ResultKind, sides: int, contract: Contract | None = None) -> DealResult:
    """The result of a deal that was not played (``passed`` or ``cancelled``)."""
    zero = (0,) * sides
    return DealResult(
        kind, contract, zero, None, ((),) * sides, (), zero, None, False, zero, 0, None
    )


def score_deal(
    *,
    rules: Rules,
    contract: Contract,
    side_of: Sequence[int],
    tricks: Sequence[Trick],
    declarations: Sequence[tuple[Declaration, ...]],
    belote_holders: Sequence[Seat],
    belote_said: Sequence[bool],
) -> DealResult:
    """Score a finished deal.

    ``side_of[seat]`` gives each seat's side; ``tricks`` are the 8 tricks;
    ``declarations[side]`` the declarations that count for each side (already
    compared: at most one side has any); ``belote_holders`` one seat per
    belote held, with ``belote_said`` whether it was said (seed 001).
    """
    nsides = 3 if rules.players == 3 else 2
    card = [0] * nsides
    tricks_won = [0] * nsides
    winners = 0  # the seats that won a trick, as bits
    for trick in tricks:
        side = side_of[trick.winner]
        card[side] += trick.points
        tricks_won[side] += 1
        winners |= 1 << trick.winner
    ddd = side_of[tricks[-1].winner]
    capot: int | None = None
    for s in range(nsides):
        if tricks_won[s] == len(tricks):
            capot = s
            break
    solo = capot is not None and winners & (winners - 1) == 0  # one seat took them all
    coinche = rules.bidding == "coinche"

    trick_pts = card[:]
    trick_pts[ddd] += DIX_DE_DER
    if rules.ta_sa_points_to_162 and not contract.strain.is_suit:
        # FFB classique 2016, 11.3: "multiplier le nombre de points comptés
        # (hors belote) par la fraction 162/258".
        deal_total = sum(card) + DIX_DE_DER
        trick_pts = [scale_to_162(p, deal_total) for p in trick_pts]
    if capot is not None:
        if coinche:
            trick_pts[capot] = rules.coinche_capot_points
        elif solo and rules.solo_capot_points is not None:
            trick_pts[capot] = rules.solo_capot_points
        else:
            trick_pts[capot] = rules.capot_points

    decl = [0] * nsides
    for s in range(nsides):
        for d in declarations[s]:
            decl[s] += d.points
    bel = [0] * nsides
    holders: list[int] = []
    for seat, said in zip(belote_holders, belote_said, strict=True):
        side = side_of[seat]
        holders.append(side)
        if (not rules.belote_must_be_said or said) and (
            not rules.belote_requires_trick or tricks_won[side] > 0
        ):
            bel[side] += 20

    tk = side_of[contract.taker]
    others = _OTHERS[nsides][tk]
    counted = [tuple(declarations[s]) for s in range(nsides)]
    if rules.capot_takes_declarations and capot == tk:
        # FFB coinche 2015, 10.1.1: "si un capot est réalisé par les
        # preneurs, les annonces des défenseurs changent de main".
        for s in others:
            decl[tk] += decl[s]
            decl[s] = 0
            counted[tk] += counted[s]
            counted[s] = ()
    total = trick_pts[:]
    for s in range(nsides):
        total[s] += decl[s] + bel[s]
    best_other = max(map(total.__getitem__, others))
    if coinche:
        assert contract.value is not None
        reached = capot == tk if contract.capot_bid else total[tk] >= contract.value
        made = reached and total[tk] > best_other
        tied = reached and total[tk] == best_other and not contract.capot_bid
    else:
        made = total[tk] > best_other
        tied = total[tk] == best_other

    score = [0] * nsides
    held = 0
    winner: int | None
    kind: ResultKind
    keep_belote = rules.belote_on_dedans == "holders"
    deal_multiplied = coinche and contract.multiplier > 1 and rules.coinche_multiplies == "deal"
    if made:
        kind = "capot" if capot == tk else "made"
        winner = tk
        score = list(total)
        if deal_multiplied:
            # FFB coinche 2015, 10.1.1: "(160 points (ou 250 points si capot
            # réalisé) + Leurs annonces + Leur belote + Les annonces des
            # défenseurs qui changent de main + Le montant du contrat
            # demandé) x 2 (resp. 4)"; "Les défenseurs ne marquent rien, à
            # l'exception éventuelle des 20 points de belote".
            assert contract.value is not None
            base = COINCHE_CAPOT_DEAL if capot == tk else COINCHE_FAIL_POINTS
            all_decl = sum(decl)
            score[tk] = (base + all_decl + bel[tk] + contract.value) * contract.multiplier
            for s in others:
                score[s] = bel[s]
        elif coinche:
            assert contract.value is not None
            own = (
                trick_pts[tk] + decl[tk] if rules.coinche_made_score == "contract_and_points" else 0
            )
            score[tk] = contract.value * contract.multiplier + own + bel[tk]
    elif tied and rules.tie == "litige":
        kind, winner = "litige", None
        score = list(total)
        score[tk] = bel[tk]
        held = total[tk] - bel[tk]
        if coinche:
            assert contract.value is not None
            held += contract.value * contract.multiplier
    else:
        kind = "dedans"
        winner = others[0] if nsides == 2 else None
        lost_decl = decl[tk]
        score[tk] = bel[tk] if keep_belote else 0
        for s in others:
            if deal_multiplied:
                # FFB coinche 2015, 10.1.2: "160 points de chute + Leurs
                # annonces + Leur belote + Les annonces des preneurs qui
                # changent de main + Le montant du contrat demandé"; "les
                # défenseurs doublent (resp. quadruplent) leurs points".
                assert contract.value is not None
                base = COINCHE_FAIL_POINTS + contract.value
            elif coinche:
                assert contract.value is not None
                base = COINCHE_FAIL_POINTS + contract.value * contract.multiplier
            elif capot == s and solo and rules.solo_capot_points is not None:
                # Seed 002: "Si un joueur a remportés tous les plis par lui-même
                # ..., 350 points": any player, a defender too.
                base = rules.solo_capot_points
            elif capot == s:
                base = rules.capot_against_takers
            elif nsides == 3:
                base = 0 if capot is not None else DEAL_POINTS // 2
            else:
                base = DEAL_POINTS
            score[s] = base + decl[s] + bel[s]
        if nsides == 2:
            score[others[0]] += lost_decl + (0 if keep_belote else bel[tk])
            if deal_multiplied:
                score[others[0]] *= contract.multiplier

    strain = contract.strain
    mult = rules.sa_multiplier if strain == _SA else rules.ta_multiplier if strain == _TA else 1
    if mult != 1:
        score = [p * mult for p in score]
        held *= mult
    final, held = rounded_scores(rules.rounding, score, held, tk)
    return DealResult(
        kind,
        contract,
        tuple(card),
        ddd,
        tuple(counted),
        tuple(holders),
        tuple(bel),
        capot,
        solo,
        final,
        held,
        winner,
    )
