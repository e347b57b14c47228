// Drawing the table from the model.  Elements are reused from one render to
// the next (the hand's cards, the action buttons), so that keyboard focus
// stays where it is while the server's messages come in.
//
// Test hooks: data-card on cards (hand: .hand [data-card]; table:
// [data-trick-seat]), data-reason on a greyed card of the hand (why the
// server says it may not be played: turn.illegal), data-reason on #status
// while it says that reason, data-bid on bid buttons, data-act on every
// action button (the server's action text), data-declare, data-belote,
// data-action for the table's own buttons, data-seat / data-count /
// data-dealer on seats, data-score on scores, data-turned on the turned card.

import { t, lang } from './i18n.js';
import { cardBack, cardFace, parseCard, suitIcon } from './cards.js';
import { ORDER, isCard } from './model.js';
import { renderAuction } from './auction.js';
import { getSetting } from './settings.js';
import {
  RANK_KEYS, SUIT_KEYS, bidLabel, cardLabel, contractLabel, declLabel, levelLabel, rankMap,
  reasonText, seatName, sideName, strainLabel,
} from './labels.js';
import { h } from './dom.js';

/** A table of a fixed set of deals (the daily deal: `options.deals`)
 * whose set is over: the server waits for nothing more there. */
function setOver(model) {
  return Boolean(model.table?.options?.deals && model.match && model.turn && model.turn.waiting == null);
}

// what the rule in force does when everyone passed (the server's `then`)
const ALL_PASSED_KEYS = {
  redeal: 'notice.allPassed.redeal',
  next_dealer: 'notice.allPassed.next_dealer',
  dealer_left: 'notice.allPassed.dealer_left',
};
const PLAIN = ['A', '10', 'K', 'Q', 'J', '9', '8', '7'];
const TRUMP = ['J', '9', 'A', '10', 'K', 'Q', '8', '7'];
const SUIT_CYCLE = ['S', 'H', 'C', 'D'];
const RANK_NAME_KEYS = {
  7: 'rankname.7', 8: 'rankname.8', 9: 'rankname.9', 10: 'rankname.10',
  J: 'rankname.J', Q: 'rankname.Q', K: 'rankname.K', A: 'rankname.A',
};

/**
 * The hand in display order: suits grouped, colours alternating, the trump
 * suit first in J 9 A 10 K Q 8 7 order, other suits A 10 K Q J 9 8 7
 * (every suit in trump order at Tout Atout).  `order` (the settings'
 * `cardOrder`): `trump` as said, `fixed` the suits ♠ ♥ ♣ ♦ whatever the
 * trump, `ascending` as `trump` with the weakest card first.  Display only.
 */
export function sortHand(hand, strain, order = 'trump') {
  const present = SUIT_CYCLE.filter((s) => hand.some((c) => c.endsWith(s)));
  const red = (s) => s === 'H' || s === 'D';
  const suits = [];
  const rest = present.slice();
  const take = (s) => {
    suits.push(s);
    rest.splice(rest.indexOf(s), 1);
  };
  if (order !== 'fixed' && rest.includes(strain)) take(strain);
  while (rest.length) {
    const last = suits[suits.length - 1];
    const other = last === undefined ? rest[0] : rest.find((s) => red(s) !== red(last)) || rest[0];
    take(other);
  }
  const key = (card) => {
    const [rank, suit] = parseCard(card);
    const ranks = strain === 'TA' || suit === strain ? TRUMP : PLAIN;
    const i = ranks.indexOf(rank);
    return suits.indexOf(suit) * 10 + (order === 'ascending' ? 7 - i : i);
  };
  return hand.slice().sort((a, b) => key(a) - key(b));
}

/** Where a seat sits on the screen, seen from `you` (counter-clockwise play);
 * with two players (W and S) the opponent faces you, at the top. */
export function position(seat, you, players = 4) {
  if (players === 2) return seat === you ? 'bottom' : 'top';
  const offset = (ORDER.indexOf(seat) - ORDER.indexOf(you) + 4) % 4;
  return ['bottom', 'right', 'top', 'left'][offset];
}


export function cardName(card) {
  const [rank, suit] = parseCard(card);
  return t('card.name', { rank: t(RANK_NAME_KEYS[rank]), suit: t(SUIT_KEYS[suit]) });
}

/** A face-up card element (not a button). */
export function cardElement(card, attrs = {}) {
  const el = h('div', { class: `card face ${suitClass(card)}`, 'data-card': card, ...attrs });
  el.append(cardFace(card, rankMap()));
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', cardName(card));
  return el;
}

