// One tournament (tournament.html?id=N): its standings and its tables,
// pushed live (`/ws/tournament/N`: the whole view at each change, from
// whichever server process made it), a link to each table (to play at
// one's own, to watch the others), and joining or withdrawing before the
// start.  The server decides everything (pairing, scores, who may join):
// the page only shows its answers.

import {
  $, api, currentUser, dateText, initPage, nav, showError, t, tableHref, watchHref,
} from './common.js';
import { h } from '../js/dom.js';
import { Socket } from '../js/net.js';
import { connectionStatus, showCurrentGame } from '../js/banners.js';
import { kindText, lengthText, pointsText, statusText } from './tournament-labels.js';

const params = new URLSearchParams(location.search);
const id = /^\d{1,9}$/.test(params.get('id') || '') ? params.get('id') : null;
let user = null;
let view = null;

const entered = () => Boolean(user && view && view.entrants.includes(user.name));

function seatText(name) {
  return name == null ? t('tour.computer') : name;
}

function pairing(table) {
  const [n, w, s, e] = table.seats;
  const text = t('tour.tableLine', {
    round: table.round,
    number: table.number,
    ns: `${seatText(n)} & ${seatText(s)}`,
    we: `${seatText(w)} & ${seatText(e)}`,
  });
  let state = t('tour.playing');
  if (table.done) state = table.winner === 0 ? t('tour.wonNS') : table.winner === 1 ? t('tour.wonWE') : t('tour.noResult');
  const mine = Boolean(user && table.seats.includes(user.name));
  const attrs = { class: 'pairing', 'data-round': String(table.round), 'data-number': String(table.number) };
  if (!table.table) return h('li', attrs, text, ' · ', t('tour.opening'));
  return h('li', attrs,
    h('a', {
      'data-table': table.table,
      href: mine && !table.done ? tableHref(table.table) : watchHref(table.table),
      text,
    }),
    ' · ', state,
    mine && !table.done ? h('span', { class: 'badge', text: t('tour.yourTable') }) : null);
}

function render(v) {
  view = v;
  $('#tournament').dataset.status = v.status;
  $('#t-name').textContent = v.name;
  document.title = `rebelote · ${v.name}`;
  $('#t-info').textContent = [
    kindText(v.kind),
    lengthText(v),
    t('tour.startsAt', { when: dateText(Date.parse(v.starts_at) / 1000) }),
    t('tour.entrants', { n: v.entrants.length }),
  ].join(' · ');
  let status = statusText(v.status);
  if (v.status === 'running' && v.kind === 'swiss') status += ` · ${t('tour.round', { round: v.round, rounds: v.rounds })}`;
  if (v.status === 'running' && v.kind === 'arena' && v.ends_at) {
    status += ` · ${t('tour.endsAt', { when: dateText(Date.parse(v.ends_at) / 1000) })}`;
  }
  $('#t-status').textContent = status;
  const open = v.status === 'open';
  const account = Boolean(user && !user.guest);
  $('[data-action="join"]').hidden = !(open && account && !entered());
  $('[data-action="leave"]').hidden = !(open && account && entered());
  let note = '';
  if (open && !account) note = t('tour.loginFirst');
  else if (entered() && v.status !== 'finished' && v.status !== 'cancelled') note = t('tour.joined');
  $('#t-note').textContent = note;
  $('#standings').replaceChildren(...v.standings.map((s) => h('li', {
    'data-name': s.name, 'data-rank': String(s.rank), 'data-points': String(s.points),
  }, t('tour.standingLine', {
    rank: s.rank, name: s.name, points: pointsText(s.points), played: s.played, tiebreak: s.tiebreak,
  }))));
  const tables = [...v.tables].sort((a, b) => b.round - a.round || a.number - b.number);
  $('#pairings').replaceChildren(...tables.map(pairing));
  $('#pairings-empty').hidden = tables.length > 0;
  $('#byes').replaceChildren(...v.byes.map((b) => h('li', { 'data-bye': b.name }, t('tour.bye', { name: b.name, round: b.round }))));
}

async function change(action) {
  $('#error').textContent = '';
  try {
    render(await api(`/api/tournaments/${id}/${action}`, { method: 'POST' }));
  } catch (err) {
    showError($('#error'), err);
  }
}

async function main() {
  await initPage();
  user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (user) showCurrentGame($('main')).catch(() => {});
  if (!id) {
    showError($('#error'), 'tournament_not_found');
    return;
  }
  $('[data-action="join"]').addEventListener('click', () => change('join'));
  $('[data-action="leave"]').addEventListener('click', () => change('leave'));
  try {
    render(await api(`/api/tournaments/${id}`));
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  const socket = new Socket({
    path: () => `/ws/tournament/${id}`,
    onMessage: (msg) => {
      if (msg.t === 'tournament' && msg.d && msg.d.id === Number(id)) render(msg.d);
    },
    onStatus: (status) => connectionStatus('tournament', status),
    fatal: new Set([4404]),
  });
  socket.connect();
}

main();
