/**
 * The behaviour suite's markets inside a runtime (contract-tests' `createBehaviourMarket`), each
 * under a prefix of its own (`/m<n>` + the mount), with what the suite inspects served as JSON:
 *
 * - `POST /__markets` {spec, mountPath} → {id, prefix, webhookUrl, maxBodyBytes}
 * - `GET /__markets/<id>/orders/<orderId>` → {status}; `/events`; `/commitments/<localId>`
 * - `POST /__markets/<id>/now` {now}: the replay market's clock
 * - `POST /__markets/<id>/watch` watches the next request; `GET …/watch` → {seen, status?}
 */
import { type BehaviourMarket, createBehaviourMarket } from '@bnpl-kit/contract-tests/testing';

interface Hosted {
  built: BehaviourMarket;
  /** `/m<n>` + the mount path: what `handle` strips. */
  basePath: string;
  /**
   * The watched request, as plain state the suite polls: workerd cancels continuations across
   * requests, so one request cannot await a promise another request settles.
   */
  watch?: { seen: boolean; status?: number };
}

const hosted: Hosted[] = [];

async function control(request: Request, parts: string[]): Promise<Response> {
  if (parts.length === 0 && request.method === 'POST') {
    const { spec, mountPath } = (await request.json()) as {
      spec: Parameters<typeof createBehaviourMarket>[0];
      mountPath: string;
    };
    const id = hosted.length;
    const entry: Hosted = { built: createBehaviourMarket(spec), basePath: `/m${id}${mountPath}` };
    hosted.push(entry);
    const { market } = entry.built;
    return Response.json({
      id,
      prefix: entry.basePath,
      webhookUrl: market.webhookUrl,
      maxBodyBytes: market.maxBodyBytes,
    });
  }
  const entry = hosted[Number(parts[0])];
  if (!entry) return new Response('no such market', { status: 404 });
  const [, what, arg] = parts;
  const { built } = entry;
  if (what === 'orders') return Response.json({ status: (await built.store.findOrderById(arg!))?.status });
  if (what === 'events') return Response.json(built.events);
  if (what === 'commitments') return Response.json({ commitments: built.commitments.get(arg!) ?? null });
  if (what === 'now') {
    built.setNow(((await request.json()) as { now: number }).now);
    return new Response(null, { status: 204 });
  }
  if (what === 'watch' && request.method === 'POST') {
    entry.watch = { seen: false };
    return new Response(null, { status: 204 });
  }
  if (what === 'watch') return Response.json(entry.watch ?? null);
  return new Response('unknown control', { status: 404 });
}

/** Answers `/__markets…` and the hosted markets' paths; undefined for any other path. */
export function handleBehaviour(request: Request, pathname: string): Promise<Response> | undefined {
  if (pathname === '/__markets' || pathname.startsWith('/__markets/')) {
    return control(request, pathname.split('/').slice(2).filter(Boolean));
  }
  const entry = hosted.find((h) => pathname === h.basePath || pathname.startsWith(`${h.basePath}/`));
  if (!entry) return undefined;
  if (request.method === 'GET' && pathname === `${entry.basePath}/own`) {
    return Promise.resolve(new Response('own'));
  }
  const answer = entry.built.market.handle(request, { basePath: entry.basePath });
  const watch = entry.watch;
  if (watch && !watch.seen) {
    watch.seen = true;
    answer.then(
      (response) => {
        watch.status = response.status;
      },
      () => {
        watch.status = 0;
      },
    );
  }
  return answer;
}
