/** Starts one README server from the outside project and certifies it strictly, as `bnpl-kit certify` does. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ContractReport,
  formatTextReport,
  runContractSuite,
  startCertification,
  waitForHttp,
} from '@bnpl-kit/contract-tests';
import type { IntegrationMode } from '@bnpl-kit/core';
import { freePort } from '@bnpl-kit/test-ports';

/**
 * Only a hang takes this long: a start (Node, PGlite, migrations) or a healthy request on a machine
 * whose two cores run every package's suite at once. The waits end on the answer, never on this.
 */
const HUNG_MS = 200_000;
/** Per request to the server under certification: what only a hang exceeds (certify's default is 10 s). */
const LOADED_REQUEST_TIMEOUT_MS = 60_000;

/** The README server as a child process, restartable in its own working directory (its PGlite data stays). */
function exampleProcess(file: string, cwd: string, env: Record<string, string | undefined>) {
  let output = '';
  let child: ChildProcess | undefined;
  return {
    output: () => output,
    /** Starts it and resolves once `readyUrl` answers; rejects if it exits first. */
    async start(readyUrl: string): Promise<void> {
      // `node server.mjs`, with V8's baseline WebAssembly compiler only, as scripts/start.mjs runs
      // PGlite: the optimising tier's recompilation costs seconds of CPU at each of the 20 starts.
      const started = spawn(process.execPath, ['--liftoff-only', file], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout?.on('data', (chunk) => (output += chunk));
      started.stderr?.on('data', (chunk) => (output += chunk));
      const exited = once(started, 'exit').then(([code]) => {
        throw new Error(`The example exited with ${code} before answering:\n${output}`);
      });
      try {
        await Promise.race([waitForHttp(readyUrl, { timeoutMs: HUNG_MS }), exited]);
      } finally {
        exited.catch(() => {});
      }
    },
    /** SIGTERM, as a platform stops it: the README's drain must let it exit by itself, and cleanly. */
    async stop(): Promise<number | null> {
      if (child === undefined || child.exitCode !== null) return child?.exitCode ?? null;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/** `/readyz` as a load balancer sees it: the status and whether a proxy may cache the answer. */
export interface ReadinessProbe {
  status: number;
  cacheControl: string | null;
}

export interface CertifiedExample {
  report: ContractReport;
  text: string;
  output: string;
  exitCodes: (number | null)[];
  /** `GET /readyz` on the server's origin, once it answered its first request. */
  readiness: ReadinessProbe;
}

async function probeReadiness(origin: string): Promise<ReadinessProbe> {
  const response = await fetch(new URL('/readyz', origin));
  await response.body?.cancel();
  return { status: response.status, cacheControl: response.headers.get('cache-control') };
}

export async function certifyExample(
  projectDir: string,
  module: string,
  mode: IntegrationMode,
): Promise<CertifiedExample> {
  const file = join(projectDir, `server-${mode}-${Date.now()}.mjs`);
  writeFileSync(file, module);
  const marketUrl = `http://127.0.0.1:${await freePort()}/bnpl`; // mounted under /bnpl
  const run = await startCertification({ marketUrl, mode, sandboxPort: 0 });
  const readyUrl = `${marketUrl}/v1/demo-user`;
  // A fresh working directory: the store's PGlite data directory starts empty, and survives restarts.
  const server = exampleProcess(file, mkdtempSync(join(projectDir, 'run-')), {
    PATH: process.env.PATH,
    ...run.env,
  });
  const exitCodes: (number | null)[] = [];
  try {
    await server.start(readyUrl);
    const readiness = await probeReadiness(marketUrl);
    // certify's --restart-command: stop the server (SIGTERM, its drain) and start it again on the
    // same data directory. So nothing is declared lacking: the example is durable, and shown to be.
    const restartMarket = async () => {
      exitCodes.push(await server.stop());
      await server.start(readyUrl);
    };
    const report = await runContractSuite({
      ...run.suiteOptions,
      requestTimeoutMs: LOADED_REQUEST_TIMEOUT_MS,
      allowSkips: false,
      restartMarket,
    });
    return { report, text: formatTextReport(report), output: server.output(), exitCodes, readiness };
  } finally {
    exitCodes.push(await server.stop());
    await run.close();
  }
}
