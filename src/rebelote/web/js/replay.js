// A finished game drawn at the table, step by step: the replay's data
// (`GET /api/tables/{id}/replay`: finished deals only, every hand) turned
// into the table's own model, so that the table view draws it as it draws a
// game in progress (the trick being built, the bids, the scores), with every
// hand face up.  Bookkeeping of what the server sent, never a rule: the
// tricks, their winners and the scores are the server's.

import { TableModel, parseContract } from './model.js';

/** The steps of a deal: 0 (the auction over, no card played) to the number
 * of cards played. */
export function dealSteps(deal) {
  return deal.tricks.reduce((n, trick) => n + trick.cards.length, 0);
}

/**
 * Each deal's totals before and after it, per side: from the table's match
 * sheet (`GET /api/tables/{id}`'s `match`, the current match only) where it
 * has the deal's line, else the sum of the deals' scores in that match.
 * @returns {{before: object[], after: object[]}} indexed like `data.deals`
 */
export function replayTotals(data, info) {
  const before = [];
  const after = [];
  const running = {};
  data.deals.forEach((d, i) => {
    const sides = Object.keys(d.score);
    const zero = Object.fromEntries(sides.map((s) => [s, 0]));
    const sheet = info?.match?.number === d.match ? info.match.sheet : null;
    const line = sheet?.find((l) => l.deal === d.deal);
    const prev = sheet?.find((l) => l.deal === d.deal - 1);
    const current = running[d.match] || zero;
    if (line) {
      before[i] = prev ? { ...prev.totals } : { ...current };
      after[i] = { ...line.totals };
    } else {
      before[i] = { ...current };
      after[i] = Object.fromEntries(sides.map((s) => [s, (current[s] || 0) + (d.score[s] || 0)]));
    }
    running[d.match] = after[i];
  });
  return { before, after };
}

/**
 * The table's model at one step of one deal of a replay.
 * @param {object} r  {table, data, totals, index, step}: `table` as a
 *   snapshot's `table` ({id, you: null, seats, rules, options, status}),
 *   `data` the replay, `totals` from replayTotals, `index` the deal's place
 *   in `data.deals`, `step` 0..dealSteps(deal)
 */
export function replayModel(r) {
  const d = r.data.deals[r.index];
  const model = new TableModel();
  model.mode = 'replay';
  model.lobby = true; // the seats are named by their players
  model.table = r.table;
  model.you = null;
  const steps = dealSteps(d);
  const step = Math.max(0, Math.min(steps, r.step));
  const end = step === steps;
  model.match = {
    number: d.match, target: r.table.rules.target, sides: Object.keys(d.score),
    totals: end ? r.totals.after[r.index] : r.totals.before[r.index],
    held_over: 0, sheet: [], deal: d.deal, dealer: d.dealer, winner: null,
  };
  model.newDeal(d.dealer);
  const deal = model.deal;
  deal.phase = end ? 'done' : step === 0 ? 'bidding' : 'playing';
  deal.turned = d.turned;
  deal.turnedTaken = true;
  deal.bids = d.bids.map(([seat, bid], i) => ({ seat, bid, round: d.bid_rounds?.[i] ?? null }));
  deal.contract = parseContract(d.contract);
  const played = [];
  for (const trick of d.tricks) trick.cards.forEach((card, i) => played.push({ seat: trick.seats[i], card, trick }));
  const shown = played.slice(0, step);
  const gone = new Set(shown.map((p) => p.card));
  const hands = {};
  for (const [seat, cards] of Object.entries(d.hands)) {
    hands[seat] = cards.filter((c) => !gone.has(c));
    deal.sizes[seat] = hands[seat].length;
  }
  model.openHands = hands;
  deal.hand = hands[model.viewpoint] || [];
  if (step > 0) {
    const trick = shown[shown.length - 1].trick;
    const k = shown.filter((p) => p.trick === trick).length;
    deal.trick = trick.cards.slice(0, k).map((card, i) => ({ seat: trick.seats[i], card }));
    deal.trickNumber = trick.number;
    deal.trickDone = k === trick.cards.length;
    deal.trickWinner = deal.trickDone ? trick.winner : null;
    for (const t of d.tricks) {
      if (t.number < trick.number || (t === trick && deal.trickDone)) {
        deal.tricksWon[t.winner] = (deal.tricksWon[t.winner] || 0) + 1;
        model.lastTrick = t;
      }
    }
    deal.declarations = d.declarations.map(([seat, list]) => [seat, list.slice()]);
    deal.belotes = d.belotes.filter(([, card]) => gone.has(card)).map((b) => b.slice());
  } else {
    for (const b of deal.bids) model.bubbles[b.seat] = { type: 'bid', bid: b.bid, until: 'card' };
    if (d.result === 'passed') deal.notice = { kind: 'all_passed' };
  }
  if (end) model.summary = d.summary;
  model.turn = null;
  return model;
}
