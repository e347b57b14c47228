// A deal's result, explained: one sentence and one table that say how the
// score adds up, line by line.  Every figure is the server's: the deal
// summary (`deal_end.summary`, docs/protocol.md) and its `breakdown`, which
// the rules core computes (rebelote.scoring.explain_deal): the points each
// side made (cards, dix de der, capot, declarations, belote), the contract's
// verdict and why (bid not reached, defence higher, tie), and what each
// side scores (the coinche contract times its multiplier, its points, the
// defenders' points of a dedans, declarations, belote, the coinche's
// multiplier of a whole deal, the Sans Atout / Tout Atout multiplier, the
// rounding).  Nothing here computes a score.
//
// Hooks: p.summary-sentence[data-verdict], table.summary[data-summary]
// with tr[data-line] (cards, dix_de_der, to_162, capot, declarations,
// belote, made, contract, released, added, total) and tr[data-scored]
// (contract, deal, points, defence, declarations, defence_declarations,
// taker_declarations, belote, taker_belote, coinche_multiplier,
// strain_multiplier, rounding), td[data-side].

import { t } from './i18n.js';
import { parseContract } from './model.js';
import { contractLabel, declLabel, resultLabel, sideName } from './labels.js';
import { h } from './dom.js';


const MADE_KEYS = {
  cards: 'end.cardPoints', dix_de_der: 'end.dixDeDer', to_162: 'score.line.to_162', capot: 'end.capot',
  declarations: 'end.declarations', belote: 'end.belote',
};
const SCORED_KEYS = {
  deal: 'score.line.deal', points: 'score.line.points', defence: 'score.line.defence',
  declarations: 'score.line.declarations', defence_declarations: 'score.line.defence_declarations',
  taker_declarations: 'score.line.taker_declarations', belote: 'end.belote', taker_belote: 'score.line.taker_belote',
  rounding: 'score.line.rounding',
};
/** Lines whose points may be taken away: written with their sign. */
const SIGNED = new Set(['to_162', 'rounding']);
const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '');
const VERDICT_KEYS = {
  made: 'score.verdict.made', bid_not_reached: 'score.verdict.bid_not_reached',
  capot_not_made: 'score.verdict.capot_not_made', defence_higher: 'score.verdict.defence_higher',
  tie: 'score.verdict.tie',
};
const SENTENCE_KEYS = {
  made: 'score.sentence.made', bid_not_reached: 'score.sentence.bid_not_reached',
  capot_not_made: 'score.sentence.capot_not_made', defence_higher: 'score.sentence.defence_higher',
  tie: 'score.sentence.tie',
};

/** The contract of a deal summary as the model reads it ("80H by E coinche"). */
export function summaryContract(s) {
  if (!s.taker) return null;
  const head = s.contract || s.trump;
  const mult = { 2: ' coinche', 4: ' surcoinche' }[s.multiplier] || '';
  return parseContract(`${head} by ${s.taker}${mult}`);
}

/** Whether `s` is the deal that ended the match with litige points held
 * over, which nobody scores then (the server's `match_end.unclaimed`). */
function unclaimed(model, s) {
  return !!model.match?.winner && (model.match.unclaimed || 0) > 0 && s === model.summary && s.held_over > 0;
}

/** The deal's sentence: its verdict and why, in words (plain text). */
export function sentence(model, s) {
  const b = s.breakdown;
  // the contract's worth: times its multiplier, unless that multiplies the whole deal
  const wholeDeal = (b.coinche_multiplier || 1) > 1;
  const params = {
    taker: sideName(model, b.taker), tp: b.taker_points, dp: b.defence_points, value: b.contract_value,
    contract: (b.contract_value || 0) * (wholeDeal ? 1 : b.multiplier), held: b.held_over,
  };
  let key = SENTENCE_KEYS[b.verdict] || SENTENCE_KEYS.made;
  if (b.verdict === 'made' && b.contract_value !== null) {
    key = b.result === 'capot' ? 'score.sentence.capotContract' : 'score.sentence.madeContract';
  }
  else if (b.verdict === 'made' && b.result === 'capot') key = 'score.sentence.capot';
  else if (b.verdict === 'tie' && b.result === 'litige') key = unclaimed(model, s) ? 'score.sentence.litigeLast' : 'score.sentence.litige';
  let text = t(key, params);
  if (wholeDeal) text += ` ${t('score.sentence.wholeDeal', { n: b.coinche_multiplier })}`;
  if (b.strain_multiplier !== 1) text += ` ${t('score.sentence.multiplied', { n: b.strain_multiplier })}`;
  if (b.scored.some((line) => line.kind === 'rounding')) text += ` ${t('score.sentence.rounded')}`;
  return text;
}

/** The contract's line: the contract, made or failed and why. */
function contractCell(model, s, b) {
  const cell = h('td', { colspan: model.match.sides.length });
  const contract = summaryContract(s);
  if (contract) cell.append(contractLabel(model, { ...contract, multiplier: 1 }));
  if (b.multiplier === 2) cell.append(' ', h('span', { class: 'mult', text: t('score.coinched', { n: 2 }) }));
  if (b.multiplier === 4) cell.append(' ', h('span', { class: 'mult', text: t('score.surcoinched', { n: 4 }) }));
  const verdict = b.result === 'litige' ? t('score.verdict.litige') : t(VERDICT_KEYS[b.verdict] || VERDICT_KEYS.made);
  cell.append(' — ', h('span', { class: `verdict ${b.result}`, text: verdict }));
  return cell;
}

