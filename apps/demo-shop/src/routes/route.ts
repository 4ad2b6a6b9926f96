import type { ShopState } from '../shop-state.js';

/** One route of the shop: the shared state, the request, and the `:name` parameters of its path. */
export type ShopRouteHandler = (
  shop: ShopState,
  request: Request,
  params: Record<string, string>,
) => Promise<Response>;
