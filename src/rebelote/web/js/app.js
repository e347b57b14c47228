// The application: start page, new-match dialog, rules help, the table and
// its dialogs, keyboard play.  The server decides everything; this module
// sends the player's choices (always one of turn.legal) and shows the answers.

import '../chat/chat.js'; // <rebelote-chat>, shown at a network table
import { applyI18n, has, helpText, lang, preferredLang, setLang, t } from './i18n.js';
import { backPattern, suitSprite } from './cards.js';
import { Connection } from './net.js';
import { api, errorText } from './api.js';
import { connectionStatus, showCurrentGame } from './banners.js';
import { TableModel, isCard, parseContract } from './model.js';
import { TableView, cardElement, countdownText, h } from './render.js';
import { dealSteps, replayModel, replayTotals } from './replay.js';
import { initSettings, trickHold } from './settings.js';
import { cue } from './sound.js';
import { announce, clearAnnouncements } from './announce.js';
import { summaryParts } from './score.js';
import { askHint, askTakeback, assistError, assistEvent, assistHint, assistSnapshot, renderAssist } from './hint.js';
import { closeAnalysis, drawReplayHelp, openAnalysis } from './analysis.js';
import { openFair, renderFair } from './fair.js';
import { applyCosmetics } from './cosmetics.js';
import {
  LEVEL_KEYS, SEAT_KEYS, SPEED_KEYS, bidLabel, cardLabel, contractLabel, declLabel, playerLabel, presetDescription, presetName,
  reasonText, resultLabel, seatName, sideName,
} from './labels.js';

const TOKENS_KEY = 'rebelote.tables';
const PREFS_KEY = 'rebelote.prefs';
const PENDING_TIMEOUT = 8000; // ms before an unanswered action is given up
const LOBBY_URL = './lobby.html';

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

const app = {
  session: Math.random().toString(36).slice(2, 10), // this page's prefix of action ids
  actions: 0, // actions sent by this page
  appliedV: null, // the version of the last snapshot or event drawn
  inflight: null, // {action, belote, id, v}: sent, not answered yet
  presets: null,
  conn: null,
  model: null,
  view: null,
  tableId: null,
  keyboard: false,
  endShown: null, // "match:deal" of the summary shown (or dismissed)
  firstRender: false,
  pendingTimer: null,
  queue: [], // events held back while a finished trick is shown
  holdUntil: 0,
  holdTimer: null,
  tokenRetried: null, // the table whose refused token was replaced (once)
  mode: null, // "play" (#/table/ID), "watch" (#/watch/ID) or "replay" (#/replay/ID[/N])
  timedOut: false, // the server said our time ran out (notice timed_out): a computer plays for us
  awaySeen: false, // the room said we were away since that notice
  clockOffset: 0, // the server's clock minus ours, in seconds (from the room's countdowns)
  replay: null, // {tableId, table, data, totals, index, step}
  opening: 0, // which opening of a table is the latest (the page may move on meanwhile)
  closedShown: false, // the note "X left the table: no rematch" was shown (once; it may be closed)
  leftAfterEnd: [], // the names of the players who left once the match was over (no rematch)
};

// ------------------------------------------------------------------ storage

function load(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage unavailable: the cookie still lets the server find the match */
  }
}

const FINISHED_KEY = 'rebelote.finished';
const FINISHED_KEPT = 8;

/** A match this browser played to its end against the computer: kept (the
 * last few) for the start page's list, with what opens its replay and
 * analysis (the table's id and the match's number; the seat's token is
 * kept with the tables'). */
function rememberFinished(model) {
  if (model.lobby || model.mode !== 'play' || !model.table?.id || !model.match?.winner) return;
  const entry = {
    id: model.table.id, match: model.match.number, preset: model.table.rules?.preset || '',
    at: Date.now(), won: !!model.you && model.match.winner.includes(model.you),
  };
  const list = load(FINISHED_KEY, []).filter((e) => !(e.id === entry.id && e.match === entry.match));
  save(FINISHED_KEY, [entry, ...list].slice(0, FINISHED_KEPT));
}

/** The start page's list of this browser's finished matches, each opening
 * its replay with the expert's analysis. */
function renderRecent() {
  const box = $('#recent-matches');
  if (!box) return;
  const list = load(FINISHED_KEY, []).filter((e) => e && typeof e.id === 'string' && Number.isInteger(e.match));
  box.hidden = !list.length;
  const date = new Intl.DateTimeFormat(lang(), { dateStyle: 'short', timeStyle: 'short' });
  $('#recent-list').replaceChildren(...list.map((e) => h('li', {},
    h('a', { href: `#/replay/${e.id}/${e.match}/analysis`, 'data-recent': e.id, text: t('start.recentItem', {
      preset: t(`preset.${e.preset}`), date: date.format(new Date(e.at)), result: t(e.won ? 'start.recentWon' : 'start.recentLost'),
    }) }))));
}

function rememberToken(tableId, token) {
  const tokens = load(TOKENS_KEY, {});
  tokens[tableId] = token;
  save(TOKENS_KEY, tokens);
}

async function presets() {
  if (!app.presets) app.presets = await api('api/presets');
  return app.presets;
}

// ------------------------------------------------------------------ toasts

