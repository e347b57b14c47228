"""The rule set: one frozen, keyword-only option for every point where the
source texts differ, and named presets that pin every option.

The options follow the table "Where the texts differ" of ``docs/rules/RULES.md``;
the presets follow its table "Presets" exactly.  ``ffb`` follows the rules of
the Fédération Française de Belote (FFB) for belote classique; ``ffb-coinche``
the federation's coinche rules of 2015 exactly (``docs/rules/FFB.md``);
``seed000`` to
``seed003`` follow their source text literally (``seeds/000`` ... ``seeds/003``)
and have names a player understands as well (:data:`PRESET_NAMES`:
``declaration-turn``, ``tout-atout``, ``belote-said``, ``dealer-leads-501``,
``auto-declarations-501``); ``coinche`` follows the usual club rules as colver
plays them.

Rule variants are data: the engine reads these options and never branches on a
preset's name.

Two rows of the table are not options: the *misdeal* (seed 001: "En cas
d'erreur dans la donne") cannot happen when the program deals, and the
two-player game that seed 003 mentions in passing is not described by any
text, so it is not built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "PATTERNS",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_NAMES",
    "Rules",
    "RulesError",
    "canonical_preset",
    "preset",
    "preset_name",
]

Bidding = Literal["classic", "tout_atout", "coinche"]
AllPass = Literal["redeal", "next_dealer", "dealer_left"]
DealerRotation = Literal["right", "left"]
FirstLead = Literal["dealer_right", "dealer"]
DeclarationMode = Literal["off", "choice", "automatic"]
DeclarationTie = Literal["none", "first"]
SaCarres = Literal["usual", "ffb"]
DealPoints = Literal["fixed", "played"]
BeloteOnDedans = Literal["holders", "defenders"]
Tie = Literal["litige", "takers_fail"]
CoincheMadeScore = Literal["contract_and_points", "contract"]
LowerTrumpUnderPartner = Literal["allowed", "all_trumps_only"]
AfterCoinche = Literal["coinched_side", "three_passes"]
CoincheMultiplies = Literal["contract", "deal"]
Rounding = Literal["none", "nearest_ten", "house"]

# Card points by rank in natural order 7 8 9 10 J Q K A.
TA_POINTS_USUAL: tuple[int, ...] = (0, 0, 9, 5, 14, 1, 3, 6)
"""Tout Atout: J 14, 9 9, A 6, 10 5, K 3, Q 1, 8 0, 7 0 (38 a suit, 152 in all)."""
SA_POINTS_USUAL: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 19)
"""Sans Atout: A 19, 10 10, K 4, Q 3, J 2, 9 8 7 0 (38 a suit, 152 in all)."""


class RulesError(ValueError):
    """An unknown preset or option, or an option value out of range."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """A complete Belote rule set; every field is one option (defaults: ``ffb``).

    Build one with :func:`preset` (``preset("seed001")``) or
    ``Rules(option=value, ...)``; change one option with :meth:`replace`.
    All points are game points; ``target`` is the match's target score.

    Raises :class:`RulesError` (a ``ValueError``) from the constructor when a
    value is out of range.
    """

    preset: str = "ffb"
    """The preset this rule set was built from (for records and display)."""

    players: Literal[2, 3, 4] = 4
    """4: two sides of partners.  3: the 24-card game, each for himself
    (seeds 000 and 003; RULES.md "Three players").  2: the 32-card game of
    8 cards each, the 16 others set aside unseen, each for himself (seed 003
    "modalités pour 2"; exoty.com "la belote à deux (presque) classique";
    RULES.md "Two players")."""

    target: int = 1000
    """Match target: the match ends when a side reaches it (seed 000 and 001:
    1000; 3000 in Tout Atout, seed 000; 501 in seeds 002 and 003; coinche 2000).
    Both past it: the higher total wins; equal totals: one more deal (seed 001)."""

    cut_optional: bool = False
    """The cutter may decline to cut (seed 000: "Le joueur a la possibilité de
    couper le jeu").  Otherwise the cut is compulsory (seed 001)."""

    cut_min_packet: int = 2
    """Each packet of the cut holds at least this many cards (seed 001:
    "chacun devant contenir au moins deux cartes")."""

    patterns: tuple[str, ...] = ("3-2", "2-3")
    """First distributions the dealer may choose: "3-2" and/or "2-3" (seeds 000
    and 001 allow both; seed 002: "3 cartes puis encore 2 cartes", only 3-2).
    In coinche, where every card is dealt at once, "3-2" and "2-3" deal 3-2-3
    and 2-3-3, and "3-3-2" deals 3, 3 then 2 (FFB coinche 2015, 3.4: "3
    cartes puis 2 puis 3 / 3 cartes puis 3 puis 2 / 2 cartes puis 3 puis 3";
    docs/rules/FFB.md); "3-3-2" is refused where a card is turned."""

    bidding: Bidding = "classic"
    """classic: two rounds of taking; tout_atout: seed 000's Tout Atout / Sans
    Atout overbidding; coinche: the auction of contracts 80..160 and capot."""

    round_two_turned_suit: bool = False
    """In round two a player may name the turned card's suit (seed 001: "une
    quelconque couleur"); seeds 000, 002, 003: another suit only."""

    all_pass: AllPass = "next_dealer"
    """After all pass twice: ``next_dealer`` (the deal passes on as usual, seed
    001 "commence alors la donne suivante"), ``redeal`` (same dealer, seeds 000
    and 003), ``dealer_left`` (the player on the dealer's left deals, seed 002)."""

    dealer_rotation: DealerRotation = "right"
    """Who deals next: ``right``, the player who got the first card (seed 001,
    seed 002); ``left`` for tables that pass the deal clockwise."""

    first_lead: FirstLead = "dealer_right"
    """Who leads trick 1: the player right of the dealer (seeds 000, 003), or
    the dealer (seed 002: "le donneur entamera le premier pli")."""

    partner_winning_exemption: bool = True
    """Void in the suit led while the partner wins the trick: any card
    (seeds 000, 001, 002).  Off: must trump all the same (seed 003)."""

    must_undertrump: bool = True
    """Void in the suit led, must trump but cannot beat the trump on the
    trick: must still play a lower trump (FFB; seed 000 "on doit couper").
    Off: any card (seed 003; coinche as colver plays it)."""

    overtrump_partner_on_trump_lead: bool = True
    """Trump led and the partner winning: must still play a higher trump if
    possible (FFB, seeds 000, 001, 003).  Off: exempt (seed 002)."""

    declarations: DeclarationMode = "choice"
    """Declarations (annonces): ``off`` (seed 002, coinche), ``choice`` (each
    player may declare or not, seed 000 "Cette annonce n'est pas obligatoire"),
    ``automatic`` (made for each player on his first card, seed 003)."""

    declaration_turn: bool = False
    """Declarations are made in a turn of their own before the first trick, in
    speaking order (seed 000).  Otherwise with each player's first card (FFB)."""

    declaration_tie: DeclarationTie = "none"
    """Equal best declarations of both sides: ``none`` scores (FFB), or the
    ``first`` declared scores (seed 000)."""

    belote_must_be_said: bool = False
    """Belote counts only if said aloud when played (seed 001: "sans annonce la
    belote n'est pas comptabilisée").  Otherwise automatic."""

    belote_requires_trick: bool = False
    """Belote counts only if its side won at least one trick (seed 000: "si
    l'équipe marque des points grâce à ses plis")."""

    belote_on_dedans: BeloteOnDedans = "holders"
    """When the takers fail, belote stays with its holders (seeds 001, 002,
    003) or goes to the defenders with the rest of the points."""

    tie: Tie = "litige"
    """Takers' points equal to the defenders': ``litige`` (the takers' points
    are held over to the winner of the next deal, seed 003, FFB) or
    ``takers_fail`` (seed 001 "must exceed", seed 002)."""

    capot_points: int = 252
    """What a side scores for its cards when it took all 8 tricks (seed 000:
    100 instead of dix de der; seed 001: 252; seed 003: +90 on top of the dix
    de der)."""

    capot_against_takers: int = 252
    """What the defenders score for the cards when they took all 8 tricks
    against the takers (FFB 252; seed 001: "simplement un dedans 162")."""

    deal_points: DealPoints = "fixed"
    """The values a *dedans* and a capot score for the cards: ``fixed``
    (162 and ``capot_points`` / ``capot_against_takers``, as when all 32
    cards are played; every preset, ``two-players`` too: [E] says its rules
    "sont les mêmes que pour la Belote classique") or ``played`` (a house
    rule for the two-player game, where 16 cards are played: the card
    points actually played + 10 for a *dedans*, + 100 for a capot, so that
    ``capot_points`` 252 means "cards + 100"; docs/rules/RULES.md "Two
    players")."""

    solo_capot_points: int | None = None
    """What a side scores for its cards when one player took all 8 tricks
    himself (seed 002: 350); ``None``: as any capot.  Seed 002's "252 points
    supplémentaires ... 350 points supplémentaires" is read as the value of the
    cards in that deal (252 like the other texts, 350 for a solo capot)."""

    carre_of_seven_cancels: bool = False
    """A player holding the four 7s cancels the deal (seed 001: "Un carré de 7
    annule la partie"); applies when declarations are on."""

    sa_multiplier: int = 2
    """Sans Atout deals count this many times (seed 000: "le double")."""

    ta_multiplier: int = 3
    """Tout Atout deals count this many times (seed 000: "le triple")."""

    ta_points: tuple[int, ...] = TA_POINTS_USUAL
    """Tout Atout card points by rank 7 8 9 10 J Q K A (seed 000 gives none;
    the usual table keeps the deal at 162)."""

    sa_points: tuple[int, ...] = SA_POINTS_USUAL
    """Sans Atout card points by rank 7 8 9 10 J Q K A (the usual table)."""

    coinche_tout_atout: bool = False
    """Coinche: Tout Atout / Sans Atout contracts (``90TA``, ``100SA``) allowed."""

    sa_carres: SaCarres = "usual"
    """The carrés' points in a Sans Atout deal: ``usual`` (J 200, 9 150,
    A 10 K Q 100, as in a suit: seed 000 gives no other table) or ``ffb``
    (FFB coinche 2015, 11.2: "4 As 200, 4 Dix 150, 4 Roi / Dame / Valet /
    Neuf 100").  Tout Atout keeps the usual table (11.3: "L'ordre et la
    valeur des carrés demeurent inchangés")."""

    coinche_made_score: CoincheMadeScore = "contract_and_points"
    """Coinche, contract made: the takers score the contract plus the points
    they made (club rules, colver), or the contract alone."""

    lower_trump_under_partner: LowerTrumpUnderPartner = "allowed"
    """Void in the plain suit led while the partner wins the trick with a
    trump (where ``partner_winning_exemption`` frees the player): ``allowed``,
    any card, a lower trump too (FFB belote classique 2016, 5.2: "On peut se
    défausser de n'importe quelle carte sans exception (y compris un atout
    inférieur au sien)"); ``all_trumps_only``, any card but a trump lower
    than the partner's, unless the player holds nothing but trumps (FFB
    belote coinchée 2015, 5.2: "Lorsque notre partenaire, maître, a coupé une
    carte adverse et que nous ne possédons plus que de l'atout, il n'est pas
    obligé de fournir un atout supérieur. C'est le seul cas de figure, plutôt
    rare, où il est permis de jouer un atout inférieur"; docs/rules/FFB.md)."""

    after_coinche: AfterCoinche = "coinched_side"
    """Coinche auction, after a coinche: ``coinched_side``, only the two
    players of the coinched side speak, from the coincher's right, a
    surcoinche or their two passes ending the auction (club rules, as
    colver plays them); ``three_passes``, the three players after the
    coincher speak in turn, the coinched side may surcoinche, the
    coincher's partner may only pass, and three passes end the auction
    (FFB coinche 2015, 4.1: "le tour de d'enchère s'achève lorsqu'après
    une enchère ou une coinche, les trois joueurs suivants passent";
    docs/rules/FFB.md)."""

    coinche_capot_points: int = 250
    """Coinche: what a side's cards count when it took all 8 tricks
    (capot): 250 (club rules, colver: a capot bid made scores 250 + the
    contract's 250 = 500), or 252 (FFB coinche 2015, 9.2: "le dix de der
    vaut 100 points, portant ainsi le total à 252 points": a capot bid made
    scores 252 + 250 = 502; docs/rules/FFB.md)."""

    coinche_multiplies: CoincheMultiplies = "contract"
    """Coinche, what a coinche (x2) or surcoinche (x4) multiplies:
    ``contract``, the contract alone (club rules, colver: made, the takers
    score contract x multiplier + their points, the defenders theirs;
    failed, the defenders score 160 + contract x multiplier + the
    declarations), or ``deal``, the whole deal (FFB coinche 2015, 4.1 "Le
    score de la donne sera multiplié par 2", 10.1.1, 10.1.2; docs/rules/FFB.md):
    made, the takers score (160, or 250 after a capot, + every declaration
    of both sides + their belote + the contract) x multiplier and the
    defenders only their belote; failed, the defenders score (160 + every
    declaration + their belote + the contract) x multiplier and the takers
    only their belote.  ``coinche_made_score`` then applies to contracts
    that were not coinched."""

    capot_takes_declarations: bool = False
    """When the takers take all 8 tricks (capot), the defenders'
    declarations count for the takers (FFB coinche 2015, 10.1.1: "si un
    capot est réalisé par les preneurs, les annonces des défenseurs changent
    de main et sont marqués par les preneurs, et ce, que le capot ait été
    demandé lors des enchères ou non"; docs/rules/FFB.md).  Otherwise each
    side keeps the declarations that counted for it."""

    ta_sa_points_to_162: bool = False
    """Tout Atout and Sans Atout deals: each side's card points with the dix
    de der are converted to the 162 scale, ``points x 162 / total`` where
    ``total`` is the deal's card points + 10 (258 with the trump values in
    every suit), rounded to the nearest point, a half up (FFB belote
    classique 2016, 11.3: "il faut multiplier le nombre de points comptés
    (hors belote) par la fraction 162/258 puis rajouter les éventuelles
    belotes"; its example: "198 x 162 / 258" gives 124; docs/rules/FFB.md).
    The contract is judged on the converted points; a capot still counts
    its capot points.  Off: the points count as ``ta_points`` and
    ``sa_points`` give them (the usual tables already total 162)."""

    rounding: Rounding = "none"
    """What each side scores in a deal, rounded once the contract is judged:
    ``none``, to the point (FFB classique 2016, 10.3: "le score de chaque
    équipe est marqué au point près"); ``nearest_ten``, to the nearest ten,
    a 5 up (FFB coinche 2015, 10.2: "les points de la partie sont arrondis à
    la dizaine la plus proche. Note : 85 est arrondi à 90 tandis que 84 est
    arrondi à 80"; optional in classic belote, FFB classique 2016, 10.3);
    ``house``, a house rule: the takers' score to the nearest ten, a 5
    down, the other side getting the rest of the deal's rounded total, the
    complement to 160 of the card points ("64 devient 60, l'adversaire a
    100 ; 105 devient 100, l'adversaire a 60 ; 106 devient 110, l'adversaire
    a 50"; docs/rules/FFB.md).  Points held over (litige) are rounded with
    the takers' score; in the three-player game ``house`` rounds each
    side's score, a 5 down."""

    belote_alone_cannot_win: bool = False
    """A side that reaches the target only through its belote in a deal
    where it was capot (took no trick) or failed as takers has not won yet:
    play goes on, and it wins once it has taken a trick in a later deal
    (FFB coinche 2015, 10.3: "Si une équipe est capot ou chute, et atteint
    les points fixés uniquement grâce aux points d'une belote, la partie
    n'est pas encore gagnée et doit se poursuivre. L'équipe aura besoin
    d'un pli supplémentaire pour valider la partie."; docs/rules/FFB.md).
    Otherwise reaching the target wins, however."""

    def __post_init__(self) -> None:
        for name in OPTION_NAMES:
            _check_type(name, getattr(self, name))
        if self.players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, not {self.players!r}")
        if self.players != 4 and self.bidding == "coinche":
            raise RulesError("the coinche auction is a four-player game")
        if self.sa_multiplier < 1 or self.ta_multiplier < 1:
            raise RulesError("sa_multiplier and ta_multiplier must be at least 1")
        if self.target <= 0:
            raise RulesError(f"target must be positive, not {self.target}")
        if not self.patterns or any(p not in PATTERNS for p in self.patterns):
            raise RulesError(
                f"patterns must be a non-empty subset of 3-2, 2-3, 3-3-2: {self.patterns}"
            )
        if "3-3-2" in self.patterns and self.bidding != "coinche":
            raise RulesError("the 3-3-2 distribution deals every card: coinche only")
        if not 0 <= self.cut_min_packet <= 12:
            raise RulesError(f"cut_min_packet must be 0..12, not {self.cut_min_packet}")
        for name in ("ta_points", "sa_points"):
            table = getattr(self, name)
            if len(table) != 8 or any(not isinstance(p, int) or p < 0 for p in table):
                raise RulesError(f"{name} needs 8 card points (7 8 9 10 J Q K A)")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RulesError(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed.  Raises :class:`RulesError` on an
        unknown option or a bad value."""
        unknown = set(changes) - set(OPTION_NAMES) - {"preset"}
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:  # pragma: no cover - guarded above
            raise RulesError(str(exc)) from None

    def options(self) -> dict[str, Any]:
        """Every option and its value, JSON-ready (tuples as lists)."""
        out: dict[str, Any] = {}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def to_record(self) -> str | dict[str, Any]:
        """The ``rules`` value of a record: the preset name, or
        ``{"preset": name, option: value, ...}`` for the options that differ."""
        name = canonical_preset(self.preset)
        base = PRESETS.get(name)
        if base is None:
            return {"preset": "ffb", **self.options()}
        diff = {k: v for k, v in self.options().items() if base.options()[k] != v}
        return name if not diff else {"preset": name, **diff}

    @classmethod
    def from_record(cls, value: object) -> Rules:
        """Read a record's ``rules``: a preset name or ``{"preset": ..., ...}``.

        Raises :class:`RulesError` on an unknown preset or option, or a bad value.
        """
        if isinstance(value, str):
            return preset(value)
        if isinstance(value, Mapping):
            data = dict(value)
            name = data.pop("preset", "ffb")
            if not isinstance(name, str):
                raise RulesError("rules.preset must be a preset name")
            base = preset(name)
            for key in ("patterns", "ta_points", "sa_points"):
                if isinstance(data.get(key), list):
                    data[key] = tuple(data[key])
            return base.replace(**data)
        raise RulesError("rules must be a preset name or an object with a preset")

    @property
    def cards_per_deal(self) -> int:
        """Cards in the pack: 32, or 24 for the three-player game."""
        return 24 if self.players == 3 else 32

    @property
    def cards_dealt(self) -> int:
        """Cards in the players' hands once dealt: 8 a seat (the two-player
        game sets the other 16 of its 32 aside, RULES.md "Two players")."""
        return 8 * self.players

    @property
    def turned_card(self) -> bool:
        """Whether a card is turned up (classic bidding) or all are dealt (coinche)."""
        return self.bidding != "coinche"


def _check_type(name: str, value: object) -> None:
    """Refuse a value of the wrong type (a record's ``"capot_points": "252"``)."""
    default = _FIELD_DEFAULTS[name]
    if name == "solo_capot_points":
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        kind = "a whole number or null"
    elif isinstance(default, bool):
        ok, kind = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
        kind = "a whole number"
    elif isinstance(default, tuple):
        ok = isinstance(value, tuple) and all(
            isinstance(v, type(default[0])) and not isinstance(v, bool) for v in value
        )
        kind = "a list of " + ("whole numbers" if isinstance(default[0], int) else "texts")
    else:
        ok, kind = isinstance(value, str), "a text"
    if not ok:
        raise RulesError(f"rule option {name} must be {kind}, not {value!r}")
    numbers = [value] if isinstance(value, int) and not isinstance(value, bool) else []
    if isinstance(value, tuple):
        numbers = [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
    for number in numbers:
        if number < 0:
            raise RulesError(f"rule option {name} must not be negative, not {number}")
        if number > MAX_OPTION_NUMBER:
            raise RulesError(
                f"rule option {name} must be at most {MAX_OPTION_NUMBER:,}, not {number}"
            )


PATTERNS: tuple[str, ...] = ("3-2", "2-3", "3-3-2")
"""Every first distribution (:attr:`Rules.patterns`)."""

MAX_OPTION_NUMBER = 1_000_000
"""The largest whole number a rule option takes (points, targets): far above
any rule of the game, and small enough for the solver's machine integers."""


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.init and f.name != "preset"
)
"""The names of all options, in declaration order."""

_FIELD_DEFAULTS: dict[str, object] = {f.name: f.default for f in dataclasses.fields(Rules)}

_CHOICES: dict[str, tuple[object, ...]] = {
    "bidding": ("classic", "tout_atout", "coinche"),
    "all_pass": ("redeal", "next_dealer", "dealer_left"),
    "dealer_rotation": ("right", "left"),
    "first_lead": ("dealer_right", "dealer"),
    "declarations": ("off", "choice", "automatic"),
    "declaration_tie": ("none", "first"),
    "belote_on_dedans": ("holders", "defenders"),
    "tie": ("litige", "takers_fail"),
    "coinche_made_score": ("contract_and_points", "contract"),
    "lower_trump_under_partner": ("allowed", "all_trumps_only"),
    "after_coinche": ("coinched_side", "three_passes"),
    "coinche_multiplies": ("contract", "deal"),
    "rounding": ("none", "nearest_ten", "house"),
    "sa_carres": ("usual", "ffb"),
    "deal_points": ("fixed", "played"),
}

_FFB = Rules()
_SEED000 = Rules(
    preset="seed000",
    cut_optional=True,
    all_pass="redeal",
    declaration_turn=True,
    declaration_tie="first",
    belote_requires_trick=True,
)

PRESETS: dict[str, Rules] = {
    "ffb": _FFB,
    "ffb-no-declarations": Rules(preset="ffb-no-declarations", declarations="off"),
    "seed000": _SEED000,
    "seed000-tout-atout": dataclasses.replace(
        _SEED000, preset="seed000-tout-atout", target=3000, bidding="tout_atout"
    ),
    "seed001": Rules(
        preset="seed001",
        round_two_turned_suit=True,
        belote_must_be_said=True,
        tie="takers_fail",
        capot_against_takers=162,
        carre_of_seven_cancels=True,
    ),
    "seed002": Rules(
        preset="seed002",
        target=501,
        patterns=("3-2",),
        all_pass="dealer_left",
        first_lead="dealer",
        overtrump_partner_on_trump_lead=False,
        declarations="off",
        tie="takers_fail",
        solo_capot_points=350,
    ),
    "seed003": Rules(
        preset="seed003",
        target=501,
        all_pass="redeal",
        partner_winning_exemption=False,
        must_undertrump=False,
        declarations="automatic",
    ),
    "coinche": Rules(
        preset="coinche",
        target=2000,
        bidding="coinche",
        must_undertrump=False,
        declarations="off",
        tie="takers_fail",
        # Coinche contracts state their value; TA / SA card tables keep 162,
        # so those deals are not multiplied (club rules, colver).
        sa_multiplier=1,
        ta_multiplier=1,
    ),
    "three-players": Rules(preset="three-players", players=3, tie="takers_fail"),
    # RULES.md "Two players": exoty.com's "(presque) classique" form, "les
    # règles sont les mêmes que pour la Belote classique": ffb, two seats.
    "two-players": Rules(preset="two-players", players=2),
    # The Fédération Française de Belote's coinche rules (2015), read from
    # docs/rules/FFB.md, section by section; every other option as ffb.
    "ffb-coinche": Rules(
        preset="ffb-coinche",
        # Not fixed by the text ("un nombre de points défini au départ"):
        # the coinche preset's target.
        target=2000,
        cut_min_packet=3,  # 3.3 "Chaque tas doit contenir au moins 3 cartes"
        patterns=("3-2", "3-3-2", "2-3"),  # 3.4: 3-2-3, 3-3-2, 2-3-3
        bidding="coinche",  # 4.1
        after_coinche="three_passes",  # 4.1 "les trois joueurs suivants passent"
        # 5.2 "il n'est pas obligatoire d'en jouer un (... « ne pisse pas »)"
        must_undertrump=False,
        lower_trump_under_partner="all_trumps_only",  # 5.2 "le seul cas de figure"
        belote_must_be_said=True,  # 7 "En cas d'omission ... pas prise en compte"
        declarations="choice",  # 8 "La coinche se joue toujours avec les annonces"
        coinche_capot_points=252,  # 9.2 "portant ainsi le total à 252 points"
        coinche_multiplies="deal",  # 4.1, 10.1.1, 10.1.2
        capot_takes_declarations=True,  # 10.1.1 "Cas particulier"
        tie="takers_fail",  # 10.1.2 "supérieur ou égal aux preneurs"
        rounding="nearest_ten",  # 10.2
        belote_alone_cannot_win=True,  # 10.3 "Cas particulier"
        # Contracts state their value: no Tout Atout / Sans Atout multiplier.
        sa_multiplier=1,
        ta_multiplier=1,
        # 11 (a variant the organiser may allow, off): its card tables, 11.2
        # Sans Atout "As 19, Dix 10, Roi 4, Dame 3, Valet 0" and 11.3 Tout
        # Atout "Valet 13, Neuf 9, As 6, Dix 5, Roi 3, Dame 2".
        coinche_tout_atout=False,
        sa_carres="ffb",  # 11.2 (where a tournament enables the variant)
        sa_points=(0, 0, 0, 10, 0, 3, 4, 19),
        ta_points=(0, 0, 9, 5, 13, 2, 3, 6),
    ),
}
"""The named presets (RULES.md, "Presets: every disputed point pinned")."""

PRESET_DESCRIPTIONS: dict[str, str] = {
    "ffb": "Belote classique, FFB rules: declarations, litige on a tie, 1000 points.",
    "ffb-no-declarations": "Belote classique, FFB rules without declarations (annonces).",
    "seed000": "Seed 000's program: optional cut, a declaration turn, 1000 points.",
    "seed000-tout-atout": "Seed 000 with Tout Atout / Sans Atout overbids, 3000 points.",
    "seed001": "Seed 001: belote must be said, takers must exceed, carré of 7 cancels.",
    "seed002": "Seed 002's online room: no declarations, dealer leads, 501 points.",
    "seed003": "Seed 003: automatic declarations, no under-trumping, litige, 501 points.",
    "coinche": "Coinche (contrée): auction 80-160 and capot, coinche x2, surcoinche x4.",
    "three-players": "Three players, 24 cards, each for himself.",
    "two-players": "Two players, 8 cards each, 16 set aside unseen, classic rules.",
    "ffb-coinche": (
        "Coinche by the FFB's 2015 rules: declarations, the whole deal coinched, "
        "scores rounded to tens."
    ),
}
"""One line per preset, for menus and ``rebelote rules``."""


PRESET_NAMES: dict[str, str] = {
    "seed000": "declaration-turn",
    "seed000-tout-atout": "tout-atout",
    "seed001": "belote-said",
    "seed002": "dealer-leads-501",
    "seed003": "auto-declarations-501",
}
"""The names a player understands for the presets named after their source
text, from what each text makes distinctive:

- ``declaration-turn`` (seed 000, a belote program's help): declarations in
  a turn of their own before the first trick ("commence alors le tour des
  annonces"), the first declared winning a tie, optional cut;
- ``tout-atout`` (seed 000's Tout Atout / Sans Atout game): TA and SA bids
  that overbid a suit, to 3000 points;
- ``belote-said`` (seed 001, a guide to belote classique): belote counts only
  if said ("sans annonce la belote n'est pas comptabilisée"), the takers must
  exceed, a carré of 7s cancels the deal;
- ``dealer-leads-501`` (seed 002, an online room): "le donneur entamera le
  premier pli", no declarations, to 501 points;
- ``auto-declarations-501`` (seed 003, an online game's rules): declarations
  made for each player with his first card, no partner exemption, no
  under-trumping, to 501 points.

Both names work wherever a preset is named (:func:`preset`, records,
``rebelote ... --rules``); records keep writing the ``seedNNN`` name, which
every version reads."""

_ALIASES: dict[str, str] = {alias: name for name, alias in PRESET_NAMES.items()}


def canonical_preset(name: str) -> str:
    """The preset's key in :data:`PRESETS` for either of its names, in any
    case (``FFB-COINCHE``: ``ffb-coinche``); an unknown name is returned
    unchanged."""
    low = name.lower()
    if low in PRESETS:
        return low
    return _ALIASES.get(low, name)


def preset_name(name: str) -> str:
    """The player's name of a preset (:data:`PRESET_NAMES`), or ``name``
    itself where it is already clear (``ffb``, ``coinche``, ...)."""
    return PRESET_NAMES.get(name, name)


def preset(name: str) -> Rules:
    """The rule set of a named preset (its key in :data:`PRESETS` or its
    player's name, :data:`PRESET_NAMES`).  Raises :class:`RulesError` if
    unknown."""
    try:
        return PRESETS[canonical_preset(name)]
    except KeyError:
        known = ", ".join(
            n if n not in PRESET_NAMES else f"{PRESET_NAMES[n]} ({n})" for n in PRESETS
        )
        raise RulesError(f"unknown preset {name!r}: known presets are {known}") from None
