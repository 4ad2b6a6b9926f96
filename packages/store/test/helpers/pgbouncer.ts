/**
 * A PgBouncer of the test's own in front of TEST_DATABASE_URL's server: Debian's `pgbouncer`
 * binary (PGBOUNCER_BIN, else /usr/sbin/pgbouncer; `.ci/run` installs it), started on a free port
 * with a generated ini, stopped after the suite. Few server connections on purpose: the store's
 * pool of many clients then really shares them, as behind a production pooler.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PoolMode = 'transaction' | 'session' | 'statement';

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN?.trim() || '/usr/sbin/pgbouncer';
export const pgbouncerAvailable = existsSync(PGBOUNCER_BIN);

export interface RunningPgBouncer {
  /** The database URL through the pooler. */
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PgBouncerOptions {
  poolMode: PoolMode;
  /** More `[pgbouncer]` settings, e.g. `ignore_startup_parameters = statement_timeout, options`. */
  settings?: Record<string, string>;
  serverConnections?: number;
}

export async function startPgBouncer(
  databaseUrl: string,
  options: PgBouncerOptions,
): Promise<RunningPgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const dir = await mkdtemp(join(tmpdir(), 'bnpl-pgbouncer-'));
  // Run as root (CI containers), PgBouncer drops to `nobody`, which must read the ini.
  await chmod(dir, 0o755);
  const port = await freePort();
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
  const ini = [
    '[databases]',
    `* = host=${target.hostname} port=${target.port || '5432'} user=${user}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
    '',
  ].join('\n');
  const iniPath = join(dir, 'pgbouncer.ini');
  await writeFile(iniPath, ini, { mode: 0o644 });
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', iniPath] : [iniPath];
  const child: ChildProcess = spawn(PGBOUNCER_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('process up')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}) before listening:\n${log}`)));
    child.once('error', reject);
  });
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
