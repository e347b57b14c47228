// The lobby: account (sign up, log in, guest, log out, password), the list
// of public tables, opening a table, and a table's waiting room (seats,
// invitation link, computer players, start, leave, chat).

import {
  $, api, currentUser, el, errorText, fetchToken, heldSeat, initPage, nav, playerName, ratingText, rememberToken,
  seatOf, showError, t, tokenOf,
} from './common.js';
import {
  SEAT_KEYS, botName, levelLabel, presetDescription, presetName,
} from '../js/labels.js';

// The computer players' levels a host may seat (the server's BOT_LEVELS:
// every level of rebelote.bots.make_bot but the benchmark's expert-bidder).
export const LEVELS = ['random', 'beginner', 'intermediate', 'expert'];
const STATUS_KEYS = {
  open: 'lobby.status.open', playing: 'lobby.status.playing', finished: 'lobby.status.finished',
  closed: 'lobby.status.closed',
};
const status = (s) => (STATUS_KEYS[s] ? t(STATUS_KEYS[s]) : s);
const seatLabel = (seat) => t(SEAT_KEYS[seat]);
const rulesText = (room) => t('lobby.rulesTo', { preset: presetName(room.rules.preset), target: room.rules.target })
  + (room.ranked ? ` · ${t('lobby.ranked')}` : ` · ${t('lobby.friendly')}`);

const params = new URLSearchParams(location.search);
let user = null;
let presets = [];

async function refreshUser() {
  user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  renderAccount();
  $('#create').hidden = !user;
}

function form(id, title, fields, submit, onSubmit) {
  const error = el('div', { class: 'error' });
  const f = el('form', { class: 'row', 'aria-label': title, dataset: { form: id } },
    ...fields.map(([name, label, type]) => el('label', { text: label },
      el('input', { name, type, required: true, maxlength: type === 'password' ? 200 : 40 }))),
    el('button', { type: 'submit', text: submit }));
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const data = Object.fromEntries(new FormData(f));
    try {
      await onSubmit(data);
      await refreshUser();
      await refreshTables();
    } catch (err) {
      showError(error, err);
    }
  });
  return el('div', {}, el('h3', { text: title }), f, error);
}

function renderAccount() {
  const box = $('#account');
  if (!user) {
    box.replaceChildren(
      el('h2', { text: t('lobby.whoAreYou') }),
      form('guest', t('lobby.guest'), [['name', t('lobby.name'), 'text']], t('lobby.guest'),
        (d) => api('/api/auth/guest', { method: 'POST', body: { name: d.name } })),
      form('login', t('lobby.login'), [['name', t('lobby.name'), 'text'], ['password', t('lobby.password'), 'password']], t('lobby.login'),
        (d) => api('/api/auth/login', { method: 'POST', body: d })),
      form('signup', t('lobby.signup'), [['name', t('lobby.name'), 'text'], ['password', t('lobby.newPasswordHint'), 'password']], t('lobby.signup'),
        (d) => api('/api/auth/signup', { method: 'POST', body: d })));
    return;
  }
  const out = el('button', { class: 'secondary', type: 'button', text: t('lobby.logout'), onclick: async () => {
    await api('/api/auth/logout', { method: 'POST' });
    await refreshUser();
  } });
  const parts = [el('p', {}, el('strong', { text: user.name }),
    user.guest ? el('span', { class: 'badge', text: t('lobby.guestBadge') })
      : el('span', { text: ` · ${t('lobby.userLine', { level: user.level, xp: user.xp, rating: ratingText(user.rating), rated: user.rated })}` })), out];
  if (!user.guest) {
    parts.push(form('password', t('lobby.changePassword'), [['old', t('lobby.oldPassword'), 'password'], ['new', t('lobby.newPassword'), 'password']],
      t('lobby.change'), (d) => api('/api/auth/password', { method: 'POST', body: d })));
  }
  box.replaceChildren(...parts);
}

function seatsText(room) {
  const who = (s) => {
    if (s.kind === 'open') return '—';
    if (s.kind === 'bot' && !botName(s)) return t('lobby.computer', { level: levelLabel(s.level) });
    return playerName(s);
  };
  return room.seats.map((s) => `${s.seat}: ${who(s)}`).join(' · ');
}

