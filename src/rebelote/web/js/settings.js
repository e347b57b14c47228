// The player's settings, kept in this browser (localStorage
// `rebelote.settings`) and changed from the settings panel (#settings),
// which the table's toolbar and menu open at any time of a match:
//
// - `pace`: how long a finished trick stays on the table before the next
//   card (slow 1.6 s, normal 0.8 s, fast 0.4 s); the computer players'
//   own speed is the table's (`speed`, chosen with the match);
// - `sound`: sounds for your turn, a trick won and belote (js/sound.js),
//   off until the player turns them on;
// - `cardOrder`: how the hand is sorted (display only): `trump` (the trump
//   suit first, colours alternating), `fixed` (♠ ♥ ♣ ♦ whatever the trump)
//   or `ascending` (as `trump`, the weakest card first);
// - `hint`: whether the table offers a hint (`[data-action="hint"]`),
//   `body[data-hint="off"]` when it does not;
// - the language (js/i18n.js keeps it: `rebelote.lang`).
//
// Hooks: #settings (a dialog), [data-setting="pace"|"sound"|"cardOrder"|
// "hint"|"lang"] (its controls), [data-action="settings"] (what opens it).

export const SETTINGS_KEY = 'rebelote.settings';

export const DEFAULTS = Object.freeze({ pace: 'normal', sound: false, cardOrder: 'trump', hint: true });

const CHOICES = {
  pace: ['slow', 'normal', 'fast'],
  cardOrder: ['trump', 'fixed', 'ascending'],
};

/** Milliseconds a finished trick stays on the table, per pace. */
export const TRICK_HOLDS = Object.freeze({ slow: 1600, normal: 800, fast: 400 });

// settings changed while the storage refuses them (private browsing ...)
const memory = {};

function read() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY));
  } catch {
    /* nothing saved, or storage unavailable */
  }
  return { ...(saved && typeof saved === 'object' ? saved : {}), ...memory };
}

/** A setting's value (its default when none was saved or it is unknown). */
export function getSetting(name) {
  const value = read()[name];
  if (CHOICES[name]) return CHOICES[name].includes(value) ? value : DEFAULTS[name];
  return typeof value === typeof DEFAULTS[name] ? value : DEFAULTS[name];
}

/** Save a setting; `document` then gets `rebelote:settings` ({name, value}). */
export function setSetting(name, value) {
  const all = { ...read(), [name]: value };
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(all));
  } catch {
    /* storage unavailable: the setting lasts as long as the page */
    memory[name] = value;
  }
  applySettings();
  document.dispatchEvent(new CustomEvent('rebelote:settings', { detail: { name, value } }));
}

/** How long a finished trick stays on the table (ms). */
export function trickHold() {
  return TRICK_HOLDS[getSetting('pace')];
}

/** The page's marks of the settings (CSS): body[data-hint]. */
export function applySettings() {
  document.body.dataset.hint = getSetting('hint') ? 'on' : 'off';
}

/**
 * Wire the settings panel `dialog`: each control shows its setting when the
 * panel opens and saves it when changed.  `onLang(code)` switches the
 * page's language; `lang()` says which it is.
 */
export function initSettings(dialog, { onLang, lang }) {
  applySettings();
  const controls = () => [...dialog.querySelectorAll('[data-setting]')];
  const fill = () => {
    for (const el of controls()) {
      const name = el.dataset.setting;
      if (name === 'lang') el.value = lang();
      else if (el.type === 'checkbox') el.checked = !!getSetting(name);
      else el.value = getSetting(name);
    }
  };
  dialog.addEventListener('change', (e) => {
    const el = e.target.closest('[data-setting]');
    if (!el) return;
    const name = el.dataset.setting;
    if (name === 'lang') onLang(el.value);
    else setSetting(name, el.type === 'checkbox' ? el.checked : el.value);
  });
  document.addEventListener('rebelote:lang', fill);
  return {
    open() {
      fill();
      if (!dialog.open) dialog.showModal();
    },
  };
}
