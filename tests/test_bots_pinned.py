"""Every bot level's actions in seeded deals, pinned before the bots
package was reorganised (issue 15: the level registry in its own module,
the evaluation out of ``heuristic.py``) and the core's hot path made faster:
a change of behaviour shows here as the first action that differs.  Two
deals with declarations (beginner three-players 14, expert seed003 15) were
pinned again when the bots stopped seeing a declaration's cards before the
rules show them (FFB coinche 2015, 8.2-8.3; issue 17).

Each deal: the pack, dealer and first distribution drawn from the seed as in
``tests/test_bots.py::play_seeded``, the same level at every seat, each
decision seeded by :func:`~rebelote.bots.decision_seed`, the expert with a
tiny deterministic budget (two worlds, 20,000 nodes)."""

from __future__ import annotations

import random

import pytest

from rebelote.bots import Budget, decision_seed, make_bot
from rebelote.cards import DECK_24, DECK_32, cards_of
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.seats import SEATS_3, SEATS_4
from rebelote.state import State

TINY = Budget(worlds=2, nodes=20_000)

PINNED: list[tuple[str, str, int, str, tuple[int, ...]]] = [
    (
        "random",
        "ffb",
        21,
        "take 9D QD JD declare tierce-10S KD 8S QS KS 7S KH 8H 9H 7C QC 8C JC "
        "10C 7H QH 9C AH 7D 10H 8D 10S KC AS AC JS AD JH 10D 9S",
        (146, 36),
    ),
    (
        "random",
        "coinche",
        23,
        "120H 140H capotD pass pass pass JS 8S 7S KS JD 7D KD 8C KH 10H JH AC "
        "7C KC 10C 9C 10S AD QD 8D 7H 9H 8H AS 10D AH 9S 9D JC QC QH QS",
        (410, 0),
    ),
    (
        "random",
        "seed001",
        22,
        "take JH declare none QH 9H 7H 10S QS JS 9S 8S KS AD 10D AH QD KH AS 7S "
        "JD 7D 7C AC QC JC 9C KC 10H KD 10C 8D 8C 8H 9D",
        (162, 0),
    ),
    (
        "random",
        "seed002",
        24,
        "take 9C 8C QC JC JH KH 8H 7H 8S AS JS 10S AH QH 9H 10H 9S KC QS 7S KD "
        "QD 8D JD AD 10D AC 9D 7D 10C KS 7C",
        (5, 177),
    ),
    (
        "random",
        "seed000",
        25,
        "pass take declare none declare none AD KD 9D QD JD 8D 7D QH JS 8S KS "
        "AS 7S 9S QS 10H JH JC QC KH 9H 8C KC AH 8H 9C AC 10D 7H 10S 7C 10C",
        (127, 35),
    ),
    (
        "random",
        "ffb",
        11,
        "pass take declare none 10D 7D KD 8D JD 9C AD QD QH KH 10H 7H JC QC AC "
        "8C 9H KS 8H 7C KC 10C 8S 9S 7S QS JS 10S AS AH 9D JH",
        (95, 67),
    ),
    (
        "random",
        "seed001",
        12,
        "take AH JH 10H 7H 10D 9D 7D QD KS 7S 8S AS 10S 9S JS QC AD JC 9C JD QH "
        "8H KD 9H KH AC 8C 8D QS 7C 10C KC",
        (69, 93),
    ),
    (
        "random",
        "coinche",
        13,
        "150S 160H coinche surcoinche JS AS 9S 9C 7S QS AH 8S 8H QH 7H 10H 9D "
        "QD 10D AD JD JH 7D 8D 8C 9H 10C JC KD AC 10S KS KH 7C KC QC",
        (0, 800),
    ),
    (
        "random",
        "three-players",
        14,
        "take JS KS declare none QS AC AD 10C JD 9D QD 10S 9S AH AS KD QC 9C "
        "10H KC JC QH JH KH 9H 10D",
        (112, 0, 50),
    ),
    (
        "random",
        "seed003",
        15,
        "pass take 8D 8H JD 7D 10H JH QH AH KD 7H 9D KS 9H 10D 7C KH 8C AC 9C "
        "9S 10C KC 8S JC JS AS QS 7S QC AD 10S QD",
        (91, 0),
    ),
    (
        "random",
        "seed000-tout-atout",
        16,
        "take SA TA pass pass pass 9S KS 10S JS AH 10H 9H JH 8C KC 10C QC 7H KH "
        "8H 7C 8S QH 7D QS AC 10D JC AD 9C 9D QD AS 8D JD KD 7S",
        (183, 363),
    ),
    (
        "beginner",
        "ffb",
        21,
        "take AD QD 8D declare tierce-10S KD 7D 8C JD 8S AH 7H 9H 7C 9D JS 10D "
        "10C AS QS KS 7S QH QC JH 8H AC KH JC 9S KC 10S 9C 10H",
        (120, 62),
    ),
    (
        "beginner",
        "coinche",
        23,
        "pass 100H 130S pass 140S pass pass pass JS 8S 7S KS 7D 8D QS 9D AC 9C "
        "7C KC 8C JC QC 8H 9H AH 9S 7H 10C JD QD JH 10S KH 10H QH AS AD 10D KD",
        (0, 390),
    ),
    (
        "beginner",
        "seed001",
        22,
        "pass pass pass take AH QH 9H 7H AD 7D 8D 8S JS KS QS 7S AC QC JC 7C 8C "
        "8H 9D 10C 9C KC JD QD AS JH 10S KH 9S 10H KD 10D",
        (138, 24),
    ),
    (
        "beginner",
        "seed002",
        24,
        "pass pass take 7C 8C JC AC JS 7S 9S 10S 8D 9D AD 10D AH JH 9H 8H 7H QH "
        "KH 10H 9C 7D QC 8S QS AS QD KC JD KD 10C KS",
        (38, 144),
    ),
    (
        "beginner",
        "seed000",
        25,
        "pass take declare quinte-JH declare tierce-AC AD 8D 7D QD 8S KS AS 9S "
        "8C AC 10C KD 7C KH 9H 9C JH 9D QH AH 7H JC JS QS 8H 7S QC JD 10H 10S "
        "KC 10D",
        (253, 29),
    ),
    (
        "beginner",
        "ffb",
        11,
        "pass pass take declare tierce-JD 7H declare tierce-KH 8H 7C 9H AS 7S "
        "8S 9S AD 8D 9D 7D KD QD JD 9C JS 10S JC QS AH QC JH 8C KS QH KC 10C "
        "10H 10D KH AC",
        (182, 0),
    ),
    (
        "beginner",
        "seed001",
        12,
        "pass pass pass take AH JH 9H 7H 8H 10H 10C QH AD JC 10D 9D AS 7S JS 8S "
        "KH 9C 7C 7D 9S 8C QC 10S 8D KC QS JD AC KS KD QD",
        (95, 67),
    ),
    (
        "beginner",
        "coinche",
        13,
        "80S 90D 100S 120D pass pass pass AC JC 8C 9C 8S AS 9S 8H JD 9D 7D 8D "
        "7H JH AH QH 9H 10D AD 10H KC QC KH 10C 7C 7S QS QD KD JS 10S KS",
        (268, 34),
    ),
    (
        "beginner",
        "three-players",
        14,
        "take JS KS declare quarte-KC QS AC 9D JC 9C JH 10C QD JD AD AH KH 9H "
        "10H 10S QH QC AS KD 9S 10D KC",
        (96, 31, 85),
    ),
    (
        "beginner",
        "seed003",
        15,
        "pass pass take AC 7C KH 8C JH 7H AH 8H AD 7D 8D 9C 8S 10S JS QS 7S 9D "
        "AS 9S QC 10H JC 10C JD QH QD KS 9H 10D KC KD",
        (0, 182),
    ),
    (
        "beginner",
        "seed000-tout-atout",
        16,
        "pass pass take TA pass pass pass QS KS 10S JS JD QD 10D 8D 7D KD 7S 8H "
        "10H 9H JH AH JC 7C 10C QC 8C 9C AC 8S AD 7H KH QH 9D 9S AS KC",
        (315, 231),
    ),
    (
        "intermediate",
        "ffb",
        21,
        "take 7C 8C JC declare tierce-10S 10C 7S AS QS KS 10S AC JS 10D 9C JH "
        "KC 8S AD QD JD KD 9D KH 8D 9H 7D 10H 7H QH QC AH 8H 9S",
        (144, 38),
    ),
    (
        "intermediate",
        "coinche",
        23,
        "pass 90H 120S pass pass pass JS 8S 7S KS 7D 8D QS 9D AC 9C QC KC 10C "
        "JC 7C 8H 8C 7H 10H JH 10S JD 10D QH AS KH QD KD 9S AD 9H AH",
        (0, 370),
    ),
    (
        "intermediate",
        "seed001",
        22,
        "pass pass pass take AH QH KH 7H AD 7D 8D 8S JS KS QS 7S 9S 8H 10S 7C "
        "AC QC JC 9C 8C JH 9D 10C 9H AS 10H KD KC JD QD 10D",
        (132, 30),
    ),
    (
        "intermediate",
        "seed002",
        24,
        "pass pass pass take JS 9S 10S 8S AS 7H 10D QS 7C 8C JC AC 8D JD AD JH "
        "AH QH KH 8H KD QC 9D 7S 10H 7D 10C 9H 9C QD KC KS",
        (95, 87),
    ),
    (
        "intermediate",
        "seed000",
        25,
        "pass take declare quinte-JH declare tierce-AC AD 8D 7D QD 10D KD 9D QH "
        "AC 10C KS 8C KC KH 9H 9C JH 7S QC AH 7H JC JS 8S 8H 10S 7C QS 10H AS "
        "9S JD",
        (268, 14),
    ),
    (
        "intermediate",
        "ffb",
        11,
        "pass pass pass pass pass S declare tierce-JD 7H 8H KH AH 10H KS JH KD "
        "9D 7D AD 8D 7C 10C QC 9C JC 8S AC KC 10D 9S 10S QD JS AS 7S QS QH 8C "
        "9H JD",
        (114, 88),
    ),
    (
        "intermediate",
        "seed001",
        12,
        "pass pass pass take AH JH 9H 7H 8H 10H 10C QH AD JC 10D KD AS 7S JS 8S "
        "10S 9S JD QC 7D KC 9C 9D QS 7C 8D KH 8C QD AC KS",
        (93, 69),
    ),
    (
        "intermediate",
        "coinche",
        13,
        "pass 80D pass 90D pass pass pass AC JC QC 9C 10C KC 8C 7D AH QH 7H JH "
        "8H 8D JD 10H AS 9S KH 8S 10S QS 9H JS 7S KS QD 10D 7C AD 9D KD",
        (200, 72),
    ),
    (
        "intermediate",
        "three-players",
        14,
        "take JS KS declare quarte-KC QS 9S 9D 10S AC JH JC 9C KD 10C QD JD AD "
        "AH KH 9H 10H QC QH 10D KC AS",
        (101, 47, 64),
    ),
    (
        "intermediate",
        "seed003",
        15,
        "pass pass take AC 7C KH 8C JH 7H AH 8H AD 7D QD 9C 8S 10S JS KS 7S 8D "
        "AS 9S QS 10H 9H 9D JC 10C QC KD 10D KC JD QH",
        (0, 182),
    ),
    (
        "intermediate",
        "seed000-tout-atout",
        16,
        "pass pass take TA pass pass pass QS KS 10S JS JD QD 10D 8D 7C 10C QC "
        "JC JH AH 10H KH 8H 7D 7H 9H 7S 8C AD 9S KD 8S KC 9D 9C AC AS QH",
        (297, 249),
    ),
    (
        "expert",
        "ffb",
        21,
        "take 7C 8C JC declare tierce-10S 10C 7S AS QS KS 10S AC JS 10D 9C JH "
        "KC 8S AD QD JD KD 9D KH 8D 9H 7D 10H 7H QH QC AH 8H 9S",
        (144, 38),
    ),
    (
        "expert",
        "coinche",
        23,
        "pass 90H 120S pass pass pass JS 8S 7S KS 7D 8D QS 9D AC 9C QC KC 10C "
        "JC 7C 8H 8C 7H 10H JH 10S JD 10D QH AS KH QD KD 9S AD 9H AH",
        (0, 370),
    ),
    (
        "expert",
        "seed001",
        22,
        "pass pass pass take AH QH KH 7H AD 7D 10D 8S JS KS QS 7S 9S JD 10S 7C "
        "AC QC JC 9C 8C 10H 9D 10C 8D AS 8H KD KC JH QD 9H",
        (124, 38),
    ),
    (
        "expert",
        "seed002",
        24,
        "pass pass pass take JS 9S 10S 8S AS 7H 10D QS 7C 8C JC AC 8D JD AD JH "
        "AH QH KH 8H 7D QC 9D 7S 10H KD 10C 9H 9C QD KC KS",
        (95, 87),
    ),
    (
        "expert",
        "seed000",
        25,
        "pass take declare quinte-JH declare tierce-AC AD 8D 7D QD 10D KD 9D QH "
        "AC 10C KS 8C KC KH 9H 9C JH 7S QC AH 7H JC JS 8S 8H 10S 7C QS 10H AS "
        "9S JD",
        (268, 14),
    ),
    (
        "expert",
        "ffb",
        11,
        "pass pass pass pass pass S declare tierce-JD 7H 8H KH AH 10H KS JH KD "
        "QC AC 7C JC JS 10S 7S 8S 7D AD 8D 10D KC 10C QS 9C 9D 9S AS QD QH 8C "
        "9H JD",
        (104, 98),
    ),
    (
        "expert",
        "seed001",
        12,
        "pass pass pass take AH JH 9H 7H 8H 10H 10C QH AD JC 10D KD AS 7S JS 8S "
        "KC 9C 7C QC KS 8C 7D 10S 9D 8D KH 9S JD QD AC QS",
        (105, 57),
    ),
    (
        "expert",
        "coinche",
        13,
        "pass 80D pass 90D pass pass 100S 110D 120S pass pass pass JS 7S QS 7D "
        "AC JC QC 9C 10C KC 8C 8H 8S 10S 9S 9H 9D KD 8D AD JD KS QD 10D JH AH "
        "QH 7H KH 7C AS 10H",
        (280, 20),
    ),
    (
        "expert",
        "three-players",
        14,
        "take JS KS declare quarte-KC QS 9S 9D 10S AC JH JC 9C KD 10C QD JD AD "
        "AH KH 9H 10D QC AS QH 10H KC",
        (90, 58, 64),
    ),
    (
        "expert",
        "seed003",
        15,
        "pass pass take AC 7C KH 8C JH 7H AH 8H AD 7D QD 9C 8S 10S JS AS QC 10H "
        "JC 10C 9S 7S 8D KS QS JD QH 9D 9H 10D KC KD",
        (0, 182),
    ),
    (
        "expert",
        "seed000-tout-atout",
        16,
        "pass pass take TA pass pass pass QS KS 10S JS JD QD 10D 8D 7C AC QC JC "
        "JH AH 10H KH 8H 7D 7H 9H 7S KC AD 9S KD 8S 8C 9D 9C 10C AS QH",
        (285, 261),
    ),
    (
        "expert-bidder",
        "ffb",
        21,
        "take 7C 8C JC declare tierce-10S 10C 7S AS QS KS 10S AC JS 10D 9C JH "
        "KC 8S AD QD JD KD 9D KH 8D 9H 7D 10H 7H QH QC AH 8H 9S",
        (144, 38),
    ),
    (
        "expert-bidder",
        "coinche",
        23,
        "pass 90H 120S pass pass pass JS 8S 7S KS 7D 8D QS 9D AC 9C QC KC 10C "
        "JC 7C 8H 8C 7H 10H JH 10S JD 10D QH AS KH QD KD 9S AD 9H AH",
        (0, 370),
    ),
    (
        "expert-bidder",
        "seed001",
        22,
        "pass pass pass take AH QH KH 7H AD 7D 8D 8S JS KS QS 7S 9S 8H 10S 7C "
        "AC QC JC 9C 8C JH 9D 10C 9H AS 10H KD KC JD QD 10D",
        (132, 30),
    ),
    (
        "expert-bidder",
        "seed002",
        24,
        "pass pass pass take JS 9S 10S 8S AS 7H 10D QS 7C 8C JC AC 8D JD AD JH "
        "AH QH KH 8H KD QC 9D 7S 10H 7D 10C 9H 9C QD KC KS",
        (95, 87),
    ),
    (
        "expert-bidder",
        "seed000",
        25,
        "pass take declare quinte-JH declare tierce-AC AD 8D 7D QD 10D KD 9D QH "
        "AC 10C KS 8C KC KH 9H 9C JH 7S QC AH 7H JC JS 8S 8H 10S 7C QS 10H AS "
        "9S JD",
        (268, 14),
    ),
    (
        "expert-bidder",
        "ffb",
        11,
        "pass pass pass pass pass S declare tierce-JD 7H 8H KH AH 10H KS JH KD "
        "9D 7D AD 8D 7C 10C QC 9C JC 8S AC KC 10D 9S 10S QD JS AS 7S QS QH 8C "
        "9H JD",
        (114, 88),
    ),
    (
        "expert-bidder",
        "seed001",
        12,
        "pass pass pass take AH JH 9H 7H 8H 10H 10C QH AD JC 10D KD AS 7S JS 8S "
        "10S 9S JD QC 7D KC 9C 9D QS 7C 8D KH 8C QD AC KS",
        (93, 69),
    ),
    (
        "expert-bidder",
        "coinche",
        13,
        "pass 80D pass 90D pass pass 100S 110D 120S pass pass pass JS 7S QS 7D "
        "AC JC QC 9C 10C KC 8C 8H QH 7H JH KH AH 8S AS 10H AD 9D KD 8D JD KS QD "
        "10D 9S 9H 7C 10S",
        (56, 246),
    ),
    (
        "expert-bidder",
        "three-players",
        14,
        "take JS KS declare quarte-KC QS 9S 9D 10S AC JH JC 9C KD 10C QD JD AD "
        "AH KH 9H 10H QC QH 10D KC AS",
        (101, 47, 64),
    ),
    (
        "expert-bidder",
        "seed003",
        15,
        "pass pass take AC 7C KH 8C JH 7H AH 8H AD 7D QD 9C 8S 10S JS KS 7S 8D "
        "AS 9S QS 10H 9H 9D JC 10C QC KD 10D KC JD QH",
        (0, 182),
    ),
    (
        "expert-bidder",
        "seed000-tout-atout",
        16,
        "pass pass take TA pass pass pass QS KS 10S JS JD QD 10D 8D 7C 10C QC "
        "JC JH AH 10H KH 8H 7D 7H 9H 7S 8C AD 9S KD 8S KC 9D 9C AC AS QH",
        (297, 249),
    ),
]


