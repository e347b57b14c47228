// Words and small pieces of DOM for what the table shows: seats, suits,
// bids, declarations, contracts, results.  Every label key is written in full
// here (see i18n.js).

import { t } from './i18n.js';
import { parseCard, suitIcon } from './cards.js';

export const SEAT_KEYS = { N: 'seat.N', W: 'seat.W', S: 'seat.S', E: 'seat.E' };
export const SUIT_KEYS = { S: 'suit.S', H: 'suit.H', D: 'suit.D', C: 'suit.C' };
export const RANK_KEYS = {
  7: 'rank.7', 8: 'rank.8', 9: 'rank.9', 10: 'rank.10',
  J: 'rank.J', Q: 'rank.Q', K: 'rank.K', A: 'rank.A',
};
export const LEVEL_KEYS = {
  random: 'level.random', beginner: 'level.beginner', intermediate: 'level.intermediate',
  expert: 'level.expert',
};
export const SPEED_KEYS = {
  slow: 'speed.slow', normal: 'speed.normal', fast: 'speed.fast', instant: 'speed.instant',
};
export const RESULT_KEYS = {
  made: 'result.made', capot: 'result.capot', dedans: 'result.dedans', litige: 'result.litige',
  passed: 'result.passed', cancelled: 'result.cancelled',
};
const DECL_KEYS = { tierce: 'decl.tierce', quarte: 'decl.quarte', quinte: 'decl.quinte' };
const CARRE_KEYS = {
  7: 'decl.carre.7', 8: 'decl.carre.8', 9: 'decl.carre.9', 10: 'decl.carre.10',
  J: 'decl.carre.J', Q: 'decl.carre.Q', K: 'decl.carre.K', A: 'decl.carre.A',
};
// The presets' names and descriptions in the page's language, by the name
// a player understands that the server gives each preset (`title` of
// /api/presets and of a table's rules: rebelote.rules.preset_name); older
// data, which names a preset by its key alone (`seed001`), finds the same.
const PRESET_KEYS = {
  ffb: 'preset.ffb',
  'ffb-no-declarations': 'preset.ffb-no-declarations',
  'declaration-turn': 'preset.declaration-turn',
  'tout-atout': 'preset.tout-atout',
  'belote-said': 'preset.belote-said',
  'dealer-leads-501': 'preset.dealer-leads-501',
  'auto-declarations-501': 'preset.auto-declarations-501',
  coinche: 'preset.coinche',
  'three-players': 'preset.three-players',
  'two-players': 'preset.two-players',
  'ffb-coinche': 'preset.ffb-coinche',
};
const PRESET_DESC_KEYS = {
  ffb: 'presetdesc.ffb',
  'ffb-no-declarations': 'presetdesc.ffb-no-declarations',
  'declaration-turn': 'presetdesc.declaration-turn',
  'tout-atout': 'presetdesc.tout-atout',
  'belote-said': 'presetdesc.belote-said',
  'dealer-leads-501': 'presetdesc.dealer-leads-501',
  'auto-declarations-501': 'presetdesc.auto-declarations-501',
  coinche: 'presetdesc.coinche',
  'three-players': 'presetdesc.three-players',
  'two-players': 'presetdesc.two-players',
  'ffb-coinche': 'presetdesc.ffb-coinche',
};
const PRESET_TITLES = {
  seed000: 'declaration-turn',
  'seed000-tout-atout': 'tout-atout',
  seed001: 'belote-said',
  seed002: 'dealer-leads-501',
  seed003: 'auto-declarations-501',
};

/** The player's name of a preset given as the server gives it: a preset of
 * /api/presets ({name, title}), a table's rules ({preset, title}), or a
 * name alone. */
function presetTitle(p) {
  if (typeof p === 'string') return PRESET_TITLES[p] || p;
  if (!p) return '';
  return p.title || PRESET_TITLES[p.name || p.preset] || p.name || p.preset || '';
}

/** The rank as printed on the cards and in labels (V D R in French). */
export function rankMap() {
  return { J: t('rank.J'), Q: t('rank.Q'), K: t('rank.K'), A: t('rank.A') };
}

/** The name of a preset in the page's language (the server's `title`
 * itself for a preset the page does not know), and its one-line
 * description (the server's, if unknown); `p` as presetTitle takes it. */
export function presetName(p) {
  const title = presetTitle(p);
  return PRESET_KEYS[title] ? t(PRESET_KEYS[title]) : title;
}