let toastTimer = null;
function toast(text, ms = 3500) {
  const el = $('#toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), ms);
}

// --------------------------------------------------------------- routing

// #/table/ID: a seat at a table (a spectator's view when this browser
// holds no seat there); #/watch/ID: a spectator's; #/replay/ID[/N]: a
// finished game (match N).
function route() {
  const hash = location.hash;
  let m = /^#\/table\/([\w-]+)$/.exec(hash);
  if (m) return openTable(m[1], 'play');
  m = /^#\/watch\/([\w-]+)$/.exec(hash);
  if (m) return openTable(m[1], 'watch');
  m = /^#\/replay\/([\w-]+)(?:\/(\d+))?(\/analysis)?$/.exec(hash);
  if (m) return openReplay(m[1], m[2] ? Number(m[2]) : null, !!m[3]);
  return showStart();
}

function showPage(id) {
  for (const p of $$('.page')) p.hidden = p.id !== id;
  document.body.classList.remove('loading');
}

// -------------------------------------------------------------- start page

async function showStart() {
  closeTable();
  showPage('start-page');
  const cont = $('[data-action="continue"]');
  const fresh = $('[data-action="new"]');
  cont.hidden = true;
  fresh.classList.add('primary');
  fresh.focus();
  renderBrand();
  renderRecent();
  const [list, current] = await Promise.all([
    presets().catch(() => []),
    api('api/me/current').catch(() => ({ current: null })),
  ]);
  renderPresetList(list);
  showCurrentGame($('#start-page .start-card'), { except: current.current?.table_id }).catch(() => {});
  if (current.current) {
    rememberToken(current.current.table_id, current.current.token);
    cont.dataset.table = current.current.table_id;
    cont.hidden = false;
    fresh.classList.remove('primary');
    cont.focus();
  }
  document.body.dataset.ready = 'start';
}

function renderBrand() {
  const box = $('#brand-cards');
  if (box.childElementCount) return;
  for (const c of ['QH', 'KH', 'JH']) box.append(cardElement(c));
}

function renderPresetList(list) {
  const ul = $('#preset-list');
  ul.replaceChildren(
    ...list.map((p) =>
      h('li', {},
        h('button', { type: 'button', class: 'link', 'data-help': p.name, onclick: () => showHelp(p.name) },
          h('b', { text: presetName(p) }),
          h('span', { class: 'desc', text: presetDescription(p, p.description) }))),
    ),
  );
}

// ------------------------------------------------------------- rules help

async function showHelp(name) {
  const list = await presets();
  const p = list.find((x) => x.name === name);
  if (!p) return;
  $('#help-title').textContent = t('help.title', { name: presetName(p) });
  $('#help-desc').textContent = presetDescription(p, p.description);
  $('#help-lines').replaceChildren(...p.help.map((line) => h('li', { 'data-option': line.option, text: helpText(line.text) })));
  const dialog = $('#help');
  dialog.dataset.preset = name;
  if (!dialog.open) dialog.showModal();
}

// ---------------------------------------------------------- new-match form

const DEFAULT_PREFS = {
  preset: 'ffb', target: null, name: '', levels: {},
  player_cuts: false, player_chooses_pattern: false, auto_play_forced: true,
  auto_next: false, speed: 'normal',
};

async function showNewGame() {
  const list = await presets();
  const prefs = { ...DEFAULT_PREFS, ...load(PREFS_KEY, {}) };
  const form = $('#new-game-form');
  const box = $('#preset-choices');
  box.replaceChildren(
    ...list.map((p) =>
      h('div', { class: 'preset-choice' },
        h('label', {},
          h('input', { type: 'radio', name: 'preset', value: p.name, checked: p.name === prefs.preset, 'data-preset': p.name }),
          h('span', { class: 'preset-text' },
            h('b', { text: presetName(p) }),
            h('span', { class: 'desc', text: presetDescription(p, p.description) }))),
        h('button', {
          type: 'button', class: 'help-btn', 'data-help': p.name, 'aria-label': t('new.rulesOf', { name: presetName(p) }),
          title: t('new.rulesOf', { name: presetName(p) }), text: '?', onclick: () => showHelp(p.name),
        })),
    ),
  );
  if (!form.querySelector('input[name="preset"]:checked')) form.querySelector('input[name="preset"]').checked = true;
  form.elements.name.value = prefs.name;
  for (const k of ['player_cuts', 'player_chooses_pattern', 'auto_play_forced', 'auto_next']) form.elements[k].checked = !!prefs[k];
  form.elements.speed.value = prefs.speed;
  const chosen = () => list.find((p) => p.name === form.querySelector('input[name="preset"]:checked').value);
  const refresh = (keepTarget) => {
    const p = chosen();
    if (!keepTarget || !form.elements.target.value) form.elements.target.value = String(p.target);
    renderLevelFields(p.players, prefs.levels);
  };
  form.elements.target.value = prefs.preset === chosen().name && prefs.target ? String(prefs.target) : '';
  refresh(true);
  box.onchange = () => refresh(false);
  $('#new-game-error').hidden = true;
  const dialog = $('#new-game');
  if (!dialog.open) dialog.showModal();
  form.elements.name.focus();
}

function renderLevelFields(players, levels) {
  const seats = players === 2 ? ['W'] : players === 3 ? ['W', 'E'] : ['W', 'N', 'E'];
  $('#level-fields').replaceChildren(
    ...seats.map((seat) =>
      h('label', { class: 'field' },
        h('span', { text: seat === 'N' ? t('new.partner', { name: t(SEAT_KEYS[seat]) }) : t(SEAT_KEYS[seat]) }),
        h('select', { name: `level-${seat}`, 'data-level': seat },
          ...Object.entries(LEVEL_KEYS).map(([value, key]) =>
            h('option', { value, selected: (levels[seat] || 'beginner') === value, text: t(key) }))))),
  );
}

async function startNewGame(event) {
  event.preventDefault();
  const form = $('#new-game-form');
  const f = form.elements;
  const preset = form.querySelector('input[name="preset"]:checked').value;
  const levels = {};
  for (const sel of $$('#level-fields select')) levels[sel.dataset.level] = sel.value;
  const options = {
    player_cuts: f.player_cuts.checked,
    player_chooses_pattern: f.player_chooses_pattern.checked,
    auto_play_forced: f.auto_play_forced.checked,
    auto_next: f.auto_next.checked,
    speed: f.speed.value,
  };
  const target = Number(f.target.value);
  const name = f.name.value.trim();
  save(PREFS_KEY, { preset, target, name, levels, ...options });
  const body = { preset, target, levels, options };
  if (name) body.name = name;
  const submit = $('[data-action="start"]');
  submit.disabled = true;
  try {
    const created = await api('api/tables', { method: 'POST', body });
    rememberToken(created.table_id, created.token);
    $('#new-game').close();
    location.hash = `#/table/${created.table_id}`;
  } catch (err) {
    const el = $('#new-game-error');
    el.textContent = t('new.error', { message: errorText(err) });
    el.hidden = false;
  } finally {
    submit.disabled = false;
  }
}

// ------------------------------------------------------------------- table

/** Open a table: `mode` "play" (this browser's seat: its token kept here,
 * the cookie's solo table, or a new token for a lobby seat held elsewhere;
 * with none, the table is watched) or "watch" (a spectator). */
async function openTable(tableId, mode) {
  if (app.tableId === tableId && app.mode === mode && app.conn) return;
  closeTable();
  const opening = ++app.opening;
  let token = null;
  if (mode === 'play') {
    token = load(TOKENS_KEY, {})[tableId];
    if (!token) {
      const current = await api('api/me/current').catch(() => ({ current: null }));
      if (current.current?.table_id === tableId) token = current.current.token;
    }
    if (!token) token = await lobbyToken(tableId);
    if (!token) token = await dailyToken(tableId);
    if (opening !== app.opening) return;
    if (!token) {
      // no seat here: the table is watched (or said private / missing)
      toast(t('error.noSeat'));
      location.replace(`#/watch/${tableId}`);
      return;
    }
  }
  showPage('table-page');
  app.tableId = tableId;
  app.mode = mode;
  app.model = new TableModel();
  app.model.mode = mode;
  if (mode === 'watch') app.model.you = null;
  app.view = newView();
  app.endShown = null;
  app.firstRender = false;
  const page = $('#table-page');
  page.dataset.mode = mode;
  delete page.dataset.ready;
  // a seat: `/ws/ID`, its token in the first message (`hello`), never in
  // the URL; a spectator: `/ws/ID?watch=1` (js/net.js)
  app.conn = new Connection({ tableId, token, watch: mode === 'watch', onMessage, onStatus });
  attachChat(null); // read only until the snapshot names our seat
  app.conn.connect();
}

function newView() {
  return new TableView($('#table-page'), {
    act: (action, belote) => act(action, belote),
    card: (card) => clickCard(card),
    cancelBelote: () => {
      app.view.ui.beloteAsk = null;
      render();
    },
  });
}

/** A lobby table's seat token for the logged-in player (or guest) who holds
 * a seat there but has none in this browser (back from another browser or
 * device): `POST /api/lobby/tables/{id}/token` (the old token stops
 * working).  Null when he holds no seat there. */
async function lobbyToken(tableId) {
  const me = await api('api/me').catch(() => null);
  if (!me?.user) return null;
  const history = await api('api/me/history').catch(() => null);
  if (!history?.running.some((r) => r.table_id === tableId)) return null;
  const seatToken = await api(`api/lobby/tables/${encodeURIComponent(tableId)}/token`, { method: 'POST' })
    .catch(() => null);
  if (!seatToken) return null;
  rememberToken(tableId, seatToken.token);
  return seatToken.token;
}

/** The logged-in player's own daily table reached by a direct link (another
 * browser, a bookmark): `POST /api/daily/start` resumes it by his session
 * and sets the seat's cookie, which `GET /api/me/current` then reads.  Null
 * when the table is not his daily table of today. */
async function dailyToken(tableId) {
  const daily = await api('api/daily').catch(() => null);
  if (!daily?.table || daily.table !== tableId) return null;
  const started = await api('api/daily/start', { method: 'POST' }).catch(() => null);
  if (started?.table !== tableId) return null;
  const current = await api('api/me/current').catch(() => ({ current: null }));
  if (current.current?.table_id !== tableId) return null;
  rememberToken(tableId, current.current.token);
  return current.current.token;
}

function closeTable() {
  app.opening += 1;
  closeAnalysis();
  if (app.conn) app.conn.close();
  const chat = $('#table-chat');
  if (chat) {
    chat.hidden = true;
    chat.clear?.();
  }
  app.queue = [];
  clearAnnouncements();
  app.appliedV = null;
  app.inflight = null;
  clearTimeout(app.holdTimer);
  app.holdTimer = null;
  app.holdUntil = 0;
  app.conn = null;
  app.tableId = null;
  app.mode = null;
  app.model = null;
  app.view = null;
  app.replay = null;
  app.timedOut = false;
  app.awaySeen = false;
  app.closedShown = false;
  app.leftAfterEnd = [];
  const page = $('#table-page');
  page.classList.remove('side');
  delete page.dataset.mode;
  delete page.dataset.ready;
  $('#replay').hidden = true;
  $('#replay-summary').hidden = true;
  $('#away-banner').hidden = true;
  $('#conn').hidden = true;
  for (const d of $$('dialog[open]')) if (d.id !== 'new-game' && d.id !== 'help') d.close();
}

/** A page in place of the table: a private table (watching it is refused),
 * one that does not exist, or one the player left.  Never a blank page. */
function showMissing(reason, tableId) {
  closeTable();
  const page = $('#table-missing');
  page.dataset.reason = reason;
  if (tableId) page.dataset.table = tableId;
  const keys = MISSING_KEYS[reason] || MISSING_KEYS.not_found;
  $('#table-missing-title').textContent = t(keys[0]);
  $('#table-missing-text').textContent = t(keys[1]);
  showPage('table-missing');
  page.querySelector('a.primary')?.focus();
}

const MISSING_KEYS = {
  private: ['missing.private', 'missing.privateText'],
  not_found: ['missing.notFound', 'missing.notFoundText'],
  left: ['missing.left', 'missing.leftText'],
};

function onStatus(status, detail) {
  connectionStatus('table', status); // the offline banner, #offline-banner
  const el = $('#conn');
  if (status === 'open') {
    el.hidden = true;
    // an action sent just before a drop: sent again with its id once the
    // missed events are in (applied already, the server only acknowledges it)
    const sent = app.inflight;
    if (sent && app.model?.pending) setTimeout(() => {
      if (app.inflight === sent && app.model?.pending) app.conn?.act(sent.action, sent.belote, sent);
    }, 300);
  }
  else if (status === 'reconnecting') {
    el.textContent = t('conn.reconnecting');
    el.hidden = false;
  } else if (status === 'fatal') {
    const tableId = app.tableId;
    const code = detail?.code;
    const reason = detail?.reason;
    if (code === 4403 && reason === 'bad_token' && tableId && app.tokenRetried !== tableId) {
      // the token was replaced on another device: ask for a new one, once
      app.tokenRetried = tableId;
      lobbyToken(tableId).then((token) => {
        if (app.tableId !== tableId) return;
        closeTable();
        if (token) openTable(tableId, 'play');
        else location.replace(`#/watch/${tableId}`);
      });
      return;
    }
    if (code === 4000 || reason === 'left') showMissing('left', tableId);
    else if (code === 4404) showMissing('not_found', tableId);
    else if (code === 4403 && reason === 'private') showMissing('private', tableId);
    else if (app.mode === 'play' && tableId) {
      // a token that holds no seat here (any more): watch the table instead
      closeTable();
      location.replace(`#/watch/${tableId}`);
    } else showMissing('not_found', tableId);
  }
}

// A finished trick stays on the table for a moment (the settings' pace:
// js/settings.js trickHold, 0.8 s by default), however fast the computer
// players are: the events after it wait in a queue (in order).
function onMessage(msg) {
  if (!app.model) return;
  if (msg.t === 'hint') {
    assistHint(app, msg.d); // the expert's values, to us alone (js/hint.js)
    render();
    return;
  }
  if (msg.t !== 'snapshot' && msg.t !== 'event' && msg.t !== 'error') {
    outsideStream(msg);
    return;
  }
  if (msg.t === 'snapshot') {
    app.queue = [];
    app.holdUntil = 0;
    clearTimeout(app.holdTimer);
    app.holdTimer = null;
  } else if (msg.t === 'event' && (app.queue.length || performance.now() < app.holdUntil)) {
    app.queue.push(msg);
    scheduleFlush();
    return;
  }
  handle(msg);
}

// The messages outside the numbered stream (docs/protocol.md): a lobby
// table (rebelote serve) sends its room (who is connected, the countdowns,
// how many watch), its chat, and a notice to a player whose time ran out.
// A solo table sends none of them, and its chat stays hidden.  Anything else
// (pong, a type this page does not know) is ignored.
const CHAT_TYPES = new Set(['room', 'chat', 'chat_history', 'muted']);

function outsideStream(msg) {
  const model = app.model;
  if (msg.t === 'room') onRoom(msg.d);
  else if (msg.t === 'notice' && msg.d?.code === 'timed_out' && model.mode === 'play') {
    app.timedOut = true;
    app.awaySeen = false;
    render();
  }
  const chat = $('#table-chat');
  if (!chat || !CHAT_TYPES.has(msg.t) || typeof chat.receive !== 'function') return;
  if (chat.hidden) {
    chat.toggleAttribute('collapsed', window.matchMedia('(max-width: 999px)').matches);
    chat.hidden = false;
    $('#table-page').classList.add('side');
  }
  chat.receive(msg);
}

/** A lobby table's room: the seats are named by their players
 * (labels.seatName); each countdown gets its end in this page's clock. */
function onRoom(room) {
  const model = app.model;
  const now = Date.now();
  for (const seat of room.seats) {
    for (const c of seat.countdowns || []) {
      c.until = now + c.seconds * 1000;
      app.clockOffset = c.deadline - c.seconds - now / 1000;
    }
    seat.countdowns = seat.countdowns || [];
  }
  model.room = room;
  model.lobby = true;
  if (!model.table) {
    // the match has not started (no snapshot yet): the seats from the room
    model.table = {
      id: room.id, you: null, status: room.status, rules: room.rules, options: room.options,
      seats: room.seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name, level: s.level, guest: s.guest, left: s.left })),
    };
    if (model.mode === 'play') model.you = null;
  } else model.table = { ...model.table, status: room.status };
  const me = model.you ? model.roomSeat(model.you) : null;
  if (me) {
    if (me.away) app.awaySeen = true;
    else if (app.awaySeen) {
      app.timedOut = false;
      app.awaySeen = false;
    }
  }
  render();
  if (room.status === 'closed' && model.match?.winner && model.summary && !app.closedShown) {
    // a player refused the rematch by leaving: said whatever was open
    app.closedShown = true;
    for (const d of $$('dialog[open]')) if (d.id !== 'deal-end') d.close();
    showDealEnd(true);
  } else if ($('#deal-end').open) renderDealEnd();
}

