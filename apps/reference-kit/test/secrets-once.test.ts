/**
 * Issue 10, reproduction 8: the sandbox banner shows generated secrets until a start that printed
 * them succeeded (issue 13: not only on the start that generated them, which may fail). A restart on the same DATA_DIR prints none; its walkthrough reads the token back
 * from the environment or the key file instead.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sandboxBanner } from '../src/index.js';
import { removeDir, startTestServer, tempDir } from './helpers/servers.js';

async function bannerOfOneStart(dataDir: string): Promise<{ banner: string; token: string; apiKey: string }> {
  const server = await startTestServer({ mode: 'data-sharing', dataDir });
  try {
    const banner = sandboxBanner(server, 'data-sharing-server');
    // What runReferenceServer does once the banner is out: this start showed the keys.
    await server.keys?.markShown();
    return {
      banner,
      token: server.marketApiToken.reveal(),
      apiKey: server.keys!.appApiKey.reveal(),
    };
  } finally {
    await server.close();
  }
}

describe('sandbox secrets in the start banner', () => {
  it('are printed on generation only; a restart reads them back from the key file', async () => {
    const dataDir = await tempDir();
    try {
      const first = await bannerOfOneStart(dataDir);
      expect(first.banner).toContain(`export MARKET_API_TOKEN='${first.token}'`);
      const second = await bannerOfOneStart(dataDir);
      expect(second.token).toBe(first.token);
      for (const secret of [first.token, first.apiKey]) expect(second.banner).not.toContain(secret);
      expect(second.banner).not.toContain('export ');
      const lines = second.banner.split('\n').filter((line) => /^(TOKEN|API_KEY)=/.test(line));
      expect(lines).toHaveLength(2);
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-c', `${lines.join('\n')}; printf '%s %s' "$TOKEN" "$API_KEY"`],
        {
          env: { PATH: process.env.PATH },
        },
      );
      expect(stdout).toBe(`${first.token} ${first.apiKey}`);
    } finally {
      await removeDir(dataDir);
    }
  });
});
