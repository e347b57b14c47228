// My games: running tables (a match goes on at the main table,
// `/#/table/ID`; a waiting room in the lobby), finished matches (their
// replay at the main table, `/#/replay/ID`), and the older replay viewer
// that history.html?table=ID still opens: it steps through a recorded game
// deal by deal and trick by trick, with all hands (finished deals only),
// with exports in the record format that `rebelote replay` reads.

import {
  $, api, currentUser, dateText, el, initPage, nav, ratingText as rating, replayHref, showError, t, tableHref,
  tn, tokenOf,
} from './common.js';
import { showCurrentGame } from '../js/banners.js';
import {
  RESULT_KEYS, SEAT_KEYS, bidLabel, cardLabel, contractLabel, presetName,
} from '../js/labels.js';
import { suitSprite } from '../js/cards.js';
import { parseContract } from '../js/model.js';

const seatLabel = (seat) => (SEAT_KEYS[seat] ? t(SEAT_KEYS[seat]) : seat);
const resultText = (result) => (RESULT_KEYS[result] ? t(RESULT_KEYS[result]) : result);
const STATUS_KEYS = {
  open: 'lobby.status.open', playing: 'lobby.status.playing', finished: 'lobby.status.finished',
  closed: 'lobby.status.closed',
};
const statusText = (s) => (STATUS_KEYS[s] ? t(STATUS_KEYS[s]) : s);
// the displayed rating (the account bar's and the leaderboard's number),
// before and after a rated match, as whole numbers
const ratingText = (r) => (r.rating_after == null ? '—'
  : `${r.rating_before == null ? '—' : rating(r.rating_before)} → ${rating(r.rating_after)}`);
// what labels.js needs to name a contract's taker: a replay has no "you",
// seats are named by their place ("Nord")
const model = { you: null, seatInfo: () => null };
const sideText = (side) => [...side].map(seatLabel).join('–');
const cardEl = (c) => el('span', { class: `card${/[HD]$/.test(c) ? ' red' : ''}`, dataset: { card: c } }, cardLabel(c));
const joined = (nodes) => nodes.flatMap((n, i) => (i ? [', ', n] : [n]));

/** A contract text ("S by N") in words: "♠ Pique par Nord". */
function contractNode(text) {
  const c = parseContract(text);
  return c && c.strain !== null ? contractLabel(model, c) : text;
}
const replay = { data: null, deal: 0, trick: 0, tableId: null };

function query(tableId, extra = {}) {
  const q = new URLSearchParams(extra);
  const token = tokenOf(tableId);
  if (token) q.set('token', token);
  return q.toString();
}

