"""The taking phase: classic rounds, Tout Atout / Sans Atout overbids, coinche.

Every deal here is the fixed pack (7S on top ... AC), cut at 10, dealt 3-2:
the turned card is KC (clubs), dealer N unless said, so W speaks first.

Sources:

- seed 001: "Chaque joueur, dans le sens de distribution en commençant par la
  droite du donneur, accepte ou non l'atout ... Si personne n'accepte la carte,
  on procède à un deuxième tour où chacun peut choisir une quelconque couleur
  d'atout ... Si aucune couleur d'atout n'est choisie, les cartes sont
  regroupées".
- seed 000: "Dans ce tour, chacun indique s'il décide de prendre avec un autre
  atout. Il est alors impossible de prendre à la couleur retournée."; Tout
  Atout: "Il est possible de prendre à n'importe quel moment à Tout Atout ou
  Sans Atout ... il est possible de surenchérir sur quelqu'un qui a pris ... la
  prise à une Couleur s'incline devant le Sans Atout, qui lui même s'incline
  devant le Tout Atout.  Mais les couleurs simples ne sont pas ordonnées, il
  n'est donc pas possible de surenchérir avec une couleur simple."
- seed 002: "le joueur à la droite du donneur peut choisir n'importe quelle
  couleur sauf la couleur de la carte sur la table"; "Si tous les joueurs
  passent au deuxième tour, le jeu sera annulé."
- RULES.md "Coinche" (club rules): contracts 80 to 160 by tens then capot, a
  bid must beat the last, coinche by an opponent of the last bidder,
  surcoinche by the coinched side, three passes after a bid end it, four
  passes at the start mean a redeal; "Bid notation".
"""

from __future__ import annotations

import pytest

from rebelote.actions import Bid, ChoosePattern, Cut, parse_bid
from rebelote.auction import Contract
from rebelote.cards import DECK_24, DECK_32, cards_of, parse_card
from rebelote.legality import RULES_DIGEST, Illegality, IllegalReason
from rebelote.observation import PlayerView, observe
from rebelote.rules import Rules, preset
from rebelote.seats import Seat
from rebelote.state import IllegalActionError, Phase, State
from rebelote.trump import Strain

PACK: list[int] = list(cards_of(DECK_32))
PACK_24: list[int] = list(cards_of(DECK_24))

FFB = preset("ffb")
SEED001 = preset("seed001")
TA = preset("seed000-tout-atout")
COINCHE = preset("coinche")

COINCHE_CONTRACTS: list[str] = [
    f"{value}{suit}"
    for value in ("80", "90", "100", "110", "120", "130", "140", "150", "160", "capot")
    for suit in "SHDC"
]
"""Every coinche contract, lowest first, suits in the order S H D C."""


def turn(state: State) -> Seat | None:
    """Who is to act (a function, so that mypy does not narrow it between
    actions)."""
    return state.current


def dealt(rules: Rules, dealer: Seat = Seat.N) -> State:
    """The fixed pack cut at 10 and dealt 3-2 (turned card KC)."""
    state = State.new(rules, dealer, PACK_24 if rules.players == 3 else PACK)
    state.apply(Cut(10))
    if state.phase == Phase.PATTERN:
        state.apply(ChoosePattern("3-2"))
    assert state.phase == Phase.BIDDING
    return state


def bids(state: State, text: str) -> None:
    """Apply bids in turn."""
    for word in text.split():
        state.apply(parse_bid(word))


def legal(state: State) -> list[str]:
    """The current speaker's legal bids, in order."""
    return [
        action.text if isinstance(action, Bid) else f"<{action!r}>"
        for action in state.legal_actions()
    ]


def views(state: State) -> list[PlayerView]:
    """What every seat sees (to show that nothing changed)."""
    return [observe(state, seat) for seat in state.seats]


def spoken(state: State) -> list[tuple[str, str]]:
    """The auction so far: (seat, bid) pairs."""
    assert state.auction is not None
    return [(seat.letter, bid.text) for seat, bid in state.auction.bids]


