/**
 * What a newcomer is told: keys printed until a start succeeds, the exact webhook URL to register
 * (and a warning naming it when a webhook fails under another host), and a walkthrough whose
 * `webhooks` step waits for the deliveries it prints.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureSandboxKeys, loadServerConfig, startBanner, walkthroughScript } from '../src/index.js';
import { webhookHostHint } from '../src/webhook-host-hint.js';
import { http, marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer, tempDir } from './helpers/servers.js';

const run = promisify(execFile);
const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.close();
    await removeDir(server.dataDir);
  }
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** The basic server's banner on port 3000 with its embedded sandbox, but for `changes`. */
const basicBanner = (changes: Partial<Parameters<typeof startBanner>[0]>) =>
  startBanner({
    mode: 'basic',
    baseUrl: 'http://127.0.0.1:3000',
    marketApiToken: 'mkt_x',
    apiKey: 'sk_x',
    name: 'basic-server',
    framework: 'hono',
    database: 'PGlite',
    serviceUrl: 'http://127.0.0.1:3000/sandbox-service',
    embedded: true,
    keyExports: [],
    keyFile: undefined,
    webhookUrl: 'http://127.0.0.1:3000/v1/webhook',
    ...changes,
  });

async function start(mode: 'basic' | 'data-sharing' = 'basic') {
  const server = await startTestServer({ mode });
  servers.push(server);
  return server;
}

describe('sandbox keys', () => {
  it('are printed on every start until one succeeds, then the banner says where they are', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const config = loadServerConfig(
      { DATA_DIR: dataDir },
      { integrationMode: 'basic', defaults: { port: 0, dataDir } },
    );
    // A first start that failed after generating the keys (port in use) never called markShown.
    const failed = await ensureSandboxKeys(config);
    const names = (lines: readonly string[]) => lines.map((line) => line.split('=')[0]);
    expect(names(failed.unshownExports)).toEqual([
      'export APP_ID',
      'export APP_API_KEY',
      'export MARKET_API_TOKEN',
    ]);
    const next = await ensureSandboxKeys(config);
    expect(next.generatedExports).toEqual([]);
    expect(next.unshownExports).toEqual(failed.unshownExports);
    await next.markShown();
    const later = await ensureSandboxKeys(config);
    expect(later.unshownExports).toEqual([]);
    expect(later.appId).toBe(failed.appId);

    const banner = basicBanner({ keyExports: later.unshownExports, keyFile: later.file });
    expect(banner).toContain(`Sandbox keys: in ${later.file}`);
  });
});

describe('the webhook URL to register', () => {
  it('is printed for an external service, with the walkthrough pointed at it', () => {
    const banner = basicBanner({ serviceUrl: 'http://127.0.0.1:4010', embedded: false });
    expect(banner).toContain('webhooks: register exactly http://127.0.0.1:3000/v1/webhook with the service');
    expect(banner).toContain('\nSERVICE=http://127.0.0.1:4010\n');
  });

  it('is named when a webhook fails verification under another host, once per host', async () => {
    expect(webhookHostHint('127.0.0.1:3000', 'http://127.0.0.1:3000/v1/webhook')).toBeUndefined();
    expect(webhookHostHint('localhost:3000', 'http://127.0.0.1:3000/v1/webhook')).toMatch(
      /^A webhook sent to http:\/\/localhost:3000\/v1\/webhook failed verification.*Register exactly http:\/\/127\.0\.0\.1:3000\/v1\/webhook /,
    );

    const server = await start();
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}/v1/webhook`,
          {
            method: 'POST',
            headers: { host: `localhost:${server.port}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    expect(await post()).toBe(401);
    expect(await post()).toBe(401);
    const hints = server.logs.filter((line) =>
      line.includes('failed verification, but this server verifies'),
    );
    expect(hints).toHaveLength(1);
    expect(hints[0]).toContain(`Register exactly ${server.publicBaseUrl}/v1/webhook`);
  });
});

describe('the walkthrough', () => {
  it('webhooks waits for a delivery whose first attempt has not happened yet', async () => {
    const server = await start();
    const token = server.marketApiToken.reveal();
    const orderId = await marketClient(server.url, token).createOrder();
    const admin = `${server.embedded!.serviceUrl}/sandbox`;
    const fault = await http(`${admin}/faults`, {
      json: { target: 'webhook', action: 'delay', delay_ms: 1500 },
    });
    expect(fault.status).toBe(201);
    expect((await http(`${admin}/orders/${orderId}/approve`, { json: {} })).status).toBe(200);

    const script = walkthroughScript({
      mode: 'basic',
      baseUrl: server.publicBaseUrl,
      marketApiToken: token,
      apiKey: '',
    });
    const helpers = script.slice(0, script.indexOf('\n# 1.'));
    const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', `${helpers}\nwebhooks ${orderId}`], {
      timeout: 200_000, // a hang, never a slow machine (as child-server.ts's listen deadline)
    });
    expect(stdout).toBe('BNPL_ORDER_STATUS_UPDATED APPROVED -> 200 {"received":true}\n');
  });
});