/** A selector finding `el` again after the action panel is rebuilt. */
function focusSelector(el) {
  for (const attr of ['act', 'step', 'belote', 'action']) {
    if (el.dataset[attr] !== undefined) return `[data-${attr}="${CSS.escape(el.dataset[attr])}"]`;
  }
  if (el.dataset.cut !== undefined) return '[data-cut]';
  return null;
}

/** The presence of a lobby table's human seat: disconnected, a computer
 * playing for him, and the countdowns (each with its end in this page's
 * clock, `until`: `Date.now()` ms; the page's ticker updates the text). */
function presence(rs, you) {
  const box = h('div', { class: 'presence' });
  if (!rs.connected) box.append(h('span', { class: 'badge off', 'data-presence': 'disconnected', text: t('net.disconnected') }));
  if (rs.away) box.append(h('span', { class: 'badge away', 'data-presence': 'away', text: you ? t('net.awayYou') : t('net.away') }));
  // the countdown that ends first (holding the seat, then leaving); our own
  // seat's said to us ("vous"), data-you
  const soon = [...rs.countdowns].sort((a, b) => a.until - b.until).slice(0, 1);
  for (const c of soon) {
    box.append(h('span', {
      class: 'countdown', 'data-reason': c.reason, 'data-until': String(c.until), 'data-you': you ? '' : null,
      text: countdownText(c.reason, c.until, you),
    }));
  }
  if (!box.childElementCount) box.hidden = true;
  return box;
}

const COUNTDOWN_KEYS = { move: 'net.countdown.move', hold: 'net.countdown.hold', leave: 'net.countdown.leave', start: 'table.countdown.start' };
// the same said to the player whose seat it is
const OWN_COUNTDOWN_KEYS = { hold: 'net.countdown.holdYou', leave: 'net.countdown.leaveYou' };

/** A countdown's text: seconds left until `until` (`Date.now()` ms);
 * `you`: the countdown of the player's own seat ("vous"). */
export function countdownText(reason, until, you = false) {
  const s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const key = (you && OWN_COUNTDOWN_KEYS[reason]) || COUNTDOWN_KEYS[reason] || COUNTDOWN_KEYS.move;
  return t(key, { s });
}

function eyeIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'eye');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 5C6.5 5 2.7 9.3 1.5 12c1.2 2.7 5 7 10.5 7s9.3-4.3 10.5-7C21.3 9.3 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z');
  svg.append(path);
  return svg;
}

function suitClass(card) {
  const s = card.slice(-1);
  return s === 'H' || s === 'D' ? 'red' : 'black';
}

export class TableView {
  /**
   * @param {HTMLElement} root  the table page
   * @param {object} handlers   {act(action, belote), card(card)}
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    this.scores = root.querySelector('#scores');
    this.contract = root.querySelector('#contract');
    this.trick = root.querySelector('#trick');
    this.status = root.querySelector('#status');
    this.actions = root.querySelector('#actions');
    this.hand = root.querySelector('#hand');
    this.auction = root.querySelector('#auction');
    this.seatEls = {};
    for (const pos of ['top', 'left', 'right', 'bottom']) {
      this.seatEls[pos] = root.querySelector(`.seat[data-pos="${pos}"]`);
    }
    this.handCards = new Map(); // card -> button
    this.handLang = null;
    this.actionsKey = null;
    this.trickKey = null;
    this.trickLang = null;
    this.ui = { beloteAsk: null, coincheValue: null, cutValue: null, refused: null };
    this.model = null;
    // A greyed card is a disabled button: it gets no click.  Chromium (as
    // the Pointer Events spec says) still sends it pointerdown and
    // pointerup, which bubble up to #hand: a press and release on the same
    // greyed card says why it may not be played, in the status line.
    this.pressed = null;
    this.hand.addEventListener('pointerdown', (e) => {
      this.pressed = greyedCard(e.target);
    });
    this.hand.addEventListener('pointerup', (e) => {
      const card = greyedCard(e.target);
      if (card && card === this.pressed) this.showReason(card);
      this.pressed = null;
    });
  }

  /** Say in the status line why `card` (greyed) may not be played: the
   * reason the server sent with this turn.  It stays while it is still
   * true (the server's later turns give the card the same reason: the
   * computer players' moves do not end it), until the player acts or
   * clicks another card (`ui.refused`, cleared by the page then). */
  showReason(card) {
    const model = this.model;
    const why = model?.turn?.why.get(card);
    if (!why) return;
    this.ui.refused = { card, why };
    this.renderStatus(model);
  }

