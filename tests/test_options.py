"""Every option of :class:`Rules` changes an outcome, and every preset pins the
values RULES.md gives it.

The contract (the issue): "For every option of ``Rules``, a test on a fixed
deal whose outcome (a legal set or a score) changes when only that option
flips: no option may exist and be ignored."  Each ``test_option_*`` below runs
one fixed deal or position twice: with the base rules (``ffb``, or ``ffb`` with
``bidding="tout_atout"`` for the Tout Atout / Sans Atout options, or
``coinche`` for the coinche options) and with only that option flipped, and
states both outcomes exactly.  :data:`OPTION_TESTS` maps every option to its
test; :func:`test_every_option_has_a_test` fails when an option of
``OPTION_NAMES`` has none.

The fixed deals (dealer N unless said; W speaks and leads first):

- ``TWO``: two cards of every suit in each hand; no declaration, no belote.
- ``CAPOT``: W holds JH 9H AH 10H AS 10S AC 10C and takes all 8 tricks alone;
  N holds the belote (KH QH); W holds a tierce 9H 10H JH.
- ``DECL``: W holds a tierce KS QS JS, N a tierce KD QD JD (equal best).
- ``SEVENS``: N holds the four 7s.
- ``D1`` / ``D3``: hearts trump, positions of the legality rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from rebelote.actions import ChoosePattern, Cut, Declare, Play, parse_bid
from rebelote.cards import DECK_32, Card, CardSet, cards_of, parse_card, parse_cards
from rebelote.match import Match, next_dealer
from rebelote.rules import OPTION_NAMES, PRESETS, Rules, preset
from rebelote.scoring import DealResult
from rebelote.seats import Seat
from rebelote.state import Phase, State

FFB = preset("ffb")
TA_BASE = FFB.replace(bidding="tout_atout")
COINCHE = preset("coinche")
PACK: list[int] = list(cards_of(DECK_32))

TWO = {
    Seat.W: "AS 7S 10H 8H KD 9D QC JC",
    Seat.S: "10S 8S KH 9H QD JD AC 7C",
    Seat.E: "KS 9S QH JH AD 7D 10C 8C",
    Seat.N: "QS JS AH 7H 10D 8D KC 9C",
}

CAPOT = {
    Seat.W: "JH 9H AH 10H AS 10S AC 10C",
    Seat.S: "7S 9S QS 7D 9D JD KD 8C",
    Seat.E: "8H 7H KS QD AD 9C QC KC",
    Seat.N: "KH QH 8S JS 8D 10D 7C JC",
}
# W leads every trick and wins it: 152 card points, capot, solo.
CAPOT_SCRIPT = (
    "JH 7S 7H QH  9H 9S 8H KH  AH QS KS 8S  10H 7D QD 8D "
    "AS 8C 9C JS  10S 9D QC 7C  AC JD KC JC  10C KD AD 10D"
)

DECL = {
    Seat.W: "JS QS KS 7H 9H 7D 9C JC",
    Seat.S: "7S 9S AS JH KH 8D AD QC",
    Seat.E: "10S QH AH 9D 10D 7C KC AC",
    Seat.N: "8S 8H 10H JD QD KD 8C 10C",
}

SEVENS = {
    Seat.N: "7S 7H 7D 7C AS AH AD 10C",
    Seat.W: "8S 10S QS 8H 10H 8D 10D QC",
    Seat.S: "9S JS KS 9H JH 9D JD 8C",
    Seat.E: "QH KH QD KD 9C JC KC AC",
}

D1 = {
    Seat.W: "AS 8S 10S QS 7H JH KC AC",
    Seat.S: "7S 9S JS KS 10H AD JC QC",
    Seat.E: "AH QH 7D 9D JD KD 7C 9C",
    Seat.N: "8H 9H KH 8D 10D QD 8C 10C",
}

D3 = {
    Seat.W: "AS 8S 10S QS 7H 10H KC AC",
    Seat.S: "7S 9S JS KS 8H AD JC QC",
    Seat.E: "AH QH 7D 9D JD KD 7C 9C",
    Seat.N: "9H JH KH 8D 10D QD 8C 10C",
}

# Three players, 24 cards (seats W S E); the four-player version adds N with
# every 7 and 8.  Dealer S: E speaks first at both tables and takes the 9H.
THREE_HANDS = {
    Seat.W: "10H JH AH 9D JD KD 9C JC",
    Seat.S: "9S JS KS QH AD 10C QC AC",
    Seat.E: "AS QS 10S 9H KH 10D QD KC",
}
FOUR_HANDS = {**THREE_HANDS, Seat.N: "7S 8S 7H 8H 7D 8D 7C 8C"}


# ------------------------------------------------------------------ helpers


def deal(
    rules: Rules,
    hands: Mapping[Seat, str],
    turned: str | None,
    bids: str,
    dealer: Seat = Seat.N,
) -> State:
    """A deal from its complete hands (and turned card), after ``bids``."""
    state = State.from_hands(
        rules,
        dealer,
        {seat: parse_cards(text) for seat, text in hands.items()},
        None if turned is None else parse_card(turned),
    )
    for word in bids.split():
        state.apply(parse_bid(word))
    return state


def declare_if_asked(state: State) -> None:
    """When the player to act must first declare, he declares all he holds."""
    while state.phase in (Phase.PLAYING, Phase.DECLARING):
        actions = state.legal_actions()
        if not actions or not isinstance(actions[0], Declare):
            return
        state.apply(actions[0])


def play(state: State, cards: str, silent: str = "") -> None:
    """Play ``cards`` in turn; the cards in ``silent`` are played without
    saying belote (seed 001)."""
    quiet = set(parse_cards(silent))
    for card in parse_cards(cards):
        declare_if_asked(state)
        state.apply(legal_play(state, card, card not in quiet))


def legal_play(state: State, card: Card, said: bool = True) -> Play:
    """``card`` as :meth:`State.legal_actions` writes it: with the belote
    word ``said`` where its player chooses (seed 001), else without (an
    illegal card: as it is, for ``apply`` to refuse)."""
    plays = [a for a in state.legal_actions() if isinstance(a, Play) and a.card == card]
    return next((a for a in plays if a.belote is said), plays[0] if plays else Play(card))


def texts(state: State) -> list[str]:
    """The current player's legal actions as text."""
    return [action.text for action in state.legal_actions()]


def legal_cards(state: State) -> CardSet:
    """The current player's legal cards."""
    return CardSet(state.legal_play_mask())


def finished(state: State) -> DealResult:
    """The result of a deal played to its end."""
    assert state.phase == Phase.DONE
    assert state.result is not None
    return state.result


def capot_result(rules: Rules, turned: str | None = "10H", bids: str = "take") -> DealResult:
    """The CAPOT deal played out (W takes the turned 10H by default)."""
    state = deal(rules, CAPOT, turned, bids)
    play(state, CAPOT_SCRIPT)
    return finished(state)


# ============================================================ table / match


