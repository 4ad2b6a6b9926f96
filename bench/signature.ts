/**
 * Webhook signature verification: `verifyWebhook` against the bare Ed25519 primitives on the very
 * message it verifies, at the same concurrency, in interleaved rounds. The ratio
 * verifyWebhook / raw Web Crypto is the kit's overhead (header checks, digest of the body, message
 * building); the goal is ≥ 90 %. On the 16 KiB body the ratio also pays for hashing 16 KiB, which
 * the raw primitives (given the finished message) never do.
 *
 * The kit runs twice: forced onto Web Crypto (the row the goal reads), and with its default backend,
 * which on Node is synchronous `node:crypto` (more verifications per CPU-second; fewer per second on
 * an otherwise idle machine, where Web Crypto's thread pool also uses the other cores).
 *
 * Two more rows put the kit in context: synchronous `node:crypto` verify (the per-core limit: no
 * thread hop), and the prior art's verification (prior-art-verify.ts: node-forge Ed25519 behind a
 * public-key fetch per call, as its SDK did it), measured against verifyWebhook in rounds of their
 * own, with the kit's speed-up over it.
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { createKeyring, verifyWebhook } from '@bnpl-kit/core';
import { generateKeyPair, signWebhook } from '@bnpl-kit/core/testing';
import { bodyDigestBackend, webhookBodyDigest, webhookMessage } from '@bnpl-kit/core/wire';
import * as ed from '@noble/ed25519';
import {
  type BenchModule,
  formatRate,
  type Measurement,
  measureInterleaved,
  pairedRatio,
  printTable,
} from './harness.js';
import { startPriorArtVerifier } from './prior-art-verify.js';

const URL = 'https://market.example.com/v1/webhook';
const CONCURRENCY = 32;

function jsonBody(targetBytes: number): Uint8Array {
  const base = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'ord_01J9Z3T7Q4', order_status: 'APPROVED' };
  const fill = Math.max(0, targetBytes - JSON.stringify({ ...base, note: '' }).length);
  return new TextEncoder().encode(JSON.stringify({ ...base, note: 'x'.repeat(fill) }));
}

async function benchBody(label: string, body: Uint8Array, rounds: number, roundMs: number) {
  const pair = await generateKeyPair();
  const keyring = createKeyring(pair.publicKey, { backend: 'webcrypto' });
  await keyring.warmUp();
  const signed = await signWebhook({ url: URL, body, signingKey: pair.privateKeyPem });
  const headers = signed.headers;
  const timestamp = headers['X-Event-Timestamp']!;
  const now = new Date(Date.parse(timestamp));
  const message = new TextEncoder().encode(
    webhookMessage({
      method: 'POST',
      url: URL,
      eventId: headers['X-Event-Id']!,
      timestamp,
      bodyDigest: await webhookBodyDigest(body),
    }),
  );
  const signature = Buffer.from(headers.Signature!, 'base64url');
  const publicKey = keyring.publicKeys[0]!;
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    publicKey as Uint8Array<ArrayBuffer>,
    'Ed25519',
    false,
    ['verify'],
  );
  const nodeKey = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
    format: 'der',
    type: 'spki',
  });
  const nodeVerifyAsync = () =>
    new Promise<boolean>((resolve, reject) =>
      nodeVerify(null, message, nodeKey, signature, (error, ok) => (error ? reject(error) : resolve(ok))),
    );

  const kitVerify = () => verifyWebhook({ url: URL, headers, body }, { keys: keyring, now });
  const defaultKeyring = createKeyring(pair.publicKey);
  const defaultBackend = await defaultKeyring.warmUp();
  const kitDefaultVerify = () => verifyWebhook({ url: URL, headers, body }, { keys: defaultKeyring, now });
  const priorArt = await startPriorArtVerifier(publicKey);
  try {
    // Every candidate must accept the signature, or the numbers compare different work.
    const checks = await Promise.all([
      priorArt.verify({ url: URL, headers, body }),
      verifyWebhook({ url: URL, headers, body }, { keys: keyring, now }).then(() => true),
      kitDefaultVerify().then(() => true),
      crypto.subtle.verify('Ed25519', cryptoKey, signature, message),
      nodeVerifyAsync(),
      ed.verifyAsync(signature, message, publicKey, { zip215: false }),
    ]);
    if (!checks.every(Boolean)) throw new Error(`a candidate rejected the benchmark signature: ${checks}`);

    const results = await measureInterleaved(
      [
        { name: 'verifyWebhook (Web Crypto)', op: kitVerify },
        { name: `verifyWebhook (default: ${defaultBackend})`, op: kitDefaultVerify },
        {
          name: 'raw crypto.subtle.verify',
          op: () => crypto.subtle.verify('Ed25519', cryptoKey, signature, message),
        },
        { name: 'raw node:crypto verify (async)', op: nodeVerifyAsync },
        { name: 'raw node:crypto verify (sync)', op: () => nodeVerify(null, message, nodeKey, signature) },
        {
          name: 'raw @noble/ed25519 verifyAsync',
          op: () => ed.verifyAsync(signature, message, publicKey, { zip215: false }),
        },
      ],
      { rounds, roundMs, concurrency: CONCURRENCY },
    );
    // Measured apart, kit against prior art only: node-forge's garbage would otherwise land in
    // whichever candidate's round follows it, and one prior-art batch outlasts a whole round.
    const [kit, prior] = await measureInterleaved(
      [
        { name: 'verifyWebhook (Web Crypto)', op: kitVerify },
        { name: PRIOR_ART, op: () => priorArt.verify({ url: URL, headers, body }) },
      ],
      { rounds: Math.max(3, Math.ceil(rounds / 2)), roundMs: roundMs * 4, concurrency: CONCURRENCY },
    );
    const raw = results[2]!;
    const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
    const times = (ratio: number) => `${ratio.toFixed(1)}×`;
    const row = (r: Measurement, versusRaw: boolean) => ({
      body: `${label} (${body.length} B)`,
      candidate: r.name,
      'verif./s (wall)': formatRate(r.opsPerSecond),
      'vs raw WebCrypto (wall)': versusRaw ? percent(pairedRatio(r, raw, 'wall')) : '',
      'verif./CPU-s': formatRate(r.opsPerCpuSecond),
      'vs raw WebCrypto (CPU)': versusRaw ? percent(pairedRatio(r, raw, 'cpu')) : '',
      'kit vs this (wall)': r === prior ? times(pairedRatio(kit!, prior!, 'wall')) : '',
      'kit vs this (CPU)': r === prior ? times(pairedRatio(kit!, prior!, 'cpu')) : '',
    });
    return [...results.map((r) => row(r, true)), row(prior!, false)];
  } finally {
    await priorArt.stop();
  }
}

const PRIOR_ART = 'prior art: key fetch + @credify/crypto verify';

const bench: BenchModule = {
  title: 'Webhook signature verification (Ed25519)',
  async run() {
    const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
    const roundMs = Number(process.env.BENCH_ROUND_MS ?? 120);
    console.log(
      `node ${process.version}, body digest: ${bodyDigestBackend}, concurrency ${CONCURRENCY}, ` +
        `${rounds} interleaved rounds of ${roundMs} ms per candidate, medians shown; ratios are medians of per-round ratios`,
    );
    const rows = [
      ...(await benchBody('small', jsonBody(200), rounds, roundMs)),
      ...(await benchBody('16 KiB', jsonBody(16 * 1024), rounds, roundMs)),
    ];
    printTable(rows);
    const load = loadavg()[0]!.toFixed(1);
    for (const row of rows.filter((r) => r.candidate.startsWith('verifyWebhook'))) {
      console.log(
        `ratio verifyWebhook / raw Web Crypto, ${row.body}: ${row['vs raw WebCrypto (CPU)']} by CPU cost, ` +
          `${row['vs raw WebCrypto (wall)']} by wall clock (load average ${load} on ${availableParallelism()} CPUs)`,
      );
    }
    for (const row of rows.filter((r) => r.candidate === PRIOR_ART)) {
      console.log(
        `verifyWebhook against the prior art, ${row.body}: ${row['kit vs this (CPU)']} its verifications per ` +
          `CPU-second, ${row['kit vs this (wall)']} per second (measured in rounds of their own)`,
      );
    }
  },
};

export default bench;
