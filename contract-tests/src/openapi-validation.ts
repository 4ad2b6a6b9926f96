/**
 * Every answer the suite receives from the market is validated against the kit's OpenAPI document
 * for the mode under test (`@bnpl-kit/core/openapi`, the same one docs/openapi commits and the
 * reference servers serve), so the document cannot drift from what markets answer. A mismatch
 * fails the check that received it, naming the operation and the first schema errors.
 *
 * Paths are matched on their end (`…/v1/orders/{id}/cancel`) so a market mounted under a prefix is
 * still recognised; a path the document does not describe (the suite's own probes of unknown
 * routes) is not judged here. Error answers are checked only when they are problem+json, as
 * WIRE §2 lets a market not built on the kit use its own vocabulary.
 */
import { type MarketOpenApiOptions, marketOpenApi, type OpenApiDocument } from '@bnpl-kit/core/openapi';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { HttpExchange } from './http.js';
import { ContractViolation } from './violation.js';

interface DocumentedResponse {
  mediaTypes: Map<string, ValidateFunction>;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  /** How many literal segments: the more specific template wins when two match. */
  literals: number;
  responses: Map<string, DocumentedResponse>;
}

function compile(document: OpenApiDocument): Operation[] {
  // verbose: an error carries the value and its schema, so a pattern that stands for a format is
  // reported as that format, with the value, not as the pattern's text.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, verbose: true });
  ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const pattern = new RegExp(
      `${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    );
    for (const [method, operation] of Object.entries(item)) {
      if (!operation) continue;
      const responses = new Map<string, DocumentedResponse>();
      for (const [status, response] of Object.entries(operation.responses)) {
        const mediaTypes = new Map<string, ValidateFunction>();
        for (const [type, media] of Object.entries(response.content ?? {})) {
          // Component references resolve against the registered document.
          const schema = JSON.parse(
            JSON.stringify(media.schema).replaceAll('"#/components/', '"openapi#/components/'),
          );
          mediaTypes.set(type, ajv.compile(schema));
        }
        responses.set(status, { mediaTypes });
      }
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        pattern,
        literals: path.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
        responses,
      });
    }
  }
  return operations;
}

/** One schema error; `withValue` names the value too (not in a defect's name, which every request shares). */
function describeError(error: ErrorObject, withValue: boolean): string {
  const where = error.instancePath || '(body)';
  // zod writes a format as `format` and `pattern`; the document's description says it in words.
  const { format, description } = (error.parentSchema ?? {}) as { format?: unknown; description?: unknown };
  if (error.keyword === 'pattern' && typeof format === 'string') {
    const value = withValue ? ` is ${JSON.stringify(error.data)},` : '';
    const words = typeof description === 'string' ? description : `the document's ${format} pattern`;
    return `${where}${value} not a ${format} (${words})`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined, withValue = false): string {
  return (errors ?? [])
    .slice(0, 3)
    .map((error) => describeError(error, withValue))
    .join('; ');
}

export type ResponseCheck = (exchange: HttpExchange) => void;

const cache = new Map<string, Operation[]>();

/** A check for the answers of a market in `mode`, against the kit's document for that mode. */
export function openApiResponseCheck(mode: MarketOpenApiOptions['integrationMode']): ResponseCheck {
  let operations = cache.get(mode);
  if (!operations) {
    operations = compile(marketOpenApi({ integrationMode: mode, mode: 'sandbox' }));
    cache.set(mode, operations);
  }
  const known = operations;
  return (exchange) => {
    const { pathname } = new URL(exchange.request.url);
    const operation = known
      .filter((o) => o.method === exchange.request.method && o.pattern.test(pathname))
      .sort((a, b) => b.literals - a.literals)[0];
    if (!operation) return;
    const status = String(exchange.status);
    const documented = operation.responses.get(status) ?? operation.responses.get('default');
    const success = exchange.status < 400;
    // `defect` names the mismatch apart from the request (the same schema error of the same operation is one defect).
    const fail = (mismatch: string, defect = mismatch) => {
      throw new ContractViolation({
        expected: `an answer to ${operation.id} (${operation.method} ${operation.path}) that matches docs/openapi`,
        actual: `${mismatch}\n    ${exchange.request.method} ${exchange.request.url} → ${exchange.status}`,
        spec: `WIRE §5 (OpenAPI operation ${operation.id})`,
        rule: 'R-EP-20',
        // The same mismatch of the same operation is one defect, whichever check's request met it.
        defect: `openapi ${operation.id}: ${defect}`,
      });
    };
    if (!documented || (success && !operation.responses.has(status))) {
      if (success) fail(`status ${status} is not documented for ${operation.id}`);
      return;
    }
    if (documented.mediaTypes.size === 0) return;
    const type = exchange.mediaType();
    const validate = documented.mediaTypes.get(type);
    if (!validate) {
      if (success)
        fail(`content type ${type || '(none)'}, documented: ${[...documented.mediaTypes.keys()].join(', ')}`);
      return;
    }
    const body = exchange.json();
    if (body === undefined) return fail(`a ${type} body that is not JSON`);
    if (!validate(body))
      fail(
        `the body does not match the ${status} schema: ${describeErrors(validate.errors, true)}`,
        `the body breaks its schema: ${describeErrors(validate.errors)}`,
      );
  };
}
