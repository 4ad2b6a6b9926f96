import { readFileSync } from 'node:fs';
import { KitError } from '@bnpl-kit/core';
import { RECOMMENDED_SERVER_LIMITS } from '@bnpl-kit/core/node';
import { DEFAULT_RECONCILIATION, DEFAULT_RETENTION, webhookReplayWindowMs } from '@bnpl-kit/store/worker';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAIN_GRACE_MS } from '../src/config.js';
import { formatConfigProblems, loadServerConfig } from '../src/index.js';

const defaults = { port: 3001, dataDir: '.data/test' };
const load = (env: Record<string, string | undefined>, integrationMode: 'basic' | 'data-sharing' = 'basic') =>
  loadServerConfig(env, { integrationMode, defaults });

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    return ((error as KitError).errors ?? []).map((e) => e.path);
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadServerConfig', () => {
  it('runs in sandbox mode with nothing set: embedded sandbox, hono, loopback, the mode defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      mode: 'sandbox',
      framework: 'hono',
      host: '127.0.0.1',
      port: 3001,
      dataDir: '.data/test',
      embeddedSandbox: true,
      jobLeaseMs: 60_000,
      logLevel: 'info',
    });
  });

  it('reads the server variables', () => {
    const config = load({
      FRAMEWORK: 'koa',
      HOST: '0.0.0.0',
      PORT: '4000',
      DATA_DIR: '/tmp/x',
      JOB_LEASE_MS: '2000',
    });
    expect(config).toMatchObject({
      framework: 'koa',
      host: '0.0.0.0',
      port: 4000,
      dataDir: '/tmp/x',
      jobLeaseMs: 2000,
    });
  });

  it('refuses production without keys, auth configuration or a real service, listing every problem', () => {
    const paths = problemsOf(() => load({ MODE: 'production', FRAMEWORK: 'rails' }, 'data-sharing'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'APP_ID',
        'APP_API_KEY',
        'APP_SIGNING_KEY',
        'SERVICE_API_URL',
        'PUBLIC_BASE_URL',
        'MARKET_API_TOKEN',
        'BNPL_CALLBACK_URL',
        'FRAMEWORK',
        'MODE',
      ]),
    );
  });

  it('accepts a complete production configuration', () => {
    const config = load({
      MODE: 'production',
      APP_ID: 'org-1',
      APP_API_KEY: 'sk_live_123456789',
      SERVICE_API_URL: 'https://api.service.example',
      PUBLIC_BASE_URL: 'https://market.example',
      MARKET_API_TOKEN: 'x'.repeat(40),
      BNPL_CALLBACK_URL: 'https://market.example/bnpl/done',
    });
    expect(config).toMatchObject({ mode: 'production', embeddedSandbox: false, host: '0.0.0.0' });
    expect(JSON.stringify(config)).not.toContain('x'.repeat(40));
  });

  it('needs the organisation keys when pointed at an external service in sandbox mode', () => {
    const paths = problemsOf(() => load({ SERVICE_API_URL: 'http://127.0.0.1:4010' }, 'data-sharing'));
    expect(paths.sort()).toEqual(['APP_API_KEY', 'APP_ID', 'APP_SIGNING_KEY']);
  });

  it('refuses a service public key with the embedded sandbox, whose key is generated', () => {
    expect(problemsOf(() => load({ SERVICE_PUBLIC_KEY: 'abc' }))).toEqual(['SERVICE_PUBLIC_KEY']);
  });

  it('formats the refusal one line per problem', () => {
    try {
      load({ FRAMEWORK: 'flask', LOG_LEVEL: 'loud' });
    } catch (error) {
      const text = formatConfigProblems(error as KitError, 'basic-server');
      expect(text).toContain('basic-server cannot start: the configuration has 2 problem(s)');
      expect(text).toContain('  - FRAMEWORK must be one of express, koa, hono');
      expect(text).toContain('  - LOG_LEVEL ');
    }
  });
});

