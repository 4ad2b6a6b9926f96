/**
 * What an answer must be, from the document alone: a documented status; for a problem, a `code`
 * that status lists; a body that matches the documented schema; never a success for a body the
 * document makes invalid; for a body the document accepts, a 400 only when it breaks one of the
 * cross-field rules the operation lists (`x-bnpl-rules`, judged by cross-field.ts), and never a
 * success when it breaks one.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Schema } from './arbitrary.js';
import { rulesBrokenBy } from './cross-field.js';
import type { GeneratedRequest, Operation, Verdict } from './requests.js';

export interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

export class Judge {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<Schema, ValidateFunction>();

  constructor(document: { components?: { schemas?: Record<string, Schema> } }) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema({ $id: 'doc', components: document.components ?? {} });
  }

  private validator(schema: Schema): ValidateFunction {
    let validate = this.cache.get(schema);
    if (!validate) {
      validate = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')),
      );
      this.cache.set(schema, validate);
    }
    return validate;
  }

  /** The request body's verdict by the operation's schema, for generated and type-mutated bodies. */
  verdictOf(op: Operation, request: GeneratedRequest): Verdict {
    if (request.verdict !== 'unknown' || request.value === undefined) return request.verdict;
    if (request.kind !== 'valid' && request.kind !== 'wrong-type' && request.kind !== 'missing-member')
      return 'unknown';
    const media = op.operation.requestBody?.content['application/json'];
    if (!media) return 'unknown';
    const validate = this.validator(media.schema);
    return validate(request.value) ? 'valid' : 'invalid';
  }

  /** Why the answer breaks the document, or undefined. */
  judge(
    op: Operation,
    request: GeneratedRequest,
    verdict: Verdict,
    answer: Answer,
    refusedFor: Record<string, number> = {},
  ): string | undefined {
    const documented = op.operation.responses[String(answer.status)] ?? op.operation.responses.default;
    if (!documented) return `status ${answer.status} is not documented`;
    if (answer.status < 400 && verdict === 'invalid')
      return `a body invalid by the document was accepted (${answer.status})`;
    const media = documented.content?.[answer.contentType];
    if (documented.content && !media)
      return `content type ${answer.contentType} is not documented for ${answer.status}`;
    if (media) {
      const validate = this.validator(media.schema);
      if (!validate(answer.body))
        return `the ${answer.status} body does not match its schema: ${this.ajv.errorsText(validate.errors)}`;
    }
    if (verdict === 'valid' && request.kind === 'valid') return judgeRules(op, request, answer, refusedFor);
    return undefined;
  }
}

/**
 * A body valid by the document, sent as generated: a 400 must be explained by a listed rule it
 * breaks, and a success means it broke none. Rules refused with another status (409, 403, 401)
 * explain no 400.
 */
function judgeRules(
  op: Operation,
  request: GeneratedRequest,
  answer: Answer,
  refusedFor: Record<string, number>,
): string | undefined {
  const listed = (op.operation['x-bnpl-rules'] ?? [])
    .map((rule) => rule.id)
    .filter((id) => !NOT_A_400.has(id));
  const { broken, notJudged } = rulesBrokenBy(listed, { value: request.value, params: request.params });
  if (answer.status < 300 && broken.length > 0)
    return `a body valid by the document that breaks ${broken.join(', ')} was accepted (${answer.status})`;
  if (answer.status !== 400) return undefined;
  const explanation = broken.length > 0 ? broken : notJudged.length > 0 ? ['not judged'] : [];
  if (explanation.length === 0)
    return `a body valid by the document was refused with 400, and it breaks none of the listed rules (${listed.join(', ') || 'none listed'})`;
  for (const id of explanation) refusedFor[id] = (refusedFor[id] ?? 0) + 1;
  return undefined;
}

/**
 * Listed rules whose refusal is not a 400 (docs/protocol.md): a reference reused with other content
 * (409), an order action in the wrong state (409), another user's ID (403), webhook signatures (401).
 */
export const NOT_A_400 = new Set([
  'R-EP-03',
  'R-EP-06',
  'R-EP-08',
  'R-EP-13',
  'R-WH-08',
  'R-WH-09',
  'R-WH-10',
]);
