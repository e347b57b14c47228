"""One notation: every action has one text form that reads back to the same
action in the context of the deal, and legality answered three ways that
agree (``is_legal``, ``in state.legal``, ``why_illegal``).

Over random deals of every preset (hypothesis picks the seeds), at every
position:

- every legal action ``a``: ``state.parse_action(a.text) == a`` (also written
  in other cases and spacing), ``state.is_legal(a)``, ``a in state.legal``,
  ``state.why_illegal(a) is None``, and for any other seat
  ``why_illegal(a, seat)`` is ``not_your_turn``;
- every action of a generated set (each card with each belote flag, every
  bid of every auction, cuts 0..33, both patterns, declarations held and not
  held): ``is_legal(x) == (x in state.legal_actions())``,
  ``why_illegal(x) is None`` exactly when legal, and ``parse_action(x.text)``
  returns ``x``, or raises :class:`AmbiguousActionError` (the belote choice
  needed) or :class:`IllegalActionError` carrying ``why_illegal(x)``; and
  ``apply`` takes each card exactly when it is legal, belote word included
  (so that every action it accepts replays from its text), refusing the
  others as ``parse_action`` refuses their texts.

Sources: the notation of RULES.md ("Bid notation"); seed 001 for the belote
said or not ("sans annonce la belote n'est pas comptabilisée").
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.actions import (
    CAPOT_VALUE,
    Action,
    ActionError,
    Bid,
    ChoosePattern,
    Cut,
    Declare,
    InvalidActionError,
    Play,
    parse_bid,
)
from rebelote.auction import COINCHE_VALUES
from rebelote.cards import DECK_24, DECK_32, cards_of, parse_card
from rebelote.legality import Illegality, IllegalReason
from rebelote.record import new_deal_record, replay_deal
from rebelote.rules import PRESETS, preset
from rebelote.seats import Seat, seats_of
from rebelote.state import (
    AmbiguousActionError,
    IllegalActionError,
    Phase,
    State,
)
from rebelote.trump import Strain

PRESET_NAMES = sorted(PRESETS)

ALL_BIDS: list[Bid] = [
    Bid("pass"),
    Bid("take"),
    Bid("coinche"),
    Bid("surcoinche"),
    *(Bid("strain", s) for s in Strain),
    *(Bid("contract", s, v) for v in COINCHE_VALUES for s in Strain),
]
"""Every bid of every auction (70)."""


def new_deal(name: str, seed: int) -> tuple[State, random.Random]:
    """A deal of preset ``name`` from the cut, its pack and dealer drawn from
    ``seed``, and the generator that plays it."""
    rules = preset(name)
    rng = random.Random(seed)
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    seats = seats_of(rules.players)
    return State.new(rules, rng.choice(seats), pack), rng


def candidates(state: State) -> list[Action]:
    """The generated set: legal or not, every action well formed."""
    out: list[Action] = [
        Play(c, flag)
        for c in cards_of(DECK_24 if state.players == 3 else DECK_32)
        for flag in (None, True, False)
    ]
    out += ALL_BIDS
    out += [Cut(n) for n in range(34)]
    out += [ChoosePattern("3-2"), ChoosePattern("2-3"), Declare(())]
    for seat, found in state.found.items():
        # Each seat's own declarations: held by the player to declare only.
        out += [Declare((d,)) for d in found]
        if seat == state.current and len(found) > 1:
            out.append(Declare(tuple(found)))
    return out


def variants(text: str) -> list[str]:
    """The same text in other cases and spacing."""
    return [text.upper(), text.lower(), "  " + text.replace(" ", "   ") + " \t"]


def check_position(state: State, *, generated: bool) -> None:
    """The checks of the module docstring at one position."""
    legal = state.legal_actions()
    assert len(state.legal) == len(legal) and bool(state.legal) == bool(legal)
    assert list(state.legal) == legal
    for a in legal:
        assert state.parse_action(a.text) == a, a.text
        for text in variants(a.text):
            assert state.parse_action(text) == a, text
        assert state.is_legal(a) and a in state.legal
        assert state.why_illegal(a) is None
        for seat in state.seats:
            if seat != state.current:
                assert not state.is_legal(a, seat)
                why = state.why_illegal(a, seat)
                assert why is not None and why.reason is IllegalReason.NOT_YOUR_TURN
    if not generated:
        return
    for x in candidates(state):
        ok = state.is_legal(x)
        assert ok == (x in legal), x
        assert (x in state.legal) == ok
        why = state.why_illegal(x)
        assert (why is None) == ok, (x, why)
        if why is None:
            assert state.parse_action(x.text) == x
        elif why.reason is IllegalReason.BELOTE_CHOICE_NEEDED:
            with pytest.raises(AmbiguousActionError) as amb:
                state.parse_action(x.text)
            assert isinstance(x, Play)
            assert amb.value.candidates == [Play(x.card, True), Play(x.card, False)]
        else:
            with pytest.raises(IllegalActionError) as info:
                state.parse_action(x.text)
            assert info.value.reason == why, (x, why, info.value.reason)
            assert info.value.legal == [a.text for a in legal]
        if isinstance(x, Play):
            check_apply(state, x, why)


def check_apply(state: State, play: Play, why: Illegality | None) -> None:
    """``apply`` takes ``play`` exactly when it is legal (belote word
    included), on a copy: accepted, its text reads back to it before; else
    refused as ``parse_action`` refuses its text, nothing changed."""
    trial = state.copy()
    if why is None:
        assert trial.parse_action(play.text) == play
        trial.apply(play)
        return
    before = (trial.current, list(trial.hands), list(trial.trick_cards), len(trial.tricks))
    if why.reason is IllegalReason.BELOTE_CHOICE_NEEDED:
        with pytest.raises(AmbiguousActionError) as amb:
            trial.apply(play)
        assert amb.value.candidates == [Play(play.card, True), Play(play.card, False)]
    else:
        with pytest.raises(IllegalActionError) as info:
            trial.apply(play)
        assert info.value.reason == why
    assert (trial.current, trial.hands, trial.trick_cards, len(trial.tricks)) == before


def play_out(state: State, rng: random.Random, *, generated: bool) -> int:
    """Play the deal by random legal actions, checking every position;
    returns the number of positions checked."""
    count = 0
    while True:
        check_position(state, generated=generated)
        count += 1
        if state.is_terminal:
            return count
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_reads_back(name: str, seed: int) -> None:
    """Every legal action of every position of 25 random deals per preset:
    its text reads back to it, and the three legality answers agree."""
    state, rng = new_deal(name, seed)
    assert play_out(state, rng, generated=False) >= 3


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_generated_actions_legality_agrees(name: str, seed: int) -> None:
    """Every generated action at every position of 4 random deals per preset:
    ``is_legal``, ``in``, ``why_illegal`` and ``parse_action`` agree."""
    state, rng = new_deal(name, seed)
    assert play_out(state, rng, generated=True) >= 3


def test_belote_choice_positions_read_back() -> None:
    """Seed 001's belote choice, met in random deals: at every position
    where it is open, both texts (``QH belote``, ``QH no-belote``) read back
    and the bare card is ambiguous.  Seeds 0..199 of seed001 meet it at
    least 20 times."""
    met = 0
    for seed in range(200):
        state, rng = new_deal("seed001", seed)
        while not state.is_terminal:
            doubled = [a for a in state.legal_actions() if isinstance(a, Play) and a.belote]
            for a in doubled:
                met += 1
                check_position(state, generated=True)
                card = a.text.split()[0]
                assert state.parse_action(card + " belote") == Play(a.card, True)
                assert state.parse_action(card + " NO-BELOTE") == Play(a.card, False)
                with pytest.raises(AmbiguousActionError):
                    state.parse_action(card)
            state.apply(rng.choice(state.legal_actions()))
    assert met >= 20


@pytest.mark.parametrize("name", ["ffb", "seed001", "seed000-tout-atout"])
def test_every_accepted_play_replays(name: str) -> None:
    """Random deals where each card is played with whatever belote word
    ``apply`` accepts (each of the three tried): the record written from
    the texts of the actions applied replays to exactly the same deal (its
    tricks, belotes and result).  Where belote is automatic, ``QH belote``
    is refused; where it must be said, the bare ``QH`` is."""
    words = 0
    for seed in range(40):
        state, rng = new_deal(name, seed)
        pack = list(state.pack)
        done: list[tuple[Seat, str]] = []
        while not state.is_terminal:
            seat = state.current
            assert seat is not None
            action = rng.choice(state.legal_actions())
            if isinstance(action, Play):
                accepted = []
                for flag in (None, True, False):
                    trial = state.copy()
                    try:
                        trial.apply(Play(action.card, flag))
                    except (IllegalActionError, AmbiguousActionError):
                        continue
                    accepted.append(Play(action.card, flag))
                legal = [a for a in state.legal_actions() if isinstance(a, Play)]
                assert accepted == [a for a in legal if a.card == action.card]
                action = rng.choice(accepted)
                words += action.belote is not None
            state.apply(action, seat)
            done.append((seat, action.text))
        record = new_deal_record(state.rules, state.dealer, done, pack=pack)
        replayed = replay_deal(json.loads(json.dumps(record))).state
        assert [a for _, a in done] == [a["action"] for a in record["actions"]]
        assert replayed.tricks == state.tricks
        assert replayed.belotes == state.belotes
        assert replayed.belote_said == state.belote_said
        assert replayed.result == state.result
    assert words == {"ffb": 0, "seed001": 8, "seed000-tout-atout": 0}[name]


def test_apply_parsed_trusts_only_what_parse_action_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``apply_parsed`` applies, unchecked, the action ``parse_action`` has
    just read in the same position (or a candidate of its
    ``AmbiguousActionError``); any other action, or the same once the deal
    has moved, or for another seat, goes through the checked ``apply``."""
    checked: list[Action] = []
    real_apply = State.apply

    def apply(self: State, action: Action, seat: Seat | None = None, **kw: bool) -> object:
        checked.append(action)
        return real_apply(self, action, seat, **kw)

    monkeypatch.setattr(State, "apply", apply)
    state, rng = new_deal("ffb", 5)
    cutter = state.current
    assert cutter is not None
    cut = state.parse_action("cut 12", cutter)
    assert [e.kind for e in state.apply_parsed(cut, cutter)] == ["cut"]
    pattern = state.parse_action("deal 2-3", state.dealer)
    assert [e.kind for e in state.apply_parsed(pattern, state.dealer)][:2] == ["pattern", "dealt"]
    assert checked == []  # trusted: checked once, by parse_action
    bidder = state.current
    assert bidder is not None and state.phase is Phase.BIDDING
    parsed = state.parse_action("pass", bidder)
    state.apply(Bid("pass"), bidder)  # the deal moves on
    assert checked == [Bid("pass")]
    nxt = state.current
    assert nxt is not None and nxt != bidder
    with pytest.raises(IllegalActionError) as info:
        state.apply_parsed(parsed, bidder)  # not trusted any more: checked, refused
    assert info.value.reason is not None
    assert info.value.reason.reason is IllegalReason.NOT_YOUR_TURN
    assert checked == [Bid("pass"), Bid("pass")]
    take = state.parse_action("take", nxt)
    with pytest.raises(IllegalActionError):
        state.apply_parsed(take, bidder)  # another seat: checked
    assert len(checked) == 3
    state.apply_parsed(Bid("pass"), nxt)  # not the action read: checked, legal
    assert checked[3:] == [Bid("pass")]
    # seed 001: the two candidates of an ambiguous card are checked already
    for seed in range(200):
        state, rng = new_deal("seed001", seed)
        while not state.is_terminal:
            choice = [a for a in state.legal_actions() if isinstance(a, Play) and a.belote]
            if choice:
                card = choice[0].text.split()[0]
                with pytest.raises(AmbiguousActionError):
                    state.parse_action(card)
                checked.clear()
                events = state.apply_parsed(Play(choice[0].card, False))
                assert checked == [] and "belote_said" not in [e.kind for e in events]
                return
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no belote choice in 200 deals")


