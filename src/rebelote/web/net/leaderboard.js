// The leaderboard: accounts with a rated match, best rating first; a
// rating still provisional (too few rated matches) is marked.

import {
  $, api, currentUser, el, initPage, nav, profileHref, ratingText, showError, t,
} from './common.js';
import { showCurrentGame } from '../js/banners.js';

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (user) showCurrentGame($('main')).catch(() => {});
  let board;
  try {
    board = await api('/api/leaderboard');
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  const cell = (label, attrs, ...children) => el('td', { 'data-label': label, ...attrs }, ...children);
  $('#board tbody').replaceChildren(...board.map((u, i) => el('tr', { dataset: { user: String(u.id) } },
    cell('#', { text: String(i + 1) }),
    cell(t('board.col.player'), {}, el('a', { href: profileHref(u.name), class: 'profile-link', text: u.name })),
    cell(t('board.col.rating'), { class: 'rating', dataset: { provisional: String(Boolean(u.provisional)) } },
      ratingText(u.rating),
      u.provisional ? el('span', { class: 'badge', title: t('board.provisionalNote'), text: t('board.provisional') }) : null),
    cell(t('board.col.rated'), { text: String(u.rated) }),
    cell(t('board.col.level'), { text: String(u.level) }),
    cell(t('board.col.xp'), { text: String(u.xp) }))));
  $('#empty').hidden = board.length > 0;
}

main();
