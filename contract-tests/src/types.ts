/**
 * The shapes of the contract suite: a check is data (ID, title, modes, the part of the specification
 * it enforces) plus an async `run(ctx)` that talks to a market over HTTP only, so the same checks
 * certify a market written in any language (graphql-http's `audits` do the same for GraphQL servers).
 */
import type { ClaimObject, IntegrationMode, MarketPaths } from '@bnpl-kit/core';
import type { ExchangeRecord } from './exchange-record.js';
import type { ContractHttp } from './http.js';
import type { ContractSandbox } from './sandbox/driver.js';

/** The `modes` of a check that applies everywhere, or only to data-sharing markets. */
export const BOTH_MODES: readonly IntegrationMode[] = ['basic', 'data-sharing'];
export const DATA_SHARING_ONLY: readonly IntegrationMode[] = ['data-sharing'];

/**
 * An end user of the market, as the suite knows them: the internal user ID, a session token the
 * market's `authenticateInternalUser` accepts as `Authorization: Bearer <token>`, and (optionally)
 * the user's claim object as the market stores it, commitment entries included when it has them.
 */
export interface TestUser {
  id: string;
  sessionToken?: string | undefined;
  claims?: ClaimObject | undefined;
}

export interface CheckContext {
  readonly mode: IntegrationMode;
  /** The market's base URL, without the `/v1` prefix (e.g. `http://127.0.0.1:3000`). */
  readonly marketUrl: string;
  readonly paths: MarketPaths;
  /** The webhook URL as registered at the service: the URL signatures are made for. */
  readonly webhookUrl: string;
  /** HTTP to the market; every exchange is recorded for failure messages. */
  readonly http: ContractHttp;
  /** The service's part, played by the sandbox: provider actions, deliveries, claim tokens, signing. */
  readonly sandbox: ContractSandbox;
  /** `Authorization` for the market's own systems (orders, status, cancel, disburse). */
  readonly systemAuth: Readonly<Record<string, string>>;
  /** Webhook time window the market is expected to enforce (WIRE §4: ±300 s). */
  readonly toleranceSeconds: number;
  /** Largest webhook body the market is expected to accept (WIRE §4: 256 KiB). */
  readonly maxBodyBytes: number;
  /** `BNPL_CALLBACK_URL` the market was configured with, when known. */
  readonly bnplCallbackUrl: string | undefined;
  /** `marketUrl + prefix + path`. */
  url(path: string): string;
  /** A value no earlier run used: reference IDs, event IDs. */
  unique(prefix: string): string;
  /** The market's end users (from the options or `GET /v1/demo-user`), fetched afresh. */
  users(): Promise<TestUser[]>;
  /** The claims the market stored for a user, commitments included, or undefined when not observable. */
  storedClaims(user: TestUser): Promise<ClaimObject | undefined>;
  /**
   * The seed of this check's generated cases (fast-check): the run's seed mixed with the check ID,
   * so a failure replays with the same `--seed` (support/generated.ts).
   */
  readonly seed: number;
  /**
   * Restarts the market (certify's `--restart-command`), resolving once it answers again; undefined
   * when the run was given no way to restart it.
   */
  readonly restartMarket: (() => Promise<void>) | undefined;
  /** Ends the check as skipped: a capability it needs is not available. */
  skip(reason: string): never;
  /**
   * Ends the check as "not exercised": the market's code path the check is about was never reached
   * (the market lacks `capability`, e.g. `auto-disbursement`), so nothing was proven. Strict runs
   * fail on it unless the market declares that capability missing (`--lacks <capability>`).
   */
  notExercised(capability: MarketCapability, why: string): never;
  /**
   * Notes advice in the report without failing: a recommendation (the kit's problem vocabulary),
   * never a rule that could not be observed (that is `notExercised`).
   */
  advise(note: string): void;
}