function attachChat(seat) {
  const chat = $('#table-chat');
  const conn = app.conn;
  if (chat && conn) chat.attach((m) => conn.send(m), seat, () => conn.opens);
}

function chatError(msg) {
  const chat = $('#table-chat');
  if (chat && !chat.hidden && typeof chat.receive === 'function') chat.receive(msg);
}

function scheduleFlush() {
  if (app.holdTimer) return;
  app.holdTimer = setTimeout(flushQueue, Math.max(0, app.holdUntil - performance.now()));
}

function flushQueue() {
  app.holdTimer = null;
  // the trick held is cleared before what came after it is drawn: the
  // status then says the next turn, never with the old trick on the table
  if (app.model && performance.now() >= app.holdUntil) app.model.clearTrick();
  while (app.queue.length && app.model) {
    if (performance.now() < app.holdUntil) {
      scheduleFlush();
      return;
    }
    handle(app.queue.shift());
  }
  if (app.model && performance.now() >= app.holdUntil) endHold();
}

/** The finished trick has been shown long enough.  The turn that came
 * after it is drawn (flushQueue); when none came, the turn before it still
 * holds (the server sends a turn only when it changed: the seat that
 * played the trick's last card won it and leads), so it is drawn again. */
function endHold() {
  const model = app.model;
  if (!model) return;
  const cleared = model.clearTrick();
  if (app.heldTrick && model.turn?.played) model.turn.played = false;
  if (app.heldTrick || cleared) render();
  app.heldTrick = false;
}

