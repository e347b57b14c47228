"""Tests of rebelote.cards (card encoding, text form, CardSet) and rebelote.seats."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebelote.cards import (
    DECK_24,
    DECK_32,
    RANK_MASKS,
    SUIT_MASKS,
    CardParseError,
    CardSet,
    Rank,
    Suit,
    bit,
    card_name,
    cards_of,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from rebelote.seats import (
    SEATS_3,
    SEATS_4,
    Seat,
    next_seat,
    parse_seat,
    previous_seat,
)

FULL_DECK_TEXT = (
    "7S 8S 9S 10S JS QS KS AS "
    "7H 8H 9H 10H JH QH KH AH "
    "7D 8D 9D 10D JD QD KD AD "
    "7C 8C 9C 10C JC QC KC AC"
)

# --- card encoding -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("7S", 0),
        ("8S", 1),
        ("10S", 3),
        ("JS", 4),
        ("AS", 7),
        ("7H", 8),
        ("10H", 11),
        ("JH", 12),
        ("9D", 18),
        ("QD", 21),
        ("7C", 24),
        ("KC", 30),
        ("AC", 31),
    ],
)
def test_card_index(text: str, index: int) -> None:
    assert parse_card(text) == index
    assert card_name(index) == text


def test_make_card_suit_rank() -> None:
    assert make_card(Suit.H, Rank.TEN) == 11
    assert make_card(Suit.S, Rank.JACK) == 4
    assert make_card(3, 7) == 31
    assert suit_of(11) is Suit.H
    assert rank_of(11) is Rank.TEN
    assert suit_of(4) is Suit.S
    assert rank_of(4) is Rank.JACK
    for card in range(32):
        assert make_card(suit_of(card), rank_of(card)) == card


def test_suit_and_rank_text() -> None:
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]
    assert [r.symbol for r in Rank] == ["7", "8", "9", "10", "J", "Q", "K", "A"]
    assert Suit.parse("h") is Suit.H
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("q") is Rank.QUEEN
    with pytest.raises(CardParseError):
        Suit.parse("X")
    with pytest.raises(CardParseError):
        Rank.parse("1")


def test_bit() -> None:
    assert bit(0) == 1
    assert bit(11) == 0x800
    assert bit(31) == 1 << 31


# --- text form -----------------------------------------------------------------


def test_every_card_round_trips() -> None:
    names = [card_name(c) for c in range(32)]
    assert len(set(names)) == 32
    for card in range(32):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card).lower()) == card


def test_parse_card_is_lenient_on_case_and_spaces() -> None:
    assert parse_card(" 10h ") == 11
    assert parse_card("js") == 4


def test_full_deck_text() -> None:
    deck = CardSet(DECK_32)
    assert str(deck) == FULL_DECK_TEXT
    assert str(deck).startswith("7S 8S 9S 10S JS QS KS AS 7H ")
    assert str(deck).endswith(" AC")
    assert CardSet.parse(FULL_DECK_TEXT) == deck
    assert list(deck) == list(range(32))


def test_empty_set_text() -> None:
    assert str(CardSet()) == ""
    assert CardSet.parse("") == CardSet()
    assert repr(CardSet.parse("JS 10H")) == "CardSet.parse('JS 10H')"


def test_parse_cards_keeps_order() -> None:
    assert parse_cards("10H 7S, AC") == [11, 0, 31]
    assert parse_cards(["JS", "9s"]) == [4, 2]
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["11H", "1S", "JX", "", "10", "S", "AA", "10HS", "6C"])
def test_parse_errors(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


def test_parse_error_is_value_error() -> None:
    assert issubclass(CardParseError, ValueError)
    with pytest.raises(ValueError):
        parse_card("11H")
    with pytest.raises(CardParseError):
        CardSet.parse("7S JX")
    with pytest.raises(CardParseError):
        parse_cards("7S 1S")


def test_duplicate_card_raises_value_error() -> None:
    with pytest.raises(ValueError, match="JS"):
        CardSet.parse("JS 7H JS")
    with pytest.raises(ValueError):
        mask_of([4, 4])
    with pytest.raises(ValueError):
        CardSet([0, 1, 0])


def test_mask_out_of_range() -> None:
    with pytest.raises(ValueError):
        CardSet(-1)
    with pytest.raises(ValueError):
        CardSet(1 << 32)


# --- CardSet -------------------------------------------------------------------


def test_cardset_set_operations() -> None:
    a = CardSet.parse("7S JS 10H AC")
    b = CardSet.parse("JS 10H KD")
    assert a | b == CardSet.parse("7S JS 10H KD AC")
    assert a & b == CardSet.parse("JS 10H")
    assert a - b == CardSet.parse("7S AC")
    assert b - a == CardSet.parse("KD")
    assert a ^ b == CardSet.parse("7S KD AC")
    assert str(a | b) == "7S JS 10H KD AC"


def test_cardset_len_contains_bool() -> None:
    a = CardSet.parse("AC 7S JS 10H")
    assert len(a) == 4
    assert len(CardSet()) == 0
    assert len(CardSet(DECK_32)) == 32
    assert parse_card("JS") in a
    assert 11 in a
    assert parse_card("QS") not in a
    assert 32 not in a
    assert -1 not in a
    assert "JS" not in a
    assert a
    assert not CardSet()


def test_cardset_order_and_iteration() -> None:
    a = CardSet.parse("AC 7S JS 10H")
    assert list(a) == [0, 4, 11, 31]
    assert str(a) == "7S JS 10H AC"
    assert a.mask == 1 | 1 << 4 | 1 << 11 | 1 << 31
    assert CardSet([31, 0]) == CardSet(1 | 1 << 31)


def test_cardset_subset() -> None:
    small = CardSet.parse("JS 10H")
    big = CardSet.parse("7S JS 10H AC")
    assert small <= big
    assert big <= big
    assert not big <= small
    assert CardSet() <= small
    assert small <= CardSet(DECK_32)


def test_cardset_hash_eq() -> None:
    a = CardSet.parse("JS 10H")
    b = CardSet.parse("10h js")
    assert a == b
    assert hash(a) == hash(b)
    assert a != CardSet.parse("JS")
    assert a != a.mask
    assert len({a, b, CardSet([4, 11])}) == 1
    assert {a: 1}[b] == 1


def test_cards_of() -> None:
    assert list(cards_of(0)) == []
    assert list(cards_of(0b1010)) == [1, 3]
    assert list(cards_of(DECK_32)) == list(range(32))


# --- masks and decks -------------------------------------------------------------


def test_suit_masks() -> None:
    assert len(SUIT_MASKS) == 4
    assert [m.bit_count() for m in SUIT_MASKS] == [8, 8, 8, 8]
    assert SUIT_MASKS[Suit.S] == 0xFF
    assert SUIT_MASKS[Suit.C] == 0xFF000000
    assert str(CardSet(SUIT_MASKS[Suit.H])) == "7H 8H 9H 10H JH QH KH AH"
    assert SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3] == DECK_32
    for card in range(32):
        assert SUIT_MASKS[suit_of(card)] >> card & 1


def test_rank_masks() -> None:
    assert len(RANK_MASKS) == 8
    assert [m.bit_count() for m in RANK_MASKS] == [4] * 8
    assert str(CardSet(RANK_MASKS[Rank.JACK])) == "JS JH JD JC"
    total = 0
    for m in RANK_MASKS:
        assert total & m == 0
        total |= m
    assert total == DECK_32
    for card in range(32):
        assert RANK_MASKS[rank_of(card)] >> card & 1


def test_deck_32() -> None:
    assert DECK_32 == 0xFFFFFFFF
    assert DECK_32.bit_count() == 32


def test_deck_24() -> None:
    deck = CardSet(DECK_24)
    assert len(deck) == 24
    assert DECK_24.bit_count() == 24
    assert all(rank_of(c) not in (Rank.SEVEN, Rank.EIGHT) for c in deck)
    assert parse_card("7S") not in deck
    assert parse_card("8C") not in deck
    assert parse_card("9S") in deck
    assert str(CardSet(DECK_24 & SUIT_MASKS[Suit.D])) == "9D 10D JD QD KD AD"
    assert DECK_24 | RANK_MASKS[Rank.SEVEN] | RANK_MASKS[Rank.EIGHT] == DECK_32


# --- seats ---------------------------------------------------------------------


def test_seat_values() -> None:
    assert [s.letter for s in Seat] == ["N", "W", "S", "E"]
    assert SEATS_4 == (Seat.N, Seat.W, Seat.S, Seat.E)
    assert SEATS_3 == (Seat.W, Seat.S, Seat.E)


def test_next_seat_four_players() -> None:
    assert next_seat(Seat.N) is Seat.W
    assert next_seat(Seat.W) is Seat.S
    assert next_seat(Seat.S) is Seat.E
    assert next_seat(Seat.E) is Seat.N


def test_next_seat_three_players_skips_north() -> None:
    assert next_seat(Seat.W, 3) is Seat.S
    assert next_seat(Seat.S, 3) is Seat.E
    assert next_seat(Seat.E, 3) is Seat.W
    for seat in SEATS_3:
        assert next_seat(seat, players=3) is not Seat.N


def test_previous_seat() -> None:
    assert previous_seat(Seat.N) is Seat.E
    assert previous_seat(Seat.W) is Seat.N
    assert previous_seat(Seat.S) is Seat.W
    assert previous_seat(Seat.E) is Seat.S
    assert previous_seat(Seat.W, 3) is Seat.E
    assert previous_seat(Seat.S, 3) is Seat.W
    assert previous_seat(Seat.E, 3) is Seat.S
    for seat in SEATS_4:
        assert previous_seat(next_seat(seat)) is seat
    for seat in SEATS_3:
        assert previous_seat(next_seat(seat, 3), 3) is seat


def test_partner() -> None:
    assert Seat.N.partner is Seat.S
    assert Seat.S.partner is Seat.N
    assert Seat.E.partner is Seat.W
    assert Seat.W.partner is Seat.E


def test_parse_seat() -> None:
    assert parse_seat("N") is Seat.N
    assert parse_seat(" e ") is Seat.E
    assert [parse_seat(s.letter) for s in Seat] == list(Seat)


@pytest.mark.parametrize("text", ["X", "", "NS", "north", "1"])
def test_parse_seat_errors(text: str) -> None:
    with pytest.raises(ValueError):
        parse_seat(text)


# --- property ------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=DECK_32))
def test_cardset_text_round_trip(mask: int) -> None:
    cards = CardSet(mask)
    text = str(cards)
    assert CardSet.parse(text) == cards
    assert CardSet.parse(text).mask == mask
    assert len(text.split()) == len(cards) == mask.bit_count()
