// <rebelote-chat>: the chat panel of a table (seed 000: "il est possible de
// dialoguer avec les autres joueurs").
//
// Two ways to use it:
// - fed by a page that already holds the table's WebSocket (js/net.js's
//   Connection `conn`):
//     chat.attach((msg) => conn.send(msg), mySeat, () => conn.opens);
//     chat.receive(msg)            // for every server message
// - on its own (`auto` attribute): it reads the table id from the page's
//   `#/table/ID` (or `?table=ID`) and the seat token from localStorage
//   ('rebelote.tables'), and opens a socket of its own. The table page then
//   needs one line:
//     <script type="module" src="chat/chat.js"></script><rebelote-chat auto></rebelote-chat>
//
// Every line is shown with textContent (never as HTML): what a player typed
// stays text. Players may mute a seat (the seats muted are listed under the
// title, each with an "unmute" button: `{"muted": false}`); spectators only
// read. A muted seat's lines are kept, hidden, and shown again at once when
// it is unmuted; as the server leaves a muted seat's lines out (those said
// while it was muted, and the history sent on connection), the element then
// fires `unmuted` ({detail: {seats}}): the page opens a new connection, whose
// `chat_history` brings them (docs/protocol.md), and they take their place
// by id. On its own (`auto`), the element does so itself.
//
// Nothing typed is lost silently: a line goes to an outbox first. It is sent
// at once when the socket is open, else kept, shown "en attente de
// connexion…", and sent when the page's socket is back (the server sends
// `chat_history` on every new connection: that is the signal). A line sent
// is kept until the server echoes it back; a connection that drops first
// sends it again, unless the history shows it arrived. A line sent on the
// connection whose `chat_history` arrives is not checked against it: the
// server reads it after making that history (it was not lost, its echo is
// on the way). A line the server refuses (too fast, ...) is shown "non
// envoyé" with "réessayer".
//
// Labels come from the table's catalogs (js/i18n.js), in the language the
// player chose there; they follow a change of language.

import { t, whenLoaded } from '../js/i18n.js';
import { Connection } from '../js/net.js';

const MAX = 300;
const ERROR_KEYS = {
  rate_limited: 'chat.error.rateLimited', bad_message: 'chat.error.badMessage',
  spectator: 'chat.error.spectator', left: 'chat.error.left',
};
const PENDING_KEYS = { queued: 'chat.queued', sent: 'chat.sending', failed: 'chat.notSent' };
const SEAT_KEYS = { N: 'seat.N', W: 'seat.W', S: 'seat.S', E: 'seat.E' };

/** "Ana (Sud)": a player's name and his seat in the page's language. */
function seatWho(name, seat) {
  const where = SEAT_KEYS[seat] ? t(SEAT_KEYS[seat]) : seat;
  return name ? `${name} (${where})` : where;
}

// the element's styles: a file (no <style> made here, so the pages'
// Content-Security-Policy needs no 'unsafe-inline'), resolved from this module
const STYLESHEET = new URL('./chat.css', import.meta.url).href;

