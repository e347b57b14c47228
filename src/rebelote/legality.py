"""Why an action is not legal: a reason code, the rule option behind it and
the text the rule comes from.

:meth:`rebelote.state.State.why_illegal` returns an :class:`Illegality`
(``None`` for a legal action); :class:`~rebelote.state.IllegalActionError`
carries one too.  The reason is a code (:class:`IllegalReason`, a stable
string for the protocol and the pages' catalogs), ``option`` the field of
:class:`~rebelote.rules.Rules` whose value makes the action illegal (``None``
where every text agrees), and ``source`` the text that states the rule: a
file under ``docs/rules/`` (``docs/rules/FFB.md`` for the federation's
coinche rules) or ``FFB`` (the Fédération Française de Belote's rules,
which the project follows where the texts are silent).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum

from .rules import PRESETS, Rules

__all__ = [
    "FFB",
    "FFB_COINCHE",
    "RULES_DIGEST",
    "SEED000",
    "SEED001",
    "SEED002",
    "SEED003",
    "SUIT_REASONS",
    "IllegalReason",
    "Illegality",
]

SEED000 = "docs/rules/seeds/000_cc7df3da4fddaede.txt"
"""Seed 000: the help of a belote program (Tout Atout / Sans Atout, a
declaration turn)."""
SEED001 = "docs/rules/seeds/001_98e537329fb74394.txt"
"""Seed 001: a guide to belote classique (belote must be said)."""
SEED002 = "docs/rules/seeds/002_476a47d940be1c54.txt"
"""Seed 002: the rules of an online belote room (501 points)."""
SEED003 = "docs/rules/seeds/003_7f3d86a6e289c91d.txt"
"""Seed 003: the rules page of an online belote game (automatic
declarations)."""
RULES_DIGEST = "docs/rules/RULES.md"
"""The digest of the four texts, with the coinche club rules and the bid
notation."""
FFB = "FFB"
"""The rules of the Fédération Française de Belote for belote classique."""
FFB_COINCHE = "docs/rules/FFB.md"
"""The Fédération Française de Belote's rules of belote coinchée (2015), as
``docs/rules/FFB.md`` cites and summarizes them."""


class IllegalReason(Enum):
    """Why an action is refused.  The values are the codes sent to clients."""

    NO_SUCH_ACTION = "no_such_action"
    """Not an action of the game as the engine writes it (a card number out
    of 0..31, a bid of 85, a ``Bid("pass", S)``, a pattern other than
    ``3-2``, ``2-3`` and ``3-3-2``, declarations out of the order
    :meth:`~rebelote.state.State.legal_actions` lists them).  The dealer
    chooses a pattern only where ``Rules.patterns`` allows both, so no
    pattern is refused for the rules."""

    DEAL_OVER = "deal_over"
    """The deal is scored, passed or cancelled: no one acts."""

    NOT_YOUR_TURN = "not_your_turn"
    """Another seat is to act (seed 000: "le joueur peut jouer une carte à son
    tour")."""

    WRONG_PHASE = "wrong_phase"
    """An action of another phase: a card during the bidding, a bid during the
    play, a declaration when none is due (RULES.md: the order of a deal)."""

    CUT_REQUIRED = "cut_required"
    """``cut 0`` where the cut is compulsory (``Rules.cut_optional`` off; seed
    001: "le joueur situé à gauche du joueur donneur doit effectuer la
    coupe")."""

    CUT_OUT_OF_RANGE = "cut_out_of_range"
    """A packet smaller than ``Rules.cut_min_packet`` on either side (seed 001:
    "chacun devant contenir au moins deux cartes")."""

    BID_NOT_IN_AUCTION = "bid_not_in_auction"
    """A bid of another auction (``Rules.bidding``): a coinche contract in a
    classic game, ``take`` in coinche, ``TA`` where there are no Tout Atout
    overbids (RULES.md, "Bid notation")."""

    TAKE_ONLY_IN_ROUND_ONE = "take_only_in_round_one"
    """``take`` in round two, where a suit is named (seed 002: "Si tout le monde
    passe au premier tour, le joueur à la droite du donneur peut choisir
    n'importe quelle couleur").  The taker still gets the turned card in
    round two: what is refused is the word, not the card.  ``suit``: the
    turned suit where round two excludes it (``Rules.round_two_turned_suit``
    off: "sauf la couleur de la carte sur la table"), ``None`` where it may
    be named (seed 001)."""

    SUIT_ONLY_IN_ROUND_TWO = "suit_only_in_round_two"
    """A suit named in round one, where only the turned card's suit may be
    taken (seed 002: "Le joueur à la droite du donneur peut choisir s'il prend
    la couleur de la carte comme l'atout")."""

    TURNED_SUIT_IN_ROUND_TWO = "turned_suit_in_round_two"
    """The turned suit named in round two (``Rules.round_two_turned_suit``
    off; seed 002: "n'importe quelle couleur sauf la couleur de la carte sur
    la table").  ``suit``: the turned suit."""

    BID_TOO_LOW = "bid_too_low"
    """A bid that does not beat the last one: coinche contracts (RULES.md: "A
    bid must beat the last one"), Tout Atout overbids (seed 000: "il n'est
    donc pas possible de surenchérir avec une couleur simple")."""

    CAPOT_IS_HIGHEST = "capot_is_highest"
    """A contract after a capot bid: nothing beats a capot (RULES.md: "80,
    90, ... 160, then capot")."""

    STRAIN_NOT_ALLOWED = "strain_not_allowed"
    """A Tout Atout or Sans Atout coinche contract where
    ``Rules.coinche_tout_atout`` is off (RULES.md: "where enabled")."""

    BID_AFTER_COINCHE = "bid_after_coinche"
    """A contract after a coinche (RULES.md: "a coinche ends the auction
    except for a surcoinche by the coinched team")."""

    COINCHE_NOT_ALLOWED = "coinche_not_allowed"
    """A coinche with no contract to double, on one's own side's contract, or
    a second time (RULES.md: "An opponent of the last bidder may
    coincher")."""

    NO_CONTRACT_TO_COINCHE = "no_contract_to_coinche"
    """A coinche before any contract: there is nothing to double (RULES.md
    "An opponent of the last bidder may coincher")."""

    COINCHE_OWN_SIDE = "coinche_own_side_contract"
    """A coinche of one's own or one's partner's contract: only an opponent
    of the last bidder may coinche (RULES.md; FFB coinche 2015, 4.1 "Un
    joueur peut coincher une enchère adverse")."""

    SURCOINCHE_NOT_ALLOWED = "surcoinche_not_allowed"
    """A surcoinche with no coinche to answer, or by the side that coinched
    (RULES.md: "the bidding team may then surcoincher"; FFB coinche 2015,
    4.1: "l'équipe adverse a la possibilité de surcoincher")."""

    DECLARATIONS_OFF = "declarations_off"
    """A declaration where ``Rules.declarations`` is ``off`` (seed 002, coinche)."""

    DECLARATIONS_AUTOMATIC = "declarations_automatic"
    """A declaration where ``Rules.declarations`` is ``automatic``: they are
    made for the player (seed 003)."""

    DECLARATION_NOT_HELD = "declaration_not_held"
    """A declaration the hand does not hold (seed 000: "Le logiciel donne
    l'annonce la plus forte pour chaque joueur")."""

    DECLARE_FIRST = "declare_first"
    """A card before choosing what to declare, due with the first card
    (``Rules.declarations`` ``choice``; seed 000: "Cette annonce n'est pas
    obligatoire")."""

    NOT_IN_HAND = "not_in_hand"
    """A card the player does not hold."""

    MUST_FOLLOW_SUIT = "must_follow_suit"
    """Holding the suit led, another card (seed 000: "On est obligé de fournir
    à la couleur demandée")."""

    MUST_GO_HIGHER = "must_go_higher"
    """Trump led (every lead in Tout Atout): a trump no higher than the best
    on the trick while holding a higher one (seed 000: "Si la couleur demandée
    est atout ... on doit, si possible, jouer un atout plus fort que celui
    déjà mis").  ``option`` is ``overtrump_partner_on_trump_lead`` when the
    partner is winning (seed 002 exempts him)."""

    MUST_TRUMP = "must_trump"
    """Void in the plain suit led, holding trumps, no trump on the trick: a
    card that is no trump (seed 000: "on doit couper avec de l'atout").
    ``option`` is ``partner_winning_exemption`` when the partner is winning
    (seed 003 has no exemption)."""

    MUST_OVERTRUMP = "must_overtrump"
    """Void in the plain suit led, a trump winning the trick and a higher
    trump in hand: a card that is no trump (seed 000: "si on surcoupe, on
    doit, si possible, jouer un atout plus fort que celui déjà mis").
    ``option`` is ``partner_winning_exemption`` when the partner is
    winning."""

    MAY_NOT_UNDERTRUMP = "may_not_undertrump"
    """Void in the plain suit led, a trump winning the trick and a higher
    trump in hand: a lower trump (seed 000, as :attr:`MUST_OVERTRUMP`).
    ``option`` is ``partner_winning_exemption`` when the partner is
    winning."""

    MUST_UNDERTRUMP = "must_undertrump"
    """Void in the plain suit led, a trump winning the trick, only lower
    trumps in hand: a card that is no trump (``Rules.must_undertrump``, FFB).
    ``option`` is ``partner_winning_exemption`` when the partner is
    winning."""

    MAY_NOT_UNDERTRUMP_PARTNER = "may_not_undertrump_partner"
    """Void in the plain suit led, the partner winning the trick with a
    trump: a lower trump while holding a card that is no trump
    (``Rules.lower_trump_under_partner``; FFB coinche 2015, 5.2: "C'est le
    seul cas de figure, plutôt rare, où il est permis de jouer un atout
    inférieur")."""

    BELOTE_NOT_HELD = "belote_not_held"
    """A belote word (``JS belote``) with a card that is no king or queen of
    trump of a pair the player holds (seed 001: "il y a belote si l'un des
    joueurs détient le roi et la dame d'atout")."""

    BELOTE_AUTOMATIC = "belote_automatic"
    """A belote word where belote counts without being said
    (``Rules.belote_must_be_said`` off; seed 000: "exceptée la belote qui est
    toujours valide")."""

    BELOTE_DECIDED = "belote_decided"
    """A belote word on the second card of a pair: said or not, it was
    decided with the first (seed 001: "Elle est annoncée en déposant le roi
    ... puis la dame")."""

    BELOTE_CHOICE_NEEDED = "belote_choice_needed"
    """The first card of a belote that must be said, without saying whether
    it is (``Rules.belote_must_be_said``; seed 001: "sans annonce la belote
    n'est pas comptabilisée")."""


@dataclass(frozen=True, slots=True)
class Illegality:
    """Why an action is not legal now.

    ``reason``: the code; ``option``: the :class:`~rebelote.rules.Rules`
    field whose value makes it illegal, ``None`` where every text agrees;
    ``source``: the text stating the rule (:data:`SEED000` ..
    :data:`SEED003`, :data:`RULES_DIGEST`, :data:`FFB` or
    :data:`FFB_COINCHE`); ``suit``: the
    suit the reason is about, as a letter ``S`` ``H`` ``D`` ``C``, where it
    names one (see :data:`SUIT_REASONS`), else ``None``; ``house_rule``:
    whether ``option``'s value at this table differs from the FFB's (the
    ``ffb`` preset, or ``ffb-coinche`` at a coinche table): the rule is the
    table's own, not the standard one (seed 003's partner with no
    exemption, seed 001's belote that must be said, the club coinche
    sequence after a coinche ...; set by :meth:`under`).
    """

    reason: IllegalReason
    option: str | None
    source: str
    suit: str | None = None
    house_rule: bool = False

    def under(self, rules: Rules) -> Illegality:
        """This reason at a table of ``rules``: :attr:`house_rule` set where
        ``option``'s value differs from the FFB's (the ``ffb`` preset, or
        ``ffb-coinche`` at a coinche table: docs/rules/FFB.md)."""
        option = self.option
        standard = _FFB_COINCHE_RULES if rules.bidding == "coinche" else _FFB_RULES
        house = option is not None and getattr(rules, option) != getattr(standard, option)
        return self if house == self.house_rule else dataclasses.replace(self, house_rule=house)

    @property
    def code(self) -> str:
        """The reason's code, e.g. ``must_follow_suit``."""
        return self.reason.value

    def to_json(self) -> dict[str, str | bool | None]:
        """``{"reason": code, "option": name or null, "source": text,
        "suit": letter or null, "house_rule": true or false}``."""
        return {
            "reason": self.reason.value,
            "option": self.option,
            "source": self.source,
            "suit": self.suit,
            "house_rule": self.house_rule,
        }


_FFB_RULES = PRESETS["ffb"]
"""The standard the table's options are compared with (:attr:`Illegality.house_rule`)."""

_FFB_COINCHE_RULES = PRESETS["ffb-coinche"]
"""The standard a coinche table's options are compared with (:attr:`Illegality.house_rule`)."""


SUIT_REASONS: dict[IllegalReason, str] = {
    IllegalReason.MUST_FOLLOW_SUIT: "the suit led, to follow",
    IllegalReason.TAKE_ONLY_IN_ROUND_ONE: (
        "the turned card's suit where round two excludes it "
        "(``Rules.round_two_turned_suit`` off); none where any suit may be named"
    ),
    IllegalReason.TURNED_SUIT_IN_ROUND_TWO: "the turned card's suit, excluded in round two",
}
"""The reasons whose :attr:`Illegality.suit` names a suit, and which suit."""
