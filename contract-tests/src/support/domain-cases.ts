/**
 * Cases derived from a request body's documented domain instead of picked by hand: the JSON Schema
 * of the operation's body in the market's OpenAPI document (emitted from the route table's codecs,
 * so the cases follow every field rule the documents state) walked together with one valid body.
 * For every field: each side of every bound (the largest valid value included), every JSON type in
 * place of the expected one, pattern and enum neighbours, the values a machine integer or a double
 * cannot hold, each required member left out, and every field of one enum set to the same other
 * value (consistent, but not the documented one). A new field rule in a codec gets its cases here
 * without a new check.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { type JsonSchema, marketOpenApi } from '@bnpl-kit/core/openapi';
import type { MarketOperation } from '@bnpl-kit/core/wire';

/** A wire path as keys: `['order_lines', 0, 'quantity']`. */
export type WirePath = readonly (string | number)[];

/** Marks a member a case leaves out. */
export const ABSENT: unique symbol = Symbol('absent');

export type CaseKind = 'type' | 'bound' | 'pattern' | 'enum' | 'required' | 'consistent' | 'representation';

export interface DomainCase {
  /** What the case sends, for failure messages: `order_lines[0].quantity = "2" (a string)`. */
  label: string;
  kind: CaseKind;
  /** The field the case is about (the one a refusal names). */
  path: WirePath;
  /** Values set on top of the valid body (ABSENT removes the member). */
  set: readonly (readonly [WirePath, unknown])[];
  /** Whether the documented domain holds the value (the market must accept it). */
  valid: boolean;
  /**
   * Other fields a refusal may name instead of `path`: the members of a one-of requirement
   * ("credify_id or local_id"), where either is the field at fault.
   */
  alternatives?: readonly WirePath[];
}

/** `order_lines[0].unit_price.value`, as `errors[].path` writes it (WIRE §2). */
export function wirePath(path: WirePath): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? key : `.${key}`;
  return out === '' ? '(body)' : out;
}

const documents = new Map<IntegrationMode, ReturnType<typeof marketOpenApi>>();

function documentFor(mode: IntegrationMode): ReturnType<typeof marketOpenApi> {
  let document = documents.get(mode);
  if (document === undefined) {
    document = marketOpenApi({ integrationMode: mode });
    documents.set(mode, document);
  }
  return document;
}

/** The request body schema of `operation` as the mode's OpenAPI document states it, `$ref`s resolved. */
export function requestSchema(mode: IntegrationMode, operation: MarketOperation): JsonSchema | undefined {
  const document = documentFor(mode);
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item)) {
      if (op?.operationId !== operation) continue;
      const body = (op as { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } })
        .requestBody;
      const schema = body?.content?.['application/json']?.schema;
      return schema === undefined ? undefined : resolve(schema, document.components?.schemas ?? {});
    }
  }
  return undefined;
}

/**
 * The rule IDs the mode's document lists for `operation` beyond its schema (`x-bnpl-rules`): what a
 * body valid by the schema may still break.
 */
export function requestRules(mode: IntegrationMode, operation: MarketOperation): string[] {
  for (const item of Object.values(documentFor(mode).paths))
    for (const op of Object.values(item))
      if (op?.operationId === operation)
        return ((op as { 'x-bnpl-rules'?: { id: string }[] })['x-bnpl-rules'] ?? []).map((r) => r.id);
  return [];
}

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 20) return {};
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = components[ref.replace('#/components/schemas/', '')];
    return target === undefined ? {} : resolve(target, components, depth + 1);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (Array.isArray(value))
      out[key] = value.map((v) => (isRecord(v) ? resolve(v as JsonSchema, components, depth + 1) : v));
    else if (isRecord(value) && key !== 'enum' && key !== 'const')
      out[key] =
        key === 'properties'
          ? Object.fromEntries(
              Object.entries(value).map(([k, v]) => [k, resolve(v as JsonSchema, components, depth + 1)]),
            )
          : resolve(value as JsonSchema, components, depth + 1);
    else out[key] = value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/**
 * The branches of a schema (`anyOf`/`oneOf` flattened). The keywords beside the `anyOf` hold in
 * every branch (`{ type: object, properties, anyOf: [{ required: [a] }, { required: [b] }] }` is
 * "an object with these members and a or b"), so each branch carries them too.
 */
