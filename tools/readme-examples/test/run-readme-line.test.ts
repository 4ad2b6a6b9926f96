/** How a README line is changed to run here: ports only, and a certify line's wait per answer. */
import { describe, expect, it } from 'vitest';
import { withFreePorts } from '../src/run-readme-line.js';

describe('withFreePorts', () => {
  it("moves the README's market port and leaves a line that is no certify line otherwise as written", async () => {
    const line = await withFreePorts('curl -s http://127.0.0.1:3000/bnpl/health');
    expect(line).toMatch(/^curl -s http:\/\/127\.0\.0\.1:\d+\/bnpl\/health$/);
    expect(line).not.toContain(':3000/');
  });

  it('gives a certify line a free sandbox port and a wait per answer a busy machine stays within', async () => {
    const line = await withFreePorts(
      'npx bnpl-kit certify --mode basic --market-url http://127.0.0.1:3000/bnpl --start-command "node server.mjs"',
    );
    expect(line).toMatch(
      /^npx bnpl-kit certify --mode basic --market-url http:\/\/127\.0\.0\.1:\d+\/bnpl --start-command "node server\.mjs" --sandbox-port \d+ --request-timeout 60$/,
    );
  });
});
