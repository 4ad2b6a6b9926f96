/**
 * Certify keeps no endpoint list of its own (issue 31): every market URL it builds comes from the
 * route table through src/support/routes.ts (`routeUrl`), so no source file under src/ spells out a
 * market endpoint path (`'/v1/orders'`, `` `/orders/${id}/cancel` ``, `'/demo-user'`, …).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PATHS } from '@bnpl-kit/core';
import { MARKET_ROUTES, type MarketRouteDefinition } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
/** The one file that turns the route table into URLs. */
const HOME = 'support/routes.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each market route's path as a pattern: a quote or backtick, an optional `${…}`, the default
 * prefix or not, then the path with any text for its `:name` parameters, then the end of the path.
 */
const ROUTE_PATTERNS: { operation: string; pattern: RegExp }[] = Object.entries(MARKET_ROUTES).map(
  ([operation, route]) => {
    const { path } = route as MarketRouteDefinition;
    const template = typeof path === 'string' ? path : DEFAULT_PATHS[path.configurable];
    const body = template.split(/:\w+/).map(escapeRegExp).join('[^/\'"`]+');
    const prefix = `(?:\\$\\{[^}]*\\})?(?:${escapeRegExp(DEFAULT_PATHS.prefix)})?`;
    return { operation, pattern: new RegExp(`['"\`]${prefix}${body}(?=['"\`?#])`) };
  },
);

function endpointPathsIn(text: string): string[] {
  return ROUTE_PATTERNS.filter(({ pattern }) => pattern.test(text)).map(({ operation }) => operation);
}

describe('market endpoint paths in contract-tests/src', () => {
  it('are written only in the route table’s helpers (src/support/routes.ts)', () => {
    const found = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), text: readFileSync(file, 'utf8') }))
      .filter(({ file }) => file !== HOME)
      .flatMap(({ file, text }) => endpointPathsIn(text).map((operation) => `${file}: ${operation}`));
    expect(found).toEqual([]);
  });

  it('recognises a path written out (the check is not vacuous)', () => {
    expect(endpointPathsIn("ctx.url('/orders')")).toEqual(['createOrder']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text holding a template literal
    expect(endpointPathsIn('fetch(`${base}/v1/orders/${id}/cancel`)')).toEqual(['cancelOrder']);
    expect(endpointPathsIn("send('/v1/demo-user')")).toEqual(['getDemoUser']);
    expect(endpointPathsIn("'/v1/integration/bnpl-consumers/orders'")).toEqual([]);
    expect(endpointPathsIn("routeUrl(ctx, 'createOrder')")).toEqual([]);
  });
});
