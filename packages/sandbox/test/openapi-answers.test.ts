/**
 * The admin document says what the routes answer (issue 31): the success status of each route comes
 * from the table the dispatcher answers with, an organisation body needs no `id` (the path gives it)
 * and the admin token is optional, as it is when the sandbox is embedded.
 */
import { describe, expect, it } from 'vitest';
import { sandboxAdminOpenApi } from '../src/openapi.js';
import { adminJson, startSandbox } from './support.js';

const document = sandboxAdminOpenApi();
const successOf = (path: string, verb: 'post' | 'patch' | 'delete') =>
  Object.keys(document.paths[path]?.[verb]?.responses ?? {}).filter((status) => status < '400');

describe('sandbox admin document', () => {
  it('documents the status each route answers: 201 for a filter token, 202 for a replay', async () => {
    const { sandbox } = startSandbox();
    const org = sandbox.organizations.primary().id;
    const token = await adminJson(sandbox, 'POST', `/sandbox/organizations/${org}/offer-filter-token`);
    expect(successOf('/sandbox/organizations/{id}/offer-filter-token', 'post')).toEqual([
      String(token.status),
    ]);
    expect(token.status).toBe(201);
    const emitted = await adminJson(sandbox, 'POST', '/sandbox/webhooks/events', {
      payload: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'x', order_status: 'APPROVED' },
    });
    expect(successOf('/sandbox/webhooks/events', 'post')).toEqual([String(emitted.status)]);
    const id = (emitted.json as { deliveries: { id: string }[] }).deliveries[0]?.id;
    expect(id).toBeDefined();
    const replay = await adminJson(sandbox, 'POST', `/sandbox/webhooks/deliveries/${id}/replay`, {});
    expect(replay.status).toBe(202);
    expect(successOf('/sandbox/webhooks/deliveries/{id}/replay', 'post')).toEqual(['202']);
    const deleted = await adminJson(sandbox, 'DELETE', '/sandbox/faults');
    expect(successOf('/sandbox/faults', 'delete')).toEqual([String(deleted.status)]);
  });

  it('lets an organisation body leave out id, as PATCH with {} is accepted', async () => {
    const { sandbox } = startSandbox();
    const org = sandbox.organizations.primary().id;
    expect((await adminJson(sandbox, 'PATCH', `/sandbox/organizations/${org}`, {})).status).toBe(200);
    const patch = document.paths['/sandbox/organizations/{id}']?.patch?.requestBody?.content[
      'application/json'
    ]?.schema as { $ref: string };
    const name = patch.$ref.split('/').pop()!;
    expect(document.components.schemas[name]?.required ?? []).not.toContain('id');
  });

  it('makes the admin token optional (none when embedded)', () => {
    for (const item of Object.values(document.paths))
      for (const operation of Object.values(item)) expect(operation?.security).toContainEqual({});
  });
});
