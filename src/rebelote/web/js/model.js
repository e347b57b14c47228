// What the table shows, kept from the server's snapshot and events.
//
// This is bookkeeping of what was said and shown (cards dealt to us, cards
// played, bids, declarations, scores), never a rule: who may do what comes
// from the server's `turn` (legal actions), and the score from `deal_end`.

/** Seats in playing order (counter-clockwise). */
export const ORDER = ['N', 'W', 'S', 'E'];

const CONTRACT_RE = /^(capot|\d+)?(TA|SA|[SHDC]) by ([NWSE])(?: (coinche|surcoinche))?$/;

/** Read a contract text ("H by W", "120S by E coinche") into its parts. */
export function parseContract(text) {
  if (!text) return null;
  const m = CONTRACT_RE.exec(text);
  if (!m) return { text, strain: null, value: null, taker: null, multiplier: 1 };
  const value = m[1] === undefined ? null : m[1] === 'capot' ? 250 : Number(m[1]);
  const multiplier = { coinche: 2, surcoinche: 4 }[m[4]] || 1;
  return { text, strain: m[2], value, taker: m[3], multiplier };
}

/** Whether an action text names a card ("JS", "10H"). */
export function isCard(text) {
  return /^(10|[789JQKA])[SHDC]$/.test(text);
}

function emptyDeal(dealer) {
  return {
    dealer,
    cutter: null,
    phase: null,
    hand: [],
    sizes: {},
    turned: null,
    turnedTaken: false,
    bids: [],
    contract: null,
    declarations: [], // [seat, [texts]]
    belotes: [], // [seat, card, word]
    trick: [], // {seat, card}
    trickDone: false,
    trickWinner: null,
    trickNumber: 0,
    tricksWon: {},
    notice: null, // {kind: "all_passed" | "cancelled", seat?, reason?}
  };
}

/** A turn as the page keeps it: `agreed` (the seats that agreed to the next
 * deal or the rematch) and `deadline` (Unix seconds: the table goes on by
 * itself then) are absent from older servers: [] and null.  `why`: from
 * `illegal` (the cards of our hand we may not play now, grouped by reason),
 * each such card -> {reason, option, source, suit, house_rule}; empty from
 * older servers. */
function normalTurn(e) {
  if (!e) return null;
  const why = new Map();
  for (const group of Array.isArray(e.illegal) ? e.illegal : []) {
    const reason = {
      reason: group.reason, option: group.option ?? null, source: group.source ?? null, suit: group.suit ?? null,
      house_rule: group.house_rule === true,
    };
    for (const card of group.cards || []) why.set(card, reason);
  }
  return {
    seat: e.seat, phase: e.phase, waiting: e.waiting, legal: e.legal,
    belote_choice: e.belote_choice || [], auto: e.auto,
    agreed: Array.isArray(e.agreed) ? e.agreed : [], deadline: typeof e.deadline === 'number' ? e.deadline : null,
    why,
    takeback: e.takeback === true, // the server says our last card or bid may be taken back now
    played: false, // the seat to act has acted since (its card or bid came before the next turn)
  };
}

export class TableModel {
  constructor() {
    this.table = null;
    this.you = 'S';
    this.match = null;
    this.deal = emptyDeal(null);
    this.turn = null;
    this.lastTrick = null;
    this.summary = null;
    this.bubbles = {}; // seat -> {type, ..., until: "card" | "trick"}
    this.pending = false; // an action of ours is on its way
    this.lobby = false; // a lobby table (it has a room): seats show the players' names
    this.mode = 'play'; // "play" (a seat), "watch" (a spectator) or "replay" (a finished game)
    this.room = null; // the lobby table's last `room` (who is connected, countdowns, spectators)
    this.openHands = null; // a replay: every seat's cards left {seat: [cards]}
    this.fair = null; // the deal's {commitment, seed, salt} (docs/fair-deals.md), or null
  }

  /** The seat drawn at the bottom: ours, or South for a spectator and a replay. */
  get viewpoint() {
    return this.you || (this.seats.includes('S') ? 'S' : this.seats[0] || 'S');
  }

  /** The room's seat (presence, countdowns), or null at a solo table. */
  roomSeat(seat) {
    return this.room?.seats.find((s) => s.seat === seat) || null;
  }

  /** Seats at this table, in playing order. */
  get seats() {
    return this.table ? this.table.seats.map((s) => s.seat) : [];
  }

