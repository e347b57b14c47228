// A lobby table in the browser: a plain, complete view of the game for a
// seat (or a spectator), with the room (who is here, countdowns), the chat
// and leaving. Offers exactly turn.legal; never decides anything.

import { $, currentUser, el, initPage, nav, t, tokenOf } from './common.js';
import { RESULT_KEYS, SEAT_KEYS, levelLabel, presetName } from '../js/labels.js';

const params = new URLSearchParams(location.search);
const tableId = params.get('table');
const watching = params.get('watch') === '1' || !tokenOf(tableId);
const token = watching ? null : tokenOf(tableId);
const chat = $('#chat');
const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };

const st = {
  you: null, table: null, totals: {}, target: null, hand: [], trick: [], lastTrick: null,
  bids: [], contract: null, turned: null, turn: null, room: null, log: [], v: 0, deal: 0,
  askBelote: null, fatal: false,
};
let socket = null;

function cardLabel(card) {
  const suit = card.slice(-1);
  return `${card.slice(0, -1)}${SUITS[suit] || suit}`;
}

function cardEl(card, tag = 'span', attrs = {}) {
  const red = card.endsWith('H') || card.endsWith('D');
  return el(tag, { class: `card${red ? ' red' : ''}`, text: cardLabel(card), dataset: { card }, ...attrs });
}

const seatLabel = (seat) => (SEAT_KEYS[seat] ? t(SEAT_KEYS[seat]) : seat);
const resultText = (result) => (RESULT_KEYS[result] ? t(RESULT_KEYS[result]) : result);
const scoreText = (scores) => Object.entries(scores).map(([k, v]) => `${k} ${v}`).join(', ');

function say(text) {
  st.log.push(text);
  if (st.log.length > 200) st.log.shift();
}

function name(seat) {
  const s = st.room?.seats.find((x) => x.seat === seat) || st.table?.seats.find((x) => x.seat === seat);
  return s ? `${s.name} (${seat})` : seat;
}

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
    case 'match_start': say(t('net.log.matchStart', { n: e.match, target: e.target, dealer: name(e.dealer) })); st.totals = {}; break;
    case 'deal_start':
      Object.assign(st, { hand: [], trick: [], bids: [], contract: null, turned: null, deal: e.deal });
      say(t('net.log.dealStart', { n: e.deal, dealer: name(e.dealer) }));
      break;
    case 'dealt': case 'completed': if (e.cards) st.hand.push(...e.cards); break;
    case 'turned': st.turned = e.card; say(t('net.log.turned', { card: cardLabel(e.card) })); break;
    case 'bid': st.bids.push([e.seat, e.bid]); say(`${name(e.seat)}: ${e.bid}`); break;
    case 'all_passed': say(t('net.log.allPassed')); break;
    case 'contract': st.contract = e.text; say(t('net.log.contract', { contract: e.text })); break;
    case 'declared': say(t('net.log.declared', { name: name(e.seat), what: e.declarations.join(', ') || '—' })); break;
    case 'belote': say(`${name(e.seat)}: ${e.word}!`); break;
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
    case 'match_end': say(t('net.log.matchEnd', { winner: e.winner, score: scoreText(e.totals) })); break;
    case 'seat': say(t('net.log.seat', { name: e.name, seat: seatLabel(e.seat) })); break;
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

