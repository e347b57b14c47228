"""Declarations (*annonces*): finding them in exact hands, comparing them, and
reading a record's declaration texts.

Sources: seed 000 ("Les annonces", "Ordre des annonces"), seed 001 ("La belote
avec annonce") and RULES.md "Declarations (annonces), when on".
"""

from __future__ import annotations

import pytest

from rebelote.cards import CardSet
from rebelote.declarations import (
    Declaration,
    DeclarationError,
    best_declaration,
    declaration_subsets,
    find_declarations,
    has_carre_of_sevens,
    match_declarations,
)
from rebelote.trump import Strain


def found(text: str, strain: Strain = Strain.S) -> list[tuple[str, int, str]]:
    """The declarations of a hand as (text, points, cards)."""
    return [
        (d.text, d.points, str(CardSet(d.cards)))
        for d in find_declarations(CardSet.parse(text).mask, strain)
    ]


def decls(text: str, strain: Strain = Strain.S) -> tuple[Declaration, ...]:
    """The declarations of a hand."""
    return find_declarations(CardSet.parse(text).mask, strain)


# --- sequences ---------------------------------------------------------------


def test_tierce_20_in_natural_order_seed000() -> None:
    """Seed 000: "une série de cartes à la même couleur se suivant selon l'ordre
    naturel (As, Roi, Dame, Valet, 10, 9, 8, 7)" ... "Tierce (3 cartes) 20
    points".  Two tierces in one hand both count, strongest (K) first."""
    assert found("7S 8S 9S 7H 9H JD QD KD") == [
        ("tierce-KD", 20, "JD QD KD"),
        ("tierce-9S", 20, "7S 8S 9S"),
    ]


def test_nine_ten_jack_is_a_tierce_but_jack_nine_ace_of_trump_is_not_seed000() -> None:
    """Seed 000: sequences follow the natural order, not the trump order: 9 10 J
    of trump is a tierce; J 9 A of trump (the three best trumps) is none."""
    assert found("9H 10H JH 7S 9S JC AD 8D", Strain.H) == [("tierce-JH", 20, "9H 10H JH")]
    assert found("JH 9H AH 7S 9S JC AD 8D", Strain.H) == []


def test_quarte_50_seed000() -> None:
    """Seed 000: "Quatrième (4 cartes) 50 points"; seed 001 calls it a
    "cinquante"."""
    assert found("7H 8H 9H 10H QD AD 7C 9C") == [("quarte-10H", 50, "7H 8H 9H 10H")]


def test_quinte_100_and_a_longer_run_is_one_quinte_seed000() -> None:
    """Seed 000: "Quinte (5 cartes) 100 points"; RULES.md: "quinte / cent (5 or
    more) 100": six or eight cards in a row make one quinte, not a quinte and
    a tierce."""
    assert found("10D JD QD KD AD 7S 9H JC") == [("quinte-AD", 100, "10D JD QD KD AD")]
    assert found("9S 10S JS QS KS AS 7H 8H") == [
        ("quinte-AS", 100, "9S 10S JS QS KS AS"),
    ]
    assert found("7S 8S 9S 10S JS QS KS AS") == [
        ("quinte-AS", 100, "7S 8S 9S 10S JS QS KS AS"),
    ]


def test_two_cards_in_a_row_are_no_declaration() -> None:
    """Seed 000: the shortest sequence is the tierce (3 cards)."""
    assert found("KS AS QH KH 7D 8D 9C JC") == []


