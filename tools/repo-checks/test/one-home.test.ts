/**
 * Facts with one home (issue 31): no package parses `Authorization: Bearer` with its own regular
 * expression; they all call core's `parseBearerToken` / `bearerToken` (packages/core/src/util/bearer.ts).
 * And no test helper takes a port for a later listen from `listen(0)`: they all call
 * `@bnpl-kit/test-ports` (its README says why such a port can be gone by the time it is used).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeScriptFiles } from '../src/imports.js';
import { REPO_ROOT } from '../src/workspace.js';

const HOME = 'packages/core/src/util/bearer.ts';
/** A regular expression literal or a string test that reads the Bearer scheme. */
const PARSES_BEARER = /\/\^?\s*bearer[\s\\[(]|\.startsWith\(\s*['"`]bearer /i;

describe('one home for each fact', () => {
  it('parses Authorization: Bearer only in core’s util/bearer.ts', () => {
    const roots = ['packages', 'contract-tests', 'apps'].map((dir) => join(REPO_ROOT, dir));
    const copies = roots
      .flatMap(typeScriptFiles)
      .map((file) => relative(REPO_ROOT, file))
      .filter((file) => file !== HOME && file.includes('/src/'))
      .filter((file) => PARSES_BEARER.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });

  it('recognises a copy (the check is not vacuous)', () => {
    expect(PARSES_BEARER.test(readFileSync(join(REPO_ROOT, HOME), 'utf8'))).toBe(true);
    expect(PARSES_BEARER.test('/^Bearer (\\S+)$/.exec(header)')).toBe(true);
  });
});

/**
 * A port read from a server listening on port 0, and that server closed again within the next two
 * lines: the port is handed on for a later listen. (A server that stays up, closed in a `close:`
 * property or an `afterAll`, does not match.)
 */
const PORT_FROM_LISTEN_0 =
  /\.listen\(\s*0\b[^\n]*\n(?:[^\n]*\n){0,2}?[^\n]*\.address\(\)[^\n]*\n(?:[^\n]*\n){0,1}?\s*(?:await\s+new Promise[^\n]*\.close\(|\w+\.close\()/;
/** Where the pattern is on purpose, and why. */
const LISTEN_0_ALLOWED: Record<string, string> = {
  // Shows certify's hint for a port inside the ephemeral range: it needs such a port.
  'contract-tests/test/ephemeral-ports.test.ts': 'the class itself, as certify explains it',
  // Published source (may not depend on the private test-ports); binds within milliseconds and
  // starts again on another port when PgBouncer finds its port taken.
  'packages/store/src/testing/pgbouncer.ts': 'retries on "Address already in use"',
};

describe('one home for free ports', () => {
  const roots = ['packages', 'contract-tests', 'apps', 'tools', 'scripts', 'bench', 'docs'];
  const files = roots
    .flatMap((dir) => typeScriptFiles(join(REPO_ROOT, dir)))
    .map((file) => relative(REPO_ROOT, file));

  it('takes ports for a later listen only from @bnpl-kit/test-ports', () => {
    const copies = files
      .filter((file) => !(file in LISTEN_0_ALLOWED))
      .filter((file) => PORT_FROM_LISTEN_0.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });

  it('recognises the helpers it replaced, and leaves servers that stay up alone', () => {
    for (const allowed of Object.keys(LISTEN_0_ALLOWED))
      expect(PORT_FROM_LISTEN_0.test(readFileSync(join(REPO_ROOT, allowed), 'utf8')), allowed).toBe(true);
    const helpers = [
      // scripts/test/readme-commands.test.ts before
      `server.listen(0, '127.0.0.1', () => {\n  const { port } = server.address() as { port: number };\n  server.close(() => resolve(port));\n});`,
      // tools/runtimes/src/runtimes.ts before
      `const server = createServer().listen(0, '127.0.0.1');\nawait once(server, 'listening');\nconst { port } = server.address() as { port: number };\nserver.close();\nreturn port;`,
      // packages/core/test/service-client.test.ts before
      `await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));\nconst address = server.address();\nconst port = typeof address === 'object' && address ? address.port : 0;\nawait new Promise<void>((resolve) => server.close(() => resolve()));`,
    ];
    for (const helper of helpers) expect(PORT_FROM_LISTEN_0.test(helper), helper).toBe(true);
    const kept = `await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));\nconst url = \`http://127.0.0.1:\${(http.address() as AddressInfo).port}/metrics\`;\nreturn { url, close: () => new Promise((resolve) => http.close(() => resolve())) };`;
    expect(PORT_FROM_LISTEN_0.test(kept)).toBe(false);
  });
});
