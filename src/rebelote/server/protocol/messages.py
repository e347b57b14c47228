"""The wire protocol: every message between a browser and the server, typed.

Every message is one JSON object, an *envelope* (as lila-ws does it)::

    {"t": type, "d": data, "v": version}

``v`` numbers the events of one seat's stream (1, 2, 3, ... without gaps;
each seat has its own stream, redacted for it, so the numbers differ between
seats); a ``snapshot`` carries the version of the last event it includes;
``error`` and ``pong`` carry ``v: null``.

Client -> server (``t``):

- ``hello`` ``{"token": str, "last_v": int | null}``: authenticate (when the
  token is not in the WebSocket URL) and/or ask to resume after ``last_v``.
- ``act`` ``{"action": str, "belote": bool | null, "seat": "S" | null}``: an
  action in record notation (``pass``, ``take``, ``H``, ``TA``, ``80H``,
  ``coinche``, ``JS``, ``declare tierce-KH``, ``declare none``, ``cut 12``,
  ``deal 3-2``) or a table action (``next``: agree to the next deal;
  ``rematch``: agree to a rematch; each starts once every human agreed).
  ``belote`` says whether a king or queen of trump is played with "Belote"
  when the rules make it a choice (seed 001).  ``seat``, if given, must be the
  token's own seat.
- ``sync``: ask for a fresh snapshot.  ``ping``: the server answers ``pong``.
- ``chat`` ``{"text": str}``: say something to the table (at most
  :data:`CHAT_MAX_CHARS` characters; rate-limited).
- ``mute`` ``{"seat": "N", "muted": bool}``: stop (or resume) showing that
  seat's chat to this player.
- ``back``: "I am here": the computer player standing in for this seat
  stops (so does any action of the seat).
- ``leave``: leave the table (before the start: free the seat; during a
  match: a computer player takes the seat for good and the match is rated
  for nobody; once the match is over: no rematch, the table closes).
- ``hint`` ``{"id": str | null}``: the expert's value of each legal action
  now (:class:`HintData`, to this socket alone); ``takeback`` ``{"id"}``:
  take back the seat's last card or bid (a ``takeback`` event).  Only at a
  table with no rating at stake (``rated_table`` otherwise).
- ``options`` ``{"speed": "fast"}``: the computer players' pace from now
  on, at a table where no other person plays (``options_others``
  otherwise; an ``options`` event).

Server -> client: ``snapshot`` (:class:`Snapshot`), ``event`` (one of the
:data:`EventData` models, told apart by ``kind``), ``error``
(:class:`ErrorData`, to the client that caused it alone; nothing changed),
``pong``, and outside the numbered stream (``v`` null): ``room``
(:class:`RoomData`: seats, host, who is connected, countdowns), ``chat``
(:class:`ChatData`) and ``chat_history`` (:class:`ChatHistory`), and to
one seat's sockets alone ``notice`` (:class:`NoticeData`: e.g. its clock
ran out).

The lobby socket (``/ws/lobby``, :mod:`rebelote.server.tables.lobby`) has its own
messages: ``watch_room`` (:class:`WatchRoomMessage`), ``unwatch_room`` and
``ping`` from the client; ``lobby`` (:class:`LobbyList`), ``table``
(:class:`RoomData`), ``table_gone`` (:class:`TableGone`), ``waiting``
(:class:`WaitingRoom`), ``seated`` (:class:`SeatedRoom`), ``error`` and
``pong`` from the server.

:func:`parse_client_message` (and :func:`parse_lobby_message`) validates
everything at the edge and raises :class:`ProtocolError` with a stable
``code``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from rebelote.server.people.names import plain_text
from rebelote.server.protocol.depth import json_too_deep

__all__ = [
    "BOT_LEVELS",
    "CHAT_MAX_CHARS",
    "CLIENT_TYPES",
    "LOBBY_CLIENT_TYPES",
    "MAX_MESSAGE_BYTES",
    "MAX_MESSAGE_DEPTH",
    "SPEED_DELAYS",
    "AckData",
    "ActData",
    "ActMessage",
    "AllPassedEvent",
    "BackMessage",
    "BeloteEvent",
    "BidEvent",
    "BotLevel",
    "CancelledEvent",
    "CardEvent",
    "ChatData",
    "ChatHistory",
    "ChatMessage",
    "ChatText",
    "ClientMessage",
    "CompletedEvent",
    "ContractEvent",
    "Countdown",
    "CreateTable",
    "CreatedTable",
    "CurrentTable",
    "CutEvent",
    "DealEndEvent",
    "DealStartEvent",
    "DealtEvent",
    "DeclaredEvent",
    "DeclinedEvent",
    "ErrorData",
    "EventData",
    "FairData",
    "HelloData",
    "HelloMessage",
    "HelpEvent",
    "HelpInfo",
    "HelpRequest",
    "HintData",
    "HintMessage",
    "HintValue",
    "IllegalCards",
    "IllegalityData",
    "LeaveMessage",
    "LobbyClientMessage",
    "LobbyList",
    "MatchEndEvent",
    "MatchInfo",
    "MatchStartEvent",
    "MuteData",
    "MuteMessage",
    "MutedData",
    "NoticeCode",
    "NoticeData",
    "OptionsEvent",
    "OptionsMessage",
    "OptionsRequest",
    "PatternEvent",
    "PingMessage",
    "PresetInfo",
    "ProtocolError",
    "RoomData",
    "RoomSeat",
    "RuleHelp",
    "RulesInfo",
    "SeatEvent",
    "SeatInfo",
    "SeatLetter",
    "SeatedRoom",
    "SheetLine",
    "ShownEvent",
    "Snapshot",
    "SnapshotTable",
    "Speed",
    "SyncMessage",
    "TableGone",
    "TableOptions",
    "TablePublic",
    "TakebackEvent",
    "TakebackMessage",
    "TrickData",
    "TrickEvent",
    "TurnData",
    "TurnEvent",
    "TurnedEvent",
    "UnwatchRoomMessage",
    "Waiting",
    "WaitingRoom",
    "WatchRoomData",
    "WatchRoomMessage",
    "WireData",
    "envelope",
    "parse_client_message",
    "parse_lobby_message",
    "protocol_schema",
]

MAX_MESSAGE_BYTES = 4096
"""The largest client message the server reads (bytes of UTF-8 JSON)."""

MAX_MESSAGE_DEPTH = 8
"""The deepest nesting of arrays and objects in a client message (every
message of the protocol nests 2 deep at most)."""

CHAT_MAX_CHARS = 300
"""The longest chat line, in characters."""

SeatLetter = Annotated[str, StringConstraints(pattern=r"^[NWSE]$")]
"""A seat as one letter ``N W S E`` (the engine's :class:`~rebelote.seats.Seat` names)."""

SuitLetter = Annotated[str, StringConstraints(pattern=r"^[SHDC]$")]
"""A suit as one letter ``S H D C`` (the engine's :class:`~rebelote.cards.Suit` letters)."""

BotLevel = Literal["random", "beginner", "intermediate", "expert"]
"""The computer players' levels a table may seat: every level of
:func:`rebelote.bots.make_bot` but ``expert-bidder``, a variant for measuring
the expert's bidding alone (a test keeps the two lists together)."""

BOT_LEVELS: tuple[str, ...] = ("random", "beginner", "intermediate", "expert")
"""The values of :data:`BotLevel`, weakest first."""

Waiting = Literal["action", "next", "rematch"]
"""What the table waits for (:class:`TurnData`)."""

Speed = Literal["slow", "normal", "fast", "instant"]
"""How fast the computer players act."""

SPEED_DELAYS: dict[str, float] = {"slow": 1.6, "normal": 0.9, "fast": 0.4, "instant": 0.0}
"""Seconds the server waits before each computer action, by :data:`Speed`."""


class ProtocolError(Exception):
    """A message or an action refused.  ``code`` is stable and machine-readable
    (see :class:`ErrorData`); ``message`` says what is wrong in English;
    ``extra`` holds JSON-ready details (e.g. ``legal``)."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def data(self) -> ErrorData:
        """The ``d`` of the ``error`` message."""
        return ErrorData(code=self.code, message=self.message, **self.extra)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _without_false(data: Any, key: str) -> Any:
    """``data`` (a model's dump) without ``key`` where it is false: a field
    shown only when it says something, so that the older shapes stay."""
    if isinstance(data, dict) and data.get(key) is False:
        data.pop(key)
    return data


# ------------------------------------------------------------------ client -> server


class HelloData(_Strict):
    """``hello``: the seat's token (when not in the URL) and the version of
    the last event the client holds (``null``/absent: send a snapshot)."""

    token: str = Field(min_length=1, max_length=128)
    last_v: StrictInt | None = Field(default=None, ge=0)


class ActData(_Strict):
    """``act``: one action in record notation, at most 64 characters."""

    action: str = Field(min_length=1, max_length=64)
    belote: StrictBool | None = None
    seat: SeatLetter | None = None
    id: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
    """The client's id of this action: sent again (a retry), it is
    acknowledged without being applied twice."""


class _Empty(_Strict):
    pass


class ChatText(_Strict):
    """``chat``: the line to say (1 to :data:`CHAT_MAX_CHARS` characters)."""

    text: str = Field(min_length=1, max_length=CHAT_MAX_CHARS)


class MuteData(_Strict):
    """``mute``: the ``seat`` whose chat to hide (``muted`` false: show it
    again)."""

    seat: SeatLetter
    muted: StrictBool = True


class ChatMessage(_Strict):
    """``{"t": "chat", "d": {"text": ...}}``."""

    t: Literal["chat"]
    d: ChatText
    v: StrictInt | None = None


class MuteMessage(_Strict):
    """``{"t": "mute", "d": {"seat": "N", "muted": true}}``."""

    t: Literal["mute"]
    d: MuteData
    v: StrictInt | None = None


class BackMessage(_Strict):
    """``{"t": "back"}``: the player is here again."""

    t: Literal["back"]
    d: _Empty | None = None
    v: StrictInt | None = None


class LeaveMessage(_Strict):
    """``{"t": "leave"}``: leave the table."""

    t: Literal["leave"]
    d: _Empty | None = None
    v: StrictInt | None = None


class HelloMessage(_Strict):
    """``{"t": "hello", "d": HelloData}``."""

    t: Literal["hello"]
    d: HelloData
    v: StrictInt | None = None


class ActMessage(_Strict):
    """``{"t": "act", "d": ActData}``."""

    t: Literal["act"]
    d: ActData
    v: StrictInt | None = None


class PingMessage(_Strict):
    """``{"t": "ping"}`` (``d`` empty or absent)."""

    t: Literal["ping"]
    d: _Empty | None = None
    v: StrictInt | None = None


class SyncMessage(_Strict):
    """``{"t": "sync"}``: ask for a snapshot (``d`` empty or absent)."""

    t: Literal["sync"]
    d: _Empty | None = None
    v: StrictInt | None = None


class HelpRequest(_Strict):
    """``hint`` / ``takeback``: the client's ``id`` of the request (a
    takeback sent again with the same id is not applied twice)."""

    id: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


class HintMessage(_Strict):
    """``{"t": "hint", "d": {"id": "h1"}}``: the expert's values of the
    legal actions now (the seat's decision; no rating at stake)."""

    t: Literal["hint"]
    d: HelpRequest | None = None
    v: StrictInt | None = None


class TakebackMessage(_Strict):
    """``{"t": "takeback", "d": {"id": "t1"}}``: take back the seat's last
    card or bid of the deal (no rating at stake, no other human seated)."""

    t: Literal["takeback"]
    d: HelpRequest | None = None
    v: StrictInt | None = None


class OptionsRequest(_Strict):
    """``options``: the table options a player may change during a match
    (at a table where no other person plays): the computer players'
    ``speed``."""

    speed: Speed


class OptionsMessage(_Strict):
    """``{"t": "options", "d": {"speed": "fast"}}``: change the computer
    players' pace of this table from now on (a log entry: a restart keeps
    it).  Refused ``options_others`` where other people play."""

    t: Literal["options"]
    d: OptionsRequest
    v: StrictInt | None = None


AnyClientMessage: TypeAlias = (
    HelloMessage
    | ActMessage
    | PingMessage
    | SyncMessage
    | ChatMessage
    | MuteMessage
    | BackMessage
    | LeaveMessage
    | HintMessage
    | TakebackMessage
    | OptionsMessage
)

ClientMessage: TypeAlias = Annotated[AnyClientMessage, Field(discriminator="t")]
"""Any message a client may send."""

CLIENT_TYPES: tuple[str, ...] = (
    "hello",
    "act",
    "ping",
    "sync",
    "chat",
    "mute",
    "back",
    "leave",
    "hint",
    "takeback",
    "options",
)
"""The values of ``t`` a client may send."""

_CLIENT_ADAPTER: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str | bytes) -> AnyClientMessage:
    """Read one client message.

    Raises :class:`ProtocolError` with code ``too_large`` (over
    :data:`MAX_MESSAGE_BYTES`), ``bad_json`` (not JSON, not an object, or
    nested deeper than :data:`MAX_MESSAGE_DEPTH`),
    ``unknown_type`` (``t`` missing or not one of :data:`CLIENT_TYPES`) or
    ``bad_message`` (fields missing, of the wrong type, or extra).
    """
    value = _json_object(raw)
    kind = value.get("t")
    if kind not in CLIENT_TYPES:
        known = ", ".join(CLIENT_TYPES)
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}: use one of {known}")
    try:
        return _CLIENT_ADAPTER.validate_python(value)
    except ValidationError as exc:
        raise ProtocolError("bad_message", f"bad {kind} message: {_problems(exc)}") from None


