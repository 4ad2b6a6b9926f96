import { describe, expect, it } from 'vitest';
import { createKeyring, verifyWebhook } from '../../src/index.js';
import { ed25519PublicKey, ed25519Sign } from '../../src/testing.js';
import { BACKENDS, caseRequest, hex, reasonOf, rejection, rfc8032, vectors } from './helpers.js';

describe.each(BACKENDS)('shared webhook vectors (%s)', (backend) => {
  const keyrings = {
    base64url: createKeyring(vectors.public_key, { backend }),
    pem: createKeyring(vectors.public_key_pem, { backend }),
  };

  for (const [keyForm, keys] of Object.entries(keyrings)) {
    describe(`public key as ${keyForm}`, () => {
      it.each(vectors.webhook_cases.filter((c) => c.expect === 'valid'))('$name: valid', async (c) => {
        const result = await verifyWebhook(caseRequest(c), { keys, now: new Date(c.now) });
        expect(result.eventId).toBe(c.headers['X-Event-Id']);
        expect(result.timestamp.toISOString()).toBe(c.headers['X-Event-Timestamp']!.replace('Z', '.000Z'));
        expect(result.keyIndex).toBe(0);
        expect(Buffer.from(result.body).toString('base64')).toBe(c.body_base64);
      });

      it.each(vectors.webhook_cases.filter((c) => c.expect === 'invalid'))(
        '$name: invalid ($reason)',
        async (c) => {
          const error = await rejection(verifyWebhook(caseRequest(c), { keys, now: new Date(c.now) }));
          expect(reasonOf(error.code)).toBe(c.reason);
          expect(error.status).toBe(401);
        },
      );
    });
  }

  it('uses the tolerance of the vector file', () => {
    expect(vectors.tolerance_seconds).toBe(300);
  });
});

describe.each(BACKENDS)('RFC 8032 §7.1 Ed25519 vectors (%s)', (backend) => {
  it.each(rfc8032.vectors)('$name: derives the public key, signs and verifies', async (v) => {
    const seed = hex(v.secret_key);
    const message = hex(v.message);
    expect(Buffer.from(await ed25519PublicKey(seed, backend)).toString('hex')).toBe(v.public_key);
    expect(Buffer.from(await ed25519Sign(seed, message, backend)).toString('hex')).toBe(v.signature);

    const keyring = createKeyring(hex(v.public_key), { backend });
    expect(await keyring.verify(hex(v.signature), message)).toBe(0);
    const flipped = hex(v.signature);
    flipped[10]! ^= 1;
    expect(await keyring.verify(flipped, message)).toBe(-1);
    const longer = Uint8Array.from([...message, 0]);
    expect(await keyring.verify(hex(v.signature), longer)).toBe(-1);
  });

  it('has the 1023-byte message of TEST 1024 exactly', () => {
    expect(hex(rfc8032.vectors.find((v) => v.name === 'TEST 1024')!.message)).toHaveLength(1023);
  });
});
