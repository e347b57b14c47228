// The seat's WebSocket: numbered events, resume after a drop, sync on a gap.
//
// The server numbers this seat's events 1, 2, 3, ... (docs/protocol.md).  We
// keep the last version applied; an event at or below it is a repeat and is
// ignored; an event past the next one means we missed some: we ask for a
// snapshot (`sync`) and apply nothing until it comes.  When the socket drops,
// we reconnect with `last_v`, after a short, growing pause; the server then
// sends what we missed, or a snapshot.

const PING_EVERY = 20000; // ms between pings while connected
const SILENCE_LIMIT = 45000; // ms without any message before we reconnect
const FATAL_CODES = new Set([4000, 4403, 4404]); // left the table, bad token, no such table

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.tableId
   * @param {string} o.token
   * @param {(msg: object) => void} o.onMessage  a snapshot, an event in order, an error, or a
   *        message outside the stream (room, chat, chat_history, muted, pong)
   * @param {(status: string, detail?: object) => void} o.onStatus
   *        "connecting", "open", "reconnecting", "fatal"
   */
  constructor({ tableId, token, onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.lastV = null; // null until the first snapshot
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    this.syncing = false;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState > 1)) this.reconnectNow();
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = new URLSearchParams({ token: this.token });
    if (this.lastV !== null) q.set('last_v', String(this.lastV));
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}?${q}`;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.onStatus(this.retries ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.syncing = false;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.onStatus('open');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.heartbeat(), PING_EVERY);
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.retries = 0;
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
      if (FATAL_CODES.has(e.code)) {
        this.closed = true;
        this.onStatus('fatal', { code: e.code, reason: e.reason });
        return;
      }
      this.retries += 1;
      const pause = Math.min(5000, 300 * 2 ** Math.min(this.retries - 1, 5));
      this.onStatus('reconnecting');
      this.timer = setTimeout(() => this.connect(), pause);
    };
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

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
      this.ws.close();
      return;
    }
    this.send({ t: 'ping' });
  }

  /** Drop the socket and open a new one at once (resuming after lastV). */
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

  /** A new connection (resuming after lastV), the old one closed once the
   * new one is open (the seat stays connected): the server sends the room,
   * the chat history and the mutes again (the chat after an unmute). */
  refresh() {
    const old = this.ws;
    if (this.closed || !old) return;
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

  /** Send a message; false when the socket is not open (nothing is queued). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send an action of turn.legal (with belote true/false for a belote choice). */
  act(action, belote) {
    const d = { action };
    if (belote !== undefined && belote !== null) d.belote = belote;
    return this.send({ t: 'act', d });
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
  }
}
