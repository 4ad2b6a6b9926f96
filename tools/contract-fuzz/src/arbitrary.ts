/**
 * JSON Schema → fast-check arbitrary, over the subset the kit's documents use (type, properties,
 * required, enum, const, pattern, length and item bounds, minimum/maximum, anyOf/oneOf/allOf,
 * `$ref` into `components.schemas`). Written here because the maintained JSON-Schema-to-arbitrary
 * libraries target older fast-check or drafts; what a generated value must satisfy is checked
 * afterwards with ajv anyway, so a generator that is sometimes too loose costs a retry, not a lie.
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

export interface Resolver {
  resolve(schema: Schema): Schema;
}

/** Resolves `#/components/schemas/X` against the document. */
export function resolverOf(document: { components?: { schemas?: Record<string, Schema> } }): Resolver {
  return {
    resolve(schema) {
      let current = schema;
      for (let i = 0; i < 32 && typeof current.$ref === 'string'; i++) {
        const name = current.$ref.split('/').pop()!;
        current = document.components?.schemas?.[name] ?? {};
      }
      return current;
    },
  };
}

const MAX_DEPTH = 5;

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, minLength + 300);
  if (Array.isArray(schema.allOf)) {
    const patterns = schema.allOf
      .map((s) => (s as Schema).pattern)
      .filter((p): p is string => typeof p === 'string');
    if (patterns.length > 0) {
      const [first, ...rest] = patterns.map((p) => new RegExp(p, 'u'));
      return fc
        .stringMatching(first!)
        .filter((s) => rest.every((r) => r.test(s)) && s.length >= minLength && s.length <= maxLength);
    }
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    if (schema.format === 'uri')
      return fc.webUrl().filter((s) => pattern.test(s) && s.length >= minLength && s.length <= maxLength);
    // A bounded match: stringMatching does not know the length bounds.
    return fc
      .stringMatching(pattern, { size: 'small' })
      .map((s) => s.slice(0, maxLength))
      .filter((s) => pattern.test(s) && s.length >= minLength);
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (integer ? -1000 : -1e6);
  const max = (schema.maximum as number | undefined) ?? (integer ? 100_000 : 1e6);
  return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
}

/** An arbitrary of values valid by `schema` (most of the time; callers check with ajv). */
export function arbitraryOf(schema: Schema, resolver: Resolver, depth = 0): fc.Arbitrary<unknown> {
  const s = resolver.resolve(schema);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const choices = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (choices && !s.type && !s.properties) {
    const usable = depth >= MAX_DEPTH ? choices.filter((c) => !JSON.stringify(c).includes('$ref')) : choices;
    return fc.oneof(
      ...(usable.length > 0 ? usable : choices).map((c) => arbitraryOf(c, resolver, depth + 1)),
    );
  }
  if (Array.isArray(s.allOf) && !s.type) {
    const objects = (s.allOf as Schema[]).map((part) => resolver.resolve(part));
    const merged: Schema = {};
    for (const part of objects) Object.assign(merged, part);
    return arbitraryOf(merged, resolver, depth);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return numberOf(s, true);
    case 'number':
      return numberOf(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = (s.minItems as number | undefined) ?? 0;
      const maxLength = Math.min(
        (s.maxItems as number | undefined) ?? 3,
        minLength + (depth >= MAX_DEPTH ? 0 : 3),
      );
      return fc.array(arbitraryOf((s.items as Schema) ?? {}, resolver, depth + 1), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0 && type === undefined) return fc.jsonValue({ maxDepth: 2 });
      const required = new Set((s.required ?? []) as string[]);
      // A one-of-required (`anyOf: [{ required: [a] }, …]`): make the first alternative's members required.
      const oneOfRequired = (s.anyOf as Schema[] | undefined)?.[0];
      for (const name of (oneOfRequired?.required ?? []) as string[]) required.add(name);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        const narrowed = (oneOfRequired?.properties as Record<string, Schema> | undefined)?.[name];
        model[name] = arbitraryOf(
          narrowed ? { ...property, ...narrowed, anyOf: undefined } : property,
          resolver,
          depth + 1,
        );
      }
      return fc.record(model, { requiredKeys: [...required].filter((name) => name in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
