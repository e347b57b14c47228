// Banners every page may show (styles: css/banners.css, added to the page
// when it does not link it):
//
// - the offline banner, `#offline-banner` ("connexion perdue —
//   reconnexion…"), `hidden` while every socket of the page is open:
//   `connectionStatus(name, status)` from each socket's onStatus;
// - "partie en cours — reprendre", `#current-game`, a link to the table
//   where the player has a match running (`/#/table/ID`), or to the
//   waiting room where he holds a seat: `showCurrentGame(parent)`.

import { t } from './i18n.js';
import { api } from './api.js';
import { tableName } from './labels.js';

const STYLESHEET = '/css/banners.css';

function ensureStyles() {
  if (document.querySelector(`link[href$="css/banners.css"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  document.head.append(link);
}

// ---------------------------------------------------------------- offline

const down = new Set(); // the names of the sockets reconnecting now

/** The offline banner (created, hidden, at the top of the page). */
export function offlineBanner() {
  let banner = document.getElementById('offline-banner');
  if (!banner) {
    ensureStyles();
    banner = document.createElement('div');
    banner.id = 'offline-banner';
    banner.className = 'offline-banner';
    banner.setAttribute('role', 'status');
    banner.setAttribute('aria-live', 'polite');
    banner.hidden = true;
    document.body.prepend(banner);
  }
  return banner;
}

/**
 * Tell the banner how socket `name` is: "reconnecting" shows it; "open",
 * "closed" and "fatal" (given up: the page says why) take that socket off
 * it; it hides once no socket reconnects.
 */
export function connectionStatus(name, status) {
  if (status === 'reconnecting') down.add(name);
  else if (status !== 'connecting') down.delete(name);
  const banner = offlineBanner();
  banner.textContent = t('conn.lost');
  banner.hidden = down.size === 0;
  document.documentElement.dataset.offline = String(down.size > 0);
}

// ----------------------------------------------------------- current game

/**
 * The "game in progress" banner inside `parent` (default: the top of the
 * page), from `GET /api/me/current` (the cookie's table: a solo match) and
 * `GET /api/me/history` (the lobby tables where a logged-in player or guest
 * sits): a table
 * playing first, else a waiting room. `except`: a table id not to name
 * (the page is already there). Resolves to the table named, or null.
 */
export async function showCurrentGame(parent, { except = null } = {}) {
  const [current, me] = await Promise.all([
    api('/api/me/current').catch(() => ({ current: null })),
    api('/api/me').catch(() => null),
  ]);
  // the history is a logged-in player's (asked only then: no 401 to log)
  const history = me?.user ? await api('/api/me/history').catch(() => null) : null;
  const running = (history?.running || []).filter((r) => r.table_id !== except);
  const playing = running.find((r) => r.status === 'playing');
  const waiting = running.find((r) => r.status === 'open');
  let target = null;
  if (playing) target = { id: playing.table_id, href: `/#/table/${encodeURIComponent(playing.table_id)}`, kind: 'playing', name: tableName(playing.room) };
  else if (current.current && current.current.table_id !== except) {
    // the cookie's table: a solo match against the computer
    target = { id: current.current.table_id, href: `/#/table/${encodeURIComponent(current.current.table_id)}`, kind: 'playing', name: '', solo: true };
  } else if (waiting) target = { id: waiting.table_id, href: `/lobby.html?table=${encodeURIComponent(waiting.table_id)}`, kind: 'waiting', name: tableName(waiting.room) };
  let box = document.getElementById('current-game');
  if (!target) {
    if (box) box.hidden = true;
    return null;
  }
  if (!box) {
    ensureStyles();
    box = document.createElement('div');
    box.id = 'current-game';
    box.className = 'current-game';
    box.setAttribute('role', 'status');
    if (parent) parent.prepend(box);
    else document.body.prepend(box);
  }
  const text = document.createElement('span');
  text.className = 'current-text';
  if (target.solo) text.textContent = t('current.playingSolo');
  else text.textContent = target.kind === 'playing' ? t('current.playing') : t('current.waiting');
  if (target.name) {
    const name = document.createElement('b');
    name.textContent = ` ${target.name}`; // a table's name: text, never HTML
    text.append(name);
  }
  const link = document.createElement('a');
  link.href = target.href;
  link.className = 'btn primary';
  link.dataset.currentTable = target.id;
  link.textContent = target.kind === 'playing' ? t('current.resume') : t('current.back');
  box.dataset.kind = target.kind;
  box.replaceChildren(text, link);
  box.hidden = false;
  return target.id;
}
