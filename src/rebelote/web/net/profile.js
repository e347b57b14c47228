// A player's profile (`profile.html?name=NAME`, GET /api/profiles/{name}):
// level and experience, the rating with its history drawn as a line chart
// (hand-written SVG: one point per rated match), what he played (counted as
// docs/profiles.md says), his trophies and coins when the server has them
// (GET /api/profiles/{name}/trophies; nothing shown while it has none), the
// tournaments he entered (GET /api/profiles/{name}/tournaments), and
// his last games, each opening its replay. The page works nothing out: every
// number is the server's.

import {
  $, api, currentUser, initPage, nav, ratingText, showError, t,
} from './common.js';
import { lang } from '../js/i18n.js';
import { h, svg } from '../js/dom.js';
import { matchPlayerNames, presetNameTo } from '../js/labels.js';
import { showCurrentGame } from '../js/banners.js';
import { kindText, pointsText, statusText } from './tournament-labels.js';

/** The statistics shown, in order, each with its label's key. */
const STATS = [
  ['games_played', 'profile.stat.games_played'],
  ['games_won', 'profile.stat.games_won'],
  ['contracts_taken', 'profile.stat.contracts_taken'],
  ['contracts_made', 'profile.stat.contracts_made'],
  ['contracts_made_pct', 'profile.stat.contracts_made_pct'],
  ['avg_points_taker', 'profile.stat.avg_points_taker'],
  ['avg_points_defender', 'profile.stat.avg_points_defender'],
  ['capots', 'profile.stat.capots'],
];

const locale = () => (lang() === 'en' ? 'en-GB' : 'fr-FR');

/** A number in the page's language (one decimal at most); "—" for none. */
function numberText(value) {
  if (value == null) return '—';
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 }).format(value);
}

/** An ISO 8601 time as a date (and time) in the page's language. */
function when(iso, withTime = true) {
  const d = new Date(iso);
  return withTime ? d.toLocaleString(locale()) : d.toLocaleDateString(locale());
}

/** The value of one statistic as shown. */
function statText(key, value) {
  if (key === 'contracts_made_pct') return value == null ? '—' : t('profile.percent', { n: numberText(value) });
  return numberText(value);
}

/** The rating history as an SVG line chart: x the rated matches in order,
 * y the rating; one circle (`.point`) per match, titled with its rating
 * and date; the lowest and highest ratings written on the left. `width`:
 * the box's, in CSS pixels. */
function ratingChart(points, width) {
  // drawn at the box's own width, so that its labels keep their size
  const W = Math.max(280, Math.round(width || 640));
  const H = W < 560 ? 200 : 260;
  const left = 52;
  const right = 14;
  const top = 14;
  const bottom = 20;
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const x = (i) => (points.length === 1 ? (left + W - right) / 2 : left + (i * (W - left - right)) / (points.length - 1));
  const y = (r) => top + ((hi - r) * (H - top - bottom)) / (hi - lo);
  const coords = points.map((p, i) => [x(i), y(p.rating)].map((v) => Math.round(v * 10) / 10));
  const first = ratings[0];
  const last = ratings[ratings.length - 1];
  const label = t('profile.chartLabel', { n: points.length, first: ratingText(first), last: ratingText(last) });
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' },
    svg('title', { text: label }),
    ...[hi, lo].map((r) => svg('g', { class: 'grid' },
      svg('line', { x1: left, x2: W - right, y1: y(r), y2: y(r) }),
      svg('text', { x: left - 6, y: y(r) + 4, 'text-anchor': 'end', text: ratingText(r) }))),
    svg('polyline', { class: 'line', points: coords.map((c) => c.join(',')).join(' ') }),
    ...points.map((p, i) => svg('circle', {
      class: 'point', cx: coords[i][0], cy: coords[i][1], r: 4, 'data-rating': p.rating, 'data-table': p.table,
    }, svg('title', { text: t('profile.pointTitle', { rating: ratingText(p.rating), when: when(p.at, false) }) }))));
}

/** One of the last games: when, the rules, the players by seat, the score
 * (his side's first), won or lost, and a link to its replay. */
