/**
 * zod → JSON Schema for the documents, one source of truth with the codecs that validate the wire.
 * `io: 'input'` describes what travels (a codec's input side is the snake_case JSON; its output is
 * the camelCase model). Recursive schemas (`z.json()`) come out with `$defs`; they are hoisted into
 * `components.schemas` so every `$ref` resolves inside the OpenAPI document.
 */
import { z } from 'zod';
import type { JsonSchema } from './types.js';

export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  /** Registers `schema` as component `name` and returns a `$ref` to it. */
  ref(name: string, schema: z.ZodType, description?: string): JsonSchema {
    if (!(name in this.components)) {
      const converted = this.inline(schema, name);
      this.components[name] = description ? { description, ...converted } : converted;
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The schema itself, for a one-off use (a path parameter, a small body). */
  inline(schema: z.ZodType, owner = 'Inline'): JsonSchema {
    const raw = toJsonSchema(schema);
    const { $schema: _dialect, $defs, ...rest } = raw;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const rename = (id: string) => `${owner}_${id.replace(/^_+/, '')}`;
    for (const [id, def] of Object.entries(defs)) this.components[rename(id)] = rewriteRefs(def, rename);
    return rewriteRefs(rest, rename);
  }
}

interface DefLike {
  _zod: { def: { type: string; in?: DefLike; out?: DefLike } };
}

const OPTIONS = { io: 'input', unrepresentable: 'any', override: describeCheckedObject } as const;

function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, OPTIONS) as JsonSchema;
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

function rewriteRefs(value: JsonSchema, rename: (id: string) => string): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      out[key] =
        key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
          ? `#/components/schemas/${rename(child.slice('#/$defs/'.length))}`
          : walk(child);
    }
    return out;
  };
  return walk(value) as JsonSchema;
}
