// A lobby table in the browser: a plain, complete view of the game for a
// seat (or a spectator), with the room (who is here, countdowns), the chat
// and leaving. Offers exactly turn.legal; never decides anything.

import {
  $, api, currentUser, el, fetchToken, initPage, nav, playerName, recoverToken, t, tn,
} from './common.js';
import {
  RESULT_KEYS, SEAT_KEYS, actionLabel, bidLabel, botName, cardLabel, contractLabel, declLabel, levelLabel,
  presetName, sideName,
} from '../js/labels.js';
import { suitSprite } from '../js/cards.js';
import { isCard, parseContract } from '../js/model.js';

const params = new URLSearchParams(location.search);
const tableId = params.get('table');
// a seat's page (with its token: kept in this browser, or fetched from the
// server for a player who holds the seat, e.g. back from another device),
// or a spectator's
let watching = true;
let token = null;
let user = null;
let retried = false; // a refused token is replaced once, not more
const chat = $('#chat');

const st = {
  you: null, table: null, sides: [], totals: {}, target: null, hand: [], trick: [], lastTrick: null,
  bids: [], contract: null, turned: null, turn: null, room: null, log: [], v: 0, deal: 0,
  askBelote: null, fatal: false, left: false,
};
let socket = null;
let roomTimer = null;

function cardEl(card, tag = 'span', attrs = {}) {
  const red = card.endsWith('H') || card.endsWith('D');
  return el(tag, { class: `card${red ? ' red' : ''}`, dataset: { card }, ...attrs }, cardLabel(card));
}

const seatLabel = (seat) => (SEAT_KEYS[seat] ? t(SEAT_KEYS[seat]) : seat);
const resultText = (result) => (RESULT_KEYS[result] ? t(RESULT_KEYS[result]) : result);
const seatInfo = (seat) => st.room?.seats.find((x) => x.seat === seat) || st.table?.seats.find((x) => x.seat === seat) || null;
// what labels.js needs of the table's model: who we are, who sits where
const model = { get you() { return st.you; }, seatInfo };

/** A side in words: "Nous" / "Eux" for a player, "Nord–Sud" for a spectator. */
function sideText(side) {
  if (st.you) return sideName(model, side);
  return [...side].map(seatLabel).join('–');
}

const scoreText = (scores) => Object.entries(scores).map(([k, v]) => `${sideText(k)} ${v}`).join(' – ');

function say(...parts) {
  st.log.push(parts);
  if (st.log.length > 200) st.log.shift();
}

function name(seat) {
  const s = seatInfo(seat);
  if (s && s.kind === 'bot' && !botName(s)) return seatLabel(seat);
  return s ? `${playerName(s)} (${seat})` : seat;
}

const contractNode = (text) => {
  const c = parseContract(text);
  return c && c.strain !== null ? contractLabel(model, c) : text;
};

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function act(action, belote) {
  const d = { action };
  if (belote != null) d.belote = belote;
  send({ t: 'act', d });
  st.askBelote = null;
}

function onSnapshot(d) {
  st.you = d.table.you;
  st.table = d.table;
  st.sides = d.match.sides;
  st.totals = d.match.totals;
  st.target = d.match.target;
  st.deal = d.match.deal;
  st.hand = [...d.view.hand];
  st.trick = d.view.trick.map(([seat, card]) => ({ seat, card }));
  st.lastTrick = d.last_trick;
  st.bids = d.view.bids;
  st.contract = d.view.contract;
  st.turned = d.view.turned;
  st.turn = d.turn;
}

function onEvent(e) {
  switch (e.kind) {
    case 'match_start':
      say(t('net.log.matchStart', { n: e.match, target: e.target, dealer: name(e.dealer) }));
      st.totals = Object.fromEntries(st.sides.map((side) => [side, 0]));
      st.target = e.target;
      st.deal = 0;
      break;
    case 'deal_start':
      Object.assign(st, { hand: [], trick: [], bids: [], contract: null, turned: null, deal: e.deal });
      say(t('net.log.dealStart', { n: e.deal, dealer: name(e.dealer) }));
      break;
    case 'dealt': case 'completed': if (e.cards) st.hand.push(...e.cards); break;
    case 'turned': st.turned = e.card; say(...tn('net.log.turned', { card: cardLabel(e.card) })); break;
    case 'bid': st.bids.push([e.seat, e.bid]); say(`${name(e.seat)}: `, bidLabel(e.bid, st.turned, true)); break;
    case 'all_passed': say(t('net.log.allPassed')); break;
    case 'contract': st.contract = e.text; say(...tn('net.log.contract', { contract: contractNode(e.text) })); break;
    case 'declared': {
      const what = el('span', {}, ...e.declarations.flatMap((d, i) => (i ? [', ', declLabel(d)] : [declLabel(d)])));
      say(...tn('net.log.declared', { name: name(e.seat), what: e.declarations.length ? what : '—' }));
      break;
    }
    case 'belote': say(`${name(e.seat)}: ${t(e.word === 'rebelote' ? 'say.rebelote' : 'say.belote')}`); break;
    case 'card':
      st.trick.push({ seat: e.seat, card: e.card });
      if (e.seat === st.you) st.hand = st.hand.filter((c) => c !== e.card);
      break;
    case 'trick':
      st.lastTrick = e.trick;
      st.trick = [];
      say(t('net.log.trick', { n: e.trick.number, name: name(e.trick.winner), points: e.trick.points }));
      break;
    case 'deal_end':
      st.totals = e.totals;
      say(t('net.log.dealEnd', { result: resultText(e.line.result), score: scoreText(e.line.score) }));
      break;
    case 'match_end': st.totals = e.totals; say(t('net.log.matchEnd', { winner: sideText(e.winner), score: scoreText(e.totals) })); break;
    case 'seat':
      say(t('net.log.seat', { name: playerName({ seat: e.seat, kind: e.player, name: e.name, guest: false, left: Boolean(e.left) }), seat: seatLabel(e.seat) }));
      break;
    case 'cancelled': say(t('net.log.cancelled', { reason: e.reason })); break;
    case 'turn': st.turn = e; break;
    default: break;
  }
}

