/**
 * A route may answer only what its table entry declares: a success status of `answers`, or a
 * problem whose code is in `problems` (or `internal`, which every operation may answer). The
 * documents list exactly these, so anything else breaks the published contract.
 *
 * What happens to an undeclared answer, and why:
 * - sandbox: it becomes a 500 `internal` (and an error log naming the route and the answer). The
 *   sandbox is where integrators, certify and the fuzz run, so the breach fails loudly there, the
 *   moment it happens, instead of shipping.
 * - production: the answer goes out unchanged and the same error is logged. The answer the route
 *   chose (a 409, a 404) still tells the caller more than a 500 would, and turning it into a 500
 *   would make a well-behaved service retry a webhook forever over a documentation bug.
 *
 * A KitError a hook throws on purpose is the market's own answer (the adapters' READMEs promise
 * it goes out as thrown): it passes in both modes, with a warning that the market's documents do
 * not list it. The guard holds the kit's code, which the table describes.
 */
import { type ErrorCode, KitError } from '../errors.js';
import type { MarketAnswer } from './answer.js';
import type { MarketRouteDefinition } from './route-table.js';

/** What an entry lets its route answer, as sets for one lookup per answer. */
export class DeclaredAnswers {
  readonly #statuses: ReadonlySet<number>;
  readonly #codes: ReadonlySet<ErrorCode>;

  constructor(entry: MarketRouteDefinition) {
    this.#statuses = new Set(Object.keys(entry.answers).map(Number));
    this.#codes = new Set<ErrorCode>([...entry.problems, 'internal']);
  }

  /** Why the success answer is not declared, or undefined when it is. */
  undeclaredStatus(answer: MarketAnswer): string | undefined {
    return this.#statuses.has(answer.status) ? undefined : `status ${answer.status}`;
  }

  /** Why the problem is not declared, or undefined when it is. */
  undeclaredProblem(error: KitError): string | undefined {
    return this.#codes.has(error.code) ? undefined : `problem ${error.code} (${error.status})`;
  }
}

/** The answer a sandbox gives instead of an undeclared one. */
export function undeclaredAnswer(route: string, what: string): KitError {
  return new KitError(
    'internal',
    `Route ${route} answered ${what}, which its route table entry does not declare`,
  );
}