function render() {
  const room = st.room;
  const head = [el('h2', { text: room ? room.name : t('net.table') })];
  if (st.table) {
    head.push(el('p', { id: 'score', text: `${t('lobby.rulesTo', { preset: presetName(st.table.rules.preset), target: st.target })} · ${t('net.deal', { n: st.deal })} · ${Object.entries(st.totals).map(([k, v]) => `${k} ${v}`).join(' – ')}` }));
  }
  head.push(el('p', { id: 'whoami', text: [st.turned ? t('net.turned', { card: cardLabel(st.turned) }) : null,
    st.contract ? t('net.contract', { contract: st.contract }) : null,
    watching ? t('net.watching') : st.you ? t('net.youAre', { seat: seatLabel(st.you) }) : null].filter(Boolean).join(' · ') }));
  $('#head').replaceChildren(...head);
  const seats = room ? room.seats : (st.table ? st.table.seats.map((s) => ({ ...s, connected: true, countdowns: [] })) : []);
  $('#seats').replaceChildren(...seats.map((s) => el('div', { class: 'seat', dataset: { seat: s.seat } },
    el('div', { class: 'name', text: `${seatLabel(s.seat)} · ${s.kind === 'open' ? t('lobby.free') : s.name}` }),
    el('div', {}, s.kind === 'bot' ? el('span', { class: 'badge', text: t('lobby.computer', { level: levelLabel(s.level) }) }) : null,
      s.kind === 'human' && !s.connected ? el('span', { class: 'badge', text: t('net.disconnected') }) : null,
      s.away ? el('span', { class: 'badge away', text: t('net.away') }) : null,
      st.turn && st.turn.seat === s.seat ? el('span', { class: 'badge', text: t('net.toPlay') }) : null),
    ...(s.countdowns || []).map((c) => el('div', {
      class: 'countdown', dataset: { reason: c.reason, deadline: String(c.deadline) }, text: countdownText(c),
    })))));
  $('#trick').replaceChildren(...st.trick.map((t) => el('div', { dataset: { trickSeat: t.seat } }, el('div', { text: t.seat }), cardEl(t.card))));
  $('#last-trick').textContent = st.lastTrick ? t('net.lastTrick', { cards: st.lastTrick.cards.map(cardLabel).join(' '), seat: seatLabel(st.lastTrick.winner) }) : '';
  const turn = st.turn;
  const mine = !watching && turn && turn.legal.length && !turn.auto && (turn.seat === st.you || turn.waiting !== 'action');
  const legal = new Set(mine ? turn.legal : []);
  $('#you-panel').hidden = watching;
  $('#hand').replaceChildren(...st.hand.map((card) => cardEl(card, 'button', {
    type: 'button', disabled: !legal.has(card),
    onclick: () => {
      if (turn.belote_choice.includes(card)) { st.askBelote = card; render(); } else act(card);
    },
  })));
  const actions = [];
  if (st.askBelote) {
    actions.push(el('button', { type: 'button', text: t('net.beloteYes', { card: cardLabel(st.askBelote) }), dataset: { belote: 'yes' }, onclick: () => act(st.askBelote, true) }),
      el('button', { type: 'button', class: 'secondary', text: t('net.beloteNo'), dataset: { belote: 'no' }, onclick: () => act(st.askBelote, false) }));
  }
  for (const a of mine ? turn.legal : []) {
    if (st.hand.includes(a)) continue;
    actions.push(el('button', { type: 'button', text: a, dataset: { act: a }, onclick: () => act(a) }));
  }
  $('#actions').replaceChildren(...actions);
  const me = room && st.you ? room.seats.find((s) => s.seat === st.you) : null;
  $('#back').hidden = !(me && me.away);
  $('#leave').hidden = watching || !room || room.status !== 'playing';
  $('#log').replaceChildren(...st.log.slice(-60).map((line) => el('div', { text: line })));
  $('#log').scrollTop = $('#log').scrollHeight;
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = watching ? 'watch=1' : `token=${encodeURIComponent(token)}`;
  const last = st.v ? `&last_v=${st.v}` : '';
  socket = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}?${q}${last}`);
  chat.attach((m) => send(m), watching ? null : 'pending');
  socket.addEventListener('message', (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.t === 'snapshot' && !watching) chat.attach((m) => send(m), msg.d.table.you);
    onMessage(msg);
  });
  socket.addEventListener('close', (ev) => {
    if ([4000, 4403, 4404].includes(ev.code)) {
      st.fatal = true;
      $('#error').textContent = ev.code === 4000 ? t('chat.error.left') : t('net.closed', { reason: ev.reason });
      return;
    }
    setTimeout(connect, 1000);
  });
}

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (!tableId) {
    $('#head').textContent = t('net.noTable');
    return;
  }
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
