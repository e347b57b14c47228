// Shared by the network play pages (lobby, history, leaderboard): the
// current user, seat tokens, the top bar, small DOM helpers. REST calls and
// error words are js/api.js's (one `api()` and one `errorText()` for every
// page, the main table's too); the reconnecting sockets are js/net.js's;
// the banners ("connexion perdue", "partie en cours") js/banners.js's.
// Text from players is always set with textContent, never as HTML.
// Labels come from the table's catalogs (js/i18n.js: French by default, the
// language the player chose on the table or here is kept for every page).

import { lang, preferredLang, setLang, t } from '../js/i18n.js';
import { playerLabel } from '../js/labels.js';
import { api, errorText } from '../js/api.js';

export { api, errorText, t };

/** A rating as every page shows it: a whole number ("1512"), followed by
 * " ?" while it is provisional (too few rated matches to trust it). */
export function ratingText(rating, provisional = false) {
  if (rating == null) return '—';
  const text = String(Math.round(Number(rating)));
  return provisional ? `${text} ?` : text;
}

/** A date and time (Unix seconds) in the page's language. */
export function dateText(at) {
  return new Date(at * 1000).toLocaleString(lang() === 'en' ? 'en-GB' : 'fr-FR');
}

/** Load the labels in the player's language and fill the page's data-i18n. */
export async function initPage() {
  await setLang(preferredLang()).catch(() => setLang('fr'));
}

const TOKENS_KEY = 'rebelote.tables'; // the table page (js/app.js) reads seat tokens here too

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

export async function currentUser() {
  const me = await api('/api/me');
  return me.user;
}

/** Keep a seat's token for the table pages. */
export function rememberToken(tableId, token) {
  let tokens = {};
  try {
    tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}');
  } catch { /* ignore */ }
  tokens[tableId] = token;
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  } catch { /* storage unavailable */ }
}

/** The seat token this browser keeps for a table, if any. */
export function tokenOf(tableId) {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}')[tableId] || null;
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
    rememberToken(tableId, seatToken.token);
    return seatToken;
  } catch {
    return null;
  }
}

/** A player's name as the pages show it (labels.playerLabel): " (invité)"
 * for a guest, " (ordinateur)" for a computer player. */
export function playerName(seat) {
  return playerLabel(seat);
}

/** The main table's routes (index.html): a player's seat, a spectator, a
 * replay. */
export const tableHref = (id) => `/#/table/${encodeURIComponent(id)}`;
export const watchHref = (id) => `/#/watch/${encodeURIComponent(id)}`;
export const replayHref = (id) => `/#/replay/${encodeURIComponent(id)}`;
/** An account's profile page (profile.html). */
export const profileHref = (name) => `/profile.html?name=${encodeURIComponent(name)}`;

/** A player's name linked to his profile when he has one (an account:
 * not a guest, a computer player or an outside program), else his name as
 * playerName says it; `seat` as the server gives a seat ({kind, name,
 * guest, outside_bot}). */
export function playerLink(seat, attrs = {}) {
  const text = playerName(seat);
  if (!seat || seat.kind !== 'human' || seat.guest || seat.outside_bot || !seat.name) return el('span', { ...attrs, text });
  return el('a', { ...attrs, href: profileHref(seat.name), class: [attrs.class, 'profile-link'].filter(Boolean).join(' '), text });
}

/** The top bar: links to the pages, who is logged in, the language. */
export function nav(user) {
  let who = t('nav.anonymous');
  if (user && user.guest) who = t('nav.guest', { name: user.name });
  else if (user) who = t('nav.user', { name: user.name, level: user.level, rating: ratingText(user.rating, user.provisional) });
  const here = location.pathname;
  const link = (href, key) => el('a', { href, text: t(key), 'aria-current': here === href ? 'page' : null });
  return el('nav', { class: 'topnav' },
    el('div', { class: 'links' },
      link('/lobby.html', 'nav.lobby'),
      link('/history.html', 'nav.history'),
      link('/leaderboard.html', 'nav.leaderboard'),
      link('/tournaments.html', 'nav.tournaments'),
      user && !user.guest ? el('a', {
        href: profileHref(user.name), text: t('nav.profile'), dataset: { myProfile: '' },
        'aria-current': here === '/profile.html' && new URLSearchParams(location.search).get('name') === user.name ? 'page' : null,
      }) : null,
      link('/daily.html', 'nav.daily'),
      link('/', 'nav.solo')),
    el('span', { class: 'who', text: who }),
    el('button', {
      type: 'button', class: 'lang', dataset: { langToggle: lang() === 'fr' ? 'en' : 'fr' }, text: t('menu.language'),
      onclick: async () => {
        await setLang(lang() === 'fr' ? 'en' : 'fr');
        location.reload();
      },
    }));
}

export function showError(target, err) {
  target.textContent = errorText(err);
}
