// The lobby: account (sign up, log in, guest, log out, password), the list
// of public tables, opening a table, and a table's waiting room (seats,
// invitation link, computer players, start, leave, chat).

import { $, api, currentUser, el, nav, rememberToken, seatOf, showError, tokenOf } from './common.js';

const params = new URLSearchParams(location.search);
let user = null;
let presets = [];

async function refreshUser() {
  user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  renderAccount();
  $('#create').hidden = !user;
}

function form(title, fields, submit, onSubmit) {
  const error = el('div', { class: 'error' });
  const f = el('form', { class: 'row', 'aria-label': title },
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
      el('h2', { text: 'Who are you?' }),
      form('Play as a guest', [['name', 'Name', 'text']], 'Play as a guest',
        (d) => api('/api/auth/guest', { method: 'POST', body: { name: d.name } })),
      form('Log in', [['name', 'Name', 'text'], ['password', 'Password', 'password']], 'Log in',
        (d) => api('/api/auth/login', { method: 'POST', body: d })),
      form('Sign up', [['name', 'Name', 'text'], ['password', 'Password (8 or more)', 'password']], 'Sign up',
        (d) => api('/api/auth/signup', { method: 'POST', body: d })));
    return;
  }
  const out = el('button', { class: 'secondary', type: 'button', text: 'Log out', onclick: async () => {
    await api('/api/auth/logout', { method: 'POST' });
    await refreshUser();
  } });
  const parts = [el('p', {}, el('strong', { text: user.name }),
    user.guest ? el('span', { class: 'badge', text: 'guest' })
      : el('span', { text: ` · level ${user.level} (${user.xp} XP) · rating ${user.rating.toFixed(1)} · ${user.rated} rated matches` })), out];
  if (!user.guest) {
    parts.push(form('Change password', [['old', 'Old password', 'password'], ['new', 'New password', 'password']],
      'Change', (d) => api('/api/auth/password', { method: 'POST', body: d })));
  }
  box.replaceChildren(...parts);
}

function seatsText(room) {
  return room.seats.map((s) => `${s.seat}: ${s.kind === 'open' ? '—' : s.name}${s.kind === 'bot' ? ` (${s.level})` : ''}`).join(' · ');
}

