// My games: running tables (a match goes on at the main table,
// `/#/table/ID`; a waiting room in the lobby) and finished matches, whose
// replay (and record downloads) is the main table's, `/#/replay/ID`.  An
// old link to the replay viewer this page once held,
// `history.html?table=ID`, leads to `/#/replay/ID` (the page is replaced
// in the history, so "back" does not come here again).

import {
  $, api, currentUser, dateText, el, initPage, nav, profileHref, ratingText as rating, replayHref, showError, t, tableHref,
} from './common.js';
import { showCurrentGame } from '../js/banners.js';
import { SEAT_KEYS, presetName, tableName } from '../js/labels.js';

const seatLabel = (seat) => (SEAT_KEYS[seat] ? t(SEAT_KEYS[seat]) : seat);
const STATUS_KEYS = {
  open: 'lobby.status.open', playing: 'lobby.status.playing', finished: 'lobby.status.finished',
  closed: 'lobby.status.closed',
};
const statusText = (s) => (STATUS_KEYS[s] ? t(STATUS_KEYS[s]) : s);
// the displayed rating (the account bar's and the leaderboard's number),
// before and after a rated match, as whole numbers
const ratingText = (r) => (r.rating_after == null ? '—'
  : `${r.rating_before == null ? '—' : rating(r.rating_before)} → ${rating(r.rating_after)}`);
// why a match changed no rating (`unrated_reason`), in words
const UNRATED_KEYS = {
  friendly: 'hist.unrated.friendly', left: 'hist.unrated.left', standins: 'hist.unrated.standins',
  bots: 'hist.unrated.bots',
};
const unratedText = (r) => (!r.ranked && UNRATED_KEYS[r.unrated_reason] ? t(UNRATED_KEYS[r.unrated_reason]) : null);

/** An old replay link (`?table=ID`): to the main table's replay. True when
 * the page goes there. */
function oldReplayLink() {
  const table = new URLSearchParams(location.search).get('table');
  if (!table || !/^[\w-]{1,32}$/.test(table)) return false;
  location.replace(replayHref(table));
  return true;
}

async function main() {
  if (oldReplayLink()) return;
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (!user) {
    $('#error').textContent = t('hist.loginFirst');
    return;
  }
  showCurrentGame($('main')).catch(() => {});
  if (!user.guest) {
    $('#my-profile').href = profileHref(user.name);
    $('#my-profile-line').hidden = false;
  }
  let history;
  try {
    history = await api('/api/me/history');
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  const cell = (label, attrs, ...children) => el('td', { 'data-label': label, ...attrs }, ...children);
  $('#running tbody').replaceChildren(...history.running.map((r) => el('tr', { dataset: { table: r.table_id, status: r.status } },
    cell(t('hist.col.table'), { text: tableName(r.room) }),
    cell(t('lobby.col.rules'), { text: t('lobby.rulesTo', { preset: presetName(r.room.rules), target: r.room.rules.target }) }),
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
    cell(t('hist.col.rating'), { class: 'rating', dataset: unratedText(r) ? { unrated: r.unrated_reason } : {}, text: unratedText(r) || ratingText(r) }),
    cell(t('hist.col.xp'), { text: String(r.xp) }),
    cell('', { class: 'row-actions' }, el('a', { class: 'btn ghost', href: replayHref(r.table_id), dataset: { replay: r.table_id }, text: t('hist.replayButton') })))));
  $('#results-empty').hidden = history.results.length > 0;
}

main();
