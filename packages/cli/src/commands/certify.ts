/**
 * `bnpl-kit certify`: the contract suite against a running market, in any language. It starts the
 * standalone sandbox as the market's BNPL service, prints exactly how the market must be configured
 * (as `export` lines), waits for the market to answer, runs every check of the mode, prints the
 * report (and writes it as JUnit XML, JSON or text), and exits 1 if any check failed, or was skipped
 * or not run (strict by default: a skipped check is not a passed one; `--allow-skips` relaxes that).
 * Progress is printed as checks run; every request has a timeout and `--deadline` bounds the run.
 *
 * Keys come from `--config` (e.g. a file written earlier by `--save-config`) or flags, and are
 * generated otherwise, so a market that is already configured can be certified again without a restart.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import {
  type Certification,
  type CheckResult,
  type ContractCheck,
  checksFor,
  formatReport,
  formatTextReport,
  MARKET_CAPABILITIES,
  type MarketCapability,
  reportFormatFor,
  runContractSuite,
  startCertification,
  waitForHttp,
} from '@bnpl-kit/contract-tests';
import type { IntegrationMode } from '@bnpl-kit/core';
import { CommanderError, InvalidArgumentError, Option } from 'commander';
import { type CliIO, type CommandModule, processIO } from '../index.js';
import { type MarketProcess, marketProcess } from './market-process.js';

interface CertifyFlags {
  marketUrl: string;
  mode: IntegrationMode;
  sandboxPort: number;
  sandboxHost: string;
  config?: string;
  saveConfig?: string;
  orgId?: string;
  apiKey?: string;
  signingKey?: string;
  orgPublicKey?: string;
  marketToken?: string;
  callbackUrl?: string;
  report?: string;
  timeout: number;
  only?: string[];
  /** Accepted for compatibility: strict is the default now. */
  strict?: boolean;
  allowSkips?: boolean;
  /** Seconds for the whole run, checks included. */
  deadline?: number;
  /** Seconds per HTTP request to the market. */
  requestTimeout: number;
  /** Seed of the generated cases (default BNPL_CERTIFY_SEED, else fixed). */
  seed?: number;
  /** A shell command that restarts the market (certify then waits for it to answer again). */
  restartCommand?: string;
  /** A shell command that starts the market: certify runs it with the printed configuration. */
  startCommand?: string;
  /** Capabilities the market declares it lacks. */
  lacks?: MarketCapability[];
}

function seedNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError('not an integer seed');
  return value;
}

function capabilities(text: string, previous: MarketCapability[] = []): MarketCapability[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names)
    if (!(name in MARKET_CAPABILITIES))
      throw new InvalidArgumentError(
        `unknown capability ${name} (known: ${Object.keys(MARKET_CAPABILITIES).join(', ')})`,
      );
  return [...previous, ...(names as MarketCapability[])];
}

/** Runs `command` in a shell and waits until the market answers `probe` again. */
function restarter(command: string, probe: string, timeoutMs: number, io: CliIO): () => Promise<void> {
  return async () => {
    io.stderr(`Restarting the market: ${command}\n`);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, { shell: true, stdio: ['ignore', 'inherit', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`--restart-command exited with ${code}`)),
      );
    });
    await waitForHttp(probe, { timeoutMs, what: `the market to answer at ${probe} after the restart` });
  };
}

function httpUrl(text: string): string {
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text))
    throw new InvalidArgumentError('not an absolute http(s) URL');
  return text.replace(/\/+$/, '');
}

