/**
 * Issue 20 §3: the sandbox's admin API (organisations and their signing keys, provider actions)
 * answered without credentials on a listener beyond loopback (`HOST=127.0.0.2` was accepted with no
 * warning). Only 127.0.0.1, ::1 and localhost count as loopback; anywhere else the admin API needs
 * an admin token, says so at start-up, and refuses with a problem while none is configured.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, type SandboxServerOptions, startSandboxServer } from '../src/index.js';
import { marketOrg } from './support.js';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '::1', '[::1]', 'localhost', 'LOCALHOST', ' 127.0.0.1 '])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each([
    '127.0.0.2',
    '127.1.2.3',
    '0.0.0.0',
    '::',
    '::ffff:127.0.0.1',
    '192.168.1.5',
    '10.0.0.1',
    'example.com',
    '',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

async function signingKeyAnswer(options: SandboxServerOptions, authorization?: string) {
  const org = marketOrg();
  const server = await startSandboxServer({ port: 0, organizations: [org], ...options });
  try {
    const response = await fetch(`${server.url}/sandbox/organizations/${org.id}/signing-key`, {
      headers: authorization ? { authorization } : {},
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text,
      warnings: server.warnings,
    };
  } finally {
    await server.close();
  }
}

describe('the admin API of a sandbox server', () => {
  it('is open on 127.0.0.1 without a token (local development), without a warning', async () => {
    const answer = await signingKeyAnswer({ host: '127.0.0.1' });
    expect(answer.status).toBe(200);
    expect(answer.warnings).toEqual([]);
  });

  it('is closed beyond loopback without a token: a warning at start-up and a 403 problem, no key', async () => {
    // 127.0.0.2 is bindable on Linux, and is exactly the address the issue used.
    const answer = await signingKeyAnswer({ host: '127.0.0.2' });
    expect(answer.status).toBe(403);
    expect(answer.type).toBe('application/problem+json');
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'forbidden' });
    expect(JSON.parse(answer.text).detail).toContain('127.0.0.2');
    expect(answer.text).not.toMatch(/PRIVATE KEY|signing_key/i);
    expect(answer.warnings).toHaveLength(1);
    expect(answer.warnings[0]).toContain('--admin-token');
  });

  it('beyond loopback with a token: 401 without it, 200 with it, no warning', async () => {
    const options = { host: '127.0.0.2', adminToken: 'admin-token-123' };
    const without = await signingKeyAnswer(options);
    expect([without.status, without.type]).toEqual([401, 'application/problem+json']);
    expect(without.warnings).toEqual([]);
    expect((await signingKeyAnswer(options, 'Bearer admin-token-123')).status).toBe(200);
  });
});