def test_option_players_three_no_partner_seed000() -> None:
    """Seed 000: "A trois joueurs, les équipes sont réduites à leur plus simple
    expression : chacun pour soi".  E leads AS: at four W is E's partner (E
    wins: any card); at three W must trump (10H JH AH)."""

    def w_legal(rules: Rules, hands: Mapping[Seat, str], before_w: str) -> CardSet:
        state = deal(rules, hands, "9H", "take", dealer=Seat.S)
        play(state, before_w)
        assert state.current == Seat.W
        return legal_cards(state)

    assert w_legal(FFB, FOUR_HANDS, "AS 7S") == CardSet.parse(FOUR_HANDS[Seat.W])
    three = FFB.replace(players=3)
    assert w_legal(three, THREE_HANDS, "AS") == CardSet.parse("10H JH AH")


def test_option_target_501_seed002() -> None:
    """Seed 002: "Visez 501 points" (ffb 1000).  Two CAPOT deals (20 - 272
    each) make 40 - 544: EW win at 501, not at 1000."""
    result = capot_result(FFB)
    assert result.score == (20, 272)

    def winner(rules: Rules) -> tuple[int | None, tuple[int, ...]]:
        match = Match(rules, Seat.N)
        match.add(result)
        assert match.winner is None
        match.add(result)
        return match.winner, tuple(match.totals)

    assert winner(FFB) == (None, (40, 544))
    assert winner(FFB.replace(target=501)) == (1, (40, 544))


def test_option_belote_alone_cannot_win_ffb_coinche() -> None:
    """FFB coinche 2015, 10.3: "Si une équipe est capot ou chute, et atteint
    les points fixés uniquement grâce aux points d'une belote, la partie
    n'est pas encore gagnée et doit se poursuivre. L'équipe aura besoin d'un
    pli supplémentaire".  NS at 985 are capot (EW take the CAPOT deal) and
    score only N's belote: 1005.  ffb: NS win.  FFB coinche: play goes on;
    another capot changes nothing; NS win once they take a trick."""
    capot = capot_result(FFB)
    assert (capot.score, capot.capot, capot.belote_points) == ((20, 272), 1, (20, 0))

    def after(rules: Rules) -> Match:
        match = Match(rules, Seat.N)
        match.totals = [985, 0]
        match.add(capot)
        return match

    plain = after(FFB)
    assert (plain.winner, plain.totals) == (0, [1005, 272])
    match = after(FFB.replace(belote_alone_cannot_win=True))
    assert (match.winner, match.totals, match.needs_trick) == (None, [1005, 272], {0})
    match.add(capot)
    assert (match.winner, match.totals, match.needs_trick) == (None, [1025, 544], {0})
    trick = dataclasses.replace(capot, result="made", capot=None, solo_capot=False, score=(50, 132))
    match.add(trick)
    assert (match.winner, match.totals, match.needs_trick) == (0, [1075, 676], set())


def test_option_dealer_rotation_left() -> None:
    """Seed 001: the next dealer is "le joueur qui a reçu la première carte"
    (the dealer's right: N -> W); ``left`` passes the deal to E."""
    result = capot_result(FFB)
    assert next_dealer(FFB, Seat.N, result) == Seat.W
    assert next_dealer(FFB.replace(dealer_rotation="left"), Seat.N, result) == Seat.E
    match = Match(FFB.replace(dealer_rotation="left"), Seat.N)
    match.add(result)
    assert match.dealer == Seat.E


def test_option_all_pass_redeal_seed003() -> None:
    """After eight passes: seed 001 "commence alors la donne suivante" (ffb:
    next dealer W); seed 003 "les cartes sont redistribuées" (redeal: N deals
    again); seed 002 "Le joueur à gauche du donneur deviendra le donneur
    suivant" (E)."""
    state = deal(FFB, TWO, "8H", " ".join(["pass"] * 8))
    passed = finished(state)
    assert passed.result == "passed"
    assert next_dealer(FFB, Seat.N, passed) == Seat.W
    assert next_dealer(FFB.replace(all_pass="redeal"), Seat.N, passed) == Seat.N
    assert next_dealer(FFB.replace(all_pass="dealer_left"), Seat.N, passed) == Seat.E
    match = Match(FFB.replace(all_pass="redeal"), Seat.N)
    match.add(passed)
    assert (match.dealer, tuple(match.totals)) == (Seat.N, (0, 0))


# ============================================================ cut and deal


def test_option_cut_optional_seed000() -> None:
    """Seed 000: "Le joueur a la possibilité de couper le jeu": cut 0 (no cut)
    becomes legal; ffb: a cut of 2 to 30 cards is compulsory."""
    compulsory = [Cut(n) for n in range(2, 31)]
    assert State.new(FFB, Seat.N, PACK).legal_actions() == compulsory
    optional = State.new(FFB.replace(cut_optional=True), Seat.N, PACK)
    assert optional.legal_actions() == [Cut(0), *compulsory]
    optional.apply(Cut(0))
    assert optional.deck == PACK


def test_option_cut_min_packet_seed001() -> None:
    """Seed 001: "chacun devant contenir au moins deux cartes" (ffb 2: cuts 2
    to 30); at least 4 cards each: cuts 4 to 28."""
    assert State.new(FFB, Seat.N, PACK).legal_actions() == [Cut(n) for n in range(2, 31)]
    state = State.new(FFB.replace(cut_min_packet=4), Seat.N, PACK)
    assert state.legal_actions() == [Cut(n) for n in range(4, 29)]


def test_option_patterns_3_2_only_seed002() -> None:
    """Seed 002: "Chaque joueur reçoit 3 cartes puis encore 2 cartes": with a
    single pattern the dealer has no choice and the cards are dealt at once
    (ffb: the dealer chooses 3-2 or 2-3)."""
    state = State.new(FFB, Seat.N, PACK)
    state.apply(Cut(10))
    assert texts(state) == ["deal 3-2", "deal 2-3"]
    only = State.new(FFB.replace(patterns=("2-3",)), Seat.N, PACK)
    only.apply(Cut(10))
    assert texts(only) == ["pass", "take"]
    assert CardSet(only.hands[Seat.W]) == CardSet.parse("9H 10H 9D 10D JD")
    with pytest.raises(ValueError):
        only.apply(ChoosePattern("3-2"))


# ============================================================ bidding


def test_option_bidding_tout_atout_seed000() -> None:
    """Seed 000: "il est possible de prendre à n'importe quel moment à Tout
    Atout ou Sans Atout": SA and TA join pass and take."""
    assert texts(deal(FFB, TWO, "8H", "")) == ["pass", "take"]
    tout = deal(FFB.replace(bidding="tout_atout"), TWO, "8H", "")
    assert texts(tout) == ["pass", "take", "SA", "TA"]


def test_option_round_two_turned_suit_seed001() -> None:
    """Seed 001: round two, "chacun peut choisir une quelconque couleur
    d'atout" (the turned hearts too); ffb (seeds 000, 002): another suit."""
    four_passes = "pass pass pass pass"
    assert texts(deal(FFB, TWO, "8H", four_passes)) == ["pass", "S", "D", "C"]
    anysuit = deal(FFB.replace(round_two_turned_suit=True), TWO, "8H", four_passes)
    assert texts(anysuit) == ["pass", "S", "H", "D", "C"]


