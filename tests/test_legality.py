"""Which card may be played: the exact legal set in many positions, and who
wins a trick.

Sources (French texts in ``shared/seeds/``):

- seed 000: "On est obligé de fournir à la couleur demandée"; "Si on ne peut
  pas fournir à la couleur demandée, on doit couper avec de l'atout, à défaut,
  n'importe quelle carte convient.  Cette obligation est levée si le
  partenaire est maître."; "On est obligé de monter à l'atout : Si la couleur
  demandée est atout, ou si on surcoupe, on doit, si possible, jouer un atout
  plus fort que celui déjà mis."  Tout Atout: "les 4 couleurs sont
  considérées comme de l'atout"; Sans Atout: "il ne sera pas possible de
  couper".
- seed 001: "si le joueur ne possède pas de carte de la couleur d'entame et que
  la carte la plus forte a été déposée par son partenaire, il joue la carte de
  son choix"; "Si ce n'est pas possible, et selon les règles, il doit, soit
  jouer un atout plus faible, soit il est autorisé à se défausser."
- seed 002: "Si la levée en cours comprend des cartes en atout, les joueurs
  doivent jouer un plus fort atout s'ils peuvent; mais lorsque le partenaire
  d'un joueur soit le gagnant actuel du pli, le joueur n'a pas besoin de
  satisfaire cette exigence."
- seed 003: "Si la carte demandée n'est pas un atout : 1. Une carte de la même
  couleur. 2. Un atout supérieur à tous ceux déjà joués. 3. N'importe quelle
  autre carte." (no partner exemption, no under-trumping).
- RULES.md presets: ffb (FFB: partner exemption, must under-trump, must
  overtrump the partner on a trump lead), seed002, seed003, coinche.

Four players: the player to act sits after the cards of ``trick`` (given in
play order); his partner played the card two places before him.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rebelote.actions import Play, parse_bid
from rebelote.cards import CardSet, parse_card, parse_cards
from rebelote.rules import Rules, preset
from rebelote.seats import Seat
from rebelote.state import IllegalActionError, Phase, State
from rebelote.tricks import legal_play_mask, trick_winner
from rebelote.trump import Strain, strain_tables

FFB = preset("ffb")
SEED002 = preset("seed002")
SEED003 = preset("seed003")
COINCHE = preset("coinche")
THREE = preset("three-players")


def turn(state: State) -> Seat | None:
    """Who is to act (a function, so that mypy does not narrow it between
    actions)."""
    return state.current


def legal(rules: Rules, strain: str, hand: str, trick: str = "") -> CardSet:
    """The legal cards of ``hand`` for the next player on ``trick``."""
    tables = strain_tables(Strain.parse(strain), rules.ta_points, rules.sa_points)
    cards = parse_cards(trick)
    mask = CardSet.parse(hand).mask
    if not cards:
        return CardSet(legal_play_mask(mask, None, None, False, tables, rules))
    best = trick_winner(cards, tables)
    partner = rules.players == 4 and len(cards) >= 2 and best == len(cards) - 2
    return CardSet(legal_play_mask(mask, cards[0], cards[best], partner, tables, rules))


def cs(text: str) -> CardSet:
    """Shorthand for ``CardSet.parse``."""
    return CardSet.parse(text)


# --------------------------------------------------------------- leading


def test_leader_may_play_any_card() -> None:
    """Seed 002: "le donneur entamera le premier pli en jouant n'importe quelle
    carte": the leader is free."""
    assert legal(FFB, "H", "7S KS 7H JH AD 10C") == cs("7S KS 7H JH AD 10C")
    assert legal(FFB, "TA", "7S KS 7H") == cs("7S KS 7H")


# --------------------------------------------------------------- follow suit


def test_must_follow_suit_led_seed000() -> None:
    """Seed 000: "On est obligé de fournir à la couleur demandée" (trump H,
    spades led: only the spades, not the trumps)."""
    assert legal(FFB, "H", "7S KS 7H JH AD 10C", "AS") == cs("7S KS")


