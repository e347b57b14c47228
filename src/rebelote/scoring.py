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
- Sans Atout and Tout Atout deals count ``Rules.sa_multiplier`` and
  ``Rules.ta_multiplier`` times (seed 000: double and triple).

Three players (RULES.md): the taker must score more than each opponent, else
each opponent scores 81 plus his own declarations and belote (the taker keeps
his belote); an opponent who took all 8 tricks scores
``Rules.capot_against_takers`` and the other opponent 0 for the cards.

Coinche (club rules, as colver plays them): the takers must reach their
contract with cards, dix de der, declarations and belote, and beat the
defenders' points (a capot contract needs all 8 tricks; a capot counts 250).
Made: the takers score contract x multiplier + their points (or the contract
alone, ``Rules.coinche_made_score``), the defenders their points.  Failed: the
defenders score 160 + contract x multiplier, plus all declarations.  Belote
always scores for its holders, outside the multiplier.

:func:`explain_deal` tells how a deal's score adds up, line by line
(:class:`ScoreBreakdown`): the points each side made, the contract's verdict
and why (bid not reached, defence higher, tie), and what each side scores.
Nothing is rounded: no source text rounds a deal's points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .actions import CAPOT_VALUE
from .auction import Contract
from .declarations import Declaration
from .rules import Rules
from .seats import Seat
from .tricks import Trick
from .trump import Strain

__all__ = [
    "DIX_DE_DER",
    "BreakdownLine",
    "DealResult",
    "PointsKind",
    "ResultKind",
    "ScoreBreakdown",
    "ScoredKind",
    "Verdict",
    "explain_deal",
    "score_deal",
]

DIX_DE_DER = 10
"""Points of the last trick (*dix de der*)."""

DEAL_POINTS = 162
"""Card points plus dix de der: the value of a deal in points."""

COINCHE_FAIL_POINTS = 160
"""What the defenders add to the contract when a coinche contract fails."""

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
    - ``declarations``: per side, the declarations that counted.
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


def void_result(kind: ResultKind, sides: int, contract: Contract | None = None) -> DealResult:
    """The result of a deal that was not played (``passed`` or ``cancelled``)."""
    zero = (0,) * sides
    return DealResult(
        kind, contract, zero, None, ((),) * sides, (), zero, None, False, zero, 0, None
    )


# ---------------------------------------------------------------- breakdown

PointsKind = Literal["cards", "dix_de_der", "capot", "declarations", "belote"]
"""The lines of the points each side made in a deal, in order:

- ``cards``: card points of its tricks (152 in all);
- ``dix_de_der``: 10 for the last trick (all four texts; seed 001 "la règle
  du dix de der");
- ``capot``: what a capot adds to the cards and the dix de der, so that the
  three lines add up to ``Rules.capot_points`` (252: seed 000 "100 au lieu
  du dix de der", seed 003 "+90"), ``Rules.solo_capot_points`` (seed 002:
  350) or the coinche capot's 250 (RULES.md, "Coinche");
- ``declarations``: the declarations that counted (RULES.md,
  "Declarations");
- ``belote``: belote points that counted (RULES.md common ground; seed 001
  said aloud, seed 000 with a trick).
"""