def test_option_coinche_tout_atout() -> None:
    """RULES.md "Coinche": "(and, where enabled, Tout Atout / Sans Atout)":
    every contract value also with SA and TA (41 opening bids become 61)."""
    values = ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot"]
    plain = ["pass", *(v + s for v in values for s in ("S", "H", "D", "C"))]
    assert texts(deal(COINCHE, TWO, None, "")) == plain
    with_ta = deal(COINCHE.replace(coinche_tout_atout=True), TWO, None, "")
    assert texts(with_ta) == [
        "pass",
        *(v + s for v in values for s in ("S", "H", "D", "C", "SA", "TA")),
    ]


# ============================================================ card play


def test_option_first_lead_dealer_seed002() -> None:
    """Seed 002: "le donneur entamera le premier pli" (N); ffb and seed 000:
    "Le joueur à droite du donneur démarre" (W)."""
    state = deal(FFB, TWO, "8H", "take")
    assert (state.current, legal_cards(state)) == (Seat.W, CardSet.parse(TWO[Seat.W]))
    dealer = deal(FFB.replace(first_lead="dealer"), TWO, "8H", "take")
    assert (dealer.current, legal_cards(dealer)) == (Seat.N, CardSet.parse(TWO[Seat.N]))


def test_option_partner_winning_exemption_seed003() -> None:
    """Seed 000: "Cette obligation est levée si le partenaire est maître" (ffb:
    E, void in spades, partner W's AS winning: any card); seed 003 "2. Un
    atout supérieur à tous ceux déjà joués": E must trump (QH or AH)."""

    def e_legal(rules: Rules) -> CardSet:
        state = deal(rules, D1, "7H", "take")
        play(state, "AS 7S")
        return legal_cards(state)

    assert e_legal(FFB) == CardSet.parse(D1[Seat.E])
    assert e_legal(FFB.replace(partner_winning_exemption=False)) == CardSet.parse("QH AH")


def test_option_must_undertrump_seed003() -> None:
    """FFB / seed 001 "il doit, soit jouer un atout plus faible": E's AH wins a
    spade trick, N cannot beat it and must play 8H or KH; seed 003 "3.
    N'importe quelle autre carte": any of his six cards."""

    def n_legal(rules: Rules) -> CardSet:
        state = deal(rules, D1, "7H", "take")
        play(state, "AS 7S QH 9H  10C AC JC 7C  8S KS AH")
        assert state.current == Seat.N
        return legal_cards(state)

    assert n_legal(FFB) == CardSet.parse("8H KH")
    assert n_legal(FFB.replace(must_undertrump=False)) == CardSet.parse("8H KH 8D 10D QD 8C")


def test_option_overtrump_partner_on_trump_lead_seed002() -> None:
    """FFB (seeds 000, 001, 003): trump led, partner W's 10H winning, E must
    still go higher (AH); seed 002 "le joueur n'a pas besoin de satisfaire
    cette exigence": QH or AH."""

    def e_legal(rules: Rules) -> CardSet:
        state = deal(rules, D3, "7H", "take")
        play(state, "10H 8H")
        return legal_cards(state)

    assert e_legal(FFB) == CardSet.parse("AH")
    assert e_legal(FFB.replace(overtrump_partner_on_trump_lead=False)) == CardSet.parse("QH AH")


# ============================================================ declarations


def test_option_declarations_off_seed002() -> None:
    """Seed 000: "Cette annonce n'est pas obligatoire" (ffb: W, holding a
    tierce, first chooses to declare it or not); seed 002 has no declarations:
    W just plays."""
    assert texts(deal(FFB, DECL, "7H", "take")) == ["declare tierce-KS", "declare none"]
    off = deal(FFB.replace(declarations="off"), DECL, "7H", "take")
    assert texts(off) == ["JS", "QS", "KS", "7H", "9H", "7D", "9C", "JC"]


def test_option_declaration_turn_seed000() -> None:
    """Seed 000: "commence alors le tour des annonces": every holder declares
    (W then N) before the first card; ffb: each with his first card, so after
    declaring W plays at once."""
    state = deal(FFB, DECL, "7H", "take")
    assert state.phase == Phase.PLAYING
    state.apply(Declare(state.found[Seat.W]))
    assert (state.current, texts(state)) == (
        Seat.W,
        ["JS", "QS", "KS", "7H", "9H", "7D", "9C", "JC"],
    )

    turn = deal(FFB.replace(declaration_turn=True), DECL, "7H", "take")
    assert turn.phase == Phase.DECLARING
    assert (turn.current, texts(turn)) == (Seat.W, ["declare tierce-KS", "declare none"])
    turn.apply(Declare(turn.found[Seat.W]))
    assert (turn.current, texts(turn)) == (Seat.N, ["declare tierce-KD", "declare none"])
    turn.apply(Declare(turn.found[Seat.N]))
    assert (turn.phase, turn.current) == (Phase.PLAYING, Seat.W)


def test_option_declaration_tie_first_declared_seed000() -> None:
    """Seed 000: "si rien ne départage les annonces, la première annoncée est
    celle retenue": W's tierce to the K of spades and N's tierce to the K of
    diamonds (neither trump) are equal: ffb, neither side scores; seed 000,
    W's (declared first) scores for EW."""

    def counted(rules: Rules) -> tuple[tuple[str, ...], ...]:
        state = deal(rules, DECL, "7H", "take")
        play(state, "7D 8D 9D JD")
        return tuple(tuple(d.text for d in side) for side in state.counted_declarations())

    assert counted(FFB) == ((), ())
    assert counted(FFB.replace(declaration_tie="first")) == ((), ("tierce-KS",))


def test_option_carre_of_seven_cancels_seed001() -> None:
    """Seed 001: "Un carré de 7 annule la partie": N holds the four 7s; ffb
    plays on, seed 001 cancels the deal (0 - 0)."""
    state = deal(FFB, SEVENS, "8S", "take")
    assert (state.phase, state.current) == (Phase.PLAYING, Seat.W)
    cancelled = deal(FFB.replace(carre_of_seven_cancels=True), SEVENS, "8S", "take")
    result = finished(cancelled)
    assert (result.result, result.score) == ("cancelled", (0, 0))


# ============================================================ belote


def test_option_belote_must_be_said_seed001() -> None:
    """Seed 001: "Attention, sans annonce la belote n'est pas comptabilisée !":
    N may play QH saying belote or not; played silently, NS lose the 20.
    ffb: belote is automatic (one action per card; NS keep 20)."""
    state = deal(FFB, CAPOT, "10H", "take")
    play(state, "JH 7S 7H")
    assert state.current == Seat.N
    assert state.legal_actions() == [Play(parse_card("QH")), Play(parse_card("KH"))]
    play(state, CAPOT_SCRIPT.split(maxsplit=3)[3], silent="QH KH")
    assert finished(state).score == (20, 272)

    said = FFB.replace(belote_must_be_said=True)
    state = deal(said, CAPOT, "10H", "take")
    play(state, "JH 7S 7H")
    kh, qh = parse_card("KH"), parse_card("QH")
    assert state.legal_actions() == [
        Play(qh, True),
        Play(qh, False),
        Play(kh, True),
        Play(kh, False),
    ]
    play(state, CAPOT_SCRIPT.split(maxsplit=3)[3], silent="QH KH")
    assert finished(state).score == (0, 272)