def test_following_plain_suit_need_not_go_higher_seed001() -> None:
    """Seed 001: "il doit jouer l'une de ces cartes": any card of the suit led,
    higher or lower (only trumps must go higher)."""
    assert legal(FFB, "H", "7S AS", "10S") == cs("7S AS")
    assert legal(FFB, "H", "7S KS", "AS") == cs("7S KS")


def test_must_follow_suit_even_when_trump_on_trick_seed003() -> None:
    """Seed 003: "1. Une carte de la même couleur" comes first: an opponent has
    trumped, the player can follow and need not overtrump."""
    assert legal(FFB, "H", "KS JH AD", "AS 7H") == cs("KS")
    assert legal(SEED003, "H", "KS JH AD", "AS 7H") == cs("KS")


def test_must_follow_suit_when_partner_wins_seed001() -> None:
    """Seed 001: the partner exemption applies only when void ("ne possède
    pas de carte de la couleur d'entame")."""
    assert legal(FFB, "H", "KS 7H AD", "AS 7S") == cs("KS")


# --------------------------------------------------------------- void: trump


def test_void_must_trump_seed000() -> None:
    """Seed 000: "Si on ne peut pas fournir ... on doit couper avec de l'atout"
    (opponent leads spades, no trump on the trick yet: any trump)."""
    assert legal(FFB, "H", "7H JH AD 10C", "AS") == cs("7H JH")
    assert legal(SEED003, "H", "7H JH AD 10C", "AS") == cs("7H JH")


def test_void_must_trump_when_opponent_wins_third_seat_seed001() -> None:
    """Seed 001: "que la carte la plus forte n'a pas été déposée par son
    partenaire et qu'il possède des cartes d'atout, il doit jouer l'une de ces
    cartes" (partner led 7S, the opponent's AS wins)."""
    assert legal(FFB, "H", "7H JH AD 10C", "7S AS") == cs("7H JH")


def test_void_without_trump_any_card_seed000() -> None:
    """Seed 000: "à défaut, n'importe quelle carte convient"."""
    assert legal(FFB, "H", "AD 10C 8C", "AS") == cs("AD 10C 8C")
    assert legal(SEED003, "H", "AD 10C 8C", "AS") == cs("AD 10C 8C")


def test_partner_winning_exemption_ffb_seed000() -> None:
    """Seed 000: "Cette obligation est levée si le partenaire est maître";
    seed 001: "il joue la carte de son choix" (partner's AS wins)."""
    assert legal(FFB, "H", "7H JH AD 10C", "AS 7S") == cs("7H JH AD 10C")
    assert legal(SEED002, "H", "7H JH AD 10C", "AS 7S") == cs("7H JH AD 10C")


def test_partner_winning_exemption_absent_seed003() -> None:
    """Seed 003: "2. Un atout supérieur à tous ceux déjà joués", no exemption
    when the partner wins: must trump all the same."""
    assert legal(SEED003, "H", "7H JH AD 10C", "AS 7S") == cs("7H JH")


def test_partner_winning_with_trump_exemption_ffb_seed000() -> None:
    """Seed 000: the partner is "maître" with his trump 9H: any card."""
    assert legal(FFB, "H", "7H JH AD 10C", "AS 9H 10S") == cs("7H JH AD 10C")


def test_partner_winning_with_trump_must_overtrump_seed003() -> None:
    """Seed 003: "Un atout supérieur à tous ceux déjà joués": over the
    partner's 9H with JH; unable, "N'importe quelle autre carte"."""
    assert legal(SEED003, "H", "7H JH AD 10C", "AS 9H 10S") == cs("JH")
    assert legal(SEED003, "H", "7H 8H AD 10C", "AS 9H 10S") == cs("7H 8H AD 10C")


# --------------------------------------------------------------- overtrump


