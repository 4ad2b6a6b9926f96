/**
 * A README's shell line run as an integrator pastes it, in the outside project: through bash, with
 * a new user's environment (no npm_config_* from pnpm). Only the ports change: the README's 3000 and
 * certify's default sandbox port 4010 may be taken on a shared machine, and the frameworks run side
 * by side. A certify line also gets a longer wait per answer: the whole test command runs on two
 * busy cores, where a healthy market's answer can pass certify's 10 s default.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '@bnpl-kit/test-ports';
import { outsideEnv } from './outside-project.js';

/** Seconds certify waits for each answer in these runs (what only a hang exceeds on a busy machine). */
const LOADED_REQUEST_TIMEOUT_S = 60;

/**
 * The line with the README's market port replaced; a certify line also gets a free sandbox port and
 * the loaded machine's answer timeout.
 */
export async function withFreePorts(line: string): Promise<string> {
  const market = await freePort();
  const moved = line.replaceAll('127.0.0.1:3000', `127.0.0.1:${market}`);
  if (!/\bbnpl-kit certify\b/.test(moved)) return moved;
  return `${moved} --sandbox-port ${await freePort()} --request-timeout ${LOADED_REQUEST_TIMEOUT_S}`;
}

export interface LineRun {
  line: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

export async function runReadmeLine(line: string, cwd: string): Promise<LineRun> {
  const child = spawn('bash', ['-c', line], {
    cwd,
    env: { ...outsideEnv, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [status] = await once(child, 'exit');
  return { line, status: status as number | null, stdout, stderr };
}
