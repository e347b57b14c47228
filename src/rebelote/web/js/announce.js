// What a screen reader hears as the deal goes on: each card played and each
// trick won, written into #announcer (a visually hidden log, `aria-live`
// polite).  The last few lines are kept: a reader that comes late can read
// them back.

import { t } from './i18n.js';
import { seatName } from './labels.js';
import { cardName } from './render.js';

const KEEP = 8; // lines kept in the log

/** Add a line to the live region. */
export function say(text) {
  const log = document.getElementById('announcer');
  if (!log || !text) return;
  const line = document.createElement('p');
  line.textContent = text;
  log.append(line);
  while (log.childElementCount > KEEP) log.firstElementChild.remove();
}

/** Empty the live region (a new table). */
export function clearAnnouncements() {
  document.getElementById('announcer')?.replaceChildren();
}

/** The line of a table `event` just drawn, if any: a card played, a trick won. */
export function announce(model, event) {
  if (model.mode === 'replay') return;
  if (event.kind === 'card') {
    say(t('live.card', { name: seatName(model, event.seat), card: cardName(event.card) }));
  } else if (event.kind === 'trick') {
    const tr = event.trick;
    say(t('live.trick', { name: seatName(model, tr.winner), n: tr.number, points: tr.points }));
  }
}