/** A preset's name for a match played to `target` (its table's own, which
 * may differ from the preset's): "Le donneur entame, en 100" for seed002
 * played to 100; the name alone when `target` is null. */
export function presetNameTo(p, target) {
  const name = presetName(p);
  if (target === undefined || target === null) return name;
  if (/\d+$/.test(name)) return name.replace(/\d+$/, String(target));
  return t('preset.withTarget', { name, n: target });
}

export function presetDescription(p, fallback, target) {
  const title = presetTitle(p);
  const text = PRESET_DESC_KEYS[title] ? t(PRESET_DESC_KEYS[title]) : fallback || '';
  // A table's own target replaces the preset's ("1000 points." at a table to 200).
  if (target === undefined || target === null) return text;
  return text.replace(/\d+ points?\./, `${target} ${target === 1 ? 'point' : 'points'}.`);
}

// The server's default names of computer players (room.BOT_NAMES and the
// solo tables' seats): a computer so named has no name of its own, and is
// called by its seat in the page's language.
const DEFAULT_NAMES = { N: 'North', W: 'West', S: 'South', E: 'East' };
// The English marker the server put on a permanent stand-in's name
// ("Bobby (computer)") before seats carried `left`; the page says it in its
// own language.
const COMPUTER_SUFFIX = ' (computer)';

/** A player's name as a page shows it, from a seat of a room or of the
 * snapshot's `table.seats` ({seat, kind, name, guest, level, outside_bot}):
 * a guest's name marked "(invité)", a computer's "(ordinateur)" (its seat's
 * name when it has no name of its own, e.g. "Ouest (ordinateur)"), an
 * outside program's (the bot API: `outside_bot`) "(bot externe)". */
export function playerLabel(info) {
  if (!info || info.kind === 'open') return info ? t(SEAT_KEYS[info.seat]) : '';
  if (info.kind === 'bot') return t('name.computer', { name: botName(info) || t(SEAT_KEYS[info.seat]) });
  if (info.outside_bot) return t('botapi.name', { name: info.name });
  return info.guest ? t('name.guest', { name: info.name }) : info.name;
}

/** A lobby table's name as the pages show it: its own name, else worded
 * from its host's ("Table de Ada", "Ada's table"; the server stores an
 * empty name when the creator gave none). `room`: a RoomData ({name, host,
 * seats}). */
export function tableName(room) {
  if (!room) return '';
  if (room.name) return room.name;
  const host = (room.seats || []).find((s) => s.seat === room.host && s.kind === 'human');
  return host?.name ? t('lobby.defaultName', { name: host.name }) : t('lobby.unnamed');
}

/** A computer player's own name ("Bobby" for the one playing for good for
 * Bobby who left: `left`, or a name "Bobby (computer)" from a server that
 * did not send `left`), or null when it has none (the default seat name). */
export function botName(info) {
  let name = info.name || '';
  if (name.endsWith(COMPUTER_SUFFIX)) name = name.slice(0, -COMPUTER_SUFFIX.length);
  if (info.left) return name || null;
  return !name || name === DEFAULT_NAMES[info.seat] ? null : name;
}

/** A seat's display name: the player's own name, or "Nord" for a computer
 * at a solo table; at a lobby table (`model.lobby`: the table has a room),
 * the players' names (playerLabel). */
export function seatName(model, seat) {
  const info = model.seatInfo(seat);
  if (seat === model.you) return info?.name && info.name !== 'You' ? info.name : t('seat.you');
  if (model.lobby && info && info.kind !== 'open') return playerLabel(info);
  return t(SEAT_KEYS[seat]);
}

/** A side's name: "Nous" / "Eux" with four players, the seat with three;
 * for a spectator or a replay (no seat of ours), its seats ("Nord–Sud"). */
export function sideName(model, side) {
  if (side.length === 1) return side === model.you ? t('side.you') : t(SEAT_KEYS[side]);
  if (!model.you) return [...side].map((s) => t(SEAT_KEYS[s])).join('–');
  return side.includes(model.you) ? t('side.us') : t('side.them');
}

function span(cls, text) {
  const s = document.createElement('span');
  if (cls) s.className = cls;
  if (text !== undefined) s.textContent = text;
  return s;
}

/** A card as text with its suit icon: "R" + heart. */
export function cardLabel(card) {
  const [rank, suit] = parseCard(card);
  const s = span('card-label');
  s.append(span('', t(RANK_KEYS[rank])), suitIcon(suit));
  return s;
}

