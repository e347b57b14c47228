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

:func:`explain_deal` tells how a deal's score adds up, line by line
(:class:`ScoreBreakdown`): the points each side made, the contract's verdict
and why (bid not reached, defence higher, tie), and what each side scores,
multipliers and rounding included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

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
    "in_play",
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
    - ``capot``: the side that took all 8 tricks; ``solo_capot``: one player
      did (never at two players, where each side is one player).
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


def in_play(rules: Rules, points: int, card: Sequence[int]) -> int:
    """A fixed value of the four-player game (162 for a *dedans*, 252 for
    a capot) as the deal scores it: ``points`` itself, or, where
    ``Rules.deal_points`` is ``played`` (two players: only 16 cards are
    played), ``points`` less the 152 card points of a whole pack plus the
    card points of the cards played (``sum(card)``): a *dedans* scores the
    points in play (cards + 10 for the dix de der), a capot those cards +
    100 (the dix de der "100 au lieu du dix de der", seed 000).  A choice of
    the project (docs/rules/RULES.md "Two players"): the two-player sources
    give no value for the (presque) classique form."""
    if rules.deal_points == "fixed":
        return points
    return points - (DEAL_POINTS - DIX_DE_DER) + sum(card)


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
    # one seat took them all; at two players each side is one player, so a
    # capot is never "solo" there (no partner: "Capot", not "Capot seul")
    solo = capot is not None and rules.players != 2 and winners & (winners - 1) == 0
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
            trick_pts[capot] = in_play(rules, rules.capot_points, card)

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
        if coinche and rules.coinche_multiplies != "deal":
            # the club rules hold the contract over too
            assert contract.value is not None
            held += contract.value * contract.multiplier
        # FFB coinche 2015, 10.1.3 (rules.coinche_multiplies "deal"): "les
        # points du preneur sont remis en jeu (81 ou 91)", the contract and
        # its coinche not: the takers' points alone are held over
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
                base = in_play(rules, rules.capot_against_takers, card)
            elif nsides == 3:
                base = 0 if capot is not None else DEAL_POINTS // 2
            else:
                base = in_play(rules, DEAL_POINTS, card)
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


# ---------------------------------------------------------------- breakdown

PointsKind = Literal["cards", "dix_de_der", "to_162", "capot", "declarations", "belote"]
"""The lines of the points each side made in a deal, in order:

- ``cards``: card points of its tricks (152 in all; 258 at Tout Atout with
  the FFB's table);
- ``dix_de_der``: 10 for the last trick (all four texts; seed 001 "la règle
  du dix de der");
- ``to_162``: what converting a Tout Atout or Sans Atout deal's points to
  the 162 scale adds or takes (``Rules.ta_sa_points_to_162``, FFB
  classique 2016, 11.3: "par la fraction 162/258");
- ``capot``: what a capot adds to the lines above, so that they add up to
  ``Rules.capot_points`` (252: seed 000 "100 au lieu du dix de der", seed
  003 "+90"), ``Rules.solo_capot_points`` (seed 002: 350) or
  ``Rules.coinche_capot_points`` (coinche: 250, the FFB's 252);
- ``declarations``: the declarations that counted (RULES.md,
  "Declarations"; the defenders' counted for the takers after their capot
  where ``Rules.capot_takes_declarations``, FFB coinche 2015, 10.1.1);
- ``belote``: belote points that counted (RULES.md common ground; seed 001
  said aloud, seed 000 with a trick).
"""

