/** The storefront's calls to the shop backend (`/shop/...`) and the market's push-claims endpoint. */
import type { ShopOrderView } from '../shop-orders.js';

export interface ShopUser {
  id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
  country_code: string | null;
}

export interface MarketOrderRecord {
  id: string;
  reference_id: string;
  totalAmount: { value: string; currency: string };
  status: string;
}

async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(path, { ...init, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail ?? `HTTP ${response.status} from ${path}`);
  return body as T;
}

export const shopApi = {
  users: () => call<{ users: ShopUser[] }>('/shop/users').then((b) => b.users),
  login: (userId: string) =>
    call<{ user: ShopUser; session_token: string }>('/shop/login', {
      method: 'POST',
      body: JSON.stringify({ user_id: userId }),
    }),
  checkout: (token: string, items: { product_id: string; quantity: number }[]) =>
    call<{ order: MarketOrderRecord }>('/shop/checkout', {
      method: 'POST',
      token,
      body: JSON.stringify({ items }),
    }).then((b) => b.order),
  orders: (token: string) =>
    call<{ orders: ShopOrderView[] }>('/shop/orders', { token }).then((b) => b.orders),
  /** Sandbox only: the provider's move, through the sandbox's admin API (what the console's buttons do). */
  providerMove: (serviceUrl: string, orderId: string, move: 'ready' | 'paid') =>
    call<Record<string, unknown>>(`${serviceUrl}/sandbox/orders/${encodeURIComponent(orderId)}/${move}`, {
      method: 'POST',
      body: '{}',
    }),
  /** Data-sharing mode: the market pushes the user's claims to the service (WIRE §5 push-claims). */
  pushClaims: (marketPrefix: string, token: string, userId: string, credifyId: string) =>
    call<{ credify_id: string }>(`${marketPrefix}/push-claims`, {
      method: 'POST',
      token,
      body: JSON.stringify({ id: userId, credify_id: credifyId }),
    }),
};
