/**
 * The control for the certify runs through Prism (certify.prism.<mode>.test.ts): given a document the
 * server's acknowledgement breaks, the same run reports it, in certify's traffic and in the service's
 * own deliveries, so the runs' "no violation" is a finding Prism could have contradicted.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentNamed } from '../src/fuzz.js';
import { certifyThroughPrism, summary } from './support/certify-through-prism.js';

describe('certify through Prism as a detector (control)', () => {
  it('reports answers, the service deliveries included, that break the document Prism was given', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'bnpl-prism-control-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const altered = structuredClone(documentNamed('market-basic.json')) as unknown as {
      components: { schemas: Record<string, { required?: string[] }> };
    };
    // The acknowledgement: what the server answers certify's webhooks and the service's alike.
    const ack = altered.components.schemas.WebhookAck!;
    ack.required = [...(ack.required ?? []), 'member_the_server_never_sends'];
    const path = join(dir, 'altered.json');
    await writeFile(path, JSON.stringify(altered));
    const run = await certifyThroughPrism(
      'basic',
      path,
      [
        'orders.create.valid',
        'webhook.vector.valid-order-status-update',
        'webhook.service-deliveries-acknowledged',
      ],
      onTestFinished,
    );
    console.log(summary('basic, altered document', run));
    expect(run.traffic.get('orders.create.valid')!.answerViolations).toEqual([]);
    const signed = run.traffic.get('webhook.vector.valid-order-status-update')!;
    expect(JSON.stringify(signed.answerViolations)).toContain('member_the_server_never_sends');
    expect(run.deliveriesAnsweredByPrism.join('\n')).toContain('VIOLATIONS');
    expect(run.logged.filter((line) => /VIOLATIONS|Violation: response/.test(line)).length).toBeGreaterThan(
      0,
    );
    expect(run.report.ok).toBe(false);
  }, 600_000);
});