# ----------------------------------------------------------------- texts


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Cut(12), "cut 12"),
        (Cut(0), "cut 0"),
        (ChoosePattern("2-3"), "deal 2-3"),
        (Bid("pass"), "pass"),
        (Bid("take"), "take"),
        (Bid("strain", Strain.H), "H"),
        (Bid("strain", Strain.TA), "TA"),
        (Bid("contract", Strain.S, 80), "80S"),
        (Bid("contract", Strain.SA, 160), "160SA"),
        (Bid("contract", Strain.D, CAPOT_VALUE), "capotD"),
        (Bid("coinche"), "coinche"),
        (Bid("surcoinche"), "surcoinche"),
        (Declare(()), "declare none"),
        (Play(parse_card("JS")), "JS"),
        (Play(parse_card("10H")), "10H"),
        (Play(parse_card("QH"), True), "QH belote"),
        (Play(parse_card("KH"), False), "KH no-belote"),
    ],
)
def test_text_forms(action: Action, text: str) -> None:
    """One text per action (RULES.md "Bid notation"; the belote word with a
    card where saying it is the player's choice, seed 001)."""
    assert action.text == text


def test_play_flags_have_three_texts() -> None:
    """``Play.text`` keeps the belote flag: three actions, three texts, each
    read back by ``Play.parse``."""
    qs = parse_card("QS")
    plays = [Play(qs), Play(qs, True), Play(qs, False)]
    assert [p.text for p in plays] == ["QS", "QS belote", "QS no-belote"]
    assert [Play.parse(p.text) for p in plays] == plays
    assert Play.parse("  qs   Belote ") == Play(qs, True)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "hello",
        "10",
        "JZ",
        "85H",
        "170S",
        "cut",
        "cut x",
        "cut -1",
        "cut 1 2",
        "deal 4-4",
        "deal",
        "declare",
        "declare sixte",
        "declare tierce-ZZ",
        "declare carre-KH",
        "QH maybe",
        "QH belote now",
        "pass now",
    ],
)
def test_invalid_texts(text: str) -> None:
    """A text that is no action of the game raises InvalidActionError (a
    ValueError), whatever the position, and changes nothing."""
    state, _ = new_deal("ffb", 1)
    before = (state.phase, state.current, list(state.pack))
    with pytest.raises(InvalidActionError) as info:
        state.parse_action(text)
    assert info.value.text == text
    assert isinstance(info.value, ActionError) and isinstance(info.value, ValueError)
    assert not isinstance(info.value, (IllegalActionError, AmbiguousActionError))
    assert (state.phase, state.current, list(state.pack)) == before


