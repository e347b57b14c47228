"""Self-play statistics of one bot level: who takes with how many trumps, how
often contracts fail, Tout Atout / Sans Atout contracts, coinche heights,
escalating auctions and coinches.

Deals are seeded like ``tests/test_bots.py`` (``play_seeded``): seed ``s``
shuffles the pack with ``random.Random(s)`` and draws the dealer and the
first distribution from it; the four seats are played by the level.

    uv run python benchmarks/heuristic_stats.py --rules ffb --level intermediate --deals 10000

Prints one JSON object.  ``take_trumps``: for each number of trumps held when
taking (the five cards and the turned card), the takes and how many failed;
``strains``: Sans Atout / Tout Atout contracts and their failures; coinche:
``values`` (contracts by height), ``four_bids`` (contracts where the taking
side made four bids or more), ``coinched`` and ``coinched_made``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections import Counter

from rebelote.actions import Bid
from rebelote.bots import Budget, decision_seed, make_bot
from rebelote.cards import DECK_32, SUIT_MASKS, cards_of
from rebelote.observation import observe
from rebelote.rules import preset
from rebelote.seats import SEATS_4
from rebelote.state import State


def deal(args: tuple[str, str, int]) -> Counter[str]:
    rules_name, level, seed = args
    rules = preset(rules_name)
    rng = random.Random(seed)
    pack = list(cards_of(DECK_32))
    rng.shuffle(pack)
    dealer = SEATS_4[rng.randrange(4)]
    pattern = rules.patterns[rng.randrange(len(rules.patterns))]
    state = State.from_deck(rules, dealer, pack, pattern)
    bot = make_bot(level)
    out: Counter[str] = Counter()
    index = 0
    trumps_held: int | None = None
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        view = observe(state, seat)
        action = bot.act(
            view, state.legal_actions(), seed=decision_seed(seed, seat, index), budget=Budget()
        )
        taking = isinstance(action, Bid) and action.kind in ("take", "strain")
        if taking and view.turned is not None:
            assert isinstance(action, Bid)
            suit = view.turned >> 3 if action.kind == "take" else action.strain
            if suit is not None and int(suit) < 4:
                held = (view.hand | 1 << view.turned) & SUIT_MASKS[int(suit)]
                trumps_held = held.bit_count()
        state.apply(action, seat)
        index += 1
    result, contract = state.result, state.contract
    if contract is None or result is None:
        out["passed"] += 1
        return out
    failed = result.result == "dedans"
    out["contracts"] += 1
    out["failed"] += failed
    if rules.bidding == "coinche":
        assert state.auction is not None
        side = [
            b
            for s, b in state.auction.bids
            if b.kind == "contract" and (s ^ contract.taker) & 1 == 0
        ]
        out["four_bids"] += len(side) >= 4
        out[f"value {contract.value}"] += 1
        out[f"value {contract.value} failed"] += failed
        if contract.multiplier >= 2:
            out["coinched"] += 1
            out["coinched_made"] += not failed
    elif contract.strain.is_suit and trumps_held is not None:
        out[f"take_trumps {trumps_held}"] += 1
        out[f"take_trumps {trumps_held} failed"] += failed
    else:
        out[f"strain {contract.strain.text}"] += 1
        out[f"strain {contract.strain.text} failed"] += failed
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="ffb")
    parser.add_argument("--level", default="intermediate")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    total: Counter[str] = Counter()
    tasks = [(args.rules, args.level, seed) for seed in range(args.deals)]
    with multiprocessing.Pool(args.jobs) as pool:
        for counts in pool.imap_unordered(deal, tasks, chunksize=50):
            total.update(counts)
    report = {"rules": args.rules, "level": args.level, "deals": args.deals}
    report |= {k: total[k] for k in sorted(total)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