async function refreshTables() {
  const rooms = await api('/api/lobby').catch(() => []);
  const body = $('#tables tbody');
  body.replaceChildren(...rooms.map((r) => {
    const open = r.seats.filter((s) => s.kind === 'open').map((s) => s.seat);
    const actions = el('td', {});
    if (r.status === 'open' && user) {
      for (const seat of open) {
        actions.append(el('button', { type: 'button', text: t('lobby.sitAt', { seat: seatLabel(seat) }), dataset: { join: `${r.id}:${seat}` },
          onclick: () => join(r.id, seat, null) }));
      }
    }
    actions.append(el('a', { href: `/lobby.html?table=${encodeURIComponent(r.id)}`, text: ` ${t('lobby.details')}` }));
    if (r.status === 'playing') actions.append(el('a', { href: `/net/table.html?table=${encodeURIComponent(r.id)}&watch=1`, text: ` ${t('lobby.watch')}`, dataset: { watch: r.id } }));
    return el('tr', { dataset: { table: r.id } },
      el('td', { text: r.name }),
      el('td', { text: rulesText(r) }),
      el('td', { text: status(r.status), dataset: { status: r.status } }),
      el('td', { text: seatsText(r) }),
      actions);
  }));
  $('#no-tables').hidden = rooms.length > 0;
}