function gameItem(g) {
  return h('li', { class: 'game', 'data-table': g.table, 'data-won': String(g.won) },
    h('span', { class: 'when', text: when(g.finished_at) }),
    h('span', { class: 'rules', text: presetNameTo(g.preset, g.target) }),
    h('span', { class: 'players', text: matchPlayerNames(g.players).join(' · ') }),
    h('span', { class: 'score', text: t('profile.score', { us: g.score[0], them: g.score[1] }) }),
    h('span', { class: `badge result ${g.won ? 'won' : 'lost'}`, text: g.won ? t('hist.won') : t('hist.lost') }),
    h('a', { class: 'btn ghost replay', href: g.replay, text: t('hist.replayButton') }));
}

/** Trophies and coins, when the server keeps them (another part of the
 * server; until it answers, the section stays hidden). */
async function showTrophies(name) {
  let data;
  try {
    data = await api(`/api/profiles/${encodeURIComponent(name)}/trophies?lang=${lang()}`);
  } catch {
    return; // none yet (404), or not now: nothing to show
  }
  if (!data || !Array.isArray(data.trophies)) return;
  $('#trophies').replaceChildren(
    h('p', { class: 'coins', 'data-coins': String(data.coins ?? 0), text: t('profile.coins', { n: numberText(data.coins ?? 0) }) }),
    data.trophies.length
      ? h('ul', { class: 'trophy-list' }, ...data.trophies.map((tr) => h('li', { 'data-trophy': tr.id },
        h('span', { class: 'title', text: tr.title }),
        tr.earned_at ? h('span', { class: 'when', text: ` · ${when(tr.earned_at, false)}` }) : null)))
      : h('p', { class: 'note', text: t('profile.noTrophies') }));
  $('#trophies-panel').hidden = false;
}

/** The tournaments the account entered (GET /api/profiles/{name}/tournaments),
 * each linking to its page; the section stays hidden while there is none. */
async function showTournaments(name) {
  let list;
  try {
    list = await api(`/api/profiles/${encodeURIComponent(name)}/tournaments`);
  } catch {
    return;
  }
  if (!Array.isArray(list) || list.length === 0) return;
  $('#tournaments').replaceChildren(...list.map((x) => h('li', { class: 'game', 'data-tournament': String(x.id) },
    h('a', { class: 'name', href: `/tournament.html?id=${x.id}`, text: x.name }),
    h('span', { class: 'when', text: `${kindText(x.kind)} · ${when(x.starts_at, false)}` }),
    h('span', { class: 'status', text: statusText(x.status) }),
    x.rank == null ? null : h('span', {
      class: 'score',
      text: t('profile.tourResult', { rank: x.rank, entrants: x.entrants, points: pointsText(x.points), played: x.played }),
    }))));
  $('#tournaments-panel').hidden = false;
}

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (user) showCurrentGame($('main')).catch(() => {});
  const name = new URLSearchParams(location.search).get('name');
  if (!name) {
    $('#error').textContent = t('profile.noName');
    return;
  }
  let p;
  try {
    p = await api(`/api/profiles/${encodeURIComponent(name)}`);
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  document.title = `rebelote · ${p.name}`;
  $('[data-stat="name"]').textContent = p.name;
  $('[data-stat="level"]').textContent = numberText(p.level);
  $('[data-stat="xp"]').textContent = numberText(p.xp);
  $('[data-stat="rating"]').textContent = ratingText(p.rating);
  $('#stats').replaceChildren(...STATS.map(([key, label]) => h('div', { class: 'stat' },
    h('dt', { text: t(label) }),
    h('dd', { 'data-stat': key, text: statText(key, p[key]) }))));
  const history = p.rating_history;
  $('#profile').hidden = false;
  const chart = $('#rating-chart');
  chart.replaceChildren(history.length ? ratingChart(history, chart.clientWidth) : h('p', { class: 'note', text: t('profile.noRating') }));
  $('#last-games').replaceChildren(...p.last_games.map(gameItem));
  $('#no-games').hidden = p.last_games.length > 0;
  await Promise.all([showTrophies(p.name), showTournaments(p.name)]);
}

main();
