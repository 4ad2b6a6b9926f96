/**
 * RFC 9457 problem details as every kit endpoint answers them (WIRE §2), and the shared response
 * objects built on them. Members are optional and extra members allowed because a market not built
 * on the kit may use its own vocabulary; the kit itself always sends type, title, status and code.
 */
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode, PROBLEM_CONTENT_TYPE } from '../errors.js';
import type { SchemaSet } from './schemas.js';
import type { ResponseObject } from './types.js';

export const problemSchema = z.looseObject({
  type: z.string().optional().meta({
    description:
      'For the kit: the code’s entry in the error catalogue (docs/errors.md#<code>); any URI elsewhere',
  }),
  title: z.string().optional(),
  status: z.int().min(400).max(599).optional(),
  detail: z.string().optional(),
  code: z
    .string()
    .optional()
    .meta({ description: 'The kit’s closed code union (recommended, not required)' }),
  errors: z
    .array(z.looseObject({ path: z.string(), message: z.string() }))
    .optional()
    .meta({ description: 'Field issues of a validation failure, paths in wire terms' }),
});

/** Why a status happens, per code, for the response descriptions. */
function codesFor(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
}

export function problemResponses(
  set: SchemaSet,
  statuses: readonly number[],
): Record<string, ResponseObject> {
  return problemResponsesOf(
    set,
    statuses.map((status) => [status, codesFor(status)]),
  );
}

/** The problems an endpoint answers, by code (the market route table), grouped by their status. */
export function problemResponsesForCodes(
  set: SchemaSet,
  codes: readonly ErrorCode[],
): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return problemResponsesOf(
    set,
    [...byStatus].sort(([a], [b]) => a - b),
  );
}

function problemResponsesOf(
  set: SchemaSet,
  groups: readonly (readonly [number, readonly ErrorCode[]])[],
): Record<string, ResponseObject> {
  const schema = set.ref('Problem', problemSchema, 'RFC 9457 problem details (WIRE §2)');
  const out: Record<string, ResponseObject> = {};
  for (const [status, codes] of groups) {
    out[String(status)] = {
      description: codes.length > 0 ? `Problem: ${codes.join(', ')}` : 'Problem',
      content: { [PROBLEM_CONTENT_TYPE]: { schema } },
    };
  }
  out.default = {
    description: 'Any other problem (WIRE §2 status mapping)',
    content: { [PROBLEM_CONTENT_TYPE]: { schema } },
  };
  return out;
}
