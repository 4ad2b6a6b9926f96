/**
 * The one place where wire format (snake_case JSON) and models (camelCase TypeScript) meet.
 * A codec is declared once as `{ modelKey: field('wire_key', schema) }`; from that single table we
 * derive the wire schema (which validates, reports wire-format paths, and decodes to the model) and
 * the encoder back to wire JSON. No generic "camelize everything" pass: a field's wire name is
 * whatever the table says (`measment_unit`, `totalAmount`, `credify_id`).
 */
import * as z from 'zod';
import { type FieldIssue, KitError } from '../errors.js';

interface Encoder {
  encode(model: unknown): unknown;
}

export interface WireField<S extends z.ZodType = z.ZodType> {
  readonly wire: string;
  readonly schema: S;
  readonly encoder?: Encoder;
  readonly many?: boolean;
}

export function field<S extends z.ZodType>(wire: string, schema: S): WireField<S> {
  return { wire, schema };
}

/** A field whose value is itself a codec (or an array of one), so encoding recurses. */
export function nested<C extends WireCodec<z.ZodType>>(wire: string, codec: C): WireField<C['schema']> {
  return { wire, schema: codec.schema, encoder: codec };
}

export function optionalNested<C extends WireCodec<z.ZodType>>(
  wire: string,
  codec: C,
): WireField<z.ZodOptional<C['schema']>> {
  return { wire, schema: codec.schema.optional(), encoder: codec };
}

export function nestedArray<C extends WireCodec<z.ZodType>, A extends z.ZodType>(
  wire: string,
  codec: C,
  arraySchema: (item: C['schema']) => A,
): WireField<A> {
  return { wire, schema: arraySchema(codec.schema), encoder: codec, many: true };
}

type Shape = Record<string, WireField>;
type OutputOf<S extends Shape, K extends keyof S> = z.output<S[K]['schema']>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: undefined extends OutputOf<S, K> ? K : never;
}[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The model of a codec: fields whose schema accepts `undefined` are optional keys. */
export type ModelOf<S extends Shape> = Simplify<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: OutputOf<S, K> } & { [K in OptionalKeys<S>]?: OutputOf<S, K> }
>;

export interface WireCodec<Schema extends z.ZodType, Model = z.output<Schema>> extends Encoder {
  /** Validates wire JSON (issues carry wire paths) and decodes it into the model. */
  readonly schema: Schema;
  encode(model: Model): Record<string, unknown>;
}

export interface WireObjectOptions {
  /** Checks on the raw wire object, before decoding (e.g. a misspelt key worth a specific message). */
  check?: (wire: Record<string, unknown>, ctx: z.RefinementCtx) => void;
}

export function wireObject<S extends Shape>(shape: S, options: WireObjectOptions = {}) {
  const entries = Object.entries(shape);
  const wireShape: Record<string, z.ZodType> = {};
  for (const [, f] of entries) wireShape[f.wire] = f.schema;
  let objectSchema: z.ZodType = z.object(wireShape);
  if (options.check) {
    const check = options.check;
    objectSchema = z
      .record(z.string(), z.unknown())
      .superRefine((raw, ctx) => check(raw, ctx))
      .pipe(z.object(wireShape));
  }
  const schema = objectSchema.transform((wire) => {
    const w = wire as Record<string, unknown>;
    const model: Record<string, unknown> = {};
    for (const [key, f] of entries) if (w[f.wire] !== undefined) model[key] = w[f.wire];
    return model as ModelOf<S>;
  });
  const codec: WireCodec<typeof schema, ModelOf<S>> = {
    schema,
    encode(model) {
      const m = model as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, f] of entries) {
        const value = m[key];
        if (value === undefined) continue;
        if (f.encoder && f.many && Array.isArray(value)) out[f.wire] = value.map((v) => f.encoder!.encode(v));
        else if (f.encoder) out[f.wire] = f.encoder.encode(value);
        else out[f.wire] = value;
      }
      return out;
    },
  };
  return codec;
}

/** `['order_lines', 0, 'subtotal', 'value']` → `order_lines[0].subtotal.value`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out.length === 0 ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** Parses wire input with a schema, throwing one `validation_failed` KitError that lists every issue. */
export function parseWire<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what = 'Request body',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = issuesOf(result.error);
  const first = errors[0];
  const summary = first ? `${first.path || '(root)'}: ${first.message}` : 'invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new KitError('validation_failed', `${what} is invalid: ${summary}${more}`, { errors });
}
