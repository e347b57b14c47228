// The lobby: account (guest, log in, sign up, a guest who becomes an
// account, password), the public tables, opening a table, and a table's
// waiting room (seats, invitation link to copy or share, computer players,
// start, leave, chat).
//
// Nothing is polled: the lobby socket (`/ws/lobby`, js/net.js's
// LobbyConnection) pushes the list (`lobby`, `table`, `table_gone`), the
// room followed (`waiting`) and the player's own tables, private ones too
// (`seated`); it reconnects by itself and gets everything again. The
// moment the host starts, every seated person here is sent to the main
// table (`/#/table/ID`), from the waiting room or from the list. Errors are
// worded by js/api.js's errorText, in the page's language; never an alert().

import { showChallenges } from './challenges.js';
import {
  $, api, currentUser, el, errorText, fetchToken, initPage, nav, playerLink, playerName, ratingText, rememberToken,
  replayHref, showError, t, tableHref, tokenOf, watchHref,
} from './common.js';
import {
  SEAT_KEYS, botName, levelLabel, presetDescription, presetName, tableName,
} from '../js/labels.js';
import { Connection, LobbyConnection } from '../js/net.js';
import { connectionStatus, showCurrentGame } from '../js/banners.js';

// The computer players' levels a host may seat (the server's BOT_LEVELS:
// every level of rebelote.bots.make_bot but the benchmark's expert-bidder).
export const LEVELS = ['random', 'beginner', 'intermediate', 'expert'];
const STATUS_KEYS = {
  open: 'lobby.status.open', playing: 'lobby.status.playing', finished: 'lobby.status.finished',
  closed: 'lobby.status.closed',
};
const status = (s) => (STATUS_KEYS[s] ? t(STATUS_KEYS[s]) : s);
const seatLabel = (seat) => t(SEAT_KEYS[seat]);
const rulesText = (room) => t('lobby.rulesTo', { preset: presetName(room.rules), target: room.rules.target })
  + (room.ranked ? ` · ${t('lobby.ranked')}` : ` · ${t('lobby.friendly')}`);

const state = {
  user: null,
  conn: null, // the lobby socket
  tables: new Map(), // id -> RoomData, as the socket pushed them
  room: null, // {id, invite}: the waiting room followed
  roomData: null, // the last `waiting`: {room, you}
  chatConn: null, // the seat's table socket in the waiting room (chat)
  tokenAsked: null, // the table whose seat token was asked of the server (once)
  joining: null, // the table whose seat is being taken
  chatOpening: null, // the table whose chat waits for its token
  mine: new Map(), // id -> status: the tables where the player holds a seat (his history's running ones, then `seated`)
  leaving: false,
  going: false, // on the way to the table
};
window.rebelote = state; // for tests and debugging

/** Run `fn` once at a time for a button: disabled (and a second click
 * ignored) while its request is in flight; `key` names the action, so that
 * a button drawn again meanwhile is drawn disabled too. */
const inFlight = new Set();
function oneAtATime(key, fn) {
  return async (ev) => {
    if (inFlight.has(key)) return;
    inFlight.add(key);
    const button = ev?.currentTarget;
    if (button) button.disabled = true;
    try {
      await fn();
    } finally {
      inFlight.delete(key);
      if (button) button.disabled = false;
    }
  };
}
const busy = (key) => inFlight.has(key) || null;

/** Every form's error box: a form's error goes when another form is sent. */
function clearErrors(except) {
  for (const box of document.querySelectorAll('[data-form-error]')) {
    if (box !== except) box.textContent = '';
  }
}

// ------------------------------------------------------------------ account

/** The tables where the player sits: no "sit" buttons there. */
async function refreshMine() {
  const history = state.user ? await api('/api/me/history').catch(() => null) : null;
  state.mine = new Map((history?.running || []).map((r) => [r.table_id, r.status]));
}

async function refreshUser() {
  state.user = await currentUser().catch(() => null);
  await refreshMine();
  $('#nav').replaceChildren(nav(state.user));
  renderAccount();
  $('#create').hidden = !state.user;
  const guest = Boolean(state.user?.guest);
  const ranked = $('#create-form select[name="ranked"]');
  ranked.querySelector('option[value="true"]').disabled = guest;
  if (guest) ranked.value = 'false';
  $('#ranked-note').hidden = !guest;
  drawTables();
}

