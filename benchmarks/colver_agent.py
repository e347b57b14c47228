"""colver's bots as a subprocess for ``benchmarks/colver_match.py``.

Runs with the Python of a virtual environment that has colver (``pip install
colver``); reads one JSON request a line on stdin and writes one JSON answer
a line on stdout. A request gives a bot spec (colver's TOML format), the
seat to decide for, the dealer, the four hands at the deal (the seat's own,
and for the others cards the caller drew consistently with what the seat
saw: colver's ``Env`` needs four hands), and the actions so far in colver's
encoding with the seat that made each. Where the two auctions differ (after
a coinche rebelote lets only the coinched side speak, colver every seat),
the seats that rebelote skips pass in colver's auction. The agent is built,
shown the deal and every action (colver's rule: every player observes every
action), and asked to decide::

    {"spec": "...", "seat": 1, "dealer": 0, "hands": [[...], ...],
     "actions": [[1, 0], [2, 17], ...], "auction_over": true, "seed": 5}
    -> {"action": 41}   or   {"error": "..."}

Only this file imports colver; it uses no model weights (the bots asked for
must not need any).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import colver  # type: ignore[import-not-found, unused-ignore]


def decide(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (see the module)."""
    env = colver.Env.deal_with_hands(int(request["dealer"]), request["hands"])
    agent = colver.Agent(request["spec"], seat=int(request["seat"]), seed=int(request["seed"]))
    agent.init_deal(env)

    def step(action: int) -> None:
        agent.observe(env, action)
        env.step(action)

    for seat, action in request["actions"]:
        # After a coinche rebelote lets only the coinched side speak; colver
        # asks the coincher's partner too: he passes there.
        while env.phase() == 0 and env.current_player() != int(seat):
            step(0)
        step(int(action))
    if request.get("auction_over"):
        while env.phase() == 0:
            step(0)
    while env.phase() == 0 and env.current_player() != int(request["seat"]):
        step(0)
    if env.current_player() != int(request["seat"]):
        return {"error": f"colver says seat {env.current_player()} is to play"}
    decision = agent.decide(env)
    return {"action": int(decision["action"])}


def main() -> None:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = decide(json.loads(line))
        except Exception as exc:  # report it to the caller, keep serving
            answer = {"error": repr(exc)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
