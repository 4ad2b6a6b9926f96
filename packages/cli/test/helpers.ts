import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookVectors as vectors } from '@bnpl-kit/contract-tests/testing';
import { Command } from 'commander';
import { createSandboxCommand } from '../src/commands/sandbox.js';
import { runCli } from '../src/index.js';

export { vectors };

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the program in-process and captures what it prints. */
export async function cli(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/** Runs `bnpl-kit sandbox …` in-process; `whileRunning` gets the base URL and the printed banner. */
export async function runSandbox(
  args: string[],
  whileRunning: (url: string, printed: string) => Promise<void>,
): Promise<string> {
  let printed = '';
  const append = (text: string) => {
    printed += text;
  };
  const io = { stdout: append, stderr: append };
  const program = new Command('bnpl-kit').exitOverride();
  createSandboxCommand((server) => whileRunning(server.url, printed))(program, io);
  await program.parseAsync(['sandbox', '--port', '0', ...args], { from: 'user' });
  return printed;
}

const dir = mkdtempSync(join(tmpdir(), 'bnpl-kit-cli-'));
let counter = 0;

/** Writes a temporary file and returns its path. */
export function file(content: string | Uint8Array, name = 'file'): string {
  const path = join(dir, `${counter++}-${name}`);
  writeFileSync(path, content);
  return path;
}

export type WebhookCase = (typeof vectors.webhook_cases)[number];

/** The `webhook verify` arguments for a shared vector case. */
export function verifyArgs(c: WebhookCase, publicKey = vectors.public_key): string[] {
  return [
    'webhook',
    'verify',
    '--public-key',
    publicKey,
    '--url',
    c.webhook_url,
    '--headers',
    file(JSON.stringify(c.headers), 'headers.json'),
    '--body',
    file(Buffer.from(c.body_base64, 'base64'), 'body.json'),
    '--now',
    c.now,
  ];
}

export const REASON_CODES: Record<string, string[]> = {
  signature: ['signature_invalid'],
  timestamp: ['timestamp_out_of_window'],
  header: ['signature_missing_header', 'signature_malformed_header', 'signature_unsupported_algorithm'],
};
