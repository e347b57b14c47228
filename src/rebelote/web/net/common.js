// Shared by the network play pages (lobby, table, history, leaderboard):
// REST calls with the CSRF header, the current user, small DOM helpers.
// Text from players is always set with textContent, never as HTML.
// Labels come from the table's catalogs (js/i18n.js: French by default, the
// language the player chose on the table or here is kept for every page).

import { lang, preferredLang, setLang, t } from '../js/i18n.js';
import { playerLabel } from '../js/labels.js';

export { t };

/** A rating as every page shows it: one decimal ("-4.4"). */
export function ratingText(rating) {
  return Number(rating).toFixed(1);
}

/** A date and time (Unix seconds) in the page's language. */
export function dateText(at) {
  return new Date(at * 1000).toLocaleString(lang() === 'en' ? 'en-GB' : 'fr-FR');
}

/** A label with placeholders filled by text or by DOM nodes (cards, bids):
 * the parts to append. */
export function tn(key, params) {
  const marks = {};
  for (const k of Object.keys(params)) marks[k] = `\u0001${k}\u0001`;
  return t(key, marks).split('\u0001').map((part, i) => {
    if (i % 2 === 0) return part;
    const v = params[part];
    return v instanceof Node ? v : String(v);
  });
}

/** Load the labels in the player's language and fill the page's data-i18n. */
export async function initPage() {
  await setLang(preferredLang()).catch(() => setLang('fr'));
}

export const TOKENS_KEY = 'rebelote.tables'; // the table page reads seat tokens here too

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);

function cookie(name) {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A JSON call; POSTs carry the CSRF token. Throws ApiError. */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    const csrf = cookie('rebelote_csrf');
    if (csrf) headers['X-CSRF-Token'] = csrf;
  }
  const r = await fetch(path, {
    method,
    headers,
    body: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const detail = data && data.detail;
    if (detail && detail.code) throw new ApiError(r.status, detail.code, detail.message);
    const text = Array.isArray(detail) ? detail.map((d) => d.msg).join('; ') : r.statusText;
    throw new ApiError(r.status, 'bad_request', text);
  }
  return data;
}

export async function currentUser() {
  const me = await api('/api/me');
  return me.user;
}

const SEATS_KEY = 'rebelote.netseats';

function remember(key, tableId, value) {
  let values = {};
  try {
    values = JSON.parse(localStorage.getItem(key) || '{}');
  } catch { /* ignore */ }
  values[tableId] = value;
  try {
    localStorage.setItem(key, JSON.stringify(values));
  } catch { /* storage unavailable */ }
}

/** Keep a seat's token (and which seat it is) for the table pages. */
export function rememberToken(tableId, token, seat) {
  remember(TOKENS_KEY, tableId, token);
  if (seat) remember(SEATS_KEY, tableId, seat);
}

/** The seat this browser holds at a table, if any. */
export function seatOf(tableId) {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}')[tableId] || null;
  } catch {
    return null;
  }
}

export function tokenOf(tableId) {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}')[tableId] || null;
  } catch {
    return null;
  }
}

/** The seat the logged-in player (or guest) holds at a running or open
 * table, from his history; null when he holds none (or is not logged in). */
export async function heldSeat(tableId) {
  try {
    const history = await api('/api/me/history');
    const row = history.running.find((r) => r.table_id === tableId);
    return row ? row.seat : null;
  } catch {
    return null;
  }
}

/** A fresh seat token from the server for the seat the player holds
 * (`POST /api/lobby/tables/{id}/token`: coming back from another browser or
 * device; the old token stops working), kept for the table pages; null when
 * he holds no seat there. */
export async function fetchToken(tableId) {
  try {
    const seatToken = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}/token`, { method: 'POST' });
    rememberToken(tableId, seatToken.token, seatToken.seat);
    return seatToken;
  } catch {
    return null;
  }
}

/** The seat token for a table: the one kept in this browser, or (a player
 * who holds a seat there, per his history) a fresh one from the server. */
export async function recoverToken(tableId) {
  const kept = tokenOf(tableId);
  if (kept) return kept;
  if (!(await heldSeat(tableId))) return null;
  const seatToken = await fetchToken(tableId);
  return seatToken ? seatToken.token : null;
}

/** A player's name as the pages show it (labels.playerLabel): " (invité)"
 * for a guest, " (ordinateur)" for a computer player. */
export function playerName(seat) {
  return playerLabel(seat);
}

/** The top bar: links to the pages, who is logged in, the language. */
export function nav(user) {
  let who = t('nav.anonymous');
  if (user && user.guest) who = t('nav.guest', { name: user.name });
  else if (user) who = t('nav.user', { name: user.name, level: user.level, rating: ratingText(user.rating) });
  return el('nav', { class: 'topnav' },
    el('a', { href: '/lobby.html', text: t('nav.lobby') }),
    el('a', { href: '/history.html', text: t('nav.history') }),
    el('a', { href: '/leaderboard.html', text: t('nav.leaderboard') }),
    el('a', { href: '/', text: t('nav.solo') }),
    el('span', { class: 'who', text: who }),
    el('button', {
      type: 'button', class: 'secondary', dataset: { langToggle: lang() === 'fr' ? 'en' : 'fr' }, text: t('menu.language'),
      onclick: async () => {
        await setLang(lang() === 'fr' ? 'en' : 'fr');
        location.reload();
      },
    }));
}

const API_ERROR_KEYS = {
  name_taken: 'net.error.nameTaken', bad_credentials: 'net.error.badCredentials',
  weak_password: 'net.error.weakPassword', bad_name: 'net.error.badName', seat_taken: 'net.error.seatTaken',
  account_required: 'net.error.accountRequired', not_host: 'net.error.notHost', not_logged_in: 'net.error.notLoggedIn',
  csrf: 'net.error.csrf', table_not_found: 'net.error.tableNotFound',
};

/** An error of the API in words (the server's own message for the others). */
export function errorText(err) {
  if (err instanceof ApiError && API_ERROR_KEYS[err.code]) return t(API_ERROR_KEYS[err.code]);
  return err instanceof ApiError ? t('net.error.other', { message: err.message, code: err.code }) : String(err);
}

export function showError(target, err) {
  target.textContent = errorText(err);
}
