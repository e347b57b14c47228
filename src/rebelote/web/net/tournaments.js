// The tournaments: running, to come (open for registration) and finished,
// each a link to its page (tournament.html?id=N).  Scheduled by the admin
// (`rebelote tournament create`, docs/tournaments.md).

import {
  $, api, currentUser, dateText, initPage, nav, showError, t,
} from './common.js';
import { h } from '../js/dom.js';
import { showCurrentGame } from '../js/banners.js';
import { kindText, lengthText, statusText } from './tournament-labels.js';

function item(x) {
  return h('li', { 'data-tournament': String(x.id), 'data-status': x.status },
    h('a', { href: `/tournament.html?id=${encodeURIComponent(x.id)}`, text: x.name }),
    ' · ', kindText(x.kind), ' · ', lengthText(x),
    ' · ', t('tour.startsAt', { when: dateText(Date.parse(x.starts_at) / 1000) }),
    ' · ', t('tour.entrants', { n: x.entrants }),
    ' · ', statusText(x.status));
}

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (user) showCurrentGame($('main')).catch(() => {});
  let lists;
  try {
    lists = await api('/api/tournaments');
  } catch (err) {
    showError($('#error'), err);
    return;
  }
  for (const key of ['running', 'upcoming', 'finished']) {
    $(`#${key}`).replaceChildren(...lists[key].map(item));
    $(`#${key}-empty`).hidden = lists[key].length > 0;
  }
}

main();
