/**
 * The shop backend's calls to the market backend: in-process through its fetch handler, or over
 * HTTP. The market API token is added here, server-side; the browser never sees it.
 */
import type { OrderCreateRequest } from '@bnpl-kit/core';
import { orderCreateRequestCodec } from '@bnpl-kit/core/wire';
import type { DemoShopOptions, DemoUser } from './options.js';

/** A market answer that is not a success, carried to the shop's own error response. */
export class MarketError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Record<string, unknown> | undefined,
  ) {
    super(typeof problem?.detail === 'string' ? problem.detail : `The market answered HTTP ${status}`);
  }
}

export interface MarketOrderRecord {
  id: string;
  reference_id: string;
  totalAmount: { value: string; currency: string };
  status: string;
}

export interface MarketClient {
  createOrder(order: OrderCreateRequest): Promise<MarketOrderRecord>;
  orderStatus(id: string): Promise<string | undefined>;
  demoUsers(): Promise<DemoUser[]>;
}

// In-process requests still need an absolute URL; the market routes by path only.
const IN_PROCESS_ORIGIN = 'http://market.internal';

export function createMarketClient(options: DemoShopOptions): MarketClient {
  const prefix = options.marketPrefix ?? '/v1';
  const base = options.marketBaseUrl?.replace(/\/+$/, '') ?? IN_PROCESS_ORIGIN;
  const send = (request: Request) =>
    options.market ? options.market.handle(request) : (options.fetch ?? fetch)(request);

  async function call(method: string, path: string, body?: unknown, auth = true): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth) headers.authorization = `Bearer ${options.marketApiToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(
      new Request(`${base}${prefix}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    const json = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!response.ok) throw new MarketError(response.status, json);
    return json;
  }

  return {
    async createOrder(order) {
      return (await call('POST', '/orders', orderCreateRequestCodec.encode(order))) as MarketOrderRecord;
    },
    async orderStatus(id) {
      try {
        const info = (await call('GET', `/orders/service/${encodeURIComponent(id)}`)) as { status?: unknown };
        return typeof info.status === 'string' ? info.status : undefined;
      } catch (error) {
        if (error instanceof MarketError && error.status === 404) return undefined;
        throw error;
      }
    },
    async demoUsers() {
      return demoUsersFrom(await call('GET', '/demo-user', undefined, false));
    },
  };
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** A display name from the demo user's record, or from its `profile` claims. */
function nameOf(record: Json): { name: string; firstName?: string; lastName?: string } {
  const profile = isJson(record.claims) && isJson(record.claims.profile) ? record.claims.profile : {};
  const firstName = text(record.first_name) ?? text(profile.given_name);
  const lastName = text(record.last_name) ?? text(profile.family_name);
  const joined = [lastName, firstName].filter(Boolean).join(' ');
  return {
    name: text(record.name) ?? (joined || String(record.id)),
    ...(firstName && { firstName }),
    ...(lastName && { lastName }),
  };
}

/**
 * Users from the demo-user contract: `{ id, session_token, claims?, users?: [...] }` (see the
 * contract suite's README). Users without a session token cannot sign in and are left out.
 */
export function demoUsersFrom(body: unknown): DemoUser[] {
  if (!isJson(body)) return [];
  const records = Array.isArray(body.users) ? body.users : [body];
  const users: DemoUser[] = [];
  for (const record of records) {
    if (!isJson(record) || !text(record.id) || !text(record.session_token)) continue;
    const claims = isJson(record.claims) ? record.claims : {};
    const email = text(record.email) ?? (isJson(claims.email) ? text(claims.email.email) : undefined);
    const phone = text(record.phone) ?? (isJson(claims.phone) ? text(claims.phone.phone_number) : undefined);
    users.push({
      id: String(record.id),
      sessionToken: String(record.session_token),
      ...nameOf(record),
      ...(email && { email }),
      ...(phone && { phoneNumber: phone }),
    });
  }
  return users;
}
