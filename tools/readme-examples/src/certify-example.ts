/** Starts one README server from the outside project and certifies it strictly, as `bnpl-kit certify` does. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  type ContractReport,
  formatTextReport,
  runContractSuite,
  startCertification,
  waitForHttp,
} from '@bnpl-kit/contract-tests';
import type { IntegrationMode } from '@bnpl-kit/core';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export async function certifyExample(
  projectDir: string,
  module: string,
  mode: IntegrationMode,
): Promise<{ report: ContractReport; text: string; output: string }> {
  const file = join(projectDir, `server-${mode}-${Date.now()}.mjs`);
  writeFileSync(file, module);
  const marketUrl = `http://127.0.0.1:${await freePort()}/bnpl`; // mounted under /bnpl
  const run = await startCertification({ marketUrl, mode, sandboxPort: 0 });
  let output = '';
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, [file], {
      // A fresh working directory: the store's PGlite data directory starts empty.
      cwd: mkdtempSync(join(projectDir, 'run-')),
      env: { PATH: process.env.PATH, ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`The example exited with ${code} before answering:\n${output}`);
    });
    await Promise.race([waitForHttp(`${marketUrl}/v1/demo-user`, { timeoutMs: 60_000 }), exited]);
    exited.catch(() => {});
    // The example's store is durable (PGlite on disk), but this run does not restart it: certify is
    // told so, instead of reporting the restart check as not exercised.
    const report = await runContractSuite({ ...run.suiteOptions, allowSkips: false, lacks: ['restart'] });
    return { report, text: formatTextReport(report), output };
  } finally {
    if (child?.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await run.close();
  }
}
