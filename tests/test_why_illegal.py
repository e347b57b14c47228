"""Legality with reasons: for each reason, a real position and the exact
:class:`Illegality` that ``State.why_illegal`` returns (reason, the ``Rules``
option behind it, the source text), the same reason on the
``IllegalActionError`` of ``apply`` and ``parse_action``, and ``None`` for
the legal actions beside it.

Positions come from the fixed deals of ``test_legality.py`` (``D1``, ``D3``,
``TWO``) and ``test_options.py`` (``CAPOT``, ``DECL``), plus two deals
below where the partner wins the trick with a trump.
"""

from __future__ import annotations

import pytest

from rebelote.actions import Action, Bid, ChoosePattern, Cut, Declare, Play, parse_bid
from rebelote.cards import parse_card
from rebelote.legality import (
    FFB,
    FFB_COINCHE,
    RULES_DIGEST,
    SEED000,
    SEED001,
    SEED002,
    SEED003,
    Illegality,
    IllegalReason,
)
from rebelote.rules import Rules, preset
from rebelote.seats import Seat
from rebelote.state import AmbiguousActionError, IllegalActionError, Phase, State
from rebelote.trump import Strain
from test_legality import D1, D3, TWO, deal, play, turn
from test_options import CAPOT, CAPOT_SCRIPT, DECL, PACK, declare_if_asked
from test_options import deal as deal_after

R = IllegalReason
FFB_RULES = preset("ffb")
NO_DECL = preset("ffb-no-declarations")
SEED001_RULES = preset("seed001")
SEED003_RULES = preset("seed003")
COINCHE = preset("coinche")
TA = preset("seed000-tout-atout")

# Dealer N, W takes the turned 7H (hearts trump) and leads the AS; S, void
# in spades, trumps with the 9H; E follows; N, void in spades, sees his
# partner S win with a trump.  N holds the JH (the only trump over the 9H).
PARTNER_TRUMPS = {
    Seat.W: "AS KS QS 7H 8D 9D 10D JD",
    Seat.S: "9H 10H 7C 8C 9C 10C AD KD",
    Seat.E: "JS 10S 9S 8S 7S QD QH JC",
    Seat.N: "8H JH KH AH QC KC AC 7D",
}
# The same with the JH and QH swapped: N's trumps are all below the 9H.
PARTNER_LOW = {
    Seat.W: "AS KS QS 7H 8D 9D 10D JD",
    Seat.S: "9H 10H 7C 8C 9C 10C AD KD",
    Seat.E: "JS 10S 9S 8S 7S QD JH JC",
    Seat.N: "8H QH KH AH QC KC AC 7D",
}


def c(text: str) -> Play:
    """The card ``text`` without a belote word."""
    return Play(parse_card(text))


def why(
    state: State,
    action: Action,
    reason: IllegalReason,
    option: str | None,
    source: str,
    *,
    suit: str | None = None,
    house_rule: bool = False,
    applied: bool = False,
) -> None:
    """``why_illegal`` gives exactly this reason (``suit``: the suit it
    names; ``house_rule``: the option's value here is not the FFB's),
    ``is_legal`` is False, and ``apply`` refuses the action with the
    same reason, changing nothing.  ``applied``: a belote word, whose text
    ``parse_action`` refuses with the same reason too."""
    expected = Illegality(reason, option, source, suit, house_rule)
    assert option is None or option in Rules.__dataclass_fields__
    assert state.why_illegal(action) == expected
    assert not state.is_legal(action) and action not in state.legal
    before = (state.phase, state.current, list(state.hands), list(state.trick_cards))
    if applied:
        assert isinstance(action, Play)
        assert parsed_reason(state, action.text) == expected
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.reason == expected
    assert (state.phase, state.current, list(state.hands), list(state.trick_cards)) == before


def parsed_reason(state: State, text: str) -> Illegality | None:
    """The reason on ``parse_action``'s IllegalActionError for ``text``."""
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(text)
    return info.value.reason


# ------------------------------------------------------------ turn and phase


def test_not_your_turn_seed000() -> None:
    """Seed 000: "le joueur peut jouer une carte à son tour": W leads, N's 8D
    is refused for N; the same card by W would be the one to judge."""
    state = deal(FFB_RULES, D1, "7H")
    assert state.current == Seat.W
    expected = Illegality(R.NOT_YOUR_TURN, None, SEED000)
    assert state.why_illegal(c("8D"), Seat.N) == expected
    assert not state.is_legal(c("AS"), Seat.N)
    assert state.why_illegal(c("AS"), Seat.W) is None
    with pytest.raises(IllegalActionError) as info:
        state.apply(c("8D"), seat=Seat.N)
    assert info.value.reason == expected
    assert parsed_reason_for(state, "AS", Seat.N) == expected


