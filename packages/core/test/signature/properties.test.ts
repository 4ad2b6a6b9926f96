import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createKeyring, verifyWebhook, WebhookVerificationError } from '../../src/index.js';
import { sha256Base64UrlWebCrypto, webhookBodyDigest } from '../../src/signature/digest.js';
import { decodeSignature, encodeMessage } from '../../src/signature/encoding.js';
import { seedToPkcs8Der } from '../../src/signature/keys.js';
import { ed25519PublicKey, ed25519Sign, signWebhook } from '../../src/testing.js';
import {
  base64UrlDecode,
  base64UrlEncode,
  formatWebhookTimestamp,
  parseWebhookTimestamp,
} from '../../src/wire.js';
import { BACKENDS, vectors } from './helpers.js';

// Thousands of Ed25519 and encoding operations on purpose: on two cores busy with every package's
// suite one of these took 47 s, over the unit packages' 30 s (vitest.shared.ts).
vi.setConfig({ testTimeout: 180_000 });
afterAll(() => vi.resetConfig());

const SIGNED_AT = '2026-11-21T10:00:00Z';
const NOW = new Date('2026-11-21T10:00:00Z');

/** Flips one bit of one character (within 7 bits, so the text stays ASCII and header-safe lengths). */
function flipChar(text: string, index: number, bit: number): string {
  const i = index % text.length;
  return text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ (1 << bit)) + text.slice(i + 1);
}

describe.each(BACKENDS)('single-bit tampering always fails (%s)', (backend) => {
  const keys = createKeyring(vectors.public_key, { backend });
  const numRuns = backend === 'noble' ? 40 : 150;
  const field = fc.constantFrom('eventId', 'timestamp', 'url', 'body', 'signature');
  const webhook = fc.record({
    eventId: fc.stringMatching(/^evt_[A-Za-z0-9]{1,24}$/),
    path: fc.stringMatching(/^[a-z0-9/]{0,20}$/),
    body: fc.uint8Array({ minLength: 1, maxLength: 300 }),
  });

  it('for the event ID, timestamp, URL, body and signature', async () => {
    await fc.assert(
      fc.asyncProperty(
        webhook,
        field,
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        async (w, target, index, bit) => {
          const url = `https://market.example.com/${w.path}`;
          const signed = await signWebhook({
            url,
            body: w.body,
            signingKey: vectors.signing_key_pkcs8_pem,
            eventId: w.eventId,
            timestamp: SIGNED_AT,
          });
          const headers = { ...signed.headers };
          const request = { url, headers, body: signed.body };
          // Sanity: untouched, it verifies.
          await verifyWebhook(request, { keys, now: NOW, backend });

          const body = Uint8Array.from(signed.body);
          if (target === 'eventId') headers['X-Event-Id'] = flipChar(w.eventId, index, bit);
          if (target === 'timestamp') headers['X-Event-Timestamp'] = flipChar(SIGNED_AT, index, bit);
          if (target === 'body') body[index % body.length]! ^= 1 << bit;
          if (target === 'signature') {
            const raw = base64UrlDecode(signed.headers.Signature!)!;
            raw[index % 64]! ^= 1 << (bit + (index % 2));
            headers.Signature = base64UrlEncode(raw);
          }
          const tamperedUrl = target === 'url' ? flipChar(url, index, bit) : url;
          const outcome = await verifyWebhook(
            { url: tamperedUrl, headers, body },
            { keys, now: NOW, backend, toleranceSeconds: 10 ** 9 },
          ).catch((e: unknown) => e);
          expect(outcome).toBeInstanceOf(WebhookVerificationError);
          // With the window wide open, whatever still parses must fail on the signature itself.
          const code = (outcome as WebhookVerificationError).code;
          if (target === 'body' || target === 'url' || target === 'signature')
            expect(code).toBe('signature_invalid');
        },
      ),
      { numRuns },
    );
  });
});

describe('Web Crypto, @noble/ed25519 and node:crypto agree', () => {
  it('on signatures (deterministic) and on verification, for random keys and messages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 2048 }),
        async (seed, message) => {
          const nodeKey = createPrivateKey({
            key: Buffer.from(seedToPkcs8Der(seed)),
            format: 'der',
            type: 'pkcs8',
          });
          const fromNode = new Uint8Array(nodeSign(null, message, nodeKey));
          const fromWebCrypto = await ed25519Sign(seed, message, 'webcrypto');
          const fromNoble = await ed25519Sign(seed, message, 'noble');
          expect(fromWebCrypto).toEqual(fromNode);
          expect(fromNoble).toEqual(fromNode);

          const publicKey = await ed25519PublicKey(seed, 'webcrypto');
          expect(await ed25519PublicKey(seed, 'noble')).toEqual(publicKey);
          expect(
            new Uint8Array(createPublicKey(nodeKey).export({ format: 'der', type: 'spki' }).subarray(12)),
          ).toEqual(publicKey);

          for (const backend of BACKENDS) {
            expect(await createKeyring(publicKey, { backend }).verify(fromNode, message)).toBe(0);
          }
          expect(await ed.verifyAsync(fromWebCrypto, message, publicKey)).toBe(true);
          const wrong = Uint8Array.from([...message, 1]);
          expect(nodeVerify(null, wrong, createPublicKey(nodeKey), fromWebCrypto)).toBe(false);
          for (const backend of BACKENDS) {
            expect(await createKeyring(publicKey, { backend }).verify(fromNode, wrong)).toBe(-1);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('hot-path encodings match the reference implementations', () => {
  it('decodeSignature accepts exactly what base64UrlDecode accepts for 86 characters', () => {
    const alphabetish = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= é'.split(''),
    );
    const text = fc.oneof(
      fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => base64UrlEncode(b)),
      fc.array(alphabetish, { minLength: 86, maxLength: 86 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(decodeSignature(t)).toEqual(base64UrlDecode(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('encodeMessage equals TextEncoder, and earlier results survive later calls', () => {
    const held: [string, Uint8Array][] = [];
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (text) => {
        const bytes = encodeMessage(text);
        expect(bytes).toEqual(new TextEncoder().encode(text));
        held.push([text, bytes]);
      }),
      { numRuns: 3000 },
    );
    // Thousands of messages span several slabs; none may have been overwritten.
    for (const [text, bytes] of held) expect(new TextDecoder().decode(bytes)).toBe(text);
    const big = 'x'.repeat(40_000);
    expect(encodeMessage(big)).toEqual(new TextEncoder().encode(big));
  });

  it('the body digest is SHA-256 base64url, on the native and the Web Crypto path', async () => {
    const { createHash } = await import('node:crypto');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), async (body) => {
        const expected = createHash('sha256').update(body).digest('base64url');
        expect(await webhookBodyDigest(body)).toBe(expected);
        expect(await sha256Base64UrlWebCrypto(body)).toBe(expected);
      }),
    );
    expect(await webhookBodyDigest('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('timestamps round-trip and agree with Date for every second of 1970-9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (seconds) => {
        const text = formatWebhookTimestamp(new Date(seconds * 1000));
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(parseWebhookTimestamp(text)).toBe(seconds);
      }),
      { numRuns: 5000 },
    );
    expect(parseWebhookTimestamp('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29) / 1000);
    expect(parseWebhookTimestamp('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29) / 1000);
    expect(parseWebhookTimestamp('2100-02-29T00:00:00Z')).toBeUndefined();
    expect(parseWebhookTimestamp('2026-02-29T00:00:00Z')).toBeUndefined();
  });
});
