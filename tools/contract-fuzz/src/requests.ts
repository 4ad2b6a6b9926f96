/**
 * The requests the fuzz sends for one operation of a document: valid by its schema, at its bounds,
 * or mutated (a member of the wrong type or missing, JSON syntax broken by trailing data, a BOM or
 * a duplicate member, bytes that are not UTF-8, a body over the size limit, a wrong content type).
 * Each says whether the document makes it invalid (`invalid`) or cannot tell (`unknown`, e.g. a
 * duplicate member, which JSON Schema does not see).
 */
import fc from 'fast-check';
import { arbitraryOf, type Resolver, type Schema } from './arbitrary.js';
import { balanced } from './cross-field.js';

export interface Operation {
  method: string;
  path: string;
  operation: {
    operationId: string;
    security?: Record<string, string[]>[];
    parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
    requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
    responses: Record<
      string,
      { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }
    >;
    'x-bnpl-rules'?: { id: string }[];
  };
}

export type Verdict = 'valid' | 'invalid' | 'unknown';

export interface GeneratedRequest {
  kind: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** What the body is by the document (after `validate`), or `invalid` for a broken syntax. */
  verdict: Verdict;
  /** The JSON value before mutation, for ajv. */
  value?: unknown;
  /** The path parameters, for the cross-field rules (cross-field.ts). */
  params: Record<string, unknown>;
}

const encoder = new TextEncoder();

/** Bytes that print as their size in a counterexample, not as a million numbers. */
class Body extends Uint8Array {
  [fc.toStringMethod](): string {
    const text = new TextDecoder().decode(this.subarray(0, 120));
    return `<${this.length} bytes: ${JSON.stringify(text)}…>`;
  }
}
const bodyOf = (bytes: Uint8Array): Uint8Array => new Body(bytes);

type Mutation = (
  json: string,
  value: unknown,
) => { bytes: Uint8Array; verdict: Verdict; kind: string; contentType?: string };

const MUTATIONS: Mutation[] = [
  (json) => ({ kind: 'trailing-data', bytes: encoder.encode(`${json} x`), verdict: 'invalid' }),
  (json) => ({ kind: 'bom', bytes: encoder.encode(`\uFEFF${json}`), verdict: 'unknown' }),
  (json) => ({
    kind: 'duplicate-member',
    bytes: encoder.encode(json.startsWith('{"') ? json.replace(/^\{("[^"]*":)/, '{$1null,$1') : json),
    verdict: 'unknown',
  }),
  (json) => {
    const bytes = encoder.encode(json.startsWith('{') ? `{"x":"\u0001",${json.slice(1)}` : json);
    // `\u0001` is one byte 0x01: make it 0xFF, which no UTF-8 text holds.
    const index = bytes.indexOf(0x01);
    if (index >= 0) bytes[index] = 0xff;
    return { kind: 'invalid-utf8', bytes, verdict: index >= 0 ? 'invalid' : 'unknown' };
  },
  (json) => ({
    kind: 'oversize',
    bytes: encoder.encode(json.startsWith('{') ? `{"pad":"${'a'.repeat(1_100_000)}",${json.slice(1)}` : json),
    verdict: 'unknown',
  }),
  (json) => ({
    kind: 'text-plain',
    bytes: encoder.encode(json),
    verdict: 'unknown',
    contentType: 'text/plain',
  }),
  (_json, value) => ({
    kind: 'wrong-type',
    bytes: encoder.encode(JSON.stringify(wrongType(value))),
    verdict: 'unknown',
  }),
  (_json, value) => ({
    kind: 'missing-member',
    bytes: encoder.encode(JSON.stringify(withoutFirst(value))),
    verdict: 'unknown',
  }),
];

function wrongType(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { wrong: value };
  const [first] = Object.keys(value);
  if (first === undefined) return [];
  const member = (value as Record<string, unknown>)[first];
  return { ...value, [first]: typeof member === 'string' ? 12 : 'a string' };
}

function withoutFirst(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const [, ...rest] = Object.entries(value);
  return Object.fromEntries(rest);
}

function pathWith(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? 'x')),
  );
}

/** Requests for one operation; `headers` are the credentials the caller adds. */
export function requestsOf(op: Operation, resolver: Resolver): fc.Arbitrary<GeneratedRequest> {
  const pathParams = (op.operation.parameters ?? []).filter((p) => p.in === 'path');
  const params = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, arbitraryOf(p.schema, resolver)])),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const media = op.operation.requestBody?.content['application/json'];
  // Three bodies in four satisfy the sum rules, so valid orders are created and the success path
  // is judged too; the rest show that a body breaking them is refused for a listed rule.
  const listed = new Set((op.operation['x-bnpl-rules'] ?? []).map((rule) => rule.id));
  const balances = listed.has('R-ORDER-01') || listed.has('R-LINE-05');
  const body = media
    ? fc
        .tuple(arbitraryOf(media.schema, resolver), fc.noBias(fc.nat(3)))
        .map(([value, draw]) => (balances && draw > 0 ? balanced(value) : value))
    : fc.constant(undefined);
  const mutation = fc.option(fc.constantFrom(...MUTATIONS), { freq: 2 });
  return fc.tuple(params, body, mutation).map(([values, value, mutate]) => {
    const path = pathWith(op.path, values);
    const headers: Record<string, string> = {};
    if (value === undefined && !mutate)
      return { kind: 'no-body', path, headers, verdict: 'valid' as Verdict, params: values };
    const json = JSON.stringify(value ?? {});
    if (!mutate) {
      headers['content-type'] = 'application/json';
      return {
        kind: 'valid',
        path,
        headers,
        body: bodyOf(encoder.encode(json)),
        verdict: 'unknown' as Verdict,
        value,
        params: values,
      };
    }
    const mutated = mutate(json, value ?? {});
    headers['content-type'] = mutated.contentType ?? 'application/json';
    // A body the operation does not document says nothing about what the document allows.
    const verdict = media ? mutated.verdict : 'unknown';
    return {
      kind: mutated.kind,
      path,
      headers,
      body: bodyOf(mutated.bytes),
      verdict,
      params: values,
      value:
        mutated.kind === 'wrong-type' || mutated.kind === 'missing-member'
          ? JSON.parse(new TextDecoder().decode(mutated.bytes))
          : undefined,
    };
  });
}