CUT_HELP = (
    "(cut N: the number of cards lifted, in digits 0-9 without leading zeros, e.g. cut 12, "
    "or cut 0 to decline)"
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "cut " + "9" * 5000,
            f"not a cut: {'cut ' + '9' * 36!r}… (5004 characters) {CUT_HELP}",
        ),
        ("cut 012", f"not a cut: 'cut 012' {CUT_HELP}"),
        ("cut 00", f"not a cut: 'cut 00' {CUT_HELP}"),
        ("cut 1000", f"not a cut: 'cut 1000' {CUT_HELP}"),
        ("cut \u0661\u0662", f"not a cut: 'cut \u0661\u0662' {CUT_HELP}"),
        ("cut \uff11\uff12", f"not a cut: 'cut \uff11\uff12' {CUT_HELP}"),
        (
            "x" * 5000,
            f"not an action: {'x' * 40!r}… (5000 characters) (a card like JS or 'QH belote', "
            "a bid like pass, take, H, TA, 80H, capotS, coinche, or 'cut 12', 'deal 3-2', "
            "'declare tierce-KH')",
        ),
    ],
)
def test_unreadable_cuts_and_long_texts(text: str, message: str) -> None:
    """A cut's packet is read as ``cut N`` writes it, ASCII digits with no
    leading zero: any other (a number of 5000 digits, beyond Python's
    int-string limit, among them) is no action, the core's own
    :class:`InvalidActionError`, whose message quotes a long text's start
    and length only."""
    state, _ = new_deal("ffb", 1)
    assert state.phase is Phase.CUT
    with pytest.raises(InvalidActionError) as info:
        state.parse_action(text)
    assert str(info.value) == message
    assert info.value.text == text
    assert state.parse_action("cut 12") == Cut(12)
    with pytest.raises(IllegalActionError) as illegal:
        state.parse_action("cut 100")  # a number, out of range
    assert illegal.value.reason is not None
    assert illegal.value.reason.reason is IllegalReason.CUT_OUT_OF_RANGE