function onMessage(msg) {
  chat.receive(msg);
  if (msg.t === 'snapshot') {
    st.v = msg.v;
    onSnapshot(msg.d);
  } else if (msg.t === 'event') {
    if (msg.v <= st.v) return;
    if (msg.v !== st.v + 1) { send({ t: 'sync' }); return; }
    st.v = msg.v;
    onEvent(msg.d);
  } else if (msg.t === 'room') {
    st.room = msg.d;
  } else if (msg.t === 'error') {
    $('#error').textContent = msg.d.message;
    setTimeout(() => { $('#error').textContent = ''; }, 5000);
  }
  render();
}

function countdownText(c) {
  const left = Math.max(0, Math.round(c.deadline - Date.now() / 1000));
  if (c.reason === 'move') return t('net.countdown.move', { s: left });
  if (c.reason === 'hold') return t('net.countdown.hold', { s: left });
  return t('net.countdown.leave', { s: left });
}

/** "Nord · Bobby (invité)"; a computer player with no name of its own is
 * named by its seat alone ("Ouest", its badge says the rest). */
function seatLine(s) {
  if (s.kind === 'open') return `${seatLabel(s.seat)} · ${t('lobby.free')}`;
  if (s.kind === 'bot' && !botName(s)) return seatLabel(s.seat);
  return `${seatLabel(s.seat)} · ${playerName(s)}`;
}

