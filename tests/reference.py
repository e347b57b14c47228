"""A plain reference of the rules the engine's hot path computes with
bitmasks and precomputed tables: the legal cards, the winner and points of
a trick, the belote choice, the legal bids and the declarations of a hand.

Written from ``docs/rules/RULES.md`` on lists of cards and rank orders, one
rule after the other, sharing no code with :mod:`rebelote.tricks`,
:mod:`rebelote.auction` or :mod:`rebelote.declarations` beyond the
:class:`~rebelote.rules.Rules` options and the action classes;
``tests/test_fast_path.py`` checks the engine against it deal after deal.
Slow on purpose: nothing here is optimised.

Cards are ints ``suit * 8 + rank`` (suits S H D C, ranks 7 8 9 10 J Q K A),
strains 0..3 for a trump suit, 4 Sans Atout, 5 Tout Atout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rebelote.actions import Action, Bid, Play
from rebelote.rules import Rules
from rebelote.trump import Strain

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

TRUMP_ORDER = [JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN]
"""Trump ranks, strongest first (RULES.md: J 9 A 10 K Q 8 7)."""
PLAIN_ORDER = [ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN]
"""Other suits' ranks, strongest first (A 10 K Q J 9 8 7)."""
TRUMP_POINTS = {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3}
PLAIN_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}


def suit(card: int) -> int:
    """0..3."""
    return card // 8


def rank(card: int) -> int:
    """0..7 in natural order."""
    return card % 8


def is_trump(card: int, strain: int) -> bool:
    """Every card in Tout Atout, none in Sans Atout, else the trump suit's."""
    if strain == Strain.TA:
        return True
    if strain == Strain.SA:
        return False
    return suit(card) == strain


def stronger(card: int, other: int, strain: int) -> bool:
    """Whether ``card`` ranks above ``other`` of the same suit."""
    assert suit(card) == suit(other)
    order = TRUMP_ORDER if is_trump(card, strain) else PLAIN_ORDER
    return order.index(rank(card)) < order.index(rank(other))