ScoredKind = Literal[
    "contract",
    "points",
    "defence",
    "declarations",
    "taker_declarations",
    "belote",
    "taker_belote",
    "strain_multiplier",
]
"""The lines of what each side scores for a deal, in order:

- ``contract``: a coinche contract times its multiplier (coinche x2,
  surcoinche x4): to the takers when made, to the defenders when failed
  (RULES.md, "Coinche");
- ``points``: its own points made, belote aside (cards, dix de der, capot,
  declarations): each side when the contract is made (seed 001 "l'équipe
  qui a pris marque le score de son total de points.  L'équipe adverse
  marque le score de son total de points"); the defenders at a *litige*
  (seed 003); a coinche taker with ``Rules.coinche_made_score``
  ``contract_and_points`` (RULES.md, "Coinche");
- ``defence``: what the defenders score for the cards when the takers fail
  (*dedans*): 162 (seed 001 "L'équipe adverse marque 162 points"), the
  capot's value when they took every trick (``Rules.capot_against_takers``,
  ``Rules.solo_capot_points``), 160 in coinche (RULES.md), 81 each with
  three players (RULES.md, "Three players"; 0 for the opponent of one who
  took every trick);
- ``declarations``: the defenders' own declarations on a *dedans*;
- ``taker_declarations``: the takers' declarations, which go to the
  defenders on a *dedans* (seed 003 "tous ses points reviennent à l'équipe
  adverse"; four players only);
- ``belote``: its own belote (kept by its holders, seeds 001, 002, 003;
  coinche: outside the multiplier);
- ``taker_belote``: the takers' belote given to the defenders on a *dedans*
  (``Rules.belote_on_dedans`` ``defenders``);
- ``strain_multiplier``: what a Sans Atout or Tout Atout deal's multiplier
  adds (``Rules.sa_multiplier``, ``Rules.ta_multiplier``: seed 000 "le
  double", "le triple").
"""

Verdict = Literal["made", "bid_not_reached", "capot_not_made", "defence_higher", "tie"]
"""Why the contract was made or failed:

- ``made``: the takers scored more than the defenders (more than each
  opponent with three players), and reached the coinche contract;
- ``bid_not_reached``: coinche, the takers' points fell short of the
  contract (RULES.md "The takers must reach their contract");
- ``capot_not_made``: coinche, a capot contract and a trick lost;
- ``defence_higher``: the defenders scored more than the takers;
- ``tie``: equal points: *litige* (seed 003, ``Rules.tie``) or the takers
  fail (seed 001 "son total doit donc dépasser 81"; coinche).
"""


@dataclass(frozen=True, slots=True)
class BreakdownLine:
    """One line of a :class:`ScoreBreakdown`: its ``kind`` and its points
    per side (indexed by side, as :class:`DealResult`)."""

    kind: str
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """How a played deal's score adds up, line by line (see
    :func:`explain_deal`).  Per-side tuples are indexed by side, as in
    :class:`DealResult`.

    - ``made``: the points each side made, one :class:`BreakdownLine` per
      :data:`PointsKind` in that order (every kind, zeros included);
      ``made_totals``: their sum per side.
    - ``taker``: the takers' side; ``taker_points``: their points made;
      ``defence_points``: the best of the other sides'.
    - ``contract_value``: the coinche contract (250 for capot), ``None`` in
      classic games; ``multiplier``: 1, 2 (coinche) or 4 (surcoinche).
    - ``verdict``: :data:`Verdict`; ``result``: the deal's
      :data:`ResultKind` (``made``, ``capot``, ``dedans``, ``litige``).
    - ``scored``: what each side scores, one line per :data:`ScoredKind`
      that gives anyone points (zero lines left out), in that order;
      ``strain_multiplier``: 2 (Sans Atout), 3 (Tout Atout) or 1.
    - ``score``: the sum of ``scored`` per side, :attr:`DealResult.score`;
      ``held_over``: the points held for the winner of the next deal
      (*litige*), multiplied like the score; ``winner``: as
      :attr:`DealResult.winner`.

    No rule of the source texts rounds a deal's points: the lines add up
    to the score exactly.
    """

    made: tuple[BreakdownLine, ...]
    made_totals: tuple[int, ...]
    taker: int
    taker_points: int
    defence_points: int
    contract_value: int | None
    multiplier: int
    verdict: Verdict
    result: ResultKind
    scored: tuple[BreakdownLine, ...]
    strain_multiplier: int
    score: tuple[int, ...]
    held_over: int
    winner: int | None

    def to_json(self, side_names: Sequence[str]) -> dict[str, Any]:
        """JSON: per-side values as ``{side name: points}`` (``side_names``
        indexed by side: ``["NS", "EW"]``, ``["W", "S", "E"]``), the lines
        as ``[{"kind", "points"}]``, the sides (``taker``, ``winner``) by
        name."""

        def per(values: Sequence[int]) -> dict[str, int]:
            return {side_names[i]: v for i, v in enumerate(values)}

        return {
            "made": [{"kind": x.kind, "points": per(x.points)} for x in self.made],
            "made_totals": per(self.made_totals),
            "taker": side_names[self.taker],
            "taker_points": self.taker_points,
            "defence_points": self.defence_points,
            "contract_value": self.contract_value,
            "multiplier": self.multiplier,
            "verdict": self.verdict,
            "result": self.result,
            "scored": [{"kind": x.kind, "points": per(x.points)} for x in self.scored],
            "strain_multiplier": self.strain_multiplier,
            "score": per(self.score),
            "held_over": self.held_over,
            "winner": None if self.winner is None else side_names[self.winner],
        }


