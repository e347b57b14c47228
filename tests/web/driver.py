"""Playing at the browser table the way a person does: by clicking, or with
the keyboard alone.  Each step waits until the page shows that the player
must decide, checks that the page offers exactly the server's legal actions,
and makes one decision."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from playwright.sync_api import Page

TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]

_WAIT_DECISION = """() => {
  const d = document.querySelector('#deal-end[open]');
  if (d) return d.querySelector('#deal-end-buttons [data-act]') ? 'dialog' : false;
  const p = document.querySelector('#table-page');
  if (!p || p.hidden) return false;
  return p.dataset.myTurn === 'true' && p.dataset.pending === 'false' ? 'table' : false;
}"""

_STATE = """() => {
  const m = window.rebelote.model;
  const a = document.activeElement;
  return {
    legal: m.turn ? m.turn.legal : [],
    beloteChoice: m.turn ? m.turn.belote_choice : [],
    phase: m.turn ? m.turn.phase : null,
    waiting: m.turn ? m.turn.waiting : null,
    hand: [...document.querySelectorAll('#hand button.card')].map((b) => b.dataset.card),
    enabled: [...document.querySelectorAll('#hand button.card:not(:disabled)')]
      .map((b) => b.dataset.card),
    acts: [...document.querySelectorAll('#actions [data-act]:not(:disabled)')]
      .map((b) => b.dataset.act),
    belotePrompt: !!document.querySelector('#actions [data-belote="yes"]'),
    strain: m.deal.contract ? m.deal.contract.strain : null,
    match: m.match.number, deal: m.match.deal, winner: m.match.winner, you: m.you,
    focused: a ? (a.dataset.card || a.dataset.act || a.dataset.belote || a.tagName) : null,
    focusedZone: a && a.closest('#hand') ? 'hand' : a && a.closest('#actions') ? 'actions' : null,
  };
}"""


def is_card(text: str) -> bool:
    """Whether an action text is a card (``JS``, ``10H``)."""
    return len(text) in (2, 3) and text[-1] in "SHDC" and text[:-1] in PLAIN_ORDER


def expected_order(hand: list[str], strain: str | None) -> list[str]:
    """The hand's cards of each suit in display order (trump: J 9 A 10 K Q 8
    7, else A 10 K Q J 9 8 7); suits kept in the page's order."""
    suits: list[str] = []
    for card in hand:
        if card[-1] not in suits:
            suits.append(card[-1])

    def key(card: str) -> tuple[int, int]:
        order = TRUMP_ORDER if strain == "TA" or card[-1] == strain else PLAIN_ORDER
        return suits.index(card[-1]), order.index(card[:-1])

    return sorted(hand, key=key)