/**
 * What a market may lack, each making some checks "not exercised": a market declares the ones it
 * lacks (`--lacks`), so that a strict run accepts those verdicts.
 */
export const MARKET_CAPABILITIES = {
  restart: 'certify can restart the market (--restart-command), to see what survives a restart',
  'stored-commitments':
    'the market exposes the claims it stored with their commitments (demo-user "claims", or the storedClaims option)',
  'disburse-on-readiness':
    'the data-sharing market disburses by itself on readiness (WIRE §3 R-STATE-06 lets it leave that to its systems instead)',
  'own-record':
    "certify can read the market's own order record: its status endpoint answers 200 while the service fails, or, for an order the service holds PENDING, with the service healthy",
  'overlapping-requests':
    'the market acknowledges a webhook for an order while a status read of that order waits on the service (one that serializes them, with a lock held across the service call or one request at a time, never lets a read race a webhook)',
} as const;
export type MarketCapability = keyof typeof MARKET_CAPABILITIES;

export interface ContractCheck {
  /** Stable, dotted: `area.subject[.case]`. Reports and `--only` name checks by it. */
  id: string;
  title: string;
  modes: readonly IntegrationMode[];
  /** The part of the specification enforced: `WIRE §4`, `spec: Authentication`. */
  spec: string;
  /**
   * The rules of docs/protocol.md this check exercises (`R-WH-04`): at least one, each written there.
   * docs/conformance-matrix.md is generated from them (contract-tests/test/rule-matrix.test.ts).
   */
  rules: readonly string[];
  run(ctx: CheckContext): Promise<void>;
}

/**
 * `skip`: a capability the check needs is missing (the market must expose it; a skip fails the run
 * unless skips are allowed). `not-run`: a prerequisite check failed, or the run's deadline passed.
 * `not-exercised`: the check ran but the market's path it is about was never reached (see
 * `CheckContext.notExercised`); it fails a strict run unless the capability is declared lacking.
 */
export type CheckStatus = 'pass' | 'fail' | 'skip' | 'not-run' | 'not-exercised';

export interface CheckResult {
  id: string;
  title: string;
  spec: string;
  status: CheckStatus;
  durationMs: number;
  /** Why it failed (expected, got, request, specification), was skipped or was not run. */
  message?: string;
  /** For `not-run`: the check whose failure kept this one from running. */
  needs?: string;
  /** For `fail`: the defect it met, when it names one (`ContractViolation.defect`), so later checks meeting it are not run. */
  defect?: string;
  /** Advice that is not a failure, e.g. the kit's problem vocabulary not used (WIRE §2). */
  advisories?: string[];
  /** For `not-exercised`: the capability the market lacks, and whether it declared so. */
  lacks?: { capability: MarketCapability; declared: boolean };
  /** The rules of docs/protocol.md the check exercises (its `rules`), for links in reports. */
  rules?: readonly string[];
  /** For a failure that is a contract violation: what a correct market does, and what happened. */
  violation?: { expected: string; actual: string; spec: string };
  /** For `fail` and `not-exercised`: the check's HTTP exchanges (the last ones), secrets masked. */
  exchanges?: ExchangeRecord[];
}

export interface ContractReport {
  marketUrl: string;
  mode: IntegrationMode;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: {
    total: number;
    passed: number;
    failed: number;
    skipped: number;
    notRun: number;
    notExercised: number;
  };
  /** The seed of the generated cases (`--seed` / BNPL_CERTIFY_SEED replays them). */
  seed: number;
  /** Capabilities the market declared it lacks (`--lacks`). */
  lacks: MarketCapability[];
  /** Every check ran (none skipped or not run). */
  complete: boolean;
  /** Skips were allowed for this run (`--allow-skips`). */
  allowSkips: boolean;
  /**
   * No check failed, and the run is complete unless skips were allowed; every "not exercised"
   * verdict is for a capability the market declared lacking.
   */
  ok: boolean;
}