async function openReplay(tableId) {
  replay.tableId = tableId;
  replay.data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?${query(tableId)}`);
  replay.deal = 0;
  replay.trick = 0;
  $('#replay').hidden = false;
  drawReplay();
  $('#replay').scrollIntoView();
}

function drawReplay() {
  const deals = replay.data.deals;
  if (!deals.length) {
    $('#where').textContent = t('hist.noDeal');
    $('#hands').replaceChildren();
    return;
  }
  const deal = deals[replay.deal];
  const shown = replay.trick; // tricks shown so far
  $('#replay-title').textContent = t('hist.replayOf', { match: deal.match, deal: deal.deal });
  $('#where').textContent = t('hist.where', { deal: replay.deal + 1, deals: deals.length, trick: shown, tricks: deal.tricks.length });
  $('#where').dataset.trick = `${shown}/${deal.tricks.length}`;
  const bids = deal.bids.map(([s, b]) => el('span', { class: 'bid', dataset: { seat: s } }, `${seatLabel(s)} `, bidLabel(b, deal.turned, true)));
  const parts = [
    [t('hist.dealer', { seat: seatLabel(deal.dealer) })],
    deal.turned ? tn('hist.turned', { card: cardLabel(deal.turned) }) : null,
    tn('hist.bids', { bids: bids.length ? el('span', {}, ...joined(bids)) : '—' }),
    deal.contract ? tn('hist.contract', { contract: contractNode(deal.contract) }) : null,
  ].filter(Boolean);
  $('#bids').replaceChildren(...parts.flatMap((p, i) => (i ? [' · ', ...p] : p)));
  const played = new Set(deal.tricks.slice(0, shown).flatMap((t) => t.cards));
  $('#hands').replaceChildren(...Object.entries(deal.hands).map(([seat, cards]) => el('div', { class: 'seat', dataset: { hand: seat } },
    el('div', { class: 'name', text: seatLabel(seat) }),
    el('div', { class: 'cards' }, ...cards.filter((c) => !played.has(c)).map(cardEl)))));
  const trick = shown > 0 ? deal.tricks[shown - 1] : null;
  $('#replay-trick').replaceChildren(...(trick ? trick.cards.map((c, i) => el('div', { dataset: { trickSeat: trick.seats[i] } }, el('div', { text: seatLabel(trick.seats[i]) }), cardEl(c))) : []));
  $('#deal-result').textContent = shown === deal.tricks.length
    ? t('hist.result', { result: resultText(deal.result), score: Object.entries(deal.score).map(([k, v]) => `${sideText(k)} ${v}`).join(', ') })
    : trick ? t('hist.trick', { n: trick.number, seat: seatLabel(trick.winner), points: trick.points }) : '';
  const base = `/api/tables/${encodeURIComponent(replay.tableId)}/record`;
  $('#export-deal').href = `${base}?${query(replay.tableId, { match: deal.match, deal: deal.deal })}`;
  $('#export-deal').download = `rebelote-${replay.tableId}-m${deal.match}-d${deal.deal}.json`;
  $('#export-match').href = `${base}?${query(replay.tableId, { match: deal.match })}`;
  $('#export-match').download = `rebelote-${replay.tableId}-m${deal.match}.json`;
}

function step(dDeal, dTrick) {
  const deals = replay.data?.deals || [];
  if (!deals.length) return;
  if (dDeal) {
    replay.deal = Math.max(0, Math.min(deals.length - 1, replay.deal + dDeal));
    replay.trick = 0;
  } else {
    const n = deals[replay.deal].tricks.length;
    replay.trick += dTrick;
    if (replay.trick > n && replay.deal < deals.length - 1) { replay.deal += 1; replay.trick = 0; }
    if (replay.trick < 0 && replay.deal > 0) { replay.deal -= 1; replay.trick = deals[replay.deal].tricks.length; }
    replay.trick = Math.max(0, Math.min(deals[replay.deal].tricks.length, replay.trick));
  }
  drawReplay();
}

async function main() {
  await initPage();
  document.body.prepend(suitSprite());
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  $('#prev').addEventListener('click', () => step(0, -1));
  $('#next').addEventListener('click', () => step(0, 1));
  $('#prev-deal').addEventListener('click', () => step(-1, 0));
  $('#next-deal').addEventListener('click', () => step(1, 0));
  const table = new URLSearchParams(location.search).get('table');
  if (table) await openReplay(table).catch((err) => showError($('#error'), err));
  if (!user) {
    $('#error').textContent = t('hist.loginFirst');
    return;
  }
  showCurrentGame($('main')).catch(() => {});
  let history;
  try {
    history = await api('/api/me/history');
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  const cell = (label, attrs, ...children) => el('td', { 'data-label': label, ...attrs }, ...children);
  $('#running tbody').replaceChildren(...history.running.map((r) => el('tr', { dataset: { table: r.table_id, status: r.status } },
    cell(t('hist.col.table'), { text: r.room.name }),
    cell(t('lobby.col.rules'), { text: t('lobby.rulesTo', { preset: presetName(r.room.rules.preset), target: r.room.rules.target }) }),
    cell(t('hist.col.seat'), { text: t('hist.runningSeat', { status: statusText(r.status), seat: seatLabel(r.seat) }) }),
    cell('', { class: 'row-actions' },
      el('a', { class: 'btn primary', href: r.status === 'open' ? `/lobby.html?table=${encodeURIComponent(r.table_id)}` : tableHref(r.table_id), text: t('hist.open') }),
      r.status === 'playing' ? el('a', { class: 'btn ghost', href: replayHref(r.table_id), text: t('hist.finishedDeals') }) : null))));
  $('#running-empty').hidden = history.running.length > 0;
  $('#results tbody').replaceChildren(...history.results.map((r) => el('tr', { dataset: { table: r.table_id } },
    cell(t('hist.col.when'), { class: 'when', text: dateText(r.at) }),
    cell(t('hist.col.table'), { text: t('hist.tableMatch', { table: r.table_id, match: r.match }) }),
    cell(t('hist.col.seat'), { text: `${seatLabel(r.seat)} (${r.side})` }),
    cell(t('hist.col.result'), { text: r.left ? t('hist.left') : r.won ? t('hist.won') : t('hist.lost') }),
    cell(t('hist.col.rating'), { class: 'rating', text: ratingText(r) }),
    cell(t('hist.col.xp'), { text: String(r.xp) }),
    cell('', { class: 'row-actions' }, el('a', { class: 'btn ghost', href: replayHref(r.table_id), dataset: { replay: r.table_id }, text: t('hist.replayButton') })))));
  $('#results-empty').hidden = history.results.length > 0;
}

main();
