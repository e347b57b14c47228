// The server's REST API, for every page: one `api()` (JSON, the CSRF
// header on changes, errors as ApiError) and one `errorText()` that words
// any error the server sends (REST codes and WebSocket error codes, see
// docs/protocol.md) from the catalogs, `error.<code>`, in the page's
// language. The server's own `message` is English for developers: a
// person never reads it.

import { has, t } from './i18n.js';

/** A refused request: the HTTP `status` (0: no answer), the server's
 * `code` and its (English) `message`, for logs only. */
export class ApiError extends Error {
  constructor(status, code, message, detail = {}) {
    super(message || code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.reason = typeof detail.reason === 'string' ? detail.reason : null; // e.g. weak_password's
    this.field = typeof detail.field === 'string' ? detail.field : null; // invalid's: which field
    this.retryAfter = Number.isFinite(detail.retry_after) ? detail.retry_after : null;
  }
}

/** A cookie's value, or null. */
export function cookie(name) {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/**
 * A JSON call. `body` (an object) is sent as JSON; a request that is not a
 * GET carries the session's CSRF token (`X-CSRF-Token`, from the
 * `rebelote_csrf` cookie). Resolves to the JSON answer; rejects with an
 * ApiError: the server's code, or `network` (no answer), `server` (an
 * answer that is not the API's).
 */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    const csrf = cookie('rebelote_csrf');
    if (csrf) headers['X-CSRF-Token'] = csrf;
  }
  let r;
  try {
    r = await fetch(path, {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
      credentials: 'same-origin',
    });
  } catch (err) {
    throw new ApiError(0, 'network', String(err));
  }
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const detail = data && data.detail;
    if (detail && typeof detail === 'object' && typeof detail.code === 'string') {
      throw new ApiError(r.status, detail.code, detail.message, detail);
    }
    throw new ApiError(r.status, statusCode(r.status), r.statusText);
  }
  return data;
}

/** A code for an answer without the API's error shape. */
function statusCode(status) {
  if (status === 429) return 'rate_limited';
  if (status === 413) return 'too_large';
  if (status === 414) return 'too_long';
  if (status === 408) return 'timeout';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  return status >= 500 ? 'server' : 'bad_request';
}

// Every code a person may meet, each written in full (a test finds every
// key used): REST (docs/protocol.md, "Errors", "Lobby", "Accounts"), the
// table's WebSocket ("error" messages) and the lobby socket.
const ERROR_KEYS = {
  // REST
  bad_request: 'error.bad_request',
  invalid: 'error.invalid',
  not_found: 'error.not_found',
  forbidden: 'error.forbidden',
  server: 'error.server',
  network: 'error.network',
  table_not_found: 'error.table_not_found',
  user_not_found: 'error.user_not_found',
  no_such_account: 'error.no_such_account',
  not_finished: 'error.not_finished',
  not_logged_in: 'error.not_logged_in',
  csrf: 'error.csrf',
  bad_name: 'error.bad_name',
  weak_password: 'error.weak_password',
  name_taken: 'error.name_taken',
  bad_credentials: 'error.bad_credentials',
  guest: 'error.guest',
  account_required: 'error.account_required',
  bad_date: 'error.bad_date',
  not_host: 'error.not_host',
  seat_taken: 'error.seat_taken',
  already_seated: 'error.already_seated',
  not_open: 'error.not_open',
  table_closed: 'error.table_closed',
  seats_empty: 'error.seats_empty',
  no_human: 'error.no_human',
  no_seat: 'error.no_seat',
  rate_limited: 'error.rate_limited',
  too_large: 'error.too_large',
  // the table's and the lobby's WebSockets
  bad_json: 'error.bad_json',
  unknown_type: 'error.unknown_type',
  bad_message: 'error.bad_message',
  not_authenticated: 'error.not_authenticated',
  bad_token: 'error.bad_token',
  private: 'error.private',
  not_your_seat: 'error.not_your_seat',
  not_your_turn: 'error.not_your_turn',
  bad_action: 'error.bad_action',
  bid_out_of_range: 'error.bid_out_of_range',
  illegal: 'error.illegal',
  belote_choice_required: 'error.belote_choice_required',
  internal: 'error.internal',
  unavailable: 'error.unavailable',
  busy: 'error.busy',
  too_long: 'error.too_long',
  too_many_connections: 'error.too_many_connections',
  timeout: 'error.timeout',
  stale: 'error.stale',
  spectator: 'error.spectator',
  left: 'error.left',
  not_started: 'error.not_started',
  // help against the computer (issue 16): hints and takebacks
  rated_table: 'error.rated_table',
  takeback_none: 'error.takeback_none',
  takeback_deal_over: 'error.takeback_deal_over',
  takeback_stale: 'error.takeback_stale',
  options_others: 'error.options_others',
  takeback_others: 'error.takeback_others',
  // the shop (docs/progression.md)
  not_enough_coins: 'error.not_enough_coins',
  item_owned: 'error.item_owned',
  unknown_item: 'error.unknown_item',
  not_owned: 'error.not_owned',
  request_reused: 'error.request_reused',
  shop_account_required: 'error.shop_account_required',
  // the bot API (docs/bot-api.md)
  bad_bot_token: 'error.bad_bot_token',
  not_bot_seat: 'error.not_bot_seat',
  too_many_tokens: 'error.too_many_tokens',
  // tournaments (docs/tournaments.md)
  tournament_not_found: 'error.tournament_not_found',
  tournament_started: 'error.tournament_started',
  not_entered: 'error.not_entered',
};

// Refusals that say why (`detail.reason`), each worded on its own.
const REASON_KEYS = {
  'weak_password.short': 'error.weak_password.short',
  'weak_password.common': 'error.weak_password.common',
  'weak_password.name': 'error.weak_password.name',
  'weak_password.repeated': 'error.weak_password.repeated',
  'weak_password.sequence': 'error.weak_password.sequence',
};

// The fields an `invalid` refusal may name (`detail.field`, dotted when
// nested), each worded: the lobby's forms' fields.
const FIELD_KEYS = {
  name: 'error.field.name',
  target: 'error.field.target',
  'options.move_clock': 'error.field.move_clock',
  preset: 'error.field.preset',
  password: 'error.field.password',
  old: 'error.field.password',
  new: 'error.field.password',
};

/** The catalog key of an error code (the generic one for a code the page
 * does not know). */
export function errorKey(code) {
  return Object.hasOwn(ERROR_KEYS, code) ? ERROR_KEYS[code] : 'error.unknown';
}

/**
 * An error in words, in the page's language: an ApiError, the `d` of a
 * WebSocket `error` message ({code, message}), a code, or any other error
 * (a failed fetch: the network). Never the server's English message.
 */
export function errorText(err) {
  let code;
  if (typeof err === 'string') code = err;
  else if (err instanceof ApiError) code = err.code;
  else if (err && typeof err === 'object' && typeof err.code === 'string') code = err.code;
  else code = 'network';
  const key = errorKey(code);
  if (key === 'error.unknown') return t('error.unknown', { code });
  // a field refused: named in words when the page knows it
  const field = err && typeof err === 'object' ? err.field : null;
  if (code === 'invalid' && typeof field === 'string' && Object.hasOwn(FIELD_KEYS, field)) {
    return t('error.invalidField', { field: t(FIELD_KEYS[field]) });
  }
  // a refusal with a reason of its own (weak_password: short, common, name ...)
  const reason = err && typeof err === 'object' ? err.reason : null;
  const detailed = reason ? REASON_KEYS[`${code}.${reason}`] : null;
  return t(detailed && has(detailed) ? detailed : key);
}
