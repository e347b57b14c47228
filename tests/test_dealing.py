"""The deal, card by card: cut, first distribution, turned card, completion.

A fixed pack (the 32 cards in index order, 7S on top), a fixed cut and a fixed
pattern must give exact hands.  Sources:

- seed 001: "le joueur situé à gauche du joueur donneur doit effectuer la coupe
  du jeu ... chacun devant contenir au moins deux cartes"; "Après avoir regroupé
  le jeu en inversant l'ordre de coupe, le donneur distribue les cartes dans le
  sens inverse des aiguilles d'une montre en commençant par son voisin de
  droite ... trois cartes ... puis deux cartes ... ou l'inverse 2 puis 3";
  "le donneur retourne la carte du dessus du tas non encore distribué";
  "le joueur ayant pris la carte recevant deux cartes, les autres trois cartes".
- seed 000: "Le preneur prend la carte retournée, et recevra donc seulement 2
  cartes à son tour contre 3 pour les autres."
- seed 002: "Chaque joueur reçoit 3 cartes puis encore 2 cartes" (3-2 only).
- RULES.md "Three players": 24 cards, 3 + 2, turned card, 8 cards each.
- RULES.md "Coinche": all 32 cards are dealt (3-3-2 or similar), no card turned.
"""

from __future__ import annotations

import pytest

from rebelote.actions import Bid, ChoosePattern, Cut, parse_bid
from rebelote.cards import DECK_24, DECK_32, CardSet, card_name, cards_of, parse_card
from rebelote.rules import Rules, RulesError, preset
from rebelote.seats import Seat
from rebelote.state import DealError, Phase, State
from rebelote.trump import Strain

PACK: list[int] = list(cards_of(DECK_32))
"""7S 8S 9S 10S JS QS KS AS 7H ... AC: 7S is the top card."""

PACK_24: list[int] = list(cards_of(DECK_24))
"""9S 10S JS QS KS AS 9H ... AC: the 24-card pack, 9S on top."""

# After Cut(10) of PACK the deck (top first) is:
#  0 9H  1 10H  2 JH  3 QH  4 KH  5 AH  6 7D  7 8D  8 9D  9 10D 10 JD 11 QD
# 12 KD 13 AD 14 7C 15 8C 16 9C 17 10C 18 JC 19 QC 20 KC 21 AC 22 7S 23 8S
# 24 9S 25 10S 26 JS 27 QS 28 KS 29 AS 30 7H 31 8H


def turn(state: State) -> Seat | None:
    """Who is to act (a function, so that mypy does not narrow it between
    actions)."""
    return state.current


def hand(state: State, seat: Seat) -> CardSet:
    """The cards a seat holds now."""
    return CardSet(state.hands[seat])


def cut_and_deal(rules: Rules, dealer: Seat, packet: int, pattern: str | None) -> State:
    """State.new on the fixed pack, the cut, then the pattern (if asked)."""
    pack = PACK_24 if rules.players == 3 else PACK
    state = State.new(rules, dealer, pack)
    state.apply(Cut(packet))
    if pattern is not None:
        state.apply(ChoosePattern(pattern))
    return state


def test_cutter_is_dealer_left_seed001() -> None:
    """Seed 001: "le joueur situé à gauche du joueur donneur doit effectuer la
    coupe": the dealer's left is the seat before him in playing order."""
    assert State.new(preset("ffb"), Seat.N, PACK).current == Seat.E
    assert State.new(preset("ffb"), Seat.W, PACK).current == Seat.N
    assert State.new(preset("ffb"), Seat.S, PACK).current == Seat.W
    assert State.new(preset("ffb"), Seat.E, PACK).current == Seat.S


def test_cut_puts_top_packet_under_seed001() -> None:
    """Seed 001: "Après avoir regroupé le jeu en inversant l'ordre de coupe":
    the top ``n`` cards go under the rest."""
    state = State.new(preset("ffb"), Seat.N, PACK)
    state.apply(Cut(10))
    assert [card_name(c) for c in state.deck[:3]] == ["9H", "10H", "JH"]
    assert [card_name(c) for c in state.deck[-3:]] == ["AS", "7H", "8H"]
    assert state.deck == PACK[10:] + PACK[:10]
    assert state.phase == Phase.PATTERN
    assert turn(state) == Seat.N  # the dealer chooses 3-2 or 2-3
    assert state.legal_actions() == [ChoosePattern("3-2"), ChoosePattern("2-3")]