def _json_object(raw: str | bytes) -> dict[str, Any]:
    """The JSON object of a client message (``too_large``, ``bad_json``)."""
    size = len(raw.encode("utf-8", "replace")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}"
        )
    if json_too_deep(raw, MAX_MESSAGE_DEPTH):
        raise ProtocolError("bad_json", f"nested over {MAX_MESSAGE_DEPTH} levels")
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object {t, d, v}")
    return value


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}" for e in exc.errors()
    )


# ------------------------------------------------------------------ table set-up (REST)


class TableOptions(_Strict):
    """The options of a table (not of the rules).

    - ``player_cuts``: the player cuts the pack himself when it is his turn to
      cut (seed 000: "Le joueur a la possibilité de couper"); otherwise the
      server cuts for him.
    - ``player_chooses_pattern``: when the player deals, he chooses 3-2 or 2-3
      (seed 000, seed 001); otherwise the first pattern the rules allow.
    - ``auto_play_forced``: the server plays the player's only legal card.
    - ``speed``: the computer players' pace (:data:`SPEED_DELAYS`).
    - ``auto_next``: start the next deal without waiting for ``next``.
    - ``move_clock``: seconds a player has for each decision (null: no
      clock, the default of friendly tables); past it, a computer player of
      intermediate level stands in until the player is back.
    - ``hold``: seconds a disconnected player's seat is held (the others
      see a countdown) before a computer player stands in.
    - ``leave_after``: seconds away (disconnected, or stood in for) after
      which the player has left the match (seed 003: nobody gains
      anything from it, nobody's rating changes).
    - ``bots_rated``: a ranked table rates a match where an outside
      program (the bot API) held a seat; by default such a match is
      unrated (``unrated_reason`` ``bots``).
    - ``deals``: the match stops after this many deals, whatever the
      scores (the daily deal's set, ``docs/daily.md``); null: a match to
      the target.
    - ``help``: hints and takebacks may be asked (never at a ranked
      table; off at the daily deal's tables).
    """

    player_cuts: StrictBool = False
    player_chooses_pattern: StrictBool = False
    auto_play_forced: StrictBool = True
    speed: Speed = "normal"
    auto_next: StrictBool = False
    move_clock: StrictFloat | None = Field(default=None, ge=0.5, le=600)
    hold: StrictFloat = Field(default=30, ge=0, le=600)
    leave_after: StrictFloat = Field(default=600, ge=1, le=3600)
    bots_rated: StrictBool = False
    deals: StrictInt | None = Field(default=None, ge=1, le=100)
    help: StrictBool = True