def test_option_belote_requires_trick_seed000() -> None:
    """Seed 000: belote "vaut 20 points si l'équipe marque des points grâce à
    ses plis": NS hold it but take no trick (W's capot): ffb 20 - 272,
    seed 000 0 - 272."""
    assert capot_result(FFB).score == (20, 272)
    assert capot_result(FFB.replace(belote_requires_trick=True)).score == (0, 272)


def test_option_belote_on_dedans_defenders() -> None:
    """Seed 002 "tous leurs points seront donnés à l'autre équipe sauf les
    points de bonus de la belote" (ffb: holders); flipped, the failing takers'
    belote goes to the defenders.  S names hearts in round two (turned 7S) and
    W takes every trick against NS: 20 - 272 becomes 0 - 292."""
    bids = "pass pass pass pass pass H"
    result = capot_result(FFB, "7S", bids)
    assert (result.result, result.score) == ("dedans", (20, 272))
    flipped = capot_result(FFB.replace(belote_on_dedans="defenders"), "7S", bids)
    assert (flipped.result, flipped.score) == ("dedans", (0, 292))


# ============================================================ scoring


TIE_SCRIPT = (
    "KD QD 7D 8D  QC 7C 10C 9C  AD 10D 9D JD  KS JS 7S 10S "
    "KH JH 7H 8H  9S QS AS 8S  JC AC 8C KC  9H QH AH 10H"
)
"""TWO, W takes the turned 8H: EW 7+13+23+24+14 = 81, NS 16+17+38+10 = 81."""


def test_option_tie_takers_fail_seed001() -> None:
    """Seed 003 "Litige : En cas d'égalité, l'équipe qui a pris l'atout ne
    marque pas de points et ceux-ci sont reportés sur la manche suivante au
    profit du vainqueur" (ffb: NS 81, EW 0, 81 held over); seed 001 "doit
    totaliser plus de points": takers fail, NS 162."""

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...], int, tuple[int, ...]]:
        state = deal(rules, TWO, "8H", "take")
        play(state, TIE_SCRIPT)
        result = finished(state)
        return result.result, result.score, result.held_over, result.card_points

    assert outcome(FFB) == ("litige", (81, 0), 81, (71, 81))
    assert outcome(FFB.replace(tie="takers_fail")) == ("dedans", (162, 0), 0, (71, 81))


def test_litige_points_go_to_next_winner_seed003() -> None:
    """Seed 003: the takers' points "sont reportés sur la manche suivante au
    profit du vainqueur": the litige's 81 go to EW, who make the next deal
    (the CAPOT deal, 20 - 272): totals 81 - 353."""
    state = deal(FFB, TWO, "8H", "take")
    play(state, TIE_SCRIPT)
    match = Match(FFB, Seat.N)
    first = match.add(finished(state))
    assert (first.score, first.released, first.totals) == ((81, 0), 0, (81, 0))
    assert match.held_over == 81
    second = match.add(capot_result(FFB))
    assert (second.score, second.released, second.totals) == ((20, 353), 81, (101, 353))
    assert match.held_over == 0


def test_litige_on_the_last_deal_goes_to_nobody() -> None:
    """RULES.md, "Litige on the last deal": a tie on the deal that ends the
    match (target 50: NS reach 81) holds EW's 81 over for a next deal that
    is never played: the match ends 81 - 0, and the 81 are unclaimed."""
    state = deal(FFB, TWO, "8H", "take")
    play(state, TIE_SCRIPT)
    match = Match(FFB.replace(target=50), Seat.N)
    assert match.unclaimed == 0
    line = match.add(finished(state))
    assert line.totals == (81, 0) and match.is_over and match.winner == 0
    assert (match.held_over, match.unclaimed) == (81, 81)
    assert match.ended is not None and match.ended.totals == (81, 0)


def test_option_capot_points_seed001() -> None:
    """Seed 001: "Un capot ... Valeur 252 points" (seed 000: 152 + 100;
    seed 003: 152 + 10 + 90).  W's capot: EW 252 + tierce 20; NS belote 20.
    With capot_points=300: EW 320."""
    assert capot_result(FFB).score == (20, 272)
    assert capot_result(FFB.replace(capot_points=300)).score == (20, 320)


def test_option_capot_against_takers_seed001() -> None:
    """Seed 001: "si c'est l'équipe qui a pris qui est mise capot, on compte
    alors simplement un dedans 162": NS (S named hearts) take no trick; ffb EW
    252 + 20, seed 001 162 + 20."""
    bids = "pass pass pass pass pass H"
    assert capot_result(FFB, "7S", bids).score == (20, 272)
    assert capot_result(FFB.replace(capot_against_takers=162), "7S", bids).score == (20, 182)


def test_option_solo_capot_points_seed002() -> None:
    """Seed 002: "Si un joueur a remportés tous les plis par lui-même dans le
    tour, 350 points supplémentaires" (read as 350 for the cards instead of
    252): W alone took all 8 tricks: EW 272 becomes 370."""
    result = capot_result(FFB)
    assert (result.capot, result.solo_capot) == (1, True)
    assert result.score == (20, 272)
    assert capot_result(FFB.replace(solo_capot_points=350)).score == (20, 370)


# Tout Atout / Sans Atout deals on TWO: W bids, the others pass.
TA_SCRIPT = (
    "AS 8S 9S JS  QS 7S 10S KS  9H JH 7H 8H  QH AH 10H KH "
    "8D KD JD 7D  AC 8C 9C JC  QC 7C 10C KC  AD 10D 9D QD"
)
"""TA (J 14, 9 9, A 6, 10 5, K 3, Q 1): NS 29+9+15+17 = 70, EW 23+29+9+21+10 = 92."""

SA_SCRIPT = (
    "AS 8S 9S JS  7S 10S KS QS  9H QH AH 8H  7H 10H KH JH "
    "KD QD AD 8D  7D 10D 9D JD  KC QC AC 8C  7C 10C 9C JC"
)
"""SA (A 19, 10 10, K 4, Q 3, J 2): NS 17+22+12+26 = 77, EW 21+16+26+12+10 = 85."""

TRUMP_TABLE = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_TABLE = (0, 0, 0, 10, 2, 3, 4, 11)


def strain_score(rules: Rules, strain: str) -> tuple[int, ...]:
    """The score of the TA or SA deal on TWO."""
    state = deal(rules, TWO, "7S", f"{strain} pass pass pass")
    play(state, TA_SCRIPT if strain == "TA" else SA_SCRIPT)
    return finished(state).score


def test_option_ta_multiplier_seed000() -> None:
    """Seed 000: "Les parties Tout Atout comptent le triple des points": 70 -
    92 counts 210 - 276; with ta_multiplier=1, 70 - 92."""
    assert strain_score(TA_BASE, "TA") == (210, 276)
    assert strain_score(TA_BASE.replace(ta_multiplier=1), "TA") == (70, 92)


def test_option_sa_multiplier_seed000() -> None:
    """Seed 000: "Les parties Sans Atout comptent le double des points": 77 -
    85 counts 154 - 170; with sa_multiplier=1, 77 - 85."""
    assert strain_score(TA_BASE, "SA") == (154, 170)
    assert strain_score(TA_BASE.replace(sa_multiplier=1), "SA") == (77, 85)


