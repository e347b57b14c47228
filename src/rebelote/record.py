"""Deal and match records: read, check, replay, summarize and write.

A deal record is a JSON object (format 1)::

    {"format": 1, "rules": "ffb" | {"preset": "ffb", "<option>": value},
     "dealer": "N",
     "deck": [32 cards after the cut, top first], "pattern": "3-2",
       or "hands": {"N": [8 cards], ...} with "turned": "9H" (classic),
     "bids": ["pass", "take", ...],         # from the dealer's right
     "declarations": {"W": ["tierce"]},     # optional; absent: all declare all
     "belote": {"N": true},                 # optional; absent: said
     "play": ["7S", ...]}                   # from the leader of trick 1

A match record is ``{"format": 1, "rules": ..., "deals": [deal records]}``;
a deal inside it may omit ``rules``.  Fewer bids or cards than a whole deal
stop the replay there.

Errors: :class:`RecordError` for a malformed record (a card twice, a hand of
7, an unknown preset, a deck of 31, ...); :class:`IllegalRecordError` for an
illegal bid, declaration or card, with a JSON-ready :attr:`payload` naming the
trick, the seat, the action and the legal ones.  Nothing is half-applied: a
replay that fails returns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Bid, ChoosePattern, Declare, Play, parse_bid
from .cards import Card, CardParseError, card_name, parse_card
from .declarations import Declaration, DeclarationError, match_declarations
from .match import Match
from .rules import Rules, RulesError
from .scoring import DealResult
from .seats import Seat
from .state import DealError, IllegalActionError, Phase, State
from .trump import Strain

__all__ = [
    "IllegalRecordError",
    "RecordError",
    "ReplayedDeal",
    "deal_summary",
    "replay",
    "replay_deal",
    "state_to_record",
]

FORMAT = 1

DEAL_KEYS = frozenset(
    (
        "format",
        "rules",
        "dealer",
        "deck",
        "hands",
        "pattern",
        "turned",
        "bids",
        "declarations",
        "belote",
        "play",
    )
)
"""The keys of a deal record; others are reported as warnings, not used."""


class RecordError(ValueError):
    """A malformed record.  ``payload`` is the JSON-ready error object."""

    def __init__(self, message: str, *, deal: int | None = None) -> None:
        super().__init__(message)
        self.payload: dict[str, Any] = {"error": "malformed record", "message": message}
        if deal is not None:
            self.payload["deal"] = deal


class IllegalRecordError(RecordError):
    """A record whose bid, declaration or card is illegal where it stands."""

    def __init__(self, message: str, payload: dict[str, Any]) -> None:
        super().__init__(message)
        self.payload = {"message": message, **payload}


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """A replayed deal: its final ``state`` (complete or stopped where the
    record stops), whether the record went to the end of the deal, and
    ``warnings`` about record content that was not used."""

    state: State
    complete: bool
    warnings: tuple[str, ...] = ()


def _seat(value: object, what: str, state_seats: Sequence[Seat]) -> Seat:
    if not isinstance(value, str) or value.strip().upper() not in Seat.__members__:
        raise RecordError(f"{what} must be a seat letter N, E, S or W, not {value!r}")
    seat = Seat[value.strip().upper()]
    if seat not in state_seats:
        raise RecordError(f"{what}: seat {seat.letter} is not at this table")
    return seat


def _card(value: object, what: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f"{what}: a card must be written like '10H', not {value!r}")
    try:
        return parse_card(value)
    except CardParseError as exc:
        raise RecordError(f"{what}: {exc}") from None


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards")
    return [_card(v, what) for v in value]


def _rules(value: object) -> Rules:
    try:
        return Rules.from_record(value)
    except RulesError as exc:
        raise RecordError(str(exc)) from None


def _setup(record: Mapping[str, Any], rules: Rules) -> State:
    seats = (Seat.W, Seat.S, Seat.E) if rules.players == 3 else tuple(Seat)
    dealer = _seat(record.get("dealer"), "dealer", seats)
    has_deck, has_hands = "deck" in record, "hands" in record
    if has_deck == has_hands:
        raise RecordError("a deal record needs either 'deck' or 'hands' (not both)")
    try:
        if has_deck:
            deck = _cards(record["deck"], "deck")
            pattern = record.get("pattern")
            if pattern is not None and pattern not in ("3-2", "2-3"):
                raise RecordError(f"pattern must be '3-2' or '2-3', not {pattern!r}")
            if pattern is None:
                pattern = rules.patterns[0]
            state = State.from_deck(rules, dealer, deck, pattern)
            if "turned" in record and not rules.turned_card:
                raise RecordError("coinche turns no card: remove 'turned'")
            if "turned" in record and rules.turned_card:
                turned = _card(record["turned"], "turned")
                if turned != state.turned:
                    assert state.turned is not None
                    raise RecordError(
                        f"turned is {card_name(turned)} but this deck turns "
                        f"{card_name(state.turned)}"
                    )
            return state
        hands_value = record["hands"]
        if not isinstance(hands_value, Mapping):
            raise RecordError("hands must be an object: seat letter -> list of 8 cards")
        hands: dict[Seat, list[Card]] = {}
        for key, cards in hands_value.items():
            hands[_seat(key, "hands", seats)] = _cards(cards, f"hand of {key}")
        turned_card: Card | None = None
        if rules.turned_card:
            if "turned" not in record:
                raise RecordError("a classic deal given by hands needs 'turned'")
            turned_card = _card(record["turned"], "turned")
        elif "turned" in record:
            raise RecordError("coinche turns no card: remove 'turned'")
        return State.from_hands(rules, dealer, hands, turned_card)
    except DealError as exc:
        raise RecordError(str(exc)) from None


def _string_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{what} must be a list of strings")
    return list(value)


def replay_deal(record: Mapping[str, Any], rules: Rules | None = None) -> ReplayedDeal:
    """Replay one deal record (``rules`` overrides the record's own).

    Raises :class:`RecordError` or :class:`IllegalRecordError`.
    """
    if not isinstance(record, Mapping):
        raise RecordError("a deal record must be a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r}: this reads format 1")
    if rules is None:
        if "rules" not in record:
            raise RecordError("the record has no 'rules'")
        rules = _rules(record["rules"])
    state = _setup(record, rules)
    bids = _string_list(record.get("bids", []), "bids")
    plays = [_card(c, "play") for c in _string_list(record.get("play", []), "play")]
    declarations = _declaration_texts(record.get("declarations"), state)
    belote_said = _belote_flags(record.get("belote", {}), state)
    warnings = [f"unknown key {key!r} not used" for key in record if key not in DEAL_KEYS]
    if "hands" in record and "pattern" in record:
        warnings.append("'pattern' is not used with 'hands'")
    if belote_said and not rules.belote_must_be_said:
        warnings.append("'belote' is not used: belote is automatic under these rules")
    if declarations and rules.declarations == "automatic":
        warnings.append("'declarations' are not used: declarations are automatic here")

    if state.phase == Phase.PATTERN:  # pragma: no cover - from_deck always deals
        state.apply(ChoosePattern(state.rules.patterns[0]))
    for i, text in enumerate(bids):
        if state.phase != Phase.BIDDING:
            raise RecordError(f"bid {i + 1} ({text!r}) comes after the auction ended")
        try:
            bid = parse_bid(text)
        except ValueError as exc:
            raise RecordError(f"bid {i + 1}: {exc}") from None
        seat = state.current
        try:
            state.apply(bid)
        except IllegalActionError as exc:
            assert seat is not None
            raise IllegalRecordError(
                f"illegal bid {bid.text!r} by {seat.letter}",
                {"error": "illegal bid", "seat": seat.letter, "bid": bid.text, "legal": exc.legal},
            ) from None
        except DealError as exc:
            raise RecordError(str(exc)) from None
    if state.phase == Phase.BIDDING:
        if plays:
            raise RecordError("the record plays cards before the auction ended")
        return ReplayedDeal(state, False, tuple(warnings))
    if state.phase == Phase.DONE and plays:
        raise RecordError("the record plays cards in a deal that was not played")
    _check_declarations(state, declarations)
    for card in plays:
        _declare_if_needed(state, declarations)
        if state.phase != Phase.PLAYING:
            raise RecordError("the record plays more cards than the deal has")
        seat = state.current
        assert seat is not None
        try:
            state.apply(Play(card, _belote_flag(state, seat, card, belote_said)))
        except IllegalActionError as exc:
            # The record names cards: list each legal card once (not its
            # belote choices, "QH belote" and "QH no-belote").
            legal = list(dict.fromkeys(t.split()[0] for t in exc.legal))
            raise IllegalRecordError(
                f"illegal card {card_name(card)} by {seat.letter} at trick {exc.trick}",
                {
                    "error": "illegal card",
                    "trick": exc.trick,
                    "seat": seat.letter,
                    "card": card_name(card),
                    "legal": legal,
                },
            ) from None
    _declare_if_needed(state, declarations)
    return ReplayedDeal(state, state.phase == Phase.DONE, tuple(warnings))


def _belote_flags(value: object, state: State) -> dict[Seat, list[bool]]:
    """Read ``"belote": {"N": true}`` (or a list of flags, one per belote the
    seat holds in suit order S H D C, for Tout Atout)."""
    if not isinstance(value, Mapping):
        raise RecordError("belote must be an object: seat letter -> true or false")
    out: dict[Seat, list[bool]] = {}
    for key, flag in value.items():
        flags = flag if isinstance(flag, list) else [flag]
        if not flags or not all(isinstance(f, bool) for f in flags):
            raise RecordError(
                f"belote of {key} must be true or false (or a list of them, one per belote)"
            )
        out[_seat(key, "belote", state.seats)] = flags
    return out


def _belote_flag(state: State, seat: Seat, card: Card, said: dict[Seat, list[bool]]) -> bool | None:
    """Whether ``seat`` says belote with ``card``, as the record says
    (``None``: the record does not say; belote is then said)."""
    flags = said.get(seat)
    if not flags:
        return None
    pairs = sorted(p for p, s in state.belote_owners().items() if s == seat)
    for index, pair in enumerate(pairs):
        if pair >> card & 1:
            return flags[min(index, len(flags) - 1)]
    return None


def _declaration_texts(value: object, state: State) -> dict[Seat, list[str]] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RecordError("declarations must be an object: seat letter -> list of declarations")
    return {
        _seat(k, "declarations", state.seats): _string_list(v, f"declarations of {k}")
        for k, v in value.items()
    }


def _match(state: State, seat: Seat, texts: list[str]) -> tuple[Declaration, ...]:
    """The declarations of ``seat`` that a record's ``texts`` name, or an
    :class:`IllegalRecordError` when its hand does not hold them."""
    found = state.found.get(seat, ())
    try:
        return match_declarations(found, texts)
    except DeclarationError as exc:
        raise IllegalRecordError(
            f"illegal declaration by {seat.letter}: {exc}",
            {
                "error": "illegal declaration",
                "seat": seat.letter,
                "declarations": texts,
                "legal": [d.text for d in found],
            },
        ) from None


def _check_declarations(state: State, texts: dict[Seat, list[str]] | None) -> None:
    """Once the deal is complete, refuse declarations that a hand does not
    hold, also for a seat that has none to make (or rules without them)."""
    if texts is not None and state.phase in (Phase.DECLARING, Phase.PLAYING):
        if state.rules.declarations == "off" and any(texts.values()):
            seat = next(s for s, t in texts.items() if t)
            raise IllegalRecordError(
                f"illegal declaration by {seat.letter}: declarations are off under these rules",
                {
                    "error": "illegal declaration",
                    "seat": seat.letter,
                    "declarations": texts[seat],
                    "legal": [],
                },
            )
        for seat, wanted in texts.items():
            _match(state, seat, wanted)


def _declare_if_needed(state: State, texts: dict[Seat, list[str]] | None) -> None:
    """Make the declaration decisions due now, as the record says."""
    while state.current is not None and state.current in state.to_declare[:1]:
        seat = state.current
        found = state.found[seat]
        if texts is None:
            chosen = found
        else:
            picked = _match(state, seat, texts.get(seat, []))
            chosen = tuple(d for d in found if d in picked)
        state.apply(Declare(chosen))


# ------------------------------------------------------------------ summaries


def _per_side(state: State, values: Sequence[Any]) -> dict[str, Any]:
    return {state.side_name(i): v for i, v in enumerate(values)}


def deal_summary(state: State, score: Sequence[int] | None = None) -> dict[str, Any]:
    """The JSON summary of a deal: trump, taker, contract, tricks, card points,
    dix de der, declarations, belote, capot, result, held_over and score.

    ``score`` overrides the deal's own score (a match adds released litige
    points).  A deal stopped early has ``result`` null and ``complete`` false.
    """
    result: DealResult | None = state.result
    contract = state.contract
    nsides = len(state.side_names)
    tricks = [
        {
            "leader": t.leader.letter,
            "cards": [card_name(c) for c in t.cards],
            "winner": t.winner.letter,
            "points": t.points,
        }
        for t in state.tricks
    ]
    card_points = [0] * nsides
    for t in state.tricks:
        card_points[state.side_of[t.winner]] += t.points
    out: dict[str, Any] = {
        "rules": state.rules.to_record(),
        "dealer": state.dealer.letter,
        "trump": None if contract is None else contract.strain.text,
        "taker": None if contract is None else contract.taker.letter,
        "contract": None,
        "multiplier": 1 if contract is None else contract.multiplier,
        "bids": [b.text for _, b in state.auction.bids] if state.auction else [],
        "tricks": tricks,
        "card_points": _per_side(state, card_points),
        "dix_de_der": None,
        "declarations": _per_side(
            state, [[d.text for d in ds] for ds in state.counted_declarations()]
        ),
        "belote": [] if contract is not None and contract.strain == Strain.TA else None,
        "belote_points": _per_side(state, [0] * nsides),
        "capot": None,
        "solo_capot": False,
        "result": None,
        "held_over": 0,
        "score": _per_side(state, [0] * nsides),
        "complete": result is not None,
    }
    if state.trick_cards:
        out["trick"] = {
            "leader": state.leader.letter,
            "cards": [card_name(c) for c in state.trick_cards],
        }
    if contract is not None and contract.value is not None:
        out["contract"] = Bid("contract", contract.strain, contract.value).text
    if result is not None:
        holders = [state.side_name(s) for s in result.belote]
        if contract is not None and contract.strain == Strain.TA:
            out["belote"] = holders
        else:
            out["belote"] = holders[0] if holders else None
        out.update(
            {
                "dix_de_der": None
                if result.dix_de_der is None
                else state.side_name(result.dix_de_der),
                "belote_points": _per_side(state, result.belote_points),
                "capot": None if result.capot is None else state.side_name(result.capot),
                "solo_capot": result.solo_capot,
                "result": result.result,
                "held_over": result.held_over,
                "score": _per_side(state, result.score if score is None else score),
            }
        )
    return out


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a deal or match record and return its JSON summary.

    A match summary is ``{"rules", "deals": [deal summaries], "totals",
    "winner"}``; each deal's ``score`` includes the litige points it releases.
    Raises :class:`RecordError` / :class:`IllegalRecordError` (with ``deal``,
    1-based, in the payload for a match).
    """
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    if "deals" not in record:
        replayed = replay_deal(record)
        return _with_warnings(deal_summary(replayed.state), replayed.warnings)
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r}: this reads format 1")
    if "rules" not in record:
        raise RecordError("the match record has no 'rules'")
    rules = _rules(record["rules"])
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise RecordError("deals must be a non-empty list of deal records")
    match = Match(rules, Seat.W if rules.players == 3 else Seat.N)
    summaries = []
    expected_dealer: Seat | None = None
    for index, deal in enumerate(deals, start=1):
        if match.is_over:
            raise RecordError(f"deal {index} comes after the match was won", deal=index)
        try:
            if not isinstance(deal, Mapping):
                raise RecordError("a deal record must be a JSON object")
            deal_rules = _rules(deal["rules"]) if "rules" in deal else rules
            if deal_rules != rules:
                raise RecordError("a deal's rules differ from the match's")
            replayed = replay_deal(deal, rules)
        except RecordError as exc:
            exc.payload["deal"] = index
            raise
        state = replayed.state
        warnings = list(replayed.warnings)
        if expected_dealer is not None and state.dealer != expected_dealer:
            # Reported, not refused: a match record assembled from separate
            # deals is still worth replaying and scoring.
            warnings.append(
                f"deal {index} is dealt by {state.dealer.letter}, but by the rules the deal "
                f"passes to {expected_dealer.letter} after deal {index - 1}"
            )
        if state.result is None:
            summaries.append(_with_warnings(deal_summary(state), warnings))
            if index != len(deals):
                raise RecordError(f"deal {index} is unfinished but more deals follow", deal=index)
            break
        match.dealer = state.dealer
        entry = match.add(state.result)
        # The texts agree on the deal passing on after a played deal; after a
        # void deal they differ (Rules.all_pass), so any dealer is read then.
        played = state.result.result not in ("passed", "cancelled")
        expected_dealer = match.dealer if played else None
        summary = _with_warnings(deal_summary(state, entry.score), warnings)
        summary["released"] = entry.released
        summary["totals"] = _per_side(state, entry.totals)
        summaries.append(summary)
    names = ("W", "S", "E") if rules.players == 3 else ("NS", "EW")
    return {
        "rules": rules.to_record(),
        "deals": summaries,
        "totals": {names[i]: t for i, t in enumerate(match.totals)},
        "held_over": match.held_over,
        "winner": None if match.winner is None else names[match.winner],
    }


