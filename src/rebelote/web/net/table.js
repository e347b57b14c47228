// A lobby table in the browser: a plain, complete view of the game for a
// seat (or a spectator), with the room (who is here, countdowns), the chat
// and leaving. Offers exactly turn.legal; never decides anything.

import { $, currentUser, el, nav, tokenOf } from './common.js';

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
    case 'match_start': say(`Match ${e.match} to ${e.target}; ${name(e.dealer)} deals`); st.totals = {}; break;
    case 'deal_start':
      Object.assign(st, { hand: [], trick: [], bids: [], contract: null, turned: null, deal: e.deal });
      say(`Deal ${e.deal}: ${name(e.dealer)} deals`);
      break;
    case 'dealt': case 'completed': if (e.cards) st.hand.push(...e.cards); break;
    case 'turned': st.turned = e.card; say(`Turned: ${cardLabel(e.card)}`); break;
    case 'bid': st.bids.push([e.seat, e.bid]); say(`${name(e.seat)}: ${e.bid}`); break;
    case 'all_passed': say('Everyone passed'); break;
    case 'contract': st.contract = e.text; say(`Contract: ${e.text}`); break;
    case 'declared': say(`${name(e.seat)} declares ${e.declarations.join(', ') || 'nothing'}`); break;
    case 'belote': say(`${name(e.seat)}: ${e.word}!`); break;
    case 'card':
      st.trick.push({ seat: e.seat, card: e.card });
      if (e.seat === st.you) st.hand = st.hand.filter((c) => c !== e.card);
      break;
    case 'trick':
      st.lastTrick = e.trick;
      st.trick = [];
      say(`Trick ${e.trick.number} to ${name(e.trick.winner)} (${e.trick.points})`);
      break;
    case 'deal_end':
      st.totals = e.totals;
      say(`Deal over: ${e.line.result}; ${Object.entries(e.line.score).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      break;
    case 'match_end': say(`Match won by ${e.winner}: ${Object.entries(e.totals).map(([k, v]) => `${k} ${v}`).join(', ')}`); break;
    case 'seat': say(`${e.name} now plays ${e.seat}`); break;
    case 'cancelled': say(`Deal cancelled: ${e.reason}`); break;
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
  const what = { move: 'to play', hold: 'before a computer plays for them', leave: 'before they have left' }[c.reason];
  return `${left} s ${what}`;
}

function render() {
  const room = st.room;
  const head = [el('h2', { text: room ? room.name : 'Table' })];
  if (st.table) {
    head.push(el('p', { id: 'score', text: `${st.table.rules.preset} to ${st.target} · deal ${st.deal} · ${Object.entries(st.totals).map(([k, v]) => `${k} ${v}`).join(' – ')}` }));
  }
  head.push(el('p', { text: [st.turned ? `Turned ${cardLabel(st.turned)}` : null, st.contract ? `Contract ${st.contract}` : null,
    watching ? 'You are watching' : st.you ? `You are ${st.you}` : null].filter(Boolean).join(' · ') }));
  $('#head').replaceChildren(...head);
  const seats = room ? room.seats : (st.table ? st.table.seats.map((s) => ({ ...s, connected: true, countdowns: [] })) : []);
  $('#seats').replaceChildren(...seats.map((s) => el('div', { class: 'seat', dataset: { seat: s.seat } },
    el('div', { class: 'name', text: `${s.seat} · ${s.kind === 'open' ? 'free' : s.name}` }),
    el('div', {}, s.kind === 'bot' ? el('span', { class: 'badge', text: `computer ${s.level}` }) : null,
      s.kind === 'human' && !s.connected ? el('span', { class: 'badge', text: 'disconnected' }) : null,
      s.away ? el('span', { class: 'badge away', text: 'a computer plays for them' }) : null,
      st.turn && st.turn.seat === s.seat ? el('span', { class: 'badge', text: 'to play' }) : null),
    ...(s.countdowns || []).map((c) => el('div', {
      class: 'countdown', dataset: { reason: c.reason, deadline: String(c.deadline) }, text: countdownText(c),
    })))));
  $('#trick').replaceChildren(...st.trick.map((t) => el('div', { dataset: { trickSeat: t.seat } }, el('div', { text: t.seat }), cardEl(t.card))));
  $('#last-trick').textContent = st.lastTrick ? `Last trick: ${st.lastTrick.cards.map(cardLabel).join(' ')} → ${st.lastTrick.winner}` : '';
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
    actions.push(el('button', { type: 'button', text: `${cardLabel(st.askBelote)} saying belote`, dataset: { belote: 'yes' }, onclick: () => act(st.askBelote, true) }),
      el('button', { type: 'button', class: 'secondary', text: 'without saying it', dataset: { belote: 'no' }, onclick: () => act(st.askBelote, false) }));
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
      $('#error').textContent = ev.code === 4000 ? 'You left the table.' : `Closed: ${ev.reason}`;
      return;
    }
    setTimeout(connect, 1000);
  });
}

async function main() {
  const user = await currentUser().catch(() => null);
  $('#nav').replaceChildren(nav(user));
  if (!tableId) {
    $('#head').textContent = 'No table given.';
    return;
  }
  $('#back').addEventListener('click', () => send({ t: 'back' }));
  $('#leave').addEventListener('click', () => {
    if (confirm('Leave the match? It counts as a loss, and a computer player takes your seat.')) send({ t: 'leave' });
  });
  setInterval(() => {
    for (const node of document.querySelectorAll('.countdown')) {
      node.textContent = countdownText({ reason: node.dataset.reason, deadline: Number(node.dataset.deadline) });
    }
  }, 500);
  connect();
}

main();
