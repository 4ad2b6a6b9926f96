/**
 * A runtime as a target of the adapter behaviour suite: its markets live in the runtime
 * (behaviour-host.ts) and the suite inspects them over the runtime's `/__markets` control paths.
 */
import type { KnownWebhookEvent } from '@bnpl-kit/core';
import type { RunningRuntime, RuntimeName } from './runtimes.js';

interface HostedInfo {
  id: number;
  prefix: string;
  webhookUrl: string;
  maxBodyBytes: number;
}

/** Asks `read` again until `pick` gives a value (the runtime's state changes on its own events). */
async function until<S, T>(read: () => Promise<S>, pick: (state: S) => T | undefined | false): Promise<T> {
  for (;;) {
    const value = pick(await read());
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The suite's `BehaviourTarget` shape (contract-tests/test/support/adapter-behaviour-suite.ts). */
export function runtimeTarget(runtime: RuntimeName, running: () => Promise<RunningRuntime>) {
  return {
    name: runtime,
    frameworkName: runtime,
    remote: true,
    // The handler reads the request's bytes itself: no parser exists to break its webhooks.
    rawWhateverTheParser: true,
    async host(spec: object, options: { mountPath?: string }) {
      const { origin } = await running();
      const created = await fetch(`${origin}/__markets`, {
        method: 'POST',
        body: JSON.stringify({ spec, mountPath: options.mountPath ?? '/bnpl' }),
      });
      if (!created.ok) throw new Error(`${runtime}: ${created.status} ${await created.text()}`);
      const info = (await created.json()) as HostedInfo;
      const control = async (path: string, init?: RequestInit) => {
        const response = await fetch(`${origin}/__markets/${info.id}${path}`, init);
        if (!response.ok) throw new Error(`${runtime} ${path}: ${response.status} ${await response.text()}`);
        return response;
      };
      const json = async <T>(path: string) => (await (await control(path)).json()) as T;
      const url = `${origin}${info.prefix}`;
      return {
        origin,
        url,
        webhookUrl: info.webhookUrl,
        maxBodyBytes: info.maxBodyBytes,
        orderStatus: async (id: string) =>
          (await json<{ status?: string }>(`/orders/${encodeURIComponent(id)}`)).status,
        events: () => json<KnownWebhookEvent[]>('/events'),
        commitments: async (localId: string) =>
          (
            await json<{ commitments: Record<string, string> | null }>(
              `/commitments/${encodeURIComponent(localId)}`,
            )
          ).commitments ?? undefined,
        setNow: async (now: number) => {
          await control('/now', { method: 'POST', body: JSON.stringify({ now }) });
        },
        async watchNext() {
          await control('/watch', { method: 'POST' });
          const state = () => json<{ seen: boolean; status?: number }>('/watch');
          return {
            url,
            seen: until(state, (w) => w.seen).then(() => undefined),
            answered: until(state, (w) => w.status),
          };
        },
        // The runtime process (and every market in it) stops with the test file.
        close: async () => {},
      };
    },
  };
}
