/**
 * zod → JSON Schema for the documents, one source of truth with the codecs that validate the wire.
 * `io: 'input'` describes what travels (a codec's input side is the snake_case JSON; its output is
 * the camelCase model). Recursive schemas (`z.json()`) come out with `$defs`; they are hoisted into
 * `components.schemas` so every `$ref` resolves inside the OpenAPI document.
 */
import * as z from 'zod';
import { conditionSchema, levelConditionSchema } from '../offers/conditions.js';
import type { JsonSchema } from './types.js';

/**
 * Schemas whose input side zod cannot describe (a raw-value check before a pipe, so the input is
 * "unknown"), documented as the schema they pipe into: registered once as a component, referenced
 * in place through `wrap`.
 */
interface DocumentedAs {
  readonly component: string;
  readonly schema: z.ZodType;
  readonly wrap: (ref: JsonSchema) => JsonSchema;
}

const DOCUMENTED_AS = new Map<unknown, DocumentedAs>([
  [
    levelConditionSchema,
    {
      component: 'OfferCondition',
      schema: conditionSchema,
      // A level is a condition, or none: `null` or `{}` (WIRE §7).
      wrap: (ref) => ({ anyOf: [ref, { type: 'null' }, { type: 'object', maxProperties: 0 }] }),
    },
  ],
]);

export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  /** Registers `schema` as component `name` and returns a `$ref` to it. */
  ref(name: string, schema: z.ZodType, description?: string): JsonSchema {
    if (!(name in this.components)) {
      this.components[name] = {};
      const converted = this.inline(schema, name);
      this.components[name] = description ? { description, ...converted } : converted;
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema itself, for a one-off use (a path parameter, a small body). */
  inline(schema: z.ZodType, owner = 'Inline'): JsonSchema {
    const pending: DocumentedAs[] = [];
    const raw = toJsonSchema(schema, pending);
    const { $schema: _dialect, $defs, ...rest } = raw;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const rename = (id: string) => `${owner}_${id.replace(/^_+/, '')}`;
    const self = `#/components/schemas/${owner}`;
    for (const [id, def] of Object.entries(defs))
      this.components[rename(id)] = rewriteRefs(def, rename, self);
    for (const documented of pending) this.ref(documented.component, documented.schema);
    return rewriteRefs(rest, rename, self);
  }
}

interface DefLike {
  _zod: { def: { type: string; in?: DefLike; out?: DefLike } };
}

function toJsonSchema(schema: z.ZodType, pending: DocumentedAs[] = []): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      describeCheckedObject(ctx);
      const documented = DOCUMENTED_AS.get(ctx.zodSchema);
      if (documented === undefined) return;
      pending.push(documented);
      for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
      Object.assign(
        ctx.jsonSchema,
        documented.wrap({ $ref: `#/components/schemas/${documented.component}` }),
      );
    },
  }) as JsonSchema;
}

/**
 * A codec with a raw-object check (`wireObject(…, { check })`, e.g. the order line's misspelling
 * hint) is `record → object`; its input side alone would document "any object", so the object it
 * pipes into is documented instead.
 */
function describeCheckedObject(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as DefLike)._zod.def;
  if (def.type !== 'pipe' || def.in?._zod.def.type !== 'record' || def.out?._zod.def.type !== 'object')
    return;
  const { $schema: _dialect, ...object } = toJsonSchema(def.out as unknown as z.ZodType);
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, object);
}

/** `#/$defs/x` → its hoisted component; `#` (a schema that contains itself) → `self`. */
function rewriteRefs(value: JsonSchema, rename: (id: string) => string, self: string): JsonSchema {
  const target = (ref: string) =>
    ref === '#'
      ? self
      : ref.startsWith('#/$defs/')
        ? `#/components/schemas/${rename(ref.slice('#/$defs/'.length))}`
        : ref;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      out[key] = key === '$ref' && typeof child === 'string' ? target(child) : walk(child);
    }
    return out;
  };
  return walk(value) as JsonSchema;
}
