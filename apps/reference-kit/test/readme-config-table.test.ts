/**
 * The README's configuration table writes every variable's default out by hand; this ties each one
 * to what `loadServerConfig` applies, without a second list of names or values: a variable set to
 * its documented default must load exactly the configuration nothing set loads, and a nonsense
 * value must be refused by that variable's name (so the variable is read at all). docs/protocol.md
 * states some of the same defaults in its own words (§8's table, R-SVC-04's prose): those are tied
 * to the same loader.
 */
import { readFileSync } from 'node:fs';
import { KitError } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { loadServerConfig } from '../src/index.js';

const defaults = { port: 3000, dataDir: '.data/basic' };
const load = (env: Record<string, string>) => loadServerConfig(env, { integrationMode: 'basic', defaults });

/**
 * Variables whose default cell is not one value: it depends on the mode or the server (PORT, HOST,
 * DATA_DIR), names something that is not a value (DATABASE_SCHEMA's search_path), or says what is
 * generated or required. A new row of that kind must be added here on purpose.
 */
const NOT_A_SINGLE_VALUE = new Set([
  'PORT',
  'APP_ID',
  'APP_API_KEY',
  'APP_SIGNING_KEY',
  'APP_PROVIDING_BASIC_PROFILE',
  'DATABASE_URL',
  'SERVICE_API_URL',
  'SERVICE_PUBLIC_KEY',
  'PUBLIC_BASE_URL',
  'MARKET_API_TOKEN',
  'BNPL_CALLBACK_URL',
  'HOST',
  'DATA_DIR',
  'DATABASE_SCHEMA',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
]);

interface Documented {
  name: string;
  value: string;
}

/** `variable | default | …` rows: one default per variable, in order, when a row names several. */
function documentedDefaults(readme: string): { values: Documented[]; others: string[] } {
  const start = readme.indexOf('| variable | default | sandbox | production |');
  expect(start, 'the README configuration table').toBeGreaterThan(-1);
  const rows = readme.slice(start).split('\n').slice(2);
  const values: Documented[] = [];
  const others: string[] = [];
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const [variables = '', value = ''] = row.split('|').slice(1, 3);
    const names = [...variables.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    const cells = value.split(',').map((cell) => cell.trim().replaceAll('`', ''));
    names.forEach((name, i) => {
      const cell = cells.length === names.length ? cells[i]! : value.trim();
      if (NOT_A_SINGLE_VALUE.has(name)) others.push(name);
      else values.push({ name, value: cell });
    });
  }
  return { values, others };
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (error) {
    if (error instanceof KitError) return (error.errors ?? []).map((e) => e.path);
    throw error;
  }
  return [];
}

describe('the README configuration table', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const { values, others } = documentedDefaults(readme);

  it('documents one default per variable in at least the rows it always had', () => {
    expect(values.map((v) => v.name)).toEqual(
      expect.arrayContaining([
        'MODE',
        'WEBHOOK_TOLERANCE_SECONDS',
        'TRUST_PROXY',
        'JOB_LEASE_MS',
        'RETENTION_DAYS',
      ]),
    );
    // Every exception names a row the table still has: the list cannot hide a removed one.
    expect(new Set(others)).toEqual(NOT_A_SINGLE_VALUE);
  });

  for (const { name, value } of values) {
    it(`${name}: ${value} is the default the servers apply, and the variable is read`, () => {
      expect(load({ [name]: value })).toEqual(load({}));
      expect(problemsOf({ [name]: 'not-a-value' })).toContain(name);
    });
  }
});

/**
 * The defaults docs/protocol.md states: "default 300" in a §8 row, "`per-scope` (default)", and
 * prose such as "(default 8 s, `SERVICE_TIMEOUT_MS`)" (seconds, for a variable counted in ms) or
 * "By default (`CLAIM_SCOPE_HASH=per-scope`)".
 */
function protocolDefaults(protocol: string): Documented[] {
  const found: Documented[] = [];
  const section = protocol.slice(protocol.indexOf('## §8.'), protocol.indexOf('## §9.'));
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const [variable = '', meaning = ''] = row.split('|').slice(1, 3);
    const name = /`([A-Z][A-Z0-9_]*)`/.exec(variable)?.[1];
    const value = /default (\d+)/.exec(meaning)?.[1] ?? /`([^`]+)` \(default\)/.exec(meaning)?.[1];
    if (name && value) found.push({ name, value });
  }
  for (const [, seconds, name] of protocol.matchAll(/\(default (\d+) s, `([A-Z][A-Z0-9_]*_MS)`\)/g)) {
    found.push({ name: name!, value: String(Number(seconds) * 1000) });
  }
  for (const [, name, value] of protocol.matchAll(/default \(`([A-Z][A-Z0-9_]*)=([^`]+)`\)/g)) {
    found.push({ name: name!, value: value! });
  }
  return found;
}

describe("docs/protocol.md's configuration defaults", () => {
  const protocol = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
  const stated = protocolDefaults(protocol);

  it('are found where the protocol states them', () => {
    expect(stated.map((d) => d.name).sort()).toEqual(
      expect.arrayContaining([
        'CLAIM_SCOPE_HASH',
        'CLAIM_SCOPE_HASH',
        'SERVICE_TIMEOUT_MS',
        'SERVICE_TIMEOUT_MS',
        'WEBHOOK_TOLERANCE_SECONDS',
      ]),
    );
  });

  for (const { name, value } of stated) {
    it(`${name}: ${value} is the default the servers apply`, () => {
      expect(load({ [name]: value })).toEqual(load({}));
    });
  }
});
