import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseRequest, hex, rfc8032, vectors } from './helpers.js';

function isEd25519(arg: unknown): boolean {
  return (
    arg === 'Ed25519' ||
    (typeof arg === 'object' && arg !== null && (arg as { name?: unknown }).name === 'Ed25519')
  );
}

// Simulates a runtime whose Web Crypto has no Ed25519 (older browsers, some edge runtimes).
function withoutWebCryptoEd25519(): void {
  const subtle = crypto.subtle;
  for (const method of ['importKey', 'verify', 'sign'] as const) {
    const original = subtle[method].bind(subtle) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(subtle, method).mockImplementation(((...args: unknown[]) =>
      args.some(isEd25519)
        ? Promise.reject(new DOMException('Unrecognized algorithm name', 'NotSupportedError'))
        : original(...args)) as never);
  }
}

// Simulates a runtime that offers no node:crypto (a browser, Workers, or Node before 20.16): the
// kit finds it only through `process.getBuiltinModule`.
function withoutNodeCrypto(): void {
  vi.spyOn(process, 'getBuiltinModule').mockImplementation((() => undefined) as never);
}

// Fresh module instances, so the cached Web Crypto probe and the node:crypto lookup start over.
async function freshCore() {
  vi.resetModules();
  const core = await import('../../src/index.js');
  const testing = await import('../../src/testing.js');
  const { hasWebCryptoEd25519 } = await import('../../src/signature/ed25519.js');
  return { ...core, ...testing, hasWebCryptoEd25519 };
}

type FreshCore = Awaited<ReturnType<typeof freshCore>>;

/** Whether each shared vector verifies with `keyring`, against what the vector expects. */
async function expectVectorVerdicts(core: FreshCore, keyring: ReturnType<FreshCore['createKeyring']>) {
  for (const c of vectors.webhook_cases) {
    const outcome = await core
      .verifyWebhook(caseRequest(c), { keys: keyring, now: new Date(c.now) })
      .then(() => 'valid')
      .catch((e: { code: string }) => e.code);
    expect(outcome === 'valid' ? 'valid' : 'invalid').toBe(c.expect);
  }
}

/** What verifying the first vector with `backend` forced rejects with. */
function forcedBackendError(core: FreshCore, backend: 'node' | 'webcrypto'): Promise<unknown> {
  const c = vectors.webhook_cases[0]!;
  return core
    .verifyWebhook(caseRequest(c), { keys: vectors.public_key, now: new Date(c.now), backend })
    .catch((e: unknown) => e);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backend selection', () => {
  it('auto uses node:crypto on Node, synchronously: no Web Crypto call and no thread-pool round trip', async () => {
    const core = await freshCore();
    const keyring = core.createKeyring(vectors.public_key);
    expect(await keyring.warmUp()).toBe('node');
    const subtleVerify = vi.spyOn(crypto.subtle, 'verify');
    await expectVectorVerdicts(core, keyring);
    expect(subtleVerify).not.toHaveBeenCalled();

    // Already settled when returned: its answer is there after one microtask, where a thread-pool
    // round trip would still be pending.
    const v = rfc8032.vectors[0]!;
    let answer: number | undefined;
    void core
      .createKeyring(hex(v.public_key))
      .verify(hex(v.signature), hex(v.message))
      .then((index) => {
        answer = index;
      });
    await Promise.resolve();
    expect(answer).toBe(0);
  });

  it('auto uses Web Crypto where it has Ed25519 and node:crypto is not offered', async () => {
    withoutNodeCrypto();
    const core = await freshCore();
    expect(await core.hasWebCryptoEd25519()).toBe(true);
    expect(await core.createKeyring(vectors.public_key).warmUp()).toBe('webcrypto');
  });

  it("forcing 'node' where node:crypto is not offered is reported as misconfiguration", async () => {
    withoutNodeCrypto();
    const core = await freshCore();
    const error = await forcedBackendError(core, 'node');
    expect(error).toMatchObject({ code: 'misconfigured' });
    expect(String((error as Error).message)).toMatch(/backend 'auto', 'webcrypto' or 'noble'/);
  });

  it('auto falls back to @noble/ed25519 where Web Crypto lacks Ed25519, for verifying and signing', async () => {
    withoutNodeCrypto();
    withoutWebCryptoEd25519();
    const core = await freshCore();
    expect(await core.hasWebCryptoEd25519()).toBe(false);
    const keyring = core.createKeyring(vectors.public_key);
    expect(await keyring.warmUp()).toBe('noble');

    await expectVectorVerdicts(core, keyring);
    const signed = await core.signWebhook({
      url: vectors.webhook_cases[0]!.webhook_url,
      body: Buffer.from(vectors.webhook_cases[0]!.body_base64, 'base64'),
      signingKey: vectors.signing_key_pkcs8_pem,
      eventId: 'evt_0001',
      timestamp: '2026-11-21T10:00:00Z',
    });
    expect(signed.headers.Signature).toBe(vectors.webhook_cases[0]!.headers.Signature);
    const pair = await core.generateKeyPair();
    expect(pair.publicKey).toHaveLength(43);
  });

  it('forcing Web Crypto where it lacks Ed25519 is reported as misconfiguration, not as a bad signature', async () => {
    withoutWebCryptoEd25519();
    const core = await freshCore();
    const error = await forcedBackendError(core, 'webcrypto');
    expect(error).toMatchObject({ code: 'misconfigured' });
    expect(String((error as Error).message)).toMatch(/backend 'auto' or 'noble'/);
  });
});
