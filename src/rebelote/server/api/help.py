"""Help pages for the rule presets, written from the options themselves.

:func:`rules_help` says, option by option, what a :class:`~rebelote.rules.Rules`
means at the table, in plain English, so that the client's help page for a
preset is always the rules the engine plays (never a hand-written copy that
could drift).  Options that do not apply (Tout Atout card points in a game
without Tout Atout, coinche scoring in a classic game) are left out.
"""

from __future__ import annotations

import re
from typing import Any

from rebelote.rules import PRESET_DESCRIPTIONS, PRESETS, Rules, preset_name
from rebelote.server.protocol.messages import PresetInfo, RuleHelp

__all__ = ["describe", "preset_infos", "rules_help"]

_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")


def _points(table: tuple[int, ...]) -> str:
    order = sorted(range(8), key=lambda i: -table[i])
    return ", ".join(f"{_RANKS[i]} {table[i]}" for i in order)


def _line(r: Rules, option: str) -> str | None:
    """One sentence for ``option`` under ``r``; ``None`` when it does not apply."""
    v: Any = getattr(r, option)
    coinche = r.bidding == "coinche"
    ta = r.bidding == "tout_atout" or (coinche and r.coinche_tout_atout)
    match option:
        case "players":
            if v == 3:
                return "Three players, each for himself, with 24 cards (no 7s or 8s)."
            return "Four players in two teams; partners sit face to face (North-South, East-West)."
        case "target":
            return f"The match is won by the first side to reach {_n_points(v)}."
        case "cut_optional":
            if v:
                return "The player on the dealer's left may cut the pack or decline."
            return "The player on the dealer's left must cut the pack."
        case "cut_min_packet":
            return f"Each packet of the cut holds at least {v} cards." if v else None
        case "patterns":
            if coinche:
                ways = [{"3-2": "3-2-3", "2-3": "2-3-3"}.get(p, p) for p in v]
                if len(ways) == 1:
                    return f"All cards are dealt {ways[0]}; no card is turned."
                listed = ", ".join(ways[:-1]) + " or " + ways[-1]
                return f"All cards are dealt, {listed} as the dealer chooses; no card is turned."
            if len(v) == 2:
                return "The dealer deals 3 then 2 cards, or 2 then 3, as he chooses."
            return f"The dealer deals {v[0].replace('-', ' then ')} cards to each player."
        case "bidding":
            if v == "classic":
                return (
                    "Bidding: in round one each player takes the turned card's suit as trump "
                    "or passes; if all pass, in round two each may name a suit."
                )
            if v == "tout_atout":
                return (
                    "Bidding: a suit, Sans Atout (no trump) or Tout Atout (all trumps); a bid "
                    "may be raised (suit < Sans Atout < Tout Atout) until each has passed."
                )
            return (
                "Bidding: an auction of contracts 80 to 160 by tens, then capot, each with a "
                "suit; an opponent may coinche (double) and the takers surcoinche (redouble)."
            )
        case "round_two_turned_suit":
            if coinche:
                return None
            if v:
                return "In round two a player may name any suit, the turned one included."
            return "In round two a player may name any suit but the turned one."
        case "all_pass":
            return {
                "redeal": "If everyone passes, the same dealer deals again.",
                "next_dealer": "If everyone passes, the next player deals.",
                "dealer_left": "If everyone passes, the player on the dealer's left deals.",
            }[v]
        case "dealer_rotation":
            if v == "right":
                return "The deal passes to the right (counter-clockwise)."
            return "The deal passes to the left."
        case "first_lead":
            if v == "dealer":
                return "The dealer leads the first trick."
            return "The player on the dealer's right leads the first trick."
        case "partner_winning_exemption":
            if v:
                return "A player who cannot follow suit need not trump if his partner is winning."
            return "A player who cannot follow suit must trump, even if his partner is winning."
        case "must_undertrump":
            if v:
                return "A player who must trump but cannot overtrump must still play a lower trump."
            return "A player who cannot overtrump may play any card."
        case "overtrump_partner_on_trump_lead":
            if v:
                return "When trumps are led, a player must play a higher trump if he can."
            return "When trumps are led and his partner is winning, a player need not go higher."
        case "declarations":
            return {
                "off": "No declarations (annonces).",
                "choice": (
                    "Declarations: tierce 20, quarte 50, quinte 100, carré of jacks 200, "
                    "of nines 150, of aces, tens, kings or queens 100; each player chooses "
                    "what to declare; only the side with the best declaration scores."
                ),
                "automatic": (
                    "Declarations are made automatically with each player's first card; only "
                    "the side with the best declaration scores."
                ),
            }[v]
        case "declaration_turn":
            if r.declarations == "off":
                return None
            if v:
                return "Declarations are made in a turn of their own before the first trick."
            return "Declarations are made when a player plays his first card."
        case "declaration_tie":
            if r.declarations == "off":
                return None
            if v == "first":
                return "Equal best declarations: the first declared scores."
            return "Equal best declarations on both sides: neither side scores them."
        case "belote_must_be_said":
            if v:
                return (
                    "Belote (king and queen of trump, 20 points) counts only if said aloud when "
                    "the cards are played."
                )
            return "Belote (king and queen of trump in one hand) is worth 20 points."
        case "belote_requires_trick":
            return "Belote counts only if its side won at least one trick." if v else None
        case "belote_on_dedans":
            if v == "holders":
                return "When the takers fail, belote stays with the side that held it."
            return "When the takers fail, belote goes to the defenders."
        case "tie":
            if v == "litige":
                return (
                    "A tie (litige): the defenders score their points; the takers' points go "
                    "to the winner of the next deal."
                )
            return "The takers must score more than the defenders, else they fail (dedans)."
        case "capot_points":
            if coinche:
                return None  # coinche_capot_points
            return f"A side that takes all 8 tricks (capot) scores {v} for the cards."
        case "coinche_capot_points":
            if not coinche:
                return None
            return f"A side that takes all 8 tricks (capot) scores {v} for the cards."
        case "capot_against_takers":
            if v == r.capot_points:
                return None
            return f"A capot against the takers counts {v}."
        case "solo_capot_points":
            return None if v is None else f"A capot by one player alone scores {v}."
        case "carre_of_seven_cancels":
            return "A player holding the four 7s cancels the deal." if v else None
        case "sa_multiplier":
            return f"Sans Atout deals count {v} times." if ta and v != 1 else None
        case "ta_multiplier":
            return f"Tout Atout deals count {v} times." if ta and v != 1 else None
        case "ta_points":
            return f"Tout Atout card points: {_points(v)}." if ta else None
        case "sa_points":
            return f"Sans Atout card points: {_points(v)}." if ta else None
        case "coinche_tout_atout":
            if not coinche:
                return None
            return "Tout Atout and Sans Atout contracts are allowed." if v else None
        case "coinche_made_score":
            if not coinche:
                return None
            if v == "contract_and_points":
                if r.coinche_multiplies == "deal":
                    return (
                        "A contract made scores the contract plus the points made; failed, the "
                        "defenders score 160 plus the contract."
                    )
                return (
                    "A contract made scores the contract plus the points made; failed, the "
                    "defenders score 160 plus the contract. Coinche doubles, surcoinche "
                    "quadruples the contract."
                )
            return "A contract made scores the contract alone; failed, 160 plus the contract."
        case "capot_takes_declarations":
            if not v or r.declarations == "off":
                return None
            return "After a capot by the takers, the defenders' declarations count for the takers."
        case "ta_sa_points_to_162":
            if not (ta and v):
                return None
            return (
                "Tout Atout and Sans Atout card points are converted to a deal of 162 "
                "(points x 162 / the deal's total, to the nearest point)."
            )
        case "rounding":
            if v == "nearest_ten":
                return "Each side's score in a deal is rounded to the nearest ten (85 to 90)."
            if v == "house":
                return (
                    "The takers' score is rounded to the nearest ten, 5 down; the other side "
                    "gets the rest of the deal, rounded."
                )
            return None
        case "belote_alone_cannot_win":
            if not v:
                return None
            return (
                "A side that reaches the target only through its belote, in a deal where it "
                "took no trick or failed, must take a trick in a later deal to win."
            )
        case "coinche_multiplies":
            if not coinche or v == "contract":
                return None
            return (
                "A coinche doubles, a surcoinche quadruples the whole deal: made, the takers "
                "score 160 (250 after a capot) plus every declaration, their belote and the "
                "contract, multiplied, and the defenders only their belote; failed, the "
                "defenders score the same, multiplied, and the takers only their belote."
            )
        case "after_coinche":
            if not coinche or v == "coinched_side":
                return None
            return (
                "After a coinche, the three next players speak in turn: the coinched side "
                "may surcoinche, and three passes end the auction."
            )
        case "lower_trump_under_partner":
            if v == "allowed" or not r.partner_winning_exemption:
                return None
            return (
                "Under his partner's winning trump, a player may play a lower trump only if "
                "he holds nothing but trumps."
            )
    return None