# ================================================================ classic


def test_round_one_take_or_pass_seed001() -> None:
    """Seed 001: "accepte ou non l'atout": round one offers pass or take."""
    state = dealt(FFB)
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "take"]


def test_round_one_take_ends_auction_seed001() -> None:
    """Seed 001: "Le premier joueur qui accepte l'atout récupère la carte
    retournée": W passes, S takes clubs (the turned KC); no one speaks after."""
    state = dealt(FFB)
    bids(state, "pass take")
    assert state.contract == Contract(Seat.S, Strain.C)
    assert state.contract.text == "C by S"
    assert state.phase == Phase.PLAYING
    assert spoken(state) == [("W", "pass"), ("S", "take")]


@pytest.mark.parametrize(
    ("dealer", "order"),
    [
        (Seat.N, ["W", "S", "E", "N"]),
        (Seat.W, ["S", "E", "N", "W"]),
        (Seat.S, ["E", "N", "W", "S"]),
        (Seat.E, ["N", "W", "S", "E"]),
    ],
)
def test_speaking_order_from_dealer_right_seed001(dealer: Seat, order: list[str]) -> None:
    """Seed 001: "dans le sens de distribution en commençant par la droite du
    donneur"; round two starts again at the dealer's right."""
    state = dealt(FFB, dealer)
    bids(state, "pass pass pass pass pass pass pass")
    assert [seat for seat, _ in spoken(state)] == order + order[:3]
    assert turn(state) == Seat[order[3]]


def test_round_two_other_suits_only_seed000() -> None:
    """Seed 000: "chacun indique s'il décide de prendre avec un autre atout. Il
    est alors impossible de prendre à la couleur retournée" (ffb): clubs, the
    turned suit, is not offered; "take" no longer either."""
    state = dealt(FFB)
    bids(state, "pass pass pass pass")
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "S", "H", "D"]


def test_round_two_not_turned_suit_seed002() -> None:
    """Seed 002: "n'importe quelle couleur sauf la couleur de la carte sur la
    table" (the deal is 3-2 at once: seed 002 has one pattern)."""
    state = State.new(preset("seed002"), Seat.N, PACK)
    state.apply(Cut(10))
    bids(state, "pass pass pass pass")
    assert legal(state) == ["pass", "S", "H", "D"]


def test_round_two_any_suit_seed001() -> None:
    """Seed 001: "un deuxième tour où chacun peut choisir une quelconque couleur
    d'atout": the turned suit too."""
    state = dealt(SEED001)
    bids(state, "pass pass pass pass")
    assert legal(state) == ["pass", "S", "H", "D", "C"]
    bids(state, "C")
    assert state.contract == Contract(Seat.W, Strain.C)


def test_round_two_named_suit_is_trump_seed001() -> None:
    """Seed 001: in round two the first player to name a suit takes: W passes,
    S names hearts."""
    state = dealt(FFB)
    bids(state, "pass pass pass pass pass H")
    assert state.contract == Contract(Seat.S, Strain.H)
    assert spoken(state)[-2:] == [("W", "pass"), ("S", "H")]


def test_all_pass_twice_deal_passed_seed001() -> None:
    """Seed 001: "Si aucune couleur d'atout n'est choisie, les cartes sont
    regroupées": after eight passes the deal ends, result 'passed', 0-0."""
    state = dealt(FFB)
    events = []
    for _ in range(8):
        events += state.apply(Bid("pass"))
    assert state.phase == Phase.DONE
    assert state.result is not None
    assert state.result.result == "passed"
    assert state.result.score == (0, 0)
    assert state.contract is None
    assert [e.kind for e in events][-2:] == ["bid", "all_passed"]
    assert state.legal_actions() == []