function render() {
  const room = st.room;
  const head = [el('h2', { text: room ? room.name : t('net.table') })];
  if (st.table) {
    const totals = Object.entries(st.totals).map(([k, v]) => el('span', { dataset: { score: k }, text: `${sideText(k)} ${v}` }));
    head.push(el('p', { id: 'score' },
      `${t('lobby.rulesTo', { preset: presetName(st.table.rules.preset), target: st.target })} · ${t('net.deal', { n: st.deal })} · `,
      ...totals.flatMap((x, i) => (i ? [' – ', x] : [x]))));
  }
  const who = [];
  if (st.turned) who.push(tn('net.turned', { card: cardLabel(st.turned) }));
  if (st.contract) who.push(tn('net.contract', { contract: contractNode(st.contract) }));
  if (st.left) who.push([t('chat.error.left')]);
  else if (watching) who.push([t('net.watching')]);
  else if (st.you) who.push([t('net.youAre', { seat: seatLabel(st.you) })]);
  head.push(el('p', { id: 'whoami' }, ...who.flatMap((parts, i) => (i ? [' · ', ...parts] : parts))));
  $('#head').replaceChildren(...head);
  const seats = room ? room.seats : (st.table ? st.table.seats.map((s) => ({ ...s, connected: true, countdowns: [] })) : []);
  $('#seats').replaceChildren(...seats.map((s) => el('div', { class: 'seat', dataset: { seat: s.seat } },
    el('div', { class: 'name', text: seatLine(s) }),
    el('div', {}, s.kind === 'bot' ? el('span', { class: 'badge', text: t('lobby.computer', { level: levelLabel(s.level) }) }) : null,
      s.kind === 'human' && !s.connected ? el('span', { class: 'badge', text: t('net.disconnected') }) : null,
      s.away ? el('span', { class: 'badge away', text: t('net.away') }) : null,
      st.turn && st.turn.seat === s.seat ? el('span', { class: 'badge', text: t('net.toPlay') }) : null),
    ...(s.countdowns || []).map((c) => el('div', {
      class: 'countdown', dataset: { reason: c.reason, deadline: String(c.deadline) }, text: countdownText(c),
    })))));
  $('#trick').replaceChildren(...st.trick.map((x) => el('div', { dataset: { trickSeat: x.seat } }, el('div', { text: seatLabel(x.seat) }), cardEl(x.card))));
  const last = st.lastTrick;
  $('#last-trick').replaceChildren(...(last ? tn('net.lastTrick', {
    cards: el('span', {}, ...last.cards.flatMap((c, i) => (i ? [' ', cardLabel(c)] : [cardLabel(c)]))),
    seat: seatLabel(last.winner),
  }) : []));
  const turn = st.turn;
  const mine = !watching && !st.fatal && turn && turn.legal.length && !turn.auto && (turn.seat === st.you || turn.waiting !== 'action');
  const legal = new Set(mine ? turn.legal : []);
  $('#you-panel').hidden = watching || st.left;
  $('#hand').replaceChildren(...st.hand.map((card) => cardEl(card, 'button', {
    type: 'button', disabled: !legal.has(card),
    onclick: () => {
      if (turn.belote_choice.includes(card)) { st.askBelote = card; render(); } else act(card);
    },
  })));
  const actions = [];
  if (st.askBelote) {
    actions.push(el('button', { type: 'button', dataset: { belote: 'yes' }, onclick: () => act(st.askBelote, true) },
      ...tn('net.beloteYes', { card: cardLabel(st.askBelote) })),
      el('button', { type: 'button', class: 'secondary', text: t('net.beloteNo'), dataset: { belote: 'no' }, onclick: () => act(st.askBelote, false) }));
  }
  for (const a of mine ? turn.legal : []) {
    if (isCard(a) && st.hand.includes(a)) continue;
    actions.push(el('button', { type: 'button', class: a === 'pass' || a === 'declare none' ? 'secondary' : null, dataset: { act: a }, onclick: () => act(a) },
      actionLabel(a, st.turned)));
  }
  $('#actions').replaceChildren(...actions);
  const me = room && st.you ? room.seats.find((s) => s.seat === st.you) : null;
  $('#back').hidden = st.fatal || !(me && me.away);
  $('#leave').hidden = watching || st.fatal || !room || room.status !== 'playing';
  $('#log').replaceChildren(...st.log.slice(-60).map((parts) => el('div', {}, ...parts)));
  $('#log').scrollTop = $('#log').scrollHeight;
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = watching ? 'watch=1' : `token=${encodeURIComponent(token)}`;
  const last = st.v ? `&last_v=${st.v}` : '';
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}?${q}${last}`);
  socket = ws;
  chat.attach((m) => send(m), watching ? null : st.you || 'pending');
  ws.addEventListener('message', (ev) => {
    if (ws !== socket) return;
    const msg = JSON.parse(ev.data);
    if (msg.t === 'error' && msg.d.code === 'bad_token' && !watching && !retried && user) return; // a fresh token is fetched below
    if (msg.t === 'snapshot' && !watching) chat.attach((m) => send(m), msg.d.table.you);
    onMessage(msg);
  });
  ws.addEventListener('close', async (ev) => {
    if (ws !== socket) return;
    if (ev.code === 4403 && ev.reason === 'bad_token' && !watching && !retried && user) {
      // the token was replaced (the player took his seat from another
      // browser or device, then came back here): ask for a new one, once
      retried = true;
      const fresh = await fetchToken(tableId);
      if (fresh) {
        token = fresh.token;
        connect();
        return;
      }
    }
    if ([4000, 4403, 4404].includes(ev.code)) {
      st.fatal = true;
      st.left = ev.code === 4000 || ev.reason === 'left';
      $('#error').textContent = st.left ? t('chat.error.left') : t('net.closed', { reason: ev.reason });
      chat.attach(null, null);
      st.turn = null; // no turn of ours, nor anybody's we would hear of: no "to play" left behind
      st.askBelote = null;
      refreshRoom();
      return;
    }
    setTimeout(connect, 1000);
  });
}

/** Once the socket is closed for good (the player left, or was refused),
 * the room comes from the lobby API: who sits where now (a computer player
 * in the leaver's seat). */
async function refreshRoom() {
  clearTimeout(roomTimer);
  try {
    st.room = await api(`/api/lobby/tables/${encodeURIComponent(tableId)}`);
  } catch { /* a private table we no longer sit at: keep what we have */ }
  render();
  if (st.room && ['open', 'playing'].includes(st.room.status)) roomTimer = setTimeout(refreshRoom, 3000);
}

/** A new connection opened before the old one closes (the seat stays
 * connected): the server sends the chat history again, with the lines of a
 * seat just unmuted. */
function reopen() {
  const old = socket;
  if (st.fatal || !old) return;
  connect();
  const drop = () => old.close();
  socket.addEventListener('open', drop, { once: true });
  socket.addEventListener('close', drop, { once: true });
}

async function main() {
  await initPage();
  document.body.prepend(suitSprite());
  user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (!tableId) {
    $('#head').textContent = t('net.noTable');
    return;
  }
  if (params.get('watch') !== '1') {
    token = user ? await recoverToken(tableId) : null;
    watching = !token;
  }
  chat.addEventListener('unmuted', reopen);
  $('#back').addEventListener('click', () => send({ t: 'back' }));
  $('#leave').addEventListener('click', () => {
    if (confirm(t('net.leaveConfirm'))) send({ t: 'leave' });
  });
  setInterval(() => {
    for (const node of document.querySelectorAll('.countdown')) {
      node.textContent = countdownText({ reason: node.dataset.reason, deadline: Number(node.dataset.deadline) });
    }
  }, 500);
  connect();
}

main();