@dataclass
class Driver:
    """Drives one page at a table."""

    page: Page
    clicks: list[float] = field(default_factory=list)  # click -> card on the table (ms, page marks)
    animations: list[float] = field(default_factory=list)  # click -> landing animation over (ms)
    outside: list[float] = field(default_factory=list)  # the same seen from the test (ms)
    decisions: int = 0
    keys: int = 0

    def ready(self) -> bool:
        """Whether the player must decide now (without waiting)."""
        return bool(self.page.evaluate(_WAIT_DECISION))

    def wait_decision(self, timeout: float = 30_000) -> Literal["dialog", "table"]:
        handle = self.page.wait_for_function(_WAIT_DECISION, timeout=timeout, polling=50)
        kind = str(handle.json_value())
        assert kind in ("dialog", "table")
        return "dialog" if kind == "dialog" else "table"

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(_STATE)
        return data

    def check_offer(self, s: dict[str, Any]) -> None:
        """The page offers the server's legal actions, and nothing else."""
        cards = {a for a in s["legal"] if is_card(a)}
        assert set(s["enabled"]) == cards, (s["enabled"], s["legal"])
        for act in s["acts"]:
            if act.endswith((" belote", " no-belote")):
                continue
            assert act in s["legal"], (act, s["legal"])
        if s["strain"] is not None:
            assert s["hand"] == expected_order(s["hand"], s["strain"]), s["hand"]

    # ------------------------------------------------------------ clicking

    def click_step(self, prefer_take: bool = True) -> str:
        """Wait for a decision and make it with the mouse; returns what was done."""
        kind = self.wait_decision()
        self.decisions += 1
        if kind == "dialog":
            if self.page.locator("#deal-end[data-over='true']").count():
                return "over"  # the match is over: the test decides
            button = self.page.locator("#deal-end-buttons [data-act]")
            act = button.get_attribute("data-act") or ""
            button.click()
            return act
        s = self.state()
        self.check_offer(s)
        if s["belotePrompt"]:
            self.page.click('#actions [data-belote="yes"]')
            return "belote"
        if s["enabled"]:
            card = str(s["enabled"][0])
            self.play_card_by_click(card, s["beloteChoice"], str(s["you"]))
            return card
        for selector in (
            '[data-bid="take"]' if prefer_take else "",
            '[data-action="cut"]',
            "[data-pattern]",
            "[data-declare]:not([data-declare='none'])",
            "[data-bid]:not([data-bid='pass'])" if prefer_take else "",
            '[data-bid="pass"]',
            "[data-act]",
        ):
            if not selector:
                continue
            button = self.page.locator(f"#actions {selector}:not(:disabled)").first
            if button.count():
                act = button.get_attribute("data-act") or ""
                button.click()
                return act
        raise AssertionError(f"nothing to do: {s}")

    def play_card_by_click(self, card: str, belote_choice: list[str], seat: str = "S") -> None:
        start = time.perf_counter()
        self.page.click(f'#hand [data-card="{card}"]')
        if card in belote_choice:
            return  # the page asks "Belote?" first; the next step answers
        self.page.wait_for_selector(
            f'#trick [data-trick-seat="{seat}"][data-card="{card}"]', timeout=10_000
        )
        self.outside.append((time.perf_counter() - start) * 1000)
        self.page.wait_for_timeout(250)  # let the landing animation finish
        timing = self.page.evaluate(
            """(card) => {
              const last = (name) => performance.getEntriesByName(name).slice(-1)[0];
              const click = last(`rb:click:${card}`), landed = last(`rb:landed:${card}`);
              const anim = last(`rb:landed-anim:${card}`);
              return {
                landed: click && landed ? landed.startTime - click.startTime : null,
                anim: click && anim ? anim.startTime - click.startTime : null,
              };
            }""",
            card,
        )
        if timing["landed"] is not None:
            self.clicks.append(float(timing["landed"]))
        if timing["anim"] is not None:
            self.animations.append(float(timing["anim"]))

    # ------------------------------------------------------------ keyboard

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def key_step(self) -> str:
        """Wait for a decision and make it with the keyboard alone."""
        kind = self.wait_decision()
        self.decisions += 1
        if kind == "dialog":
            if self.page.locator("#deal-end[data-over='true']").count():
                return "over"  # the match is over: the test decides
            self.page.wait_for_function(
                "() => document.activeElement?.closest('#deal-end-buttons')"
            )
            act = self.page.evaluate("() => document.activeElement.dataset.act || ''")
            self.press("Enter")
            return str(act)
        s = self.state()
        self.check_offer(s)
        if s["belotePrompt"]:
            self.focus_where("actions", lambda st: str(st["focused"]).endswith(" belote"))
            self.press("Enter")
            return "belote"
        if s["enabled"]:
            s = self.focus_where("hand", lambda st: st["focused"] in st["enabled"])
            if len(s["enabled"]) > 1:
                self.press("ArrowRight")  # move along the legal cards
                s = self.state()
            card = str(s["focused"])
            assert card in s["enabled"]
            self.press("Enter")
            if card not in s["beloteChoice"]:
                self.page.wait_for_selector(
                    f'#trick [data-trick-seat="{s["you"]}"][data-card="{card}"]'
                )
            return card
        wanted = "take" if "take" in s["acts"] else None
        s = self.focus_where("actions", lambda st: st["focused"] in st["acts"])
        for _ in range(len(s["acts"]) + 1):
            if wanted is None or s["focused"] == wanted:
                break
            self.press("ArrowRight")
            s = self.state()
        act = str(s["focused"])
        assert act in s["acts"], s
        self.press("Enter")
        return act

    def focus_where(self, zone: str, ok: Any) -> dict[str, Any]:
        """Bring the focus into ``zone`` with the arrow keys until ``ok``."""
        s = self.state()
        for _ in range(12):
            if s["focusedZone"] == zone and ok(s):
                return s
            if s["focusedZone"] == zone:
                self.press("ArrowRight")
            else:
                self.press("ArrowDown" if zone == "hand" else "ArrowUp")
            s = self.state()
        raise AssertionError(f"cannot bring the focus to {zone}: {s}")
