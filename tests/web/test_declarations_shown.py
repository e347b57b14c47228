"""The table page's model and words for declarations (FFB coinche 2015,
8.2 and 8.3; RULES.md "Declarations"): another seat's declaration arrives
as its nature alone and is shown so (« Tierce », "Tierce"); the ``shown``
event replaces the winners' natures by their declarations, whose words
name the top card; a losing declaration stays a nature."""

from __future__ import annotations

from playwright.sync_api import Browser

from server.live import LiveServer

from .conftest import DESKTOP
from .test_table import no_errors, open_page

_SCRIPT = """async (code) => {
  const i18n = await import('/js/i18n.js');
  const labels = await import('/js/labels.js');
  const { TableModel } = await import('/js/model.js');
  await i18n.setLang(code);
  const model = new TableModel();
  model.newDeal('N');
  const words = () => model.deal.declarations.map(
    ([seat, list]) => [seat, list.map((d) => labels.declLabel(d).textContent)]);
  const head = { match: 1, deal: 1, kind: 'declared', cards: [] };
  model.applyEvent({ ...head, seat: 'W', declarations: ['tierce'] });
  model.applyEvent({ ...head, seat: 'S', declarations: ['quarte', 'carre'] });
  const before = words();
  model.applyEvent({
    match: 1, deal: 1, kind: 'shown',
    declarations: [['S', ['quarte-KS', 'carre-J'], ['10S', 'JS', 'QS', 'KS', 'JH', 'JD', 'JC']]],
    side: ['S'],
  });
  return { before, after: words(), bubble: model.bubbles.S && model.bubbles.S.list };
}"""


def test_natures_then_the_winners_declarations(browser: Browser, web: LiveServer) -> None:
    page = open_page(browser, web, DESKTOP)
    fr = page.evaluate(_SCRIPT, "fr")
    assert fr["before"] == [["W", ["Tierce"]], ["S", ["Cinquante", "Carré"]]]
    assert fr["after"][0] == ["W", ["Tierce"]]
    assert fr["after"][1][0] == "S"
    assert fr["after"][1][1][1] == "Carré de valets"
    assert fr["after"][1][1][0] == "Cinquante R"  # the king of spades (its suit a symbol)
    assert fr["bubble"] == ["quarte-KS", "carre-J"]
    en = page.evaluate(_SCRIPT, "en")
    assert en["before"] == [["W", ["Tierce"]], ["S", ["Quarte", "Carré (four of a kind)"]]]
    assert en["after"][1][1][1] == "Four jacks"
    no_errors(page)
    page.context.close()