function handle(msg) {
  const model = app.model;
  if (!model) return;
  if (msg.t !== 'error') app.appliedV = msg.v;
  if (msg.t === 'snapshot') {
    model.applySnapshot(msg.d);
    assistSnapshot(msg.d);
    attachChat(msg.d.table.you);
    app.view.ui.beloteAsk = null;
    render();
    if (model.summary && model.turn?.waiting !== 'action') showDealEnd(false);
    if (model.match?.winner) rememberFinished(model); // a match seen over after a reload
    if (!app.firstRender) {
      app.firstRender = true;
      performance.mark('rb:table-rendered');
      $('#table-page').dataset.ready = '1';
    }
    return;
  }
  if (msg.t === 'error') {
    // a chat line refused: said in the chat panel (a bad_message while an
    // action is on its way is the action's)
    if (CHAT_ERRORS.has(msg.d.code) && !(msg.d.code === 'bad_message' && model.pending)) {
      chatError(msg);
      return;
    }
    model.pending = false;
    app.inflight = null;
    clearTimeout(app.pendingTimer);
    assistError(msg.d);
    // a refusal that closes the connection is said by the page that follows
    // an action the rules refuse: why, in words (the server's `why`)
    if (msg.d.why && msg.d.code === 'illegal') toast(reasonText(msg.d.why));
    // (not your turn during the bidding: it is not your turn to speak)
    else if (msg.d.code === 'not_your_turn' && model.turn?.phase === 'bidding') toast(t('error.not_your_turn_bid'));
    else if (!CLOSING_ERRORS.has(msg.d.code)) toast(errorText(msg.d));
    render();
    if ($('#deal-end').open) renderDealEnd();
    return;
  }
  const taken = assistEvent(msg.d);
  if (taken) {
    // a takeback: the table as it was before our last card or bid (js/hint.js)
    model.applySnapshot(taken);
    app.view.ui.beloteAsk = null;
    app.inflight = null;
    clearTimeout(app.pendingTimer);
    if ($('#deal-end').open) $('#deal-end').close();
    render();
    return;
  }
  const mineBefore = model.myDecision;
  const effects = model.applyEvent(msg.d);
  announce(model, msg.d); // the live region (#announcer)
  cue(model, msg.d, mineBefore); // the sounds, when on
  if (msg.d.kind === 'turn') {
    clearTimeout(app.pendingTimer);
    app.inflight = null;
  }
  if (msg.d.kind === 'trick') {
    app.heldTrick = true;
    app.holdUntil = performance.now() + trickHold();
    scheduleFlush();
  }
  if (msg.d.kind === 'seat') {
    const info = model.seatInfo(msg.d.seat);
    // a player who left once the match was over refused the rematch: the
    // summary says so (the computer in his place plays no more)
    if (msg.d.left && model.match?.winner) app.leftAfterEnd.push(msg.d.name);
    else toast(t('net.log.seat', { name: playerLabel(info), seat: t(SEAT_KEYS[msg.d.seat]) }));
  }
  if (effects.includes('new_deal')) {
    const d = $('#deal-end');
    if (d.open) d.close();
    app.view.ui.beloteAsk = null;
  }
  render();
  if (effects.includes('match_end')) rememberFinished(model);
  if (effects.includes('deal_end') || effects.includes('match_end')) showDealEnd(true);
  else if ($('#deal-end').open) renderDealEnd();
}

const CHAT_ERRORS = new Set(['rate_limited', 'bad_message', 'spectator']);
const CLOSING_ERRORS = new Set(['table_not_found', 'private', 'bad_token', 'left']);

function render() {
  const model = app.model;
  if (!model || !model.table) return;
  app.view.render(model);
  const page = $('#table-page');
  page.dataset.phase = model.turn?.phase || '';
  page.dataset.waiting = model.turn?.waiting || '';
  page.dataset.turn = model.turn?.seat || '';
  page.dataset.myTurn = String(model.myDecision);
  page.dataset.pending = String(model.pending);
  page.dataset.deal = String(model.match?.deal || 0);
  page.dataset.match = String(model.match?.number || 0);
  renderAway(model);
  renderAssist(app);
  renderFair(model);
  if (app.keyboard && model.myDecision && !document.querySelector('dialog[open]')) {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || active.disabled;
    if (lost) focusZone(defaultZone(), 0);
  }
}