/** A strain: a suit icon and its name, or Tout Atout / Sans Atout. */
export function strainLabel(strain, withName = true) {
  const s = span('strain');
  if (strain === 'TA') s.append(t('bid.TA'));
  else if (strain === 'SA') s.append(t('bid.SA'));
  else {
    s.append(suitIcon(strain));
    if (withName) s.append(span('', t(SUIT_KEYS[strain])));
  }
  return s;
}

/** A bid in words: pass, take (with the turned suit), a suit, 80 + suit...;
 * `said`: as said by a player ("Prend"), not as a button ("Je prends"). */
export function bidLabel(bid, turned, said = false) {
  const s = span('bid-label');
  const m = /^(capot|\d+)(TA|SA|[SHDC])$/.exec(bid);
  if (bid === 'pass') s.append(t('bid.pass'));
  else if (bid === 'take') {
    s.append(said ? t('say.take') : t('bid.take'));
    if (turned) s.append(' ', suitIcon(parseCard(turned)[1]));
  } else if (bid === 'coinche') s.append(t('bid.coinche'));
  else if (bid === 'surcoinche') s.append(t('bid.surcoinche'));
  else if (bid === 'TA' || bid === 'SA' || SUIT_KEYS[bid]) s.append(strainLabel(bid));
  else if (m) {
    s.append(m[1] === 'capot' ? t('bid.capot') : m[1], ' ', strainLabel(m[2], false));
  } else s.append(bid);
  return s;
}

/** One declaration ("tierce-KH", "carre-J") in words. */
export function declLabel(text) {
  const [kind, detail] = text.split('-');
  const s = span('decl-label');
  if (kind === 'carre' && !detail) {
    s.append(t('decl.carre'));
  } else if (kind === 'carre') {
    s.append(CARRE_KEYS[detail] ? t(CARRE_KEYS[detail]) : text);
  } else if (DECL_KEYS[kind] && !detail) {
    s.append(t(DECL_KEYS[kind]));
  } else if (DECL_KEYS[kind]) {
    s.append(t(DECL_KEYS[kind]), ' ', cardLabel(detail));
  } else s.append(text);
  return s;
}

/** Any action text of `turn.legal` in words, as a button says it: a bid, a
 * set of declarations, a cut, a dealing pattern, next deal, rematch, a card;
 * a text it does not know stays as it is.  `turned`: the turned card (take). */
export function actionLabel(action, turned) {
  if (action === 'next') return span('', t('action.next'));
  if (action === 'rematch') return span('', t('action.rematch'));
  if (action === 'declare none') return span('', t('action.declareNone'));
  if (action.startsWith('declare ')) {
    const s = span('decl-label');
    s.append(t('action.declare'), ' ');
    action.slice(8).split(' ').forEach((d, i) => s.append(i ? ', ' : '', declLabel(d)));
    return s;
  }
  const cut = /^cut (\d+)$/.exec(action);
  if (cut) return span('', cut[1] === '0' ? t('action.noCut') : `${t('action.cut')} ${cut[1]}`);
  const pattern = /^deal (\S+)$/.exec(action);
  if (pattern) return span('', t('action.pattern', { pattern: pattern[1] }));
  if (/^(10|[789JQKA])[SHDC]$/.test(action)) return cardLabel(action);
  return bidLabel(action, turned);
}

/** A contract: strain, value, taker and coinche. */
export function contractLabel(model, contract) {
  const s = span('contract-label');
  if (!contract) return s;
  if (contract.strain === null) {
    s.append(contract.text);
    return s;
  }
  if (contract.value !== null) {
    s.append(contract.value === 250 ? t('bid.capot') : String(contract.value), ' ');
    s.append(strainLabel(contract.strain, false));
  } else s.append(strainLabel(contract.strain, true));
  s.append(' ', span('taker', t('contract.by', { name: seatName(model, contract.taker) })));
  if (contract.multiplier === 2) s.append(' ', span('mult', t('bid.coinche')));
  if (contract.multiplier === 4) s.append(' ', span('mult', t('bid.surcoinche')));
  return s;
}

export function resultLabel(result) {
  return RESULT_KEYS[result] ? t(RESULT_KEYS[result]) : result || '';
}

export function levelLabel(level) {
  return LEVEL_KEYS[level] ? t(LEVEL_KEYS[level]) : level || '';
}

