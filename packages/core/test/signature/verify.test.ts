import { describe, expect, it } from 'vitest';
import { problemTypeOf } from '../../src/errors.js';
import {
  createKeyring,
  KitError,
  type VerifiedWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/index.js';
import { VERIFIER_RAW_BODY_HELP } from '../../src/signature/body.js';
import { publicKeyToPem } from '../../src/signature/keys.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/signature/message.js';
import { generateKeyPair, signWebhook } from '../../src/testing.js';
import { BACKENDS, BODY, NOW, rejection, SIGNED_AT, signedWebhook, URL, vectors } from './helpers.js';

const keys = createKeyring(vectors.public_key);
const at = (iso: string) => new Date(iso);

/** A verified delivery names the event, the key that matched and the exact bytes that were signed. */
async function expectVerified(
  verifying: Promise<VerifiedWebhook>,
  expected: { eventId?: string | undefined; keyIndex?: number; body?: string } = {},
): Promise<void> {
  const verified = await verifying;
  expect(verified.eventId).toBe(expected.eventId ?? 'evt_test');
  expect(verified.keyIndex).toBe(expected.keyIndex ?? 0);
  expect(new TextDecoder().decode(verified.body)).toBe(expected.body ?? BODY);
}

describe.each(BACKENDS)('verifyWebhook (%s)', (backend) => {
  const options = { keys, now: NOW, backend } as const;

  it('accepts a freshly signed webhook and reports what it verified', async () => {
    const { request } = await signedWebhook();
    const result = await verifyWebhook(request, options);
    expect(result).toEqual({
      eventId: 'evt_test',
      timestamp: new Date(SIGNED_AT),
      keyIndex: 0,
      body: new TextEncoder().encode(BODY),
    });
  });

  describe('timestamp window, to the second', () => {
    it.each([
      ['300 s old', '2026-11-21T10:05:00Z', true],
      ['300.999 s old (sub-second clock phase)', '2026-11-21T10:05:00.999Z', true],
      ['301 s old', '2026-11-21T10:05:01Z', false],
      ['300 s in the future', '2026-11-21T09:55:00Z', true],
      ['301 s in the future', '2026-11-21T09:54:59Z', false],
    ])('%s', async (_label, now, ok) => {
      const { request } = await signedWebhook();
      const verify = verifyWebhook(request, { ...options, now: at(now) });
      if (ok) {
        await expect(verify).resolves.toMatchObject({ eventId: 'evt_test' });
      } else {
        const error = await rejection(verify);
        expect(error.code).toBe('timestamp_out_of_window');
      }
    });

    it('says how large the skew is and in which direction', async () => {
      const { request } = await signedWebhook();
      const old = await rejection(verifyWebhook(request, { ...options, now: at('2026-11-21T10:06:52Z') }));
      expect(old.extensions).toEqual({ skew_seconds: 412, direction: 'too_old', tolerance_seconds: 300 });
      expect(old.message).toContain('Clock skew of 412 s (too old); tolerance 300 s');
      expect(old.toProblem()).toMatchObject({ status: 401, skew_seconds: 412, direction: 'too_old' });

      const early = await rejection(verifyWebhook(request, { ...options, now: at('2026-11-21T09:50:00Z') }));
      expect(early.extensions).toEqual({ skew_seconds: 600, direction: 'too_new', tolerance_seconds: 300 });
      expect(early.message).toContain('Clock skew of 600 s (too new)');
    });

    it('honours a custom tolerance, inclusively', async () => {
      const { request } = await signedWebhook();
      await expectVerified(
        verifyWebhook(request, { ...options, toleranceSeconds: 5, now: at('2026-11-21T10:00:05Z') }),
      );
      const error = await rejection(
        verifyWebhook(request, { ...options, toleranceSeconds: 5, now: at('2026-11-21T10:00:06Z') }),
      );
      expect(error.extensions).toMatchObject({ skew_seconds: 6, tolerance_seconds: 5 });
    });

    it('accepts `now` as epoch milliseconds', async () => {
      const { request } = await signedWebhook();
      await expectVerified(verifyWebhook(request, { ...options, now: NOW.getTime() }));
    });

    it('checks the window before any signature work (an expired forgery is a timestamp error)', async () => {
      const { request } = await signedWebhook();
      const forged = { ...request, headers: { ...request.headers, Signature: 'A'.repeat(86) } };
      const error = await rejection(verifyWebhook(forged, { ...options, now: at('2026-11-22T00:00:00Z') }));
      expect(error.code).toBe('timestamp_out_of_window');
    });
  });

  describe('headers', () => {
    it('matches header names case-insensitively in plain objects', async () => {
      const { request } = await signedWebhook();
      for (const transform of [(k: string) => k.toLowerCase(), (k: string) => k.toUpperCase()]) {
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [transform(k), v]),
        );
        await expectVerified(verifyWebhook({ ...request, headers }, options));
      }
    });

    it('accepts a Fetch Headers object', async () => {
      const { request } = await signedWebhook();
      await expectVerified(verifyWebhook({ ...request, headers: new Headers(request.headers) }, options));
    });

    it('accepts Node IncomingHttpHeaders (lower-case names, single-element arrays)', async () => {
      const { request } = await signedWebhook();
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v;
      headers.signature = [request.headers.Signature!];
      headers['set-cookie'] = ['a=1', 'b=2'];
      await expectVerified(verifyWebhook({ ...request, headers }, options));
    });

    it('refuses a repeated signature header instead of picking one', async () => {
      const { request } = await signedWebhook();
      const headers = { ...request.headers, Signature: [request.headers.Signature!, 'A'.repeat(86)] };
      expect((await rejection(verifyWebhook({ ...request, headers }, options))).code).toBe(
        'signature_malformed_header',
      );
      const twoSpellings = { ...request.headers, signature: 'A'.repeat(86) };
      expect((await rejection(verifyWebhook({ ...request, headers: twoSpellings }, options))).code).toBe(
        'signature_malformed_header',
      );
    });

    it.each(['Signature', 'X-Signature-Algorithm', 'X-Event-Id', 'X-Event-Timestamp'])(
      'reports a missing %s by name',
      async (name) => {
        const { request } = await signedWebhook();
        const headers: Record<string, string> = { ...request.headers };
        delete headers[name];
        const error = await rejection(verifyWebhook({ ...request, headers }, options));
        expect(error.code).toBe('signature_missing_header');
        expect(error.message).toContain(name);
        expect(error.extensions).toEqual({ missing_headers: [name] });
      },
    );

    it('treats an empty header as missing and lists every missing header', async () => {
      const { request } = await signedWebhook();
      const error = await rejection(
        verifyWebhook(
          { ...request, headers: { Signature: '', 'Content-Type': 'application/json' } },
          options,
        ),
      );
      expect(error.extensions).toEqual({
        missing_headers: ['Signature', 'X-Signature-Algorithm', 'X-Event-Id', 'X-Event-Timestamp'],
      });
    });

    it.each(['HS256', 'eddsa', 'Ed25519', 'EdDSA '])('refuses algorithm %j', async (algorithm) => {
      const { request } = await signedWebhook();
      const headers = { ...request.headers, 'X-Signature-Algorithm': algorithm };
      const error = await rejection(verifyWebhook({ ...request, headers }, options));
      expect(error.code).toBe('signature_unsupported_algorithm');
    });

    it.each([
      '2026-11-21T10:00:00.000Z',
      '2026-11-21T10:00:00+00:00',
      '2026-11-21T10:00:00',
      '2026-11-21 10:00:00Z',
      '2026-11-21T10:00:00z',
      '2026-11-21t10:00:00Z',
      '2026-11-21T10:00:0Z',
      '2026-02-30T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-00-01T10:00:00Z',
      '2026-11-00T10:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T10:60:00Z',
      '2026-11-21T10:00:60Z',
      '2026-11-2１T10:00:00Z',
      '1764000000',
      'Sat, 21 Nov 2026 10:00:00 GMT',
    ])('refuses timestamp %j as malformed', async (timestamp) => {
      const { request } = await signedWebhook();
      const headers = { ...request.headers, 'X-Event-Timestamp': timestamp };
      const error = await rejection(verifyWebhook({ ...request, headers }, options));
      expect(error.code).toBe('signature_malformed_header');
      expect(error.message).toContain('YYYY-MM-DDTHH:MM:SSZ');
    });

    it.each([
      ['padding', (s: string) => `${s}==`],
      ['standard alphabet', (s: string) => `+/${s.slice(2)}`],
      ['whitespace', (s: string) => ` ${s.slice(1)}`],
      ['non-zero trailing bits', (s: string) => `${s.slice(0, 85)}B`],
      ['63 bytes', (s: string) => s.slice(0, 84)],
      ['65 bytes', (s: string) => `${s}AA`],
      ['hex instead of base64url', () => 'ab'.repeat(64)],
    ])('refuses a signature with %s as malformed', async (_label, mangle) => {
      const { request } = await signedWebhook();
      const headers = { ...request.headers, Signature: mangle(request.headers.Signature!) };
      const error = await rejection(verifyWebhook({ ...request, headers }, options));
      expect(error.code).toBe('signature_malformed_header');
    });

    it('refuses an event ID with control characters', async () => {
      const { request } = await signedWebhook();
      const headers = { ...request.headers, 'X-Event-Id': 'evt\n1' };
      expect((await rejection(verifyWebhook({ ...request, headers }, options))).code).toBe(
        'signature_malformed_header',
      );
    });
  });

  describe('body', () => {
    const bodyForms: [string, (text: string) => unknown][] = [
      ['Uint8Array', (t) => new TextEncoder().encode(t)],
      ['Buffer', (t) => Buffer.from(t)],
      [
        'Buffer slice of a larger pool',
        (t) => Buffer.concat([Buffer.from('xx'), Buffer.from(t)]).subarray(2),
      ],
      ['ArrayBuffer', (t) => new TextEncoder().encode(t).buffer],
      ['DataView', (t) => new DataView(new TextEncoder().encode(t).buffer)],
      ['string', (t) => t],
    ];

    it.each(bodyForms)('accepts the raw body as %s', async (_label, make) => {
      const text = '{"type":"BNPL_ORDER_STATUS_UPDATED","note":"naïve ☃ 🎉"}';
      const { request } = await signedWebhook({ body: text });
      const result = await verifyWebhook({ ...request, body: make(text) as Uint8Array }, options);
      expect(new TextDecoder().decode(result.body)).toBe(text);
    });

    it('refuses a parsed object and says how to get the raw bytes', async () => {
      const { request } = await signedWebhook();
      const parsed = JSON.parse(BODY) as Uint8Array;
      const error = await rejection(verifyWebhook({ ...request, body: parsed }, options));
      expect(error.code).toBe('payload_not_raw');
      expect(error.message).toContain(VERIFIER_RAW_BODY_HELP);
      for (const hint of [
        "express.raw({ type: 'application/json' })",
        'verify',
        'req.rawBody',
        'ctx.request.rawBody',
      ]) {
        expect(error.message).toContain(hint);
      }
      expect(error.message).toMatch(/c\.req\.raw.*c\.req\.arrayBuffer\(\)/);
    });

    it.each([undefined, null, 42])('refuses %j as a body', async (body) => {
      const { request } = await signedWebhook();
      const error = await rejection(verifyWebhook({ ...request, body: body as unknown as string }, options));
      expect(error.code).toBe('payload_not_raw');
    });

    it('refuses a body over the limit before anything else, and accepts one at the limit', async () => {
      const atLimit = `"${'x'.repeat(DEFAULT_MAX_BODY_BYTES - 2)}"`;
      const { request } = await signedWebhook({ body: atLimit });
      await expectVerified(verifyWebhook(request, options), { body: atLimit });

      const tooBig = new Uint8Array(DEFAULT_MAX_BODY_BYTES + 1);
      const error = await rejection(verifyWebhook({ url: URL, headers: {}, body: tooBig }, options));
      expect(error.code).toBe('payload_too_large');
      expect(error.status).toBe(413);
    });

    it('applies a custom limit to strings by their UTF-8 size', async () => {
      const text = 'é'.repeat(60); // 60 UTF-16 units, 120 UTF-8 bytes
      const { request } = await signedWebhook({ body: text });
      expect(
        (await rejection(verifyWebhook({ ...request, body: text }, { ...options, maxBodyBytes: 100 }))).code,
      ).toBe('payload_too_large');
      await expectVerified(verifyWebhook({ ...request, body: text }, { ...options, maxBodyBytes: 120 }), {
        body: text,
      });
    });
  });

  describe('signature', () => {
    it('rejects a body that was re-serialized, with an actionable message', async () => {
      const { request } = await signedWebhook();
      const reserialized = JSON.stringify(JSON.parse(BODY), null, 2);
      const error = await rejection(verifyWebhook({ ...request, body: reserialized }, options));
      expect(error.code).toBe('signature_invalid');
      expect(error.message).toMatch(/re-serialized/);
      expect(error.message).toMatch(/URL differs/);
      expect(error.message).toMatch(/key/);
    });

    it('rejects a URL other than the signed one', async () => {
      const { request } = await signedWebhook();
      for (const url of [`${URL}/`, URL.replace('https', 'http'), 'https://MARKET.example.com/v1/webhook']) {
        expect((await rejection(verifyWebhook({ ...request, url }, options))).code).toBe('signature_invalid');
      }
    });

    it('rejects another method', async () => {
      const { request } = await signedWebhook();
      expect((await rejection(verifyWebhook({ ...request, method: 'PUT' }, options))).code).toBe(
        'signature_invalid',
      );
      await expectVerified(verifyWebhook({ ...request, method: 'post' }, options));
    });

    it('rejects the right signature under another key', async () => {
      const other = await generateKeyPair();
      const { request } = await signedWebhook();
      const error = await rejection(verifyWebhook(request, { ...options, keys: other.publicKey }));
      expect(error.code).toBe('signature_invalid');
      expect(error.message).toContain('the configured public key');
    });
  });

  describe('keyring', () => {
    it('finds the key that matches during a rotation and reports its index', async () => {
      const next = await generateKeyPair();
      const rotating = createKeyring([next.publicKey, vectors.public_key_pem], { backend });
      const { request } = await signedWebhook();
      expect((await verifyWebhook(request, { ...options, keys: rotating })).keyIndex).toBe(1);

      const signedByNext = await signWebhook({
        url: URL,
        body: BODY,
        signingKey: next.privateKeyPem,
        timestamp: SIGNED_AT,
      });
      const result = await verifyWebhook(
        { url: URL, headers: signedByNext.headers, body: signedByNext.body },
        { ...options, keys: rotating },
      );
      expect(result.keyIndex).toBe(0);
    });

    it('accepts keys as a comma-separated string (SERVICE_PUBLIC_KEY), an array, or raw bytes', async () => {
      const other = await generateKeyPair();
      const { request } = await signedWebhook();
      const raw = Uint8Array.from(Buffer.from(vectors.public_key, 'base64url'));
      // The other key comes first in the lists, so the match is key 1 there.
      for (const [input, keyIndex] of [
        [`${other.publicKey}, ${vectors.public_key}`, 1],
        [`${other.publicKeyPem},${vectors.public_key_pem}`, 1],
        [[other.publicKeyPem, vectors.public_key], 1],
        [raw, 0],
        [[raw], 0],
        [publicKeyToPem(raw), 0],
        [publicKeyToPem(raw).replaceAll('\n', '\\n'), 0],
      ] as const) {
        await expectVerified(verifyWebhook(request, { ...options, keys: input }), { keyIndex });
      }
    });

    it('refuses unusable keys when the keyring is built', () => {
      expect(() => createKeyring('not a key')).toThrow(KitError);
      expect(() => createKeyring('')).toThrow(/No public key/);
      expect(() => createKeyring(new Uint8Array(31))).toThrow(/32 bytes/);
      // The identity point encodes fine but is of small order: no signature should ever verify.
      const identity = new Uint8Array(32);
      identity[0] = 1;
      expect(() => createKeyring(identity)).toThrow(/not a valid Ed25519 public key/);
    });

    it('imports Web Crypto keys once, not per verification', async () => {
      const keyring = createKeyring(vectors.public_key, { backend });
      const { request } = await signedWebhook();
      const original = crypto.subtle.importKey.bind(crypto.subtle);
      let imports = 0;
      crypto.subtle.importKey = ((...args: Parameters<typeof original>) => {
        imports++;
        return original(...args);
      }) as typeof crypto.subtle.importKey;
      try {
        for (let i = 0; i < 5; i++) await verifyWebhook(request, { ...options, keys: keyring });
        await Promise.all([1, 2, 3].map(() => verifyWebhook(request, { ...options, keys: keyring })));
      } finally {
        crypto.subtle.importKey = original;
      }
      expect(imports).toBe(backend === 'webcrypto' ? 1 : 0);
    });
  });
});

