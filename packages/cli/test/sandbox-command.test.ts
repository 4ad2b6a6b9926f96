import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { file, runSandbox } from './helpers.js';

describe('bnpl-kit sandbox', () => {
  it('prints the base URL, API key, public key and admin endpoints, and serves the admin API', async () => {
    await runSandbox(['--webhook-url', 'http://127.0.0.1:9/v1/webhook'], async (url, printed) => {
      expect(printed).toContain(`listening on ${url}`);
      expect(printed).toContain(`\nexport SERVICE_API_URL=${url}\n`);
      expect(printed).toMatch(/^export APP_API_KEY=sk_sandbox_[A-Za-z0-9_-]+$/m);
      // The market must verify for exactly the registered URL: its PUBLIC_BASE_URL comes with it.
      expect(printed).toMatch(/^export PUBLIC_BASE_URL=http:\/\/127\.0\.0\.1:9 {3}# /m);
      expect(printed).toMatch(/SERVICE_PUBLIC_KEY=[A-Za-z0-9_-]{43}\n/);
      // PKCS#8 (WIRE §7, §8): the PEM body on one line, not a raw seed.
      expect(printed).toMatch(/APP_SIGNING_KEY=MC4CAQAwBQYDK2VwBCIEI[A-Za-z0-9+/=]{43,} /);
      expect(printed).toContain(`${url}/sandbox/state`);
      const state = (await (await fetch(`${url}/sandbox/state`)).json()) as {
        organizations: { id: string; webhook_urls: string[]; public_key: string }[];
        webhook_public_key: string;
      };
      expect(state.organizations[0]).toMatchObject({
        id: 'sandbox-org',
        webhook_urls: ['http://127.0.0.1:9/v1/webhook'],
      });
      expect(printed).toContain(`SERVICE_PUBLIC_KEY=${state.webhook_public_key}`);
      const key = /APP_API_KEY=(\S+)/.exec(printed)![1]!;
      const token = await fetch(`${url}/v1/token`, { method: 'POST', headers: { 'X-API-KEY': key } });
      expect(token.status).toBe(200);
    });
  });

  it('--offer-filtering-url sets that URL only: the rest of the dashboard is the walkthrough’s step 0 (README)', async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const sentence =
      "(`--offer-filtering-url <url>` registers only the offer filter's URL at start: the basic profile, the API base URL and the demo offers still come from step 0";
    expect(readme.includes(sentence), `README.md says: ${sentence}`).toBe(true);
    const filter = 'http://127.0.0.1:3001/v1/offers/filter';
    await runSandbox(['--offer-filtering-url', filter], async (url) => {
      const org = (await (await fetch(`${url}/sandbox/organizations/sandbox-org`)).json()) as Record<
        string,
        unknown
      >;
      expect(org).toMatchObject({ offer_filtering_url: filter, api_base_url: null });
      expect(org.approved_offers).not.toContainEqual(
        expect.objectContaining({ code: 'loyalty-gold-pay-in-6' }),
      );
    });
  });

  it('reads a config file and honours the admin token', async () => {
    const config = file(
      JSON.stringify({
        organizations: [{ id: 'org-cfg', api_keys: ['sk_config_key_1'], public_key: 'A'.repeat(43) }],
        auto: { approve_after_ms: 5 },
      }),
      'sandbox.json',
    );
    const printed = await runSandbox(['--config', config, '--admin-token', 'admin-token-1'], async (url) => {
      expect((await fetch(`${url}/sandbox/state`)).status).toBe(401);
      const ok = await fetch(`${url}/sandbox/auto`, { headers: { authorization: 'Bearer admin-token-1' } });
      expect(await ok.json()).toMatchObject({ approve_after_ms: 5 });
    });
    expect(printed).toContain('APP_ID=org-cfg');
    expect(printed).toContain('APP_API_KEY=sk_config_key_1');
    expect(printed).not.toContain('APP_SIGNING_KEY');
  });
});