NOT_AN_ACTION = (
    "(a card like JS or 'QH belote', a bid like pass, take, H, TA, 80H, capotS, coinche, "
    "or 'cut 12', 'deal 3-2', 'declare tierce-KH')"
)


@pytest.mark.parametrize("text", ["", "   ", "take belote", "pass pass", "zz"])
def test_words_that_are_no_card_are_not_an_action(text: str) -> None:
    """An empty text, or words that begin with no card (``take belote``,
    ``pass pass``), are "not an action", not "not a card" (REVIEW15b)."""
    state, _ = new_deal("ffb", 1)
    with pytest.raises(InvalidActionError) as info:
        state.parse_action(text)
    assert str(info.value) == f"not an action: {text!r} {NOT_AN_ACTION}"


BID_HELP = "(pass, take, S/H/D/C, TA, SA, 80H..160H, capotH, coinche, surcoinche)"


@pytest.mark.parametrize(
    "text",
    ["\u0668\u0660H", "080H", "0080H", "\uff18\uff10H", "80\u0660H", "1000H", "0100S", "\uff190TA"],
)
def test_contract_values_in_ascii_digits_only(text: str) -> None:
    """A contract's value is read as ``Bid.text`` writes it, ASCII digits
    with no leading zero: 80 in Arabic-Indic digits, ``080H`` (a leading
    zero), full-width digits are no bid; ``parse_action`` in a
    coinche auction refuses them as no action."""
    with pytest.raises(ValueError) as info:
        parse_bid(text)
    assert str(info.value) == f"not a bid: {text!r} {BID_HELP}"
    state, _ = new_deal("coinche", 3)
    state.apply(state.legal_actions()[0])  # the cut
    while state.phase is not Phase.BIDDING:
        state.apply(state.legal_actions()[0])
    assert state.parse_action("80H") == Bid("contract", Strain.H, 80)
    with pytest.raises(InvalidActionError) as invalid:
        state.parse_action(text)
    assert invalid.value.text == text


