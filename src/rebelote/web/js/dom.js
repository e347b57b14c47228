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
