// The expert's analysis of a finished match, in the replay (issue 16): the
// dialog `#analysis`, opened by `[data-action="analysis"]`.  The server
// makes it in the background (`GET /api/tables/{id}/analysis`): the page
// asks again every second while it runs (a progress bar, deal by deal),
// then shows the deal being replayed: who sat where, each bid beside the
// expert's, and each card with its double-dummy value before and after it
// and what it cost against best play (every hand known: the game is
// over), the biggest mistakes first.  The numbers are the server's.
//
// Test hooks: `#analysis[data-status]` (`running`, `done`, `failed`,
// `refused`), `#analysis progress`, `#analysis [data-analysis-deal]`,
// `tr[data-card][data-seat][data-cost][data-before][data-after]` per card,
// `tr[data-bid][data-expert][data-same]` per bid; `#replay-help` (the help
// used in the replayed deal).

import { api, errorText } from './api.js';
import { t } from './i18n.js';
import { actionLabel, cardLabel, seatName, SEAT_KEYS } from './labels.js';
import { h } from './render.js';

const TOKENS_KEY = 'rebelote.tables';
const POLL_MS = 1000;

const $ = (sel) => document.querySelector(sel);

const view = {
  key: null, // "table/match" of the analysis shown or asked
  answer: null, // the server's last answer
  error: null, // a refusal (ApiError)
  timer: null,
};

function token(tableId) {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY))?.[tableId] || null;
  } catch {
    return null;
  }
}

/** The deal the replay shows now ({match, deal, turned}), or null. */
function replayed(app) {
  const r = app.replay;
  return r?.data.deals[r.index] || null;
}

/** Open the analysis of the replayed deal's match (asked of the server,
 * then asked again until it is made). */
export function openAnalysis(app) {
  const d = replayed(app);
  const dialog = $('#analysis');
  if (!d || !dialog) return;
  const key = `${app.replay.tableId}/${d.match}`;
  if (view.key !== key) {
    clearTimeout(view.timer);
    view.key = key;
    view.answer = null;
    view.error = null;
  }
  if (!dialog.open) dialog.showModal();
  drawAnalysis(app);
  if (!view.answer || view.answer.status !== 'done') fetchAnalysis(app, key);
}

async function fetchAnalysis(app, key) {
  clearTimeout(view.timer);
  const [tableId, match] = key.split('/');
  const q = new URLSearchParams({ match });
  const tok = token(tableId);
  if (tok) q.set('token', tok);
  try {
    const answer = await api(`api/tables/${encodeURIComponent(tableId)}/analysis?${q}`);
    if (view.key !== key) return;
    view.answer = answer;
    view.error = null;
  } catch (err) {
    if (view.key !== key) return;
    view.error = err;
  }
  drawAnalysis(app);
  const dialog = $('#analysis');
  if (dialog?.open && view.answer?.status === 'running' && !view.error) {
    view.timer = setTimeout(() => fetchAnalysis(app, key), POLL_MS);
  }
}

/** Stop asking (the dialog closed, the page moved on). */
export function closeAnalysis() {
  clearTimeout(view.timer);
  view.timer = null;
}

/** A signed number, with the same minus sign (U+2212) as the costs. */
function num(value) {
  return value > 0 ? `+${value}` : value < 0 ? `\u2212${-value}` : '0';
}

/** Draw the dialog for the replayed deal. */
export function drawAnalysis(app) {
  const dialog = $('#analysis');
  const body = $('#analysis-body');
  if (!dialog || !body || !dialog.open) return;
  const d = replayed(app);
  const answer = view.answer;
  if (view.error) {
    dialog.dataset.status = 'refused';
    body.replaceChildren(h('p', { class: 'analysis-error', role: 'alert', text: view.error.code === 'not_finished' ? t('analysis.notFinished') : errorText(view.error) }));
    return;
  }
  if (!answer || !d) {
    dialog.dataset.status = 'asking';
    body.replaceChildren(h('p', { text: t('analysis.asking') }));
    return;
  }
  dialog.dataset.status = answer.status;
  $('#analysis-title').textContent = t('analysis.titleMatch', { match: answer.match });
  if (answer.status === 'running') {
    body.replaceChildren(h('div', { class: 'analysis-progress' },
      h('progress', { max: String(Math.max(1, answer.total)), value: String(answer.done), 'aria-label': t('analysis.progressLabel') }),
      h('span', { text: t('analysis.progress', { done: answer.done, total: answer.total }) })));
    return;
  }
  if (answer.status !== 'done') {
    body.replaceChildren(h('p', { role: 'alert', text: t('analysis.failed') }));
    return;
  }
  const found = answer.analysis.deals.find((x) => x.deal === d.deal && x.match === d.match);
  if (!found) {
    body.replaceChildren(h('p', { text: t('analysis.noDeal') }));
    return;
  }
  body.replaceChildren(...dealParts(app, found, d));
}