class CreateTable(_Strict):
    """``POST /api/tables``: a new table with the player at South.

    ``preset``: a rules preset (``GET /api/presets``); ``target``: the match's
    target score (default: the preset's); ``name``: the player's name;
    ``levels``: the computer level of each other seat (default
    ``beginner``); ``options``: :class:`TableOptions`.
    """

    preset: str = Field(default="ffb", max_length=40)
    target: StrictInt | None = Field(default=None, ge=1, le=100_000)
    name: Annotated[str, AfterValidator(plain_text)] = Field(
        default="You", min_length=1, max_length=40
    )
    levels: dict[SeatLetter, BotLevel] = Field(default_factory=dict)
    options: TableOptions = Field(default_factory=TableOptions)


class CreatedTable(_Strict):
    """The answer to ``POST /api/tables``: the table, the player's seat and
    his secret ``token`` (give it to the WebSocket: ``ws_url``)."""

    table_id: str
    seat: SeatLetter
    token: str
    ws_url: str


class SeatInfo(_Strict):
    """Who sits at a seat: a ``human`` (``level`` null), a ``bot``, or nobody
    yet (``open``: a table waiting for its players).  ``guest``: the human
    plays as a guest (no account; the name is not reserved), so that a page
    can mark him.  ``left``: a computer player (``kind`` ``bot``, ``level``)
    plays for good for ``name``, the player who left the match (a page says
    so in its language, e.g. "Bobby (computer)").  ``outside_bot``: an
    outside program plays the seat for its account (the bot API,
    ``docs/bot-api.md``; ``kind`` ``human``): present, and true, only
    then."""

    seat: SeatLetter
    kind: Literal["human", "bot", "open"]
    name: str
    level: str | None
    guest: bool = False
    left: bool = False
    outside_bot: bool = False

    @model_serializer(mode="wrap")
    def _outside_bot_when_true(self, handler: Any) -> Any:
        return _without_false(handler(self), "outside_bot")


