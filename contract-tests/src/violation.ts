/**
 * How a check fails or steps aside. A `ContractViolation` carries what the specification requires,
 * what the market did, and which part of the specification that breaks, so a report line is enough
 * to start fixing. `CheckSkipped` is not a failure: a capability the check needs is missing.
 */
import { describeExchange, type HttpExchange } from './http.js';
import type { MarketCapability } from './types.js';

export interface ViolationDetails {
  /** What a correct market does, e.g. "401 problem+json for a webhook signed 10 min ago". */
  expected: string;
  /** What happened; defaults to a description of `exchange`. */
  actual?: string;
  /** The exchange that shows it. */
  exchange?: HttpExchange | undefined;
  /** A narrower part of the specification than the check's own, e.g. `WIRE §2`. */
  spec?: string;
  /**
   * The rule of docs/protocol.md this failure breaks, when narrower than the check's own list
   * (`R-SVC-13`); the report names it, else the check's rules.
   */
  rule?: string;
  /**
   * Names the defect itself, apart from the request that showed it (e.g. one OpenAPI mismatch of
   * one operation): the runner fails the first check that meets it and reports every later check
   * that meets the same defect "not run (needs <that check>)", so one defect is one failure.
   */
  defect?: string;
}

export class ContractViolation extends Error {
  readonly expected: string;
  readonly actual: string;
  readonly spec: string | undefined;
  readonly rule: string | undefined;
  readonly defect: string | undefined;

  constructor(details: ViolationDetails) {
    const actual =
      details.actual ?? (details.exchange ? describeExchange(details.exchange) : 'something else');
    super(`expected ${details.expected}; got ${actual}`);
    this.name = 'ContractViolation';
    this.expected = details.expected;
    this.actual = actual;
    this.spec = details.spec;
    this.rule = details.rule;
    this.defect = details.defect;
  }

  /**
   * Multi-line text for reports: expected, got, specification, and the rule IDs of docs/protocol.md
   * applied (this violation's own rule, else the check's).
   */
  describe(checkSpec: string, checkRules: readonly string[] = []): string {
    const spec = this.spec && this.spec !== checkSpec ? `${this.spec} (check: ${checkSpec})` : checkSpec;
    const rules = this.rule ? [this.rule] : checkRules;
    return [
      `Expected: ${this.expected}`,
      `Got:      ${this.actual}`,
      `Broken:   ${spec}`,
      ...(rules.length > 0 ? [`Rule:     ${rules.join(', ')} (docs/protocol.md)`] : []),
    ].join('\n');
  }
}

export class CheckSkipped extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
    this.reason = reason;
  }
}

export function isContractViolation(error: unknown): error is ContractViolation {
  return error instanceof ContractViolation;
}

/**
 * A step another check certifies failed here too (creating an order, for one). When that check
 * failed in the same run, this check is reported "not run (needs <id>)" instead of failing for a
 * reason that is not its own; otherwise the violation counts as this check's failure.
 */
export class PrerequisiteFailed extends Error {
  readonly prerequisite: string;
  readonly violation: ContractViolation;

  constructor(prerequisite: string, violation: ContractViolation) {
    super(violation.message);
    this.name = 'PrerequisiteFailed';
    this.prerequisite = prerequisite;
    this.violation = violation;
  }
}

/** Thrown by `ctx.notExercised`: the market's path the check is about was never reached. */
export class CheckNotExercised extends Error {
  constructor(
    readonly capability: MarketCapability,
    readonly reason: string,
  ) {
    super(`not exercised: ${reason}`);
    this.name = 'CheckNotExercised';
  }
}