/** After logging in or out: the lobby socket knows the player by his
 * session cookie, so it opens again (and the room with it). */
async function sessionChanged() {
  await refreshUser();
  state.conn?.refresh();
  showCurrentGame($('main'), { except: state.room?.id }).catch(() => {});
  const challenges = $('#challenges-panel');
  if (challenges) showChallenges(challenges).catch(() => {}); // his coins, or the account note
}

function form(id, title, fields, submit, onSubmit, hint, wide = false) {
  const error = el('p', { class: 'error', role: 'alert', dataset: { formError: id } });
  const f = el('form', { class: 'form-grid', 'aria-label': title, dataset: { form: id } },
    ...fields.map(([name, label, type, value]) => el('label', {},
      el('span', { text: label }),
      el('input', {
        name, type, required: true, maxlength: type === 'password' ? 200 : 40, value: value ?? null,
        autocomplete: type === 'password' ? (id === 'login' ? 'current-password' : 'new-password') : 'nickname',
      }))),
    el('button', { type: 'submit', class: 'btn primary', text: submit }));
  f.addEventListener('input', () => { error.textContent = ''; });
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clearErrors(error);
    const data = Object.fromEntries(new FormData(f));
    try {
      await onSubmit(data);
      error.textContent = '';
      await sessionChanged();
    } catch (err) {
      showError(error, err);
    }
  });
  return el('div', { class: `account-form${wide ? ' wide' : ''}` }, el('h3', { text: title }), hint ? el('p', { class: 'note', text: hint }) : null, f, error);
}