class RulesInfo(_Strict):
    """A table's rules: the ``preset`` they come from (its key, as records
    write it: ``seed001``), its ``title`` (the name a player understands:
    :func:`rebelote.rules.preset_name`, ``belote-said``; the key itself
    where it is clear already, ``ffb``), its one-line ``description``,
    ``players`` (3 or 4), the match ``target`` and every option
    (:meth:`rebelote.rules.Rules.options`)."""

    preset: str
    description: str
    players: int
    target: int
    options: dict[str, Any]
    title: str = ""


class RuleHelp(_Strict):
    """One line of a preset's help page: the ``option``, its ``value`` and a
    sentence saying what it means."""

    option: str
    value: Any
    text: str


class PresetInfo(_Strict):
    """One entry of ``GET /api/presets``: the preset's ``name`` (its key,
    which ``POST /api/tables`` takes) and its ``title``, the name a player
    understands (:func:`rebelote.rules.preset_name`: ``belote-said`` for
    ``seed001``, ``ffb`` for ``ffb``), which a page words in its language."""

    name: str
    title: str
    description: str
    players: int
    target: int
    options: dict[str, Any]
    help: list[RuleHelp]


class SheetLine(_Strict):
    """One deal of the score sheet: its number in the match, the dealer, the
    taker and contract (null when all passed), the ``result`` (``made``,
    ``capot``, ``dedans``, ``litige``, ``passed``, ``cancelled``), what it
    added to each side (``score``, litige points ``released`` included), the
    points ``held_over`` (litige) and the ``totals`` after it.  Sides are
    ``NS``/``EW``, or the seats ``W``/``S``/``E`` with three players."""

    deal: int
    dealer: SeatLetter
    taker: SeatLetter | None
    contract: str | None
    result: str
    score: dict[str, int]
    released: int
    held_over: int
    totals: dict[str, int]


class MatchInfo(_Strict):
    """The public state of the match: its ``number`` at this table (a rematch
    adds one), ``target``, the ``sides``, their ``totals``, points
    ``held_over``, the score ``sheet``, the current ``deal`` number (1-based),
    its ``dealer`` and the ``winner`` side once over."""

    number: int
    target: int
    sides: list[str]
    totals: dict[str, int]
    held_over: int
    sheet: list[SheetLine]
    deal: int
    dealer: SeatLetter
    winner: str | None


class TablePublic(_Strict):
    """``GET /api/tables/{id}``: what anyone may know of a table (``match``
    null while the table waits for its players: status ``open``; ``status``
    as the lobby's room says it, ``closed`` when everyone left)."""

    id: str
    status: Literal["open", "playing", "finished", "closed"]
    rules: RulesInfo
    options: TableOptions
    seats: list[SeatInfo]
    match: MatchInfo | None


class CurrentTable(_Strict):
    """``GET /api/me/current``: the unfinished table of a token (``current``
    null when there is none)."""

    current: CreatedTable | None


# ------------------------------------------------------------------ server -> client


class IllegalityData(_Strict):
    """Why an action is not legal now, as the rules core says it
    (:class:`rebelote.legality.Illegality`): ``reason``, a stable code of
    :class:`rebelote.legality.IllegalReason` (``must_follow_suit``,
    ``not_your_turn``, ``bid_too_low`` ...); ``option``, the
    :class:`~rebelote.rules.Rules` field whose value makes it illegal (null
    where every rule text agrees); ``source``, the text stating the rule (a
    file under ``docs/rules/``, or ``FFB``); ``suit``, the suit the reason
    is about (``S`` ``H`` ``D`` ``C``: for ``must_follow_suit`` the suit
    led; in round two's reasons, the turned suit where it is excluded),
    null where it names none (:data:`rebelote.legality.SUIT_REASONS`);
    ``house_rule``, whether ``option``'s value at this table differs from
    the FFB's (a page says "this table's rule" then only).  A page words
    the reason from these fields alone."""

    reason: str
    option: str | None
    source: str
    suit: SuitLetter | None = None
    house_rule: bool = False


class IllegalCards(IllegalityData):
    """Cards of the receiving seat's own hand that it may not play now, for
    one reason (:class:`IllegalityData`): ``cards``, their names in the
    order of the hand (:attr:`TurnData.illegal`)."""

    cards: list[str]


class ErrorData(_Strict):
    """``error``: ``code`` and an English ``message``; for an illegal action,
    ``legal`` lists the actions allowed now, and ``why`` says why the action
    is not legal (:class:`IllegalityData`; only with ``illegal`` and
    ``not_your_turn`` refusals of a game action, absent from the message
    otherwise).

    Codes: ``too_large``, ``bad_json``, ``unknown_type``, ``bad_message``,
    ``bad_token``, ``not_authenticated``, ``table_not_found``,
    ``not_your_seat``, ``not_your_turn``, ``bad_action`` (not an action at
    all), ``bid_out_of_range`` (a contract outside 80..160 in tens),
    ``illegal`` (an action, but not allowed now), ``belote_choice_required``,
    ``internal``; network play adds ``spectator`` (a spectator may only
    watch), ``rate_limited`` (chat too fast, or more messages than the
    socket's budget), ``left`` (the token's player
    left the match), ``not_started`` (the table waits for its players),
    ``bad_bot_token`` (a bot token unknown or revoked), ``not_bot_seat``
    (the bot token's account holds a seat here, taken without a bot
    token).
    """

    code: str
    message: str
    legal: list[str] | None = None
    why: IllegalityData | None = None

    @model_serializer(mode="wrap")
    def _without_why(self, handler: Any) -> Any:
        # ``why`` appears only where there is one: the other refusals keep
        # their shape {"code", "message", "legal"}.
        data = handler(self)
        if isinstance(data, dict) and data.get("why") is None:
            data.pop("why", None)
        return data


class TrickData(_Strict):
    """A finished trick: the ``leader``, the ``cards`` in play order with the
    ``seats`` that played them, the ``winner`` and its card ``points``."""

    number: int
    leader: SeatLetter
    cards: list[str]
    seats: list[SeatLetter]
    winner: SeatLetter
    points: int


