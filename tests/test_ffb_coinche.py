"""The preset ``ffb-coinche``: the Fédération Française de Belote's coinche
rules of 2015 (docs/rules/FFB.md, a citation note of the public
transcription ``assets/rules/coinche_belote_rules.md`` of the repository
``vareversat/carg``).

Each test names the section of the text it checks and states exact values:
scores of fixed deals (the deals of ``test_options.py``, dealer N, W
speaking and leading first), the rounding and conversion rules on the
text's own examples, the end of a match, ``rebelote rules ffb-coinche
--json``, records played under the preset replaying to the same scores,
and every bot level playing under it.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from rebelote.bots import BOT_LEVELS, Budget, decision_seed, make_bot
from rebelote.cards import parse_cards
from rebelote.match import Match
from rebelote.observation import observe
from rebelote.record import deal_summary, replay, state_to_record
from rebelote.rules import PRESETS, preset
from rebelote.scoring import DealResult, ResultKind, rounded_scores, scale_to_162
from rebelote.seats import SEATS_4, Seat
from rebelote.simulate import random_deal, random_match
from rebelote.state import State
from test_cli import rebelote
from test_options import (
    CAPOT,
    CAPOT_DECL,
    CAPOT_DECL_SCRIPT,
    CAPOT_SCRIPT,
    COINCHE_SCRIPT,
    TWO,
    deal,
    finished,
    play,
)

FFB_COINCHE = preset("ffb-coinche")


def outcome(hands: dict[Seat, str], bids: str, script: str) -> tuple[str, tuple[int, ...]]:
    """A fixed deal under ffb-coinche: its result kind and score."""
    state = deal(FFB_COINCHE, hands, None, bids)
    play(state, script)
    result = finished(state)
    return result.result, result.score


# ------------------------------------------------------------- the preset


def test_rules_command_lists_ffb_coinche_as_json() -> None:
    """``rebelote rules ffb-coinche --json`` prints the preset's options."""
    done, _ = rebelote("rules", "ffb-coinche", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"ffb-coinche": FFB_COINCHE.options()}
    assert "ffb-coinche" in PRESETS and FFB_COINCHE.preset == "ffb-coinche"


# ------------------------------------------------ scores (10.1, 10.2, 9.2)


def test_made_not_coinched_scores_total_plus_contract_rounded() -> None:
    """10.1.1: "Les preneurs marquent : Leur total + Le montant du contrat
    demandé"; "Les défenseurs marquent : Leur total"; 10.2 rounds to the
    nearest ten.  TWO, 80H by W made with 114 (NS 48): EW 80 + 114 = 194
    -> 190, NS 48 -> 50."""
    assert outcome(TWO, "80H pass pass pass", COINCHE_SCRIPT) == ("made", (50, 190))


def test_made_and_coinched_doubles_the_whole_deal() -> None:
    """10.1.1: "(160 points + Leurs annonces + Leur belote + Les annonces des
    défenseurs ... + Le montant du contrat demandé) x 2 (resp. 4)"; "Les
    défenseurs ne marquent rien".  80H by W, coinched by S (E, N and W then
    pass, 4.1): EW (160 + 80) x 2 = 480, NS 0; surcoinched by E: x 4 = 960."""
    assert outcome(TWO, "80H coinche pass pass pass", COINCHE_SCRIPT) == ("made", (0, 480))
    assert outcome(TWO, "80H coinche surcoinche", COINCHE_SCRIPT) == ("made", (0, 960))


def test_failed_and_coinched_doubles_the_defence() -> None:
    """10.1.2: "Les défenseurs marquent 160 points de chute + ... + Le montant
    du contrat demandé"; "Si le contrat a été coinché (resp. surcoinché),
    les défenseurs doublent (resp. quadruplent) leurs points"; "Les
    preneurs ne marquent rien".  S bids 80H and takes 48: EW coinche, NS
    fail: EW (160 + 80) x 2 = 480, NS 0 (the club rules: 160 + 80 x 2 =
    320)."""
    bids = "pass 80H coinche pass pass pass"
    assert outcome(TWO, bids, COINCHE_SCRIPT) == ("dedans", (0, 480))
    club = deal(preset("coinche"), TWO, None, "pass 80H coinche pass pass")
    play(club, COINCHE_SCRIPT)
    assert finished(club).score == (0, 320)


