// The page's one element builder, shared by the table's modules (render.js,
// auction.js, score.js).

/** `h('div', {class: 'x', text: 'y', 'data-card': 'JS', onclick: f}, ...children)`:
 * a new element; attributes null, undefined or false are left out, true is
 * an empty attribute, `on…` adds a listener; children null, undefined or
 * false are left out. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** `svg('circle', {cx: 3, cy: 4, r: 2, class: 'point'}, ...children)`: a
 * new SVG element (the SVG namespace), attributes and children as `h`'s
 * (`text` sets the text, e.g. of a `<title>` or `<text>`). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}
