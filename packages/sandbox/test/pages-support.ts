/** Helpers for the hosted page tests: open a page, read its data block, call its endpoints. */
import type { Sandbox } from '../src/index.js';
import { BASE_URL } from './support.js';

export const SHOP_ORIGIN = 'https://shop.example';
export const SESSION = '0123456789abcdef0123456789abcdef';

export interface OpenedPage {
  status: number;
  headers: Headers;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary page data
  data: any;
}

export async function openPage(
  sandbox: Sandbox,
  path: string,
  query: Record<string, string>,
): Promise<OpenedPage> {
  const url = new URL(`${BASE_URL}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const response = await sandbox.handle(new Request(url));
  const body = await response.text();
  const block = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(body)?.[1];
  return {
    status: response.status,
    headers: response.headers,
    body,
    data: block === undefined ? undefined : JSON.parse(block),
  };
}

export const framed = { origin: SHOP_ORIGIN, session: SESSION, app_name: 'Demo Shop' };

/** The BNPL page of an order for one service user, framed by the shop as the web SDK opens it. */
export function openBnplPage(sandbox: Sandbox, orderId: string, credifyId: string): Promise<OpenedPage> {
  return openPage(sandbox, '/pages/bnpl', { ...framed, order_id: orderId, credify_id: credifyId });
}

export async function callPage(
  sandbox: Sandbox,
  method: string,
  path: string,
  pageSession: string | undefined,
  headers: Record<string, string> = {},
) {
  const response = await sandbox.handle(
    new Request(`${BASE_URL}${path}`, {
      method,
      headers: { ...(pageSession !== undefined && { 'x-page-session': pageSession }), ...headers },
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  const json: any = await response.json();
  return { status: response.status, json };
}

/** The CSP directives of a response, by name. */
export function csp(headers: Headers): Record<string, string> {
  const policy = headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    policy.split(';').map((d) => {
      const [name, ...rest] = d.trim().split(/\s+/);
      return [name!, rest.join(' ')];
    }),
  );
}
