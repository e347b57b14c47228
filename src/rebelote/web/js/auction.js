// The auction drawn as it goes, in #auction: each seat's bids in order,
// grouped by round (first and second turn of classic belote; coinche and
// surcoinche marked in a coinche auction); once the
// auction is over, the contract it made, kept in view during the play as
// the deal's contract summary.
//
// Every fact comes from the server: the bids and the round of each
// (`view.bids` / `view.bid_rounds` of the snapshot, the `bid` events'
// `round`) and the contract (`contract` event).  Nothing here decides a
// rule (whose turn it is, the status line says).
//
// Hooks: #auction[data-state="empty"|"bidding"|"contract"|"passed"],
// .auction-round[data-round], .auction-bid[data-seat][data-bid][data-round]
// (the bid as the server wrote it), .auction-contract[data-contract] (the
// contract's text).

import { t } from './i18n.js';
import { bidLabel, contractLabel, seatName } from './labels.js';
import { h } from './dom.js';

const ROUND_KEYS = { 1: 'auction.round1', 2: 'auction.round2' };


/** What #auction shows: "empty" (no bid yet, or no deal: hidden), "bidding",
 * "contract" (the auction made one) or "passed" (everyone passed). */
export function auctionState(model) {
  const deal = model.deal;
  if (deal.contract) return 'contract';
  if (deal.notice?.kind === 'all_passed') return 'passed';
  return deal.bids.length ? 'bidding' : 'empty';
}

/** The bids grouped by round, in order: [{round, bids: [{seat, bid, round}]}].
 * A bid whose round the server did not send (an older server) is counted
 * in the round of the bid before it. */
export function auctionRounds(bids) {
  const rounds = [];
  let last = 1;
  for (const b of bids) {
    const round = b.round ?? last;
    last = round;
    if (!rounds.length || rounds[rounds.length - 1].round !== round) rounds.push({ round, bids: [] });
    rounds[rounds.length - 1].bids.push(b);
  }
  return rounds;
}

/** A bid in words for a screen reader: "Ouest : Passe". */
function bidText(model, b) {
  return `${seatName(model, b.seat)} : ${bidLabel(b.bid, model.deal.turned, true).textContent}`;
}

/**
 * Draw the auction into `el` (#auction).  Rebuilt only when what it shows
 * changed (`el.dataset.key`).
 */
export function renderAuction(el, model) {
  if (!el) return;
  const state = model.mode === 'replay' || !model.match ? 'empty' : auctionState(model);
  const deal = model.deal;
  const coinche = model.table?.rules?.options?.bidding === 'coinche'
    || deal.bids.some((b) => /^(capot|\d+)/.test(b.bid) || b.bid === 'coinche');
  const key = JSON.stringify([state, deal.bids, deal.contract?.text, deal.turned, model.you,
    model.lobby, model.table?.seats, document.documentElement.lang]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.dataset.state = state;
  el.hidden = state === 'empty';
  if (state === 'empty') {
    el.replaceChildren();
    return;
  }
  const parts = [h('h2', { class: 'visually-hidden', text: t('auction.title') })];
  if (state === 'contract') {
    const c = deal.contract;
    const taken = deal.bids.filter((b) => b.seat === c.taker && b.bid !== 'pass' && b.bid !== 'surcoinche').pop();
    const line = h('p', { class: 'auction-contract', 'data-contract': c.text },
      h('span', { class: 'auction-label', text: t('auction.contract') }), ' ', contractLabel(model, c));
    if (!coinche && taken?.round === 2) line.append(' ', h('span', { class: 'auction-note', text: t('auction.takenRound2') }));
    if (!coinche && taken?.round === 1) line.append(' ', h('span', { class: 'auction-note', text: t('auction.takenRound1') }));
    parts.push(line);
  } else if (state === 'passed') {
    parts.push(h('p', { class: 'auction-contract', text: t('auction.allPassed') }));
  }
  const rounds = auctionRounds(deal.bids);
  const list = h('ol', { class: 'auction-rounds' });
  for (const { round, bids } of rounds) {
    const label = coinche ? t('auction.bids') : t(ROUND_KEYS[round] || ROUND_KEYS[1]);
    const items = bids.map((b) => {
      const double = b.bid === 'coinche' || b.bid === 'surcoinche';
      return h('li', {
        class: `auction-bid${b.bid === 'pass' ? ' pass' : ''}${double ? ' double' : ''}`,
        'data-seat': b.seat, 'data-bid': b.bid, 'data-round': b.round ?? round, 'aria-label': bidText(model, b),
      },
      h('span', { class: 'who', 'aria-hidden': 'true', text: seatName(model, b.seat) }),
      h('span', { class: 'what', 'aria-hidden': 'true' }, bidLabel(b.bid, deal.turned, true)));
    });
    list.append(h('li', { class: 'auction-round', 'data-round': round },
      h('span', { class: 'round-label', text: label }),
      h('ol', { class: 'auction-bids' }, ...items)));
  }
  parts.push(list);
  el.replaceChildren(...parts);
}