describe('the connection limits', () => {
  it("default to core's recommended settings, read IDLE_TIMEOUT_MS and MAX_CONNECTIONS, refuse nonsense", () => {
    const { idleTimeoutMs, maxConnections, headersTimeoutMs, requestTimeoutMs } = RECOMMENDED_SERVER_LIMITS;
    expect(load({})).toMatchObject({ idleTimeoutMs, maxConnections, headersTimeoutMs, requestTimeoutMs });
    expect(load({ IDLE_TIMEOUT_MS: '500', MAX_CONNECTIONS: '20' })).toMatchObject({
      idleTimeoutMs: 500,
      maxConnections: 20,
    });
    expect(problemsOf(() => load({ IDLE_TIMEOUT_MS: '0', MAX_CONNECTIONS: 'many' }))).toEqual([
      'IDLE_TIMEOUT_MS',
      'MAX_CONNECTIONS',
    ]);
  });

  it('are documented with those defaults in the README configuration table and operations.md', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const { idleTimeoutMs, maxConnections } = RECOMMENDED_SERVER_LIMITS;
    expect(readme).toContain(
      `| \`IDLE_TIMEOUT_MS\`, \`MAX_CONNECTIONS\` *(reference servers)* | ${idleTimeoutMs}, ${maxConnections} |`,
    );
    const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    expect(operations).toContain(`\`IDLE_TIMEOUT_MS\` (${idleTimeoutMs / 1000} s)`);
    expect(operations).toContain(`\`MAX_CONNECTIONS\` (${maxConnections})`);
  });
});

describe('the worker settings', () => {
  it('default to reconciliation on and the published defaults, documented in the README table', () => {
    const config = load({});
    expect(config.reconciliation).toEqual({
      afterMs: DEFAULT_RECONCILIATION.afterMs,
      everyMs: DEFAULT_RECONCILIATION.everyMs,
    });
    expect(config.retentionMs).toBe(DEFAULT_RETENTION.afterMs);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`| on, ${DEFAULT_RECONCILIATION.afterMs}, ${DEFAULT_RECONCILIATION.everyMs} |`);
    expect(readme).toContain(
      `| \`RETENTION_DAYS\` *(reference servers)* | ${DEFAULT_RETENTION.afterMs / 86_400_000} |`,
    );
  });

  it('read RECONCILIATION, RECONCILE_AFTER_MS, RECONCILE_EVERY_MS and RETENTION_DAYS', () => {
    expect(load({ RECONCILIATION: 'off' }).reconciliation).toBe(false);
    expect(
      load({ RECONCILE_AFTER_MS: '120000', RECONCILE_EVERY_MS: '5000', RETENTION_DAYS: '30' }),
    ).toMatchObject({
      reconciliation: { afterMs: 120_000, everyMs: 5_000 },
      retentionMs: 30 * 86_400_000,
    });
    expect(problemsOf(() => load({ RECONCILIATION: 'maybe', RECONCILE_AFTER_MS: '10' })).sort()).toEqual(
      ['RECONCILE_AFTER_MS', 'RECONCILIATION'].sort(),
    );
  });

  it('refuse a retention inside the webhook replay window, which the tolerance widens', () => {
    const replayDays = webhookReplayWindowMs(300) / 86_400_000;
    expect(problemsOf(() => load({ RETENTION_DAYS: String(replayDays) }))).toEqual(['RETENTION_DAYS']);
    const justOver = String(replayDays * 1.01);
    expect(load({ RETENTION_DAYS: justOver }).retentionMs).toBeGreaterThan(webhookReplayWindowMs(300));
    expect(problemsOf(() => load({ RETENTION_DAYS: justOver, WEBHOOK_TOLERANCE_SECONDS: '3600' }))).toEqual([
      'RETENTION_DAYS',
    ]);
  });
});

describe('the drain grace period', () => {
  it('reads DRAIN_GRACE_MS, defaults to the documented value, refuses nonsense', () => {
    expect(load({}).drainGraceMs).toBe(DEFAULT_DRAIN_GRACE_MS);
    expect(load({ DRAIN_GRACE_MS: '0' }).drainGraceMs).toBe(0);
    expect(problemsOf(() => load({ DRAIN_GRACE_MS: '-1' }))).toEqual(['DRAIN_GRACE_MS']);
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`| \`DRAIN_GRACE_MS\` *(reference servers)* | ${DEFAULT_DRAIN_GRACE_MS} |`);
    const operations = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    expect(operations).toContain(`\`DRAIN_GRACE_MS\` (${DEFAULT_DRAIN_GRACE_MS / 1000} s)`);
  });
});