def test_first_distribution_3_2_from_dealer_right_seed001() -> None:
    """Seed 001: "en commençant par son voisin de droite ... trois cartes ...
    puis deux cartes", then "le donneur retourne la carte du dessus du tas".
    Dealer N: W (his right) is served first, then S, E, N."""
    state = cut_and_deal(preset("ffb"), Seat.N, 10, "3-2")
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH 7C 8C")
    assert hand(state, Seat.E) == CardSet.parse("7D 8D 9D 9C 10C")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD JC QC")
    assert state.turned == parse_card("KC")
    assert state.phase == Phase.BIDDING
    assert turn(state) == Seat.W  # speaks first: the dealer's right


def test_first_distribution_2_3_seed001() -> None:
    """Seed 001: "ou l'inverse 2 puis 3"; seed 000: "soit 2 puis 3, soit 3
    puis 2".  Two cards each from the dealer's right, then three each."""
    state = cut_and_deal(preset("ffb"), Seat.N, 10, "2-3")
    assert hand(state, Seat.W) == CardSet.parse("9H 10H 9D 10D JD")
    assert hand(state, Seat.S) == CardSet.parse("JH QH QD KD AD")
    assert hand(state, Seat.E) == CardSet.parse("KH AH 7C 8C 9C")
    assert hand(state, Seat.N) == CardSet.parse("7D 8D 10C JC QC")
    assert state.turned == parse_card("KC")


def test_first_distribution_dealer_east_starts_with_north() -> None:
    """Seed 001: the dealer's right is served first; for dealer E that is N
    (counter-clockwise order N W S E)."""
    state = cut_and_deal(preset("ffb"), Seat.E, 10, "3-2")
    assert hand(state, Seat.N) == CardSet.parse("9H 10H JH KD AD")
    assert hand(state, Seat.W) == CardSet.parse("QH KH AH 7C 8C")
    assert hand(state, Seat.S) == CardSet.parse("7D 8D 9D 9C 10C")
    assert hand(state, Seat.E) == CardSet.parse("10D JD QD JC QC")
    assert turn(state) == Seat.N


def test_completion_taker_gets_turned_card_and_two_seed000() -> None:
    """Seed 000: "Le preneur prend la carte retournée, et recevra donc seulement
    2 cartes à son tour contre 3 pour les autres."  S takes; the completion
    starts again at the dealer's right (W)."""
    state = cut_and_deal(preset("ffb"), Seat.N, 10, "3-2")
    state.apply(parse_bid("pass"))
    state.apply(parse_bid("take"))
    assert state.contract is not None
    assert (state.contract.taker, state.contract.strain) == (Seat.S, Strain.C)
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD AC 7S 8S")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH 7C 8C KC 9S 10S")
    assert hand(state, Seat.E) == CardSet.parse("7D 8D 9D 9C 10C JS QS KS")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD JC QC AS 7H 8H")
    for seat in (Seat.N, Seat.W, Seat.S, Seat.E):
        assert len(hand(state, seat)) == 8


def test_completion_dealer_takes_in_round_two_seed001() -> None:
    """Seed 001: in round two the taker "récupère alors la carte retournée et on
    procède à la deuxième phase de distribution".  The dealer N names hearts:
    W, S, E get 3 each, N (served last) the turned KC and 2."""
    state = cut_and_deal(preset("ffb"), Seat.N, 10, "3-2")
    for _ in range(7):
        state.apply(Bid("pass"))
    assert turn(state) == Seat.N
    state.apply(parse_bid("H"))
    assert state.contract is not None
    assert (state.contract.taker, state.contract.strain) == (Seat.N, Strain.H)
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD AC 7S 8S")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH 7C 8C 9S 10S JS")
    assert hand(state, Seat.E) == CardSet.parse("7D 8D 9D 9C 10C QS KS AS")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD JC QC KC 7H 8H")


def test_completion_after_2_3_first_taker_seed001() -> None:
    """Seed 001, pattern 2-3, W (first to speak) takes: W gets KC + 2."""
    state = cut_and_deal(preset("ffb"), Seat.N, 10, "2-3")
    state.apply(parse_bid("take"))
    assert hand(state, Seat.W) == CardSet.parse("9H 10H 9D 10D JD KC AC 7S")
    assert hand(state, Seat.S) == CardSet.parse("JH QH QD KD AD 8S 9S 10S")
    assert hand(state, Seat.E) == CardSet.parse("KH AH 7C 8C 9C JS QS KS")
    assert hand(state, Seat.N) == CardSet.parse("7D 8D 10C JC QC AS 7H 8H")