/** The banner of a player for whom a computer plays (his time ran out, or
 * the room says he is away), with "I am back". */
function renderAway(model) {
  const banner = $('#away-banner');
  const me = model.mode === 'play' && model.you ? model.roomSeat(model.you) : null;
  const show = model.mode === 'play' && (app.timedOut || !!me?.away);
  banner.hidden = !show;
  if (!show) return;
  const reason = app.timedOut ? 'move' : me?.away_reason || null;
  banner.dataset.reason = reason || '';
  $('#away-text').textContent = reason === 'move' ? t('table.timedOut') : t('table.awayYou');
}

/** Whether `action` is one the server offers now: a text of `turn.legal`,
 * or a card of `turn.belote_choice` with the word of the choice, in the
 * core's notation (`QH belote`, `QH no-belote`). */
function offered(turn, action) {
  if (turn.legal.includes(action)) return true;
  const m = /^(\S+) (belote|no-belote)$/.exec(action);
  return Boolean(m) && turn.belote_choice.includes(m[1]);
}

function act(action, belote) {
  const model = app.model;
  if (!model || model.pending) return;
  if (!model.turn || !offered(model.turn, action)) return; // only what the server offers
  const card = action.split(' ')[0];
  if (isCard(card)) performance.mark(`rb:click:${card}`);
  // the action's id (a resend after a drop is not applied twice) and the
  // version it was chosen at (a click on a table that has changed since is
  // refused as stale): docs/protocol.md
  app.actions += 1;
  const sent = { action, belote, id: `${app.session}-${app.actions}`, v: app.appliedV };
  if (!app.conn.act(action, belote, sent)) {
    toast(t('conn.offline'));
    return;
  }
  app.inflight = sent;
  app.timedOut = false; // acting is being back
  model.pending = true;
  app.view.ui.beloteAsk = null;
  app.view.ui.refused = null; // a reason shown is over once the player acts
  clearTimeout(app.pendingTimer);
  app.pendingTimer = setTimeout(() => {
    if (app.model === model && model.pending) {
      model.pending = false;
      render();
    }
  }, PENDING_TIMEOUT);
  render();
}

function clickCard(card) {
  const model = app.model;
  const turn = model?.turn;
  if (app.view.ui.refused && app.view.ui.refused.card !== card) {
    app.view.ui.refused = null; // another card clicked: the reason shown is over
    render();
  }
  if (!turn || model.pending || turn.seat !== model.you || !turn.legal.includes(card)) return;
  if (turn.belote_choice.includes(card)) {
    app.view.ui.beloteAsk = card;
    render();
    $('[data-belote="yes"]')?.focus();
    return;
  }
  act(card);
}

/** Leave a lobby table (`leave`): the server closes our sockets with 4000. */
function leaveTable() {
  if (!app.conn || !app.conn.send({ t: 'leave' })) toast(t('conn.offline'));
}

/** Every second: the countdowns' texts (seats, the next deal's start). */
function tick() {
  for (const node of $$('[data-until]')) {
    const until = Number(node.dataset.until);
    node.textContent = countdownText(node.dataset.reason, until, node.dataset.you !== undefined);
  }
}

// ----------------------------------------------------------------- replay

/** A finished game at the table: every hand, step by step (read only). */
async function openReplay(tableId, match, analysis = false) {
  closeTable();
  const opening = app.opening;
  const token = load(TOKENS_KEY, {})[tableId];
  const q = new URLSearchParams();
  if (match) q.set('match', String(match));
  if (token) q.set('token', token);
  const id = encodeURIComponent(tableId);
  const tq = token ? `?${new URLSearchParams({ token })}` : '';
  let data;
  let info;
  try {
    [data, info] = await Promise.all([
      api(`api/tables/${id}/replay?${q}`),
      api(`api/tables/${id}${tq}`).catch(() => null),
      presets().catch(() => []),
    ]);
  } catch (err) {
    if (opening !== app.opening) return;
    if (err.status === 404 || err.status === 422) showMissing('not_found', tableId);
    else {
      toast(errorText(err));
      showMissing('not_found', tableId);
    }
    return;
  }
  if (opening !== app.opening) return;
  const preset = info?.rules?.preset || (typeof data.rules === 'string' ? data.rules : data.rules?.preset) || 'ffb';
  const known = (app.presets || []).find((p) => p.name === preset);
  const rules = info?.rules || {
    preset, players: data.seats.length, target: data.rules?.target ?? known?.target ?? 0,
    description: known?.description || '', options: {},
  };
  const seats = replaySeats(info?.seats || data.seats);
  app.mode = 'replay';
  app.tableId = tableId;
  app.replay = {
    tableId, data, index: 0, step: 0, totals: replayTotals(data, info),
    table: { id: tableId, you: null, seats, rules, options: {}, status: 'finished' }, seatsNow: seats,
  };
  app.view = newView();
  const page = $('#table-page');
  page.dataset.mode = 'replay';
  page.classList.add('side');
  $('#replay').hidden = false;
  showPage('table-page');
  drawReplay();
  page.dataset.ready = '1';
  if (analysis) openAnalysis(app); // #/replay/ID/N/analysis: straight to the expert's analysis
}

/** The seats of a replay as the table's model keeps them: a solo table's
 * player with no name of his own is "You" (the one who replays it), said in
 * the page's language. */
function replaySeats(list) {
  return list.map((s) => ({
    seat: s.seat, kind: s.kind, name: s.kind === 'human' && s.name === 'You' ? t('seat.you') : s.name,
    level: s.level ?? null, guest: !!s.guest, left: !!s.left,
  }));
}