def test_option_ta_points_table() -> None:
    """RULES.md "Tout Atout / Sans Atout": the usual table J 14, 9 9, A 6, 10 5,
    K 3, Q 1 (ffb): 210 - 276.  With the trump table (J 20, 9 14, A 11 ...:
    NS 114, EW 134 + 10): 342 - 432 after the triple."""
    assert strain_score(TA_BASE, "TA") == (210, 276)
    assert strain_score(TA_BASE.replace(ta_points=TRUMP_TABLE), "TA") == (342, 432)


def test_option_sa_points_table() -> None:
    """RULES.md: Sans Atout's usual table A 19, 10 10, K 4, Q 3, J 2 (ffb): 154
    - 170.  With the plain table (A 11 ...: NS 61, EW 59 + 10): 122 - 138."""
    assert strain_score(TA_BASE, "SA") == (154, 170)
    assert strain_score(TA_BASE.replace(sa_points=PLAIN_TABLE), "SA") == (122, 138)


def test_option_ta_sa_points_to_162_ffb_classique() -> None:
    """FFB belote classique 2016, 11.3: Tout Atout with the trump values in
    every suit totals 258, "il faut multiplier le nombre de points comptés
    (hors belote) par la fraction 162/258": NS 114, EW 144 (134 + 10)
    become 114 x 162 / 258 = 71.58 -> 72 and 144 x 162 / 258 = 90.42 -> 90
    (162 in all).  Sans Atout with the plain values totals 130: NS 61, EW
    69 become 76.02 -> 76 and 85.98 -> 86.  Without the option the points
    count as the tables give them (x1 here)."""
    ta = TA_BASE.replace(ta_points=TRUMP_TABLE, ta_multiplier=1)
    sa = TA_BASE.replace(sa_points=PLAIN_TABLE, sa_multiplier=1)
    assert strain_score(ta, "TA") == (114, 144)
    assert strain_score(ta.replace(ta_sa_points_to_162=True), "TA") == (72, 90)
    assert strain_score(sa, "SA") == (61, 69)
    assert strain_score(sa.replace(ta_sa_points_to_162=True), "SA") == (76, 86)
    # The usual tables already total 162: nothing changes.
    assert strain_score(TA_BASE.replace(ta_sa_points_to_162=True), "TA") == (210, 276)


COINCHE_SCRIPT = (
    "JC AC 8C KC  JD AD 10D KD  QH AH 8H 9H  KH JH 7H 10H "
    "KS QS 7S 8S  10C 9C QC 7C  7D 8D 9D QD  10S 9S JS AS"
)
"""TWO in coinche, 80H by W coinched: NS 17+28+3 = 48, EW 27+34+7+13+23+10 = 114."""


def test_option_coinche_made_score_contract() -> None:
    """RULES.md "Coinche": "Made: they score contract + points made (or contract
    alone, by variant)".  80H coinched (x2), made with 114: EW 160 + 114 =
    274 (ffb / coinche), or 160 alone; NS keep their 48."""

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...]]:
        state = deal(rules, TWO, None, "80H coinche pass pass")
        assert state.contract is not None and state.contract.multiplier == 2
        play(state, COINCHE_SCRIPT)
        result = finished(state)
        return result.result, result.score

    assert outcome(COINCHE) == ("made", (48, 274))
    assert outcome(COINCHE.replace(coinche_made_score="contract")) == ("made", (48, 160))


# FFB coinche 2015 positions (dealer N; W speaks and leads first): W holds
# every spade; S trumps W's AS with the 10H, E (no trump over it) discards,
# and N sees his partner S win with a trump.
UNDER = {
    Seat.W: "AS KS QS JS 10S 9S 8S 7S",
    Seat.S: "JH 10H AD KD QD JD 10D 9D",
    Seat.E: "KH QH 7H 8D 7D AC KC QC",
    Seat.N: "9H AH 8H JC 10C 9C 8C 7C",
}


def test_option_lower_trump_under_partner_ffb_coinche() -> None:
    """FFB classique 2016, 5.2: under the partner's trump "On peut se
    défausser de n'importe quelle carte sans exception (y compris un atout
    inférieur au sien)": N may play any of his 8 cards.  FFB coinche 2015,
    5.2: "Lorsque notre partenaire, maître, a coupé une carte adverse et que
    nous ne possédons plus que de l'atout, il n'est pas obligé de fournir un
    atout supérieur. C'est le seul cas de figure, plutôt rare, où il est
    permis de jouer un atout inférieur": N, holding clubs, may discard or
    overtrump (9H, AH), not play the 8H under the 10H; a hand of trumps
    alone may (9H 8H both legal)."""
    from rebelote.tricks import legal_play_mask
    from rebelote.trump import Strain, strain_tables

    ffb_rule = COINCHE.replace(lower_trump_under_partner="all_trumps_only")

    def n_legal(rules: Rules) -> CardSet:
        state = deal(rules, UNDER, None, "pass 80H pass pass pass")
        play(state, "AS 10H 8D")
        assert state.current == Seat.N
        return legal_cards(state)

    assert n_legal(COINCHE) == CardSet.parse(UNDER[Seat.N])
    assert n_legal(ffb_rule) == CardSet.parse("9H AH JC 10C 9C 8C 7C")
    hearts = strain_tables(Strain.H, ffb_rule.ta_points, ffb_rule.sa_points)
    led, winning = parse_card("AS"), parse_card("10H")

    def mask(text: str, rules: Rules) -> CardSet:
        hand = CardSet.parse(text).mask
        return CardSet(legal_play_mask(hand, led, winning, True, hearts, rules))

    assert mask("9H 8H", ffb_rule) == CardSet.parse("9H 8H")  # trumps alone
    assert mask("8H 7C", ffb_rule) == CardSet.parse("7C")  # no higher trump
    assert mask("8H 7C", COINCHE) == CardSet.parse("8H 7C")


def test_option_after_coinche_three_passes_ffb_coinche() -> None:
    """Club rules (colver): after a coinche only the coinched side speaks, its
    two passes end the auction (W 80H, S coinche, E pass: W speaks, and
    passes).  FFB coinche 2015, 4.1: "lorsqu'après une enchère ou une
    coinche, les trois joueurs suivants passent": N speaks after E (pass
    only), then W."""

    def after(rules: Rules) -> tuple[str, list[str], str]:
        state = deal(rules, TWO, None, "80H coinche pass")
        assert state.current is not None
        seat, options = state.current.letter, texts(state)
        while state.phase == Phase.BIDDING:
            state.apply(parse_bid("pass"))
        assert state.contract is not None
        return seat, options, state.contract.text

    assert after(COINCHE) == ("W", ["pass", "surcoinche"], "80H by W coinche")
    three = COINCHE.replace(after_coinche="three_passes")
    assert after(three) == ("N", ["pass"], "80H by W coinche")


def test_option_coinche_capot_points_ffb_coinche() -> None:
    """Club rules (colver): a capot counts 250, so W's capotH made scores
    250 + 250 = 500.  FFB coinche 2015, 9.2: "le dix de der vaut 100 points,
    portant ainsi le total à 252 points": 252 + 250 = 502 (10.1.1: "Leur
    total + Le montant du contrat demandé (250 points pour un capot
    demandé)").  N's belote scores 20 for NS either way."""

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...]]:
        result = capot_result(rules, None, "capotH pass pass pass")
        return result.result, result.score

    assert outcome(COINCHE) == ("capot", (20, 500))
    assert outcome(COINCHE.replace(coinche_capot_points=252)) == ("capot", (20, 502))