def describe(rules: Rules) -> str:
    """The one-line description of a table's rules: its preset's line, the
    points it names being the table's own target (a table of the ``ffb``
    preset set to 200 says "200 points", not the preset's 1000)."""
    text = PRESET_DESCRIPTIONS.get(rules.preset, rules.preset)
    base = PRESETS.get(rules.preset)
    if base is None or base.target == rules.target:
        return text
    return re.sub(rf"\b{base.target} points\b", _n_points(rules.target), text)


def _n_points(n: int) -> str:
    """``"1 point"``, ``"200 points"``."""
    return f"{n} point" if n == 1 else f"{n} points"


def rules_help(rules: Rules) -> list[RuleHelp]:
    """What each option of ``rules`` means, in option order; options that do
    not apply under these rules are left out."""
    out: list[RuleHelp] = []
    for option, value in rules.options().items():
        text = _line(rules, option)
        if text is not None:
            out.append(RuleHelp(option=option, value=value, text=text))
    return out


def preset_infos() -> list[PresetInfo]:
    """Every preset with its one-line description, options and help."""
    return [
        PresetInfo(
            name=name,
            title=preset_name(name),
            description=PRESET_DESCRIPTIONS.get(name, name),
            players=rules.players,
            target=rules.target,
            options=rules.options(),
            help=rules_help(rules),
        )
        for name, rules in PRESETS.items()
    ]