def test_three_players_round_two_after_three_passes_seed000() -> None:
    """Seed 000, three players ("chacun pour soi"): round two comes after the
    three players have passed; dealer E, so W speaks first.  The 24-card pack
    cut at 10 turns the 10S: spades is not offered in round two."""
    state = dealt(preset("three-players"), Seat.E)
    assert state.turned == parse_card("10S")
    assert turn(state) == Seat.W
    bids(state, "pass pass pass")
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "H", "D", "C"]
    bids(state, "pass pass pass")
    assert state.result is not None and state.result.result == "passed"


def test_illegal_bid_raises_and_changes_nothing_seed000() -> None:
    """Seed 000: "Il est alors impossible de prendre à la couleur retournée":
    naming clubs (or taking) in round two is refused with the exact legal
    list, and no seat sees any change."""
    state = dealt(FFB)
    bids(state, "pass pass pass pass")
    before = views(state)
    before_bids = spoken(state)
    for word in ("C", "take", "TA", "80H", "coinche"):
        with pytest.raises(IllegalActionError) as info:
            state.apply(parse_bid(word))
        assert info.value.legal == ["pass", "S", "H", "D"]
        assert info.value.seat == Seat.W
        assert info.value.phase == Phase.BIDDING
        assert info.value.action == word
    assert views(state) == before
    assert spoken(state) == before_bids
    assert turn(state) == Seat.W


def test_bid_out_of_turn_refused_seed001() -> None:
    """Seed 001: each player speaks "à son tour"; S cannot take while W is to
    speak.  Nothing changes; W then speaks normally."""
    state = dealt(FFB)
    before = views(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Bid("take"), seat=Seat.S)
    assert info.value.seat == Seat.W
    assert info.value.legal == ["pass", "take"]
    assert views(state) == before
    assert spoken(state) == []
    state.apply(Bid("pass"), seat=Seat.W)
    assert turn(state) == Seat.S


def test_bid_after_auction_closed_refused() -> None:
    """Seed 001: the first taker ends the auction; a further bid is refused."""
    state = dealt(FFB)
    bids(state, "take")
    with pytest.raises(IllegalActionError):
        state.apply(Bid("pass"))
    assert spoken(state) == [("W", "take")]


# ================================================================ Tout Atout


def test_tout_atout_round_one_offers_ta_sa_seed000() -> None:
    """Seed 000: "Il est possible de prendre à n'importe quel moment à Tout Atout
    ou Sans Atout"."""
    state = dealt(TA)
    assert legal(state) == ["pass", "take", "SA", "TA"]


def test_tout_atout_take_then_sa_then_ta_seed000() -> None:
    """Seed 000: "la prise à une Couleur s'incline devant le Sans Atout, qui lui
    même s'incline devant le Tout Atout": W take, S SA, E TA; then the others
    pass once each and E's TA stands."""
    state = dealt(TA)
    bids(state, "take")
    assert state.phase == Phase.BIDDING and state.current == Seat.S
    assert legal(state) == ["pass", "SA", "TA"]
    bids(state, "SA")
    assert legal(state) == ["pass", "TA"]
    bids(state, "TA")
    assert legal(state) == ["pass"]
    bids(state, "pass pass")
    assert state.phase == Phase.BIDDING and state.current == Seat.S
    bids(state, "pass")
    assert state.contract == Contract(Seat.E, Strain.TA)


def test_tout_atout_suit_cannot_overbid_suit_seed000() -> None:
    """Seed 000: "il n'est donc pas possible de surenchérir avec une couleur
    simple": after W's take, naming a suit is refused."""
    state = dealt(TA)
    bids(state, "take")
    before = views(state)
    for word in ("S", "H", "D", "C", "take"):
        with pytest.raises(IllegalActionError) as info:
            state.apply(parse_bid(word))
        assert info.value.legal == ["pass", "SA", "TA"]
    assert views(state) == before


