/**
 * The callback URL certify configures (BNPL_CALLBACK_URL) is a page at the market's origin, also for
 * a market mounted under a path, and a market that does not serve it is told so in the report
 * (advice: the page is the shop's, not a protocol rule).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '@bnpl-kit/core/node';
import { describe, expect, it } from 'vitest';
import { defaultCallbackUrl } from '../src/certification.js';
import { formatTextReport } from '../src/index.js';
import { configFromEnv, createTestMarket, swappableMarket } from '../src/testing.js';
import { certifyServed } from './fixtures/certify.js';

/** The market on core's Node bridge, and `/bnpl/complete` served next to it when `servesCallback`. */
async function listen(servesCallback: boolean) {
  const shell = swappableMarket('basic');
  const market = createNodeListener(shell);
  const server = createServer((req, res) => {
    if (servesCallback && req.url?.startsWith('/bnpl/complete')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Thank you</p>');
      return;
    }
    void market(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { shell, listening: { url, close } };
}

async function certifyRedirect(servesCallback: boolean) {
  const { shell, listening } = await listen(servesCallback);
  return certifyServed(
    'basic',
    listening,
    (run) => shell.use(createTestMarket(configFromEnv(run.env, 'basic')).market),
    ['redirect.known-order'],
  );
}

describe('the BNPL callback URL certify configures', () => {
  it('is /bnpl/complete at the origin, whatever path the market is mounted under', () => {
    expect(defaultCallbackUrl('http://127.0.0.1:41101/bnpl')).toBe('http://127.0.0.1:41101/bnpl/complete');
    expect(defaultCallbackUrl('http://localhost:3000')).toBe('http://localhost:3000/bnpl/complete');
  });

  it('is reported when the market does not serve it, without failing the run', async () => {
    const report = await certifyRedirect(false);
    const redirect = report.results.find((r) => r.id === 'redirect.known-order')!;
    expect(redirect.status).toBe('pass');
    expect(redirect.advisories).toEqual([
      expect.stringMatching(
        /^BNPL_CALLBACK_URL is not served: the BNPL redirect leads to http:\/\/127\.0\.0\.1:\d+\/bnpl\/complete\?order_id=\S+, which answered 404; serve a page there/,
      ),
    ]);
    expect(formatTextReport(report)).toContain(
      'Advisory (not required):\n  - BNPL_CALLBACK_URL is not served',
    );
  });

  it('is not reported when the market serves it', async () => {
    const report = await certifyRedirect(true);
    const redirect = report.results.find((r) => r.id === 'redirect.known-order')!;
    expect(redirect).toMatchObject({ status: 'pass' });
    expect(redirect.advisories).toBeUndefined();
  });
});