describe('verifyWebhook options', () => {
  it.each([
    [{ toleranceSeconds: -1 }, /toleranceSeconds/],
    [{ toleranceSeconds: Number.NaN }, /toleranceSeconds/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes/],
    [{ maxBodyBytes: 1.5 }, /maxBodyBytes/],
  ])('refuses %j as misconfiguration', async (bad, message) => {
    const { request } = await signedWebhook();
    const error = await verifyWebhook(request, { keys, now: NOW, ...bad }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KitError);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect((error as KitError).code).toBe('misconfigured');
    expect((error as KitError).message).toMatch(message);
  });

  it('uses the clock when `now` is not given', async () => {
    const signed = await signWebhook({ url: URL, body: BODY, signingKey: vectors.signing_key_pkcs8_pem });
    await expectVerified(verifyWebhook({ url: URL, headers: signed.headers, body: signed.body }, { keys }), {
      eventId: signed.headers['X-Event-Id'],
    });
  });

  it('returns problem documents that name the code and never leak a stack', async () => {
    const { request } = await signedWebhook();
    const error = await rejection(verifyWebhook({ ...request, url: `${URL}x` }, { keys, now: NOW }));
    const problem = error.toProblem();
    expect(problem).toMatchObject({
      type: problemTypeOf('signature_invalid'),
      status: 401,
      code: 'signature_invalid',
    });
    expect(JSON.stringify(problem)).not.toMatch(/\n\s+at /);
  });
});
