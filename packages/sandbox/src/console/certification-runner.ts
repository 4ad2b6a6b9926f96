/**
 * What the console's Certification page needs from a certification runner. The sandbox cannot run
 * certify itself (`@bnpl-kit/contract-tests` depends on the sandbox, never the other way round), so
 * whoever has both (the reference servers) passes a runner as the `certification` option.
 */
import type { IntegrationMode } from '@bnpl-kit/core';

/** One check's verdict, as the page lists it while the run goes. */
export interface CertificationCheck {
  id: string;
  title: string;
  /** `pass`, `fail`, `skip`, `not-run` or `not-exercised`. */
  status: string;
  durationMs: number;
  message?: string;
}

/** What a finished run hands back: its verdict and the report page (self-contained HTML). */
export interface CertificationOutcome {
  ok: boolean;
  summary: Record<string, number>;
  html: string;
}

export interface CertificationRequest {
  mode: IntegrationMode;
  /** The organisation whose market is certified, and that market's API base URL. */
  organizationId: string;
  apiBaseUrl: string | undefined;
}

export interface CertificationRunner {
  /** The modes this runner can certify (the page offers these). */
  modes: readonly IntegrationMode[];
  /** What the page says about the run's limits, e.g. a declared `--lacks restart` and the CLI way. */
  notice?: string;
  start(
    request: CertificationRequest,
    onResult: (check: CertificationCheck) => void,
  ): Promise<CertificationOutcome>;
}
