/**
 * RFC 9457 problem details as every kit endpoint answers them (WIRE §2), and the response objects
 * built on them: one per status an operation can answer, whose `code` is one of that status's codes
 * for the operation. `title` and `status` are required (the kit always sends them, with `type`).
 * `type` may be absent, meaning `about:blank` (RFC 9457 §3.1.1), and `code` too: WIRE §2 (R-ERR-13,
 * R-ERR-14) lets a market not built on the kit leave both out, and certify judges such markets
 * against these documents. Extra members are allowed.
 */
import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode, PROBLEM_CONTENT_TYPE } from '../errors.js';
import type { SchemaSet } from './schemas.js';
import type { JsonSchema, ResponseObject } from './types.js';

export const problemSchema = z.looseObject({
  type: z.string().optional().meta({
    default: 'about:blank',
    description:
      'For the kit: the code’s entry in the error catalogue (docs/errors.md#<code>); any URI elsewhere',
  }),
  title: z.string(),
  status: z.int().min(400).max(599),
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

/** Response headers a problem of this code carries. */
const HEADERS: Partial<Record<ErrorCode, ResponseObject['headers']>> = {
  method_not_allowed: {
    Allow: { description: 'The methods this path answers', required: true, schema: { type: 'string' } },
  },
};

/**
 * The problems an operation answers, by code, grouped by their status: each status's `Problem`
 * narrowed to that status and the operation's codes for it.
 */
export function problemResponses(
  set: SchemaSet,
  codes: readonly ErrorCode[],
): Record<string, ResponseObject> {
  const problem = set.ref('Problem', problemSchema, 'RFC 9457 problem details (WIRE §2)');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, ResponseObject> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema: JsonSchema = {
      allOf: [
        problem,
        {
          properties: {
            status: { const: status },
            code: { type: 'string', enum: group },
          },
        },
      ],
    };
    const headers = Object.assign({}, ...group.map((code) => HEADERS[code] ?? {}));
    out[String(status)] = {
      description: `Problem: ${group.join(', ')}`,
      ...(Object.keys(headers).length > 0 && { headers }),
      content: { [PROBLEM_CONTENT_TYPE]: { schema } },
    };
  }
  return out;
}
