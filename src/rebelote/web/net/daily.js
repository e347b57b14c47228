// The daily deal (docs/daily.md): today's set, the start / resume button,
// the day's standings and each deal's results. The server decides what
// may be shown (a deal's rows only to those who finished it, or once the
// day is over); this page renders what it gets.

import {
  $, api, currentUser, el, initPage, nav, showError, t,
} from './common.js';
import { strainLabel } from '../js/labels.js';
import { suitSprite } from '../js/cards.js';

const TOKENS_KEY = 'rebelote.tables'; // the table page's seat tokens (js/app.js)

const SEATS = { N: 'daily.seat.N', W: 'daily.seat.W', S: 'daily.seat.S', E: 'daily.seat.E' };

/** Forget this browser's token of `tableId`: the start gave a fresh one,
 * in the cookie the table page reads through /api/me/current. */
function forgetToken(tableId) {
  try {
    const tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}');
    delete tokens[tableId];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  } catch { /* storage unavailable */ }
}

function percentText(value) {
  return t('daily.percent', { value: Number(value).toFixed(2) });
}

function renderStandings(standings) {
  $('#daily-standings').replaceChildren(...standings.map((s) => el('li', { dataset: { rank: String(s.rank) } },
    el('span', { class: 'rank', text: t('daily.rank', { rank: s.rank }) }), ' ',
    el('span', { class: 'name', text: s.name }), ' ',
    el('span', { class: 'percent', text: percentText(s.percent) }))));
  $('#daily-no-standings').hidden = standings.length > 0;
}

/** Who took what: the trump (its symbol and name, from the table's
 * labels) or the contract's words, and the taker's seat. */
function contractCell(label, row) {
  const td = el('td', { 'data-label': label });
  if (row.contract == null) {
    td.textContent = t('daily.passed');
    return td;
  }
  const what = /^(S|H|D|C|SA|TA)$/.test(row.contract) ? strainLabel(row.contract) : row.contract;
  td.append(what, ' ', t('daily.by', { taker: t(SEATS[row.taker]) }));
  return td;
}

/** One deal's results; `over`: its day is over (every deal is shown:
 * no rows means nobody played it). */
function renderDeal(deal, over) {
  const title = el('h3', { text: t('daily.deal', { n: deal.deal + 1 }) });
  if (!deal.rows.length) {
    return el('section', { class: 'daily-deal', dataset: { deal: String(deal.deal), hidden: String(!over) } },
      title, el('p', { class: 'note', text: t(over ? 'daily.nobody' : 'daily.hiddenDeal') }));
  }
  const cell = (label, text) => el('td', { 'data-label': label, text });
  const table = el('table', { class: 'list' },
    el('thead', {}, el('tr', {},
      el('th', { text: t('daily.col.player') }),
      el('th', { text: t('daily.col.contract') }),
      el('th', { text: t('daily.col.score') }),
      el('th', { text: t('daily.col.matchpoints') }),
      el('th', { text: t('daily.col.percent') }))),
    el('tbody', {}, ...deal.rows.map((r) => el('tr', {},
      cell(t('daily.col.player'), r.name),
      contractCell(t('daily.col.contract'), r),
      cell(t('daily.col.score'), String(r.score)),
      cell(t('daily.col.matchpoints'), String(r.matchpoints)),
      cell(t('daily.col.percent'), percentText(r.percent))))));
  const par = el('p', { class: 'par', text: deal.par == null ? t('daily.noPar') : t('daily.par', { par: deal.par }) });
  // what everyone got, whoever took: the first cards of each seat and the
  // turned card (the rest of the pack goes by the taker, table by table)
  const hands = deal.hands
    ? el('div', { class: 'dealt' },
      el('p', { class: 'note', text: t('daily.dealt') }),
      el('ul', { class: 'hands' },
        ...Object.entries(deal.hands).map(([seat, cards]) => el('li', {
          dataset: { seat }, text: t('daily.hand', { seat: t(SEATS[seat]), cards: cards.join(' ') }),
        })),
        deal.turned ? el('li', { dataset: { turned: deal.turned }, text: t('daily.turned', { card: deal.turned }) }) : null))
    : null;
  return el('section', { class: 'daily-deal', dataset: { deal: String(deal.deal) } }, title, table, par, hands);
}

async function main() {
  await initPage();
  document.body.append(suitSprite()); // the suits drawn by the contracts' labels
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  let daily;
  let results;
  // ?date=YYYY-MM-DD: the results of another day (the server refuses a
  // bad or future one: bad_date)
  const asked = new URLSearchParams(location.search).get('date');
  try {
    daily = await api('/api/daily');
    results = await api(`/api/daily/${encodeURIComponent(asked || daily.date)}/results`);
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  $('#daily-day').textContent = t('daily.day', { date: results.date });
  const yesterday = new Date(`${results.date}T12:00:00Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  const links = [el('a', { href: `/daily.html?date=${yesterday.toISOString().slice(0, 10)}`, 'data-action': 'daily-previous', text: t('daily.previous') })];
  if (results.date !== daily.date) links.push(' · ', el('a', { href: '/daily.html', 'data-action': 'daily-today', text: t('daily.today') }));
  $('#daily-days').replaceChildren(...links);
  $('#daily-info').textContent = t('daily.info', { date: daily.date, played: daily.played.length, deals: daily.deals });
  const button = $('[data-action="daily-start"]');
  const account = user && !user.guest;
  $('#daily-login').hidden = Boolean(account);
  button.hidden = !account;
  const setDone = Boolean(daily.table) && daily.played.length >= daily.deals;
  let label = 'daily.start';
  if (daily.table) label = setDone ? 'daily.see' : 'daily.resume';
  button.textContent = t(label);
  button.addEventListener('click', async () => {
    if (setDone) {
      // the set is over: its deals in the replay, every hand shown
      location.href = `/#/replay/${encodeURIComponent(daily.table)}`;
      return;
    }
    button.disabled = true;
    try {
      const started = await api('/api/daily/start', { method: 'POST' });
      forgetToken(started.table);
      location.href = `/#/table/${encodeURIComponent(started.table)}`;
    } catch (err) {
      showError($('#error'), err);
      button.disabled = false;
    }
  });
  renderStandings(results.standings);
  const dayOver = results.date < daily.date;
  $('#daily-results').replaceChildren(...results.deals.map((d) => renderDeal(d, dayOver)));
  document.body.dataset.ready = 'daily';
}

main();
