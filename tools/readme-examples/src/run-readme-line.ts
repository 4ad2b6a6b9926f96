/**
 * A README's shell line run as an integrator pastes it, in the outside project: through bash, with
 * a new user's environment (no npm_config_* from pnpm). Only the ports change: the README's 3000 and
 * certify's default sandbox port 4010 may be taken on a shared machine, and the frameworks run side
 * by side.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '@bnpl-kit/test-ports';
import { outsideEnv } from './outside-project.js';

/** The line with the README's market port replaced, and a free sandbox port added to a certify line. */
export async function withFreePorts(line: string): Promise<string> {
  const market = await freePort();
  const moved = line.replaceAll('127.0.0.1:3000', `127.0.0.1:${market}`);
  return /\bbnpl-kit certify\b/.test(moved) ? `${moved} --sandbox-port ${await freePort()}` : moved;
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