/** A scored line's label. */
function scoredLabel(model, s, b, kind) {
  if (kind === 'contract') {
    return b.multiplier === 1 || (b.coinche_multiplier || 1) > 1 ? t('score.line.contract', { value: b.contract_value })
      : t('score.line.contractTimes', { value: b.contract_value, n: b.multiplier });
  }
  if (kind === 'coinche_multiplier') {
    return t(b.coinche_multiplier === 4 ? 'score.line.surcoinche' : 'score.line.coinche', { n: b.coinche_multiplier });
  }
  if (kind === 'strain_multiplier') {
    return t(s.trump === 'TA' ? 'score.line.ta' : 'score.line.sa', { n: b.strain_multiplier });
  }
  return t(SCORED_KEYS[kind] || 'score.line.points');
}

/**
 * The summary of a deal `s` (a deal summary): its contract, the sentence
 * and the table explaining the score, points held over or released;
 * `totals` (per side) adds the total row.  A summary without a breakdown
 * (an older server) shows the points it has.
 */
export function summaryParts(model, s, totals) {
  const sides = model.match.sides;
  const parts = [];
  const b = s.breakdown;
  const contract = summaryContract(s);
  // the contract: its own line in the table when the server explains the score
  if (contract && !b) parts.push(h('p', { class: 'summary-contract', 'data-result': s.result }, t('end.contract'), ' ', contractLabel(model, contract)));
  else if (!contract) parts.push(h('p', { class: 'summary-contract', 'data-result': s.result, text: resultLabel(s.result) }));
  if (s.result === 'passed' || s.result === 'cancelled') {
    parts.push(h('p', { class: 'summary-note', text: s.result === 'passed' ? t('notice.allPassed') : t('result.cancelled') }));
    return parts;
  }
  if (b) parts.push(h('p', { class: 'summary-sentence', 'data-verdict': b.verdict, 'data-result': b.result, text: sentence(model, s) }));
  const cells = (values, fmt = String) => sides.map((side) => h('td', { 'data-side': side }, fmt(values?.[side] ?? 0, side)));
  const row = (attrs, label, tds, cls) => h('tr', { class: cls || null, ...attrs }, h('th', { scope: 'row', text: label }), ...tds);
  const blank = (v) => (v ? String(v) : '');
  const decls = (v, side) => {
    const list = s.declarations?.[side] || [];
    if (!v && !list.length) return '';
    const cell = h('span', { class: 'decl-cell' }, h('b', { text: String(v) }));
    if (list.length) cell.append(' ', h('span', { class: 'decls' }, ...list.flatMap((d, i) => (i ? [', ', declLabel(d)] : [declLabel(d)]))));
    return cell;
  };
  const made = h('tbody', { class: 'made' });
  if (b) {
    for (const line of b.made) {
      const always = line.kind === 'cards' || line.kind === 'dix_de_der';
      if (!always && !Object.values(line.points).some(Boolean)) continue;
      const label = line.kind === 'capot' && s.solo_capot ? t('end.soloCapot') : t(MADE_KEYS[line.kind]);
      const fmt = line.kind === 'declarations' ? decls : line.kind === 'cards' ? String
        : SIGNED.has(line.kind) ? signed : blank;
      made.append(row({ 'data-line': line.kind }, label, cells(line.points, fmt)));
    }
    made.append(row({ 'data-line': 'made' }, t('score.made'), cells(b.made_totals), 'subtotal'));
  } else {
    made.append(
      row({ 'data-line': 'cards' }, t('end.cardPoints'), cells(s.card_points)),
      row({ 'data-line': 'dix_de_der' }, t('end.dixDeDer'), sides.map((side) => h('td', { 'data-side': side }, s.dix_de_der === side ? '10' : ''))),
      row({ 'data-line': 'belote' }, t('end.belote'), cells(s.belote_points, blank)));
  }
  const scored = h('tbody', { class: 'scored' });
  if (b) {
    scored.append(row({ 'data-line': 'contract', 'data-verdict': b.verdict }, t('score.contract'), [contractCell(model, s, b)], 'contract-line'));
    for (const line of b.scored) {
      scored.append(row({ 'data-scored': line.kind }, scoredLabel(model, s, b, line.kind),
        cells(line.points, SIGNED.has(line.kind) ? signed : blank)));
    }
  }
  if (s.released) {
    const winner = b?.winner;
    scored.append(row({ 'data-line': 'released' }, t('score.line.released'),
      sides.map((side) => h('td', { 'data-side': side }, side === winner ? String(s.released) : ''))));
  }
  scored.append(row({ 'data-line': 'added' }, t('end.added'), cells(s.score, (v) => `+${v}`), 'added'));
  if (totals) scored.append(row({ 'data-line': 'total' }, t('end.total'), cells(totals), 'total'));
  const table = h('table', { class: 'summary', 'data-summary': '' },
    h('thead', {}, h('tr', {}, h('th', {}), ...sides.map((side) => h('th', { scope: 'col', text: sideName(model, side) })))),
    made, scored);
  parts.push(h('div', { class: 'table-wrap' }, table));
  if (s.held_over) {
    const lost = unclaimed(model, s);
    parts.push(h('p', { class: 'summary-note', 'data-held': lost ? 'unclaimed' : 'next', text: t(lost ? 'end.heldOverLost' : 'end.heldOver', { n: s.held_over }) }));
  }
  if (s.released) parts.push(h('p', { class: 'summary-note', text: t('end.released', { n: s.released }) }));
  return parts;
}