function renderAccount() {
  const box = $('#account');
  const user = state.user;
  if (!user) {
    box.replaceChildren(
      el('h2', { text: t('lobby.whoAreYou') }),
      el('div', { class: 'account-forms' },
        form('guest', t('lobby.guest'), [['name', t('lobby.name'), 'text']], t('lobby.guest'),
          (d) => api('/api/auth/guest', { method: 'POST', body: { name: d.name } })),
        form('login', t('lobby.login'), [['name', t('lobby.name'), 'text'], ['password', t('lobby.password'), 'password']], t('lobby.login'),
          (d) => api('/api/auth/login', { method: 'POST', body: d })),
        form('signup', t('lobby.signup'), [['name', t('lobby.name'), 'text'], ['password', t('lobby.newPasswordHint'), 'password']], t('lobby.signup'),
          (d) => api('/api/auth/signup', { method: 'POST', body: d }))));
    return;
  }
  const out = el('button', { class: 'btn ghost', type: 'button', dataset: { action: 'logout' }, text: t('lobby.logout'), onclick: async () => {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    await sessionChanged();
  } });
  const line = el('p', { class: 'user-line' }, el('strong', { text: user.name }),
    user.guest ? el('span', { class: 'badge', text: t('lobby.guestBadge') })
      : el('span', { text: ` · ${t('lobby.userLine', { level: user.level, xp: user.xp, rating: ratingText(user.rating, user.provisional), rated: user.rated })}` }),
    !user.guest && user.provisional ? el('span', { class: 'badge', text: t('board.provisional') }) : null);
  const parts = [el('div', { class: 'account-head' }, line, out)];
  if (user.guest) {
    // a guest becomes an account: the same player, his history kept
    parts.push(form('upgrade', t('lobby.upgrade'), [['name', t('lobby.name'), 'text', user.name], ['password', t('lobby.newPasswordHint'), 'password']],
      t('lobby.signup'), (d) => api('/api/auth/signup', { method: 'POST', body: d }), t('lobby.upgradeHint'), true));
  } else {
    const details = el('details', { class: 'account-more' }, el('summary', { text: t('lobby.changePassword') }),
      form('password', t('lobby.changePassword'), [['old', t('lobby.oldPassword'), 'password'], ['new', t('lobby.newPassword'), 'password']],
        t('lobby.change'), (d) => api('/api/auth/password', { method: 'POST', body: d })));
    parts.push(details);
  }
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ the list

function seatWho(s) {
  if (s.kind === 'open') return t('lobby.free');
  if (s.kind === 'bot' && !botName(s)) return t('lobby.computer', { level: levelLabel(s.level) });
  return playerName(s);
}

function drawTables() {
  const rooms = [...state.tables.values()].sort((a, b) => (a.status !== 'open') - (b.status !== 'open'));
  const user = state.user;
  $('#tables').replaceChildren(...rooms.map((r) => {
    const open = r.status === 'open' ? r.seats.filter((s) => s.kind === 'open').map((s) => s.seat) : [];
    const actions = el('div', { class: 'card-actions' });
    if (state.mine.has(r.id)) actions.append(el('p', { class: 'note', text: t('lobby.yourTable') }));
    else if (open.length) {
      if (!user) actions.append(el('p', { class: 'note', text: t('lobby.loginToSit') }));
      else if (r.ranked && user.guest) actions.append(el('p', { class: 'note', dataset: { rankedGuest: r.id }, text: t('lobby.rankedGuest') }));
      else {
        for (const seat of open) {
          actions.append(el('button', {
            type: 'button', class: 'btn', text: t('lobby.sitAt', { seat: seatLabel(seat) }), dataset: { join: `${r.id}:${seat}` },
            disabled: busy(`join:${r.id}`),
            onclick: oneAtATime(`join:${r.id}`, () => join(r.id, seat, null, $('#lobby-error'))),
          }));
        }
      }
    }
    actions.append(el('a', {
      class: 'btn ghost', href: `/lobby.html?table=${encodeURIComponent(r.id)}`, text: t('lobby.details'), dataset: { details: r.id },
      onclick: (ev) => { ev.preventDefault(); openRoom(r.id, null); },
    }));
    if (r.status === 'playing' && r.visibility === 'public') {
      actions.append(el('a', { class: 'btn ghost', href: watchHref(r.id), text: t('lobby.watch'), dataset: { watch: r.id } }));
    }
    return el('li', { class: 'table-card', dataset: { table: r.id, status: r.status } },
      el('h3', { text: tableName(r) }),
      el('p', { class: 'rules', text: rulesText(r) }),
      el('p', { class: 'status' }, el('span', { class: `badge status-${r.status}`, dataset: { status: r.status }, text: status(r.status) }),
        r.spectators ? el('span', { class: 'spectators', text: ` ${t('lobby.spectators', { n: r.spectators })}` }) : null),
      el('ul', { class: 'seat-list' }, ...r.seats.map((s) => el('li', { dataset: { seat: s.seat, kind: s.kind } },
        el('span', { class: 'where', text: `${seatLabel(s.seat)} : ` }), s.kind === 'human' ? playerLink(s, { class: 'name' }) : el('span', { class: 'name', text: seatWho(s) })))),
      actions);
  }));
  $('#no-tables').hidden = rooms.length > 0;
}

async function join(tableId, seat, invite, errorBox) {
  // the room may say "you" before this answer comes: no other token is
  // asked for meanwhile (it would replace this one)
  state.joining = tableId;
  try {
    const seatToken = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}/join`, { method: 'POST', body: { seat, invite } });
    rememberToken(tableId, seatToken.token);
    errorBox.textContent = '';
    state.mine.set(tableId, 'open');
    drawTables();
    state.joining = null;
    openRoom(tableId, invite || seatToken.invite);
    if (state.roomData?.room.id === tableId) drawRoom(state.roomData);
  } catch (err) {
    showError(errorBox, err);
  } finally {
    state.joining = null;
  }
}

// ------------------------------------------------------------------ the room

// the levels chosen in the room's selects: a seat's part of the room is
// drawn again when it changes, and a choice not yet sent must survive it
const chosen = { fill: 'intermediate' };

/** Rebuild `node`'s children only when what they show (`key`) changed:
 * the room is pushed at every change, and a control replaced under the
 * pointer (or the keyboard) would lose the click. */
function part(node, key, build) {
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  node.replaceChildren(...build().filter((c) => c != null));
}

/** The room's skeleton: parts updated in place by drawRoom. */
function roomView(box, tableId) {
  if (box.dataset.table === tableId && box.firstChild) return box;
  box.dataset.table = tableId;
  box.replaceChildren(el('div', { class: 'room-head' }), el('div', { class: 'seats' }), el('div', { class: 'room-invite' }),
    el('div', { class: 'actions' }), el('p', { class: 'room-note' }), el('p', { class: 'error', role: 'alert' }));
  return box;
}

/** Follow a table's waiting room (the page's URL says which). */
function openRoom(tableId, invite) {
  const q = new URLSearchParams({ table: tableId });
  if (invite) q.set('invite', invite);
  const url = `/lobby.html?${q}`;
  if (location.pathname + location.search !== url) history.pushState(null, '', url);
  followRoom(tableId, invite);
  $('#room').scrollIntoView?.({ block: 'start' });
}

function followRoom(tableId, invite) {
  if (state.room?.id !== tableId) {
    closeChat();
    state.roomData = null;
    const box = $('#room-view');
    delete box.dataset.table;
    box.replaceChildren(el('p', { class: 'note', text: t('lobby.loading') }));
  }
  state.room = { id: tableId, invite: invite || null };
  $('#room').hidden = false;
  state.conn.watchRoom(tableId, invite);
}

function leaveRoomView() {
  state.room = null;
  state.roomData = null;
  closeChat();
  state.conn.unwatchRoom();
  $('#room').hidden = true;
  $('#room-view').replaceChildren();
  delete $('#room-view').dataset.table;
}

function roomGone() {
  const box = $('#room-view');
  delete box.dataset.table;
  closeChat();
  box.replaceChildren(el('p', { class: 'error', role: 'alert', dataset: { code: 'table_not_found' },
    text: t('lobby.unavailable', { message: errorText('table_not_found') }) }));
}

const countdownKeys = { host: 'lobby.countdown.host', hold: 'net.countdown.hold', leave: 'net.countdown.leave', move: 'net.countdown.move' };

function countdownNode(c) {
  return el('div', { class: 'countdown', dataset: { reason: c.reason, deadline: String(c.deadline) },
    text: t(countdownKeys[c.reason] || 'net.countdown.hold', { s: Math.max(0, Math.round(c.seconds)) }) });
}

// countdowns are drawn from the room's deadlines: each second while one shows
let ticker = null;
function tick() {
  clearTimeout(ticker);
  const nodes = [...document.querySelectorAll('#room-view .countdown[data-deadline]')];
  for (const node of nodes) {
    const s = Math.max(0, Math.round(Number(node.dataset.deadline) - Date.now() / 1000));
    node.textContent = t(countdownKeys[node.dataset.reason] || 'net.countdown.hold', { s });
  }
  if (nodes.length) ticker = setTimeout(tick, 1000);
}

async function drawRoom({ room, you }) {
  const tableId = room.id;
  const box = $('#room-view');
  const invite = state.room?.invite || room.invite;
  if (room.status === 'playing' && you && !state.leaving) {
    // the host started: every seated person goes to the table
    if (!tokenOf(tableId)) await fetchToken(tableId);
    goToTable(tableId);
    return;
  }
  roomView(box, tableId);
  const [head, seatsBox, inviteBox, buttons, note, error] = box.children;
  const user = state.user;
  const call = (path, body) => api(`/api/lobby/tables/${encodeURIComponent(tableId)}/${path}`, { method: 'POST', body })
    .then((answer) => { error.textContent = ''; return answer; })
    .catch((err) => { showError(error, err); return null; });
  const isHost = Boolean(you && room.host === you);
  const canSit = Boolean(user && !you && room.status === 'open' && !(room.ranked && user.guest));
  const who = JSON.stringify([Boolean(user), user?.guest, you, isHost, room.status, canSit]);
  const name = tableName(room);
  part(head, JSON.stringify([name, room.rules, room.ranked, room.status, room.spectators]), () => [
    el('h2', { text: `${name} · ${rulesText(room)}` }),
    el('p', { class: 'note', text: `${t('lobby.statusLine', { status: status(room.status) })} ${presetDescription(room.rules, room.rules.description, room.rules.target)}` }),
    room.spectators ? el('p', { class: 'note', text: t('lobby.spectators', { n: room.spectators }) }) : null]);
  // one box per seat, each rebuilt only when that seat (or who we are) changed
  if (seatsBox.children.length !== room.seats.length) {
    seatsBox.replaceChildren(...room.seats.map((s) => el('div', { class: 'seat', dataset: { seat: s.seat } })));
  }
  room.seats.forEach((s, i) => {
    const seatBox = seatsBox.children[i];
    seatBox.dataset.kind = s.kind;
    const key = JSON.stringify([who, room.host, { ...s, countdowns: s.countdowns.map((c) => [c.reason, c.deadline]) }]);
    part(seatBox, key, () => {
      const parts = [
        el('div', { class: 'where', text: `${seatLabel(s.seat)}${room.host === s.seat ? ` · ${t('lobby.host')}` : ''}${you === s.seat ? ` · ${t('lobby.you')}` : ''}` }),
        el('div', { class: 'name' }, s.kind === 'open' ? t('lobby.free') : playerLink(s)),
        s.kind === 'bot' ? el('div', { class: 'level', text: t('lobby.computer', { level: levelLabel(s.level) }) }) : null,
        s.kind === 'human' ? el('div', { class: `presence ${s.connected ? 'on' : 'off'}`, dataset: { connected: String(s.connected) },
          text: s.connected ? t('lobby.online') : t('lobby.offline') }) : null,
        ...s.countdowns.map(countdownNode)];
      if (s.kind === 'open' && canSit) {
        parts.push(el('button', { type: 'button', class: 'btn', text: t('lobby.sitHere'), dataset: { sit: s.seat },
          disabled: busy(`join:${tableId}`), onclick: oneAtATime(`join:${tableId}`, () => join(tableId, s.seat, invite, error)) }));
      }
      if (isHost && room.status === 'open' && s.kind !== 'human') {
        const level = el('select', { 'aria-label': t('lobby.levelAt', { seat: seatLabel(s.seat) }), dataset: { botLevel: s.seat } },
          ...LEVELS.map((l) => el('option', { value: l, text: levelLabel(l), selected: (chosen[s.seat] || s.level || 'intermediate') === l })));
        level.addEventListener('change', () => { chosen[s.seat] = level.value; });
        parts.push(level, el('button', { type: 'button', class: 'btn', text: s.kind === 'bot' ? t('lobby.changeBot') : t('lobby.addBot'),
          onclick: () => call('bot', { seat: s.seat, level: level.value }) }));
        if (s.kind === 'bot') parts.push(el('button', { type: 'button', class: 'btn ghost', text: t('lobby.removeBot'), onclick: () => call('bot', { seat: s.seat, level: null }) }));
      }
      return parts;
    });
  });
  tick();
  part(inviteBox, JSON.stringify([room.invite, room.status]), () => {
    if (!room.invite || room.status !== 'open') return [];
    const link = `${location.origin}/lobby.html?table=${encodeURIComponent(tableId)}&invite=${encodeURIComponent(room.invite)}`;
    const done = el('span', { class: 'copied', role: 'status', 'aria-live': 'polite' });
    const input = el('input', { readonly: true, value: link, id: 'invite-link', 'aria-label': t('lobby.invite') });
    input.addEventListener('focus', () => input.select());
    return [el('label', { class: 'invite' }, el('span', { text: t('lobby.invite') }), input),
      el('div', { class: 'invite-actions' },
        el('button', { type: 'button', class: 'btn primary', dataset: { action: 'copy-invite' },
          text: navigator.share ? t('lobby.shareInvite') : t('lobby.copyInvite'),
          onclick: () => shareInvite(link, tableName(room), input, done) }),
        done)];
  });
  part(buttons, JSON.stringify([who, room.visibility]), () => {
    const parts = [];
    if (isHost && room.status === 'open') {
      const fillLevel = el('select', { id: 'fill-level', 'aria-label': t('lobby.fillLevel') },
        ...LEVELS.map((l) => el('option', { value: l, text: levelLabel(l), selected: l === chosen.fill })));
      fillLevel.addEventListener('change', () => { chosen.fill = fillLevel.value; });
      parts.push(el('label', { class: 'inline' }, el('span', { text: t('lobby.fillLevel') }), fillLevel),
        el('button', { type: 'button', class: 'btn', id: 'fill', text: t('lobby.fill'), disabled: busy('fill'),
          onclick: oneAtATime('fill', () => call('fill', { level: fillLevel.value })) }),
        el('button', { type: 'button', class: 'btn primary', text: t('lobby.start'), id: 'start', disabled: busy('start'),
          onclick: oneAtATime('start', async () => {
            if (await call('start')) goToTable(tableId);
          }) }));
    }
    if (you && room.status === 'open') {
      parts.push(el('button', { type: 'button', class: 'btn ghost', id: 'leave-room', text: t('lobby.leave'), disabled: busy('leave'),
        onclick: oneAtATime('leave', async () => {
          state.leaving = true;
          if (await call('leave')) {
            // back to the list: the address no longer names the table
            state.mine.delete(tableId);
            history.replaceState(null, '', '/lobby.html');
            leaveRoomView();
            drawTables();
            showCurrentGame($('main'), { except: null }).catch(() => {});
          }
          state.leaving = false;
        }) }));
    }
    if (room.status === 'playing' && room.visibility === 'public') {
      parts.push(el('a', { class: 'btn', href: watchHref(tableId), dataset: { watch: tableId }, text: t('lobby.watchTable') }));
    }
    if (room.status === 'finished' && (room.visibility === 'public' || you)) {
      parts.push(el('a', { class: 'btn', href: replayHref(tableId), dataset: { replay: tableId }, text: t('lobby.replay') }));
    }
    if (room.status === 'open' && !user) parts.push(el('p', { class: 'note', text: t('lobby.loginToSit') }));
    else if (room.status === 'open' && !you && room.ranked && user?.guest) {
      parts.push(el('p', { class: 'note', dataset: { rankedGuest: tableId }, text: t('lobby.rankedGuest') }));
    }
    return parts;
  });
  const notes = { closed: 'lobby.closedNote', finished: 'lobby.finishedNote', playing: 'lobby.playingNote' };
  note.textContent = notes[room.status] ? t(notes[room.status]) : '';
  note.dataset.status = room.status;
  if (you && room.status === 'open') await openChat(tableId, you);
  else closeChat();
}

/** To the main table, once (the start's answer and the room pushed both
 * say so: a second navigation would cut the first). */
function goToTable(tableId) {
  if (state.going) return;
  state.going = true;
  closeChat();
  location.href = tableHref(tableId);
}

async function shareInvite(link, name, input, done) {
  done.textContent = '';
  if (navigator.share) {
    try {
      await navigator.share({ title: name, text: t('lobby.inviteText', { name }), url: link });
      return;
    } catch (err) {
      if (err && err.name === 'AbortError') return; // the player closed the sheet
    }
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    input.focus();
    input.select();
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
  }
  done.textContent = copied ? t('lobby.copied') : t('lobby.copyFailed');
  done.dataset.copied = String(copied);
}

// the waiting room's chat: the seat's own table socket (js/net.js), which
// comes back by itself; chat typed meanwhile waits in the chat's outbox
async function openChat(tableId, seat) {
  const box = $('#room-chat');
  if (state.chatConn?.tableId === tableId || state.chatOpening === tableId || state.joining === tableId) return;
  closeChat();
  let token = tokenOf(tableId);
  if (!token && state.tokenAsked !== tableId) {
    // back from another browser or device: a token of our own (once)
    state.tokenAsked = tableId;
    state.chatOpening = tableId;
    token = (await fetchToken(tableId))?.token || null;
    state.chatOpening = null;
  }
  if (!token || state.room?.id !== tableId || state.chatConn) return;
  const chat = el('rebelote-chat', { id: 'room-chat-panel' });
  box.replaceChildren(chat);
  const conn = new Connection({
    tableId,
    token,
    onMessage: (msg) => chat.receive(msg),
    onStatus: (s, detail) => {
      connectionStatus('chat', s);
      if (s === 'fatal' && detail?.reason === 'bad_token' && state.tokenRetried !== tableId) {
        // the seat was taken back from another browser: a new token, once
        state.tokenRetried = tableId;
        closeChat();
        fetchToken(tableId).then((fresh) => { if (fresh && state.room?.id === tableId) openChat(tableId, seat); });
      }
    },
  });
  state.chatConn = conn;
  chat.attach((m) => conn.send(m), seat, () => conn.opens);
  chat.addEventListener('unmuted', () => conn.refresh());
  conn.connect();
}

function closeChat() {
  if (state.chatConn) state.chatConn.close();
  state.chatConn = null;
  $('#room-chat').replaceChildren();
}

// ------------------------------------------------------------ the socket

/** One of the player's tables (`seated`: on each connection, and at each
 * change of its status or of his seat; `you` null once he holds none):
 * the moment it goes from open to playing he goes to it, from the list as
 * from the waiting room, when this browser keeps the seat's token (he sat
 * down here); a seat taken on another device is not taken back from it:
 * the banner says "Reprendre" instead. The list's "your table" follows. */
function seated({ room, you }) {
  const before = state.mine.get(room.id);
  if (you && (room.status === 'open' || room.status === 'playing')) state.mine.set(room.id, room.status);
  else state.mine.delete(room.id);
  if (you && before === 'open' && room.status === 'playing' && !state.leaving && tokenOf(room.id)) {
    goToTable(room.id);
    return;
  }
  if (before === state.mine.get(room.id)) return;
  drawTables();
  showCurrentGame($('main'), { except: state.room?.id }).catch(() => {});
}

function onLobbyMessage(msg) {
  if (msg.t === 'lobby') {
    state.tables = new Map(msg.d.tables.map((r) => [r.id, r]));
    drawTables();
  } else if (msg.t === 'table') {
    state.tables.set(msg.d.id, msg.d);
    drawTables();
  } else if (msg.t === 'seated') {
    seated(msg.d);
  } else if (msg.t === 'table_gone') {
    state.tables.delete(msg.d.id);
    drawTables();
  } else if (msg.t === 'waiting') {
    if (!state.room || msg.d.room.id !== state.room.id) return;
    state.roomData = msg.d;
    drawRoom(msg.d);
  } else if (msg.t === 'error') {
    if (msg.d.code === 'table_not_found' && state.room) roomGone();
    else $('#lobby-error').textContent = errorText(msg.d);
  }
}

// ------------------------------------------------------------------ create

/** The create form never goes to the server by itself (a native submit
 * would reload the page with the fields in its address): from the first
 * moment the script runs, its submit is the page's. Its button, disabled
 * in the HTML, is enabled once the form is ready (setupCreate). */
function guardCreate() {
  $('#create-form').addEventListener('submit', (ev) => ev.preventDefault());
}

async function setupCreate() {
  const presets = await api('/api/presets').catch(() => []);
  $('#preset').replaceChildren(...presets.map((p) => el('option', { value: p.name, text: `${presetName(p)} : ${presetDescription(p, p.description)}` })));
  const createError = $('#create-error');
  $('#create-form').addEventListener('input', () => { createError.textContent = ''; });
  $('#create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clearErrors(createError);
    const submit = $('#create-form button[type="submit"]');
    if (submit.disabled) return;
    submit.disabled = true;
    try {
      await createTable(ev.target);
    } finally {
      submit.disabled = false;
    }
  });
  $('#create-form button[type="submit"]').disabled = false;
  $('#create-form').dataset.ready = 'true';
}

/** Open the table the create form describes (its errors under it). */
async function createTable(form) {
  const d = Object.fromEntries(new FormData(form));
  const body = { name: d.name, preset: d.preset, visibility: d.visibility, ranked: d.ranked === 'true', seat: d.seat, options: {} };
  if (d.target) body.target = Number(d.target);
  if (d.move_clock === 'none') body.options.move_clock = null;
  else if (d.move_clock) body.options.move_clock = Number(d.move_clock);
  try {
    const created = await api('/api/lobby/tables', { method: 'POST', body });
    rememberToken(created.table_id, created.token);
    $('#create-error').textContent = '';
    state.mine.set(created.table_id, 'open');
    openRoom(created.table_id, created.invite);
  } catch (err) {
    showError($('#create-error'), err);
  }
}

function fromUrl() {
  const params = new URLSearchParams(location.search);
  const table = params.get('table');
  if (table) followRoom(table, params.get('invite'));
  else if (state.room) leaveRoomView();
}

async function main() {
  guardCreate();
  await initPage();
  await refreshUser();
  await setupCreate();
  state.conn = new LobbyConnection({
    onMessage: onLobbyMessage,
    onStatus: (s) => connectionStatus('lobby', s),
  });
  state.conn.connect();
  fromUrl();
  window.addEventListener('popstate', fromUrl);
  showCurrentGame($('main'), { except: state.room?.id }).catch(() => {});
  document.body.dataset.ready = 'lobby';
}

main();