function drawReplay() {
  const r = app.replay;
  if (!r) return;
  const deals = r.data.deals;
  // each deal names who played it (its `seats`: a player who refused the
  // rematch played the whole match), else who sits there now
  const played = deals[r.index]?.seats;
  if (played) r.table = { ...r.table, seats: replaySeats(played) };
  else if (r.seatsNow) r.table = { ...r.table, seats: r.seatsNow };
  const box = $('#replay');
  const where = $('#replay-where');
  const controls = {
    prevDeal: $('[data-action="replay-prev-deal"]'), prev: $('[data-action="replay-prev"]'),
    next: $('[data-action="replay-next"]'), nextDeal: $('[data-action="replay-next-deal"]'),
  };
  const exportDeal = $('#export-deal');
  const exportMatch = $('#export-match');
  if (!deals.length) {
    where.textContent = t('replay.noDeal');
    for (const b of Object.values(controls)) b.disabled = true;
    exportDeal.hidden = true;
    exportMatch.hidden = true;
    $('#replay-auction').replaceChildren();
    $('#replay-summary').hidden = true;
    app.model = null;
    return;
  }
  const d = deals[r.index];
  const steps = dealSteps(d);
  const model = replayModel(r);
  app.model = model;
  drawReplayHelp(app);
  const last = model.deal.trickDone && model.deal.trickWinner ? model.lastTrick : null;
  if (r.step === steps) model.replayStatus = resultLabel(d.result);
  else if (r.step === 0) model.replayStatus = t('replay.auction');
  else if (last) model.replayStatus = t('table.lastTrickWon', { name: seatName(model, last.winner), n: last.number, points: last.points });
  else model.replayStatus = t('replay.trick', { n: model.deal.trickNumber });
  render();
  box.dataset.index = String(r.index);
  box.dataset.step = String(r.step);
  box.dataset.steps = String(steps);
  box.dataset.match = String(d.match);
  box.dataset.deal = String(d.deal);
  where.textContent = t('replay.where', {
    match: d.match, deal: d.deal, i: r.index + 1, n: deals.length, card: r.step, cards: steps,
  });
  // the records of this deal and of its match (`GET .../record`), as the
  // replay reads them: with the seat's token kept here (a private table's)
  const record = (q) => {
    const token = load(TOKENS_KEY, {})[r.tableId];
    if (token) q.token = token;
    return `/api/tables/${encodeURIComponent(r.tableId)}/record?${new URLSearchParams(q)}`;
  };
  exportDeal.href = record({ match: d.match, deal: d.deal });
  exportDeal.download = `rebelote-${r.tableId}-m${d.match}-d${d.deal}.json`;
  exportMatch.href = record({ match: d.match });
  exportMatch.download = `rebelote-${r.tableId}-m${d.match}.json`;
  exportDeal.hidden = false;
  exportMatch.hidden = false;
  controls.prevDeal.disabled = r.index === 0;
  controls.nextDeal.disabled = r.index === deals.length - 1;
  controls.prev.disabled = r.index === 0 && r.step === 0;
  controls.next.disabled = r.index === deals.length - 1 && r.step === steps;
  const bids = d.bids.map(([seat, bid]) => h('li', { class: 'replay-bid', 'data-seat': seat },
    h('span', { class: 'who', text: `${seatName(model, seat)} :` }), ' ', bidLabel(bid, d.turned, true)));
  const auction = [h('span', { class: 'replay-label', text: t('replay.bids') }), h('ol', { class: 'replay-bids' }, ...bids)];
  const contract = model.deal.contract;
  if (contract) auction.push(h('span', { class: 'replay-contract' }, t('end.contract'), ' ', contractLabel(model, contract)));
  $('#replay-auction').replaceChildren(...auction);
  const summary = $('#replay-summary');
  if (r.step === steps && model.summary) {
    summary.replaceChildren(h('h3', { text: t('end.dealTitle', { n: d.deal, result: resultLabel(d.result) }) }),
      ...summaryParts(model, model.summary, model.match.totals));
    summary.hidden = false;
  } else {
    summary.replaceChildren();
    summary.hidden = true;
  }
}

/** Move in the replay: `dStep` cards (across deals), or `dDeal` deals. */
function stepReplay(dStep, dDeal) {
  const r = app.replay;
  if (!r || !r.data.deals.length) return;
  const deals = r.data.deals;
  if (dDeal) {
    r.index = Math.max(0, Math.min(deals.length - 1, r.index + dDeal));
    r.step = 0;
  } else {
    r.step += dStep;
    if (r.step > dealSteps(deals[r.index])) {
      if (r.index < deals.length - 1) {
        r.index += 1;
        r.step = 0;
      } else r.step = dealSteps(deals[r.index]);
    } else if (r.step < 0) {
      if (r.index > 0) {
        r.index -= 1;
        r.step = dealSteps(deals[r.index]);
      } else r.step = 0;
    }
  }
  drawReplay();
}

// ------------------------------------------------------- end of deal/match

function showDealEnd(fresh) {
  const model = app.model;
  if (!model?.summary) return;
  const key = `${model.match.number}:${model.match.deal}:${model.match.winner || ''}`;
  if (!fresh && app.endShown === key) return;
  app.endShown = key;
  renderDealEnd();
  const d = $('#deal-end');
  if (!d.open) d.showModal();
  ($('#deal-end-buttons .primary') || $('#deal-end-buttons button'))?.focus();
}

function renderDealEnd() {
  const model = app.model;
  const s = model?.summary;
  if (!s || model.mode === 'replay') return;
  const m = model.match;
  const over = !!m.winner;
  const title = $('#deal-end-title');
  const body = $('#deal-end-body');
  const dialog = $('#deal-end');
  dialog.dataset.result = s.result || '';
  dialog.dataset.over = String(over);
  if (over) {
    const mine = !!model.you && m.winner.includes(model.you);
    title.textContent = mine ? t('end.youWin') : t('end.winnerIs', { name: sideName(model, m.winner) });
  } else {
    title.textContent = t('end.dealTitle', { n: m.deal, result: resultLabel(s.result) });
  }
  const parts = summaryParts(model, s, s.totals || m.totals);
  if (over) {
    parts.push(h('h3', { text: t('table.sheet') }), sheetTable(model));
  }
  parts.push(...agreementParts(model));
  body.replaceChildren(...parts);
  const buttons = [];
  const turn = model.turn;
  const legal = turn?.legal || [];
  const agreed = !!model.you && !!turn && turn.waiting !== 'action' && turn.agreed.includes(model.you);
  const closed = model.lobby && model.room?.status === 'closed';
  const waiting = !closed && ((agreed && turn.waiting !== 'action') || (model.pending && !!turn && turn.waiting !== 'action'));
  const waitingButton = () => h('button', { type: 'button', class: 'btn primary', 'data-action': 'waiting', disabled: true, text: t('action.waiting') });
  if (over) {
    // the replay of the match with the expert's analysis (#/replay/ID/N/analysis)
    if (model.table?.id) {
      buttons.push(h('button', {
        type: 'button', class: 'btn', 'data-action': 'analysis',
        'data-replay': `#/replay/${model.table.id}/${m.number}/analysis`, text: t('action.analysis'),
      }));
    }
    if (!model.lobby) buttons.push(h('button', { type: 'button', class: 'btn', 'data-action': 'new-match', text: t('action.newMatch') }));
    else if (model.mode !== 'play' || closed) buttons.push(h('a', { class: 'btn', href: LOBBY_URL, 'data-action': 'to-lobby', text: t('action.toLobby') }));
    else buttons.push(h('button', { type: 'button', class: 'btn', 'data-action': 'leave-table', text: t('action.noRematch') }));
    if (legal.includes('rematch') && !waiting && !closed) buttons.push(h('button', { type: 'button', class: 'btn primary', 'data-action': 'rematch', 'data-act': 'rematch', text: t('action.rematch') }));
    else if (waiting && turn.waiting === 'rematch') buttons.push(waitingButton());
  } else {
    buttons.push(h('button', { type: 'button', class: 'btn', 'data-action': 'close', text: t('dialog.close') }));
    if (model.table?.options?.deals && turn && turn.waiting == null) {
      // the daily deal's set is over (docs/daily.md): its results page
      buttons.push(h('a', { class: 'btn primary', href: '/daily.html', 'data-action': 'daily-results', text: t('action.dailyResults') }));
    } else if (legal.includes('next') && !waiting) buttons.push(h('button', { type: 'button', class: 'btn primary', 'data-action': 'next', 'data-act': 'next', text: t('action.next') }));
    else if (waiting && turn.waiting === 'next') buttons.push(waitingButton());
  }
  const box = $('#deal-end-buttons');
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  const hadPrimary = !!box.querySelector('.primary:not(:disabled)');
  box.replaceChildren(...buttons);
  if (dialog.open) {
    // The primary button (next deal, rematch) takes the focus when it comes.
    const primary = box.querySelector('.primary:not(:disabled)');
    const again = primary && !hadPrimary ? primary : (focused && box.querySelector(`[data-action="${focused}"]:not(:disabled)`)) || primary || box.querySelector('button:not(:disabled), a');
    if (again && (focused || document.activeElement === document.body || !document.activeElement?.isConnected)) again.focus();
  }
}