# --- carrés ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("JS JH JD JC 7S 9H QD KC", [("carre-J", 200)]),
        ("9S 9H 9D 9C 7S JH QD KC", [("carre-9", 150)]),
        ("AS AH AD AC 7S 9H QD JC", [("carre-A", 100)]),
        ("10S 10H 10D 10C 7S 9H QD JC", [("carre-10", 100)]),
        ("KS KH KD KC 7S 9H JD 8C", [("carre-K", 100)]),
        ("QS QH QD QC 7S 9H JD 8C", [("carre-Q", 100)]),
    ],
)
def test_carre_values_seed000(hand: str, expected: list[tuple[str, int]]) -> None:
    """Seed 000: "Les carrés ... Valet 200 points Neuf 150 points As, 10, Rois,
    Dames 100 points"."""
    assert [(t, p) for t, p, _ in found(hand)] == expected


def test_carres_of_eights_and_sevens_score_nothing_seed001() -> None:
    """Seed 001: "Carré de 8 aucun point"; the carré of 7s scores nothing
    either (it cancels the deal instead, where the rules say so)."""
    assert found("7S 7H 7D 7C 8S 8H 8D 8C") == []
    assert has_carre_of_sevens(CardSet.parse("7S 7H 7D 7C 8S 8H 8D 8C").mask)
    assert not has_carre_of_sevens(CardSet.parse("7S 7H 7D 8C 8S 8H 8D AC").mask)


def test_two_carres_in_one_hand_both_count() -> None:
    """Seed 001: "Carré de Valets 200 points Carré de 9 150 points"; both are
    declared, the stronger first."""
    assert found("JS JH JD JC 9S 9H 9D 9C") == [
        ("carre-J", 200, "JS JH JD JC"),
        ("carre-9", 150, "9S 9H 9D 9C"),
    ]


# --- a card in one declaration only ---------------------------------------------


def test_a_card_serves_one_declaration_only_carre_over_quinte_seed000() -> None:
    """Seed 000: "Une carte ne peut figurer que dans une seule annonce": JS
    cannot be in the carré of jacks and in 9 10 J Q K of spades; the carré
    (200) is worth more than the quinte (100)."""
    assert found("JS JH JD JC 9S 10S QS KS") == [("carre-J", 200, "JS JH JD JC")]


def test_carre_and_the_tierce_left_beat_a_quinte_seed000() -> None:
    """Seed 000: one declaration per card: the carré of queens (100) plus the
    tierce 9 10 J left (20) beat the quinte 9 10 J Q K (100)."""
    assert found("QS QH QD QC 9S 10S JS KS") == [
        ("carre-Q", 100, "QS QH QD QC"),
        ("tierce-JS", 20, "9S 10S JS"),
    ]


def test_carre_chosen_over_a_quinte_of_equal_points_seed000() -> None:
    """Seed 000: "Un carré est une annonce plus forte qu'une séquence, même à
    égalité de points": carré of queens (100) or quinte 10 J Q K A (100): the
    carré."""
    assert found("QS QH QD QC 10S JS KS AS") == [("carre-Q", 100, "QS QH QD QC")]


def test_belote_cards_may_sit_in_a_sequence_seed000() -> None:
    """Seed 000: "exceptée pour la belote où ces cartes peuvent servir à
    d'autres annonces": J Q K of trump is a tierce (the belote counts apart)."""
    assert found("JH QH KH 7S 9S JC AD 8D", Strain.H) == [("tierce-KH", 20, "JH QH KH")]


def test_trump_sequence_listed_first_among_equals() -> None:
    """Seed 001: "A hauteur et longueur égales, c'est la suite à l'atout qui
    sera la plus forte": with hearts trump, 10 J Q of hearts comes first."""
    hand = "10S JS QS 10H JH QH 9C 9D"
    assert [t for t, _, _ in found(hand, Strain.H)] == ["tierce-QH", "tierce-QS"]
    assert [t for t, _, _ in found(hand, Strain.S)] == ["tierce-QS", "tierce-QH"]


# --- comparing the two sides -------------------------------------------------


def one(text: str, strain: Strain = Strain.S) -> Declaration:
    """The strongest declaration of a hand."""
    return decls(text, strain)[0]


