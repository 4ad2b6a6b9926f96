import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import * as main from '../../src/index.js';
import { createKeyring, verifyWebhook } from '../../src/index.js';
import * as testing from '../../src/testing.js';
import { ed25519Sign, generateKeyPair, signWebhook } from '../../src/testing.js';
import * as wire from '../../src/wire.js';
import { parseSigningKey } from '../../src/wire.js';
import { BODY, hex, rfc8032, URL, vectors } from './helpers.js';

describe('signWebhook', () => {
  it('imports a key given as text once, however often it signs with it (and signs each correctly)', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const keys = await generateKeyPair();
      importKey.mockClear();
      for (const eventId of ['evt_a', 'evt_b', 'evt_c']) {
        const signed = await signWebhook({ url: URL, body: BODY, signingKey: keys.privateKeyPem, eventId });
        const expected = await ed25519Sign(
          parseSigningKey(keys.privateKeyPem),
          new TextEncoder().encode(signed.message),
          'noble',
        );
        expect(signed.headers.Signature).toBe(wire.base64UrlEncode(expected));
      }
      expect(importKey.mock.calls.filter(([format]) => format === 'pkcs8')).toHaveLength(1);
      // Another key is imported on its own, not confused with the first.
      const other = await generateKeyPair();
      importKey.mockClear();
      const signed = await signWebhook({ url: URL, body: BODY, signingKey: other.seed });
      await signWebhook({ url: URL, body: BODY, signingKey: other.privateKeyPem });
      const expected = await ed25519Sign(other.seed, new TextEncoder().encode(signed.message), 'noble');
      expect(signed.headers.Signature).toBe(wire.base64UrlEncode(expected));
      expect(importKey.mock.calls.filter(([format]) => format === 'pkcs8')).toHaveLength(1);
    } finally {
      importKey.mockRestore();
    }
  });

  it('produces exactly the headers of the specification', async () => {
    const signed = await signWebhook({
      url: URL,
      body: BODY,
      signingKey: vectors.signing_key_pkcs8_pem,
      eventId: 'evt_0001',
      timestamp: new Date('2026-11-21T10:00:00.789Z'),
    });
    expect(Object.keys(signed.headers).sort()).toEqual(
      [
        'Accept',
        'Content-Type',
        'Signature',
        'X-Event-Id',
        'X-Event-Timestamp',
        'X-Signature-Algorithm',
      ].sort(),
    );
    expect(signed.headers).toMatchObject({
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Signature-Algorithm': 'EdDSA',
      'X-Event-Id': 'evt_0001',
      'X-Event-Timestamp': '2026-11-21T10:00:00Z',
    });
    expect(signed.headers.Signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    // Same key, message and body as the first shared vector: Ed25519 is deterministic.
    expect(signed.headers.Signature).toBe(vectors.webhook_cases[0]!.headers.Signature);
    expect(signed.message).toBe(
      `POST\n${URL}\nevt_0001\n2026-11-21T10:00:00Z\n${await wire.webhookBodyDigest(BODY)}`,
    );
  });

  it('is verifiable by node:crypto over the documented message', async () => {
    const signed = await signWebhook({ url: URL, body: { a: 1 }, signingKey: vectors.signing_key_pkcs8_pem });
    expect(new TextDecoder().decode(signed.body)).toBe('{"a":1}');
    const key = createPublicKey(vectors.public_key_pem);
    const ok = nodeVerify(
      null,
      Buffer.from(signed.message),
      key,
      Buffer.from(signed.headers.Signature!, 'base64url'),
    );
    expect(ok).toBe(true);
    expect(signed.headers['X-Event-Id']).toMatch(/^evt_[0-9a-f-]{36}$/);
  });

  it('accepts the signing key as PEM, PEM body without BEGIN/END lines, escaped newlines, base64url seed or bytes', async () => {
    const pem = vectors.signing_key_pkcs8_pem;
    const bodyOnly = pem
      .split('\n')
      .filter((line) => line && !line.startsWith('-----'))
      .join('');
    const seed = parseSigningKey(pem);
    const forms = [pem, bodyOnly, pem.replaceAll('\n', '\\n'), Buffer.from(seed).toString('base64url'), seed];
    const signatures = new Set<string>();
    for (const signingKey of forms) {
      const signed = await signWebhook({
        url: URL,
        body: BODY,
        signingKey,
        eventId: 'e',
        timestamp: '2026-11-21T10:00:00Z',
      });
      signatures.add(signed.headers.Signature!);
    }
    expect(signatures.size).toBe(1);
  });

  it('refuses a malformed explicit timestamp and a bad key', async () => {
    await expect(
      signWebhook({
        url: URL,
        body: BODY,
        signingKey: vectors.signing_key_pkcs8_pem,
        timestamp: '2026-11-21T10:00:00.000Z',
      }),
    ).rejects.toThrow(/YYYY-MM-DDTHH:MM:SSZ/);
    await expect(signWebhook({ url: URL, body: BODY, signingKey: 'nope' })).rejects.toThrow(
      /APP_SIGNING_KEY/,
    );
  });
});

describe('generateKeyPair', () => {
  it('returns a consistent pair in every documented form', async () => {
    const pair = await generateKeyPair();
    expect(pair.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.seed).toHaveLength(32);
    expect(pair.publicKeyPem).toMatch(
      /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=]+\n-----END PUBLIC KEY-----\n$/,
    );
    expect(pair.privateKeyPem).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=]+\n-----END PRIVATE KEY-----\n$/,
    );
    expect(createPublicKey(pair.privateKeyPem).export({ format: 'pem', type: 'spki' })).toBe(
      pair.publicKeyPem,
    );
    expect(createKeyring(pair.publicKey).publicKeys[0]).toEqual(
      createKeyring(pair.publicKeyPem).publicKeys[0],
    );

    const signed = await signWebhook({ url: URL, body: BODY, signingKey: pair.privateKeyPem });
    const verified = await verifyWebhook(
      { url: URL, headers: signed.headers, body: signed.body },
      { keys: pair.publicKey },
    );
    expect(verified.eventId).toBe(signed.headers['X-Event-Id']);
    expect(verified.keyIndex).toBe(0);
    expect(new TextDecoder().decode(verified.body)).toBe(BODY);
    expect((await generateKeyPair()).publicKey).not.toBe(pair.publicKey);
  });
});

describe('ed25519Sign', () => {
  it('refuses a seed that is not 32 bytes', async () => {
    await expect(ed25519Sign(new Uint8Array(31), new Uint8Array(1))).rejects.toThrow(/32 bytes/);
  });

  it('signs RFC 8032 TEST 3 with the automatic backend', async () => {
    const v = rfc8032.vectors[2]!;
    expect(Buffer.from(await ed25519Sign(hex(v.secret_key), hex(v.message))).toString('hex')).toBe(
      v.signature,
    );
  });
});

describe('entry points', () => {
  it('keeps signing code out of the main and wire entries', () => {
    for (const name of Object.keys(testing)) {
      expect(main).not.toHaveProperty(name);
      expect(wire).not.toHaveProperty(name);
    }
  });

  it('exports the verification API from the main entry', () => {
    for (const name of ['verifyWebhook', 'createKeyring', 'Keyring', 'WebhookVerificationError']) {
      expect(main).toHaveProperty(name);
    }
    expect(wire).toHaveProperty('webhookMessage');
  });
});
