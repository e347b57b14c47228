"""Per-match summaries of a table's finished matches, from its stored event
log, for the profiles (``docs/profiles.md``).

The log is replayed as for a replay (every finished deal's final
:class:`~rebelote.state.State`); each match's deals are added up again by
the rules core's :class:`~rebelote.match.Match` (its final totals), and
each played deal's facts are the core's: the taker
(:attr:`~rebelote.auction.Contract.taker`), whether the contract was made
(the verdict of :func:`~rebelote.scoring.explain_deal`), the points each
side scored (:attr:`~rebelote.scoring.DealResult.score`) and the side
that took every trick (:attr:`~rebelote.scoring.DealResult.capot`).
Nothing of the rules is worked out here: this module only counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rebelote.match import Match
from rebelote.rules import Rules
from rebelote.scoring import explain_deal
from rebelote.seats import Seat, seats_of
from rebelote.server.storage.summaries import SummaryLine
from rebelote.server.storage.tables import StoredTable
from rebelote.server.tables.table import game_from_stored
from rebelote.state import State

__all__ = ["SUMMARY_VERSION", "SeatTally", "match_tallies", "summary_lines", "tally_match"]

SUMMARY_VERSION = 1
"""The version of :class:`SeatTally`'s definition: summaries kept under
another one are made again."""


@dataclass(frozen=True, slots=True)
class SeatTally:
    """One seat's facts over the deals of one finished match.

    - ``deals``: deals played out (a contract played: not thrown in, not
      cancelled);
    - ``taken``: of those, the deals where this seat's bid stood (the
      taker); ``made``: of those, the contracts made (``explain_deal``'s
      verdict ``made``); ``taker_points``: what his side scored in them;
    - ``defended``: the deals where another side held the contract (his
      partner's are neither taken nor defended); ``defender_points``: what
      his side scored in them;
    - ``capots``: the deals where his side took every trick;
    - ``score_us`` / ``score_them``: the match's final totals of his side
      and of the best other side.

    A deal's points are the deal's own score (:attr:`DealResult.score
    <rebelote.scoring.DealResult.score>`: held-over *litige* points count
    in neither deal)."""

    deals: int
    taken: int
    made: int
    taker_points: int
    defended: int
    defender_points: int
    capots: int
    score_us: int
    score_them: int


def tally_match(rules: Rules, states: Sequence[State]) -> dict[Seat, SeatTally] | None:
    """Each seat's :class:`SeatTally` of the match whose finished deals are
    ``states`` (in order), or ``None`` when they do not make a finished
    match (the core's :class:`~rebelote.match.Match`, first dealt by the
    first deal's dealer, has no winner after them)."""
    if not states:
        return None
    match = Match(rules, states[0].dealer)
    for state in states:
        if state.result is None or match.is_over:
            return None
        match.add(state.result)
    if not match.is_over:
        return None
    seats = seats_of(rules.players)
    counts = {s: [0, 0, 0, 0, 0, 0, 0] for s in seats}
    for state in states:
        result = state.result
        assert result is not None
        breakdown = explain_deal(rules, result)
        if breakdown is None:  # thrown in or cancelled: not played
            continue
        for seat in seats:
            c = counts[seat]
            side = state.side_of[int(seat)]
            c[0] += 1
            if result.contract is not None and result.contract.taker == seat:
                c[1] += 1
                c[2] += breakdown.verdict == "made"
                c[3] += result.score[side]
            elif breakdown.taker != side:
                c[4] += 1
                c[5] += result.score[side]
            c[6] += result.capot == side
    out: dict[Seat, SeatTally] = {}
    totals = match.totals
    for seat in seats:
        side = states[0].side_of[int(seat)]
        them = max(t for i, t in enumerate(totals) if i != side)
        deals, taken, made, taker_points, defended, defender_points, capots = counts[seat]
        out[seat] = SeatTally(
            deals=deals,
            taken=taken,
            made=made,
            taker_points=taker_points,
            defended=defended,
            defender_points=defender_points,
            capots=capots,
            score_us=totals[side],
            score_them=them,
        )
    return out


def match_tallies(stored: StoredTable) -> dict[int, dict[Seat, SeatTally]]:
    """:func:`tally_match` of every finished match of a stored table, by
    match number (the log replayed once)."""
    rules = Rules.from_record(stored.rules)
    game, _ = game_from_stored(stored, keep_deals=True)
    by_match: dict[int, list[State]] = {}
    for match, _deal, state in game.finished or []:
        by_match.setdefault(match, []).append(state)
    out: dict[int, dict[Seat, SeatTally]] = {}
    for number, states in by_match.items():
        tallies = tally_match(rules, states)
        if tallies is not None:
            out[number] = tallies
    return out


def summary_lines(stored: StoredTable, names: Mapping[tuple[int, str], str]) -> list[SummaryLine]:
    """The summaries to keep of a stored table: one per seat of each
    finished match whose results are stored (``names``, by ``(match,
    seat)``: the name on each seat's result line, which ``players`` lists
    in the table's seat order)."""
    rules = Rules.from_record(stored.rules)
    order = seats_of(rules.players)
    lines: list[SummaryLine] = []
    for number, tallies in sorted(match_tallies(stored).items()):
        if not any((number, s.letter) in names for s in order):
            continue
        players = tuple(names.get((number, s.letter), "") for s in order)
        for seat, t in tallies.items():
            lines.append(
                SummaryLine(
                    table_id=stored.id,
                    match=number,
                    seat=seat.letter,
                    version=SUMMARY_VERSION,
                    deals=t.deals,
                    taken=t.taken,
                    made=t.made,
                    taker_points=t.taker_points,
                    defended=t.defended,
                    defender_points=t.defender_points,
                    capots=t.capots,
                    score_us=t.score_us,
                    score_them=t.score_them,
                    preset=rules.preset,
                    players=players,
                )
            )
    return lines