def test_must_overtrump_opponent_trump_seed000() -> None:
    """Seed 000: "ou si on surcoupe, on doit, si possible, jouer un atout plus
    fort que celui déjà mis" (opponent's 9H: only JH beats it)."""
    assert legal(FFB, "H", "7H JH AD 10C", "AS 9H") == cs("JH")
    assert legal(SEED003, "H", "7H JH AD 10C", "AS 9H") == cs("JH")
    assert legal(COINCHE, "H", "7H JH AD 10C", "AS 9H") == cs("JH")


def test_overtrump_any_higher_trump_trump_order_seed001() -> None:
    """Seed 001 trump order "Valet, 9, As, 10, Roi, Dame, 8, 7": over QH the
    9, A, 10 and K all go higher, the 8 does not."""
    assert legal(FFB, "H", "8H 9H 10H KH AH 7C", "AS QH") == cs("9H 10H KH AH")


def test_unable_to_overtrump_must_undertrump_ffb() -> None:
    """FFB; seed 001 "il doit, soit jouer un atout plus faible": JH on the
    trick, the player's trumps are all lower: must play one of them."""
    assert legal(FFB, "H", "7H 9H AD 10C", "AS JH") == cs("7H 9H")


def test_unable_to_overtrump_any_card_seed003() -> None:
    """Seed 003: "3. N'importe quelle autre carte"; seed 001 "soit il est
    autorisé à se défausser"; RULES.md presets: coinche, no under-trumping."""
    assert legal(SEED003, "H", "7H 9H AD 10C", "AS JH") == cs("7H 9H AD 10C")
    assert legal(COINCHE, "H", "7H 9H AD 10C", "AS JH") == cs("7H 9H AD 10C")


# --------------------------------------------------------------- trump led


def test_trump_led_must_go_higher_seed000() -> None:
    """Seed 000: "Si la couleur demandée est atout ... jouer un atout plus fort
    que celui déjà mis" (9H led: only JH beats it)."""
    assert legal(FFB, "H", "7H AH JH 10C", "9H") == cs("JH")


def test_trump_led_unable_to_go_higher_must_follow_seed003() -> None:
    """Seed 003 (trump led): "2. N'importe quel autre atout" before "3.
    N'importe quelle autre carte"."""
    assert legal(FFB, "H", "7H AH 10C", "9H") == cs("7H AH")
    assert legal(SEED003, "H", "7H AH 10C", "9H") == cs("7H AH")


def test_trump_led_void_any_card_seed003() -> None:
    """Seed 003: "3. N'importe quelle autre carte" when holding no trump."""
    assert legal(FFB, "H", "AS 10C", "9H") == cs("AS 10C")


def test_trump_led_must_overtrump_partner_ffb() -> None:
    """RULES.md (FFB, seeds 000, 001, 003): trump led, partner's 10H winning,
    still "monter": 9H and AH beat the 10, QH does not."""
    assert legal(FFB, "H", "QH 9H AH AS", "10H 7H") == cs("9H AH")
    assert legal(SEED003, "H", "QH 9H AH AS", "10H 7H") == cs("9H AH")


def test_trump_led_partner_winning_exempt_seed002() -> None:
    """Seed 002: "mais lorsque le partenaire d'un joueur soit le gagnant actuel
    du pli, le joueur n'a pas besoin de satisfaire cette exigence": any trump
    (still following the trump led)."""
    assert legal(SEED002, "H", "QH 9H AH AS", "10H 7H") == cs("QH 9H AH")


def test_trump_led_opponent_winning_must_go_higher_seed002() -> None:
    """Seed 002: "les joueurs doivent jouer un plus fort atout s'ils peuvent"
    when the opponent wins."""
    assert legal(SEED002, "H", "QH 9H AH AS", "10H") == cs("9H AH")


# --------------------------------------------------------------- Sans Atout


