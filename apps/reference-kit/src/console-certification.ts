/**
 * The embedded sandbox console's Certification page, run by this server: certify (contract-tests'
 * `runContractSuite`) against this server itself, with its embedded sandbox playing the service and
 * the HTML reporter's page as the run's detail. The sandbox only knows the `CertificationRunner`
 * interface (it may not import contract-tests); this is the implementation it is given.
 *
 * Restart is declared lacking: the page cannot stop and start the process it runs in. The notice
 * says what that gives up and how the CLI exercises it.
 */
import { DEFAULT_PATHS, type IntegrationMode } from '@bnpl-kit/core';
import type { CertificationRunner } from '@bnpl-kit/sandbox';

/** What a run needs of this server; known once it listens and its sandbox is up. */
export interface CertificationTarget {
  /** PUBLIC_BASE_URL: the market, and where the BNPL flow's callback page is. */
  marketUrl: string;
  marketToken: string;
  callbackUrl: string;
  /** The embedded sandbox as the contract suite drives it (admin API over HTTP). */
  serviceUrl: string;
  organizationId: string;
  apiKey: string;
  signingKey: string;
}

export interface ConsoleCertificationOptions {
  /** Only these check IDs or prefixes (as `certify --only`); default every check of the mode. */
  only?: readonly string[];
}

export const RESTART_NOTICE =
  'Runs with --lacks restart: the page cannot restart the server it runs in, so ' +
  'restart.state-survives (orders, tokens and jobs survive a restart) is not exercised. To run it, ' +
  'certify from the CLI with the command that starts this server, e.g. ' +
  'bnpl-kit certify --mode <mode> --market-url <this server> --start-command "<how you start it>".';

/** The market URL from the organisation's API base URL (`…/v1`), else this server's own. */
function marketUrlOf(apiBaseUrl: string | undefined, fallback: string): string {
  if (!apiBaseUrl) return fallback;
  const trimmed = apiBaseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(DEFAULT_PATHS.prefix) ? trimmed.slice(0, -DEFAULT_PATHS.prefix.length) : trimmed;
}

export function createConsoleCertifier(
  mode: IntegrationMode,
  target: () => CertificationTarget | undefined,
  options: ConsoleCertificationOptions = {},
): CertificationRunner {
  return {
    modes: [mode],
    notice: RESTART_NOTICE,
    async start(request, onResult) {
      const t = target();
      if (!t) throw new Error('The server is still starting: certification runs once it listens');
      // Loaded on the first run only: the contract suite is not what a server start should pay for.
      const { createHttpSandbox, formatHtmlReport, runContractSuite } = await import(
        '@bnpl-kit/contract-tests'
      );
      const report = await runContractSuite({
        marketUrl: marketUrlOf(request.apiBaseUrl, t.marketUrl),
        mode: request.mode,
        marketToken: t.marketToken,
        bnplCallbackUrl: t.callbackUrl,
        lacks: ['restart'],
        ...(options.only && { only: options.only }),
        sandbox: createHttpSandbox({
          url: t.serviceUrl,
          organizationId: request.organizationId,
          apiKey: t.apiKey,
          signingKey: t.signingKey,
        }),
        onResult: (result) =>
          onResult({
            id: result.id,
            title: result.title,
            status: result.status,
            durationMs: result.durationMs,
            ...(result.message !== undefined && { message: result.message }),
          }),
      });
      return { ok: report.ok, summary: { ...report.summary }, html: formatHtmlReport(report) };
    },
  };
}