/** At a lobby table waiting for the next deal or a rematch: who agreed, who
 * is awaited, when the table goes on by itself (`turn.deadline`); a table
 * closed (a player refused the rematch by leaving). */
function agreementParts(model) {
  const turn = model.turn;
  if (!model.lobby) return [];
  if (model.room?.status === 'closed' && model.match?.winner) {
    // who refused the rematch (seen leaving; else, after a reload, whoever left)
    const gone = app.leftAfterEnd.length ? app.leftAfterEnd : model.room.seats.filter((s) => s.left).map((s) => s.name);
    return [h('p', { class: 'agreement closed', 'data-closed': '' },
      gone.length ? t('end.closedBy', { names: gone.join(', ') }) : t('end.closed'))];
  }
  if (!turn || (turn.waiting !== 'next' && turn.waiting !== 'rematch')) return [];
  const humans = (model.room?.seats || model.table.seats).filter((s) => s.kind === 'human' && !s.left).map((s) => s.seat);
  const agreed = humans.filter((seat) => turn.agreed.includes(seat));
  const awaited = humans.filter((seat) => !turn.agreed.includes(seat));
  const names = (list) => list.map((seat) => (seat === model.you ? t('seat.you') : seatName(model, seat))).join(', ');
  const box = h('div', { class: 'agreement', 'data-agreed': agreed.join(' '), 'data-awaited': awaited.join(' ') });
  if (agreed.length) box.append(h('p', { class: 'agreed', text: t('end.agreed', { names: names(agreed) }) }));
  if (awaited.length && humans.length > 1) box.append(h('p', { class: 'awaited', text: t('end.awaited', { names: names(awaited) }) }));
  if (turn.deadline !== null) {
    const until = (turn.deadline - app.clockOffset) * 1000;
    box.append(h('p', { class: 'countdown', 'data-reason': 'start', 'data-until': String(until), text: countdownText('start', until) }));
  }
  return box.childElementCount ? [box] : [];
}

/** Whether another human still sits at the table (he may have to agree too). */
function othersAtTable(model) {
  return (model.room?.seats || []).some((s) => s.kind === 'human' && !s.left && s.seat !== model.you);
}

function sheetTable(model) {
  const m = model.match;
  const sides = m.sides;
  const rows = m.sheet.map((line) =>
    h('tr', { 'data-sheet-deal': line.deal },
      h('td', { class: 'num', text: String(line.deal) }),
      h('td', { class: 'what' },
        line.contract ? contractLabel(model, parseContract(line.contract)) : null,
        h('span', { class: `result ${line.result}`, 'data-result': line.result, text: resultLabel(line.result) })),
      ...sides.map((side) => h('td', { class: 'num' },
        h('span', { class: 'plus', text: `+${line.score[side] ?? 0}` }),
        h('span', { class: 'running', text: String(line.totals[side] ?? 0) })))));
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'sheet', 'data-sheet': '' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num', text: t('sheet.deal') }),
        h('th', { scope: 'col', text: t('sheet.contract') }),
        ...sides.map((side) => h('th', { scope: 'col', class: 'num', text: sideName(model, side) })))),
      h('tbody', {}, ...rows),
      h('tfoot', {}, h('tr', {},
        h('th', { scope: 'row', colspan: 2, text: t('sheet.total', { target: m.target }) }),
        ...sides.map((side) => h('td', { class: 'num', 'data-total': side }, h('b', { text: String(m.totals[side] ?? 0) })))))));
}

function showSheet() {
  if (!app.model?.match) return;
  const body = $('#sheet-body');
  body.replaceChildren(app.model.match.sheet.length ? sheetTable(app.model) : h('p', { text: t('sheet.empty') }));
  $('#sheet').showModal();
}

function showLastTrick() {
  const model = app.model;
  const body = $('#last-trick-body');
  const tr = model?.lastTrick;
  if (!tr) body.replaceChildren(h('p', { text: t('table.noLastTrick') }));
  else {
    body.replaceChildren(
      h('div', { class: 'last-cards', 'data-last-trick': tr.number },
        ...tr.cards.map((card, i) => {
          const seat = tr.seats[i];
          return h('figure', { class: `last-card${seat === tr.winner ? ' winner' : ''}` },
            cardElement(card, { 'data-last-seat': seat }),
            h('figcaption', { text: seatName(model, seat) }));
        })),
      h('p', { class: 'last-note', text: t('table.lastTrickWon', { name: seatName(model, tr.winner), n: tr.number, points: tr.points }) }));
  }
  $('#last-trick').showModal();
}

// ----------------------------------------------------------------- keyboard

function zoneItems(zone) {
  if (zone === 'hand') return $$('#hand button.card:not(:disabled)');
  return $$('#actions button:not(:disabled), #actions input:not(:disabled)');
}

function defaultZone() {
  return zoneItems('hand').length ? 'hand' : 'actions';
}

function focusZone(zone, index) {
  const items = zoneItems(zone);
  if (!items.length) return false;
  const i = index < 0 ? items.length - 1 : Math.min(index, items.length - 1);
  items[i].focus();
  return true;
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Tab', 'Enter', ' '].includes(e.key)) app.keyboard = true;
  if (app.mode === 'replay' && !document.querySelector('dialog[open]')) {
    // the replay: ← → one card, ↑ ↓ one deal
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      stepReplay(...moves[e.key]);
    }
    return;
  }
  if (!app.model || document.querySelector('dialog[open]')) return;
  const active = document.activeElement;
  if (active?.closest?.('rebelote-chat')) return; // typing in the chat
  if (active && active.tagName === 'INPUT' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;
  if (e.key === 'Escape' && app.view?.ui.beloteAsk) {
    app.view.ui.beloteAsk = null;
    render();
    return;
  }
  const zone = active?.closest?.('#hand') ? 'hand' : active?.closest?.('#actions') ? 'actions' : null;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    e.preventDefault();
    const d = e.key === 'ArrowLeft' ? -1 : 1;
    if (!zone) {
      focusZone(defaultZone(), d < 0 ? -1 : 0);
      return;
    }
    const items = zoneItems(zone);
    const i = items.indexOf(active);
    if (!items.length) return;
    items[(i + d + items.length) % items.length].focus();
  } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    const target = e.key === 'ArrowUp' ? 'actions' : 'hand';
    if (zone !== target || !zone) {
      e.preventDefault();
      if (!focusZone(target, 0)) focusZone(defaultZone(), 0);
    }
  }
}

