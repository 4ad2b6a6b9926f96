import { describe, expect, it } from 'vitest';
import { runReport } from '../src/run-report.js';

const stdout = [
  'spec: Webhooks',
  '  ✓ webhook.duplicate-event-id A repeated X-Event-Id … (1.2 s)',
  '  ✗ restart.state-survives After a restart, a processed event is still a duplicate (3.1 s)',
  '      Expected: 200 {"received":true,"duplicate":true}',
  '      Got: 200 {"received":true}',
  '  ○ callback.served not exercised',
  '      no --callback-url',
  'FAILED: 2 checks, 1 passed, 1 failed, 0 skipped in 4.3 s',
].join('\n');

describe('runReport', () => {
  it("ends with the failing checks' details, where a log's last lines keep them", () => {
    const report = runReport({
      line: 'npx bnpl-kit certify …',
      status: 1,
      stdout,
      stderr: 'x'.repeat(20_000),
    });
    const tail = report.split('\n').slice(-5).join('\n');
    expect(tail).toContain('✗ restart.state-survives');
    expect(tail).toContain('Got: 200 {"received":true}');
    expect(tail).not.toContain('not exercised');
    expect(report.endsWith('--- exit 1 ---')).toBe(true);
  });

  it('says so when the report names no failing check', () => {
    expect(runReport({ line: 'x', status: 1, stdout: 'crashed', stderr: '' })).toContain(
      '(none in the report)',
    );
  });
});
