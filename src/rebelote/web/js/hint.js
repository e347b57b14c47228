// Help against the computer (issue 16): the hint button
// `[data-action="hint"]` (the expert's value of each legal action, as
// `rebelote hint` computes it, asked of the server: `hint`), the takeback
// button `[data-action="takeback"]` (`takeback`: the server rewinds the
// deal to before our last card or bid and sends every stream a `takeback`
// event holding its new snapshot), and the marker of the help used in the
// match ("Hints: 2 · takebacks: 1", `#assist-used`).  Only at a table
// with no rating at stake: the snapshot's `help.allowed` (the server
// refuses them elsewhere, `rated_table`).  Nothing here judges the game:
// the values and the legal actions are the server's.
//
// Test hooks: `#assist[data-allowed]`, `#assist-used[data-hints][data-takebacks]`,
// `#hint-panel li[data-hint-action][data-value]`, and on the hand's cards
// a `.hint-value` badge with `data-hint-value` on the card.

import { lang, t } from './i18n.js';
import { actionLabel, seatName } from './labels.js';
import { h } from './render.js';

const $ = (sel) => document.querySelector(sel);

const assist = {
  allowed: false, // hints and takebacks at this table (snapshot's help.allowed)
  hints: 0, // used in the match
  bySeat: {}, // of those, per seat that asked ({S: 2, N: 1})
  takebacks: 0,
  hint: null, // the last hint's data (`hint` message)
  hintTurn: null, // the turn it answers (a new turn makes it stale)
  asking: false, // a hint is on its way
  requests: 0,
};

const HINT_ERRORS = new Set(['rated_table', 'busy', 'not_your_turn', 'stale', 'unavailable', 'internal', 'spectator', 'not_started', 'left']);

/** A snapshot: what the table allows and the help used; no hint kept. */
export function assistSnapshot(d) {
  assist.allowed = !!d.help?.allowed;
  assist.hints = d.help?.hints ?? 0;
  assist.takebacks = d.help?.takebacks ?? 0;
  assist.bySeat = d.help?.hints_by_seat || {};
  assist.hint = null;
  assist.hintTurn = null;
}

/** An event of the stream: the help counts (`help`, `takeback`, a new
 * match).  Returns the snapshot a `takeback` event holds (the caller
 * applies it as a snapshot), else null. */
export function assistEvent(e) {
  if (e.kind === 'match_start') {
    assist.hints = 0;
    assist.takebacks = 0;
    assist.bySeat = {};
  } else if (e.kind === 'help' || e.kind === 'takeback') {
    assist.hints = e.hints;
    assist.takebacks = e.takebacks;
    if (e.kind === 'help') assist.bySeat = e.hints_by_seat || {};
    else assist.bySeat = e.snapshot?.help?.hints_by_seat || assist.bySeat;
  }
  if (e.kind !== 'takeback') return null;
  assist.hint = null;
  assist.hintTurn = null;
  return e.snapshot;
}

/** The server's answer to our hint (`hint`, outside the stream). */
export function assistHint(app, d) {
  assist.asking = false;
  assist.hint = d;
  assist.hintTurn = app.model?.turn || null;
}

/** An error while a hint was on its way ends the wait. */
export function assistError(d) {
  if (assist.asking && HINT_ERRORS.has(d.code)) assist.asking = false;
}

/** Ask for a hint; false when the socket is not open. */
export function askHint(app) {
  if (!app.conn || assist.asking) return true;
  assist.requests += 1;
  if (!app.conn.send({ t: 'hint', d: { id: `${app.session}-h${assist.requests}` } })) return false;
  assist.asking = true;
  return true;
}

/** Take back our last card or bid; false when the socket is not open.
 * `v`: the version we saw (a second click sent before the first one's
 * answer is refused as stale, docs/protocol.md). */
export function askTakeback(app) {
  if (!app.conn) return true;
  assist.requests += 1;
  const msg = { t: 'takeback', d: { id: `${app.session}-t${assist.requests}` } };
  if (Number.isInteger(app.appliedV)) msg.v = app.appliedV;
  return app.conn.send(msg);
}

function valueText(value) {
  return new Intl.NumberFormat(lang(), { signDisplay: 'exceptZero', maximumFractionDigits: 1 }).format(value);
}

