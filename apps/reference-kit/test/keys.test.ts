import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSigningKey } from '@bnpl-kit/core/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureSandboxKeys, loadServerConfig, publicKeyOf } from '../src/index.js';
import { removeDir, tempDir } from './helpers/servers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function configIn(env: Record<string, string> = {}) {
  const dataDir = await tempDir();
  dirs.push(dataDir);
  return loadServerConfig(
    { DATA_DIR: dataDir, ...env },
    {
      integrationMode: 'data-sharing',
      defaults: { port: 0, dataDir },
    },
  );
}

describe('ensureSandboxKeys', () => {
  it('generates the missing keys once, keeps them in a 0600 file and prints them as export lines', async () => {
    const config = await configIn();
    const first = await ensureSandboxKeys(config);
    expect(first.generatedExports.map((l) => l.split('=')[0])).toEqual([
      'export APP_ID',
      'export APP_API_KEY',
      'export MARKET_API_TOKEN',
      'export APP_SIGNING_KEY',
    ]);
    const file = join(config.dataDir, 'keys.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(parseSigningKey(first.appSigningKey!.reveal())).toHaveLength(32);
    expect(publicKeyOf(first.appSigningKey!.reveal())).toMatch(/^[\w-]{43}$/);
    expect(Object.keys(first.demoSessions)).toEqual(['user-an', 'user-binh']);

    const second = await ensureSandboxKeys(config);
    expect(second.generatedExports).toEqual([]);
    expect(second.appId).toBe(first.appId);
    expect(second.marketApiToken.reveal()).toBe(first.marketApiToken.reveal());
    expect(second.demoSessions).toEqual(first.demoSessions);
    expect(JSON.parse(await readFile(file, 'utf8')).APP_ID).toBe(first.appId);
  });

  it('lets the environment win over the file', async () => {
    const config = await configIn({ APP_ID: 'org-from-env', MARKET_API_TOKEN: 'mkt_from_env_0123456789' });
    const keys = await ensureSandboxKeys(config);
    expect(keys.appId).toBe('org-from-env');
    expect(keys.marketApiToken.reveal()).toBe('mkt_from_env_0123456789');
    expect(keys.generatedExports.join('\n')).not.toContain('APP_ID');
  });
});