def parsed_reason_for(state: State, text: str, seat: Seat) -> Illegality | None:
    """The reason on ``parse_action(text, seat)``'s IllegalActionError."""
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(text, seat)
    return info.value.reason


def test_wrong_phase() -> None:
    """A card in the bidding, a bid in the play, a cut after the cut, a
    pattern outside the dealer's choice, a declaration when none is due."""
    bidding = deal(FFB_RULES, D1, "7H", bids="")
    assert bidding.phase is Phase.BIDDING
    why(bidding, c("AS"), R.WRONG_PHASE, None, RULES_DIGEST)
    why(bidding, Cut(5), R.WRONG_PHASE, None, RULES_DIGEST)
    why(bidding, ChoosePattern("3-2"), R.WRONG_PHASE, None, RULES_DIGEST)
    why(bidding, Declare(()), R.WRONG_PHASE, None, RULES_DIGEST)
    playing = deal(FFB_RULES, D1, "7H")
    why(playing, Bid("take"), R.WRONG_PHASE, None, RULES_DIGEST)
    assert parsed_reason(playing, "pass") == Illegality(R.WRONG_PHASE, None, RULES_DIGEST)


def test_deal_over() -> None:
    """All pass twice (seed 001): the deal is over; nothing is legal."""
    state = deal(FFB_RULES, D1, "7H", bids=" ".join(["pass"] * 8))
    assert state.is_terminal
    why(state, Bid("pass"), R.DEAL_OVER, None, RULES_DIGEST)
    why(state, c("AS"), R.DEAL_OVER, None, RULES_DIGEST)
    assert list(state.legal) == [] and not state.legal


def test_no_such_action() -> None:
    """Objects that are no action as the engine writes them."""
    state = deal(FFB_RULES, D1, "7H", bids="")
    for bid in (Bid("contract", Strain.H, 85), Bid("pass", Strain.S), Bid("strain")):
        assert state.why_illegal(bid) == Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
    state.apply(Bid("take"))
    assert state.why_illegal(Play(40)) == Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
    assert not state.is_legal(Play(40))
    pattern = State.from_deck(FFB_RULES, Seat.N, PACK)
    assert pattern.phase is Phase.PATTERN
    why(pattern, ChoosePattern("4-4"), R.NO_SUCH_ACTION, None, RULES_DIGEST)
    assert pattern.why_illegal(ChoosePattern("2-3")) is None


# ------------------------------------------------------------ cut


def test_cut_required_seed001() -> None:
    """Seed 001: "doit effectuer la coupe": cut 0 refused (cut_optional);
    seed 000 allows it ("a la possibilité de couper")."""
    state = State.new(FFB_RULES, Seat.N, PACK)
    why(state, Cut(0), R.CUT_REQUIRED, "cut_optional", SEED001)
    assert State.new(preset("seed000"), Seat.N, PACK).why_illegal(Cut(0)) is None


def test_cut_out_of_range_seed001() -> None:
    """Seed 001: "chacun devant contenir au moins deux cartes": packets of 1
    or 31 cards refused; 2 and 30 legal."""
    state = State.new(FFB_RULES, Seat.N, PACK)
    why(state, Cut(1), R.CUT_OUT_OF_RANGE, "cut_min_packet", SEED001)
    why(state, Cut(31), R.CUT_OUT_OF_RANGE, "cut_min_packet", SEED001)
    assert parsed_reason(state, "cut 40") == Illegality(
        R.CUT_OUT_OF_RANGE, "cut_min_packet", SEED001
    )
    assert state.why_illegal(Cut(2)) is None and state.why_illegal(Cut(30)) is None


# ------------------------------------------------------------ bidding


