/**
 * Offer conditions (WIRE §7). Each level of an offer carries one condition; the JSON shape is:
 *
 *   Leaf      { "kind": <leaf kind>, "claim": <claim ref>, "scope"?: "<scope name>", ...operands }
 *   claim ref "<org>:<claim_key>" | "phone_number" | { "name": "<claim key>", "scope"?: { "name" } | "<scope name>" }
 *             (the object form is the prior-art claim descriptor; its other members are ignored)
 *
 *   EQUALITY_CONDITION               { value: string | number | boolean }
 *   LARGER_THAN_CONDITION            { value: number | "<decimal string>" }   claim >  value
 *   LARGER_THAN_OR_EQUAL_CONDITION   { value: number | "<decimal string>" }   claim >= value
 *   LESS_THAN_CONDITION              { value: number | "<decimal string>" }   claim <  value
 *   LESS_THAN_OR_EQUAL_CONDITION     { value: number | "<decimal string>" }   claim <= value
 *   CONTAIN_CONDITION                { value: string | number | boolean }     string claim holds the
 *                                    substring, or array claim holds an equal element
 *   IN_RANGE_CONDITION               { min, max } inclusive; the prior-art { value, upper } is accepted
 *   AND_CONDITION                    { subconditions: [Condition, ...] } (prior-art name) or
 *                                    { conditions: [Condition, ...] }; at least one
 *
 * A level may also be `null` or `{}`: no condition, the level only needs its required scopes.
 * The scope of a claim is the explicit one; without it, the standard scope of a standard claim, else
 * the scope of the claim object that holds the key. Numbers and decimal strings compare as numbers.
 * Unknown members are ignored (the prior art sends `provider_id` and friends).
 */
import * as z from 'zod';
import { compareNumeric, isNumeric } from './compare.js';

/** WIRE §7 R-OFFER-05: the leaf condition kinds (an AND_CONDITION holds them). */
export const LEAF_CONDITION_KINDS = [
  'EQUALITY_CONDITION',
  'LARGER_THAN_CONDITION',
  'LARGER_THAN_OR_EQUAL_CONDITION',
  'LESS_THAN_CONDITION',
  'LESS_THAN_OR_EQUAL_CONDITION',
  'CONTAIN_CONDITION',
  'IN_RANGE_CONDITION',
] as const;
const CONDITION_KINDS = ['AND_CONDITION', ...LEAF_CONDITION_KINDS] as const;
const ORDERING_KINDS = [
  'LARGER_THAN_CONDITION',
  'LARGER_THAN_OR_EQUAL_CONDITION',
  'LESS_THAN_CONDITION',
  'LESS_THAN_OR_EQUAL_CONDITION',
] as const;
export type OrderingKind = (typeof ORDERING_KINDS)[number];

/** Deeper nesting than this is refused up front, so hostile input cannot exhaust the stack. */
export const MAX_CONDITION_DEPTH = 16;

const name = z.string().trim().min(1, { error: 'must not be empty' });
const scalar = z.union([z.string(), z.number(), z.boolean()], {
  error: 'must be a string, a number or a boolean',
});
const NUMERIC_MESSAGE = 'must be a number or a decimal string';
const numeric = z.union([z.number(), z.string().refine(isNumeric, { error: NUMERIC_MESSAGE })], {
  error: NUMERIC_MESSAGE,
});

const claimRefSchema = z.union(
  [name, z.looseObject({ name, scope: z.union([name, z.looseObject({ name })]).optional() })],
  { error: 'must be a claim key or an object with the claim "name"' },
);
export type ClaimRef = z.output<typeof claimRefSchema>;

const leaf = { claim: claimRefSchema, scope: name.optional() };

const equalitySchema = z.looseObject({ kind: z.literal('EQUALITY_CONDITION'), ...leaf, value: scalar });
const containSchema = z.looseObject({ kind: z.literal('CONTAIN_CONDITION'), ...leaf, value: scalar });
const orderingSchema = z.looseObject({ kind: z.enum(ORDERING_KINDS), ...leaf, value: numeric });
const inRangeSchema = z
  .looseObject({
    kind: z.literal('IN_RANGE_CONDITION'),
    ...leaf,
    min: numeric.optional(),
    max: numeric.optional(),
    value: numeric.optional(),
    upper: numeric.optional(),
  })
  .superRefine((c, ctx) => {
    const min = c.min ?? c.value;
    const max = c.max ?? c.upper;
    if (min === undefined)
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'the lower bound is required' });
    if (max === undefined)
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'the upper bound is required' });
    if (min !== undefined && max !== undefined && (compareNumeric(min, max) ?? 0) > 0) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'must not be below the lower bound' });
    }
  });

type LeafBase = { claim: ClaimRef; scope?: string | undefined; [extra: string]: unknown };
type Scalar = string | number | boolean;
type Numeric = string | number;

export type LeafCondition =
  | (LeafBase & { kind: 'EQUALITY_CONDITION' | 'CONTAIN_CONDITION'; value: Scalar })
  | (LeafBase & { kind: OrderingKind; value: Numeric })
  | (LeafBase & {
      kind: 'IN_RANGE_CONDITION';
      min?: Numeric | undefined;
      max?: Numeric | undefined;
      value?: Numeric | undefined;
      upper?: Numeric | undefined;
    });

export interface AndCondition {
  kind: 'AND_CONDITION';
  subconditions?: Condition[] | undefined;
  conditions?: Condition[] | undefined;
  [extra: string]: unknown;
}

export type Condition = AndCondition | LeafCondition;

const andSchema = z
  .looseObject({
    kind: z.literal('AND_CONDITION'),
    subconditions: z.array(z.lazy(() => conditionSchema)).optional(),
    conditions: z.array(z.lazy(() => conditionSchema)).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.subconditions !== undefined && c.conditions !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['conditions'],
        message: 'give subconditions or conditions, not both',
      });
    } else if ((c.subconditions ?? c.conditions ?? []).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['subconditions'], message: 'needs at least one condition' });
    }
  });

export const conditionSchema: z.ZodType<Condition> = z.discriminatedUnion(
  'kind',
  [andSchema, equalitySchema, containSchema, orderingSchema, inRangeSchema],
  {
    error: (issue) =>
      typeof issue.input !== 'object' || issue.input === null || Array.isArray(issue.input)
        ? 'a condition must be an object, or null for none'
        : `kind must be one of ${CONDITION_KINDS.join(', ')}`,
  },
);

/** The operands of an AND condition, whichever name carried them. */
export function subconditionsOf(condition: AndCondition): Condition[] {
  return condition.subconditions ?? condition.conditions ?? [];
}

/** Nesting depth of raw input, measured without recursion so that depth itself cannot crash us. */
function depthOf(raw: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[raw, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_CONDITION_DEPTH) break;
    for (const key of ['subconditions', 'conditions'] as const) {
      const children = (node as Record<string, unknown>)[key];
      if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** One level of an offer: a condition, or `null` (written `null` or `{}`) for "no condition". */
export const levelConditionSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    if (depthOf(raw) > MAX_CONDITION_DEPTH) {
      ctx.addIssue({ code: 'custom', message: `conditions nest deeper than ${MAX_CONDITION_DEPTH} levels` });
    }
  })
  .transform((raw) =>
    raw === null || (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)
      ? null
      : raw,
  )
  .pipe(conditionSchema.nullable());