def _with_warnings(summary: dict[str, Any], warnings: Sequence[str]) -> dict[str, Any]:
    if warnings:
        summary["warnings"] = list(warnings)
    return summary


# -------------------------------------------------------------------- writing


def state_to_record(state: State) -> dict[str, Any]:
    """The record of a deal played from :meth:`State.new` or
    :meth:`State.from_deck` (with its deck, so that it replays exactly)."""
    if not state.deck:
        raise ValueError("only a deal dealt from a pack can be written with its deck")
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_record(),
        "dealer": state.dealer.letter,
        "deck": [card_name(c) for c in state.deck],
        "pattern": state.pattern,
    }
    if state.turned is not None:
        record["turned"] = card_name(state.turned)
    record["bids"] = [b.text for _, b in state.auction.bids] if state.auction else []
    if state.rules.declarations == "choice" and (state.declared or state.declined):
        declarations = {s.letter: [d.text for d in ds] for s, ds in state.declared}
        declarations.update({s.letter: [] for s in state.declined})
        record["declarations"] = declarations
    if state.rules.belote_must_be_said and state.belote_said:
        by_seat: dict[str, list[bool]] = {}
        decided = {state.belote_owners()[pair].letter for pair in state.belote_said}
        for pair, seat in sorted(state.belote_owners().items()):
            if seat.letter in decided:
                by_seat.setdefault(seat.letter, []).append(state.belote_said.get(pair, True))
        record["belote"] = {k: v[0] if len(v) == 1 else v for k, v in by_seat.items()}
    record["play"] = [card_name(c) for t in state.tricks for c in t.cards] + [
        card_name(c) for c in state.trick_cards
    ]
    return record
