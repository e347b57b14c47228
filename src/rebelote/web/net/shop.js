// The shop (docs/progression.md): card backs and table cloths bought with
// the coins earned from challenges and trophies, and the one used at the
// table. Each item is `[data-item]`, with a buy button
// (`[data-action="buy"]`) while not owned and a use button
// (`[data-action="use"]`) once owned. The server decides and refuses
// (not enough coins ...); this page shows its answer.

import { $, api, currentUser, el, initPage, nav, showError, t } from './common.js';
import { lang } from '../js/i18n.js';

let account = false;

/** A request id for one purchase (a retry of the same click sends it again). */
function requestId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function itemNode(item, coins) {
  const swatch = el('span', {
    class: 'swatch', 'aria-hidden': 'true',
    dataset: item.slot === 'back' ? { cardBack: item.id } : { cloth: item.id },
  });
  let action;
  if (item.active) {
    action = el('span', { class: 'badge', text: t('shop.inUse') });
  } else if (item.owned) {
    action = el('button', {
      type: 'button', class: 'btn', dataset: { action: 'use' }, text: t('shop.use'),
      disabled: !account, onclick: () => send('/api/shop/use', { item: item.id }),
    });
  } else {
    const id = requestId();
    action = el('button', {
      type: 'button', class: 'btn primary', dataset: { action: 'buy' }, text: t('shop.buy'),
      disabled: !account, title: coins < item.price ? t('shop.tooDear') : null,
      onclick: () => send('/api/shop/buy', { item: item.id, request_id: id }),
    });
  }
  return el('li', {
    dataset: { item: item.id, owned: String(item.owned), active: String(item.active), price: String(item.price) },
  },
  swatch,
  el('span', { class: 'about' },
    el('span', { class: 'title', text: item.title }),
    el('span', { class: 'price', text: item.price ? t('shop.price', { price: item.price }) : t('shop.free') }),
    action));
}

function show(shop) {
  $('#coins').textContent = String(shop.coins);
  for (const slot of ['back', 'cloth']) {
    $(`#shop-${slot}`).replaceChildren(...shop.items.filter((i) => i.slot === slot).map((i) => itemNode(i, shop.coins)));
  }
}

async function send(path, body) {
  $('#shop-error').textContent = '';
  try {
    show(await api(`${path}?lang=${lang()}`, { method: 'POST', body }));
  } catch (err) {
    showError($('#shop-error'), err);
  }
}

async function main() {
  await initPage();
  const user = await currentUser().catch(() => null);
  account = Boolean(user && !user.guest);
  $('#nav').replaceChildren(nav(user));
  $('#shop-login').hidden = account;
  try {
    show(await api(`/api/shop?lang=${lang()}`));
  } catch (err) {
    showError($('#shop-error'), err);
  }
}

main();
