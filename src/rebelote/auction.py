"""The taking phase: classic rounds, Tout Atout / Sans Atout overbids, and the
coinche auction.

Classic (all four texts): starting right of the dealer, each player takes the
turned card's suit (``take``) or passes; if all pass, round two: each may name a
suit (the turned suit only where ``Rules.round_two_turned_suit``, seed 001) or
pass.  The first taker ends the auction.  All pass twice: the deal is void.

Tout Atout / Sans Atout (seed 000): ``TA`` and ``SA`` may be bid in either
round, and a bid may be overbid (a suit < SA < TA; "il n'est donc pas possible
de surenchérir avec une couleur simple") until each other player has passed
once after the last bid.

Coinche (club rules, as colver plays them): contracts 80..160 by tens, then
capot (250), each with a suit (TA / SA where ``Rules.coinche_tout_atout``); a
bid must beat the last; an opponent of the last bidder may ``coinche``; the
coinched side may then ``surcoinche``, and no one else speaks: the two players
of the coinched side speak in turn from the coincher's right, a surcoinche or
their two passes ending the auction.  Three passes after a bid end the
auction; four passes at the start void the deal.  Where
``Rules.after_coinche`` is ``three_passes`` (FFB coinche 2015, 4.1: "le tour
de d'enchère s'achève lorsqu'après une enchère ou une coinche, les trois
joueurs suivants passent"), the three players after the coincher speak in
turn: the coinched side may surcoinche, the coincher's partner only passes,
and three passes end the auction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .actions import CAPOT_VALUE, Bid
from .legality import RULES_DIGEST, SEED000, SEED002, Illegality, IllegalReason
from .rules import Rules
from .seats import Seat, next_seat
from .trump import Strain

__all__ = ["Auction", "AuctionStatus", "Contract"]

AuctionStatus = Literal["open", "contract", "all_pass"]

COINCHE_VALUES: tuple[int, ...] = (80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT_VALUE)
"""The contract values of the coinche auction, lowest first."""

_LEVEL = {Strain.SA: 1, Strain.TA: 2}

# The bids are frozen: the auction hands out these shared ones.
_PASS = Bid("pass")
_TAKE = Bid("take")
_COINCHE = Bid("coinche")
_SURCOINCHE = Bid("surcoinche")
_STRAIN_BIDS: tuple[Bid, ...] = tuple(Bid("strain", s) for s in Strain)
"""``_STRAIN_BIDS[strain]``: naming ``strain`` (round two, TA, SA)."""
_CONTRACTS_ABOVE: dict[tuple[bool, int], tuple[Bid, ...]] = {
    (all_strains, low): tuple(
        Bid("contract", s, value)
        for value in COINCHE_VALUES
        if value > low
        for s in (list(Strain) if all_strains else list(Strain)[:4])
    )
    for all_strains in (False, True)
    for low in (0, *COINCHE_VALUES)
}
"""``_CONTRACTS_ABOVE[(coinche_tout_atout, value)]``: the coinche contracts
above ``value`` (0: all), lowest first, the strains in order."""
_NEXT: dict[int, tuple[Seat, ...]] = {
    n: tuple(next_seat(Seat(i), n) for i in range(4)) for n in (2, 3, 4)
}
"""``_NEXT[players][seat]``: :func:`~rebelote.seats.next_seat`."""


@dataclass(frozen=True, slots=True)
class Contract:
    """The outcome of the auction.

    ``taker``: the seat whose bid stands; ``strain``: trump; ``value``: the
    coinche contract in points (250 = capot), ``None`` in classic games;
    ``multiplier``: 1, 2 after a coinche, 4 after a surcoinche.
    """

    taker: Seat
    strain: Strain
    value: int | None = None
    multiplier: int = 1

    @property
    def capot_bid(self) -> bool:
        """Whether the contract is a coinche capot (all 8 tricks)."""
        return self.value == CAPOT_VALUE

    @property
    def text(self) -> str:
        """``H by N``, ``120S by W coinche``."""
        head = (
            self.strain.text
            if self.value is None
            else Bid("contract", self.strain, self.value).text
        )
        tail = {1: "", 2: " coinche", 4: " surcoinche"}[self.multiplier]
        return f"{head} by {self.taker.letter}{tail}"


class Auction:
    """The bidding of one deal: whose turn, the legal bids, and the outcome.

    ``turned`` is the turned card's suit (``None`` in coinche).  :meth:`bid`
    applies a bid that :meth:`legal_bids` allows (it does not re-check).
    """

    __slots__ = (
        "bidder",
        "bids",
        "coinched",
        "contract",
        "current",
        "high",
        "passes",
        "players",
        "round",
        "rounds",
        "rules",
        "status",
        "turned",
    )

    def __init__(self, rules: Rules, dealer: Seat, turned: Strain | None) -> None:
        self.rules = rules
        self.players = rules.players
        self.turned = turned
        self.current: Seat = _NEXT[self.players][dealer]
        self.round = 1
        self.passes = 0
        self.high: Bid | None = None
        self.bidder: Seat | None = None
        self.coinched = 1
        self.status: AuctionStatus = "open"
        self.contract: Contract | None = None
        self.bids: list[tuple[Seat, Bid]] = []
        self.rounds: list[int] = []
        """The round of each bid of :attr:`bids`: 1, or 2 once everyone
        passed round one (classic and Tout Atout games; seed 001 "Si
        personne n'accepte la carte, on procède à un deuxième tour"); always
        1 in coinche, whose coinche and surcoinche are bids of their own."""

    def copy(self) -> Auction:
        """An independent copy (the bids list is copied)."""
        other = Auction.__new__(Auction)
        for name in Auction.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def _same_side(self, a: Seat, b: Seat) -> bool:
        return self.players == 4 and (a ^ b) & 1 == 0

    def legal_bids(self) -> list[Bid]:
        """The bids the current speaker may make, ``pass`` first."""
        if self.status != "open":
            return []
        bidding = self.rules.bidding
        out = [_PASS]
        if bidding == "coinche":
            if self.coinched > 1:
                assert self.bidder is not None
                if self._same_side(self.current, self.bidder):
                    out.append(_SURCOINCHE)  # the coinched side
                return out
            low = self.high.value if self.high is not None and self.high.value else 0
            all_strains = self.rules.coinche_tout_atout
            above = _CONTRACTS_ABOVE.get((all_strains, low))
            if above is None:
                above = _CONTRACTS_ABOVE[(all_strains, 0)]
                above = tuple(b for b in above if b.value is not None and b.value > low)
            out.extend(above)
            if self.bidder is not None and not self._same_side(self.current, self.bidder):
                out.append(_COINCHE)
            return out
        turned = self.turned
        assert turned is not None
        if self.round == 1 and (bidding == "classic" or self.high is None):
            out.append(_TAKE)
        elif bidding == "classic" or self.high is None:
            every = self.rules.round_two_turned_suit
            out.extend(b for b in _STRAIN_BIDS[:4] if every or b.strain != turned)
        if bidding == "classic":
            return out
        # tout_atout
        level = -1 if self.high is None else _LEVEL.get(self.high.strain or Strain.S, 0)
        if level < 1:
            out.append(_STRAIN_BIDS[Strain.SA])
        if level < 2:
            out.append(_STRAIN_BIDS[Strain.TA])
        return out

    def illegality(self, bid: Bid) -> Illegality | None:
        """Why the current speaker may not make ``bid``, or ``None`` when
        :meth:`legal_bids` holds it.  The auction must be open.

        Coinche (RULES.md, "Coinche"): only contracts, coinche and surcoinche;
        a contract must beat the last (capot beats all), TA / SA only where
        ``Rules.coinche_tout_atout``; after a coinche only a surcoinche, by
        the coinched side (``Rules.after_coinche``); a coinche by an
        opponent of the last bidder, once.  Classic (seed 002):
        ``take`` in round one, a suit in round two, not the turned one unless
        ``Rules.round_two_turned_suit``.  Tout Atout (seed 000): a suit or a
        take only before any bid; SA over a suit, TA over SA.  The round-two
        reasons name the turned suit where it may not be named
        (:attr:`~rebelote.legality.Illegality.suit`); ``house_rule`` as
        :meth:`~rebelote.legality.Illegality.under` sets it.
        """
        if bid in self.legal_bids():
            return None
        return self._reason(bid).under(self.rules)

    def _reason(self, bid: Bid) -> Illegality:
        """:meth:`illegality`'s reason for the illegal ``bid``."""
        R = IllegalReason
        kind, strain, value = bid.kind, bid.strain, bid.value
        if (
            kind not in ("pass", "take", "strain", "contract", "coinche", "surcoinche")
            or (kind in ("strain", "contract")) != (strain is not None)
            or (kind == "contract") != (value is not None)
            or (value is not None and value not in COINCHE_VALUES)
        ):
            return Illegality(R.NO_SUCH_ACTION, None, RULES_DIGEST)
        bidding = self.rules.bidding
        if bidding == "coinche":
            if kind in ("take", "strain"):
                return Illegality(R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
            if kind == "surcoinche":
                return Illegality(R.SURCOINCHE_NOT_ALLOWED, None, RULES_DIGEST)
            if kind == "coinche":
                if self.high is None:
                    return Illegality(R.NO_CONTRACT_TO_COINCHE, None, RULES_DIGEST)
                if (
                    self.coinched == 1
                    and self.bidder is not None
                    and self._same_side(self.current, self.bidder)
                ):
                    return Illegality(R.COINCHE_OWN_SIDE, None, RULES_DIGEST)
                return Illegality(R.COINCHE_NOT_ALLOWED, None, RULES_DIGEST)
            assert kind == "contract" and strain is not None and value is not None
            if self.coinched > 1:
                return Illegality(R.BID_AFTER_COINCHE, None, RULES_DIGEST)
            if not strain.is_suit and not self.rules.coinche_tout_atout:
                return Illegality(R.STRAIN_NOT_ALLOWED, "coinche_tout_atout", RULES_DIGEST)
            if self.high is not None and self.high.value == CAPOT_VALUE:
                return Illegality(R.CAPOT_IS_HIGHEST, None, RULES_DIGEST)
            return Illegality(R.BID_TOO_LOW, None, RULES_DIGEST)
        if kind in ("contract", "coinche", "surcoinche"):
            return Illegality(R.BID_NOT_IN_AUCTION, "bidding", RULES_DIGEST)
        assert kind in ("take", "strain")
        if strain is not None and not strain.is_suit:
            if bidding == "classic":
                return Illegality(R.BID_NOT_IN_AUCTION, "bidding", SEED000)
            return Illegality(R.BID_TOO_LOW, None, SEED000)
        if bidding == "tout_atout" and self.high is not None:
            return Illegality(R.BID_TOO_LOW, None, SEED000)
        turned = self.turned
        assert turned is not None
        if kind == "take":
            # Round two: a suit is named, the turned one too where allowed.
            out = None if self.rules.round_two_turned_suit else turned.text
            return Illegality(R.TAKE_ONLY_IN_ROUND_ONE, None, SEED002, out)
        if self.round == 1:
            return Illegality(R.SUIT_ONLY_IN_ROUND_TWO, None, SEED002)
        return Illegality(R.TURNED_SUIT_IN_ROUND_TWO, "round_two_turned_suit", SEED002, turned.text)

    def bid(self, bid: Bid) -> AuctionStatus:
        """Apply the current speaker's ``bid`` (already checked legal)."""
        seat = self.current
        self.bids.append((seat, bid))
        self.rounds.append(self.round)
        rules = self.rules
        if bid.kind == "pass":
            self.passes += 1
            if (
                rules.bidding == "coinche"
                and self.coinched > 1
                and rules.after_coinche == "coinched_side"
            ):
                if self.passes == 2:
                    return self._close()
                nxt = _NEXT[4]
                self.current = nxt[nxt[seat]]
                return "open"
            if self.high is not None and self.passes == self.players - 1:
                return self._close()
            if self.high is None and self.passes == self.players:
                if rules.bidding == "coinche" or self.round == 2:
                    self.status = "all_pass"
                    return self.status
                self.round = 2
                self.passes = 0
        elif bid.kind == "coinche":
            self.coinched = 2
            self.passes = 0
        elif bid.kind == "surcoinche":
            self.coinched = 4
            return self._close()
        else:
            if bid.kind == "take":
                assert self.turned is not None
                bid = _STRAIN_BIDS[self.turned]
            self.high, self.bidder, self.passes = bid, seat, 0
            if rules.bidding == "classic":
                return self._close()
        self.current = _NEXT[self.players][seat]
        return "open"

    def _close(self) -> AuctionStatus:
        assert self.high is not None and self.high.strain is not None and self.bidder is not None
        self.contract = Contract(self.bidder, self.high.strain, self.high.value, self.coinched)
        self.status = "contract"
        return self.status