async function join(tableId, seat, invite) {
  try {
    const seatToken = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}/join`, { method: 'POST', body: { seat, invite } });
    rememberToken(tableId, seatToken.token, seatToken.seat);
    location.href = `/lobby.html?table=${encodeURIComponent(tableId)}`;
  } catch (err) {
    alert(errorText(err));
  }
}

// ------------------------------------------------------------------ the room

let roomTimer = null;
// the table whose seat token was asked of the server (once per page): a
// player back from another browser or device has no token kept here
let recovered = null;
// the levels chosen in the room's selects: a seat's part of the room is
// drawn again when it changes, and a choice not yet sent must survive it
const chosen = { fill: 'intermediate' };

/** Rebuild `node`'s children only when what they show (`key`) changed:
 * the room is fetched every 1.5 s, and a control replaced under the
 * pointer (or the keyboard) would lose the click. */
function part(node, key, build) {
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  node.replaceChildren(...build().filter((c) => c != null));
}

/** The room's skeleton: parts updated in place by showRoom. */
function roomView(box, tableId) {
  if (box.dataset.table === tableId && box.firstChild) return box;
  box.dataset.table = tableId;
  box.replaceChildren(el('div', { class: 'room-head' }), el('div', { class: 'seats' }), el('div', { class: 'room-invite' }),
    el('div', { class: 'actions' }), el('div', { class: 'error' }));
  return box;
}

async function showRoom(tableId, invite) {
  clearTimeout(roomTimer);
  $('#room').hidden = false;
  const box = $('#room-view');
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : '';
  let room;
  try {
    room = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}${q}`);
  } catch (err) {
    delete box.dataset.table;
    box.replaceChildren(el('p', { class: 'error', text: t('lobby.unavailable', { message: errorText(err) }) }));
    return;
  }
  let held = tokenOf(tableId) ? seatOf(tableId) : null;
  if (!held && user && recovered !== tableId && room.seats.some((s) => s.kind === 'human')) {
    recovered = tableId;
    if (await heldSeat(tableId)) held = (await fetchToken(tableId))?.seat || null;
  }
  const mine = held ? room.seats.find((s) => s.seat === held && s.kind === 'human') : null;
  if (room.status === 'playing' && mine) {
    location.href = `/net/table.html?table=${encodeURIComponent(tableId)}`;
    return;
  }
  roomView(box, tableId);
  const [head, seatsBox, inviteBox, buttons, error] = box.children;
  const call = (path, body) => api(`/api/lobby/tables/${encodeURIComponent(tableId)}/${path}`, { method: 'POST', body })
    .then(() => { error.textContent = ''; return showRoom(tableId, invite); }).catch((err) => showError(error, err));
  const isHost = Boolean(mine && room.host === mine.seat);
  const who = JSON.stringify([Boolean(user), mine ? mine.seat : null, isHost, room.status]);
  part(head, JSON.stringify([room.name, room.rules, room.ranked, room.status]), () => [
    el('h2', { text: `${room.name} · ${rulesText(room)}` }),
    el('p', { text: `${t('lobby.statusLine', { status: status(room.status) })} ${presetDescription(room.rules.preset, room.rules.description, room.rules.target)}` })]);
  // one box per seat, each rebuilt only when that seat (or who we are) changed;
  // the countdowns' `seconds` change at every fetch, their deadline does not
  if (seatsBox.children.length !== room.seats.length) {
    seatsBox.replaceChildren(...room.seats.map((s) => el('div', { class: 'seat', dataset: { seat: s.seat } })));
  }
  room.seats.forEach((s, i) => {
    const seatBox = seatsBox.children[i];
    const key = JSON.stringify([who, room.host, { ...s, countdowns: s.countdowns.map((c) => [c.reason, c.deadline]) }]);
    part(seatBox, key, () => {
      const parts = [
        el('div', { text: `${seatLabel(s.seat)}${room.host === s.seat ? ` · ${t('lobby.host')}` : ''}` }),
        el('div', { class: 'name', text: s.kind === 'open' ? t('lobby.free') : playerName(s) }),
        s.kind === 'bot' ? el('div', { class: 'level', text: t('lobby.computer', { level: levelLabel(s.level) }) }) : null];
      if (s.kind === 'open' && room.status === 'open' && user && !mine) {
        parts.push(el('button', { type: 'button', text: t('lobby.sitHere'), onclick: () => join(tableId, s.seat, invite) }));
      }
      if (isHost && room.status === 'open' && s.kind !== 'human') {
        const level = el('select', { 'aria-label': t('lobby.levelAt', { seat: seatLabel(s.seat) }), dataset: { botLevel: s.seat } },
          ...LEVELS.map((l) => el('option', { value: l, text: levelLabel(l), selected: (chosen[s.seat] || s.level || 'intermediate') === l })));
        level.addEventListener('change', () => { chosen[s.seat] = level.value; });
        parts.push(level, el('button', { type: 'button', class: 'secondary', text: s.kind === 'bot' ? t('lobby.changeBot') : t('lobby.addBot'),
          onclick: () => call('bot', { seat: s.seat, level: level.value }) }));
        if (s.kind === 'bot') parts.push(el('button', { type: 'button', class: 'secondary', text: t('lobby.removeBot'), onclick: () => call('bot', { seat: s.seat, level: null }) }));
      }
      return parts;
    });
  });
  part(inviteBox, JSON.stringify([room.invite]), () => {
    if (!room.invite) return [];
    const link = `${location.origin}/lobby.html?table=${encodeURIComponent(tableId)}&invite=${encodeURIComponent(room.invite)}`;
    return [el('p', {}, el('span', { text: `${t('lobby.invite')} ` }), el('input', { readonly: true, value: link, size: 60, id: 'invite-link' }))];
  });
  part(buttons, who, () => {
    const parts = [];
    if (isHost && room.status === 'open') {
      const fillLevel = el('select', { id: 'fill-level', 'aria-label': t('lobby.fillLevel') },
        ...LEVELS.map((l) => el('option', { value: l, text: levelLabel(l), selected: l === chosen.fill })));
      fillLevel.addEventListener('change', () => { chosen.fill = fillLevel.value; });
      parts.push(el('label', { class: 'inline' }, el('span', { text: t('lobby.fillLevel') }), fillLevel),
        el('button', { type: 'button', class: 'secondary', id: 'fill', text: t('lobby.fill'), onclick: () => call('fill', { level: fillLevel.value }) }),
        el('button', { type: 'button', text: t('lobby.start'), id: 'start', onclick: () => call('start') }));
    }
    if (mine) parts.push(el('button', { type: 'button', class: 'secondary', id: 'leave-room', text: t('lobby.leave'), onclick: () => call('leave').then(() => { location.href = '/lobby.html'; }) }));
    if (room.status === 'playing') parts.push(el('a', { href: `/net/table.html?table=${encodeURIComponent(tableId)}&watch=1`, text: t('lobby.watchTable') }));
    return parts;
  });
  const chat = $('#room-chat');
  if (mine && !chat.firstChild) chat.append(el('rebelote-chat', { auto: true }));
  clearTimeout(roomTimer);
  roomTimer = setTimeout(() => showRoom(tableId, invite), 1500);
}

async function setupCreate() {
  presets = await api('/api/presets').catch(() => []);
  $('#preset').replaceChildren(...presets.map((p) => el('option', { value: p.name, text: `${presetName(p.name)} : ${presetDescription(p.name, p.description)}` })));
  $('#create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const d = Object.fromEntries(new FormData(ev.target));
    const body = { name: d.name, preset: d.preset, visibility: d.visibility, ranked: d.ranked === 'true', seat: d.seat, options: {} };
    if (d.target) body.target = Number(d.target);
    if (d.move_clock) body.options.move_clock = Number(d.move_clock);
    try {
      const created = await api('/api/lobby/tables', { method: 'POST', body });
      rememberToken(created.table_id, created.token, created.seat);
      const inv = created.invite ? `&invite=${encodeURIComponent(created.invite)}` : '';
      location.href = `/lobby.html?table=${encodeURIComponent(created.table_id)}${inv}`;
    } catch (err) {
      showError($('#create-error'), err);
    }
  });
}

async function main() {
  await initPage();
  await refreshUser();
  await setupCreate();
  await refreshTables();
  setInterval(refreshTables, 3000);
  const table = params.get('table');
  if (table) await showRoom(table, params.get('invite'));
}

main();