def test_option_coinche_multiplies_deal_ffb_coinche() -> None:
    """Club rules (colver), the coinche multiplies the contract: 80H by W
    coinched, made with 114: EW 80 x 2 + 114 = 274, NS their 48.  FFB
    coinche 2015, 10.1.1: "(160 points + Leurs annonces + Leur belote + Les
    annonces des défenseurs ... + Le montant du contrat demandé) x 2"; "Les
    défenseurs ne marquent rien": EW (160 + 80) x 2 = 480, NS 0."""

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...]]:
        state = deal(rules, TWO, None, "80H coinche pass pass")
        play(state, COINCHE_SCRIPT)
        result = finished(state)
        return result.result, result.score

    assert outcome(COINCHE) == ("made", (48, 274))
    assert outcome(COINCHE.replace(coinche_multiplies="deal")) == ("made", (0, 480))


# CAPOT with N's spades and S's diamonds swapped: N holds a quarte 7D-10D
# (the best declaration) and the belote, S a tierce 7S-9S, W a tierce
# 9H-JH; W still takes every trick, leading his eight cards in turn.
CAPOT_DECL = {
    Seat.W: "JH 9H AH 10H AS 10S AC 10C",
    Seat.S: "7S 8S 9S JS QS JD KD 8C",
    Seat.E: "8H 7H KS QD AD 9C QC KC",
    Seat.N: "KH QH 7D 8D 9D 10D 7C JC",
}
CAPOT_DECL_SCRIPT = (
    "JH 7S 7H QH  9H 8S 8H KH  AH 9S KS 7D  10H JS QD 8D "
    "AS QS 9C 9D  10S 8C QC 10D  AC JD KC 7C  10C KD AD JC"
)


def test_option_capot_takes_declarations_ffb_coinche() -> None:
    """W bids capotH and takes every trick; NS hold the best declaration (N's
    quarte 50, S's tierce 20: 70) and N the belote.  Club rules: each side
    keeps its declarations: EW 250 + 250 = 500, NS 70 + 20 = 90.  FFB coinche
    2015, 10.1.1: "si un capot est réalisé par les preneurs, les annonces
    des défenseurs changent de main et sont marqués par les preneurs": EW
    250 + 70 + 250 = 570, NS their belote 20."""
    base = COINCHE.replace(declarations="choice")

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        state = deal(rules, CAPOT_DECL, None, "capotH pass pass pass")
        play(state, CAPOT_DECL_SCRIPT)
        result = finished(state)
        counted = tuple(sum(d.points for d in side) for side in result.declarations)
        return result.result, counted, result.score

    assert outcome(base) == ("capot", (70, 0), (90, 500))
    flipped = base.replace(capot_takes_declarations=True)
    assert outcome(flipped) == ("capot", (0, 70), (20, 570))


def test_option_rounding_nearest_ten_ffb_coinche() -> None:
    """FFB classique 2016, 10.3: "le score de chaque équipe est marqué au point
    près" (none): 80H by W made with 114: EW 80 + 114 = 194, NS 48.  FFB
    coinche 2015, 10.2: "les points de la partie sont arrondis à la dizaine
    la plus proche": EW 190, NS 50.  The house rule (5 down, the other side
    the rest of the rounded deal) gives the same here: 194 -> 190, 242 ->
    240, 240 - 190 = 50."""

    def outcome(rules: Rules) -> tuple[str, tuple[int, ...]]:
        state = deal(rules, TWO, None, "80H pass pass pass")
        play(state, COINCHE_SCRIPT)
        result = finished(state)
        return result.result, result.score

    assert outcome(COINCHE) == ("made", (48, 194))
    assert outcome(COINCHE.replace(rounding="nearest_ten")) == ("made", (50, 190))
    assert outcome(COINCHE.replace(rounding="house")) == ("made", (50, 190))


def test_option_sa_carres_ffb_coinche() -> None:
    """FFB coinche 2015, 11.2: at Sans Atout four aces score 200 (``ffb``),
    100 as in a suit (``usual``)."""
    from rebelote.declarations import carre_points, find_declarations
    from rebelote.trump import Strain as _Strain

    hand = sum(1 << c for c in parse_cards("AS AH AD AC 7S 8S 7H 8H"))
    usual = find_declarations(hand, _Strain.SA, carre_points(_Strain.SA, "usual"))
    ffb = find_declarations(hand, _Strain.SA, carre_points(_Strain.SA, "ffb"))
    assert [(d.text, d.points) for d in usual] == [("carre-A", 100)]
    assert [(d.text, d.points) for d in ffb] == [("carre-A", 200)]
    rules = preset("ffb-coinche").replace(coinche_tout_atout=True)
    for sa_carres, points in (("usual", 100), ("ffb", 200)):
        hands = {
            Seat.W: parse_cards("AS AH AD AC 7S 8S 7H 8H"),
            Seat.S: parse_cards("10S 10H 10D 10C 9S 9H 9D 9C"),
            Seat.E: parse_cards("KS KH KD KC QS QH QD QC"),
            Seat.N: parse_cards("JS JH JD JC 7D 8D 7C 8C"),
        }
        state = State.from_hands(rules.replace(sa_carres=sa_carres), Seat.N, hands, None)
        for word in ("80SA", "pass", "pass", "pass"):
            state.apply(state.parse_action(word))
        assert [d.points for d in state.found[Seat.W]] == [points]


def test_option_deal_points_played_two_players() -> None:
    """RULES.md "Two players" (the project's choice): random deal 7 of
    ``two-players``, W fails: S scores the points in play 92 + its tierce
    20 + belote 20 = 132 (``played``), or the four-player 162 + 40 = 202
    (``fixed``)."""
    import random

    from rebelote.simulate import random_deal

    two = preset("two-players").replace(deal_points="played")
    assert random_deal(two, random.Random(7)).result.score == (0, 132)  # type: ignore[union-attr]
    fixed = random_deal(preset("two-players"), random.Random(7)).result
    assert fixed is not None and fixed.score == (0, 202)


# ============================================================ the contract