def test_any_carre_beats_any_sequence_even_at_equal_points_seed000() -> None:
    """Seed 000: "Un carré est une annonce plus forte qu'une séquence, même à
    égalité de points"; seed 001: "Tous les carrés battent les suites"."""
    quinte = one("10D JD QD KD AD 7S 9H JC")
    carre_q = one("QS QH QD QC 7S 9H JD 8C")
    assert best_declaration([(0, [quinte]), (1, [carre_q])], Strain.D, False) == 1
    assert best_declaration([(1, [carre_q]), (0, [quinte])], Strain.D, True) == 1


def test_higher_value_wins_seed000() -> None:
    """Seed 000: carrés J 200 > 9 150 > A 100; a quarte (50) beats a tierce
    (20) whatever its height."""
    carre_j = one("JS JH JD JC 7S 9H QD KC")
    carre_9 = one("9S 9H 9D 9C 7S JH QD KC")
    carre_a = one("AS AH AD AC 7S 9H QD JC")
    assert best_declaration([(0, [carre_9]), (1, [carre_j])], Strain.H, False) == 1
    assert best_declaration([(0, [carre_9]), (1, [carre_a])], Strain.H, False) == 0
    quarte = one("7H 8H 9H 10H QD AD 7C 9C")
    tierce_a = one("QS KS AS 7H 9H JD 7C 9C")
    assert best_declaration([(0, [tierce_a]), (1, [quarte])], Strain.S, False) == 1


def test_carres_of_100_by_rank_a_10_k_q() -> None:
    """Seed 000: "A égalité d'annonce ... la carte la plus haute de l'annonce
    détermine la force": among the 100-point carrés, A > 10 > K > Q."""
    ranks = ["A", "10", "K", "Q"]
    carres = {r: one(f"{r}S {r}H {r}D {r}C 7S 9H 8D 7C") for r in ranks}
    for i, high in enumerate(ranks):
        for low in ranks[i + 1 :]:
            pair = [(0, [carres[low]]), (1, [carres[high]])]
            assert best_declaration(pair, Strain.S, False) == 1, (high, low)


def test_higher_top_card_wins_between_equal_sequences_seed000() -> None:
    """Seed 000: "une tierce Neuf Dix Valet est plus faible qu'une tierce Dix
    Valet Dame"; seed 001: "une suite au Roi est plus forte qu'une suite au
    Dame"."""
    nine_ten_jack = one("9S 10S JS 7H 9H QD KC 8C")
    ten_jack_queen = one("10H JH QH 7S 9S AD KC 8C")
    assert nine_ten_jack.text == "tierce-JS"
    assert ten_jack_queen.text == "tierce-QH"
    # Even in trump, the lower tierce loses: height first.
    assert best_declaration([(0, [nine_ten_jack]), (1, [ten_jack_queen])], Strain.S, False) == 1


def test_trump_sequence_wins_at_equal_height_seed000() -> None:
    """Seed 000: "Si l'égalité persiste, la séquence à l'atout est la plus
    forte"."""
    spades = one("10S JS QS 7H 9H AD KC 8C")
    hearts = one("10H JH QH 7S 9S AD KC 8C")
    assert best_declaration([(0, [spades]), (1, [hearts])], Strain.H, False) == 1
    assert best_declaration([(0, [spades]), (1, [hearts])], Strain.S, False) == 0


def test_equal_best_first_declared_seed000_or_none_ffb() -> None:
    """Seed 000: "Enfin, si rien ne départage les annonces, la première annoncée
    est celle retenue"; RULES.md presets: ffb "neither team scores"."""
    spades = one("10S JS QS 7H 9H AD KC 8C")
    hearts = one("10H JH QH 7S 9S AD KC 8C")
    assert best_declaration([(0, [spades]), (1, [hearts])], Strain.D, True) == 0
    assert best_declaration([(1, [hearts]), (0, [spades])], Strain.D, True) == 1
    assert best_declaration([(0, [spades]), (1, [hearts])], Strain.D, False) is None
    # A stronger declaration settles the tie.
    quarte = one("7D 8D 9D 10D 7S 9H AC KC")
    declared = [(0, [spades]), (1, [hearts]), (1, [quarte])]
    assert best_declaration(declared, Strain.C, False) == 1


