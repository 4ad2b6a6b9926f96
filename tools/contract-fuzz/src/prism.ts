/**
 * Stoplight Prism (`@stoplight/prism-cli`, a devDependency from npm) as a validation proxy in front
 * of a server: `prism proxy <document> <upstream> --errors`. It validates each request against the
 * document (a violation: Prism answers 422, 401 or 415 itself and forwards nothing) and each answer
 * of the server (a violation: Prism answers 500 `VIOLATIONS` instead). Lesser findings ride on the
 * `sl-violations` header. This file starts it and reads those signals; what is sent is the tests'.
 *
 * Pinned to 5.14.2: the 5.15 line and later require Node ≥ 24 (`engines`), and the kit runs on 20.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface PrismProxy {
  origin: string;
  /** The last of Prism's own log, for a failure's message. */
  output(): string;
  /**
   * Every line of Prism's log that reports a finding (all of them, not only the tail): a
   * `Violation: …` of its validator, or a request it ended with its own error (`--errors`: an answer
   * that breaks the document ends as `VIOLATIONS`). Also for traffic no test reads the answer of
   * (the service's webhook deliveries and offer filter calls).
   */
  findingLines(): string[];
  close(): Promise<void>;
}

export interface PrismOptions {
  /** A file path of the OpenAPI document. */
  document: string;
  upstream: string;
  /** `false`: forward every request, validating only the answers (`--validate-request=false`). */
  validateRequest: boolean;
  /** The port to listen on (a server must know its proxy's URL before the proxy starts); default any. */
  port?: number;
  /** How long Prism may take to listen; default 180 s (over 60 s seen with every suite running on two cores). */
  startTimeoutMs?: number;
}

const LOG_KEPT = 20_000;

export async function startPrism(options: PrismOptions): Promise<PrismProxy> {
  const cli = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const args = [
    cli,
    'proxy',
    options.document,
    options.upstream,
    '--errors',
    '--port',
    String(options.port ?? 0),
  ];
  args.push('--host', '127.0.0.1', `--validate-request=${options.validateRequest}`);
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let partial = '';
  const findings: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start within its time:\n${log}`)),
      options.startTimeoutMs ?? 180_000,
    );
    const read = (chunk: Buffer) => {
      // Prism logs every request: keep the tail only, so a long run does not hold it all.
      log = (log + chunk.toString()).slice(-LOG_KEPT);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      findings.push(...lines.filter((line) => /Violation:|terminated with error/.test(line)));
      const listening = /Prism is listening on (http:\/\/[^\s]+)/.exec(log);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}) before listening:\n${log}`));
    });
  });
  return {
    origin,
    output: () => log,
    findingLines: () => [...findings],
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Violation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message: string;
}

/** Who answered and what Prism found wrong, from one answer through the proxy. */
export interface PrismVerdict {
  /** `server`: forwarded and answered by the server; `prism`: answered by Prism itself. */
  by: 'server' | 'prism';
  /** Prism's problem type when it answered itself (`UNPROCESSABLE_ENTITY`, `VIOLATIONS`, …). */
  prismType?: string;
  request: Violation[];
  response: Violation[];
  status: number;
  body: unknown;
}

const PRISM_TYPE = 'https://stoplight.io/prism/errors#';
/** Prism's answers to a request that breaks the document; anything else of Prism's is an error. */
export const REQUEST_REFUSALS = new Set(['UNPROCESSABLE_ENTITY', 'UNAUTHORIZED', 'INVALID_CONTENT_TYPE']);

function headerViolations(response: Response): Violation[] {
  const header = response.headers.get('sl-violations');
  if (!header) return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    return [{ message: header }];
  }
}

/** Reads an answer that came through Prism. */
export async function prismVerdictOf(response: Response): Promise<PrismVerdict> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  const fromHeader = headerViolations(response);
  const request = fromHeader.filter((v) => v.location?.[0] === 'request');
  const answer = fromHeader.filter((v) => v.location?.[0] !== 'request');
  const type = (body as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && type.startsWith(PRISM_TYPE)) {
    const prismType = type.slice(PRISM_TYPE.length);
    const listed = ((body as { validation?: Violation[] }).validation ?? []) as Violation[];
    const found = listed.length > 0 ? listed : [{ message: (body as { title?: string }).title ?? prismType }];
    if (prismType === 'VIOLATIONS') answer.push(...found);
    else if (REQUEST_REFUSALS.has(prismType)) request.push(...found);
    else answer.push({ message: `Prism answered ${prismType} itself: ${JSON.stringify(body)}` });
    return { by: 'prism', prismType, request, response: answer, status: response.status, body };
  }
  // Prism's HTTP layer (micri) answers its own crashes as `{"error":{"code":…}}`, a shape the kit never sends.
  const crash = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (typeof crash === 'string' && response.status >= 500) {
    answer.push({ message: `Prism failed: ${JSON.stringify(body)}` });
    return { by: 'prism', prismType: crash, request, response: answer, status: response.status, body };
  }
  return { by: 'server', request, response: answer, status: response.status, body };
}