def trick_winner(cards: Sequence[int], strain: int) -> int:
    """The position of the card that wins: the highest trump, else the
    highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if is_trump(c, strain)]
    candidates = trumps or [i for i, c in enumerate(cards) if suit(c) == suit(cards[0])]
    best = candidates[0]
    for i in candidates[1:]:
        if suit(cards[i]) == suit(cards[best]) and stronger(cards[i], cards[best], strain):
            best = i
    return best


def card_points(card: int, strain: int, rules: Rules) -> int:
    """A card's points: the Tout Atout and Sans Atout tables of the rules,
    else by trump or plain rank."""
    if strain == Strain.TA:
        return rules.ta_points[rank(card)]
    if strain == Strain.SA:
        return rules.sa_points[rank(card)]
    table = TRUMP_POINTS if is_trump(card, strain) else PLAIN_POINTS
    return table.get(rank(card), 0)


def legal_cards(
    hand: Sequence[int],
    trick: Sequence[int],
    trick_seats: Sequence[int],
    seat: int,
    strain: int,
    rules: Rules,
) -> set[int]:
    """The cards of ``hand`` that ``seat`` may play on ``trick`` (the cards
    played so far, by ``trick_seats``)."""
    if not trick:
        return set(hand)
    led = trick[0]
    best = trick_winner(trick, strain)
    winning = trick[best]
    partner_wins = rules.players == 4 and trick_seats[best] == (seat + 2) % 4
    same_suit = [c for c in hand if suit(c) == suit(led)]
    my_trumps = [c for c in hand if is_trump(c, strain)]
    if is_trump(led, strain):
        # Trump led (every lead in Tout Atout): follow, higher if possible.
        if not same_suit:
            return set(hand)
        if partner_wins and not rules.overtrump_partner_on_trump_lead:
            return set(same_suit)
        higher = [c for c in same_suit if stronger(c, winning, strain)]
        return set(higher or same_suit)
    if same_suit:
        return set(same_suit)
    if not my_trumps:
        return set(hand)
    if partner_wins and rules.partner_winning_exemption:
        plain = [c for c in hand if not is_trump(c, strain)]
        only_trumps_alone = rules.lower_trump_under_partner == "all_trumps_only"
        if only_trumps_alone and is_trump(winning, strain) and plain:
            # FFB coinche 2015, 5.2: under the partner's winning trump, a
            # lower trump only for a hand of trumps alone.
            over = [c for c in my_trumps if stronger(c, winning, strain)]
            return set(plain) | set(over)
        return set(hand)
    if is_trump(winning, strain):
        over = [c for c in my_trumps if suit(c) == suit(winning) and stronger(c, winning, strain)]
        if over:
            return set(over)
        return set(my_trumps) if rules.must_undertrump else set(hand)
    return set(my_trumps)


def legal_plays(
    hand: Sequence[int],
    trick: Sequence[int],
    trick_seats: Sequence[int],
    seat: int,
    strain: int,
    rules: Rules,
) -> set[Action]:
    """The legal :class:`Play` actions: each legal card, and where belote
    must be said (seed 001) the first card of a king-queen pair of trump
    still whole in the hand twice, saying belote or not."""
    out: set[Action] = set()
    for card in legal_cards(hand, trick, trick_seats, seat, strain, rules):
        pair_card = suit(card) * 8 + (KING if rank(card) == QUEEN else QUEEN)
        choice = (
            rules.belote_must_be_said
            and is_trump(card, strain)
            and rank(card) in (KING, QUEEN)
            and pair_card in hand
        )
        if choice:
            out |= {Play(card, True), Play(card, False)}
        else:
            out.add(Play(card))
    return out


def _contracts_above(value: int, rules: Rules) -> set[Bid]:
    values = [v for v in (80, 90, 100, 110, 120, 130, 140, 150, 160, 250) if v > value]
    strains = list(Strain) if rules.coinche_tout_atout else [Strain(s) for s in range(4)]
    return {Bid("contract", s, v) for v in values for s in strains}


def legal_bids(
    rules: Rules, turned_suit: int | None, bids: Sequence[tuple[int, Bid]], seat: int
) -> set[Bid]:
    """The bids ``seat`` may make after ``bids`` (the auction still open),
    read from the bids alone."""
    players = rules.players
    made = [(s, b) for s, b in bids if b.kind not in ("pass", "coinche", "surcoinche")]
    if rules.bidding == "coinche":
        if any(b.kind == "coinche" for _, b in bids):
            # Only the coinched side may surcoinche; where three passes end
            # the auction (FFB coinche 2015, 4.1) the coincher's partner
            # speaks too, and may only pass.
            if (made[-1][0] - seat) % 2 == 1:
                return {Bid("pass")}
            return {Bid("pass"), Bid("surcoinche")}
        high = (made[-1][1].value or 0) if made else 0
        out = {Bid("pass")} | _contracts_above(high, rules)
        if made and (made[-1][0] - seat) % 2 == 1:
            out.add(Bid("coinche"))
        return out
    assert turned_suit is not None
    round_one = len(bids) < players
    suits = {
        Bid("strain", Strain(s))
        for s in range(4)
        if rules.round_two_turned_suit or s != turned_suit
    }
    if rules.bidding == "classic":
        return {Bid("pass"), Bid("take")} if round_one else {Bid("pass")} | suits
    # Seed 000's Tout Atout: a suit or take before any bid, then SA over a
    # suit and TA over SA.
    if not made:
        first = {Bid("take")} if round_one else suits
        return {Bid("pass"), Bid("strain", Strain.SA), Bid("strain", Strain.TA)} | first
    last = made[-1][1]
    if last.kind == "strain" and last.strain == Strain.TA:
        return {Bid("pass")}
    if last.kind == "strain" and last.strain == Strain.SA:
        return {Bid("pass"), Bid("strain", Strain.TA)}
    return {Bid("pass"), Bid("strain", Strain.SA), Bid("strain", Strain.TA)}


@dataclass(frozen=True)
class RefDeclaration:
    """A declaration as the reference finds it."""

    kind: str
    cards: frozenset[int]
    top: int
    points: int


CARRE_POINTS = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}


def _key(d: RefDeclaration, strain: int) -> tuple[int, int, int, int]:
    if d.kind == "carre":
        return (1, d.points, 7 - PLAIN_ORDER.index(rank(d.top)), 0)
    in_trump = strain == Strain.TA or (strain < 4 and suit(d.top) == strain)
    return (0, d.points, rank(d.top), int(in_trump))


def _runs(cards: set[int]) -> list[RefDeclaration]:
    found = []
    for s in range(4):
        run: list[int] = []
        for r in [*range(8), None]:
            if r is not None and s * 8 + r in cards:
                run.append(s * 8 + r)
                continue
            if len(run) >= 3:
                kind = {3: "tierce", 4: "quarte"}.get(len(run), "quinte")
                points = SEQUENCE_POINTS[len(run)]
                found.append(RefDeclaration(kind, frozenset(run), run[-1], points))
            run = []
    return found


def declarations(hand: Sequence[int], strain: int) -> list[RefDeclaration]:
    """The declarations a hand makes together, strongest first: every way
    of using its scoring carrés or not (a card in one declaration only),
    the rest in runs of 3 or more; the most points, then the strongest
    declaration, win (RULES.md, "Declarations")."""
    cards = set(hand)
    carres = [
        RefDeclaration("carre", frozenset(r + 8 * s for s in range(4)), r, points)
        for r, points in CARRE_POINTS.items()
        if all(r + 8 * s in cards for s in range(4))
    ]
    best: list[RefDeclaration] = []
    best_score: tuple[int, tuple[int, int, int, int]] = (-1, (0, 0, 0, 0))
    for used in range(1 << len(carres)):
        chosen = [c for i, c in enumerate(carres) if used >> i & 1]
        rest = cards - {card for c in chosen for card in c.cards}
        decls = chosen + _runs(rest)
        score = (
            sum(d.points for d in decls),
            max((_key(d, strain) for d in decls), default=(0, 0, 0, 0)),
        )
        if score > best_score:
            best, best_score = decls, score
    return sorted(best, key=lambda d: _key(d, strain), reverse=True)