@pytest.mark.parametrize(
    ("text", "bid"),
    [
        ("80H", Bid("contract", Strain.H, 80)),
        ("100s", Bid("contract", Strain.S, 100)),
        (" 160sa ", Bid("contract", Strain.SA, 160)),
        ("90TA", Bid("contract", Strain.TA, 90)),
        ("capotD", Bid("contract", Strain.D, CAPOT_VALUE)),
    ],
)
def test_contract_values_read(text: str, bid: Bid) -> None:
    """The canonical values read (case and spaces free), and write back."""
    assert parse_bid(text) == bid
    assert parse_bid(bid.text) == bid


def test_invalid_card_texts() -> None:
    """``Play.parse`` refuses a text that is no card, or a card with another
    word than ``belote`` / ``no-belote``."""
    for text in ("", "ZZ", "QH yes", "QH belote no"):
        with pytest.raises(InvalidActionError):
            Play.parse(text)


def test_error_types_are_distinct_value_errors() -> None:
    """Like python-chess's InvalidMoveError / IllegalMoveError /
    AmbiguousMoveError: three ValueError subclasses, none a kind of another."""
    kinds = (InvalidActionError, IllegalActionError, AmbiguousActionError)
    for kind in kinds:
        assert issubclass(kind, ActionError) and issubclass(kind, ValueError)
        assert [k for k in kinds if issubclass(kind, k)] == [kind]


def phase_of(state: State) -> Phase:
    """The phase (a function, so that mypy does not narrow it between
    actions)."""
    return state.phase


def test_cut_and_pattern_read_in_context() -> None:
    """The cut and the dealer's pattern read back (seed 000: optional cut,
    pattern 3-2 or 2-3)."""
    state, _ = new_deal("seed000", 7)
    assert phase_of(state) is Phase.CUT
    assert state.parse_action("cut 0") == Cut(0)
    assert state.parse_action("CUT 16") == Cut(16)
    state.apply(Cut(16))
    assert phase_of(state) is Phase.PATTERN
    assert state.parse_action("deal 2-3") == ChoosePattern("2-3")
    with pytest.raises(IllegalActionError) as info:
        state.parse_action("cut 4")
    assert info.value.reason is not None
    assert info.value.reason.reason is IllegalReason.WRONG_PHASE


def test_parse_action_with_seat() -> None:
    """``parse_action(text, seat)`` reads for ``seat``: another seat's turn is
    refused with ``not_your_turn``."""
    state, _ = new_deal("ffb", 3)
    cutter = state.current
    assert cutter is not None
    assert state.parse_action("cut 5", cutter) == Cut(5)
    other = next(s for s in state.seats if s != cutter)
    with pytest.raises(IllegalActionError) as info:
        state.parse_action("cut 5", other)
    assert info.value.reason is not None
    assert info.value.reason.reason is IllegalReason.NOT_YOUR_TURN
    assert info.value.seat == cutter
