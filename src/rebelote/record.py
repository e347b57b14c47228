"""Deal and match records: read, check, replay, summarize and write.

A deal record is a JSON object.  This module writes **format 2**: the deal's
rules, dealer and cards, and the ordered list of its actions, each in the
one text form of :attr:`rebelote.actions.Action.text` (the notation that
:meth:`rebelote.state.State.parse_action` reads, belote word included)::

    {"format": 2, "rules": "ffb" | {"preset": "ffb", "<option>": value},
     "dealer": "N",
     "deck": [32 cards after the cut, top first],
       or "pack": [32 cards before the cut, top first] (the first action
       is then the cut),
     "actions": [{"seat": "E", "action": "pass"},   # who acted, and what:
                 {"seat": "N", "action": "take"},   # "cut 12", "deal 3-2",
                 {"seat": "N", "action": "JH"},     # bids, "declare tierce-KH",
                 {"seat": "S", "action": "QH belote"}, ...],  # "declare none",
                                                    # cards
     "events": [...],                               # optional, see below
     "fair": {"commitment": hex, "seed": hex, "salt": hex,  # optional
              "cut": "server" | "player", "pattern": ...}}

``fair``: a server's deal, dealt from ``seed`` (:mod:`rebelote.fairness`,
``rebelote verify``); the replay does not read it.

The actions are every decision of the deal in order, whoever made it: the
cut (``cut 12``, only after a ``pack``), the dealer's first distribution
(``deal 3-2``, only where the rules allow both patterns), the bids, the
declarations (``declare tierce-KH carre-J``, ``declare none``; only where
the players choose them) and the cards (``QH belote`` / ``QH no-belote``
where the player chooses whether to say belote, seed 001; else ``QH``).
Each action must be legal where it stands and be made by ``seat``, the
player whose turn it is.  This is the deal part of a table's log on the
server (its ``deal`` entry gives ``dealer`` and ``pack``, its ``act``
entries the actions, :mod:`rebelote.server.tables.history`).

For readers that do not run the engine, a record may carry the typed events
(:mod:`rebelote.events`, :meth:`~rebelote.events.Event.to_json`) that the
replay produced: ``"events"`` on an action (what that action caused) and on
the deal (what dealing a ``deck`` caused before the first action: the
first distribution where the rules fix the pattern).  A record that carries
events must carry the replay's exactly (:class:`RecordError` otherwise);
they are never needed to replay it.

Format 1, still read (a record without ``format`` is format 2 when it has
``actions``, else format 1)::

    {"format": 1, "rules": ..., "dealer": "N",
     "deck": [32 cards after the cut, top first], "pattern": "3-2",
       or "hands": {"N": [8 cards], ...} with "turned": "9H" (classic),
     "bids": ["pass", "take", ...],         # from the dealer's right
     "declarations": {"W": ["tierce"]},     # optional; absent: all declare all
     "belote": {"N": true},                 # optional; absent: said
     "play": ["7S", ...]}                   # from the leader of trick 1

A match record is ``{"format": 2, "rules": ..., "deals": [deal records]}``
(or format 1 with format 1 deals); a deal inside it may omit ``rules`` and
``format`` (then the match's).  A match record that carries events carries
the match's own too, ``"events"`` beside ``"deals"``: ``[]`` while no side
has won, else the :class:`~rebelote.events.MatchEnded` of the replay
(``{"kind": "match_ended", "winner": 1, "totals": [960, 1048], "target":
1000, "deals": 9, "seat": null}``); checked as a deal's events are.
Fewer actions (or bids or cards) than a whole deal stop the replay there.
:func:`convert` writes any record, of either format, in format 2.

Errors: :class:`RecordError` for a malformed record (a card twice, a hand of
7, an unknown preset, a deck of 31, an action that is no action, ...);
:class:`IllegalRecordError` for an illegal bid, declaration, card or action,
with a JSON-ready :attr:`payload` naming the seat, the action and the legal
ones.  Nothing is half-applied: a replay that fails returns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Bid, ChoosePattern, Cut, Declare, InvalidActionError, Play, parse_bid
from .cards import Card, CardParseError, card_name, parse_card
from .declarations import Declaration, DeclarationError, match_declarations
from .events import Event
from .match import Match
from .rules import PATTERNS, Rules, RulesError
from .scoring import DealResult, explain_deal
from .seats import Seat, seats_of
from .state import AmbiguousActionError, DealError, IllegalActionError, Phase, State
from .trump import Strain

__all__ = [
    "FORMAT",
    "FORMATS",
    "IllegalRecordError",
    "RecordError",
    "RecordedAction",
    "ReplayedDeal",
    "convert",
    "deal_summary",
    "new_deal_record",
    "record_format",
    "replay",
    "replay_deal",
    "state_to_record",
]

FORMAT = 2
"""The record format this module writes."""

FORMATS = (1, 2)
"""The record formats it reads."""

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
"""The keys of a format 1 deal record; others are reported as warnings, not used."""

DEAL_KEYS_2 = frozenset(("format", "rules", "dealer", "deck", "pack", "actions", "events", "fair"))
"""The keys of a format 2 deal record; others are reported as warnings, not
used (but format 1's ``hands``, ``bids``, ``play`` ... are refused).
``fair`` (the deal's commitment, seed and salt, :mod:`rebelote.fairness`)
is read by ``rebelote verify``, not by the replay."""

ACTION_KEYS = frozenset(("seat", "action", "events"))
"""The keys of an action of a format 2 record."""


class RecordError(ValueError):
    """A malformed record.  ``payload`` is the JSON-ready error object."""

    def __init__(self, message: str, *, deal: int | None = None) -> None:
        super().__init__(message)
        self.payload: dict[str, Any] = {"error": "malformed record", "message": message}
        if deal is not None:
            self.payload["deal"] = deal


class IllegalRecordError(RecordError):
    """A record whose bid, declaration, card or action is illegal where it
    stands."""

    def __init__(self, message: str, payload: dict[str, Any]) -> None:
        super().__init__(message)
        self.payload = {"message": message, **payload}


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One action of a deal: ``seat`` took ``action`` (as
    :meth:`~rebelote.state.State.legal_actions` writes it), which caused
    ``events``."""

    seat: Seat
    action: Action
    events: tuple[Event, ...] = ()

    def to_json(self, events: bool = False) -> dict[str, Any]:
        """``{"seat": "S", "action": "QH belote"}``, with ``"events"`` (their
        :meth:`~rebelote.events.Event.to_json`) when ``events``."""
        out: dict[str, Any] = {"seat": self.seat.letter, "action": self.action.text}
        if events:
            out["events"] = [e.to_json() for e in self.events]
        return out


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """A replayed deal: its final ``state`` (complete or stopped where the
    record stops), whether the record went to the end of the deal,
    ``warnings`` about record content that was not used, the ``actions``
    applied in order (with their events; a format 1 record's too: its
    pattern where the dealer chooses it, bids, declarations and cards) and
    ``setup_events``, the events of dealing a deck before the first action
    (the first distribution, where the rules fix the pattern)."""

    state: State
    complete: bool
    warnings: tuple[str, ...] = ()
    actions: tuple[RecordedAction, ...] = ()
    setup_events: tuple[Event, ...] = ()


def record_format(record: Mapping[str, Any], default: int | None = None) -> int:
    """The format of ``record``: its ``format``, else ``default`` (a match's
    format for its deals), else 2 when it has ``actions`` and 1 otherwise.
    Raises :class:`RecordError` for a format this module does not read."""
    value = record.get("format")
    if value is None:
        if default is not None:
            return default
        return 2 if "actions" in record else 1
    if type(value) is not int or value not in FORMATS:
        raise RecordError(f"unknown record format {value!r}: this reads formats 1 and 2")
    return value


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


def _seats(rules: Rules) -> tuple[Seat, ...]:
    return seats_of(rules.players)


class _Replay:
    """A replay under way: the state, the actions applied and the events of
    the set-up."""

    def __init__(self, state: State, setup_events: Sequence[Event] = ()) -> None:
        self.state = state
        self.actions: list[RecordedAction] = []
        self.setup_events = tuple(setup_events)

    def apply(self, action: Action) -> RecordedAction:
        """Apply the current player's legal ``action`` and keep it (checked
        once: an action :meth:`State.parse_action` has just read is not
        checked again, :meth:`State.apply_parsed`)."""
        seat = self.state.current
        assert seat is not None
        done = RecordedAction(seat, action, tuple(self.state.apply_parsed(action, seat)))
        self.actions.append(done)
        return done

    def result(self, warnings: Sequence[str]) -> ReplayedDeal:
        state = self.state
        return ReplayedDeal(
            state,
            state.phase == Phase.DONE,
            tuple(warnings),
            tuple(self.actions),
            self.setup_events,
        )


def _setup(record: Mapping[str, Any], rules: Rules) -> _Replay:
    """A format 1 record's deal, dealt (the dealer's pattern applied as an
    action where he chooses it)."""
    seats = _seats(rules)
    dealer = _seat(record.get("dealer"), "dealer", seats)
    has_deck, has_hands = "deck" in record, "hands" in record
    if has_deck == has_hands:
        raise RecordError("a deal record needs either 'deck' or 'hands' (not both)")
    try:
        if has_deck:
            deck = _cards(record["deck"], "deck")
            pattern = record.get("pattern")
            if pattern is not None and pattern not in PATTERNS:
                raise RecordError(f"pattern must be '3-2', '2-3' or '3-3-2', not {pattern!r}")
            if pattern is None:
                pattern = rules.patterns[0]
            if len(rules.patterns) > 1:  # the dealer chooses: an action
                replay = _Replay(State.from_deck(rules, dealer, deck))
                replay.apply(ChoosePattern(pattern))
            else:
                events: list[Event] = []
                replay = _Replay(
                    State.from_deck(rules, dealer, deck, pattern, events=events), events
                )
            state = replay.state
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
            return replay
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
        return _Replay(State.from_hands(rules, dealer, hands, turned_card))
    except DealError as exc:
        raise RecordError(str(exc)) from None


def _string_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{what} must be a list of strings")
    return list(value)


def replay_deal(record: Mapping[str, Any], rules: Rules | None = None) -> ReplayedDeal:
    """Replay one deal record of format 1 or 2 (``rules`` overrides the
    record's own).

    Raises :class:`RecordError` or :class:`IllegalRecordError`.
    """
    if not isinstance(record, Mapping):
        raise RecordError("a deal record must be a JSON object")
    return _replay_deal(record, rules, None)


def _replay_deal(
    record: Mapping[str, Any], rules: Rules | None, default_format: int | None
) -> ReplayedDeal:
    version = record_format(record, default_format)
    if rules is None:
        if "rules" not in record:
            raise RecordError("the record has no 'rules'")
        rules = _rules(record["rules"])
    if version == 2:
        return _replay_2(record, rules)
    return _replay_1(record, rules)


# ------------------------------------------------------------------- format 2


def _setup_2(record: Mapping[str, Any], rules: Rules) -> _Replay:
    dealer = _seat(record.get("dealer"), "dealer", _seats(rules))
    has_deck, has_pack = "deck" in record, "pack" in record
    if has_deck == has_pack:
        raise RecordError("a format 2 deal record needs either 'deck' or 'pack' (not both)")
    try:
        if has_pack:
            return _Replay(State.new(rules, dealer, _cards(record["pack"], "pack")))
        events: list[Event] = []
        state = State.from_deck(rules, dealer, _cards(record["deck"], "deck"), events=events)
        return _Replay(state, events)
    except DealError as exc:
        raise RecordError(str(exc)) from None


def _check_events(written: object, events: Sequence[Event], what: str) -> None:
    """Refuse ``written`` events that are not the replay's ``events``."""
    if not isinstance(written, list):
        raise RecordError(f"the events of {what} must be a list of events")
    replayed = [e.to_json() for e in events]
    if written != replayed:
        first = next(
            (i for i, (w, r) in enumerate(zip(written, replayed, strict=False)) if w != r),
            min(len(written), len(replayed)),
        )
        raise RecordError(
            f"the events of {what} are not the replay's: event {first + 1} is "
            f"{written[first] if first < len(written) else None!r}, the replay's "
            f"{replayed[first] if first < len(replayed) else None!r}"
        )


def _kind(state: State, written: str) -> str:
    """What a refused action's text is, in an error: ``declaration``,
    ``bid`` (in the auction), ``card`` (in the play) or ``action``."""
    head = written.split(" ", 1)[0].lower()
    if head == "declare":
        return "declaration"
    if head in ("cut", "deal"):
        return "action"
    return {Phase.BIDDING: "bid", Phase.PLAYING: "card"}.get(state.phase, "action")


def _replay_2(record: Mapping[str, Any], rules: Rules) -> ReplayedDeal:
    old = sorted(k for k in record if k in DEAL_KEYS - DEAL_KEYS_2)
    if old:
        raise RecordError(
            f"{', '.join(repr(k) for k in old)}: format 1 keys in a format 2 record, "
            "which lists its 'actions'"
        )
    replay = _setup_2(record, rules)
    state = replay.state
    items = record.get("actions", [])
    if not isinstance(items, list):
        raise RecordError('actions must be a list of {"seat": "N", "action": "JS"} objects')
    warnings = [f"unknown key {key!r} not used" for key in record if key not in DEAL_KEYS_2]
    if "events" in record:
        _check_events(record["events"], replay.setup_events, "the deal")
    for i, item in enumerate(items, start=1):
        if not isinstance(item, Mapping) or not isinstance(item.get("action"), str):
            raise RecordError(f'action {i} must be an object {{"seat": "N", "action": "JS"}}')
        text: str = item["action"]
        warnings += [
            f"action {i}: unknown key {k!r} not used" for k in item if k not in ACTION_KEYS
        ]
        if state.phase == Phase.DONE:
            raise RecordError(f"action {i} ({text!r}) comes after the deal ended")
        seat = _seat(item.get("seat"), f"the seat of action {i}", state.seats)
        written = " ".join(text.split())
        kind = _kind(state, written)
        try:
            action = state.parse_action(text, seat)
        except InvalidActionError as exc:
            raise RecordError(f"action {i}: {exc}") from None
        except AmbiguousActionError as exc:
            raise IllegalRecordError(
                f"action {i}: {seat.letter} must say whether he says belote: "
                f"{' or '.join(a.text for a in exc.candidates)}, not {written!r}",
                {
                    "error": "belote choice needed",
                    "action": i,
                    "seat": seat.letter,
                    "text": written,
                    "legal": [a.text for a in exc.candidates],
                },
            ) from None
        except IllegalActionError as exc:
            reason = None if exc.reason is None else exc.reason.code
            turn = state.current
            where = f" at trick {exc.trick}" if exc.trick else ""
            if seat != turn:
                message = (
                    f"action {i}: {written!r} by {seat.letter}, but it is "
                    f"{'nobody' if turn is None else turn.letter}'s turn"
                )
            else:
                message = f"action {i}: illegal {kind} {written!r} by {seat.letter}{where}"
                if reason is not None:
                    message += f" ({reason.replace('_', ' ')})"
            raise IllegalRecordError(
                message,
                {
                    "error": f"illegal {kind}",
                    "action": i,
                    "seat": seat.letter,
                    "text": written,
                    "reason": reason,
                    "trick": exc.trick,
                    "legal": exc.legal if seat == turn else [],
                },
            ) from None
        done = replay.apply(action)
        if "events" in item:
            _check_events(item["events"], done.events, f"action {i}")
    return replay.result(warnings)


# ------------------------------------------------------------------- format 1


def _replay_1(record: Mapping[str, Any], rules: Rules) -> ReplayedDeal:
    replay = _setup(record, rules)
    state = replay.state
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

    for i, text in enumerate(bids):
        if state.phase != Phase.BIDDING:
            raise RecordError(f"bid {i + 1} ({text!r}) comes after the auction ended")
        try:
            bid = parse_bid(text)
        except ValueError as exc:
            raise RecordError(f"bid {i + 1}: {exc}") from None
        seat = state.current
        try:
            replay.apply(bid)
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
        return replay.result(warnings)
    if state.phase == Phase.DONE and plays:
        raise RecordError("the record plays cards in a deal that was not played")
    _check_declarations(state, declarations)
    for card in plays:
        _declare_if_needed(replay, declarations)
        if state.phase != Phase.PLAYING:
            raise RecordError("the record plays more cards than the deal has")
        seat = state.current
        assert seat is not None
        play = _legal_play(state, card, _belote_flag(state, seat, card, belote_said))
        try:
            replay.apply(play)
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
    _declare_if_needed(replay, declarations)
    return replay.result(warnings)


def _legal_play(state: State, card: Card, belote: bool | None) -> Play:
    """The card as :meth:`State.legal_actions` writes it: with the belote
    choice where the player has one (said unless the record says not, as
    format 1 reads), without it elsewhere (the rules decide)."""
    if state.is_legal(Play(card)):
        return Play(card)
    candidate = Play(card, belote is not False)
    return candidate if state.is_legal(candidate) else Play(card, belote)


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


def _declare_if_needed(replay: _Replay, texts: dict[Seat, list[str]] | None) -> None:
    """Make the declaration decisions due now, as the record says."""
    state = replay.state
    while state.current is not None and state.current in state.to_declare[:1]:
        seat = state.current
        found = state.found[seat]
        if texts is None:
            chosen = found
        else:
            picked = _match(state, seat, texts.get(seat, []))
            chosen = tuple(d for d in found if d in picked)
        replay.apply(Declare(chosen))


# ------------------------------------------------------------------ summaries


def _per_side(state: State, values: Sequence[Any]) -> dict[str, Any]:
    return {state.side_name(i): v for i, v in enumerate(values)}


def deal_summary(state: State, score: Sequence[int] | None = None) -> dict[str, Any]:
    """The JSON summary of a deal: trump, taker, contract, tricks, card points,
    dix de der, declarations, belote, capot, result, held_over and score, and
    how the score adds up (``breakdown``: :meth:`ScoreBreakdown.to_json
    <rebelote.scoring.ScoreBreakdown.to_json>` of
    :func:`~rebelote.scoring.explain_deal`; ``None`` before the end and for
    a deal not played).

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
        "breakdown": None,
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
        breakdown = explain_deal(state.rules, result)
        if breakdown is not None:
            out["breakdown"] = breakdown.to_json(state.side_names)
    return out


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a deal or match record (format 1 or 2) and return its JSON
    summary.

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
    return _replay_match(record)[1]


def _replay_match(
    record: Mapping[str, Any],
) -> tuple[list[ReplayedDeal], dict[str, Any], list[Event]]:
    """A match record's deals replayed, its summary (see :func:`replay`) and
    the match's own events (:class:`~rebelote.events.MatchEnded` once it is
    won), which the record's ``events``, when it has them, must be."""
    match_format = record_format(record, 1) if "format" in record else None
    if "rules" not in record:
        raise RecordError("the match record has no 'rules'")
    rules = _rules(record["rules"])
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise RecordError("deals must be a non-empty list of deal records")
    match = Match(rules, Seat.N if rules.players == 4 else Seat.W)
    match_events: list[Event] = []
    summaries = []
    replays: list[ReplayedDeal] = []
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
            replayed = _replay_deal(deal, rules, match_format)
        except RecordError as exc:
            exc.payload["deal"] = index
            raise
        replays.append(replayed)
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
        entry = match.add(state.result, match_events)
        # The texts agree on the deal passing on after a played deal; after a
        # void deal they differ (Rules.all_pass), so any dealer is read then.
        played = state.result.result not in ("passed", "cancelled")
        expected_dealer = match.dealer if played else None
        summary = _with_warnings(deal_summary(state, entry.score), warnings)
        summary["released"] = entry.released
        summary["totals"] = _per_side(state, entry.totals)
        summaries.append(summary)
    if "events" in record:
        _check_events(record["events"], match_events, "the match")
    names = ("NS", "EW") if rules.players == 4 else tuple(s.letter for s in seats_of(rules.players))
    return (
        replays,
        {
            "rules": rules.to_record(),
            "deals": summaries,
            "totals": {names[i]: t for i, t in enumerate(match.totals)},
            "held_over": match.held_over,
            "winner": None if match.winner is None else names[match.winner],
        },
        match_events,
    )


def _with_warnings(summary: dict[str, Any], warnings: Sequence[str]) -> dict[str, Any]:
    if warnings:
        summary["warnings"] = list(warnings)
    return summary


# -------------------------------------------------------------------- writing


def new_deal_record(
    rules: Rules,
    dealer: Seat,
    actions: Sequence[RecordedAction] | Sequence[tuple[Seat, str]],
    *,
    deck: Sequence[Card] | None = None,
    pack: Sequence[Card] | None = None,
    events: Sequence[Event] | None = None,
    fair: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The format 2 record of a deal dealt by ``dealer`` from ``deck`` (after
    the cut) or ``pack`` (before it: the first action is then the cut), of
    its ``actions`` (:class:`RecordedAction`, whose events are written when
    ``events`` is given, or ``(seat, text)`` pairs, the text written as it
    is), when given the ``events`` of dealing the deck, and ``fair`` (the
    deal's commitment, seed and salt, written as given).  Nothing is
    checked here: :func:`replay_deal` checks the record."""
    if (deck is None) == (pack is None):
        raise ValueError("give either a deck or a pack")
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": rules.to_record(),
        "dealer": dealer.letter,
    }
    if deck is not None:
        record["deck"] = [card_name(c) for c in deck]
    else:
        assert pack is not None
        record["pack"] = [card_name(c) for c in pack]
    items: list[dict[str, Any]] = []
    for item in actions:
        if isinstance(item, RecordedAction):
            items.append(item.to_json(events is not None))
        else:
            items.append({"seat": item[0].letter, "action": item[1]})
    record["actions"] = items
    if events is not None:
        record["events"] = [e.to_json() for e in events]
    if fair is not None:
        record["fair"] = dict(fair)
    return record


def _record_2(replayed: ReplayedDeal, events: bool) -> dict[str, Any]:
    """The format 2 record of a replayed deal (its ``pack`` when its first
    action is the cut, or nothing was cut yet; else its deck)."""
    state, actions = replayed.state, replayed.actions
    if not state.pack:
        raise RecordError("a deal given by 'hands' has no deck: it can be written in format 1 only")
    from_pack = not state.deck or (bool(actions) and isinstance(actions[0].action, Cut))
    return new_deal_record(
        state.rules,
        state.dealer,
        actions,
        deck=None if from_pack else state.deck,
        pack=state.pack if from_pack else None,
        events=replayed.setup_events if events else None,
    )


def state_to_record(state: State, *, events: bool = False, format: int = FORMAT) -> dict[str, Any]:
    """The format 2 record of a deal played from :meth:`State.new` or
    :meth:`State.from_deck`, with its deck (after the cut) so that it
    replays exactly, and its actions from the dealer's choice of pattern
    (where he has one) on; with ``events``, each action's events and the
    deal's.  ``format=1``: the format 1 record instead (its deck and
    pattern, bids, declarations, belote flags and cards; no events).
    Raises ``ValueError`` for a deal given by its hands (no deck) or an
    unknown format."""
    if not state.deck:
        raise ValueError("only a deal dealt from a pack can be written with its deck")
    if format not in FORMATS:
        raise ValueError(f"unknown record format {format!r}: this writes formats 1 and 2")
    record = _record_1(state)
    if format == 1:
        return record
    return _record_2(_replay_1(record, state.rules), events)


def convert(record: Mapping[str, Any], *, events: bool = False) -> dict[str, Any]:
    """A deal or match record of format 1 or 2, replayed and written in
    format 2 (with each action's events when ``events``, and a match's own,
    :class:`~rebelote.events.MatchEnded` once won; a match's deals without
    their ``rules`` and ``format``).  Raises :class:`RecordError`
    as :func:`replay` does, and for a deal given by ``hands`` (format 2
    needs its deck)."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    if "deals" not in record:
        return _record_2(replay_deal(record), events)
    replays, summary, match_events = _replay_match(record)
    deals = []
    for index, replayed in enumerate(replays, start=1):
        try:
            deal = _record_2(replayed, events)
        except RecordError as exc:
            exc.payload["deal"] = index
            raise
        del deal["format"], deal["rules"]
        deals.append(deal)
    out: dict[str, Any] = {"format": FORMAT, "rules": summary["rules"], "deals": deals}
    if events:
        out["events"] = [e.to_json() for e in match_events]
    return out


def _record_1(state: State) -> dict[str, Any]:
    """The format 1 record of a deal dealt from a pack."""
    if not state.deck:
        raise ValueError("only a deal dealt from a pack can be written with its deck")
    record: dict[str, Any] = {
        "format": 1,
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