def test_only_pattern_3_2_deals_at_once_seed002() -> None:
    """Seed 002: "Chaque joueur reçoit 3 cartes puis encore 2 cartes": the only
    pattern, so no choice: the cut is followed by the 3-2 deal at once."""
    state = cut_and_deal(preset("seed002"), Seat.N, 10, None)
    assert state.pattern == "3-2"
    assert state.phase == Phase.BIDDING
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD JC QC")
    assert state.turned == parse_card("KC")


def test_coinche_deals_all_32_cards_3_2_3_no_turned_card() -> None:
    """RULES.md "Coinche": "All 32 cards are dealt (3-3-2 or similar); no card
    is turned."  Pattern 3-2 then 3 each, from the dealer's right."""
    state = cut_and_deal(preset("coinche"), Seat.N, 10, "3-2")
    assert state.turned is None
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD KC AC 7S")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH 7C 8C 8S 9S 10S")
    assert hand(state, Seat.E) == CardSet.parse("7D 8D 9D 9C 10C JS QS KS")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD JC QC AS 7H 8H")
    assert state.phase == Phase.BIDDING
    assert turn(state) == Seat.W


def test_coinche_deals_3_3_2_ffb_coinche() -> None:
    """FFB coinche 2015, 3.4: the dealer deals 8 cards "de l'une des manières
    suivantes : 3 cartes puis 2 puis 3 / 3 cartes puis 3 puis 2 / 2 cartes
    puis 3 puis 3".  The same cut pack as the 3-2 test, dealt 3, 3 then 2
    from the dealer's right."""
    rules = preset("coinche").replace(patterns=("3-2", "3-3-2", "2-3"))
    state = State.new(rules, Seat.N, PACK)
    state.apply(Cut(10))
    assert [a.text for a in state.legal_actions()] == ["deal 3-2", "deal 3-3-2", "deal 2-3"]
    assert state.parse_action("deal 3-3-2") == ChoosePattern("3-3-2")
    state.apply(ChoosePattern("3-3-2"))
    assert state.turned is None and state.pattern == "3-3-2"
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH KD AD 7C 9S 10S")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH 8C 9C 10C JS QS")
    assert hand(state, Seat.E) == CardSet.parse("7D 8D 9D JC QC KC KS AS")
    assert hand(state, Seat.N) == CardSet.parse("10D JD QD AC 7S 8S 7H 8H")
    assert state.phase == Phase.BIDDING and turn(state) == Seat.W


def test_3_3_2_refused_where_a_card_is_turned() -> None:
    """3-3-2 deals every card at once: a classic game (5 cards, then the
    turned card) cannot use it; an unknown pattern is refused too."""
    with pytest.raises(RulesError, match="3-3-2 distribution deals every card: coinche only"):
        preset("ffb").replace(patterns=("3-2", "3-3-2"))
    with pytest.raises(RulesError, match="subset of 3-2, 2-3, 3-3-2"):
        preset("coinche").replace(patterns=("4-4",))
    with pytest.raises(DealError, match="not allowed here"):
        State.from_deck(preset("coinche"), Seat.N, PACK, "3-3-2")


def test_three_players_24_cards_deal_and_completion() -> None:
    """RULES.md "Three players": "Remove the 7s and 8s ... Deal 3 + 2 to each of
    the three players, turn the next card, take as usual; the taker gets the
    turned card and 2 more, the others 3".  Seats W S E; dealer E, so W (his
    right) is served first and S (his left) cuts."""
    rules = preset("three-players")
    state = State.new(rules, Seat.E, PACK_24)
    assert turn(state) == Seat.S
    legal_cuts = state.legal_actions()
    assert legal_cuts == [Cut(n) for n in range(2, 23)]
    state.apply(Cut(6))
    state.apply(ChoosePattern("3-2"))
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH QD KD")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH AD 9C")
    assert hand(state, Seat.E) == CardSet.parse("9D 10D JD 10C JC")
    assert state.hands[Seat.N] == 0
    assert state.turned == parse_card("QC")
    assert turn(state) == Seat.W
    state.apply(parse_bid("pass"))
    state.apply(parse_bid("take"))
    assert hand(state, Seat.W) == CardSet.parse("9H 10H JH QD KD KC AC 9S")
    assert hand(state, Seat.S) == CardSet.parse("QH KH AH AD 9C QC 10S JS")
    assert hand(state, Seat.E) == CardSet.parse("9D 10D JD 10C JC QS KS AS")
