/**
 * The route table of the market endpoints, and of the sandbox's service, admin and page routes.
 * Tiny on purpose: fixed paths and `:name` parameters (percent-decoded). Static paths are a map
 * lookup, so the webhook (the hot path) costs one `get`.
 */
import type { Method } from '../util/http-method.js';

export type { Method };

export interface Route<H> {
  /** For logs: `webhook`, `createOrder`… */
  name: string;
  method: Method;
  /** Full path including the prefix, e.g. `/v1/orders/:id/cancel`. */
  path: string;
  handler: H;
}

export type RouteMatch<H> =
  | { kind: 'found'; route: Route<H>; params: Record<string, string> }
  | { kind: 'wrong_method'; allow: Method[] }
  | { kind: 'none' };

interface Pattern<H> {
  segments: string[];
  routes: Route<H>[];
}

function split(path: string): string[] {
  return path.split('/').slice(1);
}

export class Router<H> {
  readonly #static = new Map<string, Route<H>[]>();
  readonly #patterns: Pattern<H>[] = [];
  readonly #prefix: string;
  /** Static paths served by exactly one route, with their (frozen, parameterless) match. */
  readonly #staticMatches = new Map<string, Extract<RouteMatch<H>, { kind: 'found' }>>();

  constructor(routes: readonly Route<H>[], prefix: string) {
    this.#prefix = prefix;
    for (const route of routes) {
      if (!route.path.includes('/:')) {
        const list = this.#static.get(route.path) ?? [];
        list.push(route);
        this.#static.set(route.path, list);
        continue;
      }
      const segments = split(route.path);
      const same = this.#patterns.find((p) => p.segments.join('/') === segments.join('/'));
      if (same) same.routes.push(route);
      else this.#patterns.push({ segments, routes: [route] });
    }
    for (const [path, list] of this.#static) {
      if (list.length !== 1) continue;
      const match = { kind: 'found', route: list[0]!, params: Object.freeze({}) } as const;
      this.#staticMatches.set(path, Object.freeze(match));
    }
  }

  /** Whether a path belongs to the kit: under the prefix, or one of its routes. */
  owns(pathname: string): boolean {
    const prefix = this.#prefix;
    if (prefix !== '' && (pathname === prefix || pathname.startsWith(`${prefix}/`))) return true;
    return this.#find(pathname).length > 0;
  }

  match(method: string, pathname: string): RouteMatch<H> {
    // The hot path (a webhook): a static path served by one route, answered without allocating.
    const only = this.#staticMatches.get(pathname);
    if (only?.route.method === method) return only;
    const found = this.#find(pathname);
    if (found.length === 0) return { kind: 'none' };
    const hit = found.find((f) => f.route.method === method);
    if (hit) return { kind: 'found', route: hit.route, params: hit.params };
    return { kind: 'wrong_method', allow: [...new Set(found.map((f) => f.route.method))] };
  }

  // Several patterns can match one path (`/orders/service/cancel`), so all are collected and the
  // method decides.
  #find(pathname: string): { route: Route<H>; params: Record<string, string> }[] {
    const exact = this.#static.get(pathname);
    if (exact) return exact.map((route) => ({ route, params: {} }));
    const parts = split(pathname);
    const out: { route: Route<H>; params: Record<string, string> }[] = [];
    for (const pattern of this.#patterns) {
      const params = matchSegments(pattern.segments, parts);
      if (params) for (const route of pattern.routes) out.push({ route, params });
    }
    return out;
  }
}
function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = parts[i]!;
    if (want.startsWith(':')) {
      if (got === '') return undefined;
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return undefined;
      }
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}
