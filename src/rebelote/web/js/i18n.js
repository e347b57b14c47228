// Labels in French (the default) and English.
//
// The catalogs are flat JSON files, i18n/fr.json and i18n/en.json, with the
// same keys (a test checks it).  A key is written in full wherever it is used
// (t('bid.pass'), data-i18n="start.new"), never assembled from pieces, so that
// the test can find every key used.  {name} in a label is replaced by
// params.name.  The rules' help lines come from the server in English;
// i18n/help-fr.json translates them, line by line.

export const LANGS = ['fr', 'en'];
const STORAGE_KEY = 'rebelote.lang';

let current = 'fr';
let catalog = {};
let fallback = {};
let helpFr = {};
let resolveLoaded;
const loaded = new Promise((resolve) => {
  resolveLoaded = resolve;
});

/** Resolves once a catalog is loaded (the first setLang). */
export function whenLoaded() {
  return loaded;
}

/** The language in use ("fr" or "en"). */
export function lang() {
  return current;
}

// The catalogs sit beside this module's folder (i18n/ next to js/), so that
// every page loads them, wherever it is (index.html, net/table.html ...).
async function fetchJson(path) {
  const r = await fetch(new URL(`../${path}`, import.meta.url));
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

/** The language saved by the player, else French. */
export function preferredLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    /* storage unavailable */
  }
  return 'fr';
}

/** Load the catalogs and switch to `code`; labels in the page are updated. */
export async function setLang(code) {
  if (!LANGS.includes(code)) code = 'fr';
  const [cat, fb, help] = await Promise.all([
    fetchJson(`i18n/${code}.json`),
    code === 'fr' ? null : fetchJson('i18n/fr.json'),
    code === 'fr' ? fetchJson('i18n/help-fr.json') : {},
  ]);
  catalog = cat;
  fallback = fb || cat;
  helpFr = help;
  current = code;
  document.documentElement.lang = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* storage unavailable */
  }
  applyI18n(document);
  resolveLoaded();
  document.dispatchEvent(new CustomEvent('rebelote:lang', { detail: code }));
}

/** The label of `key`, with {placeholders} filled from `params`. */
export function t(key, params) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) {
    console.warn(`i18n: no label ${key}`);
    return key;
  }
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
  return text;
}

/** Whether `key` has a label. */
export function has(key) {
  return key in catalog || key in fallback;
}

/** A help line of the server (English), in the language in use. */
export function helpText(english) {
  return current === 'fr' ? helpFr[english] || english : english;
}

/**
 * Fill the elements under `root` that carry data-i18n (text),
 * data-i18n-title, data-i18n-aria-label or data-i18n-placeholder.
 */
export function applyI18n(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll('[data-i18n-aria-label]')) {
    node.setAttribute('aria-label', t(node.dataset.i18nAriaLabel));
  }
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}