def test_tout_atout_take_stands_after_three_passes_seed000() -> None:
    """Seed 000 / RULES.md: "the others may still overbid ... until each has
    passed once after the last bid": W takes, S and E pass, still open; N
    passes: clubs by W."""
    state = dealt(TA)
    bids(state, "take pass pass")
    assert state.phase == Phase.BIDDING and state.current == Seat.N
    assert legal(state) == ["pass", "SA", "TA"]
    bids(state, "pass")
    assert state.contract == Contract(Seat.W, Strain.C)


def test_tout_atout_taker_may_overbid_again_seed000() -> None:
    """Seed 000: "il est possible de surenchérir": W takes, S bids SA, E and N
    pass, W overbids TA; three passes: TA by W."""
    state = dealt(TA)
    bids(state, "take SA pass pass")
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "TA"]
    bids(state, "TA pass pass")
    assert state.phase == Phase.BIDDING
    bids(state, "pass")
    assert state.contract == Contract(Seat.W, Strain.TA)


def test_tout_atout_ta_in_round_one_seed000() -> None:
    """Seed 000: TA at once in round one; nothing can overbid it."""
    state = dealt(TA)
    bids(state, "TA")
    assert legal(state) == ["pass"]
    bids(state, "pass pass pass")
    assert state.contract == Contract(Seat.W, Strain.TA)


def test_tout_atout_round_two_suits_sa_ta_seed000() -> None:
    """Seed 000 round two: "un autre atout" (not clubs, the turned suit), SA or
    TA.  W passes, S names diamonds, E overbids SA; three passes: SA by E."""
    state = dealt(TA)
    bids(state, "pass pass pass pass")
    assert legal(state) == ["pass", "S", "H", "D", "SA", "TA"]
    bids(state, "pass D")
    assert legal(state) == ["pass", "SA", "TA"]
    bids(state, "SA pass pass")
    assert state.phase == Phase.BIDDING and state.current == Seat.S
    bids(state, "pass")
    assert state.contract == Contract(Seat.E, Strain.SA)


def test_tout_atout_all_pass_twice_passed_seed000() -> None:
    """Seed 000: if no one takes in either round the deal is not played."""
    state = dealt(TA)
    bids(state, " ".join(["pass"] * 8))
    assert state.result is not None and state.result.result == "passed"


# ================================================================ coinche


def test_coinche_opening_bids_80_to_160_then_capot() -> None:
    """RULES.md "Coinche": "contracts of 80, 90, ... 160, then capot (all
    tricks), each with a suit"; no coinche before any bid."""
    state = dealt(COINCHE)
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", *COINCHE_CONTRACTS]
    assert len(legal(state)) == 41


def test_coinche_bid_must_beat_last() -> None:
    """RULES.md "Coinche": "A bid must beat the last one"; an opponent of the
    last bidder may coinche.  After W's 80H, S may bid 90 and up or coinche;
    80S is refused with that exact list."""
    state = dealt(COINCHE)
    bids(state, "80H")
    expected = ["pass", *COINCHE_CONTRACTS[4:], "coinche"]
    assert legal(state) == expected
    before = views(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_bid("80S"))
    assert info.value.legal == expected
    assert views(state) == before


def test_coinche_only_by_opponent_of_last_bidder() -> None:
    """RULES.md "Coinche": "An opponent of the last bidder may coincher": E, the
    partner of W (80H), may not; N, an opponent, may."""
    state = dealt(COINCHE)
    bids(state, "80H pass")
    assert turn(state) == Seat.E
    assert legal(state) == ["pass", *COINCHE_CONTRACTS[4:]]
    with pytest.raises(IllegalActionError):
        state.apply(parse_bid("coinche"))
    bids(state, "pass")
    assert legal(state) == ["pass", *COINCHE_CONTRACTS[4:], "coinche"]


def test_coinche_three_passes_end_auction() -> None:
    """RULES.md "Coinche": "Three passes after a bid end the auction"."""
    state = dealt(COINCHE)
    bids(state, "80H pass pass")
    assert state.phase == Phase.BIDDING
    bids(state, "pass")
    assert state.contract == Contract(Seat.W, Strain.H, 80, 1)
    assert state.contract.text == "80H by W"