  render(model) {
    this.model = model;
    this.root.classList.toggle('three', model.players === 3);
    this.root.classList.toggle('two', model.players === 2);
    this.renderScores(model);
    this.renderSeats(model);
    this.renderTrick(model);
    renderAuction(this.auction, model);
    this.renderStatus(model);
    this.renderActions(model);
    this.renderHand(model);
  }

  // ------------------------------------------------------------ score bar

  renderScores(model) {
    const m = model.match;
    if (!m) return;
    const frag = document.createDocumentFragment();
    for (const side of m.sides) {
      const won = [...side].reduce((n, s) => n + (model.deal.tricksWon[s] || 0), 0);
      frag.append(
        h('div', { class: `score${side.includes(model.you) ? ' mine' : ''}`, 'data-score': side },
          h('span', { class: 'side', text: sideName(model, side) }),
          h('b', { class: 'points', text: String(m.totals[side] ?? 0) }),
          h('span', { class: 'tricks', title: t('table.tricksWon'), text: won === 1 ? t('table.tricksOne') : won ? t('table.tricksMany', { n: won }) : '' })),
      );
    }
    frag.append(h('div', { class: 'target', title: t('table.target') },
      h('span', { class: 'target-label', text: t('table.targetShort') }),
      h('b', { text: String(m.target) })));
    this.scores.replaceChildren(frag);
    const c = model.deal.contract;
    const parts = [h('span', { class: 'deal-no', text: t('table.deal', { n: m.deal || 1 }) })];
    // the contract: in #auction (js/auction.js) at a table, here in a replay
    if (c && model.mode === 'replay') parts.push(h('span', { class: 'contract-chip', 'data-contract': c.text }, contractLabel(model, c)));
    if (m.held_over) parts.push(h('span', { class: 'held', text: t('table.heldOver', { n: m.held_over }) }));
    parts.push(...this.badges(model));
    this.contract.replaceChildren(...parts);
  }

  /** "Spectateur" / "Revoir" for who is not playing; how many watch a lobby table. */
  badges(model) {
    const parts = [];
    if (model.mode === 'watch') parts.push(h('span', { class: 'badge role', 'data-badge': 'spectator', text: t('table.spectator') }));
    if (model.mode === 'replay') parts.push(h('span', { class: 'badge role', 'data-badge': 'replay', text: t('replay.badge') }));
    const n = model.room?.spectators || 0;
    if (n > 0) {
      const label = n === 1 ? t('table.spectatorsOne') : t('table.spectatorsMany', { n });
      parts.push(h('span', { class: 'badge watchers', 'data-spectators': n, title: label, 'aria-label': label },
        eyeIcon(), h('span', { text: String(n) })));
    }
    return parts;
  }

  // ---------------------------------------------------------------- seats

  renderSeats(model) {
    const seats = model.seats;
    const turnSeat = model.turn && model.turn.waiting === 'action' && !model.turn.played ? model.turn.seat : null;
    for (const [pos, el] of Object.entries(this.seatEls)) {
      const seat = seats.find((s) => position(s, model.viewpoint, model.players) === pos);
      el.hidden = !seat;
      if (!seat) {
        el.removeAttribute('data-seat');
        el.replaceChildren();
        continue;
      }
      if (el.dataset.seat !== seat) el.replaceChildren();
      el.dataset.seat = seat;
      el.classList.toggle('active', turnSeat === seat);
      el.classList.toggle('taker', model.deal.contract?.taker === seat);
      const info = model.seatInfo(seat);
      const isDealer = model.deal.dealer === seat;
      const name = seatName(model, seat);
      const n = model.deal.sizes[seat] || 0;
      // Each part is rebuilt only when what it shows changed (a bubble pops
      // once, when it is said).
      this.part(el, 0, 'plate', [name, info?.level, isDealer, lang()], () =>
        h('div', { class: 'plate' },
          h('span', { class: 'avatar', 'aria-hidden': 'true', text: name.slice(0, 1).toUpperCase() }),
          h('span', { class: 'who' },
            h('span', { class: 'name', text: name }),
            info?.kind === 'bot' ? h('span', { class: 'level', text: levelLabel(info.level) }) : null),
          isDealer ? h('span', { class: 'dealer-chip', 'data-dealer': seat, title: t('table.dealer'), text: t('table.dealerShort') }) : null));
      if (model.openHands) {
        // a replay: every hand face up (the bottom one is the hand below)
        const cards = model.openHands[seat] || [];
        const strain = model.deal.contract?.strain;
        this.part(el, 1, 'backs', seat === model.viewpoint ? null : [cards, strain, lang()], () =>
          h('div', { class: 'open-hand', 'data-open-hand': seat, 'data-n': cards.length },
            ...sortHand(cards, strain).map((c) => h('span', { class: `chip ${suitClass(c)}`, 'data-card': c }, cardLabel(c)))));
      } else this.part(el, 1, 'backs', seat === model.you ? null : [n, lang()], () => {
        const backs = h('div', { class: 'backs', 'data-count': seat, 'data-n': n, title: t('table.cardsLeft', { n }) });
        for (let i = 0; i < n; i++) backs.append(h('span', { class: 'back' }, cardBack()));
        backs.append(h('span', { class: 'count', text: String(n) }));
        return backs;
      });
      this.part(el, 2, 'bubble', [model.bubbles[seat] || null, model.deal.turned, lang()], () => this.bubble(model, seat));
      this.part(el, 3, 'tags', [model.deal.declarations, model.deal.belotes, lang()], () => this.tags(model, seat));
      const rs = model.roomSeat(seat);
      const presenceKey = rs && rs.kind === 'human'
        ? [rs.connected, rs.away, rs.countdowns.map((c) => [c.reason, Math.round(c.until / 1000)]), seat === model.you, lang()] : null;
      this.part(el, 4, 'presence', presenceKey, () => presence(rs, seat === model.you));
    }
  }