def _taker_side(rules: Rules, taker: Seat) -> int:
    """The side of ``taker``: NS 0 / EW 1, or the seat's own (W 0, S 1, E 2)."""
    return int(taker) & 1 if rules.players == 4 else int(taker) - 1


def _settle(
    rules: Rules,
    contract: Contract,
    tk: int,
    card: Sequence[int],
    ddd: int,
    capot: int | None,
    solo: bool,
    decl: Sequence[int],
    bel: Sequence[int],
) -> ScoreBreakdown:
    """The contract and the score from each side's ``card`` points, the
    dix de der's side ``ddd``, the ``capot`` side (``solo``: one player),
    the points of the declarations that count (``decl``) and of belote
    (``bel``); ``tk``: the takers' side.  The rules of the module docstring,
    as :func:`score_deal` applies them, written line by line."""
    nsides = len(card)
    coinche = rules.bidding == "coinche"
    zero = (0,) * nsides

    trick_pts = list(card)
    trick_pts[ddd] += DIX_DE_DER
    capot_pts = [0] * nsides
    if capot is not None:
        if coinche:
            value = CAPOT_VALUE
        elif solo and rules.solo_capot_points is not None:
            value = rules.solo_capot_points
        else:
            value = rules.capot_points
        capot_pts[capot] = value - trick_pts[capot]
        trick_pts[capot] = value
    ddd_pts = [DIX_DE_DER if s == ddd else 0 for s in range(nsides)]
    total = [trick_pts[s] + decl[s] + bel[s] for s in range(nsides)]
    made = (
        BreakdownLine("cards", tuple(card)),
        BreakdownLine("dix_de_der", tuple(ddd_pts)),
        BreakdownLine("capot", tuple(capot_pts)),
        BreakdownLine("declarations", tuple(decl)),
        BreakdownLine("belote", tuple(bel)),
    )

    others = _OTHERS[nsides][tk]
    best_other = max(map(total.__getitem__, others))
    verdict: Verdict
    if coinche:
        assert contract.value is not None
        reached = capot == tk if contract.capot_bid else total[tk] >= contract.value
        if not reached:
            verdict = "capot_not_made" if contract.capot_bid else "bid_not_reached"
        elif total[tk] > best_other:
            verdict = "made"
        elif total[tk] == best_other:
            verdict = "tie"
        else:
            verdict = "defence_higher"
        contract_pts = contract.value * contract.multiplier
    else:
        verdict = (
            "made"
            if total[tk] > best_other
            else "tie"
            if total[tk] == best_other
            else "defence_higher"
        )
        contract_pts = 0

    # each scored kind's points per side, filled below
    lines: dict[str, list[int]] = {}

    def add(kind: str, side: int, points: int) -> None:
        lines.setdefault(kind, [0] * nsides)[side] += points

    held = 0
    winner: int | None
    kind: ResultKind
    if verdict == "made":
        kind = "capot" if capot == tk else "made"
        winner = tk
        for s in range(nsides):
            own = trick_pts[s] + decl[s]
            if s == tk and coinche:
                add("contract", s, contract_pts)
                if rules.coinche_made_score == "contract":
                    own = 0
            add("points", s, own)
            add("belote", s, bel[s])
    elif verdict == "tie" and rules.tie == "litige" and not contract.capot_bid:
        kind, winner = "litige", None
        for s in others:
            add("points", s, trick_pts[s] + decl[s])
            add("belote", s, bel[s])
        add("belote", tk, bel[tk])
        held = total[tk] - bel[tk] + contract_pts
    else:
        kind = "dedans"
        winner = others[0] if nsides == 2 else None
        keep_belote = rules.belote_on_dedans == "holders"
        if keep_belote:
            add("belote", tk, bel[tk])
        for s in others:
            if coinche:
                add("defence", s, COINCHE_FAIL_POINTS)
                add("contract", s, contract_pts)
            elif capot == s and solo and rules.solo_capot_points is not None:
                # Seed 002: "Si un joueur a remportés tous les plis par lui-même
                # ..., 350 points": any player, a defender too.
                add("defence", s, rules.solo_capot_points)
            elif capot == s:
                add("defence", s, rules.capot_against_takers)
            elif nsides == 3:
                add("defence", s, 0 if capot is not None else DEAL_POINTS // 2)
            else:
                add("defence", s, DEAL_POINTS)
            add("declarations", s, decl[s])
            add("belote", s, bel[s])
        if nsides == 2:
            add("taker_declarations", others[0], decl[tk])
            if not keep_belote:
                add("taker_belote", others[0], bel[tk])

    strain = contract.strain
    mult = rules.sa_multiplier if strain == _SA else rules.ta_multiplier if strain == _TA else 1
    subtotal = [sum(v[s] for v in lines.values()) for s in range(nsides)]
    if mult != 1:
        for s in range(nsides):
            add("strain_multiplier", s, subtotal[s] * (mult - 1))
        held *= mult
    order: tuple[str, ...] = get_args(ScoredKind)
    scored = tuple(BreakdownLine(k, tuple(lines[k])) for k in order if k in lines and any(lines[k]))
    score = tuple(subtotal[s] * mult for s in range(nsides))
    return ScoreBreakdown(
        made,
        tuple(total),
        tk,
        total[tk],
        best_other,
        contract.value if coinche else None,
        contract.multiplier,
        verdict,
        kind,
        scored or (BreakdownLine("points", zero),),
        mult,
        score,
        held,
        winner,
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
    :func:`explain_deal` tells how the result's score adds up (its lines are
    built apart, so that scoring the many deals of the computer players'
    simulations costs no more; it checks that they add up to this score).
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
    if capot is not None:
        if coinche:
            trick_pts[capot] = CAPOT_VALUE
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
    total = trick_pts[:]
    for s in range(nsides):
        total[s] += decl[s] + bel[s]
    others = _OTHERS[nsides][tk]
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
    if made:
        kind = "capot" if capot == tk else "made"
        winner = tk
        score = list(total)
        if coinche:
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
            if coinche:
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

    strain = contract.strain
    mult = rules.sa_multiplier if strain == _SA else rules.ta_multiplier if strain == _TA else 1
    if mult != 1:
        score = [p * mult for p in score]
        held *= mult
    return DealResult(
        kind,
        contract,
        tuple(card),
        ddd,
        tuple(map(tuple, declarations[:nsides])),
        tuple(holders),
        tuple(bel),
        capot,
        solo,
        tuple(score),
        held,
        winner,
    )


def explain_deal(rules: Rules, result: DealResult) -> ScoreBreakdown | None:
    """How ``result``'s score adds up under ``rules``: the points each side
    made, the contract's verdict and why, and what each side scores, line
    by line (:class:`ScoreBreakdown`).  ``None`` for a deal not played
    (``passed``, ``cancelled``).  Raises ``ValueError`` when ``result`` was
    not scored under ``rules`` (its score does not follow from them)."""
    contract = result.contract
    if contract is None or result.dix_de_der is None:
        return None
    decl = [sum(d.points for d in side) for side in result.declarations]
    b = _settle(
        rules,
        contract,
        _taker_side(rules, contract.taker),
        result.card_points,
        result.dix_de_der,
        result.capot,
        result.solo_capot,
        decl,
        result.belote_points,
    )
    if b.score != result.score or b.held_over != result.held_over or b.result != result.result:
        raise ValueError(
            f"this result ({result.result}, {result.score}) was not scored under these rules "
            f"({b.result}, {b.score})"
        )
    return b
