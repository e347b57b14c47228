// The words of a tournament shared by its pages: its kind, its status,
// its length (rounds or minutes).

import { t } from '../js/i18n.js';

const KIND_KEYS = { swiss: 'tour.kind.swiss', arena: 'tour.kind.arena' };
const STATUS_KEYS = {
  open: 'tour.status.open',
  running: 'tour.status.running',
  finished: 'tour.status.finished',
  cancelled: 'tour.status.cancelled',
};

export const kindText = (kind) => (KIND_KEYS[kind] ? t(KIND_KEYS[kind]) : kind);
export const statusText = (status) => (STATUS_KEYS[status] ? t(STATUS_KEYS[status]) : status);

/** "5 rounds" (Swiss) or "60 min" (arena). */
export function lengthText(x) {
  if (x.kind === 'arena') return t('tour.minutes', { n: x.minutes });
  return x.rounds === 1 ? t('tour.oneRound') : t('tour.rounds', { n: x.rounds });
}

/** A number of tournament points: "1 pt", "3 pts" (French: "0 pt" too). */
export function pointsText(n) {
  return n === 1 || (n === 0 && t('tour.zeroIsOne') === 'yes') ? t('tour.onePoint', { n }) : t('tour.points', { n });
}
