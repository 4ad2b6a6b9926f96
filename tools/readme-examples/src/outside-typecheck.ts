/**
 * A README's complete server type-checked as an outside TypeScript project compiles it: its own
 * node_modules (the packed packages' published types), Node's module resolution, strict, and the
 * libraries a server project has (ES2023, DOM, Node's types) without `dom.iterable`, which TypeScript
 * 5.9 no longer brings along with DOM: code that iterates a `Headers` fails there.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './outside-project.js';

/** A framework that publishes no types of its own (express, koa): its `@types` are the reader's choice. */
const UNTYPED_MODULE = 7016;
/** Implicitly `any`: what an untyped framework's callbacks get, until the reader adds its `@types`. */
const IMPLICIT_ANY = new Set([7005, 7006, 7031, 7034]);

export function outsideCompilerOptions(): ts.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(REPO_ROOT, 'node_modules/@types')],
  };
}

/** Problems of `code` as `server.mts` in `projectDir`, one line each. */
export function typeCheckInProject(projectDir: string, code: string): string[] {
  const file = join(projectDir, 'server-typecheck.mts');
  writeFileSync(file, code);
  const program = ts.createProgram([file], outsideCompilerOptions());
  const source = program.getSourceFile(file)!;
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  const untyped = diagnostics.some((d) => d.code === UNTYPED_MODULE);
  return diagnostics
    .filter((d) => d.code !== UNTYPED_MODULE && !(untyped && IMPLICIT_ANY.has(d.code)))
    .map((d) => {
      const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      return `line ${line + 1} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}
