/**
 * The HTML report over a real failing run (a market that accepts unsigned webhooks, certified over
 * HTTP as the CLI does, with no restart command): verdict and counts, checks grouped by section with
 * their rules linked into docs/protocol.md, each failure's exchanges with secrets masked, expected
 * against got, what to do. Also: the exchange records mask what grants access, and the protocol
 * index the links come from is what docs/protocol.md says now. (apps/browser-e2e opens such a report
 * in Chromium.)
 */
import { readFileSync } from 'node:fs';
import { createMemoryStore } from '@bnpl-kit/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ExchangeRecord, maskBody, recordExchange } from '../src/exchange-record.js';
import type { HttpExchange } from '../src/http.js';
import {
  type ContractReport,
  formatHtmlReport,
  formatReport,
  PROTOCOL_DOC_URL,
  reportFormatFor,
} from '../src/index.js';
import PROTOCOL_INDEX from '../src/reporters/protocol-index.generated.json' with { type: 'json' };
import { formatProtocolIndex, githubAnchor, parseProtocolIndex } from '../src/rules/protocol-index.js';
import { brokenMarkets, configFromEnv, swappableMarket } from '../src/testing.js';
import { certifyServed } from './fixtures/certify.js';
import { serveOnNode } from './fixtures/targets.js';

const root = new URL('../../', import.meta.url);

describe('the protocol index behind the report links', () => {
  it('is generated from docs/protocol.md as it is now (run `pnpm conformance-matrix`)', () => {
    const doc = readFileSync(new URL('docs/protocol.md', root), 'utf8');
    const fresh = parseProtocolIndex(doc);
    expect(formatProtocolIndex(PROTOCOL_INDEX)).toBe(formatProtocolIndex(fresh));
    expect(fresh.sections.map((s) => s.number)).toEqual([
      '§1',
      '§2',
      '§3',
      '§4',
      '§5',
      '§6',
      '§7',
      '§8',
      '§9',
      '§10',
      '§11',
    ]);
    expect(fresh.rules['R-WH-04']?.section).toBe('§4');
  });

  it('anchors headings as GitHub does', () => {
    expect(githubAnchor('§4. Webhooks')).toBe('4-webhooks');
    expect(githubAnchor('§10. Differences from the prior art')).toBe('10-differences-from-the-prior-art');
    expect(githubAnchor('§7. Claims and offer filtering')).toBe('7-claims-and-offer-filtering');
  });
});

function exchange(
  overrides: Partial<HttpExchange> & { requestHeaders?: Record<string, string>; body?: string },
) {
  const text = overrides.text ?? '';
  return {
    request: {
      method: 'POST',
      url: 'http://m.test/v1/webhook',
      headers: overrides.requestHeaders ?? {},
      bodyExcerpt: overrides.body,
      body: overrides.body,
      bodyBytes: overrides.body?.length ?? 0,
    },
    status: overrides.status ?? 200,
    headers: overrides.headers ?? new Headers(),
    text,
    durationMs: 3.4,
    advisories: [],
    json: () => JSON.parse(text),
    mediaType: () => 'application/json',
  } satisfies HttpExchange;
}

describe('exchange records', () => {
  it('mask credentials, signatures and tokens, and keep the rest as sent', () => {
    const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const record: ExchangeRecord = recordExchange(
      exchange({
        requestHeaders: {
          authorization: 'Bearer <redacted>',
          signature: 'A'.repeat(86),
          'x-event-id': 'evt-1',
        },
        body: `{"claim_tokens":["${jwt}"],"note":"bearer of ${jwt}"}`,
        headers: new Headers({ 'set-cookie': 'sid=abc', 'content-type': 'application/json' }),
        text: '{"id":"u1","session_token":"sess-secret-123","name":"An"}',
      }),
    );
    expect(record.request.headers).toEqual({
      authorization: 'Bearer <masked>',
      signature: '<masked: 86 chars>',
      'x-event-id': 'evt-1',
    });
    expect(record.request.body).not.toContain(jwt);
    expect(JSON.parse(record.request.body!)).toEqual({
      claim_tokens: [`<masked: ${jwt.length} chars>`],
      note: `bearer of <masked: ${jwt.length} chars>`,
    });
    expect(record.response.headers).toEqual({
      'content-type': 'application/json',
      'set-cookie': '<masked: 7 chars>',
    });
    expect(JSON.parse(record.response.body)).toEqual({
      id: 'u1',
      session_token: '<masked: 15 chars>',
      name: 'An',
    });
    expect(record.durationMs).toBe(3);
  });

  it('keep a body without secrets byte for byte, and mask bearer tokens in text', () => {
    const raw = '{ "type": "ORDER_STATUS_UPDATED",  "data": {"status":"APPROVED"} }';
    expect(maskBody(raw)).toBe(raw);
    expect(maskBody('Authorization: Bearer mkt_abc.def-123')).toBe('Authorization: Bearer <masked>');
  });

  it('mask a body nested deeper than the stack as text, secret members included, instead of throwing', () => {
    const deep = `${'['.repeat(200_000)}{"access_token": "abc123", "note": "x"}${']'.repeat(200_000)}`;
    const out = maskBody(deep);
    expect(out).toContain('"access_token": "<masked: 6 chars>"');
    expect(out).toContain('"note": "x"');
    expect(out).not.toContain('abc123');
  });
});

