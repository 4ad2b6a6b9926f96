/**
 * The service's user IDs (`credify_id`) the shop remembers for the tab, per service: an ID is the
 * service's, so a shop switched to another service (the embedded sandbox, then a standalone one)
 * must not present the first service's ID to the second (it knows nothing of it).
 */
export interface CredifyIds {
  get(userId: string): string | undefined;
  set(userId: string, credifyId: string): void;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function credifyIds(storage: KeyValueStorage, serviceUrl: string): CredifyIds {
  const key = (userId: string) => `demo-shop:credify-id:${serviceUrl}:${userId}`;
  return {
    get: (userId) => storage.getItem(key(userId)) ?? undefined,
    set: (userId, credifyId) => storage.setItem(key(userId), credifyId),
  };
}