def test_capot_bid_made_252_plus_250_and_the_declarations() -> None:
    """9.2: a capot counts 252; 10.1.1: "250 points pour un capot demandé".
    CAPOT: W bids capotH, declares his tierce (20) and takes every trick; N
    says belote: EW 252 + 20 + 250 = 522 -> 520, NS their belote 20 (7:
    "imprenable")."""
    assert outcome(CAPOT, "capotH pass pass pass", CAPOT_SCRIPT) == ("capot", (20, 520))


def test_capot_takes_the_defenders_declarations_coinched_or_not() -> None:
    """10.1.1 "Cas particulier": after the takers' capot "les annonces des
    défenseurs changent de main"; coinched: "(250 points si capot réalisé +
    Leurs annonces + Leur belote + Les annonces des défenseurs ... + Le
    montant du contrat demandé) x 2", the defenders keep their belote.
    CAPOT_DECL: NS hold the best declarations (quarte 50 + tierce 20) and
    N the belote.  Not coinched: EW 252 + 70 + 250 = 572 -> 570, NS 20;
    coinched by S: EW (250 + 70 + 250) x 2 = 1140, NS 20."""
    plain = outcome(CAPOT_DECL, "capotH pass pass pass", CAPOT_DECL_SCRIPT)
    assert plain == ("capot", (20, 570))
    coinched = outcome(CAPOT_DECL, "capotH coinche pass pass pass", CAPOT_DECL_SCRIPT)
    assert coinched == ("capot", (20, 1140))


def test_belote_not_said_does_not_count() -> None:
    """7: "En cas d'omission d'un de ces deux termes, la belote n'est pas
    prise en compte".  CAPOT, N plays KH and QH without saying belote: NS
    score nothing, EW 520."""
    state = deal(FFB_COINCHE, CAPOT, None, "capotH pass pass pass")
    play(state, CAPOT_SCRIPT, silent="KH QH")
    assert finished(state).score == (0, 520)


# --------------------------------------------------- rounding (10.2), 11.3


def test_rounding_to_the_nearest_ten_and_the_house_rule() -> None:
    """FFB coinche 2015, 10.2: "85 est arrondi à 90 tandis que 84 est arrondi
    à 80".  The house rule: "64 devient 60, l'adversaire a 100 ; 105 devient
    100, l'adversaire a 60 ; 106 devient 110, l'adversaire a 50" (the
    takers are side 0 here)."""
    assert rounded_scores("nearest_ten", (84, 85), 0, 0) == ((80, 90), 0)
    assert rounded_scores("nearest_ten", (106, 56), 0, 0) == ((110, 60), 0)
    assert rounded_scores("house", (64, 98), 0, 0) == ((60, 100), 0)
    assert rounded_scores("house", (105, 57), 0, 0) == ((100, 60), 0)
    assert rounded_scores("house", (106, 56), 0, 0) == ((110, 50), 0)
    assert rounded_scores("house", (56, 106), 0, 1) == ((50, 110), 0)
    # Litige (81 - 81): the takers' 81 held over, rounded with their score.
    assert rounded_scores("nearest_ten", (0, 81), 81, 0) == ((0, 80), 80)
    assert rounded_scores("house", (0, 81), 81, 0) == ((0, 80), 80)
    assert rounded_scores("none", (84, 85), 3, 0) == ((84, 85), 3)
    with pytest.raises(ValueError, match="unknown rounding"):
        rounded_scores("up", (1, 2), 0, 0)


def test_tout_atout_points_converted_to_162() -> None:
    """FFB classique 2016, 11.3: "mon équipe réalise 198 points plus une
    belote. Après conversion, le score réalisé est de 124 points (198 x 162
    / 258) plus le bonus de 20 points apporté par la belote, soit 144"; a
    half never occurs with 258, so the two sides always make 162."""
    assert scale_to_162(198, 258) == 124
    assert scale_to_162(198, 258) + 20 == 144
    assert scale_to_162(60, 258) == 38
    assert all(scale_to_162(p, 258) + scale_to_162(258 - p, 258) == 162 for p in range(259))
    assert [scale_to_162(p, 162) for p in (0, 81, 162)] == [0, 81, 162]
    with pytest.raises(ValueError, match="must be positive"):
        scale_to_162(1, 0)


