// WCAG contrast of every text shown (tests/web/test_during_the_deal.py):
// each text against the colours under it (its ancestors' backgrounds,
// composited over the felt's lightest colour), its opacity included.
// Returns the texts below 4.5:1 (3:1 for large text); disabled controls
// and hidden text are left out, as WCAG leaves them.
() => {
  const parse = (s) => {
    const m = s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const text = walker.currentNode;
    if (!text.textContent.trim()) continue;
    const el = text.parentElement;
    if (!el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest('[hidden], .visually-hidden, svg, .card, :disabled, [aria-disabled="true"], option, noscript, dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    let op = 1;
    const stack = [];
    for (let n = el; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      op *= Number(s.opacity);
      const bg = parse(s.backgroundColor);
      if (bg && bg[3] > 0) stack.push(bg);
      if (n.tagName === 'DIALOG') break;
    }
    let bg = [0x23, 0x84, 0x4b, 1]; // the felt's lightest colour
    for (const b of stack.reverse()) bg = over(b, bg);
    const c = parse(cs.color);
    const fg = over([c[0], c[1], c[2], c[3] * op], bg);
    const k = ratio(fg, bg);
    const size = parseFloat(cs.fontSize);
    const bold = Number(cs.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const need = large ? 3 : 4.5;
    if (k < need) out.push({ text: el.textContent.trim().slice(0, 30), cls: el.className && String(el.className), tag: el.tagName, ratio: Math.round(k * 100) / 100, size, need });
  }
  return out;
}
