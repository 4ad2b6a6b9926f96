/**
 * One operation fuzzed against a listening server: requests from the document (requests.ts), each
 * sent with or without the operation's credentials, each answer judged (judge.ts). Seeded and bounded
 * by a number of runs, so a failure is reproduced by its seed.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { resolverOf, type Schema } from './arbitrary.js';
import { type Answer, Judge } from './judge.js';
import { type Operation, requestsOf } from './requests.js';

export const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

export interface FuzzDocument {
  paths: Record<string, Record<string, Operation['operation']>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A committed document of docs/openapi, by file name. */
export function documentNamed(name: string): FuzzDocument {
  return JSON.parse(readFileSync(new URL(`../../../docs/openapi/${name}`, import.meta.url), 'utf8'));
}

export function operationsOf(document: FuzzDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      out.push({ method: method.toUpperCase(), path, operation });
  return out;
}

async function answerOf(response: Response): Promise<Answer> {
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: judged as text against the documented schema.
  }
  return { status: response.status, contentType, body };
}

/** Counts of `kind/verdict → status`, per operation, for the printed summary. */
export const tally: Record<string, Record<string, number>> = {};

/** Per operation, how often a body valid by the document was refused for each listed rule. */
export const refusedFor: Record<string, Record<string, number>> = {};

export function summary(): string {
  const lines = [`contract-fuzz: seed ${SEED}, ${RUNS} runs per operation`];
  for (const [name, counts] of Object.entries(refusedFor))
    lines.push(`  ${name}, valid by the document, refused for: ${JSON.stringify(counts)}`);
  for (const [name, counts] of Object.entries(tally)) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    lines.push(`  ${name} (${total}): ${JSON.stringify(counts)}`);
  }
  return lines.join('\n');
}

export interface Target {
  origin: string;
  /** The `Authorization` (or other header) value per security scheme name. */
  credentials: Record<string, Record<string, string>>;
}

export function fuzzer(document: FuzzDocument) {
  const resolver = resolverOf(document);
  const judge = new Judge(document);
  return async (label: string, op: Operation, target: Target): Promise<void> => {
    const counts: Record<string, number> = {};
    tally[`${label} ${op.operation.operationId}`] = counts;
    const rules: Record<string, number> = {};
    refusedFor[`${label} ${op.operation.operationId}`] = rules;
    const schemes = (op.operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    const credential = schemes.map((scheme) => target.credentials[scheme]).find((c) => c !== undefined);
    await fc.assert(
      fc.asyncProperty(requestsOf(op, resolver), fc.boolean(), async (request, authenticated) => {
        const headers = { ...request.headers, ...(credential && authenticated ? credential : {}) };
        const verdict = judge.verdictOf(op, request);
        const response = await fetch(`${target.origin}${request.path}`, {
          method: op.method,
          headers,
          ...(request.body !== undefined && op.method !== 'GET' && { body: request.body as BodyInit }),
        });
        const answer = await answerOf(response);
        const key = `${request.kind}/${verdict} → ${answer.status}`;
        counts[key] = (counts[key] ?? 0) + 1;
        const failure = judge.judge(op, request, verdict, answer, rules);
        if (failure !== undefined)
          throw new Error(
            `${op.method} ${request.path} (${request.kind}): ${failure}\n${JSON.stringify(answer.body).slice(0, 400)}`,
          );
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  };
}
