// The WebSockets of every page, each one reconnecting by itself.
//
// `Socket`: a WebSocket that comes back after a drop, after a pause that
// grows (exponential backoff with jitter, so that a restarted server is
// not hit by every page at once), at once when the page comes back to the
// front or the browser goes online; pings while open, and reconnects when
// it hears nothing for a while. Its `onStatus` says "connecting", "open",
// "reconnecting" or "fatal" (a close code that means it is over); the
// offline banner (js/banners.js) shows while any socket reconnects.
//
// `Connection` (the table's seat, docs/protocol.md): the server numbers
// this seat's events 1, 2, 3, ...  We keep the last version applied; an
// event at or below it is a repeat and is ignored; an event past the next
// one means we missed some: we ask for a snapshot (`sync`) and apply
// nothing until it comes.  When the socket drops, we reconnect with
// `last_v`; the server then sends what we missed, or a snapshot.  A seat's
// token never goes in the URL (URLs end up in logs and histories): the
// socket opens `/ws/ID` and its first message is `hello` with the token and
// `last_v`; a spectator opens `/ws/ID?watch=1[&last_v=N]` (no secret).
//
// `LobbyConnection` (`/ws/lobby`): the public tables and the waiting room
// followed; on each (re)connection the server sends the whole list, and
// the room followed is asked for again.

const PING_EVERY = 20000; // ms between pings while connected
const SILENCE_LIMIT = 45000; // ms without any message before we reconnect
const BACKOFF_FIRST = 300; // ms before the first retry (then doubled)
const BACKOFF_MAX = 8000; // ms, the longest pause between two tries
const FATAL_CODES = new Set([4000, 4403, 4404]); // left the table, refused, no such table
const CROWDED = 4429; // too many sockets from this address: retry, ever more slowly

/** The pause before retry number `n` (1, 2, ...): doubling from
 * BACKOFF_FIRST up to BACKOFF_MAX, each drawn at random between half and
 * all of it ("equal jitter"). */
export function backoff(n) {
  const full = Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** Math.min(n - 1, 10));
  return Math.round(full / 2 + Math.random() * (full / 2));
}

function wsUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}

export class Socket {
  /**
   * @param {object} o
   * @param {() => string} o.path  the path and query to open (asked again at each try)
   * @param {(msg: object) => void} o.onMessage  every message (parsed JSON)
   * @param {(status: string, detail?: object) => void} [o.onStatus]
   *        "connecting", "open", "reconnecting", "fatal" ({code, reason})
   * @param {() => void} [o.onOpen]  after each (re)connection
   * @param {Set<number>} [o.fatal]  close codes after which it gives up
   */
  constructor({ path, onMessage, onStatus, onOpen, fatal }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.fatal = fatal || new Set();
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    this.crowded = 0; // refusals (4429) in a row, none heard from since
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.opens = 0; // the number of the current connection (1, 2, ...; 0 before the first)
    this.status = 'idle';
    this.wake = () => {
      if (!this.closed && document.visibilityState !== 'hidden' && (!this.ws || this.ws.readyState > 1)) {
        this.reconnectNow();
      }
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
  }

  setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  /** Whether the socket is open now. */
  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.setStatus(this.retries ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.path()));
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.retries = 0;
      this.opens += 1;
      this.greet(); // the first message, before anything the page sends
      this.setStatus('open');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.heartbeat(), PING_EVERY);
      this.onOpen();
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.crowded = 0;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      clearInterval(this.pinger);
      if (this.closed) return;
      if (this.fatal.has(e.code)) {
        this.closed = true;
        this.setStatus('fatal', { code: e.code, reason: e.reason });
        return;
      }
      // opened, then refused at once: the pauses grow as if it never opened
      if (e.code === CROWDED) this.retries = ++this.crowded;
      this.retry();
    };
  }

  retry() {
    this.retries += 1;
    this.setStatus('reconnecting');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), backoff(this.retries));
  }

  /** The socket is open: what must be sent first (subclasses). */
  greet() {}

  /** A parsed message: to the page (subclasses filter). */
  receive(msg) {
    if (msg && typeof msg.t === 'string') this.onMessage(msg);
  }

  heartbeat() {
    if (!this.open) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
      this.ws.close();
      return;
    }
    this.send({ t: 'ping' });
  }

  /** Drop the socket and open a new one at once. */
  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      try {
        old.close();
      } catch {
        /* already closed */
      }
    }
    clearInterval(this.pinger);
    this.connect();
  }

  /** A new connection, the old one closed once the new one is open (no
   * gap): the server sends everything it sends on connection again. */
  refresh() {
    const old = this.ws;
    if (this.closed) return;
    if (!old) {
      this.connect();
      return;
    }
    old.onclose = null;
    this.connect();
    const drop = () => {
      try {
        old.close();
      } catch {
        /* already closed */
      }
    };
    this.ws.addEventListener('open', drop, { once: true });
    this.ws.addEventListener('close', drop, { once: true });
  }

  /** Send a message; false when the socket is not open (nothing is queued
   * here: the caller keeps what must not be lost, e.g. the chat's outbox). */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    this.ws = null;
    this.setStatus('closed');
  }
}