/** Whether another human plays at the table (no takeback then). */
function othersSeated(model) {
  const seats = model.room?.seats || model.table?.seats || [];
  return seats.some((s) => s.kind === 'human' && !s.left && s.seat !== model.you);
}

/** Draw the buttons, the marker, the hint's values (panel and cards). */
export function renderAssist(app) {
  const model = app.model;
  const box = $('#assist');
  const panel = $('#hint-panel');
  if (!box || !panel) return;
  const playing = !!model && app.mode === 'play' && !!model.you && !!model.turn;
  const used = $('#assist-used');
  const shown = !!model?.table && app.mode !== 'replay' && (assist.hints > 0 || assist.takebacks > 0);
  // the marker for everyone at the table (spectators too); the buttons for the player
  box.hidden = !(playing && assist.allowed) && !shown;
  box.dataset.allowed = String(assist.allowed);
  used.dataset.hints = String(assist.hints);
  used.dataset.takebacks = String(assist.takebacks);
  used.hidden = !assist.hints && !assist.takebacks;
  // with other people at the table, who asked the hints (per seat)
  const askers = Object.entries(assist.bySeat);
  if (model && othersSeated(model) && askers.length) {
    const who = askers.map(([seat, n]) => `${seatName(model, seat)} ${n}`).join(', ');
    used.textContent = t('assist.usedBySeat', { hints: who, takebacks: assist.takebacks });
    used.dataset.bySeat = askers.map(([seat, n]) => `${seat}:${n}`).join(',');
  } else {
    used.textContent = t('assist.used', { hints: assist.hints, takebacks: assist.takebacks });
    delete used.dataset.bySeat;
  }
  const hintBtn = box.querySelector('[data-action="hint"]');
  const backBtn = box.querySelector('[data-action="takeback"]');
  const turn = model?.turn;
  const mine = playing && model.myDecision && turn.waiting === 'action';
  hintBtn.hidden = !assist.allowed || !playing;
  hintBtn.disabled = !mine || model.pending || assist.asking;
  hintBtn.setAttribute('aria-busy', String(assist.asking));
  backBtn.hidden = !assist.allowed || !playing || othersSeated(model || {});
  // the server says whether there is something to take back (turn.takeback)
  backBtn.disabled = !playing || model.pending || !turn || !turn.takeback;
  // the hint holds while its turn does
  const hint = assist.hint && turn && assist.hintTurn === turn && mine ? assist.hint : null;
  if (!hint) {
    assist.hint = null;
    panel.hidden = !assist.asking || !playing;
    if (assist.asking) panel.replaceChildren(h('p', { class: 'hint-note', text: t('assist.thinking') }));
  } else {
    panel.hidden = false;
    panel.dataset.expert = hint.expert;
    const turned = model.deal.turned;
    panel.replaceChildren(
      h('p', { class: 'hint-head' }, t(turn.phase === 'bidding' ? 'assist.expertBids' : 'assist.expertPlays'), ' ', actionLabel(hint.expert, turned)),
      h('ol', { class: 'hint-values' },
        ...hint.values.map((v) => h('li', {
          class: v.action === hint.best ? 'best' : null, 'data-hint-action': v.action,
          'data-value': v.value === null ? '' : String(v.value),
        }, actionLabel(v.action, turned), ' ',
        h('span', { class: 'value', text: v.value === null ? '—' : valueText(v.value) })))),
      h('p', { class: 'hint-note', text: hint.basis === 'worlds' ? t('assist.noteWorlds', { n: hint.worlds }) : t('assist.note') }));
  }
  // each valued card of the hand shows its value
  const values = new Map();
  for (const v of hint?.values || []) {
    const card = v.action.split(' ')[0];
    if (v.value !== null && !values.has(card)) values.set(card, v.value);
  }
  for (const el of document.querySelectorAll('#hand button.card')) {
    let badge = el.querySelector(':scope > .hint-value');
    const value = values.get(el.dataset.card);
    if (value === undefined) {
      badge?.remove();
      delete el.dataset.hintValue;
      el.classList.remove('hint-best');
      continue;
    }
    if (!badge) {
      badge = h('span', { class: 'hint-value', 'aria-hidden': 'true' });
      el.append(badge);
    }
    badge.textContent = valueText(value);
    el.dataset.hintValue = String(value);
    el.classList.toggle('hint-best', hint.best?.split(' ')[0] === el.dataset.card);
  }
}
