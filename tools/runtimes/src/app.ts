/**
 * What every runtime serves, as one fetch handler, bundled by esbuild with no Node built-ins:
 * the contract suite's conforming market (configured over HTTP once its URL is known, as
 * contract-tests' swappable market is in-process), the behaviour suite's markets
 * (behaviour-host.ts), a probe of the runtime's Web Crypto Ed25519,
 * a verify loop the bench times from outside (workerd freezes clocks inside a request), and one
 * service-client call against a stand-in service the test controls (`/__create-order`).
 */

import { createTestMarket, type TestMarketConfig, webhookVectors } from '@bnpl-kit/contract-tests/testing';
import {
  createKeyring,
  createServiceClient,
  type Market,
  type MarketStore,
  verifyWebhook,
} from '@bnpl-kit/core';
import { type MemoryStore, orderFixture } from '@bnpl-kit/core/testing';
import { handleBehaviour } from './behaviour-host.js';

let market: Market | undefined;
let config: TestMarketConfig | undefined;
let store: MemoryStore | undefined;
/** A store every market of this process uses instead of a fresh memory store (workerd-pg.ts). */
let shared: MarketStore | undefined;

export function useStore(store: MarketStore): void {
  shared = store;
}
const base64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const urlSafe = (text: string) => text.replace(/-/g, '+').replace(/_/g, '/');

/** A vector's headers (some cases leave one out as `null`). */
function headersOf(headers: Record<string, string | null | undefined>): Headers {
  return new Headers(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Whether Web Crypto takes an Ed25519 key in this form under this algorithm name. */
async function imports(format: 'raw' | 'spki', name: string): Promise<boolean> {
  const key = base64(urlSafe(webhookVectors.public_key).padEnd(44, '='));
  const spki = new Uint8Array([
    0x30,
    0x2a,
    0x30,
    0x05,
    0x06,
    0x03,
    0x2b,
    0x65,
    0x70,
    0x03,
    0x21,
    0x00,
    ...key,
  ]);
  try {
    await crypto.subtle.importKey(format, format === 'raw' ? key : spki, { name }, false, ['verify']);
    return true;
  } catch {
    return false;
  }
}

/** Each shared vector's verdict on one backend: `valid` or the error code. */
async function verdicts(backend: 'webcrypto' | 'noble' | 'auto'): Promise<Record<string, string>> {
  const keys = createKeyring(webhookVectors.public_key, { backend });
  const out: Record<string, string> = {};
  for (const vector of webhookVectors.webhook_cases) {
    const headers = headersOf(vector.headers);
    try {
      await verifyWebhook(
        { url: vector.webhook_url, headers, body: base64(vector.body_base64) },
        { keys, now: Date.parse(vector.now) },
      );
      out[vector.name] = 'valid';
    } catch (error) {
      out[vector.name] = (error as { code?: string }).code ?? String(error);
    }
  }
  return out;
}

async function probe(): Promise<Record<string, unknown>> {
  const formats: Record<string, boolean> = {};
  for (const name of ['Ed25519', 'NODE-ED25519']) {
    for (const format of ['raw', 'spki'] as const) formats[`${name}/${format}`] = await imports(format, name);
  }
  const webcrypto = formats['Ed25519/raw'] ? await verdicts('webcrypto') : undefined;
  // What a market gets by default: `auto` picks Web Crypto, or noble where Web Crypto lacks Ed25519.
  const auto = await createKeyring(webhookVectors.public_key).warmUp();
  return { formats, webcrypto, noble: await verdicts('noble'), auto, byDefault: await verdicts('auto') };
}

/** Verifies the first valid vector `n` times (the keyring's default backend). */
async function verifyMany(n: number): Promise<void> {
  const vector = webhookVectors.webhook_cases.find((v) => v.expect === 'valid')!;
  const keys = createKeyring(webhookVectors.public_key);
  const headers = headersOf(vector.headers);
  const body = base64(vector.body_base64);
  for (let i = 0; i < n; i++) {
    await verifyWebhook({ url: vector.webhook_url, headers, body }, { keys, now: Date.parse(vector.now) });
  }
}

/**
 * Creates one order at `serviceUrl` with the service client on this runtime's fetch (one retry, no
 * backoff wait): `{ id }`, or the error's `{ code }`.
 */
async function createThrough(serviceUrl: string): Promise<Response> {
  const client = createServiceClient({
    baseUrl: serviceUrl,
    apiKey: 'key-123456',
    retries: 1,
    sleep: async () => {},
  });
  try {
    return Response.json({ id: (await client.createOrder(orderFixture())).id });
  } catch (error) {
    return Response.json({ code: (error as { code?: string }).code ?? String(error) });
  }
}

export async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  switch (url.pathname) {
    case '/health':
      return new Response('ok');
    case '/__configure': {
      config = (await request.json()) as TestMarketConfig;
      // createTestMarket hands its store to createMarket only, so any MarketStore serves.
      ({ market, store } = createTestMarket({ ...config, ...(shared && { store: shared as MemoryStore }) }));
      return new Response(null, { status: 204 });
    }
    case '/__restart':
      // A restarted process on the same database: a new market over the same store.
      if (!config || !store) return new Response('not configured', { status: 503 });
      market = createTestMarket({ ...config, store }).market;
      return new Response(null, { status: 204 });
    case '/__probe':
      return Response.json(await probe());
    case '/__create-order':
      return createThrough(((await request.json()) as { serviceUrl: string }).serviceUrl);
    case '/__verify':
      await verifyMany(Number(url.searchParams.get('n') ?? '0'));
      return new Response(null, { status: 204 });
  }
  const behaviour = handleBehaviour(request, url.pathname);
  if (behaviour) return behaviour;
  if (!market) return new Response('not configured', { status: 503 });
  return market.handle(request, { basePath: '/bnpl' });
}
