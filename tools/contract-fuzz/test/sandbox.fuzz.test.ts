/**
 * The sandbox's documents (docs/openapi/service.json, sandbox-admin.json), fuzzed from the outside
 * against a standalone sandbox server, as the market documents are (market.fuzz.test.ts). The admin
 * API is open (no admin token), as it is when the sandbox is embedded; its destructive operations run
 * on a sandbox of their own.
 */
import { startSandboxServer } from '@bnpl-kit/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { documentNamed, fuzzer, operationsOf, summary, type Target } from '../src/fuzz.js';

const API_KEY = 'sk_test_fuzz_market_key';
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  console.log(summary());
  for (const close of closers.reverse()) await close();
});

async function startSandbox(): Promise<Target> {
  const server = await startSandboxServer({
    port: 0,
    host: '127.0.0.1',
    organizations: [{ id: 'org-fuzz', apiKeys: [API_KEY], webhookUrls: ['http://127.0.0.1:9/v1/webhook'] }],
  });
  closers.push(() => server.close());
  const token = await fetch(`${server.url}/v1/token`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
  const { data } = (await token.json()) as { data: { access_token: string } };
  return {
    origin: server.url,
    credentials: {
      apiKey: { 'x-api-key': API_KEY },
      bearer: { authorization: `Bearer ${data.access_token}` },
    },
  };
}

describe.each(['service.json', 'sandbox-admin.json'])('%s from the outside', (name) => {
  const document = documentNamed(name);
  const fuzz = fuzzer(document);
  let target: Target;

  it('starts a sandbox', async () => {
    target = await startSandbox();
    expect(target.origin).toMatch(/^http:/);
  });

  it.each(operationsOf(document).map((op) => [op.operation.operationId, op] as const))(
    '%s: every answer is documented',
    (_name, op) => fuzz(name, op, target),
  );
});
