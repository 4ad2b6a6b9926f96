import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cli, file, REASON_CODES, vectors, verifyArgs } from './helpers.js';

const URL = 'https://market.example.com/v1/webhook';
const BODY = '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":"ord_9","order_status":"APPROVED"}';

/** `webhook verify` of a delivery to URL; the body (`--body …`) and options follow. */
const verifyCommand = (publicKey: string, headers: string, ...rest: string[]) => [
  'webhook',
  'verify',
  '--public-key',
  publicKey,
  '--url',
  URL,
  '--headers',
  headers,
  ...rest,
];

describe('bnpl-kit webhook verify: every shared vector', () => {
  it.each(vectors.webhook_cases.filter((c) => c.expect === 'valid'))('$name → valid, exit 0', async (c) => {
    const run = await cli(...verifyArgs(c));
    expect(run).toEqual({ status: 0, stdout: 'valid\n', stderr: '' });
  });

  it.each(vectors.webhook_cases.filter((c) => c.expect === 'invalid'))(
    '$name → $reason failure, exit 1, one line',
    async (c) => {
      const run = await cli(...verifyArgs(c));
      expect(run.status).toBe(1);
      expect(run.stderr).toBe('');
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const code = lines[0]!.split(':')[0]!;
      expect(REASON_CODES[c.reason!]).toContain(code);
    },
  );

  it('accepts the public key as PEM in a file', async () => {
    const c = vectors.webhook_cases[0]!;
    const run = await cli(...verifyArgs(c, file(vectors.public_key_pem, 'key.pem')));
    expect(run.stdout).toBe('valid\n');
  });
});

describe('bnpl-kit webhook verify: explanations', () => {
  const byName = (name: string) => vectors.webhook_cases.find((c) => c.name === name)!;

  it('suggests re-serialization, URL and key for a bad signature', async () => {
    const run = await cli(...verifyArgs(byName('body re-serialized with spaces')));
    expect(run.stdout).toMatch(
      /^signature_invalid: body was re-serialized.*URL differs from the registered one.*wrong key\?\n$/,
    );
  });

  it('states the skew, its direction and the tolerance', async () => {
    const old = await cli(...verifyArgs(byName('timestamp 301 s old')));
    expect(old.stdout).toContain('timestamp_out_of_window: clock skew of 301 s (too old); tolerance 300 s');
    const early = await cli(...verifyArgs(byName('timestamp 10 min in the future')));
    expect(early.stdout).toContain('clock skew of 600 s (too new); tolerance 300 s');
  });

  it('honours --tolerance', async () => {
    const run = await cli(...verifyArgs(byName('timestamp 301 s old')), '--tolerance', '301');
    expect(run.stdout).toBe('valid\n');
  });

  it('names the missing header', async () => {
    const run = await cli(...verifyArgs(byName('missing X-Event-Id header')));
    expect(run.stdout).toMatch(
      /^signature_missing_header: Missing webhook header X-Event-Id; --headers must/,
    );
  });
});

describe('bnpl-kit webhook sign', () => {
  const signingKey = file(vectors.signing_key_pkcs8_pem, 'signing.pem');

  it('prints headers that reproduce the shared vector exactly', async () => {
    const c = vectors.webhook_cases[0]!;
    const run = await cli(
      'webhook',
      'sign',
      '--signing-key',
      signingKey,
      '--url',
      c.webhook_url,
      '--body',
      file(Buffer.from(c.body_base64, 'base64')),
      '--event-id',
      c.headers['X-Event-Id']!,
      '--timestamp',
      '2026-11-21T10:00:00.000Z',
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(c.headers);
  });

  it('round-trips through verify, and detects a changed body', async () => {
    const body = file(BODY, 'body.json');
    const signed = await cli('webhook', 'sign', '--signing-key', signingKey, '--url', URL, '--body', body);
    const headers = file(signed.stdout, 'headers.json');
    const common = verifyCommand(vectors.public_key, headers);
    expect((await cli(...common, '--body', body)).stdout).toBe('valid\n');
    const changed = await cli(...common, '--body', file(`${BODY} `));
    expect(changed.status).toBe(1);
    expect(changed.stdout).toMatch(/^signature_invalid: /);
  });

  it('accepts the signing key without BEGIN/END lines', async () => {
    const bare = vectors.signing_key_pkcs8_pem
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .join('\n');
    const run = await cli('webhook', 'sign', '--signing-key', file(bare), '--url', URL, '--body', file(BODY));
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)['X-Signature-Algorithm']).toBe('EdDSA');
  });
});