  seatInfo(seat) {
    return this.table?.seats.find((s) => s.seat === seat) || null;
  }

  get players() {
    return this.table?.rules.players || 4;
  }

  /** Whether the player must decide now (something in turn.legal, not automatic). */
  get myDecision() {
    const turn = this.turn;
    if (!turn || !turn.legal.length || turn.auto || turn.played) return false;
    return turn.seat === this.you || turn.waiting === 'next' || turn.waiting === 'rematch';
  }

  applySnapshot(d) {
    this.table = d.table;
    this.you = d.table.you;
    this.match = structuredClone(d.match);
    const v = d.view;
    const deal = emptyDeal(v.dealer);
    deal.phase = v.phase;
    deal.hand = v.hand.slice();
    deal.sizes = { ...v.hand_sizes };
    deal.turned = v.turned;
    deal.turnedTaken = v.turned_holder !== null;
    // the round of each bid (1, 2): the server's `bid_rounds` (null from an older server)
    deal.bids = v.bids.map(([seat, bid], i) => ({ seat, bid, round: v.bid_rounds?.[i] ?? null }));
    deal.contract = parseContract(v.contract);
    deal.declarations = v.declarations.map(([s, ds]) => [s, ds.slice()]);
    deal.belotes = v.belotes.map((b) => b.slice());
    deal.trick = v.trick.map(([seat, card]) => ({ seat, card }));
    deal.trickNumber = v.tricks.length + (v.trick.length ? 1 : 0);
    for (const t of v.tricks) deal.tricksWon[t.winner] = (deal.tricksWon[t.winner] || 0) + 1;
    this.deal = deal;
    this.bubbles = {};
    if (v.phase === 'bidding') {
      for (const b of deal.bids) this.bubbles[b.seat] = { type: 'bid', bid: b.bid, until: 'card' };
    }
    this.lastTrick = d.last_trick;
    this.turn = normalTurn(d.turn);
    this.summary = d.deal_summary;
    this.fair = d.fair || null;
    this.pending = false;
  }

