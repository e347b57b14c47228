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
  needed) or :class:`IllegalActionError` carrying ``why_illegal(x)``.

Sources: the notation of RULES.md ("Bid notation"); seed 001 for the belote
said or not ("sans annonce la belote n'est pas comptabilisée").
"""

from __future__ import annotations

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
)
from rebelote.auction import COINCHE_VALUES
from rebelote.cards import DECK_24, DECK_32, cards_of, parse_card
from rebelote.legality import IllegalReason
from rebelote.rules import PRESETS, preset
from rebelote.seats import seats_of
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
