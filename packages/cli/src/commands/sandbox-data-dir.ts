/**
 * `bnpl-kit sandbox --data-dir <dir>`: a standalone sandbox that remembers. Its records go to an
 * embedded PostgreSQL (PGlite) in `<dir>/pglite`, and the secrets it would otherwise generate per
 * run (webhook signing key, API key, the organisation's signing key) to `<dir>/sandbox-keys.json`
 * (mode 0600), so that after a restart the market's configuration and stored order IDs still fit.
 * The store is imported only when the option is given: a plain `bnpl-kit sandbox` loads no database.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { base64UrlEncode } from '@bnpl-kit/core/wire';
import { generateApiKey, type SandboxRecordStore } from '@bnpl-kit/sandbox';

const text = (value: unknown, min: number): value is string =>
  typeof value === 'string' && value.length >= min;

export interface RememberedKeys {
  webhookSigningKey: string;
  apiKey: string;
  appSigningKey: string;
}

const randomKey = () => base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));

/** The keys of an earlier run in `dir`, or new ones written there for the next. */
export async function rememberedKeys(dir: string): Promise<RememberedKeys> {
  const file = join(dir, 'sandbox-keys.json');
  let saved: string | undefined;
  try {
    saved = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (saved !== undefined) {
    const k = JSON.parse(saved) as Record<string, unknown>;
    if (!text(k.webhook_signing_key, 1) || !text(k.api_key, 8) || !text(k.app_signing_key, 1)) {
      throw new Error(`${file} is not a sandbox key file; move it away to start afresh`);
    }
    return { webhookSigningKey: k.webhook_signing_key, apiKey: k.api_key, appSigningKey: k.app_signing_key };
  }
  const keys = { webhookSigningKey: randomKey(), apiKey: generateApiKey(), appSigningKey: randomKey() };
  await mkdir(dir, { recursive: true });
  const body = {
    webhook_signing_key: keys.webhookSigningKey,
    api_key: keys.apiKey,
    app_signing_key: keys.appSigningKey,
  };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return keys;
}

/** The sandbox's record store in `<dir>/pglite`, and how to close it. */
export async function openSandboxRecords(
  dir: string,
): Promise<{ records: SandboxRecordStore; location: string; close(): Promise<void> }> {
  const { openStore, sandboxRecords } = await import('@bnpl-kit/store');
  const store = await openStore({ dataDir: join(dir, 'pglite') });
  return {
    records: sandboxRecords(store, 'standalone'),
    location: store.location,
    close: () => store.close(),
  };
}