class FairData(_Strict):
    """A deal's fairness proof (``docs/fair-deals.md``): the ``commitment``
    published before its first card, SHA-256 of its ``seed`` and ``salt``
    (64 hex digits each), which are null until the deal is over (and, for a
    deal thrown in or cancelled before its cards were played, until its
    match is over)."""

    commitment: str
    seed: str | None = None
    salt: str | None = None


class _Event(_Strict):
    match: int
    deal: int


class MatchStartEvent(_Event):
    """A match starts at the table (the first one, or a rematch)."""

    kind: Literal["match_start"] = "match_start"
    target: int
    dealer: SeatLetter


class DealStartEvent(_Event):
    """A deal starts: its ``dealer``, the ``cutter`` (dealer's left) and the
    ``commitment`` to its seed and salt (:class:`FairData`; null at a table
    whose log was written before fair deals)."""

    kind: Literal["deal_start"] = "deal_start"
    dealer: SeatLetter
    cutter: SeatLetter
    commitment: str | None = None


class CutEvent(_Event):
    """``seat`` cut ``packet`` cards (0: declined, seed 000)."""

    kind: Literal["cut"] = "cut"
    seat: SeatLetter
    packet: int


class PatternEvent(_Event):
    """The dealer ``seat`` deals ``3-2`` or ``2-3``."""

    kind: Literal["pattern"] = "pattern"
    seat: SeatLetter
    pattern: str


class DealtEvent(_Event):
    """``seat`` received ``count`` cards; ``cards`` only in that seat's own
    stream (null in the others)."""

    kind: Literal["dealt"] = "dealt"
    seat: SeatLetter
    count: int
    cards: list[str] | None


class TurnedEvent(_Event):
    """The card turned face up."""

    kind: Literal["turned"] = "turned"
    card: str


class BidEvent(_Event):
    """``seat`` bid ``bid`` (record notation) in ``round`` 1, or 2 once
    everyone passed round one (classic and Tout Atout games; always 1 in
    coinche)."""

    kind: Literal["bid"] = "bid"
    seat: SeatLetter
    bid: str
    round: Literal[1, 2] = 1


class AllPassedEvent(_Event):
    """Everyone passed: no contract.  ``then``: what the rule in force
    (``Rules.all_pass``) does next: ``redeal`` (the same dealer deals
    again), ``next_dealer`` (the deal passes to the next dealer) or
    ``dealer_left``."""

    kind: Literal["all_passed"] = "all_passed"
    then: str = "next_dealer"


class ContractEvent(_Event):
    """The auction is over: ``seat`` is the taker; ``strain`` ``S H D C TA SA``;
    ``value`` the coinche contract (250 = capot) or null; ``multiplier`` 1, 2
    (coinche) or 4 (surcoinche); ``text`` e.g. ``80H by W coinche``."""

    kind: Literal["contract"] = "contract"
    seat: SeatLetter
    strain: str
    value: int | None
    multiplier: int
    text: str


class CompletedEvent(_Event):
    """The taker ``seat`` picks up the turned card (classic games); ``cards``
    as in :class:`DealtEvent`."""

    kind: Literal["completed"] = "completed"
    seat: SeatLetter
    count: int
    cards: list[str] | None


class CancelledEvent(_Event):
    """The deal is cancelled by ``seat`` (seed 001: a carré of 7s)."""

    kind: Literal["cancelled"] = "cancelled"
    seat: SeatLetter
    reason: str


class DeclaredEvent(_Event):
    """``seat`` declared.  The other seats and the spectators get the
    nature of each declaration alone (``tierce``, ``quarte``, ``quinte``,
    ``carre``; FFB coinche 2015, 8.2) and ``cards`` empty; the declarer gets
    its texts (``tierce-KH``, ``carre-J``) and their cards.  The winning
    side's cards follow in :class:`ShownEvent`; a losing declaration's
    cards are never sent."""

    kind: Literal["declared"] = "declared"
    seat: SeatLetter
    declarations: list[str]
    cards: list[str]


class ShownEvent(_Event):
    """The declarations are resolved (FFB coinche 2015, 8.3: after the
    first card of the second trick; seed 000: after the declaration turn):
    ``declarations``: each ``[seat, [texts], [cards]]`` of the side whose
    declarations count, which shows them; ``side``: those seats (both
    empty when equal best declarations score for no one)."""

    kind: Literal["shown"] = "shown"
    declarations: list[tuple[SeatLetter, list[str], list[str]]]
    side: list[SeatLetter]


class DeclinedEvent(_Event):
    """``seat`` chose to declare nothing.  Sent to that seat alone: telling
    the others would reveal that it held a declaration."""

    kind: Literal["declined"] = "declined"
    seat: SeatLetter


class BeloteEvent(_Event):
    """``seat`` says ``word`` (``belote`` or ``rebelote``) playing ``card``."""

    kind: Literal["belote"] = "belote"
    seat: SeatLetter
    card: str
    word: Literal["belote", "rebelote"]


class CardEvent(_Event):
    """``seat`` played ``card``."""

    kind: Literal["card"] = "card"
    seat: SeatLetter
    card: str


class TrickEvent(_Event):
    """A trick is over: ``trick`` (its winner leads next)."""

    kind: Literal["trick"] = "trick"
    trick: TrickData


class DealEndEvent(_Event):
    """The deal is over: ``summary`` (:func:`rebelote.record.deal_summary`:
    card points, dix de der, declarations, belote, capot, result, score), the
    score sheet ``line``, the match ``totals`` and the deal's ``fair``
    proof, its seed and salt revealed (kept null until the match is over
    for a deal thrown in or cancelled before its cards were played)."""

    kind: Literal["deal_end"] = "deal_end"
    summary: dict[str, Any]
    line: SheetLine
    totals: dict[str, int]
    fair: FairData | None = None


class MatchEndEvent(_Event):
    """The match is over: the ``winner`` side, the ``totals`` and the deal by
    deal ``sheet``; ``unclaimed``: litige points still held over, which
    nobody scores (:attr:`rebelote.match.Match.unclaimed`: no next deal)."""

    kind: Literal["match_end"] = "match_end"
    winner: str
    totals: dict[str, int]
    sheet: list[SheetLine]
    unclaimed: int = 0