function branches(schema: JsonSchema): JsonSchema[] {
  const any = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (any === undefined) return [schema];
  const { anyOf: _any, oneOf: _one, ...shared } = schema;
  return any.flatMap((branch) => branches(withShared(shared, branch)));
}

function withShared(shared: JsonSchema, branch: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...shared, ...branch };
  if (isRecord(shared.properties) || isRecord(branch.properties))
    merged.properties = { ...(shared.properties as object), ...(branch.properties as object) };
  const required = [...((shared.required as string[]) ?? []), ...((branch.required as string[]) ?? [])];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

/**
 * Whether an object branch can take `value` as far as choosing a branch goes: the members it
 * requires are there, and a member that picks the branch (`const`, `enum`, `not: { enum }`, as an
 * event's `type` does) has a value the branch allows.
 */
function holdsRequired(branch: JsonSchema, value: unknown): boolean {
  if (!isRecord(value)) return true;
  const required = (branch.required ?? []) as string[];
  if (!required.every((key) => key in value)) return false;
  const properties = (branch.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).every(([key, member]) => {
    if (!(key in value)) return true;
    const present = value[key];
    if ('const' in member && member.const !== present) return false;
    if (Array.isArray(member.enum) && !member.enum.includes(present)) return false;
    const not = member.not as JsonSchema | undefined;
    return !(not && Array.isArray(not.enum) && not.enum.includes(present));
  });
}

function accepts(schema: JsonSchema, type: JsonType): boolean {
  return branches(schema).some((branch) => {
    const declared = branch.type;
    if (declared === undefined) return branch.enum === undefined && branch.const === undefined;
    const types = [declared].flat() as string[];
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  });
}

/** The branch describing the valid value at hand. */
function branchFor(schema: JsonSchema, value: unknown): JsonSchema {
  const type = typeOf(value);
  const typed = branches(schema).filter((b) => accepts(b, type));
  return typed.find((b) => holdsRequired(b, value)) ?? typed[0] ?? schema;
}

/** The same value as every other JSON type, each a mistake a loose parser lets through. */
function otherTypes(value: unknown): [JsonType, unknown, string][] {
  const asNumber = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : 1;
  return [
    ['string', typeof value === 'object' ? JSON.stringify(value) : String(value), 'a string'],
    ['integer', asNumber, 'a number'],
    ['boolean', true, 'true'],
    ['boolean', false, 'false'],
    ['null', null, 'null'],
    ['array', [value], 'an array around the value'],
    ['object', { value }, 'an object around the value'],
  ];
}

/** Integers where a machine representation ends: a value past one is misread by a market using it. */
const REPRESENTATION_LIMITS: [bigint, string][] = [
  [2n ** 31n - 1n, '2^31 - 1, the largest 32-bit integer'],
  [2n ** 31n, '2^31, past a signed 32-bit integer'],
  [2n ** 32n + 1n, '2^32 + 1, past an unsigned 32-bit integer'],
  [2n ** 53n + 1n, '2^53 + 1, not a double'],
];