// --------------------------------------------------------------- wiring

function onClick(e) {
  const btn = e.target.closest('[data-action]');
  if (!btn) return;
  const action = btn.dataset.action;
  const dialog = btn.closest('dialog');
  switch (action) {
    case 'new':
      showNewGame();
      break;
    case 'verify':
      if (app.model?.table) openFair(app.model, load(TOKENS_KEY, {})[app.model.table.id] || null);
      break;
    case 'continue':
      location.hash = `#/table/${btn.dataset.table}`;
      break;
    case 'cancel-new':
    case 'close':
      dialog?.close();
      break;
    case 'last-trick':
      showLastTrick();
      break;
    case 'sheet':
      showSheet();
      break;
    case 'menu':
      // the finished deals of this match, in the replay
      $('#menu-replay').hidden = !(app.mode === 'play' && app.model?.match?.sheet?.length);
      $('#menu').showModal();
      break;
    case 'settings': {
      dialog?.close();
      // the computer players' speed is the table's: changed here during a
      // match where no other person plays (the server stores it), else said
      const speed = app.model?.table?.options?.speed;
      const alone = app.mode === 'play' && !!app.model?.you && !!app.model.match && !othersAtTable(app.model);
      const note = $('#settings-speed');
      note.textContent = SPEED_KEYS[speed] ? t('settings.speedNote', { speed: t(SPEED_KEYS[speed]) }) : '';
      note.hidden = !SPEED_KEYS[speed] || alone;
      $('#settings-table-speed').hidden = !(alone && SPEED_KEYS[speed]);
      if (SPEED_KEYS[speed]) $('[data-table-setting="speed"]').value = speed;
      app.settings.open();
      break;
    }
    case 'rules':
      dialog?.close();
      if (app.model?.table) showHelp(app.model.table.rules.preset);
      break;
    case 'lang-toggle':
      switchLang(lang() === 'fr' ? 'en' : 'fr');
      dialog?.close();
      break;
    case 'leave':
      dialog?.close();
      if (app.mode === 'play' && app.model?.lobby && app.model.you) {
        // a lobby table: leaving is told to the server (asked first)
        const playing = app.model.table?.status === 'playing';
        $('#leave-text').textContent = playing ? t('net.leaveConfirm') : t('leave.text');
        $('#leave-dialog').showModal();
      } else if (app.mode === 'watch' || app.model?.lobby) location.href = LOBBY_URL;
      else location.hash = '';
      break;
    case 'leave-confirm':
      dialog?.close();
      leaveTable();
      break;
    case 'leave-table':
      // the match is over: refusing the rematch is leaving the table
      dialog?.close();
      leaveTable();
      break;
    case 'hint':
      if (!askHint(app)) toast(t('conn.offline'));
      render();
      break;
    case 'takeback':
      if (!askTakeback(app)) toast(t('conn.offline'));
      break;
    case 'analysis':
      if (btn.dataset.replay) {
        // from the end of the match: its replay, the analysis open
        dialog?.close();
        location.hash = btn.dataset.replay;
      } else openAnalysis(app);
      break;
    case 'menu-replay':
      dialog?.close();
      if (app.model?.table?.id && app.model.match) location.hash = `#/replay/${app.model.table.id}/${app.model.match.number}`;
      break;
    case 'analysis-prev':
    case 'analysis-next':
      stepReplay(0, action === 'analysis-prev' ? -1 : 1);
      openAnalysis(app); // the deal's match may be another one
      break;
    case 'back':
      app.conn?.send({ t: 'back' });
      app.timedOut = false;
      if (app.model) render();
      break;
    case 'replay-prev':
      stepReplay(-1, 0);
      break;
    case 'replay-next':
      stepReplay(1, 0);
      break;
    case 'replay-prev-deal':
      stepReplay(0, -1);
      break;
    case 'replay-next-deal':
      stepReplay(0, 1);
      break;
    case 'summary':
      showDealEnd(true);
      break;
    case 'next':
    case 'rematch':
      if (btn.closest('#deal-end')) {
        // the summary stays open, waiting: who agreed, who is awaited
        act(action);
        renderDealEnd();
      } else if (app.model?.lobby && othersAtTable(app.model)) {
        // agreed from the action bar (its button sent it): the same list
        showDealEnd(true);
      }
      break;
    case 'new-match':
      dialog?.close();
      location.hash = '';
      showNewGame();
      break;
    default:
      break;
  }
}

async function switchLang(code) {
  await setLang(code);
  for (const b of $$('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === code));
  if ($('#start-page').hidden === false) {
    renderPresetList(app.presets || []);
    $('#brand-cards').replaceChildren();
    renderBrand();
  }
  if (app.view) {
    app.view.trickKey = null;
    app.view.actionsKey = null;
    if (app.mode === 'replay') drawReplay();
    else render();
    if ($('#deal-end').open) renderDealEnd();
  }
  const missing = $('#table-missing');
  if (!missing.hidden) {
    const keys = MISSING_KEYS[missing.dataset.reason] || MISSING_KEYS.not_found;
    $('#table-missing-title').textContent = t(keys[0]);
    $('#table-missing-text').textContent = t(keys[1]);
  }
}

async function main() {
  window.rebelote = app; // for tests and debugging: the model, the view, the connection
  document.body.prepend(suitSprite(), backPattern());
  applyCosmetics(document.body); // the card back and cloth the player chose in the shop
  await setLang(preferredLang()).catch(() => setLang('fr'));
  for (const b of $$('[data-lang]')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
    b.addEventListener('click', () => switchLang(b.dataset.lang));
  }
  // the settings panel (js/settings.js); a change redraws the table
  app.settings = initSettings($('#settings'), { onLang: switchLang, lang });
  document.addEventListener('rebelote:settings', () => {
    if (app.view && app.mode !== 'replay') render();
  });
  document.addEventListener('click', onClick);
  // the computer players' speed, from the settings during a match
  $('[data-table-setting="speed"]')?.addEventListener('change', (e) => {
    if (!app.conn?.send({ t: 'options', d: { speed: e.target.value } })) toast(t('conn.offline'));
  });
  document.addEventListener('keydown', onKey);
  document.addEventListener('pointerdown', () => (app.keyboard = false));
  $('#new-game-form').addEventListener('submit', startNewGame);
  $('#analysis').addEventListener('close', closeAnalysis);
  $('#deal-end').addEventListener('close', () => {
    if (app.model?.summary) app.endShown = `${app.model.match.number}:${app.model.match.deal}:${app.model.match.winner || ''}`;
  });
  // a seat unmuted in the chat: a new connection brings its lines back
  $('#table-chat')?.addEventListener('unmuted', () => app.conn?.refresh());
  window.addEventListener('hashchange', route);
  setInterval(tick, 1000);
  applyI18n(document);
  route();
}

main();
