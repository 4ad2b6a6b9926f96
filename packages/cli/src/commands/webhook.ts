/**
 * `bnpl-kit webhook sign|verify`: sign a body the way the service does, or check a captured
 * webhook against a public key and say in one line what is wrong with it.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  createKeyring,
  verifyWebhook,
  type WebhookFailureCode,
  WebhookVerificationError,
} from '@bnpl-kit/core';
import { signWebhook } from '@bnpl-kit/core/testing';
import { parseWebhookTimestamp } from '@bnpl-kit/core/wire';
import { CommanderError } from 'commander';
import type { CommandModule } from '../index.js';

function readBytes(path: string, what: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read ${what} ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
}

const readText = (path: string, what: string) => new TextDecoder().decode(readBytes(path, what));

function parseDate(text: string, what: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime()))
    throw new Error(`${what} is not an ISO 8601 date: ${JSON.stringify(text)}`);
  return date;
}

function parseSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`--tolerance must be a whole number of seconds, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** The headers file: a JSON object of header names to strings (or arrays, as Node gives them). */
function readHeaders(path: string): Record<string, string | string[]> {
  let value: unknown;
  try {
    value = JSON.parse(readText(path, 'headers file'));
  } catch (error) {
    if ((error as Error).message.startsWith('cannot read')) throw error;
    throw new Error(`headers file ${JSON.stringify(path)} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('the headers file must hold a JSON object of header names to values');
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === 'string' || (Array.isArray(v) && v.every((item) => typeof item === 'string')))
      headers[name] = v;
    else throw new Error(`header ${JSON.stringify(name)} in the headers file is not a string`);
  }
  return headers;
}

const HINTS: Partial<Record<WebhookFailureCode, (error: WebhookVerificationError, url: string) => string>> = {
  signature_invalid: (_error, url) =>
    `body was re-serialized (the exact received bytes must be verified)? URL differs from the registered one (checked against ${url})? wrong key?`,
  timestamp_out_of_window: (error) => {
    const { skew_seconds, direction, tolerance_seconds } = error.extensions as {
      skew_seconds: number;
      direction: 'too_old' | 'too_new';
      tolerance_seconds: number;
    };
    return (
      `clock skew of ${skew_seconds} s (${direction === 'too_old' ? 'too old' : 'too new'}); tolerance ${tolerance_seconds} s` +
      ' (for a captured webhook pass --now with the time it was received)'
    );
  },
  signature_missing_header: (error) =>
    `${error.message.split(';')[0]}; --headers must hold every header of the request as a JSON object`,
};

/** One line that says what failed and what to check. */
export function explainFailure(error: WebhookVerificationError, url: string): string {
  const hint = HINTS[error.code]?.(error, url) ?? error.message;
  return `${error.code}: ${hint.replace(/\s*\n\s*/g, ' ')}`;
}

export const webhookCommand: CommandModule = (program, io) => {
  const webhook = program
    .command('webhook')
    .description('sign or verify webhook signatures (Ed25519, EdDSA)');

  webhook
    .command('sign')
    .description('sign a body as the service would and print the request headers as JSON')
    .requiredOption(
      '--signing-key <file>',
      'file holding the signing key: PKCS#8 PEM (with or without BEGIN/END lines)',
    )
    .requiredOption('--url <url>', 'the webhook URL as registered (part of the signed message)')
    .requiredOption('--body <file>', 'file holding the exact body bytes to send')
    .option('--event-id <id>', 'X-Event-Id (default: a random evt_<uuid>)')
    .option('--timestamp <ts>', 'X-Event-Timestamp, YYYY-MM-DDTHH:MM:SSZ or any ISO 8601 date (default: now)')
    .action(
      async (options: {
        signingKey: string;
        url: string;
        body: string;
        eventId?: string;
        timestamp?: string;
      }) => {
        const timestamp =
          options.timestamp === undefined || parseWebhookTimestamp(options.timestamp) !== undefined
            ? options.timestamp
            : parseDate(options.timestamp, '--timestamp');
        const signed = await signWebhook({
          url: options.url,
          body: readBytes(options.body, 'body file'),
          signingKey: readText(options.signingKey, 'signing key file'),
          ...(options.eventId === undefined ? {} : { eventId: options.eventId }),
          ...(timestamp === undefined ? {} : { timestamp }),
        });
        io.stdout(`${JSON.stringify(signed.headers, null, 2)}\n`);
      },
    );

  webhook
    .command('verify')
    .description(
      'verify a captured webhook: prints "valid" (exit 0) or the failure and what to check (exit 1)',
    )
    .requiredOption(
      '--public-key <key-or-file>',
      'public key (base64url or PEM, comma-separated for several) or a file holding it',
    )
    .requiredOption('--url <url>', 'the webhook URL as registered with the service')
    .requiredOption(
      '--headers <file>',
      'JSON file with the request headers, e.g. the output of `webhook sign`',
    )
    .requiredOption('--body <file>', 'file holding the exact body bytes received')
    .option('--now <iso>', 'verify as of this time instead of now (for captured webhooks)')
    .option('--tolerance <seconds>', 'accepted clock skew in seconds', '300')
    .action(
      async (options: {
        publicKey: string;
        url: string;
        headers: string;
        body: string;
        now?: string;
        tolerance: string;
      }) => {
        const keyText = existsSync(options.publicKey)
          ? readText(options.publicKey, 'public key file')
          : options.publicKey;
        const keys = createKeyring(keyText);
        const request = {
          url: options.url,
          headers: readHeaders(options.headers),
          body: readBytes(options.body, 'body file'),
        };
        const now = options.now === undefined ? new Date() : parseDate(options.now, '--now');
        try {
          await verifyWebhook(request, { keys, now, toleranceSeconds: parseSeconds(options.tolerance) });
        } catch (error) {
          if (!(error instanceof WebhookVerificationError)) throw error;
          io.stdout(`${explainFailure(error, options.url)}\n`);
          throw new CommanderError(1, `bnpl-kit.${error.code}`, error.message);
        }
        io.stdout('valid\n');
      },
    );
};