function whole(kind: 'port' | 'seconds') {
  return (text: string): number => {
    const value = Number(text);
    const ok =
      Number.isInteger(value) && value >= (kind === 'port' ? 0 : 1) && (kind !== 'port' || value <= 65535);
    if (!ok) throw new InvalidArgumentError(`not a valid ${kind === 'port' ? 'port' : 'number of seconds'}`);
    return value;
  };
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_.:/@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function exportLines(run: Certification, flags: CertifyFlags): string {
  const lines = [
    `# Configure the market under test (${flags.mode} mode, listening on ${flags.marketUrl}) with:`,
    '# (MODE is the service environment; BNPL_INTEGRATION_MODE is the integration mode to serve.)',
  ];
  for (const [name, value] of Object.entries(run.env)) lines.push(`export ${name}=${shellQuote(value)}`);
  if (flags.mode === 'data-sharing' && run.env.APP_SIGNING_KEY === undefined) {
    lines.push('# APP_SIGNING_KEY: your own; its public key is registered at the sandbox');
  }
  return `${lines.join('\n')}\n\n`;
}

const MARKS = {
  pass: 'ok  ',
  fail: 'FAIL',
  skip: 'skip',
  'not-run': 'not run',
  'not-exercised': 'not exercised',
} as const;

/** One line per check on stderr, so a slow or hanging market shows where it is. */
function progress(io: CliIO) {
  return {
    onStart(check: ContractCheck, index: number, total: number) {
      io.stderr(`[${index + 1}/${total}] ${check.id} …\n`);
    },
    onResult(result: CheckResult) {
      io.stderr(`        ${MARKS[result.status]} ${result.id} (${Math.round(result.durationMs)} ms)\n`);
    },
  };
}

async function certify(flags: CertifyFlags, io: CliIO): Promise<void> {
  const deadlineAt = flags.deadline === undefined ? undefined : Date.now() + flags.deadline * 1000;
  const format = flags.report ? reportFormatFor(flags.report) : undefined;
  if (flags.report && !format)
    throw new Error(
      `--report ${flags.report}: use a .html (a page to open in a browser), .xml (JUnit), .json or .txt file`,
    );
  // Before anything starts: a selection that names no check is refused (it throws), never an empty PASS.
  const selected = checksFor(flags.mode, flags.only);
  const run = await startCertification({
    marketUrl: flags.marketUrl,
    mode: flags.mode,
    sandboxPort: flags.sandboxPort,
    sandboxHost: flags.sandboxHost,
    ...(flags.config && {
      config: JSON.parse(await readFile(flags.config, 'utf8')) as Record<string, unknown>,
    }),
    ...(flags.orgId && { organizationId: flags.orgId }),
    ...(flags.apiKey && { apiKey: flags.apiKey }),
    ...(flags.signingKey && { serviceSigningKey: flags.signingKey }),
    ...(flags.orgPublicKey && { orgPublicKey: flags.orgPublicKey }),
    ...(flags.marketToken && { marketToken: flags.marketToken }),
    ...(flags.callbackUrl && { callbackUrl: flags.callbackUrl }),
  });
  let market: MarketProcess | undefined;
  try {
    if (flags.saveConfig) {
      // Test keys of a sandbox, but keys all the same: readable by the owner only.
      await writeFile(flags.saveConfig, `${JSON.stringify(run.savedConfig(), null, 2)}\n`, { mode: 0o600 });
    }
    io.stdout(exportLines(run, flags));
    const probe = `${flags.marketUrl}/v1/demo-user`;
    io.stderr(
      `Sandbox service on ${run.serviceUrl}. Waiting up to ${flags.timeout} s for the market at ${flags.marketUrl}…\n`,
    );
    if (flags.startCommand) {
      market = marketProcess(flags.startCommand, run.env, probe, flags.timeout * 1000, io);
      await market.start();
    } else {
      await waitForHttp(probe, { timeoutMs: flags.timeout * 1000, what: `the market to answer at ${probe}` });
    }
    io.stderr(`Running ${selected.length} ${flags.mode} checks…\n`);
    const report = await runContractSuite({
      ...run.suiteOptions,
      ...(flags.only && { only: flags.only }),
      ...progress(io),
      requestTimeoutMs: flags.requestTimeout * 1000,
      allowSkips: flags.allowSkips === true,
      ...(flags.seed !== undefined && { seed: flags.seed }),
      ...(flags.lacks && { lacks: flags.lacks }),
      ...(flags.restartCommand
        ? { restartMarket: restarter(flags.restartCommand, probe, flags.timeout * 1000, io) }
        : market && { restartMarket: market.restart }),
      ...(deadlineAt !== undefined && { deadlineAt }),
    });
    const color = io === processIO && process.stdout.isTTY === true && !('NO_COLOR' in process.env);
    io.stdout(formatTextReport(report, { color }));
    if (flags.report && format) {
      await writeFile(flags.report, formatReport(report, format));
      io.stderr(`Report written to ${flags.report}\n`);
    }
    if (!report.ok) {
      const { failed, skipped, notRun, notExercised } = report.summary;
      const why = [
        failed > 0 && `${failed} check(s) failed`,
        notRun > 0 && `${notRun} check(s) not run`,
        notExercised > 0 &&
          `${notExercised} check(s) not exercised (declare a missing capability with --lacks)`,
        skipped > 0 &&
          !report.allowSkips &&
          `${skipped} check(s) skipped (INCOMPLETE; --allow-skips accepts that)`,
      ]
        .filter(Boolean)
        .join(', ');
      throw new CommanderError(1, 'bnpl-kit.certify.failed', why);
    }
  } finally {
    const code = await market?.stop();
    if (typeof code === 'number' && code !== 0)
      io.stderr(`The market started by --start-command did not exit cleanly on SIGTERM (exit ${code}).\n`);
    await run.close();
  }
}

export const certifyCommand: CommandModule = (program, io) => {
  program
    .command('certify')
    .description(
      'run the contract suite against a market: starts the sandbox service, prints the configuration, checks',
    )
    .requiredOption('--market-url <url>', 'base URL of the market under test (without /v1)', httpUrl)
    .addOption(
      new Option('--mode <mode>', 'integration mode')
        .choices(['basic', 'data-sharing'])
        .makeOptionMandatory(),
    )
    .option('--sandbox-port <port>', 'port of the sandbox service (0 picks a free one)', whole('port'), 4010)
    .option('--sandbox-host <host>', 'interface the sandbox binds', '127.0.0.1')
    .option(
      '-c, --config <file>',
      'keys and settings to reuse (a file written by --save-config, or a sandbox config)',
    )
    .option('--save-config <file>', "write the keys and settings used, for the next run's --config")
    .option('--org-id <id>', 'organisation ID (APP_ID)')
    .option('--api-key <key>', 'API key (APP_API_KEY)')
    .option('--signing-key <key>', "the sandbox's webhook signing key (base64url seed or PKCS#8)")
    .option(
      '--org-public-key <key>',
      "the market's claim-token public key, when it keeps its own APP_SIGNING_KEY",
    )
    .option('--market-token <token>', 'MARKET_API_TOKEN the market accepts from its own systems')
    .option(
      '--callback-url <url>',
      "BNPL_CALLBACK_URL (default /bnpl/complete at the market URL's origin)",
      httpUrl,
    )
    .option(
      '--report <file>',
      'also write the report: .html (one self-contained page), .xml (JUnit), .json or .txt',
    )
    .option('--timeout <seconds>', 'how long to wait for the market to answer', whole('seconds'), 120)
    .option('--only <ids...>', 'run only these check IDs or ID prefixes (e.g. webhook.)')
    .option('--allow-skips', 'do not fail the run when a check is skipped (the report still says INCOMPLETE)')
    .option('--strict', 'fail when a check is skipped (the default; kept for older scripts)')
    .option(
      '--deadline <seconds>',
      'end the whole run after this long; checks not started by then fail',
      whole('seconds'),
    )
    .option('--request-timeout <seconds>', 'per HTTP request to the market', whole('seconds'), 10)
    .option(
      '--seed <n>',
      'seed of the generated cases (default BNPL_CERTIFY_SEED, else a fixed one)',
      seedNumber,
    )
    .addOption(
      new Option(
        '--start-command <command>',
        'shell command that starts the market: certify runs it with the printed configuration, restarts it (SIGTERM, then again) for the restart check, and stops it at the end',
      ).conflicts('restartCommand'),
    )
    .option(
      '--restart-command <command>',
      'shell command that restarts the market, so certify can check what survives a restart',
    )
    .option(
      '--lacks <capabilities>',
      `capabilities the market lacks on purpose, comma-separated (${Object.keys(MARKET_CAPABILITIES).join(', ')}): their checks are "not exercised" without failing the run`,
      capabilities,
    )
    .action((flags: CertifyFlags) => certify(flags, io));
};
