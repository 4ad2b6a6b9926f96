/**
 * The adapter behaviour suite (contract-tests/test/support/adapter-behaviour-suite.ts) on Node, Bun,
 * Deno and workerd: each runtime runs the bundled fetch handler from its npm binary and hosts the
 * suite's markets; the suite drives them over HTTP like any adapter's server (Node is the control:
 * the same bundle on the Node bridge).
 */

import { type BehaviourTarget, describeAdapterBehaviour } from '@bnpl-kit/contract-tests/behaviour-suite';
import { afterAll } from 'vitest';
import { runtimeTarget } from '../src/behaviour-target.js';
import { RUNTIMES, type RunningRuntime, type RuntimeName, startRuntime } from '../src/runtimes.js';

const started = new Map<RuntimeName, Promise<RunningRuntime>>();
const running = (runtime: RuntimeName) => () => {
  if (!started.has(runtime)) started.set(runtime, startRuntime(runtime));
  return started.get(runtime)!;
};
afterAll(async () => {
  await Promise.all([...started.values()].map(async (r) => (await r).close()));
});

describeAdapterBehaviour(
  RUNTIMES.map((runtime): BehaviourTarget => runtimeTarget(runtime, running(runtime))),
);
