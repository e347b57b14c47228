"""A table's game as a log: the synchronous, replayable core of a table.

A :class:`TableGame` holds the :class:`~rebelote.match.Match` and the
current :class:`~rebelote.state.State` of one table, and changes only by
:meth:`TableGame.apply` of a log :class:`Entry`:

- ``match`` ``{"dealer": "N"}``: a match starts (the first, or a rematch);
- ``deal`` ``{"dealer": "N", "pack": [32 or 24 card names], "fair":
  {"commitment", "seed", "salt"}}``: a deal starts from the shuffled pack
  (stored, so a replay needs no random generator), the pack that ``seed``
  gives (:mod:`rebelote.fairness`; ``fair`` is absent from logs written
  before fair deals: :mod:`rebelote.server.tables.fair`);
- ``act`` ``{"action": "QH belote", "by": "human" | "bot" | "auto" |
  "standin"}`` (and the client's ``id`` of the action, when it gave one)
  with the acting ``seat``: an action in the rules core's one notation
  (:attr:`rebelote.actions.Action.text`: ``cut 12``, ``deal 3-2``, ``take``,
  ``declare tierce-KH``, ``JS``, ``QH belote`` / ``QH no-belote`` where the
  player chooses whether to say belote), read by the rules core in the
  context of the deal (:meth:`~rebelote.state.State.parse_action`;
  ``standin``: the computer player standing in for an absent player).  A
  deal's ``deal`` entry and its ``act`` entries are its record of format 2
  (:mod:`rebelote.record`: ``dealer``, ``pack``, then ``{"seat",
  "action"}`` per action; :mod:`rebelote.server.tables.history`).  Logs
  written before held the card's name and a ``belote`` flag beside it
  (``{"action": "QH", "belote": true | false | null, ...}``, the flag
  settling a card's belote choice where the player had one, ignored
  elsewhere); they are still read;
- ``seat`` ``{"kind": "bot", "name": "...", "level": "intermediate"}`` with
  the ``seat``: who sits there from now on (a player who left the match is
  replaced by a computer player: ``"left": true``; ``"closes": true`` when
  he left once the match was over, refusing the rematch: the table is
  closed, nobody may ask for a rematch any more);
- ``agree`` ``{"action": "next" | "rematch"}`` with the ``seat``: a human
  agrees to the next deal or to a rematch (the one whose agreement
  completes everyone's is not logged: the ``deal`` or ``match`` entry that
  it causes is).

- ``hint`` ``{"after": 12}`` with the ``seat``: the seat's player got a
  hint (the expert's values of its legal actions, computed from its own
  view and sent to it alone) when ``after`` actions of the deal were made:
  counted, and told to every stream (a ``help`` event, the table's marker);
- ``takeback`` ``{"to": 11}`` with the ``seat`` (and the client's ``id``):
  the seat's player took back his last card or bid of the deal, the
  ``to``-th action of the deal (from 0) and everything after it (the
  computer players' actions too): the deal is replayed from its pack to
  its first ``to`` actions (a deal over is taken out of the match first:
  its line, its points), and every stream gets a ``takeback`` event
  holding its new snapshot.  The computer players then decide again from
  there, with the same seeds (a deterministic table); their new actions
  are new ``act`` entries.  A deal's record (:mod:`rebelote.server.tables.history`)
  leaves out the actions a takeback undid.

A table may also wait for its players before its first match (no log entry
yet, ``match`` is ``None``): its seats may then be ``open``.

The stored log is the truth: replaying it through :meth:`apply` rebuilds the
table, its numbered event streams included (the same entries give the same
messages, with the same version numbers), so a restarted server resumes
every table and every client's stream exactly.

Each seat has its own stream, numbered 1, 2, 3, ..., and so have the
spectators (the stream key ``None``: :data:`SPECTATORS`), built from a view
with no hand at all.  A private happening
(the cards dealt to a seat, a seat declining to declare) goes to that seat
alone, and a ``turn`` message is sent to a seat only when what it says to
that seat changed, so that the numbering and rhythm of one seat's stream
tell nothing about another seat's hidden choices.

This module holds no asyncio and does no I/O; :mod:`rebelote.server.tables.table`
drives it.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from rebelote.actions import Action, ChoosePattern, Cut, InvalidActionError, Play
from rebelote.cards import Card, card_name, cards_of, parse_card
from rebelote.events import Event, MatchEnded
from rebelote.fairness import FairProof, derive_pack, server_cut, server_pattern
from rebelote.legality import Illegality, IllegalReason
from rebelote.match import Match
from rebelote.observation import PlayerView, declarations_resolved, observe
from rebelote.record import deal_summary
from rebelote.rules import Rules, preset_name
from rebelote.seats import Seat, previous_seat, seats_of
from rebelote.server.api.help import describe
from rebelote.server.broker.hub import StreamKey
from rebelote.server.protocol.messages import (
    SPEED_DELAYS,
    DealEndEvent,
    DealStartEvent,
    FairData,
    HelpEvent,
    HelpInfo,
    IllegalCards,
    IllegalityData,
    MatchEndEvent,
    MatchInfo,
    MatchStartEvent,
    OptionsEvent,
    ProtocolError,
    RulesInfo,
    SeatEvent,
    SeatInfo,
    SheetLine,
    Snapshot,
    SnapshotTable,
    TableOptions,
    TablePublic,
    TakebackEvent,
    TurnData,
    Waiting,
    WireData,
)
from rebelote.server.protocol.redact import (
    check_visible,
    check_wire,
    event_wire,
    last_trick,
    public_mask,
    public_view,
    seat_mask,
    shown_wire,
    turn_wire,
    view_json,
    wire_text,
)
from rebelote.server.tables.fair import deal_secrets, may_reveal, proof_of
from rebelote.state import AmbiguousActionError, IllegalActionError, Phase, State

__all__ = [
    "SPECTATORS",
    "STANDIN_LEVEL",
    "AutoStep",
    "Entry",
    "EntryKind",
    "Outgoing",
    "SeatSpec",
    "StreamKey",
    "TableGame",
    "derive_seed",
]

EntryKind = Literal["match", "deal", "act", "seat", "agree", "hint", "takeback", "options"]
"""The kinds of log entries."""

SPECTATORS: StreamKey = None
"""The key of the spectators' stream."""

