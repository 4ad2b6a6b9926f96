/**
 * The prior art's webhook verification, as its SDK did it, for the signature benchmark's ratio.
 *
 * `@credify/nodejs` 1.21.0, `Auth.prototype.verifyWebhook(signature, body, endpoint, eventId,
 * timestamp)` (found in the dist/index.js vendored in credify-pte-ltd/bnpl-skeleton-nodejs, whose
 * market handler `handlers/webhook.js` in credify-pte-ltd/serviceX-skeleton-nodejs calls it on every
 * delivery): GET `/entity/public-key?entity_id=<ecosystem id>` through axios on every call, a new
 * `@credify/crypto` `Signing` with `importPublicKey(pem)`, `sha256(body)` of the parsed JSON body
 * (`JSON.stringify` again, then SHA-256, base64url), the message `POST\n<endpoint>\n<eventId>\n
 * <timestamp>\n<digest>`, and `verify(message, signature, { encode: 'base64Url' })`, which is
 * node-forge's pure-JavaScript Ed25519. Here the key comes from a local HTTP server in its own
 * process (servers/public-key.ts) through `fetch` instead of axios: the same round trip, no more.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// CommonJS whose named exports Node's ESM loader cannot detect: loaded with require.
const { sha256: priorArtSha256, Signing } = createRequire(import.meta.url)(
  '@credify/crypto',
) as typeof import('@credify/crypto');

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A raw 32-byte Ed25519 public key as the SPKI PEM the prior art's key endpoint answered with. */
export function publicKeyPem(raw: Uint8Array): string {
  const base64 = Buffer.concat([SPKI_ED25519_PREFIX, raw]).toString('base64');
  return `-----BEGIN PUBLIC KEY-----\n${base64}\n-----END PUBLIC KEY-----`;
}

export interface PriorArtVerifier {
  verify(input: { url: string; headers: Record<string, string>; body: Uint8Array }): Promise<boolean>;
  stop(): Promise<void>;
}

/** Starts the key server for `publicKey` and returns the prior art's verification against it. */
export async function startPriorArtVerifier(publicKey: Uint8Array): Promise<PriorArtVerifier> {
  const child = fork(
    fileURLToPath(new URL('./servers/public-key.ts', import.meta.url)),
    [publicKeyPem(publicKey)],
    { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const [message] = (await once(child, 'message')) as [{ port: number }];
  const keyUrl = `http://127.0.0.1:${message.port}/entity/public-key?entity_id=bench`;
  const text = new TextDecoder();
  return {
    async verify({ url, headers, body }) {
      const answer = (await (await fetch(keyUrl)).json()) as { data?: { signing?: string } };
      const pem = answer.data?.signing ?? '';
      if (pem === '') throw new Error('Public key is not found.');
      const signing = new Signing();
      signing.importPublicKey(pem);
      // The SDK got the body already parsed (express.json()) and hashed JSON.stringify of it.
      const digest = priorArtSha256(JSON.parse(text.decode(body)));
      const signed = `POST\n${url}\n${headers['X-Event-Id']}\n${headers['X-Event-Timestamp']}\n${digest}`;
      return signing.verify(signed, headers.Signature!, { encode: 'base64Url' });
    },
    async stop() {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
