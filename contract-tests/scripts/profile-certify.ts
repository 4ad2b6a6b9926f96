/**
 * Profiling aid, not a benchmark: one full certification run in one process, both sides — the
 * in-memory test market served through core's Node bridge, and certify (standalone sandbox over
 * HTTP, the suite's checks) — so one `--cpu-prof` shows what a certify run costs on each side.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=source \
 *     contract-tests/scripts/profile-certify.ts [basic|data-sharing]
 *
 * Prints each run's CPU (user+system), the last report's summary, its slowest checks and the
 * process's CPU. BNPL_PROFILE_RUNS=n certifies n fresh markets against one sandbox (see below);
 * BNPL_PROFILE_CALLS=1 also prints the sandbox's record of calls by kind and path, the requests a
 * run makes to the sandbox (admin reads of its records included).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntegrationMode } from '@bnpl-kit/core';
import { createNodeListener } from '@bnpl-kit/core/node';
import { createMemoryStore } from '@bnpl-kit/core/testing';
import { startCertification } from '../src/certification.js';
import { runContractSuite } from '../src/index.js';
import { configFromEnv, createTestMarket, swappableMarket } from '../src/testing.js';

const mode = (process.argv[2] ?? 'basic') as IntegrationMode;
const cpuAtStart = process.cpuUsage();
const shell = swappableMarket(mode);
const server = createServer(createNodeListener(shell));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const marketUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const run = await startCertification({ marketUrl, mode, sandboxPort: 0 });
// BNPL_PROFILE_RUNS=n certifies n fresh markets one after another against the same sandbox, as
// the contract suite does (one sandbox for every adapter × mode): its records grow run by run.
const runs = Number(process.env.BNPL_PROFILE_RUNS ?? 1);
let report!: Awaited<ReturnType<typeof runContractSuite>>;
for (let i = 0; i < runs; i++) {
  const config = { ...configFromEnv(run.env, mode), store: createMemoryStore() };
  shell.use(createTestMarket(config).market);
  const before = process.cpuUsage();
  report = await runContractSuite({
    ...run.suiteOptions,
    restartMarket: async () => shell.use(createTestMarket(config).market),
  });
  const used = process.cpuUsage(before);
  console.log(
    `run ${i + 1}: ${report.summary.passed}/${report.summary.total} passed, cpu ${((used.user + used.system) / 1e6).toFixed(2)} s`,
  );
}
const callsBody = (await (await fetch(`${run.serviceUrl}/sandbox/calls`)).json()) as {
  calls: { kind: string; method: string; path: string }[];
};
const byPath = new Map<string, number>();
for (const c of callsBody.calls) {
  const k = `${c.kind} ${c.method} ${c.path.replace(/[0-9a-f-]{8,}|ord[_-][A-Za-z0-9_-]+/g, ':id')}`;
  byPath.set(k, (byPath.get(k) ?? 0) + 1);
}
if (process.env.BNPL_PROFILE_CALLS)
  console.log(callsBody.calls.length, [...byPath].sort((a, b) => b[1] - a[1]).slice(0, 25));
await run.close();
server.closeAllConnections();
server.close();
const cpu = process.cpuUsage(cpuAtStart);
console.log(
  JSON.stringify(report.summary),
  report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.message}`),
);
const slowest = [...report.results].sort((a, b) => b.durationMs - a.durationMs).slice(0, 15);
console.log(slowest.map((r) => `${r.durationMs.toFixed(0).padStart(6)} ms  ${r.id}`).join('\n'));
console.log(`cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
