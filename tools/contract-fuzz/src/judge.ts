/**
 * What an answer must be, from the document alone: a documented status; for a problem, a `code`
 * that status lists; a body that matches the documented schema; never a success for a body the
 * document makes invalid; and a 400 for a body the document accepts only when the operation lists
 * a rule beyond the schema (`x-bnpl-rules`).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Schema } from './arbitrary.js';
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
  judge(op: Operation, verdict: Verdict, answer: Answer): string | undefined {
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
    if (answer.status === 400 && verdict === 'valid') {
      const code = (answer.body as { code?: string } | null)?.code;
      if (code === 'validation_failed' && (op.operation['x-bnpl-rules'] ?? []).length === 0)
        return 'a body valid by the document was refused with validation_failed, and the operation lists no rule beyond its schema';
    }
    return undefined;
  }
}