/** `base` extended (or cut) to `length` characters, staying inside `pattern` when it can. */
function resized(base: string, length: number, pattern: RegExp | undefined): string {
  if (base.length >= length) return base.slice(0, length);
  for (const fill of [base.at(-1) ?? 'a', '9', 'a']) {
    if (/[/?#.]/.test(fill)) continue;
    const candidate = base + fill.repeat(length - base.length);
    if (pattern === undefined || pattern.test(candidate)) return candidate;
  }
  return base + 'a'.repeat(length - base.length);
}

/** Texts next to a patterned value that a lenient parser reads as it: spaces, signs, decimals, other digits, a line feed. */
function patternNeighbours(base: string): [string, string][] {
  const fullWidth = [...base].map((c) =>
    /[0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c,
  );
  return [
    [` ${base}`, 'a leading space'],
    [`${base} `, 'a trailing space'],
    [`+${base}`, 'a plus sign'],
    [`-${base}`, 'a minus sign'],
    [`0${base}`, 'a leading zero'],
    [`${base}.0`, 'a decimal point'],
    [`${base}e0`, 'an exponent'],
    [`0x${base}`, 'a hexadecimal prefix'],
    [fullWidth.join(''), 'full-width digits'],
    [`${base}\u0000`, 'a trailing NUL'],
    // `$` also matches before a final line feed in Python's re and PHP's preg_match (and Ruby's
    // `^...$` are line anchors): a pattern checked that way takes the value with it.
    [`${base}\n`, 'a trailing line feed'],
  ];
}

/**
 * Names that every object of a common language holds as a member: a value (an enum's, an ID) looked
 * up in a plain JavaScript object (`map[value]`, `value in map`) or by attribute (Python's getattr)
 * is found there, though nothing was ever stored under it.
 */
export const OBJECT_MEMBER_NAMES: readonly [string, string][] = [
  ['constructor', "a member of every JavaScript object (Object's constructor)"],
  ['__proto__', "every JavaScript object's prototype"],
  ['toString', 'a method of every JavaScript object'],
  ['__class__', 'an attribute of every Python object'],
];

/** Texts a number parser reads (or chokes on) beside a digit string: never one, so refused, never a 5xx. */
function numberParserTexts(base: string): [string, string][] {
  const texts: [string, string][] = [
    ['NaN', "NaN, which Python's Decimal and float read"],
    ['Infinity', "Infinity, which Python's Decimal and float read"],
    [`${base}\u00B2`, "a superscript two, a digit to Python's str.isdigit but not to int"],
  ];
  if (base.length >= 2)
    texts.push([
      `${base[0]}_${base.slice(1)}`,
      "a digit-group underscore, which Python's int and Ruby's Integer read",
    ]);
  return texts;
}

/** A character of three UTF-8 bytes and one UTF-16 unit (Vietnamese ễ, precomposed). */
const WIDE = '\u1EC5';

/** One item of a character class: a `\uXXXX` escape, another escape, or a character, maybe a range. */
const CLASS_ITEM = /(\\u[0-9A-Fa-f]{4}|\\.|[^\\])(?:-(\\u[0-9A-Fa-f]{4}|\\.|[^\\]))?/g;

function classCode(item: string): number {
  if (item.startsWith('\\u')) return Number.parseInt(item.slice(2), 16);
  return (item.startsWith('\\') ? item.codePointAt(1) : item.codePointAt(0)) ?? 0;
}

/**
 * The ranges of code points the negated character classes of `pattern` forbid (`[^\u0000-\u001F…]`
 * gives [0, 31], …): the characters the document keeps out of a text, as [first, last].
 */
function forbiddenRanges(pattern: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const [, body] of pattern.matchAll(/\[\^((?:\\.|[^\]\\])*)\]/g))
    for (const [, lo, hi] of (body ?? '').matchAll(CLASS_ITEM))
      ranges.push([classCode(lo!), classCode(hi ?? lo!)]);
  return ranges;
}

/**
 * The characters at the edges of each forbidden range, [code point, why, forbidden]: its first and
 * last, the ones inside it a lenient reader takes for white space (tab, line feed, carriage return,
 * NEL: "white space is harmless" lets them through), and the first allowed one on each side (a
 * market whose own range is one too wide refuses it). A check of NUL alone, or of C0 and not DEL
 * or C1, keeps all but one of these.
 */
function rangeEdges(ranges: readonly [number, number][]): [number, string, boolean][] {
  const forbidden = (cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const edges = new Map<number, [number, string, boolean]>();
  for (const [lo, hi] of ranges) {
    const inside = [lo, hi];
    for (let cp = lo; cp <= hi && cp <= 0xffff; cp++)
      if (/\p{White_Space}/u.test(String.fromCharCode(cp))) inside.push(cp);
    for (const cp of inside) edges.set(cp, [cp, `${hex(cp)}, forbidden by the pattern`, true]);
    // Just outside the range: allowed unless another range forbids it; surrogates have cases of their own.
    for (const cp of [lo - 1, hi + 1])
      if (cp >= 0 && cp <= 0xffff && (cp < 0xd800 || cp > 0xdfff) && !forbidden(cp))
        edges.set(cp, [cp, `${hex(cp)}, next to the forbidden ${hex(cp < lo ? lo : hi)}`, false]);
  }
  return [...edges.values()];
}

/** `value` with `char` at its end, its last character replaced when it is already `max` long. */
function withLast(value: string, char: string, max: number | undefined): string {
  return max !== undefined && value.length + char.length > max
    ? value.slice(0, max - char.length) + char
    : value + char;
}

/**
 * The rule whose words the operation's `x-bnpl-rules` carry when its text members hold Unicode
 * scalar values only (no lone surrogate): JSON Schema cannot say it, so the document lists it.
 */
export const SCALAR_TEXT_RULE = 'R-LINE-07';

/**
 * Lone surrogates (a JSON `\uD83D` escape with no partner) at the end of a text, [text, why]:
 * what UTF-8 cannot encode, so a database driver replaces or refuses it after the market accepted it.
 */
const LONE_SURROGATES: readonly [string, string][] = [
  ['\uD83D', 'a lone high surrogate'],
  ['\uDEF5', 'a lone low surrogate'],
  ['\uDEF5\uD83D', 'a surrogate pair in the wrong order'],
];
/** A character outside the Basic Multilingual Plane (🛵): a proper surrogate pair, a scalar value. */
const ASTRAL = '\u{1F6F5}';
/** A letter and its combining accent (é as NFD writes it): two characters, one grapheme. */
const COMBINING = 'e\u0301';

/**
 * Each number of an RFC 3339 date-time on both sides of its bounds, the others as in `value`: the
 * first and last valid (month 01 and 12, the month's last day, hour 23, second 59, offset +23:59)
 * and one past each (month 00 and 13, day 00, hour 24, minute 60, second 60, offset +24:00 and
 * +00:60), so a market checking one end of a number, or not all of them, is found out. Whether a
 * leap second (60) is allowed is the document's pattern's to say (formatCases' caller keeps the
 * cases the pattern agrees with).
 */
function dateTimeBounds(value: string): [string, boolean, string][] {
  const [year, month, day, hour, minute, second] = value.slice(0, 19).split(/[-T:]/).map(Number) as number[];
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastDay = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  const stamp = (p: number[], offset = 'Z') =>
    `${String(p[0]).padStart(4, '0')}-${pad(p[1]!)}-${pad(p[2]!)}T${pad(p[3]!)}:${pad(p[4]!)}:${pad(p[5]!)}${offset}`;
  const base = [year!, month!, day!, hour!, minute!, second!];
  // [name, index in the stamp (6, 7: the offset's hours and minutes), first, last]
  const numbers: [string, number, number, number][] = [
    ['month', 1, 1, 12],
    ['day', 2, 1, lastDay],
    ['hour', 3, 0, 23],
    ['minute', 4, 0, 59],
    ['second', 5, 0, 59],
    ['offset hours', 6, 0, 23],
    ['offset minutes', 7, 0, 59],
  ];
  const out: [string, boolean, string][] = [];
  for (const [name, index, first, last] of numbers)
    for (const n of [first - 1, first, last, last + 1]) {
      if (n < 0) continue;
      const text =
        index < 6
          ? stamp(base.map((v, i) => (i === index ? n : v)))
          : stamp(base, index === 6 ? `+${pad(n)}:00` : `+00:${pad(n)}`);
      const valid = n >= first && n <= last;
      // The value itself, or a form another number gave already (+00:00), is not a case.
      if (text === value || out.some(([t]) => t === text)) continue;
      out.push([
        text,
        valid,
        `${name} ${pad(n)}, ${valid ? 'in range' : `outside ${pad(first)}..${pad(last)}`}`,
      ]);
    }
  return out;
}

/** Forms of a `format` around the valid `value`: [text, whether the syntax allows it, why]. */
export function formatCases(format: string, value: string): [string, boolean, string][] {
  if (format === 'date-time' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(value)) {
    const date = value.slice(0, 10);
    const time = value.slice(11, 19);
    return [
      [`${date}T${time}.5Z`, true, 'a fraction of a second'],
      [`${date}T${time}.123456789+07:00`, true, 'nine fraction digits and an offset'],
      [`${date}T${time}-05:30`, true, 'a negative offset with minutes'],
      ['2024-02-29T23:59:59+00:00', true, 'a leap day and +00:00'],
      [date, false, 'a date alone'],
      [`${date}T${time}`, false, 'no offset (local time)'],
      [`${date} ${time}Z`, false, 'a space instead of T'],
      [`${date}T${time.slice(0, 5)}Z`, false, 'no seconds'],
      [`${date}T${time}+0700`, false, 'an offset without a colon'],
      [`${date}T${time}+07`, false, 'an offset of hours alone'],
      [`${date.replace(/-/g, '')}T${time.replace(/:/g, '')}Z`, false, 'the basic format (no separators)'],
      ['2026-02-30T09:30:00Z', false, 'February 30 (a parser that rolls over reads March 2)'],
      ['2025-02-29T09:30:00Z', false, 'February 29 of a common year'],
      ['2026-04-31T09:30:00Z', false, 'April 31'],
      ...dateTimeBounds(value),
    ];
  }
  if (format === 'uri' && URL.canParse(value)) {
    const url = new URL(value);
    const rest = `${url.pathname}${url.search}${url.hash}`;
    return [
      [`${value}?size=large&v=2`, true, 'a query'],
      [`${value}#details`, true, 'a fragment'],
      [`${url.protocol}//${url.hostname}:8443${rest}`, true, 'a port'],
      [`${value.replace(/\/?$/, '/')}%E1%BB%85-%C3%A1o`, true, 'a percent-encoded path'],
      [value.replace(/^https?/i, (scheme) => scheme.toUpperCase()), true, 'the scheme in upper case'],
      [`http://${url.host}${rest}`, true, 'http'],
      [`https://203.0.113.7${rest}`, true, 'an IPv4 host'],
      [`//${url.host}${rest}`, false, 'no scheme (scheme-relative)'],
      [rest, false, 'a path alone'],
      [`${url.host}${rest}`, false, 'no scheme'],
      [`ftp://${url.host}${rest}`, false, 'another scheme (ftp)'],
      [`https:/${url.host}${rest}`, false, 'one slash'],
      ['https://', false, 'no host'],
      ['javascript:alert(1)', false, 'a javascript: URL'],
    ];
  }
  return [];
}

/**
 * A member name in camelCase (`referenceId`), or undefined when it has no underscore. Not in another
 * letter case: Go's encoding/json binds names without case and cannot be told otherwise, and the
 * protocol does not say that names are case-sensitive, so every idiomatic Go market would fail on it.
 */
function camelCase(key: string): string | undefined {
  const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return camel === key ? undefined : camel;
}

function show(value: unknown): string {
  if (value === ABSENT) return '(left out)';
  const text = JSON.stringify(value) ?? String(value);
  // The length a reader compares with the bound: the string's own, not its JSON text's (quotes, escapes).
  const length =
    typeof value === 'string' ? `${value.length} characters` : `${text.length} characters of JSON`;
  return text.length > 48 ? `${text.slice(0, 40)}… (${length})` : text;
}

/**
 * Every case of `schema`'s domain around the valid `base` body. Objects and arrays are followed
 * into the members the base has (array items through the first one). `rules`, the operation's
 * `x-bnpl-rules` (`requestRules`), add what the schema cannot say: lone surrogates (R-LINE-07).
 */
export function domainCases(
  schema: JsonSchema,
  base: unknown,
  options: { rules?: readonly string[] } = {},
): DomainCase[] {
  // The rules the operation's document lists beyond its schema (`x-bnpl-rules`).
  const scalarText = options.rules?.includes(SCALAR_TEXT_RULE) ?? false;
  const cases: DomainCase[] = [];
  const enums = new Map<string, { values: readonly unknown[]; paths: WirePath[] }>();
  const add = (kind: CaseKind, path: WirePath, value: unknown, valid: boolean, why: string) =>
    cases.push({
      label: `${wirePath(path)} = ${show(value)} (${why})`,
      kind,
      path,
      set: [[path, value]],
      valid,
    });

  function walk(node: JsonSchema, value: unknown, path: WirePath): void {
    const branch = branchFor(node, value);
    for (const [type, other, why] of otherTypes(value)) {
      if (type === typeOf(value) && JSON.stringify(other) === JSON.stringify(value)) continue;
      if (!accepts(node, type)) add('type', path, other, false, `${why} in place of ${typeOf(value)}`);
    }
    if (typeof value === 'number') walkNumber(branch, value, path);
    else if (typeof value === 'string') walkString(branch, value, path);
    else if (Array.isArray(value)) walkArray(branch, value, path);
    else if (isRecord(value)) walkObject(node, branch, value, path);
  }

  function walkNumber(node: JsonSchema, value: number, path: WirePath): void {
    if (accepts(node, 'integer') && !accepts(node, 'number'))
      add('type', path, value + 0.5, false, 'a fraction');
    const { minimum, maximum } = node as { minimum?: number; maximum?: number };
    if (typeof minimum === 'number') {
      add('bound', path, minimum - 1, false, `one below the minimum ${minimum}`);
      if (minimum !== value) add('bound', path, minimum, true, `the minimum ${minimum}`);
    }
    if (typeof maximum === 'number') {
      add('bound', path, maximum + 1, false, `one above the maximum ${maximum}`);
      if (maximum !== value) add('bound', path, maximum, true, `the maximum ${maximum}`);
    }
  }

  function walkString(node: JsonSchema, value: string, path: WirePath): void {
    const pattern = typeof node.pattern === 'string' ? new RegExp(node.pattern, 'u') : undefined;
    // Every pattern the value must match: its own and those of an `allOf` (the order total's "^[1-9]").
    const patterns = [node, ...((node.allOf as JsonSchema[] | undefined) ?? [])]
      .map((n) => n.pattern)
      .filter((p): p is string => typeof p === 'string')
      .map((p) => new RegExp(p, 'u'));
    const fits = (text: string) => patterns.every((p) => p.test(text));
    const { minLength, maxLength } = node as { minLength?: number; maxLength?: number };
    if (Array.isArray(node.enum)) {
      const key = JSON.stringify(node.enum);
      const group = enums.get(key) ?? { values: node.enum as unknown[], paths: [] as WirePath[] };
      group.paths.push(path);
      enums.set(key, group);
      for (const other of node.enum)
        if (other !== value) add('enum', path, other, true, 'another listed value');
      const near: [string, string][] = [
        [value.toLowerCase(), 'in lower case'],
        [` ${value}`, 'with a leading space'],
        [`${value} `, 'with a trailing space'],
        [otherEnumValue(node.enum), 'a value not listed'],
        // Names every object has: a value looked up in a plain object or by attribute (`{ EACH: true }[unit]`,
        // Python's getattr) is found though no value lists it.
        ...OBJECT_MEMBER_NAMES.map(([name, why]): [string, string] => [name, `not listed, ${why}`]),
      ];
      for (const [text, why] of near) if (!node.enum.includes(text)) add('enum', path, text, false, why);
      return;
    }
    if (typeof minLength === 'number' && minLength > 0) {
      add(
        'bound',
        path,
        resized(value, minLength - 1, undefined),
        false,
        `${minLength - 1} characters, under the minimum`,
      );
      // The shortest valid value too: a market refusing it has its own lower bound.
      const shortest = resized(value, minLength, pattern);
      if (shortest !== value && shortest.length === minLength && fits(shortest))
        add(
          'bound',
          path,
          shortest,
          true,
          `${minLength} character${minLength === 1 ? '' : 's'}, the minimum`,
        );
    }
    if (typeof maxLength === 'number') {
      add(
        'bound',
        path,
        resized(value, maxLength + 1, pattern),
        false,
        `${maxLength + 1} characters, over the maximum`,
      );
      const longest = resized(value, maxLength, pattern);
      if (fits(longest) && longest !== value)
        add('bound', path, longest, true, `${maxLength} characters, the maximum`);
      // The maximum in characters of three UTF-8 bytes each: a bound counted in bytes refuses it.
      const wide = value.slice(0, maxLength) + WIDE.repeat(Math.max(0, maxLength - value.length));
      if (node.format === undefined && fits(wide) && wide !== value && wide.length === maxLength)
        add(
          'bound',
          path,
          wide,
          true,
          `${maxLength} characters, the maximum, ${maxLength - Math.min(value.length, maxLength)} of them "${WIDE}" (${Buffer.byteLength(wide, 'utf8')} bytes of UTF-8)`,
        );
      // The maximum in characters outside the BMP, where the text holds any Unicode scalar value:
      // JSON Schema counts characters (code points), so a bound counted in UTF-16 units (Java's
      // String.length(), C#'s, JavaScript's) refuses it, at twice the length it counts.
      const own = [...value].slice(0, maxLength);
      const astral = own.join('') + ASTRAL.repeat(Math.max(0, maxLength - own.length));
      if (scalarText && node.format === undefined && fits(astral) && astral !== value)
        add(
          'bound',
          path,
          astral,
          true,
          `${maxLength} characters, the maximum, ${maxLength - own.length} of them "${ASTRAL}" (${astral.length} UTF-16 units)`,
        );
      // One character over the maximum, as letters with a combining mark: a bound counted in
      // graphemes (Elixir's String.length, Ecto's validate_length, Swift's count) or after NFC
      // normalisation sees half as many, under the maximum, and takes it.
      const letters = Math.ceil((maxLength + 1) / 2);
      const combining = [...COMBINING.repeat(letters)].slice(0, maxLength + 1).join('');
      if (scalarText && node.format === undefined && fits(combining))
        add(
          'bound',
          path,
          combining,
          false,
          `${maxLength + 1} characters, over the maximum, as "e" + U+0301 pairs (${letters} letters with their accents)`,
        );
    }
    // The field's syntax (an RFC 3339 date-time, an absolute URL): every form it allows, and the
    // forms next to it that a lenient parser reads but the documented syntax does not allow.
    if (typeof node.format === 'string')
      for (const [text, valid, why] of formatCases(node.format, value)) {
        const inDomain = fits(text) && (maxLength === undefined || text.length <= maxLength);
        // Only where the document's pattern agrees (a form the pattern cannot decide is left out).
        if (inDomain === valid) add('pattern', path, text, valid, why);
      }
    // Text members hold Unicode scalar values only, where the document's rules say so: each lone
    // surrogate refused, and (for a text of its own, not a URL's syntax) a proper pair accepted.
    if (scalarText) {
      for (const [surrogate, why] of LONE_SURROGATES)
        add('pattern', path, withLast(value, surrogate, maxLength), false, `the value ending in ${why}`);
      const astral = value + ASTRAL;
      if (
        node.format === undefined &&
        fits(astral) &&
        (maxLength === undefined || astral.length <= maxLength)
      )
        add(
          'pattern',
          path,
          astral,
          true,
          'the value ending in a character outside the BMP, a surrogate pair',
        );
    }
    // Every pattern counts, an `allOf`'s too: the order total's are there alone, and were once skipped.
    if (patterns.length === 0) return;
    for (const [text, why] of patternNeighbours(value))
      if (!fits(text) && (maxLength === undefined || text.length <= maxLength))
        add('pattern', path, text, false, `the value with ${why}`);
    // The characters the pattern forbids, at the edges of each forbidden range and just outside it.
    // The allowed neighbours only for a text of its own: in a URL's syntax (format) a space is not one.
    const ranges = patterns.flatMap((p) => forbiddenRanges(p.source));
    for (const [cp, why, forbidden] of rangeEdges(ranges)) {
      const text = withLast(value, String.fromCharCode(cp), maxLength);
      // NUL at the end is a pattern neighbour already.
      if (cases.some((c) => c.set[0]?.[1] === text && wirePath(c.path) === wirePath(path))) continue;
      if (fits(text) === !forbidden && (forbidden || node.format === undefined))
        add('pattern', path, text, !forbidden, `the value ending in ${why}`);
    }
    // A digit string: the values a machine integer or a double cannot hold must be read exactly.
    if (fits('1') && fits('2147483648') && !fits('a')) {
      // The smallest value too: a market that requires "greater than 0" everywhere refuses a free line;
      // where the patterns leave 0 out (the order total), 0 is the value just under the domain.
      if (fits('0') && value !== '0') add('bound', path, '0', true, '0, the smallest');
      if (!fits('0')) add('bound', path, '0', false, '0, under the smallest the patterns allow');
      // What number parsers read that no digit string is: Python's int() and Decimal() take digit
      // groups and "NaN" / "Infinity", and str.isdigit() takes a superscript that int() then cannot.
      for (const [text, why] of numberParserTexts(value))
        if (!fits(text) && (maxLength === undefined || text.length <= maxLength))
          add('pattern', path, text, false, why);
      const limits: [string, string][] = REPRESENTATION_LIMITS.map(([n, why]) => [n.toString(), why]);
      if (typeof maxLength === 'number')
        limits.push(['9'.repeat(maxLength), `${maxLength} nines, the largest`]);
      for (const [text, why] of limits)
        if (fits(text) && (maxLength === undefined || text.length <= maxLength))
          add('representation', path, text, true, why);
    }
  }

  function walkArray(node: JsonSchema, value: unknown[], path: WirePath): void {
    const { minItems, maxItems } = node as { minItems?: number; maxItems?: number };
    const first = value[0];
    if (typeof minItems === 'number' && minItems > 0)
      add('bound', path, value.slice(0, minItems - 1), false, `${minItems - 1} items, under the minimum`);
    if (typeof maxItems === 'number' && first !== undefined) {
      add('bound', path, Array(maxItems + 1).fill(first), false, `${maxItems + 1} items, over the maximum`);
      add('bound', path, Array(maxItems).fill(first), true, `${maxItems} items, the maximum`);
    }
    if (first !== undefined && isRecord(node.items)) walk(node.items as JsonSchema, first, [...path, 0]);
  }

  function walkObject(
    node: JsonSchema,
    branch: JsonSchema,
    value: Record<string, unknown>,
    path: WirePath,
  ): void {
    const properties = (branch.properties ?? {}) as Record<string, JsonSchema>;
    // What any branch the value meets requires (with "a or b" and both present, each may be left out).
    const met = branches(node).filter((b) => accepts(b, 'object') && holdsRequired(b, value));
    const required = new Set(met.flatMap((b) => (b.required ?? []) as string[]));
    for (const key of required) {
      // Left out, the member may still leave another branch whole ("credify_id or local_id").
      const { [key]: _left, ...rest } = value;
      const stillValid = branches(node).some((b) => accepts(b, 'object') && holdsRequired(b, rest));
      add('required', [...path, key], ABSENT, stillValid, 'a required member left out');
      // Present only under another spelling of its name (camelCase): the member is still missing. A
      // model that binds members by their camelCase alias too (Pydantic's populate_by_name, Rails'
      // deep_transform_keys(&:underscore)) reads it as the member.
      const other = camelCase(key);
      if (other !== undefined && !(other in value))
        cases.push({
          label: `${wirePath([...path, other])} = ${show(value[key])} in place of ${key} (the member's name in camelCase)`,
          kind: 'required',
          path: [...path, key],
          set: [
            [[...path, key], ABSENT],
            [[...path, other], value[key]],
          ],
          valid: stillValid,
          // A market that refuses members the document does not name may name that one instead.
          alternatives: [[...path, other]],
        });
    }
    // Each member no branch the value meets requires, left out: the document allows the body
    // without it (an invoice's url or issued_at, the invoice itself), so a market requiring it is wrong.
    for (const key of Object.keys(value))
      if (!required.has(key) && key in properties)
        add('required', [...path, key], ABSENT, true, 'an optional member left out');
    // Members only some branches require form a one-of requirement: a refusal may name any of them.
    const shared = new Set((node.required ?? []) as string[]);
    const oneOf = [
      ...new Set(
        branches(node).flatMap((b) => ((b.required ?? []) as string[]).filter((k) => !shared.has(k))),
      ),
    ];
    for (const [key, child] of Object.entries(value)) {
      const member = properties[key];
      if (member !== undefined) walk(member, child, [...path, key]);
    }
    if (oneOf.length < 2) return;
    // The cases about a member of the requirement itself (this object's, not a nested one's).
    for (const c of cases) {
      const key = c.path.at(-1);
      if (c.path.length !== path.length + 1 || !oneOf.includes(String(key))) continue;
      if (wirePath(c.path.slice(0, -1)) !== wirePath(path)) continue;
      c.alternatives = [
        ...(c.alternatives ?? []),
        ...oneOf.filter((k) => k !== key).map((k) => [...path, k]),
      ];
    }
  }

  walk(schema, base, []);
  // Every field of one enum set to one other value: consistent with each other, still outside the domain.
  for (const group of enums.values()) {
    if (group.paths.length < 2) continue;
    const other = otherEnumValue(group.values);
    cases.push({
      label: `every field of ${JSON.stringify(group.values)} (${group.paths.map(wirePath).join(', ')}) = ${JSON.stringify(other)} (consistent, but not listed)`,
      kind: 'consistent',
      path: group.paths[0]!,
      set: group.paths.map((p) => [p, other] as const),
      valid: false,
    });
  }
  return cases;
}

/** A value of the same shape as the listed ones, not listed: a currency code for currencies. */
function otherEnumValue(values: readonly unknown[]): string {
  const threeLetters = values.every((v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v));
  const pool = threeLetters ? ['USD', 'EUR', 'JPY'] : ['PIECE', 'OTHER', 'UNKNOWN'];
  return pool.find((candidate) => !values.includes(candidate))!;
}

/** `base` with the case's values set (a deep copy; the base is not changed). */
export function applyCase(base: unknown, c: Pick<DomainCase, 'set'>): unknown {
  let body = structuredClone(base);
  // A case about the body itself (its path empty) replaces it whole.
  for (const [path, value] of c.set) if (path.length === 0) body = structuredClone(value);
  for (const [path, value] of c.set) setAt(body, path, value);
  return body;
}

export function setAt(target: unknown, path: WirePath, value: unknown): void {
  if (path.length === 0) return;
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === ABSENT) delete node[last];
  else node[last] = structuredClone(value);
}

export function getAt(target: unknown, path: WirePath): unknown {
  let node = target;
  for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
  return node;
}

/** Runs `task` over `items`, at most `limit` at a time, answers in the items' order. */
export async function pooled<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
