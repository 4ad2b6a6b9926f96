/**
 * The sandbox serves the OpenAPI documents of its two APIs (docs/architecture.md says so): the
 * service API at `/openapi.json` under its mount point, the admin API at `/sandbox/openapi.json`,
 * both naming the URL they were fetched under as their server. `GET /sandbox` lists them and the
 * console, and every GET it lists without a parameter answers.
 */
import { serviceOpenApi } from '@bnpl-kit/core/openapi';
import { describe, expect, it } from 'vitest';
import { sandboxAdminOpenApi } from '../src/openapi.js';
import { adminJson, BASE_URL, startSandbox } from './support.js';

const get = (url: string) => new Request(url);

describe('the OpenAPI documents the sandbox serves', () => {
  it('GET /openapi.json is the service API, served from where the sandbox is', async () => {
    const { sandbox } = startSandbox();
    const response = await sandbox.handle(get(`${BASE_URL}/openapi.json`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(serviceOpenApi({ serverUrl: BASE_URL }));
  });

  it('GET /sandbox/openapi.json is the admin API, without the admin token', async () => {
    const { sandbox } = startSandbox({ adminToken: 'admin-secret-token' });
    const response = await sandbox.handle(get(`${BASE_URL}/sandbox/openapi.json`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(sandboxAdminOpenApi({ serverUrl: BASE_URL }));
    // The data next to it still needs the token.
    expect((await sandbox.handle(get(`${BASE_URL}/sandbox/state`))).status).toBe(401);
  });

  it('names the mount point as its server when mounted under a path (the embedded sandbox)', async () => {
    const { sandbox } = startSandbox();
    const response = await sandbox.handle(get('http://127.0.0.1:3000/sandbox-service/openapi.json'), {
      basePath: '/sandbox-service',
    });
    const document = (await response.json()) as { servers: { url: string }[] };
    expect(document.servers[0]?.url).toBe('http://127.0.0.1:3000/sandbox-service');
  });

  it('GET /sandbox lists the console and both documents, and every parameterless GET it lists answers', async () => {
    const { sandbox } = startSandbox();
    const { json } = await adminJson(sandbox, 'GET', '/sandbox');
    expect(json.endpoints).toEqual(
      expect.arrayContaining(['GET /sandbox/console', 'GET /sandbox/openapi.json', 'GET /openapi.json']),
    );
    expect(json.console).toBe('/sandbox/console');
    const gets = (json.endpoints as string[])
      .filter((endpoint) => endpoint.startsWith('GET ') && !endpoint.includes(':'))
      .map((endpoint) => endpoint.slice(4));
    for (const path of gets) {
      expect((await sandbox.handle(get(`${BASE_URL}${path}`))).status, path).toBe(200);
    }
  });
});