# ------------------------------------------------------ end of match, 10.3


def _result(
    kind: ResultKind, score: tuple[int, int], belote: tuple[int, int], capot: int | None
) -> DealResult:
    """A played deal's result as the match reads it (80H by W)."""
    base = finished(_played())
    return dataclasses.replace(
        base, result=kind, score=score, belote_points=belote, capot=capot, held_over=0
    )


def _played() -> State:
    state = deal(FFB_COINCHE, TWO, None, "80H pass pass pass")
    play(state, COINCHE_SCRIPT)
    return state


def test_failed_takers_past_the_target_through_belote_play_on() -> None:
    """10.3: "Si une équipe est capot ou chute, et atteint les points fixés
    uniquement grâce aux points d'une belote, la partie n'est pas encore
    gagnée et doit se poursuivre. L'équipe aura besoin d'un pli
    supplémentaire".  W's side (EW, the takers of TWO) at 1990 fails and
    keeps its belote: 2010, not won; the next deal, in which EW take a
    trick, wins it.  A side past the target with more than its belote
    wins at once."""
    match = Match(FFB_COINCHE, Seat.N)
    match.totals = [0, 1990]
    failed = _result("dedans", (180, 20), (0, 20), None)
    match.add(failed)
    assert (match.winner, match.totals, match.needs_trick) == (None, [180, 2010], {1})
    match.add(_result("made", (50, 130), (0, 0), None))
    assert (match.winner, match.totals, match.needs_trick) == (1, [230, 2140], set())
    made = Match(FFB_COINCHE, Seat.N)
    made.totals = [0, 1990]
    made.add(_result("made", (0, 40), (0, 20), None))
    assert made.winner == 1


# ---------------------------------------------------------------- records


def test_a_deal_record_replays_with_the_federations_score() -> None:
    """A record of TWO under ffb-coinche (format 1, from its hands) replays
    to the scores of 10.1.1: 80H by W coinched, made: EW 480, NS 0."""
    record = {
        "format": 1,
        "rules": "ffb-coinche",
        "dealer": "N",
        "hands": {seat.letter: TWO[seat].split() for seat in SEATS_4},
        "bids": ["80H", "coinche", "pass", "pass", "pass"],
        "play": COINCHE_SCRIPT.split(),
    }
    summary = replay(record)
    assert (summary["result"], summary["score"]) == ("made", {"NS": 0, "EW": 480})
    assert summary["card_points"] == {"NS": 48, "EW": 104}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_deals_and_a_match_round_trip(seed: int) -> None:
    """Random deals under ffb-coinche (3-3-2 and the other distributions,
    coinches, declarations, belote to say) write records that replay to the
    same summary; a whole random match replays to the same totals and
    winner."""
    rng = random.Random(seed)
    for _ in range(20):
        state = random_deal(FFB_COINCHE, rng)
        record = json.loads(json.dumps(state_to_record(state)))
        assert replay(record) == deal_summary(state)
    match, states = random_match(FFB_COINCHE, random.Random(seed), max_deals=300)
    deals = []
    for state in states:
        record = state_to_record(state)
        del record["format"], record["rules"]
        deals.append(record)
    summary = replay({"format": 2, "rules": "ffb-coinche", "deals": deals})
    assert summary["totals"] == {"NS": match.totals[0], "EW": match.totals[1]}
    assert summary["winner"] == (None if match.winner is None else ("NS", "EW")[match.winner])
    assert all(t % 10 == 0 for t in match.totals)  # 10.2: every score rounded