def test_classic_round_one_and_two_seed002() -> None:
    """Seed 002: round one takes the turned suit; round two names another
    suit ("sauf la couleur de la carte sur la table"; seed 001 allows it)."""
    state = deal(FFB_RULES, D1, "7H", bids="")
    why(state, Bid("strain", Strain.S), R.SUIT_ONLY_IN_ROUND_TWO, None, SEED002)
    assert state.why_illegal(Bid("take")) is None
    play_bids(state, "pass pass pass pass")
    # round two: no "take"; the reason names hearts, the turned suit, out here
    why(state, Bid("take"), R.TAKE_ONLY_IN_ROUND_ONE, None, SEED002, suit="H")
    why(
        state,
        Bid("strain", Strain.H),
        R.TURNED_SUIT_IN_ROUND_TWO,
        "round_two_turned_suit",
        SEED002,
        suit="H",
    )
    assert state.why_illegal(Bid("strain", Strain.S)) is None
    # seed 001: hearts may be named in round two: the reason names no suit
    seed001 = deal(SEED001_RULES, D1, "7H", bids="pass pass pass pass")
    assert seed001.why_illegal(Bid("strain", Strain.H)) is None
    why(seed001, Bid("take"), R.TAKE_ONLY_IN_ROUND_ONE, None, SEED002)


def play_bids(state: State, bids: str) -> None:
    """Apply ``bids`` in turn."""
    for text in bids.split():
        state.apply(parse_bid(text))


