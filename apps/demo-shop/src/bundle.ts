/**
 * Builds the storefront's browser script with esbuild's JS API, in memory, so neither `pnpm start`
 * nor the tests need a build step. Workspace packages resolve to their TypeScript sources through
 * the "source" export condition, as everywhere in this repository. Node only: loaded lazily by the
 * handler the first time the script is requested.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./browser/main.ts', import.meta.url));

export async function bundleStorefront(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    conditions: ['source'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the storefront');
  return output.text;
}
