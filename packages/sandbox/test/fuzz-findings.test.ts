/**
 * What tools/contract-fuzz found in the sandbox (issue 31): a body that is not UTF-8 was read with
 * U+FFFD in it and accepted, and an organisation whose signing key does not parse was stored and
 * answered 500 `misconfigured` (the caller's bad input, half-written).
 */
import { describe, expect, it } from 'vitest';
import { adminJson, BASE_URL, startSandbox } from './support.js';

describe('sandbox bodies and organisations', () => {
  it('refuses a body that is not UTF-8 with invalid_json', async () => {
    const { sandbox } = startSandbox();
    const bytes = new TextEncoder().encode('{"approve_after_ms":1,"x":"\u0001"}');
    bytes[bytes.indexOf(0x01)] = 0xff;
    const response = await sandbox.handle(
      new Request(`${BASE_URL}/sandbox/auto`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: bytes,
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid_json');
  });

  it('answers 400 for a signing key that does not parse, and keeps the organisation as it was', async () => {
    const { sandbox } = startSandbox();
    const id = sandbox.organizations.primary().id;
    const before = await adminJson(sandbox, 'GET', `/sandbox/organizations/${id}`);
    const patched = await adminJson(sandbox, 'PATCH', `/sandbox/organizations/${id}`, {
      signing_key: 'not a key',
    });
    expect(patched.status).toBe(400);
    expect(patched.json.code).toBe('validation_failed');
    expect((await adminJson(sandbox, 'GET', `/sandbox/organizations/${id}`)).json).toEqual(before.json);
    const created = await adminJson(sandbox, 'PUT', '/sandbox/organizations/org-bad-key', {
      signing_key: 'not a key',
    });
    expect(created.status).toBe(400);
    expect((await adminJson(sandbox, 'GET', '/sandbox/organizations/org-bad-key')).status).toBe(404);
  });
});