class SeatEvent(_Event):
    """From now on ``seat`` is played by ``player`` (``human`` or ``bot``)
    named ``name`` (``level`` for a computer player): a player who left the
    match is replaced by a computer player (``left`` true: ``name`` is the
    leaver's; tables older than that field named it ``"NAME (computer)"``)."""

    kind: Literal["seat"] = "seat"
    seat: SeatLetter
    player: Literal["human", "bot"]
    name: str
    level: str | None
    left: bool = False


class TurnData(_Strict):
    """Who is to act.

    - ``seat``: the seat to act (null while the table waits for ``next`` or
      ``rematch``, or when nobody acts); ``phase``: the deal's phase (``cut``,
      ``pattern``, ``bidding``, ``declaring``, ``playing``, ``done``).
    - ``waiting``: ``action`` (a seat must act), ``next`` (the deal is over:
      the next deal starts once every human seat agreed, sending ``next``;
      a seat stood in for counts as agreed), ``rematch`` (the match is
      over: a rematch starts once every human seat sent ``rematch``), or
      null (nothing: e.g. a player left once the match was over, so the
      table is closed).
    - ``legal``: the receiving seat's legal actions (texts, each once), empty
      unless it is this seat's decision (``["next"]`` / ``["rematch"]`` to a
      human seat that has not agreed yet); ``belote_choice``: the cards among
      them that may be played with or without saying belote (send ``belote``).
    - ``auto``: the server will act for this seat (a computer player, an
      automatic cut or pattern, a forced card).
    - ``agreed``: the seats that agreed to the next deal or the rematch the
      table waits for, in seat order (``[]`` otherwise); the same for every
      seat and the spectators.
    - ``deadline``: while the table waits for ``next`` at a lobby table
      with a per-move clock, when the next deal starts by itself (Unix
      seconds); else null.
    - ``illegal``: the cards of the receiving seat's own hand that it may
      not play now, grouped by reason (:class:`IllegalCards`, from
      :meth:`rebelote.state.State.why_illegal`; ``not_your_turn`` for every
      card while another seat acts); empty for a spectator and for an empty
      hand.  Nothing about another hand.
    - ``takeback``: whether the receiving seat may take back its last card
      or bid now (help allowed, no other human seated, an action of its own
      in the deal going on: never once the deal is over); false for a
      spectator.
    """

    seat: SeatLetter | None
    phase: str
    waiting: Waiting | None
    legal: list[str]
    belote_choice: list[str]
    auto: bool
    agreed: list[SeatLetter] = Field(default_factory=list)
    deadline: float | None = None
    illegal: list[IllegalCards] = Field(default_factory=list)
    takeback: bool = False


class TurnEvent(_Event, TurnData):
    """After every change: :class:`TurnData` for the receiving seat."""

    kind: Literal["turn"] = "turn"


# ------------------------------------------------ help against the computer (issue 16)


class HelpInfo(_Strict):
    """The help a player may get at this table (:class:`Snapshot`'s
    ``help``): ``allowed`` (hints and takebacks: at a table with no rating
    at stake only; a takeback also needs no other human seated), and how
    many ``hints`` and ``takebacks`` were used in the current match;
    ``hints_by_seat``: of those hints, how many each seat asked (seat
    letter -> count, seats that asked none left out)."""

    allowed: bool
    hints: int
    takebacks: int
    hints_by_seat: dict[SeatLetter, int] = Field(default_factory=dict)


class HelpEvent(_Event):
    """``seat`` asked for a hint (its answer went to it alone: ``hint``,
    outside the stream); ``hints`` and ``takebacks``: used in this match
    so far, for the table's marker; ``hints_by_seat`` as in
    :class:`HelpInfo`.  One hint counts per seat and decision, however
    many of its tabs asked."""

    kind: Literal["help"] = "help"
    seat: SeatLetter
    hints: int
    takebacks: int
    hints_by_seat: dict[SeatLetter, int] = Field(default_factory=dict)


class OptionsEvent(_Event):
    """``seat`` changed the table's options (:class:`OptionsMessage`):
    the computer players' ``speed`` from now on (the snapshot's
    ``table.options`` says it too)."""

    kind: Literal["options"] = "options"
    seat: SeatLetter
    speed: Speed


class TakebackEvent(_Event):
    """``seat`` took back its last card or bid: the deal went back to just
    before it (the actions after it undone, the computer players' too) and
    ``snapshot`` is the table as the receiving stream now sees it (apply it
    as a ``snapshot``: the version is this event's); ``hints`` and
    ``takebacks`` as in :class:`HelpEvent`."""

    kind: Literal["takeback"] = "takeback"
    seat: SeatLetter
    hints: int
    takebacks: int
    snapshot: Snapshot


class HintValue(_Strict):
    """One legal action and the expert's value of it (null: not valued)."""

    action: str
    value: float | None


class HintData(_Strict):
    """``hint`` (outside the numbered stream, to the asking socket alone):
    the expert's values of the seat's legal actions, as ``rebelote hint``
    gives them (:func:`rebelote.bots.hint.hint_view`, from the seat's own
    view): ``values`` best first, then those not valued; ``best``, the
    ``expert``'s choice, the ``worlds`` (or deals) behind the values, their
    ``basis``, the ``rule`` when the choice is not the best value; ``id``:
    the request's, when it gave one."""

    id: str | None = None
    seat: SeatLetter
    after: int | None
    phase: str
    trick: int | None
    worlds: int
    basis: str
    values: list[HintValue]
    best: str | None
    expert: str
    rule: str | None


