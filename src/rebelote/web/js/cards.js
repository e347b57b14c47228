// Card faces and backs, drawn as SVG by the project (no image is fetched).
//
// A card is named as on the wire: rank then suit, "7S", "10H", "JD", "QC",
// "KS", "AH".  Suits are drawn as paths from one sprite (<symbol id="suit-S">
// ...), so that nothing depends on the fonts of the machine.  This module
// only draws: it knows nothing of the rules.

const NS = 'http://www.w3.org/2000/svg';

/** Suit letters in the order of the sprite. */
export const SUITS = ['S', 'H', 'D', 'C'];

/** Red suits (hearts, diamonds). */
export const RED = new Set(['H', 'D']);

/** Suit shapes in a 100 x 100 box. */
const SUIT_PATHS = {
  S:
    'M50 2C38 20 4 38 4 62c0 15 11 25 24 25 9 0 15-4 19-10-1 10-6 17-15 21h36' +
    'c-9-4-14-11-15-21 4 6 10 10 19 10 13 0 24-10 24-25C96 38 62 20 50 2z',
  H:
    'M50 94C22 70 3 52 3 31 3 15 15 4 29 4c9 0 17 5 21 13 4-8 12-13 21-13 ' +
    '14 0 26 11 26 27 0 21-19 39-47 63z',
  D: 'M50 2 88 50 50 98 12 50z',
  C:
    'M50 4a22 22 0 0 0-19 33A22 22 0 1 0 45 72c-1 10-5 17-13 22h36c-8-5-12-12-13-22' +
    'a22 22 0 1 0 14-35A22 22 0 0 0 50 4z',
};

/** The sprite of the four suits, to put once in the page. */
export function suitSprite() {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  svg.style.position = 'absolute';
  for (const s of SUITS) {
    const sym = document.createElementNS(NS, 'symbol');
    sym.id = `suit-${s}`;
    sym.setAttribute('viewBox', '0 0 100 100');
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', SUIT_PATHS[s]);
    sym.appendChild(path);
    svg.appendChild(sym);
  }
  return svg;
}

/** Split "10H" into ["10", "H"]. */
export function parseCard(card) {
  return [card.slice(0, -1), card.slice(-1)];
}

/** A small inline suit icon (an <svg> using the sprite). */
export function suitIcon(suit, cls = 'suit-icon') {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', `${cls} ${RED.has(suit) ? 'red' : 'black'}`);
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(NS, 'use');
  use.setAttribute('href', `#suit-${suit}`);
  svg.appendChild(use);
  return svg;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function useSuit(parent, suit, x, y, size, rotate = false) {
  const u = el('use', { href: `#suit-${suit}`, x, y, width: size, height: size }, parent);
  if (rotate) u.setAttribute('transform', `rotate(180 ${x + size / 2} ${y + size / 2})`);
  return u;
}

/**
 * The SVG face of `card` (viewBox 0 0 100 140).  `ranks` maps the wire rank
 * to the index shown (e.g. {J: "V", Q: "D", K: "R"} in French).
 */
export function cardFace(card, ranks = {}) {
  const [rank, suit] = parseCard(card);
  const shown = ranks[rank] || rank;
  const colour = RED.has(suit) ? '#c8102e' : '#1b1b1f';
  const svg = el('svg', { viewBox: '0 0 100 140', class: 'card-svg', 'aria-hidden': 'true' });
  el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: '#fffdf7', stroke: '#9a9a9a', 'stroke-width': 1.5 }, svg);
  const g = el('g', { fill: colour }, svg);
  // Index, top-left: big enough to read on the visible strip of a fanned hand.
  const wide = shown.length > 1;
  const idx = el('text', {
    x: wide ? 4 : 7, y: 31, 'font-size': wide ? 27 : 31, 'font-weight': 700,
    'font-family': 'DejaVu Sans, Liberation Sans, Arial, sans-serif',
    'letter-spacing': wide ? -2.5 : 0,
  }, g);
  idx.textContent = shown;
  useSuit(g, suit, 7, 35, 22);
  // Index, bottom-right (upside down).
  const bottom = el('g', { transform: 'rotate(180 50 70)' }, g);
  const idx2 = el('text', {
    x: wide ? 4 : 7, y: 31, 'font-size': wide ? 27 : 31, 'font-weight': 700,
    'font-family': 'DejaVu Sans, Liberation Sans, Arial, sans-serif',
    'letter-spacing': wide ? -2.5 : 0,
  }, bottom);
  idx2.textContent = shown;
  useSuit(bottom, suit, 7, 35, 22);
  // Centre.
  if (rank === 'J' || rank === 'Q' || rank === 'K') {
    el('rect', { x: 31, y: 38, width: 38, height: 64, rx: 4, fill: RED.has(suit) ? '#fbe3e6' : '#e3e7f1', stroke: colour, 'stroke-width': 1.5 }, svg);
    const face = el('text', {
      x: 50, y: 78, 'text-anchor': 'middle', 'font-size': 34, 'font-weight': 700,
      'font-family': 'DejaVu Serif, Liberation Serif, Georgia, serif', fill: colour,
    }, svg);
    face.textContent = shown;
    useSuit(el('g', { fill: colour }, svg), suit, 42, 84, 16);
  } else if (rank === 'A') {
    useSuit(g, suit, 25, 45, 50);
  } else {
    useSuit(g, suit, 30, 50, 40);
  }
  return svg;
}

/** The SVG back of a card (viewBox 0 0 100 140). */
export function cardBack() {
  const svg = el('svg', { viewBox: '0 0 100 140', class: 'card-svg', 'aria-hidden': 'true' });
  el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: '#fffdf7', stroke: '#777', 'stroke-width': 1.5 }, svg);
  el('rect', { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: 'url(#back-lattice)' }, svg);
  el('rect', { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: 'none', stroke: '#7a1020', 'stroke-width': 2, class: 'back-frame' }, svg);
  return svg;
}

/** The pattern used by card backs (put once in the page, beside the sprite). */
export function backPattern() {
  const svg = el('svg', { width: 0, height: 0, 'aria-hidden': 'true' });
  svg.style.position = 'absolute';
  const defs = el('defs', {}, svg);
  const p = el('pattern', { id: 'back-lattice', width: 12, height: 12, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  // classes: the colours of the card back the player chose (css/cosmetics.css)
  el('rect', { width: 12, height: 12, fill: '#a3162b', class: 'back-a' }, p);
  el('rect', { width: 6, height: 6, fill: '#c32a3f', class: 'back-b' }, p);
  el('circle', { cx: 9, cy: 9, r: 1.6, fill: '#f4d58d', class: 'back-dot' }, p);
  return svg;
}