def test_coinche_overbids_last_bid_stands() -> None:
    """RULES.md "Coinche": bids rise; the last one stands after three passes
    (W 80H, S 90S, E 100H, then N, W, S pass: 100H by E)."""
    state = dealt(COINCHE)
    bids(state, "80H 90S 100H pass pass")
    assert legal(state) == ["pass", *COINCHE_CONTRACTS[12:], "coinche"]
    bids(state, "pass")
    assert state.contract == Contract(Seat.E, Strain.H, 100, 1)


def test_coinche_four_passes_void_the_deal() -> None:
    """RULES.md "Coinche": "four passes at the start mean a redeal"."""
    state = dealt(COINCHE)
    bids(state, "pass pass pass")
    assert state.phase == Phase.BIDDING
    bids(state, "pass")
    assert state.result is not None and state.result.result == "passed"
    assert state.result.score == (0, 0)


def test_coinche_then_coinched_side_passes_x2() -> None:
    """RULES.md "Coinche": "a coinche ends the auction except for a surcoinche
    by the coinched team": after S's coinche only E and W speak (pass or
    surcoinche); both pass: 80H by W coinched, multiplier 2."""
    state = dealt(COINCHE)
    bids(state, "80H coinche")
    assert turn(state) == Seat.E
    assert legal(state) == ["pass", "surcoinche"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_bid("90H"))
    assert info.value.legal == ["pass", "surcoinche"]
    bids(state, "pass")
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "surcoinche"]
    bids(state, "pass")
    assert state.contract == Contract(Seat.W, Strain.H, 80, 2)
    assert state.contract.text == "80H by W coinche"
    assert spoken(state) == [("W", "80H"), ("S", "coinche"), ("E", "pass"), ("W", "pass")]


def test_surcoinche_by_coinched_side_x4() -> None:
    """RULES.md "Coinche": "the bidding team may then surcoincher": E
    surcoinches W's coinched 80H: multiplier 4, the auction ends."""
    state = dealt(COINCHE)
    bids(state, "80H coinche surcoinche")
    assert state.contract == Contract(Seat.W, Strain.H, 80, 4)
    assert state.contract.text == "80H by W surcoinche"


def test_coinche_by_fourth_seat_then_surcoinche_by_taker() -> None:
    """RULES.md "Coinche": N (an opponent) coinches after two passes; W then E
    (the coinched side) may surcoinche; W does."""
    state = dealt(COINCHE)
    bids(state, "80H pass pass coinche")
    assert turn(state) == Seat.W
    assert legal(state) == ["pass", "surcoinche"]
    bids(state, "surcoinche")
    assert state.contract == Contract(Seat.W, Strain.H, 80, 4)


def test_coinche_then_three_passes_ffb_coinche() -> None:
    """FFB coinche 2015, 4.1: "le tour de d'enchère s'achève lorsqu'après une
    enchère ou une coinche, les trois joueurs suivants passent" and "l'équipe
    adverse a la possibilité de surcoincher" (``after_coinche``
    ``three_passes``): after S's coinche of W's 80H, E (coinched side) may
    surcoinche, N (the coincher's partner) may only pass, then W; three
    passes: 80H by W coinched.  N's surcoinche and a bid are refused."""
    rules = COINCHE.replace(after_coinche="three_passes")
    state = dealt(rules)
    bids(state, "80H coinche")
    assert (turn(state), legal(state)) == (Seat.E, ["pass", "surcoinche"])
    bids(state, "pass")
    assert (turn(state), legal(state)) == (Seat.N, ["pass"])
    assert state.why_illegal(parse_bid("surcoinche")) == Illegality(
        IllegalReason.SURCOINCHE_NOT_ALLOWED, None, RULES_DIGEST
    )
    assert state.why_illegal(parse_bid("90H")) == Illegality(
        IllegalReason.BID_AFTER_COINCHE, None, RULES_DIGEST
    )
    bids(state, "pass")
    assert (turn(state), legal(state)) == (Seat.W, ["pass", "surcoinche"])
    bids(state, "pass")
    assert state.contract == Contract(Seat.W, Strain.H, 80, 2)
    assert spoken(state) == [
        ("W", "80H"),
        ("S", "coinche"),
        ("E", "pass"),
        ("N", "pass"),
        ("W", "pass"),
    ]
    # The club rules refuse N's pass: only E and W speak after the coinche.
    club = dealt(COINCHE)
    bids(club, "80H coinche pass")
    assert turn(club) == Seat.W
    with pytest.raises(IllegalActionError):
        club.apply(parse_bid("pass"), seat=Seat.N)
    # A surcoinche still ends the auction at once (4.1: "Le tour d'enchères
    # s'arrête alors immédiatement"), here by W after E and N passed.
    sur = dealt(rules)
    bids(sur, "80H coinche pass pass surcoinche")
    assert sur.contract == Contract(Seat.W, Strain.H, 80, 4)