def play(level: str, rules_name: str, seed: int) -> tuple[str, tuple[int, ...]]:
    """The action texts of one seeded deal, all seats played by ``level``,
    and the deal's score."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    seats = SEATS_3 if rules.players == 3 else SEATS_4
    pack = list(cards_of(DECK_24 if rules.players == 3 else DECK_32))
    rng.shuffle(pack)
    dealer = seats[rng.randrange(len(seats))]
    pattern = rules.patterns[rng.randrange(len(rules.patterns))]
    state = State.from_deck(rules, dealer, pack, pattern)
    bots = {s: make_bot(level) for s in seats}
    texts: list[str] = []
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        view = observe(state, seat)
        action = bots[seat].act(
            view, state.legal_actions(), seed=decision_seed(seed, seat, len(texts)), budget=TINY
        )
        state.apply(action, seat)
        texts.append(action.text)
    assert state.result is not None
    return " ".join(texts), state.result.score


@pytest.mark.parametrize(("level", "rules_name", "seed", "actions", "score"), PINNED)
def test_seeded_bot_deal_plays_the_pinned_actions(
    level: str, rules_name: str, seed: int, actions: str, score: tuple[int, ...]
) -> None:
    got, got_score = play(level, rules_name, seed)
    assert got == actions
    assert got_score == score