  /**
   * Keep the `index`-th child of `el` (of class `cls`) in step with `key`:
   * rebuilt by `build` when the key changed; a null key hides the part.
   */
  part(el, index, cls, key, build) {
    const text = JSON.stringify(key);
    let node = el.children[index];
    if (node && node.dataset.key === text) return;
    const fresh = key === null ? h('div', { class: cls, hidden: true }) : build();
    fresh.dataset.key = text;
    if (node) node.replaceWith(fresh);
    else el.append(fresh);
  }

  bubble(model, seat) {
    const b = model.bubbles[seat];
    const el = h('div', { class: 'bubble', 'aria-live': 'polite' });
    if (!b) {
      el.hidden = true;
      return el;
    }
    el.dataset.kind = b.type;
    if (b.type === 'bid') el.append(bidLabel(b.bid, model.deal.turned, true));
    else if (b.type === 'cut') el.append(b.packet ? t('say.cut', { n: b.packet }) : t('say.noCut'));
    else if (b.type === 'pattern') el.append(t('say.pattern', { pattern: b.pattern }));
    else if (b.type === 'decl') {
      b.list.forEach((d, i) => el.append(i ? ', ' : '', declLabel(d)));
    } else if (b.type === 'belote') el.append(b.word === 'belote' ? t('say.belote') : t('say.rebelote'));
    return el;
  }

  tags(model, seat) {
    const el = h('div', { class: 'tags' });
    for (const [s, list] of model.deal.declarations) {
      if (s !== seat) continue;
      for (const d of list) el.append(h('span', { class: 'tag decl', 'data-declared': d }, declLabel(d)));
    }
    for (const [s, card, word] of model.deal.belotes) {
      if (s !== seat) continue;
      el.append(h('span', { class: 'tag belote', 'data-belote-said': word },
        word === 'belote' ? t('say.belote') : t('say.rebelote'), ' ', cardLabel(card)));
    }
    return el;
  }

  // ---------------------------------------------------------------- centre