EventData: TypeAlias = Annotated[
    MatchStartEvent
    | DealStartEvent
    | CutEvent
    | PatternEvent
    | DealtEvent
    | TurnedEvent
    | BidEvent
    | AllPassedEvent
    | ContractEvent
    | CompletedEvent
    | CancelledEvent
    | DeclaredEvent
    | ShownEvent
    | DeclinedEvent
    | BeloteEvent
    | CardEvent
    | TrickEvent
    | DealEndEvent
    | MatchEndEvent
    | SeatEvent
    | TurnEvent
    | HelpEvent
    | TakebackEvent
    | OptionsEvent,
    Field(discriminator="kind"),
]
"""The ``d`` of an ``event`` message, told apart by ``kind``; every event
also carries the ``match`` and ``deal`` numbers."""


class Snapshot(_Strict):
    """The ``d`` of a ``snapshot``: everything one seat may know now.

    - ``table``: ``id``, ``you`` (the seat), ``seats``, ``rules``, ``options``,
      ``status``.
    - ``match``: :class:`MatchInfo`.
    - ``view``: :meth:`rebelote.observation.PlayerView.to_json` for the seat
      (``hand``, ``hand_sizes``, ``turned``, ``bids``, ``contract``,
      ``declarations``, ``own_declarations``, ``belotes``, ``tricks``, the
      ``trick`` in progress, ``current``, ``legal``).
    - ``last_trick``: the last finished trick of the deal, or null.
    - ``turn``: :class:`TurnData`; ``deal_summary``: the summary of the deal
      once it is over (as in :class:`DealEndEvent`), else null.
    - ``fair``: the current deal's :class:`FairData` (its commitment; its
      seed and salt once they may be told), or null.
    """

    table: SnapshotTable
    match: MatchInfo
    view: dict[str, Any]
    last_trick: TrickData | None
    turn: TurnData
    deal_summary: dict[str, Any] | None
    help: HelpInfo | None = None
    fair: FairData | None = None


class SnapshotTable(_Strict):
    """The table part of a :class:`Snapshot` (``you`` null for a
    spectator; ``status`` ``closed`` once a player left after the match:
    no rematch)."""

    id: str
    you: SeatLetter | None
    seats: list[SeatInfo]
    rules: RulesInfo
    options: TableOptions
    status: Literal["open", "playing", "finished", "closed"]


Snapshot.model_rebuild()
TakebackEvent.model_rebuild()


class Countdown(_Strict):
    """A countdown the table shows: ``reason`` ``move`` (the per-move clock
    of the seat to act), ``hold`` (a disconnected player's seat is held
    before a computer player stands in), ``leave`` (the player will have
    left the match), ``next`` (the next deal starts by itself: on each
    human seat that has not agreed to it yet) or ``host`` (before the
    start, the host has no connection: the table passes to another
    connected player); ``deadline`` in Unix seconds; ``seconds`` left when
    sent."""

    reason: Literal["move", "hold", "leave", "next", "host"]
    deadline: float
    seconds: float


class RoomSeat(_Strict):
    """A seat as the room shows it: who sits there (``kind`` ``human``,
    ``bot``, ``open``), whether its player is ``connected``, ``away`` (a
    computer player stands in; ``away_reason`` says why: ``move`` his
    per-move clock ran out, ``hold`` he was disconnected longer than the
    table holds a seat; null when not away), has ``left`` the match, and its
    running ``countdowns``; ``guest`` and ``outside_bot`` (present when
    true) as in :class:`SeatInfo`."""

    seat: SeatLetter
    kind: Literal["human", "bot", "open"]
    name: str
    level: str | None
    guest: bool = False
    connected: bool
    away: bool
    away_reason: Literal["move", "hold"] | None = None
    left: bool
    countdowns: list[Countdown]
    outside_bot: bool = False

    @model_serializer(mode="wrap")
    def _outside_bot_when_true(self, handler: Any) -> Any:
        return _without_false(handler(self), "outside_bot")


class RoomData(_Strict):
    """``room`` (outside the numbered stream): the table around the game.

    ``status`` ``open`` (waiting for players), ``playing``, ``finished``,
    ``closed`` (everyone left before the start); ``host``: the seat of the
    player who may fill seats with computer players and start;
    ``visibility`` ``solo`` / ``public`` / ``private``; ``invite``: the
    invitation code of a private table (only a private table's players get
    its room: spectators watch public tables only); ``spectators``: how many
    watch.  The same message goes to every listener."""

    id: str
    name: str
    status: Literal["open", "playing", "finished", "closed"]
    visibility: Literal["solo", "public", "private"]
    ranked: bool
    host: SeatLetter | None
    rules: RulesInfo
    options: TableOptions
    seats: list[RoomSeat]
    invite: str | None
    spectators: int


class AckData(_Strict):
    """``ack`` (outside the numbered stream, to the sender alone): the
    action with this client ``id`` is done; ``duplicate``: it had been
    applied already, so this copy changed nothing."""

    id: str
    duplicate: bool


NoticeCode = Literal["timed_out"]
"""The codes of :class:`NoticeData`."""


class NoticeData(_Strict):
    """``notice`` (outside the numbered stream, to one seat's sockets
    alone): something happened to this player.  ``timed_out``: his
    per-move clock ran out, a computer player now plays for him until he
    acts again (any action, or ``back``)."""

    code: NoticeCode


class MutedData(_Strict):
    """``muted``: the seats whose chat this player hides now (the answer to
    ``mute``)."""

    seats: list[SeatLetter]


class ChatData(_Strict):
    """``chat`` (outside the numbered stream): a line said at the table.
    ``text`` is the line as typed (control characters removed): show it as
    text, never as HTML; ``html`` is the same line HTML-escaped, for a client
    that inserts markup.  ``at``: Unix seconds."""

    id: int
    seat: SeatLetter
    name: str
    text: str
    html: str
    at: float


class ChatHistory(_Strict):
    """``chat_history``: the table's last lines, oldest first (sent on
    connection, without the lines of muted seats)."""

    lines: list[ChatData]


# ------------------------------------------------------------------ the lobby socket


class WatchRoomData(_Strict):
    """``watch_room``: the lobby table whose waiting room to follow, and
    the invitation code of a private one (its players need none)."""

    table: str = Field(min_length=1, max_length=32)
    invite: str | None = Field(default=None, max_length=64)