def test_sans_atout_follow_suit_seed000() -> None:
    """Seed 000, Sans Atout: follow suit, no need to go higher."""
    assert legal(FFB, "SA", "7S KS JH", "AS") == cs("7S KS")
    assert legal(FFB, "SA", "AS 8S", "7S") == cs("AS 8S")


def test_sans_atout_void_any_card_seed000() -> None:
    """Seed 000: "à Sans Atout, dans ce cas il ne sera pas possible de couper":
    void in the suit led, any card."""
    assert legal(FFB, "SA", "JH AD 7C", "AS") == cs("JH AD 7C")
    assert legal(SEED003, "SA", "JH AD 7C", "AS 10S") == cs("JH AD 7C")


# --------------------------------------------------------------- Tout Atout


def test_tout_atout_must_go_higher_in_suit_led_seed000() -> None:
    """Seed 000: "les 4 couleurs sont considérées comme de l'atout": 9S led,
    only JS goes higher (trump order)."""
    assert legal(FFB, "TA", "JS 7S AS 8H", "9S") == cs("JS")


def test_tout_atout_unable_to_go_higher_follow_seed000() -> None:
    """Seed 000 Tout Atout, as a trump lead: unable to go higher, follow."""
    assert legal(FFB, "TA", "7S AS 8H", "9S") == cs("7S AS")


def test_tout_atout_void_any_card_seed000() -> None:
    """Seed 000 Tout Atout: another suit is no higher trump; void, any card."""
    assert legal(FFB, "TA", "8H JD", "9S") == cs("8H JD")


def test_tout_atout_other_suit_on_trick_does_not_count_seed000() -> None:
    """Seed 000 Tout Atout: the JH discarded on a spade trick does not win it;
    the player must beat the 10S (AS) only."""
    assert legal(FFB, "TA", "AS 7S", "10S JH") == cs("AS")
    assert legal(FFB, "TA", "KS 7S", "10S JH") == cs("7S KS")


def test_tout_atout_partner_winning_must_go_higher_ffb() -> None:
    """FFB (trump led, "monter" even over the partner), in Tout Atout."""
    assert legal(FFB, "TA", "AS KS", "10S 7S") == cs("AS")


def test_tout_atout_partner_winning_exempt_seed002_option() -> None:
    """Seed 002's exemption ("n'a pas besoin de satisfaire cette exigence")
    in Tout Atout."""
    rules = FFB.replace(overtrump_partner_on_trump_lead=False)
    assert legal(rules, "TA", "AS KS", "10S 7S") == cs("KS AS")


# --------------------------------------------------------------- three players


def test_three_players_no_partner_must_trump_seed000() -> None:
    """Seed 000: "A trois joueurs ... chacun pour soi": the leader's AS is not
    a partner's, so the void player must trump (the same cards at four, with
    the partner winning, are free)."""
    assert legal(THREE, "H", "JH AD", "AS 9S") == cs("JH")
    assert legal(FFB, "H", "JH AD", "AS 9S") == cs("JH AD")


def test_three_players_must_overtrump_seed000() -> None:
    """Seed 000, three players: "si on surcoupe, on doit ... jouer un atout plus
    fort"; unable, must under-trump (FFB)."""
    assert legal(THREE, "H", "AH JH AD", "AS 9H") == cs("JH")
    assert legal(THREE, "H", "AH 10H AD", "AS 9H") == cs("10H AH")


# --------------------------------------------------------------- trick winners