export class RebeloteChat extends HTMLElement {
  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.lines = new Map(); // id -> line
    this.muted = new Set();
    this.seat = null;
    this.sendFn = null;
    this.socket = null;
    this.names = {};
    this.connection = () => 0; // the number of the page's current connection
    this.outbox = []; // {text, state: "queued" | "sent" | "failed", afterId, connection}
  }

  connectedCallback() {
    // the styles, from chat.css; the parts stay hidden until it is in (no
    // flash of an unstyled chat), or shown plain should it fail to load
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = STYLESHEET;
    const body = document.createElement('div');
    body.className = 'chat'; // display: contents: its parts are the host's flex items
    body.hidden = true;
    const shown = () => { body.hidden = false; };
    sheet.addEventListener('load', shown, { once: true });
    sheet.addEventListener('error', shown, { once: true });
    const head = document.createElement('div');
    head.className = 'head';
    const title = document.createElement('span');
    this.titleEl = title;
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.textContent = '–';
    this.toggle = toggle;
    toggle.addEventListener('click', () => this.toggleAttribute('collapsed'));
    head.append(title, toggle);
    this.mutedBar = document.createElement('div'); // the seats muted, each with "unmute"
    this.mutedBar.className = 'muted';
    this.mutedBar.hidden = true;
    this.list = document.createElement('ol');
    this.list.setAttribute('aria-live', 'polite');
    this.error = document.createElement('div');
    this.error.className = 'err';
    this.form = document.createElement('form');
    this.input = document.createElement('input');
    this.input.maxLength = MAX;
    this.input.name = 'chat';
    const send = document.createElement('button');
    send.type = 'submit';
    this.sendButton = send;
    this.form.append(this.input, send);
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (!text || !this.sendFn || this.seat == null) return;
      this.outbox.push({ text: text.slice(0, MAX), state: 'queued', afterId: this.lastId() });
      this.input.value = '';
      this.flush();
    });
    body.append(head, this.mutedBar, this.list, this.error, this.form);
    this.root.append(sheet, body);
    this.onLang = () => this.relabel();
    document.addEventListener('rebelote:lang', this.onLang);
    whenLoaded().then(this.onLang);
    if (this.hasAttribute('auto')) this.autoConnect();
  }

  disconnectedCallback() {
    document.removeEventListener('rebelote:lang', this.onLang);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  /** The labels, in the language in use. */
  relabel() {
    this.titleEl.textContent = this.getAttribute('heading') || t('chat.title');
    this.toggle.setAttribute('aria-label', t('chat.toggle'));
    this.toggle.title = t('chat.toggle');
    this.input.placeholder = t('chat.placeholder');
    this.input.setAttribute('aria-label', t('chat.input'));
    this.sendButton.textContent = t('chat.send');
    this.ready = true;
    this.redraw();
  }

  /** Use the page's socket: `send(msg)` sends one client message (false
   * when the socket is not open); `connection()`, the number of its current
   * connection (js/net.js's `Socket.opens`), tells which lines were sent on
   * the connection whose `chat_history` arrives. */
  attach(send, seat, connection) {
    this.sendFn = send;
    if (connection) this.connection = connection;
    this.seat = seat;
    this.form.hidden = seat == null; // spectators read only
    this.redraw();
  }

  /** The highest line id received. */
  lastId() {
    return this.lines.size ? Math.max(...this.lines.keys()) : 0;
  }

  /** Send the lines waiting in the outbox (the socket is open again). */
  flush() {
    if (!this.sendFn) return;
    for (const line of this.outbox) {
      if (line.state !== 'queued') continue;
      if (this.sendFn({ t: 'chat', d: { text: line.text } }) === false) break; // still offline
      line.state = 'sent';
      line.connection = this.connection();
    }
    this.redraw();
  }

  /** The server echoed our line: it arrived. */
  delivered(line) {
    if (line.seat !== this.seat) return;
    const i = this.outbox.findIndex((o) => o.state === 'sent' && o.text === line.text);
    if (i >= 0) this.outbox.splice(i, 1);
  }

  /** Feed every server message; chat ones are shown. */
  receive(msg) {
    if (msg.t === 'chat') {
      this.names[msg.d.seat] = msg.d.name;
      this.delivered(msg.d);
      this.add(msg.d);
    } else if (msg.t === 'chat_history') {
      // a new connection: lines sent on an older one but not echoed arrived
      // if the history has them, else they go again with those still
      // waiting; those sent on this one are read after it (echo to come)
      const current = this.connection();
      for (const o of this.outbox) {
        if (o.state !== 'sent' || (current && o.connection === current)) continue;
        const there = msg.d.lines.some((l) => l.seat === this.seat && l.text === o.text && l.id > o.afterId);
        o.state = there ? 'done' : 'queued';
      }
      this.outbox = this.outbox.filter((o) => o.state !== 'done');
      msg.d.lines.forEach((l) => this.add(l));
      this.flush();
    }
    else if (msg.t === 'muted') {
      const unmuted = [...this.muted].filter((seat) => !msg.d.seats.includes(seat));
      this.muted = new Set(msg.d.seats);
      this.redraw();
      if (unmuted.length) this.dispatchEvent(new CustomEvent('unmuted', { detail: { seats: unmuted } }));
    } else if (msg.t === 'room') {
      for (const s of msg.d.seats) if (s.kind !== 'open') this.names[s.seat] = s.name;
      if (this.muted.size) this.redraw();
    } else if (msg.t === 'error' && ERROR_KEYS[msg.d.code]) {
      const refused = this.outbox.find((o) => o.state === 'sent');
      if (refused) refused.state = 'failed';
      this.redraw();
      this.error.textContent = t(ERROR_KEYS[msg.d.code]);
      this.error.dataset.code = msg.d.code;
      clearTimeout(this.errorTimer);
      this.errorTimer = setTimeout(() => { this.error.textContent = ''; }, 4000);
    }
  }

  /** Forget every line (the page moves to another table). */
  clear() {
    this.lines.clear();
    this.outbox = [];
    this.muted = new Set();
    this.redraw();
  }

  add(line) {
    if (this.lines.has(line.id)) return;
    this.lines.set(line.id, line);
    if (this.lines.size > 200) this.lines.delete(Math.min(...this.lines.keys()));
    this.redraw();
  }

  /** Show a muted seat's lines again. */
  unmute(seat) {
    if (this.sendFn) this.sendFn({ t: 'mute', d: { seat, muted: false } });
  }

  redraw() {
    if (!this.ready) return; // the labels are not loaded yet: relabel() draws
    const bar = [];
    if (this.muted.size) {
      const title = document.createElement('span');
      title.textContent = t('chat.mutedList');
      bar.push(title);
    }
    for (const seat of [...this.muted].sort()) {
      const who = document.createElement('span');
      who.className = 'muted-seat';
      who.dataset.seat = seat;
      const name = seatWho(this.names[seat], seat);
      who.append(name);
      if (this.sendFn && this.seat) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'unmute';
        button.dataset.unmute = seat;
        button.textContent = t('chat.unmute');
        button.title = t('chat.unmuteTitle', { name });
        button.addEventListener('click', () => this.unmute(seat));
        who.append(button);
      }
      bar.push(who);
    }
    this.mutedBar.replaceChildren(...bar);
    this.mutedBar.hidden = bar.length === 0;
    const items = [];
    // in the table's order (by id): lines of a seat unmuted come back in place
    for (const line of [...this.lines.values()].sort((a, b) => a.id - b.id)) {
      if (this.muted.has(line.seat)) continue; // hidden, not dropped
      const li = document.createElement('li');
      li.dataset.seat = line.seat;
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = seatWho(line.name, line.seat);
      const text = document.createElement('span');
      text.className = 'text';
      text.textContent = line.text; // never innerHTML
      li.append(who, text);
      if (this.sendFn && this.seat && line.seat !== this.seat) {
        const mute = document.createElement('button');
        mute.type = 'button';
        mute.className = 'mute';
        mute.textContent = t('chat.mute');
        mute.title = t('chat.muteTitle', { name: line.name });
        mute.addEventListener('click', () => this.sendFn({ t: 'mute', d: { seat: line.seat, muted: true } }));
        li.append(mute);
      }
      items.push(li);
    }
    // our lines not (yet) sent, after the others, each with its state
    for (const line of this.outbox) {
      const li = document.createElement('li');
      li.className = 'pending';
      li.dataset.pending = line.state;
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = seatWho(this.names[this.seat], this.seat);
      const text = document.createElement('span');
      text.className = 'text';
      text.textContent = line.text; // never innerHTML
      const state = document.createElement('span');
      state.className = 'state';
      state.textContent = t(PENDING_KEYS[line.state]);
      li.append(who, text, state);
      if (line.state === 'failed') {
        const retry = document.createElement('button');
        retry.type = 'button';
        retry.className = 'retry';
        retry.textContent = t('chat.retry');
        retry.addEventListener('click', () => {
          line.state = 'queued';
          line.afterId = this.lastId();
          this.flush();
        });
        li.append(retry);
      }
      items.push(li);
    }
    this.list.replaceChildren(...items);
    this.list.scrollTop = this.list.scrollHeight;
  }

  autoConnect() {
    const fromHash = /#\/table\/([\w-]+)/.exec(location.hash);
    const tableId = fromHash ? fromHash[1] : new URLSearchParams(location.search).get('table');
    if (!tableId) return;
    let tokens = {};
    try {
      tokens = JSON.parse(localStorage.getItem('rebelote.tables') || '{}');
    } catch { /* no storage */ }
    const token = tokens[tableId] || null;
    if (this.socket) this.socket.close();
    // the reconnecting connection of js/net.js: the chat comes back by itself
    const conn = new Connection({
      tableId,
      token,
      onMessage: (msg) => {
        if (msg.t === 'snapshot') this.attach((m) => conn.send(m), msg.d.table.you, () => conn.opens);
        this.receive(msg);
      },
      onOpen: () => {
        if (token && !this.sendFn) this.attach((m) => conn.send(m), null, () => conn.opens);
      },
    });
    this.socket = conn;
    if (!this.reopen) {
      // a seat unmuted: a new connection brings its lines (chat_history)
      this.reopen = () => this.socket?.refresh();
      this.addEventListener('unmuted', this.reopen);
    }
    conn.connect();
  }
}

customElements.define('rebelote-chat', RebeloteChat);