OPTION_TESTS: dict[str, Callable[[], None]] = {
    "players": test_option_players_three_no_partner_seed000,
    "target": test_option_target_501_seed002,
    "cut_optional": test_option_cut_optional_seed000,
    "cut_min_packet": test_option_cut_min_packet_seed001,
    "patterns": test_option_patterns_3_2_only_seed002,
    "bidding": test_option_bidding_tout_atout_seed000,
    "round_two_turned_suit": test_option_round_two_turned_suit_seed001,
    "all_pass": test_option_all_pass_redeal_seed003,
    "dealer_rotation": test_option_dealer_rotation_left,
    "first_lead": test_option_first_lead_dealer_seed002,
    "partner_winning_exemption": test_option_partner_winning_exemption_seed003,
    "must_undertrump": test_option_must_undertrump_seed003,
    "overtrump_partner_on_trump_lead": test_option_overtrump_partner_on_trump_lead_seed002,
    "declarations": test_option_declarations_off_seed002,
    "declaration_turn": test_option_declaration_turn_seed000,
    "declaration_tie": test_option_declaration_tie_first_declared_seed000,
    "belote_must_be_said": test_option_belote_must_be_said_seed001,
    "belote_requires_trick": test_option_belote_requires_trick_seed000,
    "belote_on_dedans": test_option_belote_on_dedans_defenders,
    "tie": test_option_tie_takers_fail_seed001,
    "capot_points": test_option_capot_points_seed001,
    "capot_against_takers": test_option_capot_against_takers_seed001,
    "solo_capot_points": test_option_solo_capot_points_seed002,
    "carre_of_seven_cancels": test_option_carre_of_seven_cancels_seed001,
    "sa_multiplier": test_option_sa_multiplier_seed000,
    "ta_multiplier": test_option_ta_multiplier_seed000,
    "ta_points": test_option_ta_points_table,
    "sa_points": test_option_sa_points_table,
    "coinche_tout_atout": test_option_coinche_tout_atout,
    "coinche_made_score": test_option_coinche_made_score_contract,
    "lower_trump_under_partner": test_option_lower_trump_under_partner_ffb_coinche,
    "after_coinche": test_option_after_coinche_three_passes_ffb_coinche,
    "coinche_capot_points": test_option_coinche_capot_points_ffb_coinche,
    "coinche_multiplies": test_option_coinche_multiplies_deal_ffb_coinche,
    "capot_takes_declarations": test_option_capot_takes_declarations_ffb_coinche,
    "ta_sa_points_to_162": test_option_ta_sa_points_to_162_ffb_classique,
    "rounding": test_option_rounding_nearest_ten_ffb_coinche,
    "belote_alone_cannot_win": test_option_belote_alone_cannot_win_ffb_coinche,
    "sa_carres": test_option_sa_carres_ffb_coinche,
    "deal_points": test_option_deal_points_played_two_players,
}
"""Every option of ``Rules`` and the test showing that flipping it alone
changes an outcome."""


def test_every_option_has_a_test() -> None:
    """The issue: "no option may exist and be ignored": every name of
    ``OPTION_NAMES`` has an entry in :data:`OPTION_TESTS`, and no entry names
    an option that does not exist."""
    missing = [name for name in OPTION_NAMES if name not in OPTION_TESTS]
    assert missing == []
    unknown = sorted(set(OPTION_TESTS) - set(OPTION_NAMES))
    assert unknown == []
    for name, test in OPTION_TESTS.items():
        assert test.__name__.startswith(f"test_option_{name}"), name
        assert globals()[test.__name__] is test


# ============================================================ presets

FFB_OPTIONS: dict[str, Any] = {
    "players": 4,
    "target": 1000,
    "cut_optional": False,
    "cut_min_packet": 2,
    "patterns": ["3-2", "2-3"],
    "bidding": "classic",
    "round_two_turned_suit": False,
    "all_pass": "next_dealer",
    "dealer_rotation": "right",
    "first_lead": "dealer_right",
    "partner_winning_exemption": True,
    "must_undertrump": True,
    "overtrump_partner_on_trump_lead": True,
    "declarations": "choice",
    "declaration_turn": False,
    "declaration_tie": "none",
    "belote_must_be_said": False,
    "belote_requires_trick": False,
    "belote_on_dedans": "holders",
    "tie": "litige",
    "capot_points": 252,
    "capot_against_takers": 252,
    "deal_points": "fixed",
    "solo_capot_points": None,
    "carre_of_seven_cancels": False,
    "sa_multiplier": 2,
    "ta_multiplier": 3,
    "ta_points": [0, 0, 9, 5, 14, 1, 3, 6],
    "sa_points": [0, 0, 0, 10, 2, 3, 4, 19],
    "coinche_tout_atout": False,
    "sa_carres": "usual",
    "coinche_made_score": "contract_and_points",
    "lower_trump_under_partner": "allowed",
    "after_coinche": "coinched_side",
    "coinche_capot_points": 250,
    "coinche_multiplies": "contract",
    "capot_takes_declarations": False,
    "ta_sa_points_to_162": False,
    "rounding": "none",
    "belote_alone_cannot_win": False,
}
"""Every option of ``ffb`` (RULES.md "Presets", column ffb, and the FFB where
the table is silent)."""

SEED000_DIFF: dict[str, Any] = {
    "cut_optional": True,  # "Le joueur a la possibilité de couper le jeu"
    "all_pass": "redeal",  # RULES.md: all pass twice, seed 000: redeal
    "declaration_turn": True,  # "commence alors le tour des annonces"
    "declaration_tie": "first",  # "la première annoncée est celle retenue"
    "belote_requires_trick": True,  # "si l'équipe marque des points grâce à ses plis"
}


def options_of(name: str) -> dict[str, Any]:
    """A preset's options, checked to be named after the preset."""
    rules = preset(name)
    assert rules.preset == name
    assert list(rules.options()) == list(OPTION_NAMES)
    return rules.options()


def test_presets_are_the_table_columns() -> None:
    """RULES.md "Presets": ffb, ffb-no-declarations, seed000,
    seed000-tout-atout, seed001, seed002, seed003, coinche (and the
    three- and two-player games of RULES.md "Three players", "Two players")."""
    assert sorted(PRESETS) == sorted(
        [
            "ffb",
            "ffb-no-declarations",
            "seed000",
            "seed000-tout-atout",
            "seed001",
            "seed002",
            "seed003",
            "coinche",
            "three-players",
            "two-players",
            "ffb-coinche",
        ]
    )
    assert Rules() == FFB.replace(preset="ffb")


def test_preset_ffb() -> None:
    """RULES.md "Presets", column ffb: 1000 points, classic bidding, round two
    another suit, dealer's right leads, partner exemption, under-trumping,
    overtrumping the partner on a trump lead, declarations on, equal best
    declarations: neither, belote automatic, litige, capot against takers 252,
    no cancelling carré of 7s."""
    assert options_of("ffb") == FFB_OPTIONS
    rules = preset("ffb")
    assert (rules.target, rules.bidding, rules.round_two_turned_suit) == (1000, "classic", False)
    assert (rules.first_lead, rules.partner_winning_exemption) == ("dealer_right", True)
    assert (rules.must_undertrump, rules.overtrump_partner_on_trump_lead) == (True, True)
    assert (rules.declarations, rules.declaration_tie) == ("choice", "none")
    assert (rules.belote_must_be_said, rules.tie) == (False, "litige")
    assert (rules.capot_against_takers, rules.carre_of_seven_cancels) == (252, False)


def test_preset_ffb_no_declarations() -> None:
    """RULES.md "Presets": ffb-no-declarations differs from ffb only by
    "declarations (annonces): off"."""
    assert options_of("ffb-no-declarations") == {**FFB_OPTIONS, "declarations": "off"}


def test_preset_seed000() -> None:
    """RULES.md "Presets", seed000: equal best declarations "first declared
    scores"; the differences table: cut optional, redeal when all pass, a
    declaration turn, belote only with a trick (seed 000's own words in
    SEED000_DIFF)."""
    assert options_of("seed000") == {**FFB_OPTIONS, **SEED000_DIFF}
    rules = preset("seed000")
    assert (rules.target, rules.declarations, rules.declaration_tie) == (1000, "choice", "first")


