/**
 * Where the webhook verification keys come from (WIRE §4): configuration, or the service's
 * public-key endpoint when none is configured. Fetched keys are cached; a signature failure may
 * refresh them (the service rotated its key), but at most once a minute, so a flood of forged
 * webhooks cannot turn into a flood of key fetches. A key is never taken from the request.
 */

import type { ServiceClient } from '../service/types.js';
import { createKeyring, type Keyring } from '../signature/keyring.js';

export interface WebhookKeySource {
  /** The keyring now; a promise only while it is being fetched. */
  current(): Keyring | Promise<Keyring>;
  /** A newer keyring to retry with after a signature failure, or undefined (none, or too soon). */
  refreshAfterFailure(): Promise<Keyring | undefined>;
}

export function keyringSource(keyring: Keyring): WebhookKeySource {
  return {
    current: () => keyring,
    refreshAfterFailure: () => Promise.resolve(undefined),
  };
}

const KEY_REFRESH_INTERVAL_MS = 60_000;

export function fetchedKeys(service: ServiceClient, entityId: string, now: () => number): WebhookKeySource {
  let keyring: Promise<Keyring> | undefined;
  let loaded: Keyring | undefined;
  let keyText: string | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;

  const load = (): Promise<Keyring> => {
    fetchedAt = now();
    const loading = service.getSigningPublicKey(entityId).then((text) => {
      const next = createKeyring(text);
      keyText = text;
      loaded = next;
      return next;
    });
    // A failed fetch must not stick: the next webhook tries again (the service retries too).
    loading.catch(() => {
      if (keyring === loading) keyring = undefined;
    });
    keyring = loading;
    return loading;
  };

  return {
    current: () => loaded ?? keyring ?? load(),
    async refreshAfterFailure() {
      if (now() - fetchedAt < KEY_REFRESH_INTERVAL_MS) return undefined;
      const before = keyText;
      const next = await load();
      return keyText === before ? undefined : next;
    },
  };
}