@pytest.mark.parametrize(
    ("strain", "trick", "winner"),
    [
        ("H", "AS 10S 7H KS", 2),  # the 7 of trump beats any plain card
        ("H", "AS 10S 7H 8H", 3),  # higher trump wins
        ("H", "7S AD KS QS", 2),  # another plain suit never wins
        ("H", "9H JH AH 10H", 1),  # trump order J 9 A 10
        ("H", "JS 9S AS 10S", 2),  # plain order A 10 K Q J 9
        ("S", "JS 9S AS 10S", 0),  # same cards, spades trump: J first
        ("H", "7D 8D 9D 10D", 3),
        ("H", "8D AS AC 7D", 0),  # only the suit led counts
        ("H", "KH QH 8H 7H", 0),
        ("SA", "10S AH JD 7S", 0),  # Sans Atout: no trump at all
        ("SA", "10S 7S AS KS", 2),
        ("SA", "JS 9S AS 10S", 2),
        ("TA", "10S JH 9S 7S", 2),  # Tout Atout: trump order in the suit led
        ("TA", "AS 9S JS 10S", 2),
        ("TA", "KD QD 9C JC", 0),  # off-suit jacks and nines do not count
        ("H", "AS 9H 10S", 1),  # three-player trick
    ],
)
def test_trick_winner_seed001(strain: str, trick: str, winner: int) -> None:
    """Seed 001: "Les cartes d'atout l'emportent sur les cartes de couleur. Les
    cartes de la couleur d'entame ... l'emportent sur les autres couleurs sauf
    l'atout"; orders "Valet, 9, As, 10, Roi, Dame, 8, 7" (trump) and "As, 10,
    Roi, Dame, Valet, 9, 8, 7"; seed 000 for Tout Atout / Sans Atout."""
    tables = strain_tables(Strain.parse(strain), FFB.ta_points, FFB.sa_points)
    assert trick_winner(parse_cards(trick), tables) == winner


# ============================================================ through State

# Deal D1: dealer N, W takes the turned 7H (hearts trump), W leads (FFB).
# No hand holds a declaration or the belote (KH with N, QH with E).
D1 = {
    Seat.W: "AS 8S 10S QS 7H JH KC AC",
    Seat.S: "7S 9S JS KS 10H AD JC QC",
    Seat.E: "AH QH 7D 9D JD KD 7C 9C",
    Seat.N: "8H 9H KH 8D 10D QD 8C 10C",
}

# Deal D3: as D1 with the hearts moved: W 7H 10H, S 8H, E AH QH, N 9H JH KH.
D3 = {
    Seat.W: "AS 8S 10S QS 7H 10H KC AC",
    Seat.S: "7S 9S JS KS 8H AD JC QC",
    Seat.E: "AH QH 7D 9D JD KD 7C 9C",
    Seat.N: "9H JH KH 8D 10D QD 8C 10C",
}

# Deal TWO: two cards of each suit in every hand (no declaration, no belote).
TWO = {
    Seat.W: "AS 7S 10H 8H KD 9D QC JC",
    Seat.S: "10S 8S KH 9H QD JD AC 7C",
    Seat.E: "KS 9S QH JH AD 7D 10C 8C",
    Seat.N: "QS JS AH 7H 10D 8D KC 9C",
}


def deal(
    rules: Rules,
    hands: Mapping[Seat, str],
    turned: str,
    bids: str = "take",
    dealer: Seat = Seat.N,
) -> State:
    """A deal from its 8-card hands and turned card, after the bids."""
    state = State.from_hands(
        rules, dealer, {s: parse_cards(h) for s, h in hands.items()}, parse_card(turned)
    )
    for bid in bids.split():
        state.apply(parse_bid(bid))
    return state


def play(state: State, cards: str) -> None:
    """Play cards in turn (each must be legal)."""
    for card in cards.split():
        state.apply(Play(parse_card(card)))


def legal_now(state: State) -> CardSet:
    """The current player's legal cards, checked against legal_actions()."""
    mask = CardSet(state.legal_play_mask())
    actions = state.legal_actions()
    assert all(isinstance(a, Play) for a in actions)
    assert CardSet(a.card for a in actions if isinstance(a, Play)) == mask
    return mask


