// Provably fair deals at the table (docs/fair-deals.md): the deal's
// commitment while it is played (#commitment), and once the server reveals
// the seed and the salt a "vérifier" button ([data-action="verify"]) that
// opens #fair-dialog: the commitment, the seed and the salt, whether
// SHA-256("rebelote/commit/v1" || seed || salt) is the commitment shown
// before the deal (computed here, with the browser's WebCrypto), the deal's
// record to download and the command that checks every hand
// (`rebelote verify`).  No rule here: the cards are checked by the command.
//
// Test hooks: #fair (hidden without a commitment), #commitment
// (data-commitment: the full digest), [data-action="verify"] (hidden until
// the seed is revealed), #fair-dialog with #fair-seed, #fair-salt,
// #fair-check (data-result: "ok", "mismatch" or "unavailable"), #fair-record.

import { t } from './i18n.js';

const TAG = new TextEncoder().encode('rebelote/commit/v1');

/** The table's fairness line: the commitment of the deal in play (a
 * replay shows none) and the verify button once the seed is revealed. */
export function renderFair(model) {
  const box = document.getElementById('fair');
  if (!box) return;
  const fair = model.mode === 'replay' ? null : model.fair;
  box.hidden = !fair;
  if (!fair) return;
  const code = document.getElementById('commitment');
  if (code.dataset.commitment !== fair.commitment) {
    code.dataset.commitment = fair.commitment;
    code.textContent = `${fair.commitment.slice(0, 12)}…`;
  }
  code.title = t('fair.commitmentTitle', { commitment: fair.commitment });
  box.querySelector('[data-action="verify"]').hidden = !fair.seed;
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** SHA-256 of the tag, the seed and the salt (hex), or null where the
 * browser has no WebCrypto (a page not served over HTTPS nor localhost). */
async function commitmentOf(seed, salt) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const bytes = new Uint8Array(TAG.length + 64);
  bytes.set(TAG, 0);
  bytes.set(hexBytes(seed), TAG.length);
  bytes.set(hexBytes(salt), TAG.length + 32);
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Open the verification of the deal just played: `token`, the seat's
 * token kept by the page (a private table's record needs it), or null. */
export async function openFair(model, token) {
  const fair = model.fair;
  const dialog = document.getElementById('fair-dialog');
  if (!fair || !fair.seed || !dialog || !model.table || !model.match) return;
  const match = model.match.number;
  const deal = model.match.deal;
  document.getElementById('fair-commitment').textContent = fair.commitment;
  document.getElementById('fair-seed').textContent = fair.seed;
  document.getElementById('fair-salt').textContent = fair.salt;
  const q = { match: String(match), deal: String(deal) };
  if (token) q.token = token;
  const file = `rebelote-${model.table.id}-m${match}-d${deal}.json`;
  const link = document.getElementById('fair-record');
  link.href = `/api/tables/${encodeURIComponent(model.table.id)}/record?${new URLSearchParams(q)}`;
  link.download = file;
  document.getElementById('fair-command').textContent = `rebelote verify ${file}`;
  const check = document.getElementById('fair-check');
  check.dataset.result = '';
  check.textContent = t('fair.checking');
  if (!dialog.open) dialog.showModal();
  let computed = null;
  try {
    computed = await commitmentOf(fair.seed, fair.salt);
  } catch {
    computed = null;
  }
  const result = computed === null ? 'unavailable' : computed === fair.commitment ? 'ok' : 'mismatch';
  check.dataset.result = result;
  check.textContent = t({ ok: 'fair.ok', mismatch: 'fair.mismatch', unavailable: 'fair.unavailable' }[result]);
}
