/**
 * A PgBouncer of the test's own in front of a PostgreSQL server: the `pgbouncer` binary
 * (PGBOUNCER_BIN, else Debian's /usr/sbin/pgbouncer), started on a free port with a generated ini
 * and stopped by the caller. Few server connections by default on purpose: a pool of many clients
 * then really shares them, as behind a production pooler. The store's own suites and the reference
 * servers' walkthrough start theirs with it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PgBouncerPoolMode = 'transaction' | 'session' | 'statement';

/** The binary `startPgBouncer` runs unless told another: `PGBOUNCER_BIN`, else /usr/sbin/pgbouncer. */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN?.trim() || '/usr/sbin/pgbouncer';
/** Whether PGBOUNCER_BIN exists, for `describe.runIf(pgbouncerAvailable)`. */
export const pgbouncerAvailable = existsSync(PGBOUNCER_BIN);

export interface RunningPgBouncer {
  /** The database URL through the pooler. */
  url: string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  poolMode: PgBouncerPoolMode;
  /** More `[pgbouncer]` settings, e.g. `ignore_startup_parameters = statement_timeout, options`. */
  settings?: Record<string, string>;
  /** Server connections per database and user (`default_pool_size`); 4 unless given. */
  serverConnections?: number;
  /** The binary to run; PGBOUNCER_BIN unless given. */
  bin?: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The ini for a pooler on `port` that forwards every database to `databaseUrl`'s server. */
export function pgbouncerIni(databaseUrl: string, port: number, options: PgBouncerOptions): string {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const settings: Record<string, string> = {
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    auth_type: 'any',
    pool_mode: options.poolMode,
    default_pool_size: String(options.serverConnections ?? 4),
    max_client_conn: '500',
    ...options.settings,
  };
  return [
    '[databases]',
    `* = host=${target.hostname} port=${target.port || '5432'} user=${user}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
    '',
  ].join('\n');
}

function waitUntilUp(child: ChildProcess, bin: string): Promise<void> {
  let log = '';
  return new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('process up')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}) before listening:\n${log}`)));
    child.once('error', (error) => reject(new Error(`could not run pgbouncer (${bin}): ${error.message}`)));
  });
}

/**
 * How often a start is tried on a new port. The port comes from `listen(0)`, i.e. from the range
 * client sockets draw from too, so one of a busy test run's connections may take it between the
 * probe and PgBouncer's bind; PgBouncer then exits with "Address already in use" and the next
 * attempt takes another port.
 */
const START_ATTEMPTS = 5;
const PORT_TAKEN = /Address already in use/i;

export async function startPgBouncer(
  databaseUrl: string,
  options: PgBouncerOptions,
): Promise<RunningPgBouncer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(databaseUrl, options);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !PORT_TAKEN.test(String((error as Error).message))) throw error;
    }
  }
}

async function startOnce(databaseUrl: string, options: PgBouncerOptions): Promise<RunningPgBouncer> {
  const bin = options.bin ?? PGBOUNCER_BIN;
  const dir = await mkdtemp(join(tmpdir(), 'bnpl-pgbouncer-'));
  let child: ChildProcess | undefined;
  try {
    // Run as root (CI containers), PgBouncer drops to `nobody`, which must read the ini.
    await chmod(dir, 0o755);
    const port = await freePort();
    const iniPath = join(dir, 'pgbouncer.ini');
    await writeFile(iniPath, pgbouncerIni(databaseUrl, port, options), { mode: 0o644 });
    const args = process.getuid?.() === 0 ? ['-u', 'nobody', iniPath] : [iniPath];
    child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    await waitUntilUp(child, bin);
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    const running = child;
    return {
      url: url.toString(),
      async stop() {
        await stopChild(running);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    // A pooler that failed to start leaves neither a process nor its ini behind.
    if (child !== undefined) await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  // Never spawned (no pid) or already gone: nothing to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