def test_state_follow_suit_and_partner_exemption_ffb() -> None:
    """Seeds 000/001: follow suit (S: spades only); the partner W is "maître"
    with AS, so E (void in spades) may play any card."""
    state = deal(FFB, D1, "7H")
    assert state.phase == Phase.PLAYING and state.current == Seat.W
    assert legal_now(state) == cs(D1[Seat.W])
    play(state, "AS")
    assert legal_now(state) == cs("7S 9S JS KS")
    play(state, "7S")
    assert turn(state) == Seat.E
    assert legal_now(state) == cs(D1[Seat.E])


def test_state_partner_exemption_absent_seed003() -> None:
    """Seed 003: "2. Un atout supérieur à tous ceux déjà joués": E must trump
    his partner's winning AS."""
    state = deal(SEED003, D1, "7H")
    play(state, "AS 7S")
    assert legal_now(state) == cs("QH AH")


def test_state_must_overtrump_opponent_seed000() -> None:
    """Seed 000: "si on surcoupe, on doit, si possible, jouer un atout plus fort
    que celui déjà mis": E's QH wins, N must play 9H or KH (not 8H)."""
    state = deal(FFB, D1, "7H")
    play(state, "AS 7S QH")
    assert turn(state) == Seat.N
    assert legal_now(state) == cs("9H KH")


def test_state_must_overtrump_ace_of_trump_seed001() -> None:
    """Seed 001 (order J 9 A 10 K Q 8 7): over the AH only the 9H."""
    state = deal(FFB, D1, "7H")
    play(state, "AS 7S AH")
    assert legal_now(state) == cs("9H")


def test_state_void_must_trump_after_discard_seed000() -> None:
    """Seed 000: "on doit couper": E discarded 7D, W's AS still wins, N (his
    partner S played 7S) must trump with any trump."""
    state = deal(FFB, D1, "7H")
    play(state, "AS 7S 7D")
    assert legal_now(state) == cs("8H 9H KH")


def test_state_illegal_card_is_refused_with_legal_list() -> None:
    """Seed 001: "il doit jouer l'une de ces cartes": a heart while holding
    spades is refused; the error lists the legal cards; nothing changes."""
    state = deal(FFB, D1, "7H")
    play(state, "AS")
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(parse_card("10H")))
    assert info.value.legal == ["7S", "9S", "JS", "KS"]
    assert info.value.seat == Seat.S
    assert info.value.trick == 1
    assert turn(state) == Seat.S
    assert state.trick_cards == [parse_card("AS")]
    assert CardSet(state.hands[Seat.S]) == cs(D1[Seat.S])


def test_state_card_out_of_turn_is_refused() -> None:
    """Seed 000: "le joueur peut jouer une carte à son tour": N cannot play
    while W is to lead."""
    state = deal(FFB, D1, "7H")
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(parse_card("8D")), seat=Seat.N)
    assert info.value.seat == Seat.W
    assert turn(state) == Seat.W
    assert state.trick_cards == []


# T1: W AS, S 7S, E QH, N 9H (N wins); T2: N 10C, W AC, S JC, E 7C (W wins);
# T3: W 8S, S KS, E AH (must trump), then N cannot beat the AH.
D1_TO_T3_N = "AS 7S QH 9H 10C AC JC 7C 8S KS AH"


def test_state_unable_to_overtrump_must_undertrump_ffb() -> None:
    """FFB; seed 001 "il doit, soit jouer un atout plus faible": E's AH wins,
    N holds only 8H and KH in trumps: he must play one of them."""
    state = deal(FFB, D1, "7H")
    play(state, D1_TO_T3_N)
    assert turn(state) == Seat.N and state.trick_number == 3
    assert legal_now(state) == cs("8H KH")


def test_state_unable_to_overtrump_any_card_seed003() -> None:
    """Seed 003: "3. N'importe quelle autre carte" once no trump beats the AH."""
    state = deal(SEED003, D1, "7H")
    play(state, D1_TO_T3_N)
    assert legal_now(state) == cs("8H KH 8D 10D QD 8C")


