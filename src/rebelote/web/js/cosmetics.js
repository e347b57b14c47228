// The cosmetics a player chose in the shop (docs/progression.md), applied
// to a page: `data-card-back` and `data-cloth` on its root, which
// css/cosmetics.css turns into colours. The server says which
// (`GET /api/shop`'s `active`); nobody logged in gets the defaults.

import { api } from './api.js';

/** Set `root`'s `data-card-back` and `data-cloth` from `shop.active`. */
export function setCosmetics(root, active) {
  if (active && typeof active.back === 'string') root.dataset.cardBack = active.back;
  if (active && typeof active.cloth === 'string') root.dataset.cloth = active.cloth;
}

/** Ask the server which cosmetics the player uses and apply them to
 * `root` (nothing changes when it cannot be asked). Resolves to the shop. */
export async function applyCosmetics(root) {
  try {
    const shop = await api('/api/shop');
    setCosmetics(root, shop.active);
    return shop;
  } catch {
    return null;
  }
}