describe('the HTML report of a failing run', () => {
  const broken = brokenMarkets.find((m) => m.name === 'accepts unsigned webhooks')!;
  let report: ContractReport;
  let html: string;

  beforeAll(async () => {
    const shell = swappableMarket('data-sharing');
    report = await certifyServed(
      'data-sharing',
      await serveOnNode(shell),
      (run, heldCalls) => {
        const config = { ...configFromEnv(run.env, 'data-sharing'), store: createMemoryStore(), heldCalls };
        shell.use(broken.build(config, { serviceSigningKey: String(run.savedConfig().signing_key) }));
      },
      ['orders.create.valid', ...broken.caughtBy, 'restart.state-survives'],
    );
    html = formatHtmlReport(report, { warnings: ['BNPL_CALLBACK_URL leads nowhere'] });
  });

  it('carries the exchanges and the violation in the results it is rendered from', () => {
    const failed = report.results.find((r) => r.id === 'webhook.vector.missing-signature-header')!;
    expect(failed.status).toBe('fail');
    expect(failed.violation?.expected).toMatch(/401/);
    expect(failed.rules).toContain('R-ERR-05');
    const webhook = failed.exchanges!.find((e) => e.request.url.endsWith('/v1/webhook'))!;
    expect(webhook.request.body).toContain('ORDER_STATUS_UPDATED');
    expect(webhook.response.status).toBe(200);
    const notExercised = report.results.find((r) => r.id === 'restart.state-survives')!;
    expect(notExercised.status).toBe('not-exercised');
    // It ends before any request (no --restart-command): the report says no exchange was recorded.
    expect(notExercised.exchanges).toEqual([]);
    expect(report.results.find((r) => r.id === 'orders.create.valid')).not.toHaveProperty('exchanges');
    // Nothing in the report grants access: the market token never appears, in any format.
    const json = formatReport(report, 'json');
    expect(json).not.toMatch(/mkt_[A-Za-z0-9_-]{20}/);
    expect(json).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });

  it('is one page that loads nothing: verdict, counts, sections, rules linked into the protocol', () => {
    expect(reportFormatFor('out/report.html')).toBe('html');
    expect(formatReport(report, 'html')).toBe(formatHtmlReport(report));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|<link |src=/);
    expect(html).toContain('data-verdict="failed"');
    const { total, passed, failed, notExercised } = report.summary;
    expect(html).toContain(
      `<td>${total}</td><td>${passed}</td><td>${failed}</td><td>0</td><td>0</td><td>${notExercised}</td>`,
    );
    expect(html).toContain(`<a href="${PROTOCOL_DOC_URL}#4-webhooks" title="Webhooks">§4</a>`);
    expect(html).toMatch(
      new RegExp(`<a class="rule" href="${PROTOCOL_DOC_URL}#2-errors" title="§2: [^"]+">R-ERR-05</a>`),
    );
    expect(html).toContain('<li>BNPL_CALLBACK_URL leads nowhere</li>');
  });

  it('shows each failure with expected, got, what to do and its exchanges, escaped', () => {
    const block = html.slice(html.indexOf('data-check-id="webhook.vector.missing-signature-header"'));
    const check = block.slice(0, block.indexOf('</div></details>'));
    expect(check).toContain('<dt>Expected</dt>');
    expect(check).toContain('--only webhook.vector.missing-signature-header --seed');
    expect(check).toMatch(
      /<summary><span class="n">\d+\/\d+<\/span> <code>POST http:\/\/127\.0\.0\.1:\d+\/v1\/webhook → 200<\/code>/,
    );
    expect(check).toContain('{&quot;type&quot;:&quot;BNPL_ORDER_STATUS_UPDATED&quot;');
    const restart = html.slice(html.indexOf('data-check-id="restart.state-survives"'));
    expect(restart).toContain('<code>--lacks restart</code>');
    expect(restart).toContain('No HTTP exchange with the market was recorded.');
  });
});
