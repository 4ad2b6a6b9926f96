/** The code block under a README heading, as a runnable ES module (types stripped by TypeScript). */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export function codeBlockUnder(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`No "${heading}" section`);
  const match = /```ts\n([\s\S]*?)\n```/.exec(markdown.slice(start));
  if (!match?.[1]) throw new Error(`No ts code block under "${heading}"`);
  return match[1];
}

export function exampleModule(readmePath: string, heading = '## A complete minimal server'): string {
  const source = codeBlockUnder(readFileSync(readmePath, 'utf8'), heading);
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  if (diagnostics?.length)
    throw new Error(`${readmePath}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n')}`);
  return outputText;
}

/**
 * Lines of glue an integrator writes: the example's source lines that hold code, blank lines and
 * comment-only lines left out (imports count: the integrator writes them too).
 */
export function glueLines(readmePath: string, heading = '## A complete minimal server'): number {
  const source = codeBlockUnder(readFileSync(readmePath, 'utf8'), heading);
  return source.split('\n').filter((line) => {
    const code = line.trim();
    return code !== '' && !code.startsWith('//') && !code.startsWith('/*') && !code.startsWith('*');
  }).length;
}

/**
 * What every framework's complete server shares: from the first line after its imports through
 * `worker.start();` (configuration, store, user hooks, the market and its worker: all that an
 * integration mode changes). The framework's app, mount, readiness route and drain come after.
 */
export function sharedServerPart(source: string): string {
  const lines = source.split('\n');
  const afterImports = lines.findLastIndex((line) => /^import\b/.test(line)) + 1;
  const workerStarted = lines.findIndex((line) => line.trim() === 'worker.start();');
  if (afterImports === 0 || workerStarted < afterImports) throw new Error('No imports, then worker.start();');
  return lines.slice(afterImports, workerStarted + 1).join('\n');
}
