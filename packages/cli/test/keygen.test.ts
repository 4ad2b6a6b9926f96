import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, file } from './helpers.js';

const scratch = () =>
  join(tmpdir(), `bnpl-kit-key-${process.pid}-${Math.random().toString(36).slice(2)}.pem`);

describe('bnpl-kit keygen --private-key-out', () => {
  it('writes the private key (0600) and prints only the public key, which verifies what the key signs', async () => {
    const keyFile = scratch();
    const made = await cli('keygen', '--private-key-out', keyFile);
    expect(made.status).toBe(0);
    const publicKey = made.stdout.trim();
    expect(made.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const url = 'http://127.0.0.1:3000/v1/webhook';
    const body = file('{"type":"BNPL_ORDER_STATUS_UPDATED"}', 'body.json');
    const signed = await cli('webhook', 'sign', '--signing-key', keyFile, '--url', url, '--body', body);
    expect(signed.status).toBe(0);
    const headers = file(signed.stdout, 'headers.json');
    const verified = await cli(
      'webhook',
      'verify',
      '--public-key',
      publicKey,
      '--url',
      url,
      '--headers',
      headers,
      '--body',
      body,
    );
    expect(verified).toMatchObject({ status: 0, stdout: 'valid\n' });
  });

  it('prints the public half as JSON with --json, without the private key', async () => {
    const made = await cli('keygen', '--json', '--private-key-out', scratch());
    expect(Object.keys(JSON.parse(made.stdout))).toEqual(['publicKey', 'publicKeyPem']);
  });

  it('never overwrites an existing key file', async () => {
    const keyFile = file('keep me', 'key.pem');
    const run = await cli('keygen', '--private-key-out', keyFile);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/EEXIST/);
    expect(readFileSync(keyFile, 'utf8')).toBe('keep me');
  });
});
