/** `bnpl-kit sandbox --data-dir`: a restart keeps the keys, the orders and their status. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wireOrder } from '@bnpl-kit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runSandbox } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function call(
  url: string,
  path: string,
  init: { method?: string; token?: string; apiKey?: string; json?: unknown },
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.apiKey) headers['x-api-key'] = init.apiKey;
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

const order = wireOrder({ reference_id: 'kept-1' });

const keysOf = (printed: string) => ({
  apiKey: /APP_API_KEY=(\S+)/.exec(printed)?.[1],
  publicKey: /SERVICE_PUBLIC_KEY=(\S+)/.exec(printed)?.[1],
  signingKey: /APP_SIGNING_KEY=(\S+)/.exec(printed)?.[1],
});

// Creating the PGlite directory runs initdb in WebAssembly: seconds on a busy machine.
describe('bnpl-kit sandbox --data-dir', () => {
  it('keeps its keys and orders across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bnpl-cli-sandbox-'));
    dirs.push(dir);
    let orderId = '';
    const first = await runSandbox(['--data-dir', dir], async (url, printed) => {
      const { apiKey } = keysOf(printed);
      const token = await call(url, '/v1/token', { method: 'POST', apiKey: apiKey! });
      const accessToken = String(token.body.data.access_token);
      const created = await call(url, '/v1/integration/bnpl-consumers/orders', {
        token: accessToken,
        json: order,
      });
      expect(created.status).toBe(200);
      orderId = String(created.body.data.id);
      expect((await call(url, `/sandbox/orders/${orderId}/approve`, { json: {} })).status).toBe(200);
    });
    expect((await stat(join(dir, 'sandbox-keys.json'))).mode & 0o777).toBe(0o600);

    const second = await runSandbox(['--data-dir', dir], async (url, printed) => {
      const token = await call(url, '/v1/token', { method: 'POST', apiKey: keysOf(printed).apiKey! });
      const found = await call(url, `/v1/integration/bnpl-consumers/orders/${orderId}`, {
        token: String(token.body.data.access_token),
      });
      expect(found).toMatchObject({ status: 200, body: { data: { id: orderId, order_status: 'APPROVED' } } });
    });
    expect(keysOf(second)).toEqual(keysOf(first));
    // The format the README's configuration table gives APP_SIGNING_KEY (PKCS#8), as without --data-dir.
    expect(keysOf(first).signingKey).toMatch(/^MC4CAQAwBQYDK2VwBCIEI[A-Za-z0-9+/=]{43,}$/);
  });
});