# ------------------------------------------------------------------- bots


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_bot_level_plays_ffb_coinche(level: str) -> None:
    """Each level, at all four seats, plays seeded deals under ffb-coinche
    with legal actions only (the expert with a small budget)."""
    budget = Budget(worlds=2, nodes=20_000)
    deals = 2 if level.startswith("expert") else 6
    for seed in range(deals):
        rng = random.Random(seed)
        pack = list(range(32))
        rng.shuffle(pack)
        dealer = SEATS_4[seed % 4]
        pattern = FFB_COINCHE.patterns[seed % 3]
        state = State.from_deck(FFB_COINCHE, dealer, pack, pattern)
        bots = {s: make_bot(level) for s in SEATS_4}
        index = 0
        while not state.is_terminal:
            seat = state.current
            assert seat is not None
            legal = state.legal_actions()
            action = bots[seat].act(
                observe(state, seat), legal, seed=decision_seed(seed, seat, index), budget=budget
            )
            assert action in legal, (level, seat, action)
            state.apply(action, seat)
            index += 1
        assert state.result is not None
        assert all(p % 10 == 0 for p in state.result.score)


def test_litige_holds_over_the_takers_points_not_the_contract() -> None:
    """10.1.3 (with the tournament's choice ``tie='litige'``): at 81-81 "les
    points du preneur sont remis en jeu (81 ou 91)" and "L'équipe qui
    n'avait pas pris marque ses points (81 ou 91)": the reviewer's deal
    (random deal 554, 80 clubs by E surcoinched, card points 71 / 81, the
    dix de der to N-S) holds over 81, rounded to 80 (10.2), not the
    contract x 4; the defenders N-S score their 81, rounded to 80."""
    rules = FFB_COINCHE.replace(tie="litige")
    state = random_deal(rules, random.Random(554))
    result = state.result
    assert result is not None and state.contract is not None
    assert state.contract.text == "80C by E surcoinche"
    assert (result.result, result.card_points, result.dix_de_der) == ("litige", (71, 81), 0)
    assert (result.score, result.held_over) == ((80, 0), 80)


def _found(strain_bid: str) -> dict[str, list[str]]:
    """The declarations each seat holds under ffb-coinche with its Sans
    Atout / Tout Atout variant, after ``strain_bid`` by W and three passes
    (the reviewer's hands: W the four aces, S the tens and nines, E the
    kings and queens, N the jacks)."""
    rules = FFB_COINCHE.replace(coinche_tout_atout=True)
    hands = {
        Seat.W: parse_cards("AS AH AD AC 7S 8S 7H 8H"),
        Seat.S: parse_cards("10S 10H 10D 10C 9S 9H 9D 9C"),
        Seat.E: parse_cards("KS KH KD KC QS QH QD QC"),
        Seat.N: parse_cards("JS JH JD JC 7D 8D 7C 8C"),
    }
    state = State.from_hands(rules, Seat.N, hands, None)
    for word in (strain_bid, "pass", "pass", "pass"):
        state.apply(state.parse_action(word))
    return {s.letter: [f"{d.text}:{d.points}" for d in ds] for s, ds in sorted(state.found.items())}


def test_sans_atout_carres_follow_11_2() -> None:
    """11.2: at Sans Atout "4 As 200, 4 Dix 150, 4 Roi / Dame / Valet /
    Neuf 100" (``sa_carres`` ``ffb``)."""
    assert _found("80SA") == {
        "N": ["carre-J:100"],
        "W": ["carre-A:200"],
        "S": ["carre-10:150", "carre-9:100"],
        "E": ["carre-K:100", "carre-Q:100"],
    }


def test_tout_atout_carres_are_unchanged_11_3() -> None:
    """11.3: at Tout Atout "L'ordre et la valeur des carrés demeurent
    inchangés": J 200, 9 150, A 10 K Q 100."""
    assert _found("80TA") == {
        "N": ["carre-J:200"],
        "W": ["carre-A:100"],
        "S": ["carre-9:150", "carre-10:100"],
        "E": ["carre-K:100", "carre-Q:100"],
    }


def test_sans_atout_carres_in_the_compiled_rollouts() -> None:
    """The compiled rollouts read the same 11.2 table (``P_SA_CARRES``)."""
    from rebelote import rollout

    rules = FFB_COINCHE.replace(coinche_tout_atout=True)
    params = rollout.rule_params(rules)
    assert params[rollout.P_SA_CARRES] == 1
    assert rollout.rule_params(preset("coinche"))[rollout.P_SA_CARRES] == 0
