/** The catalogue and the demo sign-in: any visitor may sign in as any demo user. */
import { KitError } from '@bnpl-kit/core';
import { PRODUCTS } from '../catalogue.js';
import { jsonResponse, readJson } from '../http.js';
import type { DemoUser } from '../options.js';
import type { ShopRouteHandler } from './route.js';

function userView(user: DemoUser): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    email: user.email ?? null,
    phone_number: user.phoneNumber ?? null,
    country_code: user.countryCode ?? null,
  };
}

export const listProducts: ShopRouteHandler = async () =>
  jsonResponse({ products: PRODUCTS.map((p) => ({ id: p.id, name: p.name, price: p.price })) });

export const listUsers: ShopRouteHandler = async ({ demoUsers }) =>
  jsonResponse({ users: (await demoUsers()).map(userView) });

export const login: ShopRouteHandler = async ({ demoUsers }, request) => {
  const body = await readJson(request);
  const user = (await demoUsers()).find((u) => u.id === body.user_id);
  if (!user) throw new KitError('user_not_found', 'No demo user with that id');
  return jsonResponse({ user: userView(user), session_token: user.sessionToken });
};
