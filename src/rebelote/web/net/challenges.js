// The lobby's challenges panel (docs/progression.md): today's and this
// week's challenges with the player's progress (GET /api/challenges), his
// coins and trophies (GET /api/profiles/{name}/trophies) and a link to the
// shop. The server counts; this page only shows what it says.

import { $, api, currentUser, el, initPage, showError, t } from './common.js';
import { lang } from '../js/i18n.js';

/** One challenge: `li[data-challenge]` with `data-progress`, `data-goal`
 * and `data-done`. */
function challengeItem(c) {
  return el('li', {
    dataset: { challenge: c.id, progress: String(c.progress), goal: String(c.goal), done: String(c.done) },
  },
  el('span', { class: 'period', text: t(c.period === 'daily' ? 'challenges.daily' : 'challenges.weekly') }),
  el('span', { class: 'title', text: c.title }),
  el('progress', { max: String(c.goal), value: String(c.progress), 'aria-label': c.title }),
  el('span', { class: 'meta' },
    el('span', { class: 'count', text: c.done ? t('challenges.done') : t('challenges.progress', { progress: c.progress, goal: c.goal }) }),
    el('span', { class: 'reward', text: t('challenges.reward', { xp: c.reward.xp, coins: c.reward.coins }) })));
}

/** Fill the panel: challenges for anyone, coins and trophies for an account. */
export async function showChallenges(panel) {
  const q = `lang=${lang()}`;
  const user = await currentUser().catch(() => null);
  const account = user && !user.guest;
  const [challenges, mine] = await Promise.all([
    api(`/api/challenges?${q}`),
    account ? api(`/api/profiles/${encodeURIComponent(user.name)}/trophies?${q}`) : Promise.resolve(null),
  ]);
  $('#challenges', panel).replaceChildren(...challenges.map(challengeItem));
  $('#coins', panel).textContent = String(mine ? mine.coins : 0);
  $('#coins-note', panel).hidden = Boolean(account);
  const trophies = mine ? mine.trophies : [];
  $('#trophies', panel).replaceChildren(...trophies.map((tr) => el('li', {
    dataset: { trophy: tr.id }, text: tr.title, title: new Date(tr.earned_at).toLocaleDateString(lang() === 'en' ? 'en-GB' : 'fr-FR'),
  })));
  $('#trophies-empty', panel).hidden = trophies.length > 0;
}

async function main() {
  const panel = $('#challenges-panel');
  if (!panel) return;
  await initPage();
  try {
    await showChallenges(panel);
  } catch (err) {
    showError($('#challenges-error', panel), err);
  }
}

main();