STANDIN_LEVEL = "intermediate"
"""The level of the computer player standing in for an absent player."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (stable across runs and machines)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits at ``seat``: a ``human`` named ``name`` (``guest``: without
    an account; ``outside_bot``: an outside program plays for the account,
    the bot API), a ``bot`` of ``level``, or nobody yet (``open``, before
    the first match)."""

    seat: Seat
    kind: Literal["human", "bot", "open"]
    name: str
    level: str | None = None
    guest: bool = False
    left: bool = False
    outside_bot: bool = False

    def info(self) -> SeatInfo:
        """The public :class:`SeatInfo`."""
        return SeatInfo(
            seat=self.seat.letter,
            kind=self.kind,
            name=self.name,
            level=self.level,
            guest=self.guest,
            left=self.left,
            outside_bot=self.outside_bot,
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a table's log (see the module docstring)."""

    kind: EntryKind
    seat: Seat | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One happening as each seat's stream tells it: per seat, the version
    ``v`` in that seat's stream and the seat's redacted event data (a seat
    that may not know of it is absent; seats told the same share one
    :class:`~rebelote.server.protocol.messages.WireData`, dumped once)."""

    per_seat: Mapping[StreamKey, tuple[int, WireData]]


@dataclass(frozen=True, slots=True)
class AutoStep:
    """Something the server does by itself now: a computer player's decision
    (``bot``), a cut or pattern made for the player (``auto``), his only
    legal card (``forced``), or the next deal (``next``)."""

    kind: Literal["bot", "auto", "forced", "next"]
    seat: Seat | None = None


_TABLE_ACTIONS = ("next", "rematch")
"""The table's own requests (agreements, :meth:`TableGame.agreement`): not
actions of the deal, read apart from them."""


def _normalize(text: str) -> str:
    return " ".join(text.split()).casefold()


def _why_data(why: Illegality) -> IllegalityData:
    """The core's reason (:meth:`Illegality.to_json`, the one wire form) as
    the protocol's model."""
    return IllegalityData.model_validate(why.to_json())


class TableGame:
    """The game at one table: seats, the match, the current deal and the
    numbered message stream.

    ``rules``: the table's rules; ``options``: :class:`TableOptions`;
    ``seed``: the table's seed (shuffles, automatic cuts and computer
    decisions derive from it); ``seats``: a :class:`SeatSpec` per seat of the
    rules (three or four); ``timed``: the table's clock
    (``options.move_clock``) applies (lobby tables; a solo table has none),
    so that the wait for the next deal has a deadline.
    """

    def __init__(
        self,
        table_id: str,
        rules: Rules,
        options: TableOptions,
        seed: int,
        seats: Mapping[Seat, SeatSpec],
        *,
        timed: bool = False,
    ) -> None:
        expected = seats_of(rules.players)
        if set(seats) != set(expected):
            names = " ".join(s.letter for s in expected)
            raise ValueError(f"a {rules.players}-player table seats exactly {names}")
        self.id = table_id
        self.rules = rules
        self.options = options
        self.seed = seed
        self.seats: dict[Seat, SeatSpec] = dict(seats)
        self.order: tuple[Seat, ...] = expected
        self.sides: tuple[str, ...] = (
            ("NS", "EW") if rules.players == 4 else tuple(s.letter for s in expected)
        )
        self.match: Match | None = None
        self.match_number = 0
        self.deal_number = 0
        self.state: State | None = None
        self.actions_in_deal = 0
        self.sheet: list[SheetLine] = []
        self.summary: dict[str, Any] | None = None
        self.keys: tuple[StreamKey, ...] = (*self.order, SPECTATORS)
        self.versions: dict[StreamKey, int] = dict.fromkeys(self.keys, 0)
        self._last_turn: dict[StreamKey, WireData] = {}
        self.turn_versions: dict[StreamKey, int] = {}
        """Per seat, the version of the last ``turn`` event sent to it: an
        action made against an older version is stale."""
        self.entries = 0
        self.finished: list[tuple[int, int, State]] | None = None
        """When a list (set it before replaying a log): every finished deal
        as ``(match, deal, state)``, for replays and exports."""
        self.away: set[Seat] = set()
        """Human seats whose absent player a computer player stands in for
        (not logged: the table sets it as players come and go)."""
        self.timed = timed
        self.agreed: set[Seat] = set()
        """The human seats that agreed to the next deal or the rematch the
        table waits for (``agree`` entries; emptied when a deal or a match
        starts)."""
        self.closed = False
        """A player left once the match was over (a ``seat`` entry with
        ``closes``): no rematch, the table waits for nothing."""
        self.next_deadline: float | None = None
        """When the next deal starts by itself (Unix seconds): set when a
        deal of a match not over ends at a timed table with a per-move
        clock (from the clock at that moment: a replay sets it anew)."""
        self.cards_played: dict[Seat, int] = dict.fromkeys(self.order, 0)
        """Cards each seat played in the current match."""
        self.standin_cards: dict[Seat, int] = dict.fromkeys(self.order, 0)
        """Of those, the cards a computer player standing in for the seat's
        absent player played (``act`` entries ``by: standin``)."""
        self.stood_in: set[Seat] = set()
        """The seats whose last action in the current match a stand-in made
        (``by: standin``; a ``by: human`` one takes the seat out): a table
        rebuilt from its log stands in for them again at once."""
        self.help_allowed = True
        """Hints and takebacks may be asked here (no rating at stake: the
        :class:`~rebelote.server.tables.table.Table` sets it from its
        meta); told to the seats in the snapshot's ``help``."""
        self.hints = 0
        """Hints given in the current match (``hint`` entries)."""
        self.hints_by_seat: dict[Seat, int] = {}
        """Of those, per seat that asked."""
        self.hinted: set[tuple[Seat, int, int, int, int]] = set()
        """The decisions a hint was counted for: ``(seat, match, deal,
        actions in the deal, takebacks)`` (a second tab asking the same
        seat's hint for the same decision is not counted again)."""
        self.takebacks = 0
        """Takebacks in the current match (``takeback`` entries)."""
        self.takeback_versions: dict[StreamKey, int] = {}
        """Per seat, the version of the last ``takeback`` event of its own
        stream: a takeback asked against an older version is stale (a
        second click sent before the first one's answer came)."""
        self.match_dealer: Seat | None = None
        """The current match's first dealer (a takeback rebuilds the match)."""
        self.deal_pack: list[Card] = []
        """The current deal's pack, as its ``deal`` entry gives it."""
        self.deal_actions: list[tuple[Seat, Action, str]] = []
        """The current deal's actions applied, in order: ``(seat, action,
        by)`` (``by`` as the ``act`` entry says it)."""
        self.proof: FairProof | None = None
        """The current deal's fairness proof (its ``deal`` entry's ``fair``;
        ``None`` in logs written before fair deals)."""
        self.fresh_secrets = False
        """Draw each deal's seed and salt at random (a server given no
        seed), rather than from the table's seed
        (:func:`~rebelote.server.tables.fair.deal_secrets`)."""
        self._entry_action: tuple[tuple[int, Seat, str], Action] | None = None
        """The action of the last ``act`` entry this game built
        (:meth:`action_entry`), keyed by the number of entries applied then,
        the seat and the entry's ``action``: applying that entry next uses
        it as it is instead of reading its text again."""

    # ----------------------------------------------------------------- status

    @property
    def status(self) -> Literal["open", "playing", "finished"]:
        """``open`` before the first match, ``finished`` once the match is
        won (until a rematch), else ``playing``."""
        if self.match is None:
            return "open"
        return "finished" if self.match.is_over or self.deals_done else "playing"

    @property
    def deals_done(self) -> bool:
        """The table's set of deals is over (``options.deals`` deals
        played and the last one over): the table waits for nothing more."""
        limit = self.options.deals
        return (
            limit is not None
            and self.deal_number >= limit
            and (self.state is None or self.state.is_terminal)
        )

    @property
    def humans(self) -> list[Seat]:
        """The seats of human players."""
        return [s for s in self.order if self.seats[s].kind == "human"]

    @property
    def waiting(self) -> Waiting | None:
        """What the table waits for: ``action``, ``next``, ``rematch`` or ``None``."""
        if self.match is None or self.closed or self.deals_done:
            return None
        if self.match.is_over:
            return "rematch"
        if self.state is None or self.state.is_terminal:
            return "next"
        return "action"

    def view(self, seat: StreamKey) -> PlayerView:
        """``observe`` of the current deal for ``seat``; for the spectators,
        :func:`~rebelote.server.protocol.redact.public_view`."""
        assert self.state is not None
        if seat is None:
            return public_view(self.state)
        return observe(self.state, seat)

    # ------------------------------------------------------------ automation

    def pending(self) -> AutoStep | None:
        """What the server should do by itself now, if anything (a computer
        player also acts for a seat in :attr:`away`)."""
        return self._pending(with_away=True)

    def _pending(self, *, with_away: bool) -> AutoStep | None:
        waiting = self.waiting
        if waiting == "next":
            if self.options.auto_next or all(
                h in self.agreed or (with_away and h in self.away) for h in self.humans
            ):
                return AutoStep("next")
            return None
        if waiting != "action":
            return None
        state = self.state
        assert state is not None and state.current is not None
        seat = state.current
        if self.seats[seat].kind == "bot" or (with_away and seat in self.away):
            return AutoStep("bot", seat)
        if state.phase == Phase.CUT and not self.options.player_cuts:
            return AutoStep("auto", seat)
        if state.phase == Phase.PATTERN and not self.options.player_chooses_pattern:
            return AutoStep("auto", seat)
        if state.phase == Phase.PLAYING and self.options.auto_play_forced:
            legal = state.legal_actions()
            if len(legal) == 1 and isinstance(legal[0], Play):
                return AutoStep("forced", seat)
        return None

    def bot_level(self, seat: Seat) -> str:
        """The level of the computer player deciding for ``seat``: the seat's
        own, or :data:`STANDIN_LEVEL` for an absent human."""
        spec = self.seats[seat]
        return (spec.level or "random") if spec.kind == "bot" else STANDIN_LEVEL

    def _auto_seats(self) -> list[Seat]:
        # from the log alone (not :attr:`away`), so that a replay numbers
        # every stream the same way
        step = self._pending(with_away=False)
        return [step.seat] if step is not None and step.seat is not None else []

    def deal_seed(self) -> int:
        """The seed of the current deal."""
        return derive_seed(self.seed, self.match_number, self.deal_number)

    def decision_seed(self, seat: Seat) -> int:
        """The seed of the current decision of ``seat`` (deal seed, seat,
        index of the action in the deal)."""
        return derive_seed(self.deal_seed(), int(seat), self.actions_in_deal)

    def automatic_entry(self, step: AutoStep) -> list[Entry]:
        """The entries of an ``auto``, ``forced`` or ``next`` step (a ``bot``
        step needs the bot's action: :meth:`action_entry`)."""
        if step.kind == "next":
            return self.next_deal_entries()
        state = self.state
        assert state is not None and step.seat is not None
        legal = state.legal_actions()
        action: Action
        fair = self.fair_choice()
        if step.kind == "forced":
            action = legal[0]
        elif fair is not None:
            action = fair
        elif state.phase == Phase.CUT:
            cuts = [a for a in legal if isinstance(a, Cut) and a.packet > 0] or legal
            action = random.Random(self.decision_seed(step.seat)).choice(cuts)
        else:
            patterns = [a for a in legal if isinstance(a, ChoosePattern)]
            action = patterns[0]
        return [self.action_entry(step.seat, action, "auto")]

    def fair_choice(self) -> Action | None:
        """The cut or the dealer's pattern the server makes now for whoever
        does not choose (a computer player, a stand-in, the table cutting
        for a player): the seed's (:func:`~rebelote.fairness.server_cut`,
        :func:`~rebelote.fairness.server_pattern`), so that ``rebelote
        verify`` can check it; ``None`` outside the cut and the pattern, or
        in a log written before fair deals (then as before)."""
        state, proof = self.state, self.proof
        if state is None or proof is None or proof.seed is None:
            return None
        if state.phase == Phase.CUT:
            return server_cut(state, bytes.fromhex(proof.seed))
        return server_pattern(state)

    def action_entry(self, seat: Seat, action: Action, by: str) -> Entry:
        """The ``act`` entry of ``action`` by ``seat``.  Applying it next
        (:meth:`apply`, nothing applied in between) applies ``action`` itself
        without reading its text again."""
        # The log keeps the action's one text form, belote word included: a
        # deal's act entries are its record's actions (rebelote.record).
        text = action.text
        self._entry_action = ((self.entries, seat, text), action)
        return Entry("act", seat, {"action": text, "by": by})

    def _deal_entry(self, match_number: int, deal_number: int, dealer: Seat) -> Entry:
        """The ``deal`` entry of deal ``deal_number`` of match ``match_number``:
        its seed and salt (:func:`~rebelote.server.tables.fair.deal_secrets`),
        the pack the seed gives and the proof."""
        seed, salt = deal_secrets(self.seed, match_number, deal_number, fresh=self.fresh_secrets)
        pack = derive_pack(seed, self.rules.players)
        return Entry(
            "deal",
            None,
            {
                "dealer": dealer.letter,
                "pack": [card_name(c) for c in pack],
                "fair": FairProof.new(seed, salt).to_json(),
            },
        )

    def next_deal_entries(self) -> list[Entry]:
        """The entry that starts the next deal of the match."""
        assert self.match is not None
        return [self._deal_entry(self.match_number, self.deal_number + 1, self.match.dealer)]

    def start_entries(self) -> list[Entry]:
        """The entries that start a match (at creation, or a rematch): the
        first dealer, drawn from the table's seed, and the first deal."""
        number = self.match_number + 1
        dealer = random.Random(derive_seed(self.seed, "dealer", number)).choice(self.order)
        return [
            Entry("match", None, {"dealer": dealer.letter}),
            self._deal_entry(number, 1, dealer),
        ]

    # ---------------------------------------------------------------- requests

    def request(self, seat: Seat, text: str, belote: bool | None) -> list[Entry]:
        """The entries for a player's request ``text`` (an action, ``next``
        or ``rematch``); nothing changes.  ``next`` and ``rematch`` are the
        table's own requests, agreements (:meth:`agreement`): no entry at all
        when the seat already agreed.  Any other text is an action of the
        deal, read once by the rules core (:meth:`_parse`).  Raises
        :class:`ProtocolError` (``not_your_turn``, ``bad_action``,
        ``illegal``, ``belote_choice_required``)."""
        if self.closed:
            raise ProtocolError(
                "illegal", "the table is closed: a player left after the match", legal=[]
            )
        norm = _normalize(text)
        if norm in _TABLE_ACTIONS:
            if norm == self.waiting and self.seats[seat].kind == "human":
                return self.agreement(seat)
            allowed = {"next": "the deal is over", "rematch": "the match is over"}[norm]
            raise ProtocolError(
                "illegal", f"{norm} is allowed only when {allowed}", legal=self._legal_for(seat)
            )
        action = self._parse(seat, text, belote)
        return [self.action_entry(seat, action, "human")]

    def agreement(self, seat: Seat) -> list[Entry]:
        """The entries of ``seat``'s agreement to what the table waits for
        (``next`` or ``rematch``): none when it already agreed; the entries
        that start the next deal (or the rematch) when every human seat
        has agreed with it, for ``next`` a seat in :attr:`away` counting as
        agreed (a rematch needs everyone's own word); else an ``agree``
        entry."""
        waiting = self.waiting
        assert waiting in ("next", "rematch")
        if seat in self.agreed:
            return []
        missing = [
            h
            for h in self.humans
            if h != seat and h not in self.agreed and not (waiting == "next" and h in self.away)
        ]
        if not missing:
            return self.next_deal_entries() if waiting == "next" else self.start_entries()
        return [Entry("agree", seat, {"action": waiting})]

    def standin_shares(self) -> dict[Seat, float]:
        """For each human seat, the share of its cards in the current match
        that a stand-in played (0 when it played none)."""
        return {
            s: self.standin_cards[s] / self.cards_played[s] if self.cards_played[s] else 0.0
            for s in self.humans
        }

    def _legal_for(self, seat: Seat) -> list[str]:
        waiting = self.waiting
        if waiting in ("next", "rematch"):
            return [] if seat in self.agreed else [waiting]
        if self.state is None or self.state.current != seat:
            return []
        return list(dict.fromkeys(wire_text(a) for a in self.state.legal_actions()))

    def _parse(self, seat: Seat, text: str, belote: bool | None) -> Action:
        """The legal action ``text`` writes for ``seat`` now: read and
        checked once, by :meth:`State.parse_action`.  ``belote`` settles the
        belote choice of a card written without it (``QH`` where ``QH
        belote`` and ``QH no-belote`` are legal); elsewhere it is ignored
        (the log writes ``true`` for a card without a choice).  The core's
        refusals map to the protocol's codes: ``InvalidActionError`` ->
        ``bad_action``, ``AmbiguousActionError`` without ``belote`` ->
        ``belote_choice_required``, ``IllegalActionError`` ->
        ``not_your_turn`` (reason ``not_your_turn``) or ``illegal``, both with
        ``why``.  Raises :class:`ProtocolError`."""
        state = self.state
        if state is None:  # a match whose first deal is not applied yet
            raise ProtocolError("illegal", "no deal in progress", legal=self._legal_for(seat))
        try:
            action = state.parse_action(text, seat)
        except InvalidActionError as exc:
            legal = self._legal_for(seat)
            if exc.kind == "bid_out_of_range":  # the core says the range
                raise ProtocolError(
                    "bid_out_of_range",
                    f"{exc}; legal now: {' '.join(legal) or 'none'}",
                    legal=legal,
                ) from None
            raise ProtocolError(
                "bad_action",
                f"{text.strip()!r} is not an action; legal now: {' '.join(legal) or 'none'}",
                legal=legal,
            ) from None
        except AmbiguousActionError as exc:
            if belote is None:
                raise ProtocolError(
                    "belote_choice_required",
                    f"say whether you announce belote with {' '.join(text.split())}: "
                    f"send '{' '.join(text.split())} belote' or "
                    f"'{' '.join(text.split())} no-belote' (or belote true or false)",
                    legal=self._legal_for(seat),
                ) from None
            return next(a for a in exc.candidates if isinstance(a, Play) and a.belote is belote)
        except IllegalActionError as exc:
            raise self._refusal(state, seat, text, exc.reason) from None
        if (
            isinstance(action, Play)
            and action.belote is not None
            and belote is not None
            and belote is not action.belote
        ):
            raise ProtocolError(
                "bad_action",
                f"{' '.join(text.split())} says {'' if action.belote else 'no '}belote, "
                f"belote says {str(belote).lower()}",
                legal=self._legal_for(seat),
            )
        return action

    def _refusal(
        self, state: State, seat: Seat, text: str, why: Illegality | None
    ) -> ProtocolError:
        """The protocol's refusal of an action the core found illegal for
        ``why``: ``not_your_turn`` (no legal action listed: they are the
        other seat's), else ``illegal`` with ``seat``'s legal actions."""
        extra = {} if why is None else {"why": _why_data(why).model_dump()}
        if why is not None and why.reason is IllegalReason.NOT_YOUR_TURN:
            who = "nobody" if state.current is None else state.current.letter
            return ProtocolError(
                "not_your_turn", f"it is {who}'s turn, not {seat.letter}'s", legal=[], **extra
            )
        legal = self._legal_for(seat)
        written = " ".join(text.split())
        if why is not None and why.reason is IllegalReason.DEAL_OVER:
            what = {
                "rematch": "the match is over: send rematch",
                "next": "the deal is over: send next",
            }.get(str(self.waiting), "the deal is over")
            return ProtocolError("illegal", f"{written}: {what}", legal=legal, **extra)
        where = f" at trick {state.trick_number}" if state.phase == Phase.PLAYING else ""
        because = "" if why is None else f": {why.code.replace('_', ' ')}"
        return ProtocolError(
            "illegal",
            f"{written} is not allowed{where} ({state.phase.value}){because}; "
            f"legal now: {' '.join(legal) or 'none'}",
            legal=legal,
            **extra,
        )

    # ----------------------------------------------------------------- applying

    def apply(self, entry: Entry) -> list[Outgoing]:
        """Apply one log entry and return the messages it causes.  Raises
        :class:`ProtocolError` (``illegal`` ...) or ``ValueError`` for an
        entry that does not fit; then nothing changes."""
        if entry.kind == "seat":
            out = self._apply_seat(entry)
        elif entry.kind == "match":
            out = self._apply_match(entry)
        elif entry.kind == "deal":
            out = self._apply_deal(entry)
        elif entry.kind == "act":
            out = self._apply_act(entry)
        elif entry.kind == "agree":
            out = self._apply_agree(entry)
        elif entry.kind == "hint":
            out = self._apply_hint(entry)
        elif entry.kind == "takeback":
            out = self._apply_takeback(entry)
        elif entry.kind == "options":
            out = self._apply_options(entry)
        else:
            raise ValueError(f"unknown log entry {entry.kind!r}")
        self.entries += 1
        return out

    def seat_entry(
        self,
        seat: Seat,
        kind: str,
        name: str,
        level: str | None,
        *,
        left: bool = False,
        closes: bool = False,
    ) -> Entry:
        """The ``seat`` entry that puts a ``kind`` player at ``seat``
        (``left``: a computer player for good in place of ``name``, the
        player who left; ``closes``: he left once the match was over, which
        closes the table)."""
        payload: dict[str, Any] = {"kind": kind, "name": name, "level": level}
        if left:
            payload["left"] = True
        if closes:
            payload["closes"] = True
        return Entry("seat", seat, payload)

    def _apply_agree(self, entry: Entry) -> list[Outgoing]:
        seat = entry.seat
        if seat is None or seat not in self.seats or self.seats[seat].kind != "human":
            raise ValueError("an agree entry needs a human's seat")
        what = str(entry.payload.get("action"))
        if what != self.waiting:
            raise ProtocolError("illegal", f"the table does not wait for {what}")
        self.agreed.add(seat)
        return self._turn()

    def _apply_seat(self, entry: Entry) -> list[Outgoing]:
        seat = entry.seat
        if seat is None or seat not in self.seats:
            raise ValueError("a seat entry needs a seat of the table")
        kind = str(entry.payload["kind"])
        if kind not in ("human", "bot"):
            raise ValueError(f"a seat entry for a {kind!r} player")
        level = entry.payload.get("level")
        player: Literal["human", "bot"] = "human" if kind == "human" else "bot"
        spec = SeatSpec(
            seat,
            player,
            str(entry.payload["name"]),
            None if level is None else str(level),
            left=bool(entry.payload.get("left", False)),
        )
        self.seats[seat] = spec
        self.away.discard(seat)
        self.agreed.discard(seat)
        if entry.payload.get("closes"):
            self.closed = True
            self.agreed = set()
        event = SeatEvent(
            match=self.match_number,
            deal=self.deal_number,
            seat=seat.letter,
            player=player,
            name=spec.name,
            level=spec.level,
            left=spec.left,
        )
        out = [self._public(event)]
        if self.match is not None:
            out += self._turn()
        return out

    def _number(self, per_seat: Mapping[StreamKey, WireData]) -> Outgoing:
        numbered: dict[StreamKey, tuple[int, WireData]] = {}
        versions = self.versions
        for seat, data in per_seat.items():
            v = versions[seat] = versions[seat] + 1
            numbered[seat] = (v, data)
        return Outgoing(numbered)

    def _public(self, model: BaseModel) -> Outgoing:
        return self._number(dict.fromkeys(self.keys, WireData.of(model)))

    def _apply_match(self, entry: Entry) -> list[Outgoing]:
        if self.match is not None and not self.match.is_over:
            raise ValueError("a match is already in progress")
        if self.closed:
            raise ValueError("the table is closed")
        dealer = Seat[str(entry.payload["dealer"])]
        match = Match(self.rules, dealer)
        self.match = match
        self.match_number += 1
        self.deal_number = 0
        self.state = None
        self.sheet = []
        self.summary = None
        self.agreed = set()
        self.stood_in = set()
        self.next_deadline = None
        self.cards_played = dict.fromkeys(self.order, 0)
        self.standin_cards = dict.fromkeys(self.order, 0)
        self.hints = self.takebacks = 0
        self.hints_by_seat = {}
        self.match_dealer = dealer
        self.deal_pack = []
        self.deal_actions = []
        return [
            self._public(
                MatchStartEvent(
                    match=self.match_number,
                    deal=0,
                    target=self.rules.target,
                    dealer=dealer.letter,
                )
            )
        ]

    def _apply_deal(self, entry: Entry) -> list[Outgoing]:
        match = self.match
        if match is None or match.is_over:
            raise ValueError("no match in progress")
        if self.state is not None and not self.state.is_terminal:
            raise ValueError("the current deal is not over")
        dealer = Seat[str(entry.payload["dealer"])]
        if dealer != match.dealer:
            raise ValueError(f"the log deals from {dealer.letter}, the match from {match.dealer}")
        pack = [parse_card(str(c)) for c in entry.payload["pack"]]
        proof = proof_of(entry.payload)
        state = match.deal(pack)
        self.state = state
        self.deal_pack = pack
        self.deal_actions = []
        self.proof = proof
        self.deal_number += 1
        self.actions_in_deal = 0
        self.summary = None
        self.agreed = set()
        self.next_deadline = None
        start = DealStartEvent(
            match=self.match_number,
            deal=self.deal_number,
            dealer=dealer.letter,
            cutter=previous_seat(dealer, self.rules.players).letter,
            commitment=None if proof is None else proof.commitment,
        )
        return [self._public(start), *self._turn()]

    def _apply_act(self, entry: Entry) -> list[Outgoing]:
        if entry.seat is None:
            raise ValueError("an act entry needs its seat")
        if self.waiting != "action":
            raise ProtocolError("illegal", "no deal in progress")
        state = self.state
        assert state is not None
        payload = entry.payload
        text = str(payload["action"])
        belote = payload.get("belote")  # only in logs written before the one notation
        belote = belote if isinstance(belote, bool) else None
        built = self._entry_action
        self._entry_action = None
        if built is not None and belote is None and built[0] == (self.entries, entry.seat, text):
            action = built[1]  # read and checked when the entry was made
        else:
            action = self._parse(entry.seat, text, belote)  # from the stored log
        resolved_before = declarations_resolved(state)
        try:
            # Checked once: by parse_action when a player's text was read
            # (the core trusts it then), else (a computer player's action,
            # never read) by apply.
            events = state.apply_parsed(action, entry.seat)
        except IllegalActionError as exc:  # a computer player's action that is not legal
            raise self._refusal(state, entry.seat, text, exc.reason) from None
        self.actions_in_deal += 1
        self.deal_actions.append((entry.seat, action, str(payload.get("by", ""))))
        if isinstance(action, Play):
            self.cards_played[entry.seat] += 1
            if payload.get("by") == "standin":
                self.standin_cards[entry.seat] += 1
        by = payload.get("by")
        if by == "standin":
            self.stood_in.add(entry.seat)
        elif by == "human":
            self.stood_in.discard(entry.seat)
        # each event once per viewer class: its public part for everyone
        # (checked against what everyone knows), its private part for its
        # seat alone (checked against that seat's cards)
        public = public_mask(state)
        out: list[Outgoing] = []
        for event in events:
            shown, own = event_wire(event, state, match=self.match_number, deal=self.deal_number)
            per_seat: dict[StreamKey, WireData] = {}
            if shown is not None:
                check_wire(shown, public, "everyone")
                per_seat = dict.fromkeys(self.keys, shown)
            if own is not None and event.seat is not None:
                check_wire(own, seat_mask(state, event.seat, public), event.seat.letter)
                per_seat[event.seat] = own
            if per_seat:
                out.append(self._number(per_seat))
        shown_data = shown_wire(
            state, resolved_before, match=self.match_number, deal=self.deal_number
        )
        if shown_data is not None:  # the winning side shows its declarations
            check_wire(shown_data, public, "everyone")
            out.append(self._number(dict.fromkeys(self.keys, shown_data)))
        if state.is_terminal:
            out += self._deal_end(state, public)
            clock = self.options.move_clock
            if self.timed and clock and self.match is not None and not self.match.is_over:
                self.next_deadline = round(time.time() + clock, 3)
        out += self._turn()
        return out

    def _side_dict(self, values: Sequence[int]) -> dict[str, int]:
        return {self.sides[i]: v for i, v in enumerate(values)}

    def _deal_end(self, state: State, public: int) -> list[Outgoing]:
        match = self.match
        assert match is not None and state.result is not None
        dealer = match.dealer
        ended: list[Event] = []
        entry = match.add(state.result, ended)
        summary = deal_summary(state, entry.score)
        summary["released"] = entry.released
        summary["totals"] = self._side_dict(entry.totals)
        contract = state.contract
        line = SheetLine(
            deal=self.deal_number,
            dealer=dealer.letter,
            taker=None if contract is None else contract.taker.letter,
            contract=None if contract is None else contract.text,
            result=state.result.result,
            score=self._side_dict(entry.score),
            released=entry.released,
            held_over=match.held_over,
            totals=self._side_dict(entry.totals),
        )
        self.sheet.append(line)
        self.summary = summary
        if self.finished is not None:
            self.finished.append((self.match_number, self.deal_number, state))
        end = DealEndEvent(
            match=self.match_number,
            deal=self.deal_number,
            summary=summary,
            line=line,
            totals=self._side_dict(match.totals),
            fair=self.fair_data(),
        )
        # what every seat and the spectators know: checked once
        data = WireData.of(end)
        check_wire(data, public, "everyone")
        out = [self._number(dict.fromkeys(self.keys, data))]
        for event in ended:  # the core's MatchEnded: a side reached the target
            assert isinstance(event, MatchEnded)
            out.append(
                self._public(
                    MatchEndEvent(
                        match=self.match_number,
                        deal=self.deal_number,
                        winner=self.sides[event.winner],
                        totals=self._side_dict(event.totals),
                        sheet=list(self.sheet),
                        unclaimed=match.unclaimed,
                    )
                )
            )
        return out

    def _turn(self) -> list[Outgoing]:
        """A ``turn`` message to each seat for which it changed."""
        per_seat: dict[StreamKey, WireData] = {}
        last = self._last_turn
        for seat, data in self._turn_wire().items():
            if last.get(seat) != data:
                last[seat] = data
                per_seat[seat] = data
        if not per_seat:
            return []
        out = self._number(per_seat)
        for seat, (v, _) in out.per_seat.items():
            self.turn_versions[seat] = v
        return [out]

    def _turn_wire(self) -> dict[StreamKey, WireData]:
        """The ``turn`` data of every stream now (seats told the same share
        one), checked for leaks: the legal actions go to the seat to act
        alone (its own cards), and each seat's own illegal cards with their
        reasons to that seat alone."""
        state = self.state
        assert state is not None
        waiting = self.waiting
        table_actions: dict[Seat, list[str]] = {}
        agreed: list[str] = []
        if waiting in ("next", "rematch"):
            agreed = [s.letter for s in self.order if s in self.agreed]
            table_actions = {
                s: [waiting]
                for s in self.order
                if self.seats[s].kind == "human" and s not in self.agreed
            }
        turns = turn_wire(
            state,
            self.keys,
            match=self.match_number,
            deal=self.deal_number,
            waiting=waiting,
            auto_seats=self._auto_seats(),
            table_actions=table_actions,
            agreed=agreed,
            deadline=self.next_deadline if waiting == "next" else None,
            illegal=self._illegal_cards,
            takeback=self.may_take_back,
        )
        public = public_mask(state)
        for seat, data in turns.items():  # a shared one's card names are read once
            allowed = public if seat is None else seat_mask(state, seat, public)
            check_wire(data, allowed, "the spectators" if seat is None else seat.letter)
        return turns

    def turn(self, seat: StreamKey) -> TurnData:
        """The :class:`~rebelote.server.protocol.messages.TurnData` for ``seat`` (or
        the spectators) now."""
        data = self._turn_wire()[seat].data
        return TurnData.model_validate({k: data[k] for k in TurnData.model_fields})

    def _illegal_cards(self, seat: Seat) -> list[IllegalCards]:
        """The cards of ``seat``'s hand that it may not play now, grouped by
        the core's reason (:meth:`State.why_illegal` of each card), groups in
        the order of their first card, cards in the order of the hand."""
        state = self.state
        assert state is not None
        hand = state.hands[seat]
        if not hand:
            return []
        legal = (
            {a.card for a in state.legal_actions() if isinstance(a, Play)}
            if state.current == seat
            else set()
        )
        groups: dict[Illegality, list[str]] = {}
        for card in cards_of(hand):
            if card in legal:
                continue
            why = state.why_illegal(Play(card), seat)
            if why is not None:  # always: the card is not among the legal ones
                groups.setdefault(why, []).append(card_name(card))
        return [
            IllegalCards(
                reason=w.code,
                option=w.option,
                source=w.source,
                suit=w.suit,
                house_rule=w.house_rule,
                cards=cards,
            )
            for w, cards in groups.items()
        ]

    # ------------------------------------------------ help against the computer

    def may_take_back(self, seat: Seat) -> bool:
        """Whether ``seat`` may take back now: help allowed at the table,
        no other human seated (their moves would be undone too), and an
        action of its own to take back in the deal going on
        (:meth:`takeback_index`).  The ``turn`` data's ``takeback``."""
        if not self.help_allowed or self.seats[seat].kind != "human":
            return False
        others = any(
            s != seat and spec.kind == "human" and not spec.left for s, spec in self.seats.items()
        )
        return not others and self.takeback_index(seat) is not None

    def help_info(self) -> HelpInfo:
        """The table's :class:`HelpInfo` (the snapshot's ``help``)."""
        return HelpInfo(
            allowed=self.help_allowed,
            hints=self.hints,
            takebacks=self.takebacks,
            hints_by_seat=self._hints_by_seat(),
        )

    def _hints_by_seat(self) -> dict[str, int]:
        return {s.letter: self.hints_by_seat[s] for s in self.order if s in self.hints_by_seat}

    def _decision(self, seat: Seat, after: int) -> tuple[Seat, int, int, int, int]:
        return (seat, self.match_number, self.deal_number, after, self.takebacks)

    def hint_counted(self, seat: Seat) -> bool:
        """Whether a hint was already counted for ``seat``'s decision now
        (another tab of the same seat asked it): the table then gives the
        hint without a second ``hint`` entry."""
        return self._decision(seat, self.actions_in_deal) in self.hinted

    def takeback_index(self, seat: Seat) -> int | None:
        """The place in the current deal (from 0) of ``seat``'s last action
        of its own (``by: human``: not an automatic cut, pattern or forced
        card, nor a stand-in's), or ``None``: no deal going on (a deal over
        is never reopened: its whole result has been seen), or no such
        action in this deal."""
        if self.waiting != "action" or self.state is None:
            return None
        for i in range(len(self.deal_actions) - 1, -1, -1):
            who, _action, by = self.deal_actions[i]
            if who == seat and by == "human":
                return i
        return None

    def takeback_entry(self, seat: Seat) -> Entry:
        """The ``takeback`` entry of ``seat``'s last card or bid (see
        :meth:`takeback_index`).  Raises :class:`ProtocolError`
        ``takeback_deal_over`` once the deal is over (its result was
        shown: the table waits for the next deal or a rematch),
        ``takeback_none`` when there is none to take back."""
        if self.waiting in ("next", "rematch"):
            raise ProtocolError(
                "takeback_deal_over",
                "the deal is over: its cards can no longer be taken back",
                legal=[],
            )
        index = self.takeback_index(seat)
        if index is None:
            raise ProtocolError(
                "takeback_none", "nothing of yours to take back in this deal", legal=[]
            )
        return Entry("takeback", seat, {"to": index})

    def options_entry(self, seat: Seat, speed: str) -> Entry:
        """The ``options`` entry of ``seat`` setting the computer players'
        ``speed`` (a key of :data:`SPEED_DELAYS`).  Raises
        :class:`ProtocolError` ``bad_message`` for an unknown speed,
        ``options_others`` where another person plays (the pace is
        everyone's)."""
        if speed not in SPEED_DELAYS:
            raise ProtocolError("bad_message", f"unknown speed {speed!r}")
        if any(
            s != seat and spec.kind == "human" and not spec.left for s, spec in self.seats.items()
        ):
            raise ProtocolError(
                "options_others", "the pace is chosen alone only: other people play here"
            )
        return Entry("options", seat, {"speed": speed})

    def _apply_options(self, entry: Entry) -> list[Outgoing]:
        if entry.seat is None or entry.seat not in self.seats:
            raise ValueError("an options entry needs a seat of the table")
        speed = entry.payload["speed"]
        if speed not in SPEED_DELAYS:
            raise ValueError(f"unknown speed {speed!r}")
        self.options = self.options.model_copy(update={"speed": speed})
        event = OptionsEvent(
            match=self.match_number, deal=self.deal_number, seat=entry.seat.letter, speed=speed
        )
        return [self._public(event)]

    def hint_entry(self, seat: Seat) -> Entry:
        """The ``hint`` entry of a hint given to ``seat`` now."""
        return Entry("hint", seat, {"after": self.actions_in_deal})

    def _apply_hint(self, entry: Entry) -> list[Outgoing]:
        if entry.seat is None or entry.seat not in self.seats:
            raise ValueError("a hint entry needs a seat of the table")
        if self.match is None:
            raise ValueError("a hint entry before the match")
        self.hints += 1
        self.hints_by_seat[entry.seat] = self.hints_by_seat.get(entry.seat, 0) + 1
        after = entry.payload.get("after", self.actions_in_deal)
        self.hinted.add(self._decision(entry.seat, int(after)))
        event = HelpEvent(
            match=self.match_number,
            deal=self.deal_number,
            seat=entry.seat.letter,
            hints=self.hints,
            takebacks=self.takebacks,
            hints_by_seat=self._hints_by_seat(),
        )
        return [self._public(event)]

    def _apply_takeback(self, entry: Entry) -> list[Outgoing]:
        seat = entry.seat
        match = self.match
        state = self.state
        if seat is None or match is None or state is None or match.is_over:
            raise ValueError("a takeback needs a deal of a match going on")
        to = entry.payload.get("to")
        if not isinstance(to, int) or not 0 <= to < len(self.deal_actions):
            raise ValueError(f"a takeback to action {to!r} of {len(self.deal_actions)}")
        if self.deal_actions[to][0] != seat:
            raise ValueError(f"action {to} of the deal is not {seat.letter}'s")
        if state.is_terminal:
            # the deal is taken out of the match: its line, its points
            assert self.match_dealer is not None
            rebuilt = Match(self.rules, self.match_dealer)
            for done in match.deals[:-1]:
                rebuilt.add(done.result)
            self.match = match = rebuilt
            self.sheet.pop()
            if self.finished and self.finished[-1][:2] == (self.match_number, self.deal_number):
                self.finished.pop()
        kept, undone = self.deal_actions[:to], self.deal_actions[to:]
        state = match.deal(self.deal_pack)
        for who, action, _by in kept:
            state.apply(action, who)
        self.state = state
        self.deal_actions = kept
        self.actions_in_deal = to
        for who, action, by in undone:
            if isinstance(action, Play):
                self.cards_played[who] -= 1
                if by == "standin":
                    self.standin_cards[who] -= 1
        self.summary = None
        self.agreed = set()
        self.next_deadline = None
        self._entry_action = None
        self.takebacks += 1
        # every stream starts again from its snapshot; its turn is the one
        # sent, the version of an action made against (stale before it)
        turns = self._turn_wire()
        per_seat: dict[StreamKey, WireData] = {}
        for key in self.keys:
            self._last_turn[key] = turns[key]
            event = TakebackEvent(
                match=self.match_number,
                deal=self.deal_number,
                seat=seat.letter,
                hints=self.hints,
                takebacks=self.takebacks,
                snapshot=self.snapshot(key),
            )
            per_seat[key] = WireData.of(event)
        out = self._number(per_seat)
        for key, (v, _) in out.per_seat.items():
            self.turn_versions[key] = v
        self.takeback_versions[seat] = out.per_seat[seat][0]
        return [out]

    # ---------------------------------------------------------------- snapshots

    def fair_data(self) -> FairData | None:
        """The current deal's :class:`FairData` as anyone may know it now:
        its commitment, with the seed and the salt once
        :func:`~rebelote.server.tables.fair.may_reveal` says so."""
        proof, state = self.proof, self.state
        if proof is None or state is None:
            return None
        over = self.match is not None and self.match.is_over
        shown = proof if may_reveal(state, over) else proof.sealed()
        return FairData(commitment=shown.commitment, seed=shown.seed, salt=shown.salt)

    def rules_info(self) -> RulesInfo:
        """The table's :class:`RulesInfo`."""
        return RulesInfo(
            preset=self.rules.preset,
            title=preset_name(self.rules.preset),
            description=describe(self.rules),
            players=self.rules.players,
            target=self.rules.target,
            options=self.rules.options(),
        )

    def match_info(self) -> MatchInfo:
        """The public :class:`MatchInfo` (only once a match started)."""
        match = self.match
        assert match is not None
        winner = None if match.winner is None else self.sides[match.winner]
        dealer = self.state.dealer if self.state is not None else match.dealer
        return MatchInfo(
            number=self.match_number,
            target=self.rules.target,
            sides=list(self.sides),
            totals=self._side_dict(match.totals),
            held_over=match.held_over,
            sheet=list(self.sheet),
            deal=self.deal_number,
            dealer=dealer.letter,
            winner=winner,
        )

    def public(
        self, status: Literal["open", "playing", "finished", "closed"] | None = None
    ) -> TablePublic:
        """What anyone may know of the table (``status``: the table's, when
        it says more than the game's: ``closed``)."""
        return TablePublic(
            id=self.id,
            status=status or self.status,
            rules=self.rules_info(),
            options=self.options,
            seats=[self.seats[s].info() for s in self.order],
            match=None if self.match is None else self.match_info(),
        )

    @property
    def version(self) -> int:
        """The number of messages published so far, all seats together
        (changes with every entry applied)."""
        return sum(self.versions.values())

    def snapshot(self, seat: StreamKey) -> Snapshot:
        """Everything ``seat`` (or a spectator) may know now, built from
        ``observe`` of the deal for that seat (:func:`public_view` for a
        spectator) and the public match data; checked for leaks."""
        view = self.view(seat)
        body = view_json(view)
        if seat is None:
            body["seat"] = None
        snap = Snapshot(
            table=SnapshotTable(
                id=self.id,
                you=None if seat is None else seat.letter,
                seats=[self.seats[s].info() for s in self.order],
                rules=self.rules_info(),
                options=self.options,
                status="closed" if self.closed else self.status,
            ),
            match=self.match_info(),
            view=body,
            last_trick=last_trick(view),
            turn=self.turn(seat),
            deal_summary=self.summary,
            help=self.help_info(),
            fair=self.fair_data(),
        )
        check_visible(snap.model_dump(mode="json", exclude={"table"}), view)
        return snap
