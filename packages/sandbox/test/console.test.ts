/** The console page's HTTP side: a data-free shell with a strict CSP; its browser side is in apps/browser-e2e. */
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { BASE_URL, marketOrg } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

const get = (s: Sandbox, path: string, method = 'GET') =>
  s.handle(new Request(`${BASE_URL}${path}`, { method }), { basePath: '' });

describe('GET /sandbox/console', () => {
  it('answers the page with a nonce CSP that allows nothing else, never framed', async () => {
    sandbox = createSandbox({
      organizations: [marketOrg({ name: '<script>alert(1)</script>' })],
      clock: createManualClock(),
    });
    const response = await get(sandbox, '/sandbox/console');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([\w-]+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const page = await response.text();
    // Every script and style carries this response's nonce; the JSON block is data, not script.
    expect(page.match(/<script nonce="/g)).toHaveLength(1);
    expect(page).toContain(`<script nonce="${nonce}">`);
    expect(page).toContain(`<style nonce="${nonce}">`);
    expect(page).not.toMatch(/<script src=|https?:\/\/(?!www\.w3)/);
    // The shell holds no record: data arrives through the admin API and is set as text.
    expect(page).not.toContain('alert(1)');
    expect(page).toContain('"operations":["token"');
  });

  it('is served without the admin token, which the page then asks for; the API still needs it', async () => {
    sandbox = createSandbox({
      organizations: [marketOrg()],
      clock: createManualClock(),
      adminToken: 'admin-token-1',
    });
    const response = await get(sandbox, '/sandbox/console/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"needsToken":true');
    expect((await get(sandbox, '/sandbox/state')).status).toBe(401);
  });

  it('answers other methods with a 405 problem', async () => {
    sandbox = createSandbox({ organizations: [marketOrg()], clock: createManualClock() });
    const response = await get(sandbox, '/sandbox/console', 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