  renderTrick(model) {
    const deal = model.deal;
    const showTurned = deal.turned && !deal.turnedTaken && !deal.contract;
    const key = JSON.stringify([deal.trick, deal.trickWinner, showTurned && deal.turned, deal.notice, lang(), model.viewpoint]);
    if (key === this.trickKey) return;
    const fresh = this.trickLang !== lang();
    this.trickKey = key;
    this.trickLang = lang();
    // Cards already on the table keep their element (their landing animation
    // goes on); a new card lands from its player's side.
    const old = new Map();
    if (!fresh) for (const n of this.trick.querySelectorAll('[data-trick-seat]')) old.set(`${n.dataset.trickSeat}${n.dataset.card}`, n);
    const parts = [];
    const landed = [];
    const arriving = []; // [element, where it comes from (a rect) or null]
    for (const { seat, card } of deal.trick) {
      let el = old.get(`${seat}${card}`);
      if (!el) {
        const pos = position(seat, model.viewpoint, model.players);
        el = cardElement(card, { 'data-trick-seat': seat });
        el.classList.add('played', `from-${pos}`);
        el.addEventListener('animationend', () => {
          el.classList.remove('landing');
          if (seat === model.you) performance.mark(`rb:landed-anim:${card}`);
        }, { once: true });
        arriving.push([el, this.origin(model, seat, card, pos)]);
        if (seat === model.you) landed.push(card);
      }
      el.classList.toggle('winner', deal.trickWinner === seat);
      parts.push(el);
    }
    if (showTurned) {
      parts.push(h('div', { class: 'turned-wrap' },
        h('div', { class: 'deck' }, cardBack()),
        cardElement(deal.turned, { 'data-turned': deal.turned, class: `card face turned ${suitClass(deal.turned)}` }),
        h('span', { class: 'turned-label', text: t('table.turned') })));
    }
    if (deal.notice && !deal.trick.length) {
      const text = deal.notice.kind === 'all_passed'
        ? t(ALL_PASSED_KEYS[deal.notice.then] || 'notice.allPassed')
        : t('notice.cancelled', { name: seatName(model, deal.notice.seat) });
      parts.push(h('div', { class: 'notice', text }));
    }
    // Reconcile without moving the cards that stay (moving one would restart
    // its animation).
    const keep = new Set(parts);
    for (const child of [...this.trick.children]) if (!keep.has(child)) child.remove();
    parts.forEach((el, i) => {
      if (this.trick.children[i] !== el) this.trick.insertBefore(el, this.trick.children[i] || null);
    });
    // Each new card moves from where it was (the card of our hand, the
    // other player's cards) to its place: the CSS animation `land` starts
    // at --dx --dy (scaled --s0); none under prefers-reduced-motion.
    for (const [el, from] of arriving) {
      if (from) {
        const to = el.getBoundingClientRect();
        el.style.setProperty('--dx', `${Math.round(from.left + from.width / 2 - (to.left + to.width / 2))}px`);
        el.style.setProperty('--dy', `${Math.round(from.top + from.height / 2 - (to.top + to.height / 2))}px`);
        if (to.width) el.style.setProperty('--s0', String(Math.min(1.6, Math.max(0.3, from.width / to.width)).toFixed(2)));
      }
      el.classList.add('landing');
    }
    for (const card of landed) performance.mark(`rb:landed:${card}`);
  }

  /** Where a card played by `seat` comes from on the screen: our hand's
   * card, or the seat's cards (backs, open hand, plate); null when it is
   * not drawn (the animation then starts from the seat's side). */
  origin(model, seat, card, pos) {
    const own = this.handCards.get(card);
    const el = own?.isConnected ? own
      : pos === 'bottom' ? this.hand
        : this.seatEls[pos]?.querySelector('.backs:not([hidden]), .open-hand, .plate');
    const rect = el?.getBoundingClientRect();
    return rect && rect.width ? rect : null;
  }

  renderStatus(model) {
    const turn = model.turn;
    let text = '';
    let mine = false;
    const refused = this.ui.refused;
    // the clicked card's reason, while this turn still gives it that reason
    const now = refused && !model.pending ? turn?.why.get(refused.card) : null;
    const why = now && sameReason(now, refused.why) ? now : null;
    if (!why) this.ui.refused = null;
    if (why) text = reasonText(why);
    else if (model.mode === 'replay') text = model.replayStatus || '';
    else if (model.lobby && model.room?.status === 'closed' && model.match?.winner) text = t('end.closed');
    else if (!model.match) text = model.table?.status === 'open' || !model.table?.status ? t('status.notStarted') : '';
    else if (turn?.played) {
      // the seat to act has acted; the next turn is not drawn yet (a
      // finished trick stays on the table a moment): the trick's winner
      const deal = model.deal;
      if (deal.trickDone && deal.trickWinner) text = t('status.trickWon', { name: seatName(model, deal.trickWinner) });
      // never blank: who has just acted, until the next turn comes
      else if (turn.seat) {
        const you = turn.seat === model.you;
        const key = turn.phase === 'bidding' ? (you ? 'status.hasBidYou' : 'status.hasBid') : (you ? 'status.hasPlayedYou' : 'status.hasPlayed');
        text = t(key, { name: seatName(model, turn.seat) });
      }
    } else if (model.deal?.trickDone && model.deal.trickWinner && model.turn?.phase === 'playing') {
      // a finished trick still on the table: it is what the status describes
      text = t('status.trickWon', { name: seatName(model, model.deal.trickWinner) });
    } else if (turn) {
      const agreed = turn.agreed.includes(model.you) && turn.waiting !== 'action';
      if (agreed) text = t('status.waitingOthers');
      else if (setOver(model)) text = t('status.setOver');
      else if (turn.waiting === 'next') text = t('status.dealOver');
      else if (turn.waiting === 'rematch') text = t('status.matchOver');
      else if (turn.phase === 'cut' && turn.seat && !(turn.seat === model.you && turn.legal.length && !turn.auto)) {
        text = turn.seat === model.you ? t('status.cuttingYou') : t('status.cutting', { name: seatName(model, turn.seat) });
      }
      else if (turn.seat === model.you && turn.auto) text = t('status.auto');
      else if (turn.seat === model.you && turn.legal.length) {
        mine = true;
        const phase = turn.phase;
        if (phase === 'cut') text = t('prompt.cut');
        else if (phase === 'pattern') text = t('prompt.pattern');
        else if (phase === 'bidding') text = t('prompt.bid');
        else if (turn.legal.some((a) => a.startsWith('declare'))) text = t('prompt.declare');
        else text = t('prompt.play');
      } else if (turn.seat) text = t('status.thinking', { name: seatName(model, turn.seat) });
    }
    this.status.textContent = text;
    this.status.classList.toggle('mine', mine);
    if (why) this.status.dataset.reason = why.reason;
    else delete this.status.dataset.reason;
  }

