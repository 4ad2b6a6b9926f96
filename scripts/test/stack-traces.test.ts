/**
 * scripts/start.mjs and scripts/bnpl-kit.mjs run a compiled bundle without node's source-map
 * support (it parses every module's map at start-up); stack traces still name the TypeScript
 * sources, the map read when a trace is formatted. Each case runs in a child process: the hook
 * replaces `Error.prepareStackTrace`, which the test runner's own process must keep.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compile } from '../compile.mjs';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/stack-entry.ts', import.meta.url));
const hook = pathToFileURL(fileURLToPath(new URL('../stack-traces.mjs', import.meta.url))).href;

/** The stack of the fixture's `fail()`, compiled, in a fresh `node` with `flags`. */
async function stackOf(flags: string[]): Promise<string> {
  const outfile = await compile('scripts/test/fixtures/stack-entry.ts', 'test-stack');
  const script = `
    import { dirname } from 'node:path';
    import { mapCompiledStackTraces } from ${JSON.stringify(hook)};
    mapCompiledStackTraces(dirname(${JSON.stringify(outfile)}));
    const { fail } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
    try { fail(); } catch (error) { console.log(JSON.stringify({ stack: error.stack, maps: process.sourceMapsEnabled })); }
  `;
  const { stdout } = await run(process.execPath, [...flags, '--input-type=module', '-e', script]);
  return JSON.parse(stdout).stack;
}

describe('stack traces of the compiled bundle', () => {
  it('name the TypeScript source and line, without node source maps', async () => {
    const stack = await stackOf([]);
    expect(stack.split('\n')[0]).toBe('Error: from the fixture');
    expect(stack).toContain(`at fail (${fixture}:5:9)`);
    expect(stack).not.toContain('test-stack.mjs');
  });

  it('leave the mapping to node when it is started with --enable-source-maps', async () => {
    const stack = await stackOf(['--enable-source-maps']);
    expect(stack).toContain(`${fixture}:5:9`);
  });
});
