/**
 * One check per case of the shared webhook vectors, re-signed for the target (support/vectors.ts).
 * A valid case is acknowledged and moves the order; an invalid one is a 401 problem and changes
 * nothing the market reports afterwards.
 */
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { expectProblem, fail } from '../expect.js';
import { approveUnannounced } from '../support/approvals.js';
import { createOrder, expectMarketStatus } from '../support/orders.js';
import {
  liveAge,
  RECIPES,
  vectorBody,
  vectorSlug,
  WEBHOOK_VECTORS,
  type WebhookVector,
} from '../support/vectors.js';
import { expectAck, sendWebhook, type WebhookSendOptions } from '../support/webhooks.js';
import type { CheckContext, ContractCheck } from '../types.js';

const VECTOR_ORDER_ID = '"ord_01"';

function otherStatusBody(body: string): string {
  const event = JSON.parse(body) as { order_status?: string };
  return JSON.stringify({
    ...event,
    order_status: event.order_status === 'APPROVED' ? 'CANCELED' : 'APPROVED',
  });
}

async function sendOptions(
  ctx: CheckContext,
  vector: WebhookVector,
  body: string,
): Promise<WebhookSendOptions> {
  const defect = RECIPES[vector.name];
  if (defect === undefined) {
    fail({
      expected: `a recipe for the vector "${vector.name}" in support/vectors.ts`,
      actual: 'none: the fixture has a new case',
    });
  }
  const options: WebhookSendOptions = { ageSeconds: liveAge(vector, ctx.toleranceSeconds) };
  switch (defect.kind) {
    case 'none':
      return options;
    case 'tampered-body':
      return { ...options, signBody: otherStatusBody(body) };
    case 'reserialized-body':
      return { ...options, signBody: JSON.stringify(JSON.parse(body)) };
    case 'other-url':
      return {
        ...options,
        signUrl: vector.webhook_url === ctx.webhookUrl ? `${ctx.webhookUrl}/other` : vector.webhook_url,
      };
    case 'swapped-event-id':
      return { ...options, signEventId: ctx.unique('evt_signed') };
    case 'other-key':
      return { ...options, signingKey: (await generateKeyPair()).seed };
    case 'drop-header':
      return { ...options, dropHeaders: [defect.header] };
    case 'vector-header':
      return { ...options, headers: { [defect.header]: vector.headers[defect.header] ?? '' } };
  }
}

/** The rules of WIRE §4 a vector exercises (docs/protocol.md's IDs), by how it is made. */
function vectorRules(vector: WebhookVector): string[] {
  const defect = RECIPES[vector.name];
  if (vector.expect === 'valid') return ['R-WH-13', 'R-WH-09'];
  const refused = ['R-ERR-05', 'R-WH-16'];
  if (vector.reason === 'timestamp') return ['R-WH-09', ...refused];
  switch (defect?.kind) {
    case 'tampered-body':
    case 'reserialized-body':
      return ['R-WH-04', ...refused];
    case 'other-url':
      return ['R-WH-02', ...refused];
    case 'swapped-event-id':
      return ['R-WH-03', ...refused];
    case 'other-key':
      return ['R-WH-12', ...refused];
    case 'vector-header':
      return [defect.header === 'X-Signature-Algorithm' ? 'R-WH-08' : 'R-WH-05', ...refused];
    default:
      return ['R-WH-08', ...refused];
  }
}

function vectorCheck(vector: WebhookVector): ContractCheck {
  const valid = vector.expect === 'valid';
  return {
    id: `webhook.vector.${vectorSlug(vector.name)}`,
    title: `Webhook vector "${vector.name}": ${valid ? 'acknowledged and applied' : '401, no effect'}`,
    modes: ['basic', 'data-sharing'],
    spec: 'WIRE §4',
    rules: vectorRules(vector),
    async run(ctx) {
      const template = vectorBody(vector);
      const aboutOrder = template.includes(VECTOR_ORDER_ID);
      const order = aboutOrder ? await createOrder(ctx) : undefined;
      // A valid update only ever carries a status the service has (the vectors' is APPROVED).
      if (order && valid) await approveUnannounced(ctx, order.id);
      const body = order ? template.replaceAll(VECTOR_ORDER_ID, JSON.stringify(order.id)) : template;
      const eventId = ctx.unique(vector.headers['X-Event-Id'] ?? 'evt');
      const { exchange } = await sendWebhook(ctx, body, {
        ...(await sendOptions(ctx, vector, body)),
        eventId,
      });
      if (valid) {
        expectAck(exchange, false, `the vector "${vector.name}" signed for ${ctx.webhookUrl}`);
      } else {
        expectProblem(exchange, 401, {
          what: `for the vector "${vector.name}" (${vector.reason})`,
          ...(vector.reason === 'timestamp' && { code: 'timestamp_out_of_window' }),
          spec: 'WIRE §4',
        });
      }
      if (order) {
        const status = (JSON.parse(body) as { order_status?: string }).order_status;
        await expectMarketStatus(
          ctx,
          order.id,
          valid && status ? status : 'PENDING',
          valid ? `a valid ${status} webhook was acknowledged` : 'the only webhook for it was refused',
        );
      }
    },
  };
}

export const webhookVectorChecks: ContractCheck[] = WEBHOOK_VECTORS.map(vectorCheck);