  /**
   * Apply one event (in stream order).  Returns a list of effects for the
   * view: "deal_end", "match_end", "card", "new_deal", "notice".
   */
  applyEvent(e) {
    const deal = this.deal;
    const effects = [];
    if (this.match && typeof e.deal === 'number' && e.kind !== 'match_start') this.match.deal = e.deal;
    switch (e.kind) {
      case 'match_start':
        this.match = {
          number: e.match, target: e.target, sides: this.match?.sides || [], totals: {},
          held_over: 0, sheet: [], deal: 1, dealer: e.dealer, winner: null,
        };
        for (const side of this.match.sides) this.match.totals[side] = 0;
        if (this.table) this.table = { ...this.table, status: 'playing' };
        this.newDeal(e.dealer);
        this.match.deal = 1;
        effects.push('new_deal');
        break;
      case 'deal_start':
        this.newDeal(e.dealer);
        this.deal.cutter = e.cutter;
        this.fair = e.commitment ? { commitment: e.commitment, seed: null, salt: null } : null;
        if (this.match) this.match.dealer = e.dealer;
        effects.push('new_deal');
        break;
      case 'cut':
        this.say(e.seat, { type: 'cut', packet: e.packet, until: 'card' });
        break;
      case 'pattern':
        this.say(e.seat, { type: 'pattern', pattern: e.pattern, until: 'card' });
        break;
      case 'dealt':
      case 'completed':
        deal.sizes[e.seat] = (deal.sizes[e.seat] || 0) + e.count;
        if (e.cards && e.seat === this.you) deal.hand.push(...e.cards);
        if (e.kind === 'completed') deal.turnedTaken = true;
        break;
      case 'turned':
        deal.turned = e.card;
        break;
      case 'bid':
        this.acted(e.seat);
        deal.bids.push({ seat: e.seat, bid: e.bid, round: e.round ?? null });
        this.say(e.seat, { type: 'bid', bid: e.bid, until: 'card' });
        break;
      case 'all_passed':
        deal.notice = { kind: 'all_passed', then: e.then };
        effects.push('notice');
        break;
      case 'contract':
        deal.contract = {
          text: e.text, strain: e.strain, value: e.value, taker: e.seat, multiplier: e.multiplier,
        };
        break;
      case 'cancelled':
        deal.notice = { kind: 'cancelled', seat: e.seat, reason: e.reason };
        effects.push('notice');
        break;
      case 'declared':
        if (e.declarations.length) {
          deal.declarations.push([e.seat, e.declarations.slice()]);
          this.say(e.seat, { type: 'decl', list: e.declarations.slice(), cards: e.cards, until: 'trick' });
        }
        break;
      case 'shown':
        // the winning side shows its declarations (FFB 8.3): their texts
        // replace the natures said at the first trick
        deal.declarations = deal.declarations.filter(([s]) => !e.side.includes(s));
        for (const [seat, list, cards] of e.declarations) {
          deal.declarations.push([seat, list.slice()]);
          this.say(seat, { type: 'decl', list: list.slice(), cards, until: 'trick' });
        }
        break;
      case 'declined':
        break;
      case 'belote':
        deal.belotes.push([e.seat, e.card, e.word]);
        this.say(e.seat, { type: 'belote', word: e.word, until: 'trick' });
        break;
      case 'card':
        if (deal.trickDone || deal.trick.length === 0) {
          if (deal.trickDone) {
            deal.trick = [];
            deal.trickDone = false;
            deal.trickWinner = null;
            this.expire('trick');
          }
          deal.trickNumber += 1;
        }
        this.expire('card');
        this.acted(e.seat);
        deal.trick.push({ seat: e.seat, card: e.card });
        deal.sizes[e.seat] = Math.max(0, (deal.sizes[e.seat] || 0) - 1);
        if (e.seat === this.you) {
          const i = deal.hand.indexOf(e.card);
          if (i >= 0) deal.hand.splice(i, 1);
        }
        effects.push('card');
        break;
      case 'trick':
        this.lastTrick = e.trick;
        deal.trickDone = true;
        deal.trickWinner = e.trick.winner;
        deal.tricksWon[e.trick.winner] = (deal.tricksWon[e.trick.winner] || 0) + 1;
        break;
      case 'deal_end':
        this.summary = e.summary;
        if (e.fair) this.fair = e.fair;
        if (this.match) {
          this.match.totals = { ...e.totals };
          this.match.held_over = e.line.held_over;
          this.match.sheet = [...this.match.sheet.filter((l) => l.deal !== e.line.deal), e.line];
        }
        deal.phase = 'done';
        effects.push('deal_end');
        break;
      case 'match_end':
        if (this.match) {
          this.match.winner = e.winner;
          this.match.totals = { ...e.totals };
          this.match.sheet = e.sheet.slice();
          this.match.unclaimed = e.unclaimed || 0; // litige points nobody scores (the match is over)
        }
        if (this.table) this.table = { ...this.table, status: 'finished' };
        effects.push('match_end');
        break;
      case 'seat':
        // a player who left is replaced for good: the seat's new player
        if (this.table) {
          this.table = {
            ...this.table,
            seats: this.table.seats.map((s) => (s.seat === e.seat
              ? { ...s, kind: e.player, name: e.name, level: e.level, guest: false, left: Boolean(e.left) } : s)),
          };
        }
        break;
      case 'options':
        // the computer players' speed changed (the settings, during the match)
        if (this.table) this.table = { ...this.table, options: { ...this.table.options, speed: e.speed } };
        break;
      case 'turn':
        this.turn = normalTurn(e);
        deal.phase = e.phase;
        this.pending = false;
        break;
      default:
        break;
    }
    return effects;
  }

  newDeal(dealer) {
    this.deal = emptyDeal(dealer);
    this.summary = null;
    this.lastTrick = null;
    this.bubbles = {};
    if (this.match) this.match.dealer = dealer;
  }

  /** `seat` has played or bid: the turn it had is over (until the
   * server's next `turn`, which a finished trick shown may hold back).
   * The turn is marked in place: it is still the server's last turn. */
  acted(seat) {
    if (this.turn && this.turn.seat === seat && this.turn.waiting === 'action') this.turn.played = true;
  }

  /** The finished trick shown has been shown long enough: the table is
   * cleared for the next one (not after the deal's last trick, which stays
   * under the deal's summary).  Returns whether it was cleared. */
  clearTrick() {
    const deal = this.deal;
    if (!deal?.trickDone || !Object.values(deal.sizes).some((n) => n > 0)) return false;
    deal.trick = [];
    deal.trickDone = false;
    deal.trickWinner = null;
    this.expire('trick');
    return true;
  }

  say(seat, bubble) {
    this.bubbles[seat] = bubble;
  }

  expire(until) {
    for (const [seat, b] of Object.entries(this.bubbles)) {
      if (b.until === until) delete this.bubbles[seat];
    }
  }
}
