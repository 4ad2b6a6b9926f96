/**
 * The published packages' README TypeScript blocks, type-checked as an outside project compiles
 * them: every block is one module of a single program (one type check for all of them, not one per
 * block) that imports the packages by name, so a README cannot show an export, an option or a call
 * signature the packages do not have.
 *
 * Most blocks are fragments that leave names to the reader (`store`, `logger`, `tx`): a name the
 * block neither declares nor imports is typed `any`, and so are the parameters whose types would
 * come from the reader's code (implicit any). Everything else is an error, and a complete block
 * (one that leaves no name to the reader) gets the repository's strict options in full.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface ReadmeBlock {
  /** The README, relative to the repository root. */
  readme: string;
  /** The README line of the block's first line of code (1-based). */
  line: number;
  language: 'ts' | 'tsx';
  code: string;
}

/** A ```ts / ```tsx / ```typescript fence, with or without more words after the language. */
const FENCE = /^```(ts|tsx|typescript)\b[^\n]*\n([\s\S]*?)^```/gm;

/** The READMEs of the published packages (`private` not set), relative to the repository root. */
export function publishedReadmes(root: string): string[] {
  const dirs = [
    ...readdirSync(join(root, 'packages'))
      .sort()
      .map((name) => `packages/${name}`),
    'contract-tests',
  ];
  return dirs
    .filter((dir) => {
      try {
        return JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private !== true;
      } catch {
        return false;
      }
    })
    .map((dir) => `${dir}/README.md`);
}

export function readmeBlocks(root: string, readmes: readonly string[]): ReadmeBlock[] {
  return readmes.flatMap((readme) => {
    const markdown = readFileSync(join(root, readme), 'utf8');
    return [...markdown.matchAll(FENCE)].map((match) => ({
      readme,
      line: markdown.slice(0, match.index).split('\n').length + 1,
      language: match[1] === 'tsx' ? ('tsx' as const) : ('ts' as const),
      code: match[2] ?? '',
    }));
  });
}

/**
 * A block that imports by relative path is the package's own code, for its contributors (the CLI's
 * command template), not an integrator's: it has no place in an outside project.
 */
export function importsRelatively(block: ReadmeBlock): boolean {
  return /^\s*import\b[^'"]*['"]\.\.?\//m.test(block.code);
}

/** Cannot find name (also: did you mean …, or a test runner's globals), or a shorthand `{ name }` of one. */
const FREE_NAME = new Set([2304, 2552, 2582, 2593, 18004]);
/** Implicitly `any`: a parameter or binding whose type the reader's code would give. */
const IMPLICIT_ANY = new Set([7005, 7006, 7031, 7034]);

export interface BlockProblem {
  block: ReadmeBlock;
  /** `README.md:line:column TScode message`, at the position in the README. */
  message: string;
}

/** The repository's strict options, as modules (top-level await), with React's JSX and Nest's decorators. */
export function readmeCompilerOptions(tsconfigPath: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`Cannot read ${tsconfigPath}`);
  return {
    ...parsed.options,
    noEmit: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    jsx: ts.JsxEmit.ReactJSX,
    experimentalDecorators: true,
  };
}

/**
 * Type-checks the blocks as modules in `projectDir` (whose node_modules resolve the packages and the
 * frameworks) and returns each problem at its README position.
 */
export function typeCheckBlocks(
  blocks: readonly ReadmeBlock[],
  projectDir: string,
  options: ts.CompilerOptions,
): BlockProblem[] {
  // Virtual files: nothing is written, the host serves the blocks' text.
  const files = new Map(
    blocks.map((block, i) => [join(projectDir, 'readme-blocks', `block-${i}.${block.language}`), block]),
  );
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => files.get(file)?.code ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const block = files.get(file);
    return block === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, block.code, language, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return [...files].flatMap(([file, block]) => {
    const source = program.getSourceFile(file);
    if (source === undefined) return [{ block, message: `${block.readme}:${block.line} not compiled` }];
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    const fragment = diagnostics.some((diagnostic) => FREE_NAME.has(diagnostic.code));
    return diagnostics
      .filter((d) => !(fragment && (FREE_NAME.has(d.code) || IMPLICIT_ANY.has(d.code))))
      .map((diagnostic) => {
        const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        return {
          block,
          message: `${block.readme}:${block.line + line}:${character + 1} TS${diagnostic.code} ${text}`,
        };
      });
  });
}