class WatchRoomMessage(_Strict):
    """``{"t": "watch_room", "d": {"table": ID, "invite": CODE}}``: follow
    one table's room (one at a time; a new one replaces it)."""

    t: Literal["watch_room"]
    d: WatchRoomData
    v: StrictInt | None = None


class UnwatchRoomMessage(_Strict):
    """``{"t": "unwatch_room"}``: stop following the room."""

    t: Literal["unwatch_room"]
    d: _Empty | None = None
    v: StrictInt | None = None


AnyLobbyMessage: TypeAlias = WatchRoomMessage | UnwatchRoomMessage | PingMessage

LobbyClientMessage: TypeAlias = Annotated[AnyLobbyMessage, Field(discriminator="t")]
"""Any message a client may send on the lobby socket (``/ws/lobby``)."""

LOBBY_CLIENT_TYPES: tuple[str, ...] = ("watch_room", "unwatch_room", "ping")
"""The values of ``t`` a client may send on the lobby socket."""

_LOBBY_ADAPTER: TypeAdapter[AnyLobbyMessage] = TypeAdapter(LobbyClientMessage)


def parse_lobby_message(raw: str | bytes) -> AnyLobbyMessage:
    """Read one message of the lobby socket.  Raises :class:`ProtocolError`
    as :func:`parse_client_message` does (``too_large``, ``bad_json``,
    ``unknown_type``, ``bad_message``)."""
    value = _json_object(raw)
    kind = value.get("t")
    if kind not in LOBBY_CLIENT_TYPES:
        known = ", ".join(LOBBY_CLIENT_TYPES)
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}: use one of {known}")
    try:
        return _LOBBY_ADAPTER.validate_python(value)
    except ValidationError as exc:
        raise ProtocolError("bad_message", f"bad {kind} message: {_problems(exc)}") from None


class LobbyList(_Strict):
    """``lobby``: every public table not finished (open ones first), each
    as its room without countdowns; sent on connection (and again on each
    reconnection: replace the whole list)."""

    tables: list[RoomData]


class TableGone(_Strict):
    """``table_gone``: the public table ``id`` left the list (finished,
    closed)."""

    id: str


class WaitingRoom(_Strict):
    """``waiting``: the room followed with ``watch_room``, sent at once and
    at each change; ``you``: the seat the socket's player (by his session)
    holds there, else null.  When ``room.status`` becomes ``playing`` and
    ``you`` is set, the page sends its player to the table."""

    room: RoomData
    you: SeatLetter | None


class SeatedRoom(_Strict):
    """``seated``: a lobby table, public or private, where the socket's
    player (by his session) holds a seat, ``you``.  Sent on connection for
    each such table open or playing, then whenever its ``status`` or his
    seat changes; ``you`` null, once, when he no longer holds a seat there.
    The room has no invitation code and no countdowns.  When
    ``room.status`` goes from ``open`` to ``playing``, the page sends its
    player to the table, wherever he is in the lobby (the browser client
    does when it keeps that seat's token)."""

    room: RoomData
    you: SeatLetter | None


_EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(EventData)


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""JSON text as :func:`envelope` writes it: compact, UTF-8 characters as
they are (``json.dumps`` with these options, its encoder made once)."""

_TYPE_TEXTS: dict[str, str] = {}
"""The JSON text of each message type met (``"event"``, ...)."""


class WireData:
    """The ``d`` of one server message, built once as JSON-ready ``data``
    (the fields of its protocol model, in the model's order) and dumped to
    JSON at most once (:attr:`text`), however many streams carry it: the
    tables' hot path builds these instead of pydantic models (the texts are
    the same; ``tests/server/test_wire.py`` checks them against the
    models).  ``cards``: the cards its text names, once a leak check
    (:func:`rebelote.server.protocol.redact.check_wire`) computed them.
    Equal when the data are equal."""

    __slots__ = ("_text", "cards", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._text: str | None = None
        self.cards: int | None = None

    @classmethod
    def of(cls, model: BaseModel) -> WireData:
        """The data of a protocol model (``model_dump(mode="json")``)."""
        return cls(model.model_dump(mode="json"))

    @property
    def text(self) -> str:
        """The JSON text of :attr:`data` (compact, UTF-8 characters as
        they are, as :func:`envelope` writes it)."""
        text = self._text
        if text is None:
            text = self._text = _dumps(self.data)
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WireData) and self.data == other.data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"WireData({self.data!r})"


def envelope(t: str, d: BaseModel | WireData | dict[str, Any] | None, v: int | None = None) -> str:
    """The JSON text of one server message ``{"t", "d", "v"}`` (a
    :class:`WireData` is dumped once and its text reused)."""
    if isinstance(d, WireData):
        kind = _TYPE_TEXTS.get(t)
        if kind is None:
            kind = _TYPE_TEXTS[t] = _dumps(t)
        version = "null" if v is None else str(int(v))
        return f'{{"t":{kind},"d":{d.text},"v":{version}}}'
    data = d.model_dump(mode="json") if isinstance(d, BaseModel) else d
    return _dumps({"t": t, "d": data, "v": v})


def protocol_schema() -> dict[str, Any]:
    """JSON Schemas of the client messages, the event data and the snapshot
    (served at ``GET /api/protocol``)."""
    return {
        "envelope": {"t": "message type", "d": "data", "v": "version (events, snapshots)"},
        "client": _CLIENT_ADAPTER.json_schema(),
        "event": _EVENT_ADAPTER.json_schema(),
        "snapshot": Snapshot.model_json_schema(),
        "error": ErrorData.model_json_schema(),
        "room": RoomData.model_json_schema(),
        "chat": ChatData.model_json_schema(),
        "chat_history": ChatHistory.model_json_schema(),
        "muted": MutedData.model_json_schema(),
        "notice": NoticeData.model_json_schema(),
        "hint": HintData.model_json_schema(),
        "lobby_client": _LOBBY_ADAPTER.json_schema(),
        "lobby": LobbyList.model_json_schema(),
        "table": RoomData.model_json_schema(),
        "table_gone": TableGone.model_json_schema(),
        "waiting": WaitingRoom.model_json_schema(),
        "seated": SeatedRoom.model_json_schema(),
    }