  // --------------------------------------------------------------- actions

  renderActions(model) {
    const turn = model.turn;
    const key = JSON.stringify([
      turn, model.pending, this.ui.beloteAsk, this.ui.coincheValue, lang(), model.deal.turned,
      model.table?.status, model.lobby,
    ]);
    if (key === this.actionsKey) return;
    this.actionsKey = key;
    const keepFocus = this.actions.contains(document.activeElement) ? focusSelector(document.activeElement) : null;
    const parts = [];
    const closed = model.lobby && model.table?.status === 'closed'; // no rematch: someone left
    if (!closed && turn && turn.legal.length && !turn.auto && !turn.played && (turn.seat === model.you || turn.waiting !== 'action')) {
      const legal = turn.legal;
      if (turn.waiting === 'next') {
        parts.push(this.button('next', t('action.next'), { 'data-action': 'next', class: 'primary' }));
        parts.push(h('button', { type: 'button', class: 'btn', 'data-action': 'summary', text: t('action.showSummary') }));
      } else if (turn.waiting === 'rematch') {
        parts.push(this.button('rematch', t('action.rematch'), { 'data-action': 'rematch', class: 'primary' }));
        if (model.lobby) parts.push(h('button', { type: 'button', class: 'btn', 'data-action': 'leave-table', text: t('action.noRematch') }));
        else parts.push(h('button', { type: 'button', class: 'btn', 'data-action': 'new-match', text: t('action.newMatch') }));
      } else if (this.ui.beloteAsk && turn.belote_choice.includes(this.ui.beloteAsk)) {
        parts.push(...this.beloteControls(model));
      } else {
        const cards = legal.filter(isCard);
        const others = legal.filter((a) => !isCard(a));
        parts.push(...this.controls(model, others));
        if (!cards.length && !others.length) parts.push(h('span', { text: '' }));
      }
    }
    if (setOver(model)) {
      // the daily deal's set is over: its results page (docs/daily.md)
      parts.push(h('a', { class: 'btn primary', href: '/daily.html', 'data-action': 'daily-results', text: t('action.dailyResults') }));
    }
    this.actions.replaceChildren(...parts);
    this.actions.classList.toggle('empty', parts.length === 0);
    for (const b of this.actions.querySelectorAll('button[data-act]')) {
      if (model.pending) b.disabled = true;
    }
    if (keepFocus) {
      const again = this.actions.querySelector(keepFocus);
      if (again && !again.disabled) again.focus();
    }
  }

  /** A button that sends `action` (one of turn.legal) when pressed. */
  button(action, label, attrs = {}) {
    const cls = `btn${attrs.class ? ` ${attrs.class}` : ''}`;
    const b = h('button', { type: 'button', ...attrs, class: cls, 'data-act': action });
    b.append(label);
    b.addEventListener('click', () => this.handlers.act(action));
    return b;
  }

