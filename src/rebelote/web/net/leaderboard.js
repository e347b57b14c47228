// The leaderboard: accounts with a rated match, best rating first.

import {
  $, api, currentUser, el, initPage, nav, ratingText,
} from './common.js';

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  const board = await api('/api/leaderboard');
  $('#board tbody').replaceChildren(...board.map((u, i) => el('tr', { dataset: { user: String(u.id) } },
    el('td', { text: String(i + 1) }), el('td', { text: u.name }), el('td', { text: ratingText(u.rating) }),
    el('td', { text: String(u.rated) }), el('td', { text: String(u.level) }), el('td', { text: String(u.xp) }))));
  $('#empty').hidden = board.length > 0;
}

main();
