/**
 * The fuzz's requests (requests.ts) sent through Prism instead of straight to the server: Prism,
 * not the fuzz's own judge, says whether each request and each answer keeps the document.
 *
 * - A request goes through the validating proxy. A request the document accepts (by ajv, as the
 *   fuzz judges it) must be forwarded: Prism refusing it is a disagreement, counted as a violation.
 * - A request Prism refuses (the mutated ones, mostly) goes again through a proxy that validates
 *   answers only, so the server's refusal of it is held to the document too.
 * - Prism parses a JSON body and forwards it re-serialised; a body it cannot parse (trailing data,
 *   a BOM) it never answers at all (measured: no answer within 5 s, Prism 5.14.2). Those bodies stay
 *   with the direct fuzz (market.fuzz.test.ts) and are counted here as not carried.
 * - Prism's forwarder follows redirects, so a 302 reaches it as the page redirected to (measured:
 *   "Unable to match the returned status code … 302,…" for the real order's redirect). The fuzz's
 *   redirects are to unknown orders (404); the order flow checks its 302 without Prism.
 * - Unauthenticated requests carry a token the server does not know, so the server's 401 is what
 *   Prism validates (with no token at all Prism answers 401 itself).
 */
import fc from 'fast-check';
import { resolverOf } from './arbitrary.js';
import { type FuzzDocument, RUNS, SEED, type Target } from './fuzz.js';
import { Judge } from './judge.js';
import { type PrismVerdict, prismVerdictOf, type Violation } from './prism.js';
import { type GeneratedRequest, type Operation, requestsOf } from './requests.js';

export interface PrismRoute {
  /** Validates requests and answers (`--errors`). */
  validating: string;
  /** Validates answers only (`--errors --validate-request=false`). */
  forwarding: string;
}

export interface PrismFinding {
  operation: string;
  kind: string;
  side: 'request' | 'response';
  status: number;
  violations: Violation[];
}

export interface PrismTally {
  sent: number;
  notCarried: number;
  refusedByPrism: number;
  answeredByServer: number;
  /** Bodies valid by the document that the server created an order for (201). */
  created: number;
  findings: PrismFinding[];
  counts: Record<string, number>;
}

export const newTally = (): PrismTally => ({
  sent: 0,
  notCarried: 0,
  refusedByPrism: 0,
  answeredByServer: 0,
  created: 0,
  findings: [],
  counts: {},
});

// `ignoreBOM`: keep a BOM in the text, as Prism's JSON parser sees it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Whether Prism can parse the body to forward it (it parses JSON media types only). */
function carried(request: GeneratedRequest): boolean {
  if (request.body === undefined || !request.headers['content-type']?.includes('json')) return true;
  try {
    JSON.parse(decoder.decode(request.body));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the request leaves out a header parameter the operation requires (the webhook's signature
 * headers: the fuzz does not generate them), which makes it invalid by the document whatever its body.
 */
function lacksRequiredHeader(op: Operation, headers: Record<string, string>): boolean {
  const sent = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  return (op.operation.parameters ?? []).some(
    (p) => p.in === 'header' && p.required === true && !sent.has(p.name.toLowerCase()),
  );
}

/** Kinds whose body reaches the server as generated (a mutation of bytes Prism would launder). */
const JUDGED_KINDS = new Set(['valid', 'no-body', 'wrong-type', 'missing-member']);

const WRONG_TOKEN = { authorization: 'Bearer not-a-token-the-server-knows' };

export function prismFuzzer(document: FuzzDocument, route: PrismRoute, tally: PrismTally) {
  const resolver = resolverOf(document);
  const judge = new Judge(document);
  return async (op: Operation, target: Target): Promise<void> => {
    const schemes = (op.operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    const credential = schemes.map((scheme) => target.credentials[scheme]).find((c) => c !== undefined);
    const send = async (origin: string, request: GeneratedRequest, headers: Record<string, string>) => {
      const response = await fetch(`${origin}${request.path}`, {
        method: op.method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
        ...(request.body !== undefined && op.method !== 'GET' && { body: request.body as BodyInit }),
      });
      return prismVerdictOf(response);
    };
    const record = (request: GeneratedRequest, side: PrismFinding['side'], verdict: PrismVerdict) => {
      const violations = side === 'request' ? verdict.request : verdict.response;
      if (violations.length > 0)
        tally.findings.push({
          operation: op.operation.operationId,
          kind: request.kind,
          side,
          status: verdict.status,
          violations,
        });
    };
    await fc.assert(
      fc.asyncProperty(requestsOf(op, resolver), fc.boolean(), async (request, authenticated) => {
        tally.sent++;
        if (!carried(request)) {
          tally.notCarried++;
          return;
        }
        const auth = credential && authenticated ? credential : schemes.length > 0 ? WRONG_TOKEN : {};
        const headers = { ...request.headers, ...auth };
        const documentSays = lacksRequiredHeader(op, headers) ? 'invalid' : judge.verdictOf(op, request);
        const first = await send(route.validating, request, headers);
        record(request, 'response', first);
        const key = `${request.kind}/${documentSays} → ${first.by === 'prism' ? `prism ${first.prismType}` : first.status}`;
        tally.counts[key] = (tally.counts[key] ?? 0) + 1;
        if (first.by === 'server') {
          tally.answeredByServer++;
          if (op.operation.operationId === 'createOrder' && first.status === 201) tally.created++;
          // A request the document accepts must raise no request finding either.
          if (documentSays === 'valid' && JUDGED_KINDS.has(request.kind)) record(request, 'request', first);
          return;
        }
        if (first.prismType === 'VIOLATIONS') return;
        tally.refusedByPrism++;
        if (documentSays === 'valid' && JUDGED_KINDS.has(request.kind)) record(request, 'request', first);
        record(request, 'response', await send(route.forwarding, request, headers));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  };
}