describe('bnpl-kit keygen', () => {
  it('prints a usable key pair', async () => {
    const run = await cli('keygen');
    expect(run.status).toBe(0);
    const publicKey = run.stdout.match(/^[A-Za-z0-9_-]{43}$/m)?.[0];
    const publicPem = run.stdout.match(/-----BEGIN PUBLIC KEY-----\n.+\n-----END PUBLIC KEY-----\n/)?.[0];
    const privatePem = run.stdout.match(/-----BEGIN PRIVATE KEY-----\n.+\n-----END PRIVATE KEY-----\n/)?.[0];
    expect(publicKey && publicPem && privatePem).toBeTruthy();
    const derived = createPublicKey(createPrivateKey(privatePem!));
    expect(derived.export({ format: 'pem', type: 'spki' })).toBe(publicPem);
    expect(derived.export({ format: 'jwk' }).x).toBe(publicKey);
  });

  it('prints JSON with --json, and the pair signs and verifies through the CLI', async () => {
    const run = await cli('keygen', '--json');
    const pair = JSON.parse(run.stdout) as { publicKey: string; publicKeyPem: string; privateKeyPem: string };
    expect(Object.keys(pair).sort()).toEqual(['privateKeyPem', 'publicKey', 'publicKeyPem']);
    const body = file(BODY);
    const signed = await cli(
      'webhook',
      'sign',
      '--signing-key',
      file(pair.privateKeyPem),
      '--url',
      URL,
      '--body',
      body,
    );
    const verify = (key: string) => cli(...verifyCommand(key, file(signed.stdout), '--body', body));
    expect((await verify(pair.publicKey)).stdout).toBe('valid\n');
    expect((await verify(file(pair.publicKeyPem))).stdout).toBe('valid\n');
    expect((await verify(vectors.public_key)).status).toBe(1);
  });
});

describe('usage errors exit 2 with a message', () => {
  it.each([
    ['a missing required option', ['webhook', 'verify', '--url', URL], /required option '--public-key/],
    ['an unknown command', ['frobnicate'], /unknown command/],
    [
      'an unreadable body file',
      verifyCommand(vectors.public_key, '/nonexistent/h.json', '--body', '/nonexistent/b'),
      /cannot read headers file/,
    ],
    ['a bad public key', verifyCommand('nope', 'x', '--body', 'y'), /public key/],
  ])('%s', async (_label, args, message) => {
    const run = await cli(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toContain('valid');
  });

  it('refuses a headers file that is not a JSON object, a bad --now and a bad --tolerance', async () => {
    const c = vectors.webhook_cases[0]!;
    const args = verifyArgs(c);
    const headersAt = args.indexOf('--headers') + 1;
    const withArg = (index: number, value: string) => args.map((a, i) => (i === index ? value : a));
    expect((await cli(...withArg(headersAt, file('[1,2]')))).stderr).toMatch(/JSON object/);
    expect((await cli(...withArg(headersAt, file('{nope')))).stderr).toMatch(/not valid JSON/);
    expect((await cli(...withArg(args.indexOf('--now') + 1, 'yesterday'))).stderr).toMatch(
      /--now is not an ISO 8601/,
    );
    expect((await cli(...args, '--tolerance', '-5')).stderr).toMatch(/--tolerance/);
  });

  it('prints help on --help with exit 0', async () => {
    const run = await cli('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/keygen/);
    expect(run.stdout).toMatch(/webhook/);
  });
});