  controls(model, legal) {
    const parts = [];
    const cuts = legal.filter((a) => /^cut \d+$/.test(a)).map((a) => Number(a.slice(4)));
    const patterns = legal.filter((a) => a.startsWith('deal '));
    const declares = legal.filter((a) => a.startsWith('declare '));
    const contracts = legal.filter((a) => /^(capot|\d+)(TA|SA|[SHDC])$/.test(a));
    const used = new Set();
    if (cuts.length) {
      const packets = cuts.filter((n) => n > 0);
      if (packets.length) {
        const lo = Math.min(...packets);
        const hi = Math.max(...packets);
        let value = this.ui.cutValue;
        if (!packets.includes(value)) value = packets[Math.floor(packets.length / 2)];
        const out = h('output', { class: 'cut-value', text: String(value) });
        const range = h('input', {
          type: 'range', min: lo, max: hi, step: 1, value, 'data-cut': '',
          'aria-label': t('action.cutHow'),
        });
        const cutBtn = h('button', { type: 'button', class: 'btn primary', 'data-action': 'cut', 'data-act': `cut ${value}` }, t('action.cut'));
        range.addEventListener('input', () => {
          const v = Number(range.value);
          this.ui.cutValue = v;
          out.textContent = String(v);
          cutBtn.dataset.act = `cut ${v}`;
        });
        cutBtn.addEventListener('click', () => {
          const text = `cut ${Number(range.value)}`;
          if (legal.includes(text)) this.handlers.act(text);
        });
        parts.push(h('label', { class: 'cut-control' }, h('span', { text: t('action.cutHow') }), range, out), cutBtn);
      }
      if (cuts.includes(0)) parts.push(this.button('cut 0', t('action.noCut'), { 'data-action': 'no-cut' }));
      cuts.forEach((n) => used.add(`cut ${n}`));
    }
    for (const p of patterns) {
      parts.push(this.button(p, t('action.pattern', { pattern: p.slice(5) }), { 'data-pattern': p.slice(5) }));
      used.add(p);
    }
    if (model.turn.phase === 'bidding') {
      if (contracts.length) parts.push(...this.auctionControls(model, contracts));
      contracts.forEach((c) => used.add(c));
      for (const b of ['take', 'S', 'H', 'D', 'C', 'SA', 'TA', 'coinche', 'surcoinche', 'pass']) {
        if (!legal.includes(b)) continue;
        const cls = b === 'pass' ? 'pass' : b === 'take' ? 'primary' : '';
        parts.push(this.button(b, bidLabel(b, model.deal.turned), { 'data-bid': b, class: cls }));
        used.add(b);
      }
    }
    for (const d of declares) {
      const list = d.slice(8).split(' ');
      const label = d === 'declare none'
        ? t('action.declareNone')
        : h('span', {}, t('action.declare'), ' ', ...list.flatMap((x, i) => (i ? [', ', declLabel(x)] : [declLabel(x)])));
      parts.push(this.button(d, label, { 'data-declare': d.slice(8), class: d === 'declare none' ? 'pass' : 'primary' }));
      used.add(d);
    }
    // Anything else the server allows gets a plain button with its text.
    for (const a of legal) if (!used.has(a)) parts.push(this.button(a, a));
    return parts;
  }

  /** Coinche: choose a value, then a suit (each button an exact legal bid). */
  auctionControls(model, contracts) {
    const values = [...new Set(contracts.map((c) => /^(capot|\d+)/.exec(c)[1]))];
    values.sort((a, b) => (a === 'capot' ? 999 : Number(a)) - (b === 'capot' ? 999 : Number(b)));
    let value = this.ui.coincheValue;
    if (!values.includes(value)) value = values[0];
    const i = values.indexOf(value);
    const step = (d) => () => {
      this.ui.coincheValue = values[Math.max(0, Math.min(values.length - 1, i + d))];
      this.actionsKey = null;
      this.renderActions(model);
      this.actions.querySelector(d < 0 ? '[data-step="down"]' : '[data-step="up"]')?.focus();
    };
    const stepper = h('div', { class: 'stepper', role: 'group', 'aria-label': t('action.contractValue') },
      h('button', { type: 'button', class: 'btn step', 'data-step': 'down', disabled: i === 0, 'aria-label': t('action.lower'), text: '−', onclick: step(-1) }),
      h('output', { class: 'value', 'data-value': value, text: value === 'capot' ? t('bid.capot') : value }),
      h('button', { type: 'button', class: 'btn step', 'data-step': 'up', disabled: i === values.length - 1, 'aria-label': t('action.higher'), text: '+', onclick: step(1) }));
    const parts = [stepper];
    for (const strain of ['S', 'H', 'D', 'C', 'SA', 'TA']) {
      const bid = `${value}${strain}`;
      if (!contracts.includes(bid)) continue;
      parts.push(this.button(bid, strainLabel(strain, false), { 'data-bid': bid, class: 'suit-bid', 'aria-label': `${value} ${strain in SUIT_KEYS ? t(SUIT_KEYS[strain]) : strain}` }));
    }
    return parts;
  }