def test_state_trump_led_must_overtrump_partner_ffb() -> None:
    """RULES.md, FFB: trump led (W's 10H wins), E must go higher even over his
    partner: the AH, not the QH.  S, unable to beat 10H, follows with 8H."""
    state = deal(FFB, D3, "7H")
    play(state, "10H")
    assert legal_now(state) == cs("8H")
    play(state, "8H")
    assert legal_now(state) == cs("AH")


def test_state_trump_led_partner_winning_exempt_seed002_rule() -> None:
    """Seed 002: "lorsque le partenaire d'un joueur soit le gagnant actuel du
    pli, le joueur n'a pas besoin de satisfaire cette exigence": QH or AH.
    Then N (opponent winning with 10H) must still go higher: 9H or JH."""
    rules = FFB.replace(overtrump_partner_on_trump_lead=False)
    state = deal(rules, D3, "7H")
    play(state, "10H 8H")
    assert legal_now(state) == cs("QH AH")
    play(state, "QH")
    assert legal_now(state) == cs("9H JH")


def test_state_seed002_dealer_leads_any_card() -> None:
    """Seed 002: "le donneur entamera le premier pli en jouant n'importe quelle
    carte": dealer N leads anything; W, void in diamonds, must then trump."""
    state = deal(SEED002, D1, "7H")
    assert turn(state) == Seat.N
    assert legal_now(state) == cs(D1[Seat.N])
    play(state, "8D")
    assert turn(state) == Seat.W
    assert legal_now(state) == cs("7H JH")  # void in diamonds: must trump


def test_state_sans_atout_follow_suit_seed000() -> None:
    """Seed 000, Sans Atout (seed000-tout-atout): W bids SA; after W's AS, E
    may play 9S or KS (no need to go higher), N JS or QS."""
    rules = preset("seed000-tout-atout")
    state = deal(rules, TWO, "7S", "SA pass pass pass")
    assert state.contract is not None and state.contract.strain == Strain.SA
    play(state, "AS")
    assert legal_now(state) == cs("8S 10S")
    play(state, "8S")
    assert legal_now(state) == cs("9S KS")
    play(state, "9S")
    assert legal_now(state) == cs("JS QS")


def test_state_tout_atout_must_go_higher_seed000() -> None:
    """Seed 000, Tout Atout: "les 4 couleurs sont considérées comme de
    l'atout": after W's AS, S cannot go higher (8S or 10S), E must play the 9S,
    N the JS."""
    rules = preset("seed000-tout-atout")
    state = deal(rules, TWO, "7S", "TA pass pass pass")
    assert state.contract is not None and state.contract.strain == Strain.TA
    play(state, "AS")
    assert legal_now(state) == cs("8S 10S")
    play(state, "8S")
    assert legal_now(state) == cs("9S")
    play(state, "9S")
    assert legal_now(state) == cs("JS")


# Three players (24 cards): dealer S, E speaks first and takes the turned 9H.
THREE_HANDS = {
    Seat.W: "10H JH AH 9D JD KD 9C JC",
    Seat.S: "9S JS KS QH AD 10C QC AC",
    Seat.E: "AS QS 10S 9H KH 10D QD KC",
}


def test_state_three_players_no_partner_must_trump_seed000() -> None:
    """Seed 000: "A trois joueurs, les équipes sont réduites à leur plus simple
    expression : chacun pour soi": after E's AS, W (void in spades) must trump;
    E is no partner of his."""
    state = deal(THREE, THREE_HANDS, "9H", dealer=Seat.S)
    assert state.contract is not None and state.contract.taker == Seat.E
    assert turn(state) == Seat.E
    play(state, "AS")
    assert turn(state) == Seat.W
    assert legal_now(state) == cs("10H JH AH")
    play(state, "JH")
    assert turn(state) == Seat.S
    assert legal_now(state) == cs("9S JS KS")