def test_coinche_capot_cannot_be_overbid() -> None:
    """RULES.md "Coinche": capot is the highest contract: after W's capotS the
    others may only pass or (opponents) coinche."""
    state = dealt(COINCHE)
    bids(state, "capotS")
    assert legal(state) == ["pass", "coinche"]
    bids(state, "pass pass pass")
    assert state.contract == Contract(Seat.W, Strain.S, 250, 1)
    assert state.contract.text == "capotS by W"


def test_coinche_no_take_bid() -> None:
    """RULES.md "Coinche": no card is turned, so "take" and bare suits are not
    coinche bids."""
    state = dealt(COINCHE)
    for word in ("take", "H", "TA", "surcoinche", "coinche"):
        with pytest.raises(IllegalActionError):
            state.apply(parse_bid(word))
    assert spoken(state) == []


# ================================================================ rounds


def rounds(state: State) -> list[int]:
    """The round of each bid so far."""
    assert state.auction is not None
    return list(state.auction.rounds)


def test_each_bid_keeps_its_round_seed001() -> None:
    """Seed 001: "Si personne n'accepte la carte, on procède à un deuxième
    tour": four passes in round one, then round two's bids are round 2; the
    views say so too (``bid_rounds``, beside ``bids``)."""
    state = dealt(FFB)
    bids(state, "pass pass pass")
    assert rounds(state) == [1, 1, 1]
    bids(state, "pass pass H")
    assert rounds(state) == [1, 1, 1, 1, 2, 2]
    assert state.contract == Contract(Seat.S, Strain.H)
    for view in views(state):
        assert view.bid_rounds == (1, 1, 1, 1, 2, 2)
        assert view.to_json()["bid_rounds"] == [1, 1, 1, 1, 2, 2]
    assert views(dealt(FFB))[0].to_json()["bid_rounds"] == []


def test_three_players_round_two_after_three_passes_rounds() -> None:
    """Three players: round two after three passes."""
    state = dealt(preset("three-players"), Seat.E)
    bids(state, "pass pass pass pass")
    assert rounds(state) == [1, 1, 1, 2]


def test_tout_atout_overbids_stay_in_their_round_seed000() -> None:
    """Seed 000: TA and SA may be bid in either round; an overbid after a
    take in round one is still round one."""
    state = dealt(TA)
    bids(state, "take SA pass pass TA pass pass pass")
    assert rounds(state) == [1] * 8
    state = dealt(TA)
    bids(state, "pass pass pass pass pass SA")
    assert rounds(state) == [1, 1, 1, 1, 2, 2]


def test_coinche_bids_are_all_round_one() -> None:
    """Coinche has no second round: its coinche and surcoinche are bids."""
    state = dealt(COINCHE)
    bids(state, "80H coinche surcoinche")
    assert rounds(state) == [1, 1, 1]
