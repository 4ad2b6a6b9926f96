/**
 * Issue 34: behind a reverse proxy every request has the proxy's address, so a flood of invented
 * offer-filter tokens used up the one per-address budget and the service's own valid tokens got
 * 429. With `TRUST_PROXY` (`trustProxyHops`) the market keys its limits on the X-Forwarded-For
 * entry the proxy appended, which a client cannot forge: the service keeps its own budget, and a
 * valid token gives back the attempt it took.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../src/service/routes.js';
import { makeMarket, ORIGIN } from './market-support.js';

const PROXY = '10.0.0.2';
const SERVICE = '203.0.113.10';
const ATTACKER = '198.51.100.66';

/** An offer-filter call as the Node bridge hands it over: through the proxy, peer = the proxy. */
function viaProxy(token: string, forwardedFor: string): Request {
  const request = new Request(`${ORIGIN}/v1/offers/filter`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-forwarded-for': forwardedFor,
    },
    body: JSON.stringify({ credify_id: 'cred-1', offers: [] }),
  });
  return Object.assign(request, { [Symbol.for('bnpl-kit.client-address')]: () => PROXY });
}

async function floodThenServe(trustProxyHops: number | undefined) {
  const t = await makeMarket({ config: trustProxyHops === undefined ? {} : { trustProxyHops } });
  // 200 invented tokens; the attacker also writes the service's address on the left.
  for (let i = 0; i < 200; i++) {
    await t.market.handle(viaProxy(`fake-${i}`, `${SERVICE}, ${ATTACKER}`));
  }
  const statuses: number[] = [];
  for (let i = 0; i < 35; i++) {
    // A fresh valid token each call: every one needs an introspection.
    const token = `service-token-${i}`;
    t.service.tokens.set(token, { active: true, scope: READ_FILTERED_OFFERS_SCOPE });
    statuses.push((await t.market.handle(viaProxy(token, SERVICE))).status);
  }
  return statuses;
}

describe('per-client limits behind a proxy', () => {
  it('keeps the service’s valid tokens serving through a flood of fake ones with TRUST_PROXY', async () => {
    const statuses = await floodThenServe(
      loadConfig({ TRUST_PROXY: '1' }, { integrationMode: 'basic' }).trustProxyHops,
    );
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('without it, shares the proxy’s one budget (why the setting exists)', async () => {
    const statuses = await floodThenServe(undefined);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it('reads TRUST_PROXY as a whole number of proxies, 0 by default', () => {
    expect(loadConfig({}, { integrationMode: 'basic' }).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }, { integrationMode: 'basic' }).trustProxyHops).toBe(2);
    for (const bad of ['-1', '1.5', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }, { integrationMode: 'basic' }), bad).toThrow(
        /TRUST_PROXY/,
      );
    }
  });
});

describe('the README configuration table', () => {
  it('lists TRUST_PROXY with its default', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const { trustProxyHops } = loadConfig({}, { integrationMode: 'basic' });
    expect(readme).toContain(`| \`TRUST_PROXY\` | ${trustProxyHops} |`);
  });
});