  beloteControls(model) {
    const card = this.ui.beloteAsk;
    const said = model.deal.belotes.some(([s]) => s === model.you);
    const ask = said ? t('belote.askRebelote') : t('belote.ask');
    // the core's one notation of the choice (docs/protocol.md): sent as it is
    const sayIt = `${card} belote`;
    const keepQuiet = `${card} no-belote`;
    const yes = h('button', { type: 'button', class: 'btn primary', 'data-belote': 'yes', 'data-act': sayIt }, said ? t('belote.yesRebelote') : t('belote.yes'));
    const no = h('button', { type: 'button', class: 'btn', 'data-belote': 'no', 'data-act': keepQuiet }, t('belote.no'));
    const cancel = h('button', { type: 'button', class: 'btn pass', 'data-belote': 'cancel', text: t('belote.cancel') });
    yes.addEventListener('click', () => this.handlers.act(sayIt));
    no.addEventListener('click', () => this.handlers.act(keepQuiet));
    cancel.addEventListener('click', () => this.handlers.cancelBelote());
    return [h('span', { class: 'ask' }, ask, ' ', cardLabel(card)), yes, no, cancel];
  }

  // ------------------------------------------------------------------ hand

  renderHand(model) {
    const turn = model.turn;
    const canPlay = !!turn && turn.seat === model.you && turn.waiting === 'action' && !turn.auto && !turn.played && !model.pending;
    const legal = new Set(canPlay ? turn.legal.filter(isCard) : []);
    const playing = canPlay && legal.size > 0;
    const sorted = sortHand(model.deal.hand, model.deal.contract?.strain, getSetting('cardOrder'));
    if (this.handLang !== lang()) {
      this.handCards.clear();
      this.hand.replaceChildren();
      this.handLang = lang();
    }
    for (const [card, el] of this.handCards) {
      if (!sorted.includes(card)) {
        el.remove();
        this.handCards.delete(card);
      }
    }
    sorted.forEach((card, i) => {
      let el = this.handCards.get(card);
      if (!el) {
        el = h('button', { type: 'button', class: `card face ${suitClass(card)}`, 'data-card': card, 'aria-label': cardName(card) });
        el.append(cardFace(card, rankMap()));
        el.addEventListener('click', () => this.handlers.card(card));
        this.handCards.set(card, el);
      }
      const ok = legal.has(card);
      el.disabled = !ok;
      el.classList.toggle('legal', ok);
      el.classList.toggle('illegal', playing && !ok);
      el.classList.toggle('asking', this.ui.beloteAsk === card);
      el.setAttribute('aria-disabled', ok ? 'false' : 'true');
      // a turn played (our card on its way or on the table) gives no reason:
      // its reasons are no longer true (REVIEW15b)
      const spent = !turn || model.pending || (turn.played && turn.seat === model.you);
      this.describeReason(el, card, ok || spent ? null : turn.why.get(card) || null);
      if (this.hand.children[i] !== el) this.hand.insertBefore(el, this.hand.children[i] || null);
    });
    this.hand.classList.toggle('playing', playing);
    this.hand.dataset.count = String(sorted.length);
    this.hand.style.setProperty('--n', String(Math.max(sorted.length, 1)));
  }

  /** A greyed card's reason, as the server sent it (`why`: {reason,
   * option, source, suit}, or null): `data-reason` (the code), and in words as the
   * card's accessible description (a visually hidden element inside it,
   * `aria-describedby`) and its tooltip (`title`). */
  describeReason(el, card, why) {
    let note = el.querySelector(':scope > .why');
    if (!why) {
      delete el.dataset.reason;
      el.removeAttribute('aria-describedby');
      el.removeAttribute('title');
      note?.remove();
      return;
    }
    const text = reasonText(why);
    if (!note) {
      note = h('span', { class: 'why visually-hidden', id: `hand-why-${card}` });
      el.append(note);
    }
    if (note.textContent !== text) note.textContent = text;
    el.dataset.reason = why.reason;
    el.setAttribute('aria-describedby', note.id);
    el.title = text;
  }
}

/** Whether two of the server's reasons say the same (the same words). */
function sameReason(a, b) {
  return a.reason === b.reason && a.option === b.option && a.suit === b.suit && a.house_rule === b.house_rule;
}

/** The card of the hand's greyed (disabled) button under `target`, if it
 * has a reason to show. */
function greyedCard(target) {
  const button = target instanceof Element ? target.closest('#hand button.card') : null;
  return button && button.disabled && button.dataset.reason ? button.dataset.card : null;
}

export { h, suitClass, RANK_KEYS };