// Why a card or an action is not legal now: the reason codes of the rules
// core (rebelote.legality.IllegalReason), as the server sends them in
// `turn.illegal` and in an `error`'s `why` (docs/protocol.md).
const REASON_KEYS = {
  no_such_action: 'reason.no_such_action',
  deal_over: 'reason.deal_over',
  not_your_turn: 'reason.not_your_turn',
  wrong_phase: 'reason.wrong_phase',
  cut_required: 'reason.cut_required',
  cut_out_of_range: 'reason.cut_out_of_range',
  bid_not_in_auction: 'reason.bid_not_in_auction',
  take_only_in_round_one: 'reason.take_only_in_round_one',
  suit_only_in_round_two: 'reason.suit_only_in_round_two',
  turned_suit_in_round_two: 'reason.turned_suit_in_round_two',
  bid_too_low: 'reason.bid_too_low',
  capot_is_highest: 'reason.capot_is_highest',
  strain_not_allowed: 'reason.strain_not_allowed',
  bid_after_coinche: 'reason.bid_after_coinche',
  coinche_not_allowed: 'reason.coinche_not_allowed',
  no_contract_to_coinche: 'reason.no_contract_to_coinche',
  coinche_own_side_contract: 'reason.coinche_own_side_contract',
  surcoinche_not_allowed: 'reason.surcoinche_not_allowed',
  declarations_off: 'reason.declarations_off',
  declarations_automatic: 'reason.declarations_automatic',
  declaration_not_held: 'reason.declaration_not_held',
  declare_first: 'reason.declare_first',
  not_in_hand: 'reason.not_in_hand',
  must_follow_suit: 'reason.must_follow_suit',
  must_go_higher: 'reason.must_go_higher',
  must_trump: 'reason.must_trump',
  must_overtrump: 'reason.must_overtrump',
  may_not_undertrump: 'reason.may_not_undertrump',
  may_not_undertrump_partner: 'reason.may_not_undertrump_partner',
  must_undertrump: 'reason.must_undertrump',
  belote_not_held: 'reason.belote_not_held',
  belote_automatic: 'reason.belote_automatic',
  belote_decided: 'reason.belote_decided',
  belote_choice_needed: 'reason.belote_choice_needed',
};
// The rule options that make a card illegal while the partner wins the
// trick: said after the reason ("though your partner is winning"), with
// "this table's rule" only where the server says the option's value is the
// table's own (`house_rule`: not the FFB's).
const PARTNER_OPTIONS = new Set(['partner_winning_exemption', 'overtrump_partner_on_trump_lead']);

// The reasons that may name a suit (the server's `suit`): their words with
// it ({suit}), and without it (take_only_in_round_one: where the turned
// suit may be named in round two; the others: a server that names none).
const SUIT_REASON_KEYS = {
  must_follow_suit: ['reason.must_follow_suit', 'reason.followLed'],
  take_only_in_round_one: ['reason.takeOtherSuit', 'reason.take_only_in_round_one'],
  turned_suit_in_round_two: ['reason.turnedSuitOut', 'reason.turned_suit_in_round_two'],
};

/**
 * Why an action is not legal, in words, from the server's `{reason, option,
 * source, suit, house_rule}` (`turn.illegal`, an error's `why`) alone: the suit a
 * reason is about comes with it (`suit`: "You must follow suit in hearts"),
 * never from what the table shows.  Plain text.
 */
export function reasonText(why) {
  const key = why && Object.hasOwn(REASON_KEYS, why.reason) ? REASON_KEYS[why.reason] : null;
  if (!key) return t('reason.unknown');
  const suit = why.suit && SUIT_KEYS[why.suit] ? t(SUIT_KEYS[why.suit]) : null;
  const keys = SUIT_REASON_KEYS[why.reason];
  const text = keys ? (suit ? t(keys[0], { suit }) : t(keys[1])) : t(key);
  if (!PARTNER_OPTIONS.has(why.option)) return text;
  return why.house_rule ? t('reason.partnerRule', { text }) : t('reason.partner', { text });
}

/** The seats of a match's players in the order the server lists them
 * (N W S E, or W S E, or W S). */
const SEAT_ORDERS = { 4: ['N', 'W', 'S', 'E'], 3: ['W', 'S', 'E'], 2: ['W', 'S'] };

/** The names of a finished match's players (by seat, as a profile's last
 * games give them) as the page shows them: a computer with its seat's
 * default name ("North") called "Nord (ordinateur)" in French. */
export function matchPlayerNames(names) {
  const seats = SEAT_ORDERS[names.length] || [];
  return names.map((name, i) => {
    const seat = seats[i];
    if (seat && name === DEFAULT_NAMES[seat]) return t('name.computer', { name: t(SEAT_KEYS[seat]) });
    return name;
  });
}