export class Connection extends Socket {
  /**
   * A seat's (or a spectator's) connection to its table.
   * @param {object} o
   * @param {string} o.tableId
   * @param {string} [o.token]  the seat's token (none: `watch`)
   * @param {boolean} [o.watch]  a spectator (`?watch=1`)
   * @param {(msg: object) => void} o.onMessage  a snapshot, an event in order, an error, or a
   *        message outside the stream (room, chat, chat_history, muted, pong)
   * @param {(status: string, detail?: object) => void} [o.onStatus]
   */
  constructor({ tableId, token, watch, onMessage, onStatus, onOpen }) {
    super({ path: () => this.pathWithVersion(), onMessage, onStatus, onOpen, fatal: FATAL_CODES });
    this.tableId = tableId;
    this.token = token || null;
    this.watch = !!watch || !token;
    this.lastV = null; // null until the first snapshot
    this.syncing = false;
  }

  /** The path the next connection opens: `/ws/ID` for a seat (its token
   * goes in `hello`), `/ws/ID?watch=1[&last_v=N]` for a spectator. */
  pathWithVersion() {
    const path = `/ws/${encodeURIComponent(this.tableId)}`;
    if (!this.watch) return path;
    const q = new URLSearchParams({ watch: '1' });
    if (this.lastV !== null) q.set('last_v', String(this.lastV));
    return `${path}?${q}`;
  }

  /** The URL the next connection opens. */
  url() {
    return wsUrl(this.pathWithVersion());
  }

  /** A seat's first message: `hello` with its token and the last version
   * applied (null: a snapshot), docs/protocol.md. */
  greet() {
    if (!this.watch) this.send({ t: 'hello', d: { token: this.token, last_v: this.lastV } });
  }

  connect() {
    this.syncing = false;
    super.connect();
  }

  receive(msg) {
    if (msg.t === 'snapshot') {
      this.lastV = msg.v;
      this.syncing = false;
      this.onMessage(msg);
    } else if (msg.t === 'event') {
      if (this.lastV === null || this.syncing) return; // a snapshot is on its way
      if (msg.v <= this.lastV) return; // already applied
      if (msg.v !== this.lastV + 1) {
        this.syncing = true;
        this.send({ t: 'sync' });
        return;
      }
      this.lastV = msg.v;
      this.onMessage(msg);
    } else if (typeof msg.t === 'string') {
      // errors, and the messages outside the numbered stream (room, chat,
      // chat_history, muted, pong): the page decides what to do with them
      this.onMessage(msg);
    }
  }

  /** Send an action of turn.legal (with belote true/false for a belote
   * choice); `id`: the action's id (sent again, it is not applied twice);
   * `v`: the version the player chose at (docs/protocol.md). */
  act(action, belote, { id, v } = {}) {
    const d = { action };
    if (belote !== undefined && belote !== null) d.belote = belote;
    if (id) d.id = id;
    const msg = { t: 'act', d };
    if (Number.isInteger(v)) msg.v = v;
    return this.send(msg);
  }
}

export class LobbyConnection extends Socket {
  /**
   * The lobby socket (`/ws/lobby`, docs/protocol.md): `lobby` (the whole
   * list, on each connection), `table`, `table_gone`, `waiting` (the room
   * followed), `error`, `pong`.
   * @param {object} o
   * @param {(msg: object) => void} o.onMessage
   * @param {(status: string) => void} [o.onStatus]
   */
  constructor({ onMessage, onStatus }) {
    super({ path: () => '/ws/lobby', onMessage, onStatus, onOpen: () => this.resume() });
    this.room = null; // {table, invite}: the waiting room followed
  }

  resume() {
    if (this.room) this.send({ t: 'watch_room', d: this.room });
  }

  /** Follow a table's waiting room (again after every reconnection). */
  watchRoom(table, invite) {
    this.room = { table, invite: invite || null };
    this.send({ t: 'watch_room', d: this.room });
  }

  unwatchRoom() {
    this.room = null;
    this.send({ t: 'unwatch_room' });
  }
}
