/** The three report formats over one report with a pass, a failure and a skip. */
import { type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  type ContractReport,
  formatJsonReport,
  formatJunitReport,
  formatReport,
  formatTextReport,
  reportFormatFor,
} from '../src/index.js';

/** The JUnit XML, asserted well-formed, parsed with attributes as `@name` and text as `#`. */
function parseJunit<T>(xml: string, options: X2jOptions = {}): T {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#',
    parseAttributeValue: false,
    ...options,
  });
  return parser.parse(xml) as T;
}

const report: ContractReport = {
  marketUrl: 'http://127.0.0.1:3000',
  mode: 'basic',
  startedAt: '2030-01-01T00:00:00.000Z',
  durationMs: 1234,
  summary: { total: 3, passed: 1, failed: 1, skipped: 1, notRun: 0, notExercised: 0 },
  seed: 1,
  lacks: [],
  complete: false,
  allowSkips: false,
  ok: false,
  results: [
    {
      id: 'webhook.replay-old-delivery',
      title: 'Old deliveries are refused',
      spec: 'WIRE §4',
      status: 'fail',
      durationMs: 12,
      message: 'Expected: 401 <problem> & "more"\nGot:      200 {"received":true}\nBroken:   WIRE §4',
    },
    { id: 'orders.create.valid', title: 'Valid order', spec: 'WIRE §5', status: 'pass', durationMs: 3 },
    {
      id: 'push-claims.tokens-verify',
      title: 'Tokens verify',
      spec: 'spec: Authentication',
      status: 'skip',
      durationMs: 1,
      message: 'no session_token',
    },
  ],
};

describe('reporters', () => {
  it('text: grouped by specification section (WIRE first), failures with expected/got, skips with reason', () => {
    const text = formatTextReport(report);
    expect(text.indexOf('WIRE §4')).toBeLessThan(text.indexOf('WIRE §5'));
    expect(text.indexOf('WIRE §5')).toBeLessThan(text.indexOf('spec: Authentication'));
    expect(text).toContain('✗ webhook.replay-old-delivery');
    expect(text).toContain('      Got:      200 {"received":true}');
    expect(text).toContain('skipped: no session_token');
    expect(text).toContain('FAILED: 3 checks, 1 passed, 1 failed, 1 skipped in 1.2 s');
    expect(text).toContain('Failed: webhook.replay-old-delivery');
    expect(text).not.toContain('\u001b[');
    expect(formatTextReport(report, { color: true })).toContain('\u001b[');
  });

  it('JSON: the report itself', () => {
    expect(JSON.parse(formatJsonReport(report))).toEqual(report);
  });

  it('JUnit: well-formed XML, one testsuite per section, failure text escaped and kept whole', () => {
    const xml = formatJunitReport(report);
    const doc = parseJunit<{
      testsuites: {
        '@failures': string;
        '@skipped': string;
        testsuite: { '@name': string; testcase: Record<string, unknown> }[];
      };
    }>(xml);
    expect(doc.testsuites['@failures']).toBe('1');
    expect(doc.testsuites['@skipped']).toBe('1');
    expect(doc.testsuites.testsuite.map((s) => s['@name'])).toEqual([
      'WIRE §4',
      'WIRE §5',
      'spec: Authentication',
    ]);
    const failed = doc.testsuites.testsuite[0]!.testcase as {
      '@name': string;
      failure: { '@message': string; '#': string };
    };
    expect(failed['@name']).toBe('webhook.replay-old-delivery: Old deliveries are refused');
    expect(failed.failure['@message']).toBe('Expected: 401 <problem> & "more"');
    expect(failed.failure['#']).toContain('Got:      200 {"received":true}');
    expect(xml).toContain('&lt;problem&gt; &amp;');
  });

  it('JUnit: hostile titles and messages stay well-formed and round-trip', () => {
    const hostile = 'a & b <c> "d" \'e\' ]]> <!-- x --> <![CDATA[y]]> &amp; 😀\ttab';
    const forbidden = 'bell\u0007 nul\u0000 lone\uD800 fffe\uFFFE';
    const message = `${hostile}\r\nsecond line ${forbidden}`;
    const xml = formatJunitReport({
      ...report,
      marketUrl: 'http://127.0.0.1:3000/?a=1&b="2"',
      results: [
        { id: 'x.hostile', title: hostile, spec: 'WIRE <§4>', status: 'fail', durationMs: 1, message },
      ],
    });
    // Text kept exactly as written: no number parsing, no trimming, entities decoded.
    const doc = parseJunit<{
      testsuites: {
        '@name': string;
        testsuite: {
          '@name': string;
          testcase: { '@name': string; failure: { '@message': string; '#': string } };
        };
      };
    }>(xml, { parseTagValue: false, trimValues: false, htmlEntities: true });
    const replaced = 'bell\uFFFD nul\uFFFD lone\uFFFD fffe\uFFFD';
    expect(doc.testsuites['@name']).toBe('bnpl-kit contract suite (basic) http://127.0.0.1:3000/?a=1&b="2"');
    expect(doc.testsuites.testsuite['@name']).toBe('WIRE <§4>');
    const { testcase } = doc.testsuites.testsuite;
    expect(testcase['@name']).toBe(`x.hostile: ${hostile}`);
    expect(testcase.failure['@message']).toBe(`${hostile}\r`);
    expect(testcase.failure['#']).toBe(`${hostile}\r\nsecond line ${replaced}`.replace(/\r\n/g, '\n'));
    for (const c of ['\u0000', '\u0007', '\uD800', '\uFFFE']) expect(xml).not.toContain(c);
  });

  it('picks the format from the file name', () => {
    expect(reportFormatFor('out/junit.XML')).toBe('junit');
    expect(reportFormatFor('report.json')).toBe('json');
    expect(reportFormatFor('report.txt')).toBe('text');
    expect(reportFormatFor('report.HTML')).toBe('html');
    expect(reportFormatFor('report.pdf')).toBeUndefined();
    expect(formatReport(report, 'text')).toBe(formatTextReport(report));
  });
});
