/**
 * Stack traces of the compiled bundle in TypeScript positions, without node's source-map support.
 *
 * `process.setSourceMapsEnabled(true)` reads and parses the source map of every module as it loads
 * (the bundle's chunks and PGlite's own, about 2 MB of JSON), so every start paid for maps that are
 * read only when a stack trace is printed: a twentieth of the reference server's start-up CPU.
 * Here a map is read the first time a trace has a frame in its file, and only frames in the
 * compiled output are rewritten (`chunk-X.mjs:120:7` becomes `packages/core/src/…/x.ts:42:5`).
 *
 * `node --enable-source-maps` (or NODE_OPTIONS) still works as usual: node's own support then maps
 * every module, and this one stays out of its way.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Source maps by generated file URL; null when a file has none (or it is unreadable). */
const maps = new Map();

function mapOf(fileUrl) {
  let map = maps.get(fileUrl);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(fileUrl)}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(fileUrl, map);
  }
  return map;
}

/** `at fn (file:///…/chunk.mjs:L:C)` → `at fn (/repo/…/source.ts:L:C)`, or the frame unchanged. */
function mapFrame(frame, under) {
  const text = String(frame);
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (typeof file !== 'string' || !file.startsWith(under) || line === null || column === null) return text;
  const entry = mapOf(file)?.findEntry(line - 1, column - 1);
  if (!entry?.originalSource) return text;
  const source = new URL(entry.originalSource, file);
  const original = `${source.protocol === 'file:' ? fileURLToPath(source) : source.href}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  const generated = `${file}:${line}:${column}`;
  const at = text.lastIndexOf(generated);
  return at < 0 ? text : text.slice(0, at) + original + text.slice(at + generated.length);
}

function errorHeader(error) {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/**
 * Maps the frames of files under `directory` (the compiled output) to their sources, lazily. Does
 * nothing when node's own source-map support is on. (Node 20.19+ defines a default
 * `Error.prepareStackTrace`, so its presence says nothing about another formatter.)
 */
export function mapCompiledStackTraces(directory) {
  if (process.sourceMapsEnabled) return;
  const under = pathToFileURL(directory.endsWith('/') ? directory : `${directory}/`).href;
  Error.prepareStackTrace = (error, frames) =>
    [errorHeader(error), ...frames.map((frame) => `    at ${mapFrame(frame, under)}`)].join('\n');
}
