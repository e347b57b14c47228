"""belote-cli's AI as a line-oriented agent (runs in belote-cli's own venv).

Not part of rebelote: this script imports ``belote`` (``pip install
belote-cli``) and must run with that environment's Python.  It reads one
JSON request per line on stdin and answers one JSON line on stdout:

- ``{"kind": "bid", "seat", "dealer", "hand", "up", "round", "round_bids",
  "seed", "level"}`` -> ``{"bid": "pass" | "S" | "H" | "D" | "C"}``
- ``{"kind": "play", "seat", "dealer", "hand", "trump", "taker", "trick",
  "tricks", "seed", "level"}`` -> ``{"card": int}``

Cards are rebelote ints (suit * 8 + rank; suits S H D C, ranks 7..A); seats
are rebelote ints (N 0, W 1, S 2, E 3).  The partner's hand stays hidden
(``hide_partner_hand``): belote-cli's table shows a player his partner's
hand, rebelote's rules do not.  Tout Atout / Sans Atout bids (not in the
``ffb`` preset) fall back to belote-cli's best plain suit, else pass.
"""

from __future__ import annotations

import json
import random
import sys

from belote.ai import AIPlayer, Difficulty
from belote.deck import CARD_SUITS, Card, Rank
from belote.game import BossModifiers, GameState, Phase, Seat, TrickCard

RANKS = list(Rank)
HIDE = BossModifiers(hide_partner_hand=True)


def card(c: int) -> Card:
    return Card(CARD_SUITS[c >> 3], RANKS[c & 7])


def card_id(c: Card) -> int:
    return CARD_SUITS.index(c.suit) * 8 + RANKS.index(c.rank)


def seat(s: int) -> Seat:
    return Seat((s + 2) % 4)


def hands_for(me: int, hand: list[int]) -> tuple[tuple[Card, ...], ...]:
    out: list[tuple[Card, ...]] = [(), (), (), ()]
    out[seat(me).value] = tuple(card(c) for c in hand)
    return tuple(out)


def decide(req: dict) -> dict:
    level = Difficulty(req.get("level", "hard"))
    me = req["seat"]
    ai = AIPlayer(seat(me), level, rng=random.Random(req["seed"]))
    if req["kind"] == "bid":
        bids = tuple(
            None if b == "pass" else CARD_SUITS["SHDC".index(b)] for b in req["round_bids"]
        )
        state = GameState(
            hands=hands_for(me, req["hand"]),
            dealer=seat(req["dealer"]),
            phase=Phase.BIDDING,
            bids=bids,
            up_card=card(req["up"]),
            bidder_index=len(bids),
            bidding_round=req["round"],
            turn=seat(me),
            boss_modifiers=HIDE,
        )
        bid = ai.decide_bid(state)
        if bid is not None and bid not in CARD_SUITS:
            exclude = card(req["up"]).suit
            bid = ai._suit_bid(state.hand_of(seat(me)), state, exclude=exclude)
        if bid is None:
            return {"bid": "pass"}
        if req["round"] == 1 and bid != card(req["up"]).suit:
            return {"bid": "pass"}
        return {"bid": "SHDC"[CARD_SUITS.index(bid)]}
    trick = tuple(TrickCard(seat(s), card(c)) for s, c in req["trick"])
    tricks = tuple(tuple(TrickCard(seat(s), card(c)) for s, c in t) for t in req["tricks"])
    leader = trick[0].seat if trick else seat(me)
    state = GameState(
        hands=hands_for(me, req["hand"]),
        dealer=seat(req["dealer"]),
        phase=Phase.PLAYING,
        trump=CARD_SUITS[req["trump"]],
        contract="normal",
        taker=seat(req["taker"]),
        leader=leader,
        turn=seat(me),
        current_trick=trick,
        completed_tricks=tricks,
        first_trick_done=bool(tricks),
        boss_modifiers=HIDE,
    )
    ai.update_memory(state)
    return {"card": card_id(ai.decide_card(state))}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = decide(json.loads(line))
        except Exception as exc:  # report, keep serving
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