def test_bid_not_in_auction() -> None:
    """RULES.md "Bid notation": coinche bids in a classic game, classic bids
    in coinche; seed 000's TA / SA only in its Tout Atout game."""
    classic = deal(FFB_RULES, D1, "7H", bids="")
    why(classic, parse_bid("80H"), R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
    why(classic, Bid("coinche"), R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
    why(classic, Bid("strain", Strain.TA), R.BID_NOT_IN_AUCTION, "bidding", SEED000)
    # a coinche table is compared with the federation's coinche rules, whose
    # auction it is: not a house rule; coinche's club sequence after a
    # coinche is one (the FFB's lets the three next players speak)
    coinche = State.from_deck(COINCHE, Seat.N, PACK, "3-2")
    why(coinche, Bid("take"), R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
    strain = Bid("strain", Strain.H)
    why(coinche, strain, R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
    # a classic table with the federation's coinche under-trump rule: its own
    assert (
        Illegality(R.MAY_NOT_UNDERTRUMP_PARTNER, "lower_trump_under_partner", FFB_COINCHE)
        .under(COINCHE.replace(lower_trump_under_partner="all_trumps_only"))
        .house_rule
        is False
    )
    assert (
        Illegality(R.MAY_NOT_UNDERTRUMP_PARTNER, "lower_trump_under_partner", FFB_COINCHE)
        .under(FFB_RULES.replace(lower_trump_under_partner="all_trumps_only"))
        .house_rule
        is True
    )


def test_tout_atout_overbids_seed000() -> None:
    """Seed 000: "il n'est donc pas possible de surenchérir avec une couleur
    simple": after a take only SA or TA; after SA only TA; after TA nothing."""
    state = deal(TA, TWO, "7S", bids="take")
    assert state.phase is Phase.BIDDING
    why(state, Bid("strain", Strain.H), R.BID_TOO_LOW, None, SEED000)
    why(state, Bid("take"), R.BID_TOO_LOW, None, SEED000)
    assert state.why_illegal(Bid("strain", Strain.SA)) is None
    state.apply(Bid("strain", Strain.SA))
    why(state, Bid("strain", Strain.SA), R.BID_TOO_LOW, None, SEED000)
    state.apply(Bid("strain", Strain.TA))
    why(state, Bid("strain", Strain.TA), R.BID_TOO_LOW, None, SEED000)
    assert state.legal_actions() == [Bid("pass")]


def test_coinche_auction_rules() -> None:
    """RULES.md "Coinche": a bid must beat the last one, capot beats all; TA
    and SA only where enabled; coinche by an opponent of the last bidder,
    once; surcoinche only after a coinche; after it, no contract."""
    state = State.from_deck(COINCHE, Seat.N, PACK, "3-2")
    assert state.current == Seat.W
    why(state, Bid("coinche"), R.NO_CONTRACT_TO_COINCHE, None, RULES_DIGEST)
    assert R.NO_CONTRACT_TO_COINCHE.value == "no_contract_to_coinche"
    why(state, Bid("surcoinche"), R.SURCOINCHE_NOT_ALLOWED, None, RULES_DIGEST)
    why(state, parse_bid("90TA"), R.STRAIN_NOT_ALLOWED, "coinche_tout_atout", RULES_DIGEST)
    enabled = State.from_deck(COINCHE.replace(coinche_tout_atout=True), Seat.N, PACK, "3-2")
    assert enabled.why_illegal(parse_bid("90TA")) is None
    play_bids(state, "100S")  # W; S (an opponent) speaks
    why(state, parse_bid("90H"), R.BID_TOO_LOW, None, RULES_DIGEST)
    why(state, parse_bid("100H"), R.BID_TOO_LOW, None, RULES_DIGEST)
    assert state.why_illegal(parse_bid("110H")) is None
    assert state.why_illegal(Bid("coinche")) is None
    play_bids(state, "pass")  # S; E, W's partner
    why(state, Bid("coinche"), R.COINCHE_OWN_SIDE, None, RULES_DIGEST)
    assert R.COINCHE_OWN_SIDE.value == "coinche_own_side_contract"
    play_bids(state, "capotH")  # E; N
    why(state, parse_bid("160S"), R.CAPOT_IS_HIGHEST, None, RULES_DIGEST)
    why(state, parse_bid("capotS"), R.CAPOT_IS_HIGHEST, None, RULES_DIGEST)
    play_bids(state, "coinche")  # N coinches E's capot; W speaks
    assert state.current == Seat.W
    why(state, parse_bid("capotS"), R.BID_AFTER_COINCHE, None, RULES_DIGEST)
    why(state, Bid("coinche"), R.COINCHE_NOT_ALLOWED, None, RULES_DIGEST)
    assert state.legal_actions() == [Bid("pass"), Bid("surcoinche")]


# ------------------------------------------------------------ declarations


def test_declarations_choice_seed000() -> None:
    """Seed 000 "Cette annonce n'est pas obligatoire": W, holding a tierce,
    must choose what to declare before his first card; N's tierce is not
    his to declare; then S, with nothing to declare, has no declaration
    due."""
    state = deal_after(FFB_RULES, DECL, "7H", "take")
    assert state.current == Seat.W and state.phase is Phase.PLAYING
    why(state, c("JS"), R.DECLARE_FIRST, "declarations", SEED000)
    north = state.found[Seat.N]
    why(state, Declare(north), R.DECLARATION_NOT_HELD, None, SEED000)
    assert parsed_reason(state, "declare tierce-KD") == Illegality(
        R.DECLARATION_NOT_HELD, None, SEED000
    )
    assert parsed_reason(state, "declare carre-J") == Illegality(
        R.DECLARATION_NOT_HELD, None, SEED000
    )
    own = state.found[Seat.W]
    assert state.parse_action("declare tierce-KS") == Declare(own)
    assert state.parse_action("Declare  Tierce") == Declare(own)
    state.apply(Declare(own))
    state.apply(c("JS"))
    assert turn(state) == Seat.S and Seat.S not in state.found
    why(state, Declare(()), R.WRONG_PHASE, None, RULES_DIGEST)


def test_declarations_off_seed002_and_automatic_seed003() -> None:
    """Seed 002 declares nothing; seed 003 declares for each player."""
    off = deal_after(NO_DECL, DECL, "7H", "take")
    why(off, Declare(()), R.DECLARATIONS_OFF, "declarations", SEED002, house_rule=True)
    auto = deal_after(SEED003_RULES, DECL, "7H", "take")
    why(auto, Declare(()), R.DECLARATIONS_AUTOMATIC, "declarations", SEED003, house_rule=True)


def test_declarations_out_of_order() -> None:
    """Two declarations in the other order than ``legal_actions`` lists them
    are no action as the engine writes it; the text reads to the legal one."""
    hands = {
        Seat.W: "7S 8S 9S 7D 8D 9D AH KC",
        Seat.S: "10S JS QS 10D JD QD AC QC",
        Seat.E: "KS AS KD AD 7C 8C 9C 10C",
        Seat.N: "7H 8H 9H 10H JH QH KH JC",
    }
    state = deal_after(FFB_RULES, hands, "AH", "take")
    found = state.found[Seat.W]
    assert [d.text for d in found] == ["tierce-9S", "tierce-9D"]
    assert state.is_legal(Declare(found))
    assert state.why_illegal(Declare(found[::-1])) == Illegality(
        R.NO_SUCH_ACTION, None, RULES_DIGEST
    )
    assert state.parse_action("declare tierce-9D tierce-9S") == Declare(found)


# ------------------------------------------------------------ the card play


def test_not_in_hand_and_must_follow_suit_seed000() -> None:
    """Seed 000: "On est obligé de fournir à la couleur demandée": after W's
    AS, S holds spades: the 10H is refused (the reason names spades, the
    suit led), the QD is not his."""
    state = deal(FFB_RULES, D1, "7H")
    play(state, "AS")
    why(state, c("10H"), R.MUST_FOLLOW_SUIT, None, SEED000, suit="S")
    assert state.why_illegal(c("10H")).to_json() == {  # type: ignore[union-attr]
        "reason": "must_follow_suit",
        "option": None,
        "source": SEED000,
        "suit": "S",
        "house_rule": False,
    }
    why(state, c("QD"), R.NOT_IN_HAND, None, RULES_DIGEST)
    assert state.why_illegal(c("9S")) is None


def test_must_trump_seed000_and_without_exemption_seed003() -> None:
    """Seed 000 "on doit couper avec de l'atout": after AS 7S 7D, N (void,
    his side losing) must trump.  Seed 003 (no partner exemption): after AS
    7S, E must trump his partner W's winning ace; FFB lets him discard."""
    state = deal(FFB_RULES, D1, "7H")
    play(state, "AS 7S 7D")
    why(state, c("8D"), R.MUST_TRUMP, None, SEED000)
    strict = deal(SEED003_RULES, D1, "7H")
    play(strict, "AS 7S")
    why(strict, c("7D"), R.MUST_TRUMP, "partner_winning_exemption", SEED003, house_rule=True)
    free = deal(FFB_RULES, D1, "7H")
    play(free, "AS 7S")
    assert free.why_illegal(c("7D")) is None


def test_must_overtrump_and_may_not_undertrump_seed000() -> None:
    """Seed 000 "si on surcoupe, on doit, si possible, jouer un atout plus
    fort": E's QH wins; N holds the 9H and KH over it: the 8D and the lower
    8H are refused."""
    state = deal(FFB_RULES, D1, "7H")
    play(state, "AS 7S QH")
    why(state, c("8D"), R.MUST_OVERTRUMP, None, SEED000)
    why(state, c("8H"), R.MAY_NOT_UNDERTRUMP, None, SEED000)
    assert state.why_illegal(c("KH")) is None


def test_partner_master_with_trump_seed003() -> None:
    """Seed 003 "Un atout supérieur à tous ceux déjà joués", with no partner
    exemption: N's partner S wins with the 9H; N must overtrump with the JH
    (his 8H and his clubs are refused, naming partner_winning_exemption).
    FFB (seeds 000, 001, 002): the partner is master, any card."""
    strict = deal(SEED003_RULES, PARTNER_TRUMPS, "7H")
    play(strict, "AS 9H 7S")
    assert strict.current == Seat.N
    option = "partner_winning_exemption"
    why(strict, c("8H"), R.MAY_NOT_UNDERTRUMP, option, SEED003, house_rule=True)
    why(strict, c("QC"), R.MUST_OVERTRUMP, option, SEED003, house_rule=True)
    assert strict.legal_actions() == [c("JH")]
    free = deal(NO_DECL, PARTNER_TRUMPS, "7H")
    play(free, "AS 9H 7S")
    assert free.why_illegal(c("8H")) is None and free.why_illegal(c("QC")) is None


def test_lower_trump_under_partner_only_with_trumps_alone_ffb_coinche() -> None:
    """FFB coinche 2015, 5.2 ("C'est le seul cas de figure, plutôt rare, où il
    est permis de jouer un atout inférieur"): N's partner S wins with the 9H;
    N, holding clubs and a diamond, may discard them or play the JH over
    it, not a lower trump (8H KH AH): may_not_undertrump_partner, naming
    lower_trump_under_partner and docs/rules/FFB.md."""
    rules = NO_DECL.replace(lower_trump_under_partner="all_trumps_only")
    state = deal(rules, PARTNER_TRUMPS, "7H")
    play(state, "AS 9H 7S")
    assert state.current == Seat.N
    for card in ("8H", "KH", "AH"):
        why(
            state,
            c(card),
            R.MAY_NOT_UNDERTRUMP_PARTNER,
            "lower_trump_under_partner",
            FFB_COINCHE,
            house_rule=True,
        )
    assert [a.text for a in state.legal_actions()] == ["JH", "7D", "QC", "KC", "AC"]


def test_must_undertrump_ffb() -> None:
    """FFB (seed 001 "il doit, soit jouer un atout plus faible"): E's AH wins
    trick 3, N holds only lower trumps: his 8D is refused, naming
    must_undertrump; seed 003 lets him discard."""
    state = deal(FFB_RULES, D1, "7H")
    play(state, "AS 7S QH 9H 10C AC JC 7C 8S KS AH")
    assert state.current == Seat.N
    why(state, c("8D"), R.MUST_UNDERTRUMP, "must_undertrump", FFB)
    loose = deal(SEED003_RULES, D1, "7H")
    play(loose, "AS 7S QH 9H 10C AC JC 7C 8S KS AH")
    assert loose.why_illegal(c("8D")) is None


def test_must_undertrump_partner_master_without_exemption() -> None:
    """No partner exemption, must under-trump: N's partner S wins with the
    9H and N's trumps are all lower: he must still play one (the QC is
    refused, naming partner_winning_exemption, seed 003)."""
    rules = NO_DECL.replace(partner_winning_exemption=False)
    state = deal(rules, PARTNER_LOW, "7H")
    play(state, "AS 9H 7S")
    option = "partner_winning_exemption"
    why(state, c("QC"), R.MUST_UNDERTRUMP, option, SEED003, house_rule=True)
    assert [a.text for a in state.legal_actions()] == ["8H", "QH", "KH", "AH"]


def test_must_go_higher_on_trump_lead_seed000() -> None:
    """Seed 000 "Si la couleur demandée est atout ... jouer un atout plus
    fort": W leads the 10H; E must go over his partner's 10H with the AH
    (overtrump_partner_on_trump_lead); seed 002 exempts him.  Then N, against
    E's AH, must play the 9H or JH, not the KH."""
    state = deal(FFB_RULES, D3, "7H")
    play(state, "10H 8H")
    why(state, c("QH"), R.MUST_GO_HIGHER, "overtrump_partner_on_trump_lead", SEED000)
    why(state, c("7D"), R.MUST_FOLLOW_SUIT, None, SEED000, suit="H")
    exempt = deal(FFB_RULES.replace(overtrump_partner_on_trump_lead=False), D3, "7H")
    play(exempt, "10H 8H")
    assert exempt.why_illegal(c("QH")) is None
    play(state, "AH")
    why(state, c("KH"), R.MUST_GO_HIGHER, None, SEED000)


# ------------------------------------------------------------ belote


def test_belote_words() -> None:
    """The belote word goes with a card only where it is the player's choice
    (seed 001 "sans annonce la belote n'est pas comptabilisée")."""
    # FFB: N's QH after JH 7S 7H; belote is automatic.
    state = deal_after(FFB_RULES, CAPOT, "10H", "take")
    play_cards(state, "JH 7S 7H")
    assert state.current == Seat.N
    qh = parse_card("QH")
    why(state, Play(qh, True), R.BELOTE_AUTOMATIC, "belote_must_be_said", SEED000, applied=True)
    assert state.why_illegal(Play(qh)) is None
    assert state.parse_action("QH") == Play(qh)
    plain = deal(FFB_RULES, D1, "7H")
    play(plain, "AS")
    for flag in (True, False):
        seven = Play(parse_card("7S"), flag)
        why(plain, seven, R.BELOTE_NOT_HELD, None, SEED001, applied=True)

    # Seed 001: the choice is open on the first card of the pair.
    said = FFB_RULES.replace(belote_must_be_said=True)
    state = deal_after(said, CAPOT, "10H", "take")
    play_cards(state, "JH 7S 7H")
    expected = Illegality(R.BELOTE_CHOICE_NEEDED, "belote_must_be_said", SEED001, house_rule=True)
    assert state.why_illegal(Play(qh)) == expected
    assert not state.is_legal(Play(qh))
    with pytest.raises(AmbiguousActionError) as amb:
        state.parse_action("qh")
    assert amb.value.candidates == [Play(qh, True), Play(qh, False)]
    assert amb.value.seat == Seat.N and amb.value.action == "qh"
    assert state.parse_action("QH no-belote") == Play(qh, False)
    assert state.why_illegal(Play(qh, True)) is None

    # Said with the QH, the KH's word is decided: no word with it.
    state.apply(Play(qh, True))
    play_cards(state, CAPOT_SCRIPT.split()[4:7])
    assert state.current == Seat.N
    kh = parse_card("KH")
    for flag in (True, False):
        option = "belote_must_be_said"
        why(state, Play(kh, flag), R.BELOTE_DECIDED, option, SEED001, house_rule=True, applied=True)
    assert state.legal_actions() == [Play(kh)]


def test_apply_takes_the_belote_word_as_legal_actions_writes_it() -> None:
    """``apply`` accepts a card exactly as :meth:`State.legal_actions`
    writes it, so that every action it accepts replays from its text: a
    card without the word where the choice is open is ambiguous
    (``AmbiguousActionError``, as ``parse_action``), a word where belote is
    automatic is illegal (``belote_automatic``); nothing changes."""
    said = FFB_RULES.replace(belote_must_be_said=True)
    state = deal_after(said, CAPOT, "10H", "take")
    play_cards(state, "JH 7S 7H")
    qh = parse_card("QH")
    before = (state.current, list(state.hands), list(state.trick_cards), dict(state.belote_said))
    with pytest.raises(AmbiguousActionError) as amb:
        state.apply(Play(qh), Seat.N)
    assert str(amb.value) == "say whether you say belote with QH: QH belote or QH no-belote"
    assert (amb.value.seat, amb.value.action) == (Seat.N, "QH")
    assert amb.value.candidates == [Play(qh, True), Play(qh, False)]
    assert (state.current, state.hands, state.trick_cards, state.belote_said) == before
    events = state.apply(Play(qh, False))
    assert [e.kind for e in events] == ["played", "trick_won"]
    pair = 1 << parse_card("KH") | 1 << qh
    assert state.belote_said == {pair: False}

    automatic = deal_after(FFB_RULES, CAPOT, "10H", "take")
    play_cards(automatic, "JH 7S 7H")
    with pytest.raises(IllegalActionError) as info:
        automatic.apply(Play(qh, True))
    assert info.value.reason == Illegality(R.BELOTE_AUTOMATIC, "belote_must_be_said", SEED000)
    assert str(info.value) == "belote automatic: N cannot QH belote at trick 1; legal: QH KH"
    assert [e.kind for e in automatic.apply(Play(qh))][:2] == ["belote_said", "played"]


def play_cards(state: State, cards: str | list[str]) -> None:
    """Play ``cards`` (text or list) in turn, each the legal action of its
    card, a player due to declare declaring all he holds first."""
    for text in cards.split() if isinstance(cards, str) else cards:
        declare_if_asked(state)
        state.apply(state.parse_action(text))


def test_legal_view_follows_the_state() -> None:
    """``state.legal`` is a view: bound once, it answers for the position of
    the moment (python-chess's LegalMoveGenerator)."""
    state = deal(FFB_RULES, D1, "7H")
    view = state.legal
    assert c("8S") in view and len(view) == 8
    play(state, "AS")
    assert c("8S") not in view and c("9S") in view and len(view) == 4
    assert repr(view) == "<LegalActions (7S, 9S, JS, KS)>"
    assert "9S" not in view  # only actions are in it


def test_every_reason_has_a_test() -> None:
    """Each reason of :class:`IllegalReason` is met in this module."""
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    missing = [r.name for r in IllegalReason if f"R.{r.name}" not in text]
    assert missing == []


def test_illegality_json() -> None:
    """``Illegality.to_json``: the reason code, the option, the source, the
    suit (none for must trump) and whether the option's value is the
    table's own (:meth:`Illegality.under`: seed 003 grants no partner
    exemption, the FFB does; the FFB's own rules are no house rule)."""
    reason = Illegality(R.MUST_TRUMP, "partner_winning_exemption", SEED003)
    assert reason.code == "must_trump"
    assert reason.to_json() == {
        "reason": "must_trump",
        "option": "partner_winning_exemption",
        "source": "docs/rules/seeds/003_7f3d86a6e289c91d.txt",
        "suit": None,
        "house_rule": False,
    }
    assert reason.under(SEED003_RULES).to_json() == {
        "reason": "must_trump",
        "option": "partner_winning_exemption",
        "source": "docs/rules/seeds/003_7f3d86a6e289c91d.txt",
        "suit": None,
        "house_rule": True,
    }
    assert reason.under(FFB_RULES) == reason
    higher = Illegality(R.MUST_GO_HIGHER, "overtrump_partner_on_trump_lead", SEED000)
    assert higher.under(FFB_RULES).house_rule is False  # the FFB's rule
    assert higher.under(preset("seed001")).house_rule is False