async function refreshTables() {
  const rooms = await api('/api/lobby').catch(() => []);
  const body = $('#tables tbody');
  body.replaceChildren(...rooms.map((r) => {
    const open = r.seats.filter((s) => s.kind === 'open').map((s) => s.seat);
    const actions = el('td', {});
    if (r.status === 'open' && user) {
      for (const seat of open) {
        actions.append(el('button', { type: 'button', text: `Sit at ${seat}`, dataset: { join: `${r.id}:${seat}` },
          onclick: () => join(r.id, seat, null) }));
      }
    }
    actions.append(el('a', { href: `/lobby.html?table=${encodeURIComponent(r.id)}`, text: ' details' }));
    if (r.status === 'playing') actions.append(el('a', { href: `/net/table.html?table=${encodeURIComponent(r.id)}&watch=1`, text: ' watch' }));
    return el('tr', { dataset: { table: r.id } },
      el('td', { text: r.name }),
      el('td', { text: `${r.rules.preset} to ${r.rules.target}${r.ranked ? ' · ranked' : ''}` }),
      el('td', { text: r.status }),
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
    alert(err.message);
  }
}

// ------------------------------------------------------------------ the room

let roomTimer = null;

async function showRoom(tableId, invite) {
  $('#room').hidden = false;
  const box = $('#room-view');
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : '';
  let room;
  try {
    room = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}${q}`);
  } catch (err) {
    box.replaceChildren(el('p', { class: 'error', text: `This table is not available: ${err.message}` }));
    return;
  }
  const held = tokenOf(tableId) ? seatOf(tableId) : null;
  const mine = held ? room.seats.find((s) => s.seat === held && s.kind === 'human') : null;
  if (room.status === 'playing' && mine) {
    location.href = `/net/table.html?table=${encodeURIComponent(tableId)}`;
    return;
  }
  const error = el('div', { class: 'error' });
  const call = (path, body) => api(`/api/lobby/tables/${encodeURIComponent(tableId)}/${path}`, { method: 'POST', body })
    .then(() => showRoom(tableId, invite)).catch((err) => showError(error, err));
  const isHost = mine && room.host === mine.seat;
  const seats = el('div', { class: 'seats' }, ...room.seats.map((s) => {
    const box = el('div', { class: 'seat', dataset: { seat: s.seat } },
      el('div', { text: `Seat ${s.seat}${room.host === s.seat ? ' · host' : ''}` }),
      el('div', { class: 'name', text: s.kind === 'open' ? 'free' : s.name }),
      s.kind === 'bot' ? el('div', { text: `computer (${s.level})` }) : null);
    if (s.kind === 'open' && room.status === 'open' && user && !mine) {
      box.append(el('button', { type: 'button', text: 'Sit here', onclick: () => join(tableId, s.seat, invite) }));
    }
    if (isHost && room.status === 'open' && s.kind !== 'human') {
      const level = el('select', { 'aria-label': `computer level at ${s.seat}` },
        ...['random', 'beginner', 'intermediate'].map((l) => el('option', { value: l, text: l, selected: s.level === l })));
      box.append(level, el('button', { type: 'button', class: 'secondary', text: s.kind === 'bot' ? 'Change' : 'Add computer',
        onclick: () => call('bot', { seat: s.seat, level: level.value }) }));
      if (s.kind === 'bot') box.append(el('button', { type: 'button', class: 'secondary', text: 'Remove', onclick: () => call('bot', { seat: s.seat, level: null }) }));
    }
    return box;
  }));
  const parts = [el('h2', { text: `${room.name} · ${room.rules.preset} to ${room.rules.target}${room.ranked ? ' · ranked' : ' · friendly'}` }),
    el('p', { text: `Status: ${room.status}. ${room.rules.description}` }), seats];
  if (room.invite) {
    const link = `${location.origin}/lobby.html?table=${encodeURIComponent(tableId)}&invite=${encodeURIComponent(room.invite)}`;
    parts.push(el('p', {}, el('span', { text: 'Invitation link: ' }), el('input', { readonly: true, value: link, size: 60, id: 'invite-link' })));
  }
  const buttons = el('div', { class: 'actions' });
  if (isHost && room.status === 'open') {
    buttons.append(el('button', { type: 'button', class: 'secondary', text: 'Fill empty seats with computers', onclick: () => call('fill', { level: 'intermediate' }) }),
      el('button', { type: 'button', text: 'Start', id: 'start', onclick: () => call('start') }));
  }
  if (mine) buttons.append(el('button', { type: 'button', class: 'secondary', text: 'Leave the table', onclick: () => call('leave').then(() => { location.href = '/lobby.html'; }) }));
  if (room.status === 'playing') buttons.append(el('a', { href: `/net/table.html?table=${encodeURIComponent(tableId)}&watch=1`, text: 'Watch' }));
  parts.push(buttons, error);
  box.replaceChildren(...parts);
  const chat = $('#room-chat');
  if (mine && !chat.firstChild) chat.append(el('rebelote-chat', { auto: true }));
  clearTimeout(roomTimer);
  roomTimer = setTimeout(() => showRoom(tableId, invite), 1500);
}

async function setupCreate() {
  presets = await api('/api/presets').catch(() => []);
  $('#preset').replaceChildren(...presets.map((p) => el('option', { value: p.name, text: `${p.name}: ${p.description}` })));
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
  await refreshUser();
  await setupCreate();
  await refreshTables();
  setInterval(refreshTables, 3000);
  const table = params.get('table');
  if (table) await showRoom(table, params.get('invite'));
}

main();