function dealParts(app, a, d) {
  // the replay's model names the seats as they were in this deal
  const who = (seat) => seatName(app.model, seat);
  const parts = [];
  parts.push(h('h3', { 'data-analysis-deal': String(a.deal), text: t('analysis.deal', { deal: a.deal }) }));
  // each seat and who sat there ("Sud : Ada"; a computer's name says its seat)
  const player = (seat) => {
    const label = t(SEAT_KEYS[seat]);
    const named = who(seat);
    return named.startsWith(label) ? [named] : [h('b', { text: `${label} :` }), ' ', named];
  };
  parts.push(h('p', { class: 'analysis-players' },
    ...(a.seats || []).flatMap((s, i) => [i ? ' · ' : '', h('span', { 'data-seat': s.seat }, ...player(s.seat))])));
  if (a.help && (a.help.hints || a.help.takebacks)) {
    parts.push(h('p', { class: 'analysis-help', text: t('assist.used', a.help) }));
  }
  if (a.bids?.length) {
    parts.push(h('h4', { text: t('analysis.bids') }));
    parts.push(h('div', { class: 'table-wrap' }, h('table', { class: 'analysis-bids' },
      h('thead', {}, h('tr', {}, h('th', { class: 'num', text: t('analysis.col.round') }), h('th', { text: t('analysis.col.player') }), h('th', { text: t('analysis.col.bid') }), h('th', { text: t('analysis.col.expertBid') }))),
      // the round of each bid: the replay's (one bid of the deal per line, in order)
      h('tbody', {}, ...a.bids.map((b, i) => h('tr', { 'data-bid': b.bid, 'data-expert': b.expert, 'data-same': String(b.same), 'data-seat': b.seat, 'data-round': String(d.bid_rounds?.[i] ?? '') },
        h('td', { class: 'num', text: d.bid_rounds?.[i] ? String(d.bid_rounds[i]) : '' }),
        h('td', { text: who(b.seat) }),
        h('td', {}, actionLabel(b.bid, d.turned)),
        h('td', { class: 'expert' }, b.same ? t('analysis.same') : actionLabel(b.expert, d.turned))))))));
  }
  if (a.cards.length) {
    const order = [...a.mistakes, ...a.cards.map((_, i) => i).filter((i) => !a.mistakes.includes(i))];
    parts.push(h('h4', { text: t('analysis.cards') }));
    parts.push(h('p', { class: 'analysis-cost' }, t('analysis.costs'), ' ',
      ...Object.entries(a.cost).flatMap(([side, cost], i) => [i ? ', ' : '', h('span', { 'data-side-cost': side, text: `${[...side].map((s) => t(SEAT_KEYS[s])).join('–')} ${cost}` })])));
    parts.push(h('div', { class: 'table-wrap' }, h('table', { class: 'analysis-cards' },
      h('thead', {}, h('tr', {},
        h('th', { class: 'num', text: t('analysis.col.trick') }), h('th', { text: t('analysis.col.player') }), h('th', { text: t('analysis.col.card') }),
        h('th', { class: 'num', text: t('analysis.col.cost') }),
        h('th', { class: 'num wide', text: t('analysis.col.before') }), h('th', { class: 'num wide', text: t('analysis.col.after') }),
        h('th', { class: 'num narrow', text: t('analysis.col.beforeAfter') }),
        h('th', { class: 'wide', text: t('analysis.col.best') }))),
      h('tbody', {}, ...order.map((i) => {
        const c = a.cards[i];
        return h('tr', {
          class: c.cost > 0 ? 'mistake' : null, 'data-card': c.card, 'data-seat': c.seat, 'data-trick': String(c.trick),
          'data-cost': String(c.cost), 'data-before': String(c.before), 'data-after': String(c.after),
        },
        h('td', { class: 'num', text: String(c.trick) }),
        h('td', { text: who(c.seat) }),
        h('td', {}, cardLabel(c.card),
          // on a narrow screen the best cards go under the card played
          ...(c.cost ? [h('span', { class: 'best-under narrow' }, t('analysis.col.best'), ' ', ...c.best.flatMap((b, k) => [k ? ' ' : '', cardLabel(b)]))] : [])),
        h('td', { class: 'num cost', text: c.cost ? num(-c.cost) : '0' }),
        h('td', { class: 'num wide', text: num(c.before) }),
        h('td', { class: 'num wide', text: num(c.after) }),
        h('td', { class: 'num narrow', text: `${num(c.before)} \u2192 ${num(c.after)}` }),
        h('td', { class: 'wide' }, ...(c.cost ? c.best.flatMap((b, k) => [k ? ' ' : '', cardLabel(b)]) : [])));
      })))));
    parts.push(h('p', { class: 'analysis-note', text: t('analysis.note') }));
  }
  return parts;
}

/** The replay's line on the help used in the deal it shows. */
export function drawReplayHelp(app) {
  const el = $('#replay-help');
  if (!el) return;
  const help = replayed(app)?.help;
  el.hidden = !help || (!help.hints && !help.takebacks);
  el.dataset.hints = String(help?.hints ?? 0);
  el.dataset.takebacks = String(help?.takebacks ?? 0);
  el.textContent = el.hidden ? '' : t('assist.usedDeal', help);
}