def test_preset_seed000_tout_atout() -> None:
    """RULES.md "Presets", seed000-tout-atout: target 3000 ("les parties en
    Tout Atout/Sans Atout se jouent en 3000 points"), TA/SA overbidding, equal
    declarations: first declared; SA x2, TA x3 ("le double", "le triple")."""
    expected = {**FFB_OPTIONS, **SEED000_DIFF, "target": 3000, "bidding": "tout_atout"}
    assert options_of("seed000-tout-atout") == expected
    rules = preset("seed000-tout-atout")
    assert (rules.sa_multiplier, rules.ta_multiplier) == (2, 3)


def test_preset_seed001() -> None:
    """RULES.md "Presets", seed001: round two may name the turned suit ("une
    quelconque couleur"), belote must be said ("sans annonce la belote n'est
    pas comptabilisée"), takers fail on a tie ("doit totaliser plus de
    points"), capot against the takers 162 ("simplement un dedans 162"), a
    carré of 7s cancels ("Un carré de 7 annule la partie")."""
    assert options_of("seed001") == {
        **FFB_OPTIONS,
        "round_two_turned_suit": True,
        "belote_must_be_said": True,
        "tie": "takers_fail",
        "capot_against_takers": 162,
        "carre_of_seven_cancels": True,
    }


def test_preset_seed002() -> None:
    """RULES.md "Presets", seed002: target 501 ("Visez 501 points"), the dealer
    leads ("le donneur entamera le premier pli"), no overtrumping the partner
    on a trump lead, no declarations, takers fail on a tie ("ne peut pas
    marquer plus de points"); the differences table: 3-2 only ("3 cartes puis
    encore 2 cartes"), all pass: the dealer's left deals ("Le joueur à gauche
    du donneur deviendra le donneur suivant"), solo capot 350."""
    assert options_of("seed002") == {
        **FFB_OPTIONS,
        "target": 501,
        "patterns": ["3-2"],
        "all_pass": "dealer_left",
        "first_lead": "dealer",
        "overtrump_partner_on_trump_lead": False,
        "declarations": "off",
        "tie": "takers_fail",
        "solo_capot_points": 350,
    }
    assert preset("seed002").first_lead == "dealer"
    assert preset("seed002").target == 501


def test_preset_seed003() -> None:
    """RULES.md "Presets", seed003: target 501 ("atteindre 501 points"), no
    partner exemption, no under-trumping ("3. N'importe quelle autre carte"),
    automatic declarations ("faites automatiquement lors du premier tour"),
    litige; the differences table: redeal when all pass ("les cartes sont
    redistribuées")."""
    assert options_of("seed003") == {
        **FFB_OPTIONS,
        "target": 501,
        "all_pass": "redeal",
        "partner_winning_exemption": False,
        "must_undertrump": False,
        "declarations": "automatic",
    }
    assert preset("seed003").tie == "litige"


def test_preset_coinche() -> None:
    """RULES.md "Presets", coinche: target 2000, the auction, no
    under-trumping, declarations off, takers fail on a tie.  Not in the table:
    Tout Atout / Sans Atout contracts are not multiplied (x1; the coinche
    multiplier is the coinche / surcoinche one)."""
    assert options_of("coinche") == {
        **FFB_OPTIONS,
        "target": 2000,
        "bidding": "coinche",
        "must_undertrump": False,
        "declarations": "off",
        "tie": "takers_fail",
        "sa_multiplier": 1,
        "ta_multiplier": 1,
    }


def test_preset_three_players() -> None:
    """RULES.md "Three players": 24 cards, each for himself; "The taker must
    score more than each opponent" (a tie fails: takers_fail)."""
    assert options_of("three-players") == {**FFB_OPTIONS, "players": 3, "tie": "takers_fail"}
    assert preset("three-players").cards_per_deal == 24


def test_preset_ffb_coinche() -> None:
    """docs/rules/FFB.md: the Fédération Française de Belote's coinche rules
    (2015), section by section; every other option as ffb."""
    assert options_of("ffb-coinche") == {
        **FFB_OPTIONS,
        "target": 2000,  # not fixed: "un nombre de points défini au départ"
        "cut_min_packet": 3,  # 3.3 "au moins 3 cartes"
        "patterns": ["3-2", "3-3-2", "2-3"],  # 3.4
        "bidding": "coinche",  # 4.1
        "after_coinche": "three_passes",  # 4.1 "les trois joueurs suivants passent"
        "must_undertrump": False,  # 5.2 "il n'est pas obligatoire d'en jouer un"
        "lower_trump_under_partner": "all_trumps_only",  # 5.2 "le seul cas de figure"
        "belote_must_be_said": True,  # 7 "la belote n'est pas prise en compte"
        "declarations": "choice",  # 8 "toujours avec les annonces"
        "coinche_capot_points": 252,  # 9.2
        "coinche_multiplies": "deal",  # 4.1, 10.1.1, 10.1.2
        "capot_takes_declarations": True,  # 10.1.1 "Cas particulier"
        "tie": "takers_fail",  # 10.1.2 "supérieur ou égal aux preneurs"
        "rounding": "nearest_ten",  # 10.2
        "belote_alone_cannot_win": True,  # 10.3 "Cas particulier"
        "sa_multiplier": 1,
        "ta_multiplier": 1,
        "sa_points": [0, 0, 0, 10, 0, 3, 4, 19],  # 11.2 (variant off)
        "sa_carres": "ffb",  # 11.2 (variant off)
        "ta_points": [0, 0, 9, 5, 13, 2, 3, 6],  # 11.3 (variant off)
    }
    assert sum(preset("ffb-coinche").ta_points) * 4 + 10 == 162


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_record_round_trip(name: str) -> None:
    """A preset is written to records by name and read back unchanged."""
    rules = preset(name)
    assert rules.to_record() == name
    assert Rules.from_record(name) == rules
    flipped = rules.replace(target=rules.target + 1)
    assert Rules.from_record(flipped.to_record()) == flipped


def test_unknown_option_refused() -> None:
    """An option that does not exist is refused, never ignored."""
    with pytest.raises(ValueError):
        FFB.replace(no_such_option=True)
    with pytest.raises(ValueError):
        Rules.from_record({"preset": "ffb", "no_such_option": 1})


def test_rule_numbers_are_bounded() -> None:
    from rebelote.rules import MAX_OPTION_NUMBER, RulesError

    base = preset("seed000-tout-atout")
    with pytest.raises(RulesError, match="ta_points must not be negative, not -9"):
        base.replace(ta_points=(0, 0, -9, 5, 14, 1, 3, 6))
    with pytest.raises(RulesError, match="ta_points must be at most 1,000,000, not 10000000000"):
        base.replace(ta_points=(0, 0, 9, 5, 14, 1, 3, 10**10))
    with pytest.raises(RulesError, match="capot_points must be at most 1,000,000"):
        base.replace(capot_points=10**30)
    assert base.replace(capot_points=MAX_OPTION_NUMBER).capot_points == 1_000_000