ScoredKind = Literal[
    "contract",
    "deal",
    "points",
    "defence",
    "declarations",
    "defence_declarations",
    "taker_declarations",
    "belote",
    "taker_belote",
    "coinche_multiplier",
    "strain_multiplier",
    "rounding",
]
"""The lines of what each side scores for a deal, in order (each
multiplier's line adds what it makes of the lines above it):

- ``contract``: a coinche contract times its multiplier (coinche x2,
  surcoinche x4): to the takers when made, to the defenders when failed
  (RULES.md, "Coinche"); once only where the multiplier is the whole
  deal's (``Rules.coinche_multiplies`` ``deal``: ``coinche_multiplier``);
- ``deal``: a coinched contract made where the multiplier is the whole
  deal's: 160, or 250 after a capot (FFB coinche 2015, 10.1.1 "160 points
  (ou 250 points si capot réalisé, même non demandé)");
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
- ``declarations``: the defenders' own declarations on a *dedans*; the
  takers' own in a whole coinched deal made;
- ``defence_declarations``: the defenders' declarations, which go to the
  takers in a whole coinched deal made (FFB coinche 2015, 10.1.1 "Les
  annonces des défenseurs qui changent de main");
- ``taker_declarations``: the takers' declarations, which go to the
  defenders on a *dedans* (seed 003 "tous ses points reviennent à l'équipe
  adverse"; four players only);
- ``belote``: its own belote (kept by its holders, seeds 001, 002, 003;
  coinche: outside the multiplier);
- ``taker_belote``: the takers' belote given to the defenders on a *dedans*
  (``Rules.belote_on_dedans`` ``defenders``);
- ``coinche_multiplier``: what the coinche (x2) or surcoinche (x4) adds
  where it multiplies the whole deal (``Rules.coinche_multiplies``
  ``deal``, FFB coinche 2015, 10.1.1 and 10.1.2: the side that wins the
  deal, its belote included);
- ``strain_multiplier``: what a Sans Atout or Tout Atout deal's multiplier
  adds (``Rules.sa_multiplier``, ``Rules.ta_multiplier``: seed 000 "le
  double", "le triple");
- ``rounding``: what rounding each side's score adds or takes
  (``Rules.rounding``: FFB coinche 2015, 10.2 "arrondis à la dizaine la
  plus proche"; :func:`rounded_scores`).
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
      ``strain_multiplier``: 2 (Sans Atout), 3 (Tout Atout) or 1;
      ``coinche_multiplier``: the coinche's multiplier where it multiplies
      the whole deal (``Rules.coinche_multiplies`` ``deal``), else 1;
      ``rounding``: ``Rules.rounding``.
    - ``score``: the sum of ``scored`` per side, :attr:`DealResult.score`;
      ``held_over``: the points held for the winner of the next deal
      (*litige*), multiplied and rounded like the score; ``winner``: as
      :attr:`DealResult.winner`.
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
    coinche_multiplier: int
    rounding: str
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
            "coinche_multiplier": self.coinche_multiplier,
            "rounding": self.rounding,
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
    the points of the declarations that count (``decl``, as
    :attr:`DealResult.declarations`: after a capot's transfer) and of belote
    (``bel``); ``tk``: the takers' side.  The rules of the module
    docstring, as :func:`score_deal` applies them, written line by line."""
    nsides = len(card)
    coinche = rules.bidding == "coinche"
    zero = (0,) * nsides

    trick_pts = list(card)
    trick_pts[ddd] += DIX_DE_DER
    raw = trick_pts[:]
    if rules.ta_sa_points_to_162 and not contract.strain.is_suit:
        deal_total = sum(card) + DIX_DE_DER
        trick_pts = [scale_to_162(p, deal_total) for p in trick_pts]
    scaled = [trick_pts[s] - raw[s] for s in range(nsides)]
    capot_pts = [0] * nsides
    if capot is not None:
        if coinche:
            value = rules.coinche_capot_points
        elif solo and rules.solo_capot_points is not None:
            value = rules.solo_capot_points
        else:
            value = in_play(rules, rules.capot_points, card)
        capot_pts[capot] = value - trick_pts[capot]
        trick_pts[capot] = value
    ddd_pts = [DIX_DE_DER if s == ddd else 0 for s in range(nsides)]
    total = [trick_pts[s] + decl[s] + bel[s] for s in range(nsides)]
    made = (
        BreakdownLine("cards", tuple(card)),
        BreakdownLine("dix_de_der", tuple(ddd_pts)),
        BreakdownLine("to_162", tuple(scaled)),
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
    else:
        verdict = (
            "made"
            if total[tk] > best_other
            else "tie"
            if total[tk] == best_other
            else "defence_higher"
        )
    value = contract.value or 0
    mult = contract.multiplier
    deal_multiplied = coinche and mult > 1 and rules.coinche_multiplies == "deal"

    # each scored kind's points per side, filled below
    lines: dict[str, list[int]] = {}

    def add(kind: str, side: int, points: int) -> None:
        lines.setdefault(kind, [0] * nsides)[side] += points

    def side_total(side: int) -> int:
        return sum(v[side] for v in lines.values())

    held = 0
    winner: int | None
    kind: ResultKind
    if verdict == "made":
        kind = "capot" if capot == tk else "made"
        winner = tk
        if deal_multiplied:
            add("deal", tk, COINCHE_CAPOT_DEAL if capot == tk else COINCHE_FAIL_POINTS)
            add("declarations", tk, decl[tk])
            for s in others:
                add("defence_declarations", tk, decl[s])
            add("belote", tk, bel[tk])
            add("contract", tk, value)
            add("coinche_multiplier", tk, side_total(tk) * (mult - 1))
            for s in others:
                add("belote", s, bel[s])
        else:
            for s in range(nsides):
                own = trick_pts[s] + decl[s]
                if s == tk and coinche:
                    add("contract", s, value * mult)
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
        held = total[tk] - bel[tk]
        if coinche and rules.coinche_multiplies != "deal":  # FFB 10.1.3: not held
            held += value * mult
    else:
        kind = "dedans"
        winner = others[0] if nsides == 2 else None
        keep_belote = rules.belote_on_dedans == "holders"
        if keep_belote:
            add("belote", tk, bel[tk])
        for s in others:
            if deal_multiplied:
                add("defence", s, COINCHE_FAIL_POINTS)
                add("contract", s, value)
            elif coinche:
                add("defence", s, COINCHE_FAIL_POINTS)
                add("contract", s, value * mult)
            elif capot == s and solo and rules.solo_capot_points is not None:
                # Seed 002: "Si un joueur a remportés tous les plis par lui-même
                # ..., 350 points": any player, a defender too.
                add("defence", s, rules.solo_capot_points)
            elif capot == s:
                add("defence", s, in_play(rules, rules.capot_against_takers, card))
            elif nsides == 3:
                add("defence", s, 0 if capot is not None else DEAL_POINTS // 2)
            else:
                add("defence", s, in_play(rules, DEAL_POINTS, card))
            add("declarations", s, decl[s])
            add("belote", s, bel[s])
        if nsides == 2:
            add("taker_declarations", others[0], decl[tk])
            if not keep_belote:
                add("taker_belote", others[0], bel[tk])
            if deal_multiplied:
                add("coinche_multiplier", others[0], side_total(others[0]) * (mult - 1))

    strain = contract.strain
    times = rules.sa_multiplier if strain == _SA else rules.ta_multiplier if strain == _TA else 1
    if times != 1:
        subtotal = [side_total(s) for s in range(nsides)]
        for s in range(nsides):
            add("strain_multiplier", s, subtotal[s] * (times - 1))
        held *= times
    score = tuple(side_total(s) for s in range(nsides))
    final, held = rounded_scores(rules.rounding, score, held, tk)
    for s in range(nsides):
        add("rounding", s, final[s] - score[s])
    order: tuple[str, ...] = get_args(ScoredKind)
    scored = tuple(BreakdownLine(k, tuple(lines[k])) for k in order if k in lines and any(lines[k]))
    return ScoreBreakdown(
        made,
        tuple(total),
        tk,
        total[tk],
        best_other,
        contract.value if coinche else None,
        mult,
        verdict,
        kind,
        scored or (BreakdownLine("points", zero),),
        times,
        mult if deal_multiplied else 1,
        rules.rounding,
        final,
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