def test_partners_equal_declarations_are_no_tie() -> None:
    """RULES.md: "Only the team holding the best declaration scores": two
    equal tierces of the same side are no tie between the sides."""
    spades = one("10S JS QS 7H 9H AD KC 8C")
    hearts = one("10H JH QH 7S 9S AD KC 8C")
    assert best_declaration([(0, [spades]), (0, [hearts])], Strain.D, False) == 0


def test_no_declaration_no_side() -> None:
    """Nothing declared: no side scores declarations."""
    assert best_declaration([], Strain.S, False) is None
    assert best_declaration([(0, []), (1, [])], Strain.S, True) is None


# --- texts -------------------------------------------------------------------


def test_declaration_texts() -> None:
    """The record notation: kind and top card, or carre and rank."""
    assert [d.text for d in decls("JS JH JD JC 9S 10S QS KS")] == ["carre-J"]
    assert [d.text for d in decls("10S 10H 10D 10C 7S 8S 9S AH")] == ["carre-10", "tierce-9S"]


def test_match_declarations_texts() -> None:
    """A record names declarations as ``tierce``, ``tierce-9S``, ``carre-J``;
    seed 001's names "cinquante" (quarte) and "cent" (quinte) are read too."""
    hand = decls("7S 8S 9S 7H 9H JD QD KD")
    assert [d.text for d in match_declarations(hand, ["tierce"])] == ["tierce-KD"]
    assert [d.text for d in match_declarations(hand, ["tierce", "tierce"])] == [
        "tierce-KD",
        "tierce-9S",
    ]
    assert [d.text for d in match_declarations(hand, ["tierce-9S"])] == ["tierce-9S"]
    assert match_declarations(hand, []) == ()
    fifty = decls("7H 8H 9H 10H QD AD 7C 9C")
    assert [d.text for d in match_declarations(fifty, ["cinquante"])] == ["quarte-10H"]
    hundred = decls("10D JD QD KD AD 7S 9H JC")
    assert [d.text for d in match_declarations(hundred, ["cent"])] == ["quinte-AD"]
    carres = decls("JS JH JD JC 9S 9H 9D 9C")
    assert [d.text for d in match_declarations(carres, ["carre-9"])] == ["carre-9"]
    assert [d.text for d in match_declarations(carres, ["carré"])] == ["carre-J"]


def test_match_declarations_errors() -> None:
    """A declaration the hand does not hold, or an unknown word, is refused
    with a message naming it."""
    hand = decls("7S 8S 9S 7H 9H JD QD KD")
    with pytest.raises(DeclarationError, match=r"no 'quarte' in this hand") as info:
        match_declarations(hand, ["quarte"])
    assert "tierce-KD, tierce-9S" in str(info.value)
    with pytest.raises(DeclarationError, match=r"unknown declaration 'sixte'"):
        match_declarations(hand, ["sixte"])
    with pytest.raises(DeclarationError, match=r"no 'tierce-KS'"):
        match_declarations(hand, ["tierce-KS"])
    with pytest.raises(DeclarationError, match=r"no 'tierce'"):
        match_declarations(hand, ["tierce", "tierce", "tierce"])


def test_declaration_choices_all_first_none_last() -> None:
    """Seed 000: "Cette annonce n'est pas obligatoire": a player may declare
    all, some or none of his declarations."""
    hand = decls("7S 8S 9S 7H 9H JD QD KD")
    choices = [[d.text for d in c] for c in declaration_subsets(hand)]
    assert choices == [["tierce-KD", "tierce-9S"], ["tierce-KD"], ["tierce-9S"], []]
