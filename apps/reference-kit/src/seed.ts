/**
 * Seeds the demo users in sandbox mode: created once, then left as they are (a push stores their
 * service user ID and commitments), except for the session token, which follows the key file.
 */
import type { Store } from '@bnpl-kit/store';
import { DEMO_USERS } from './demo-data.js';

export async function seedDemoUsers(store: Store, sessions: Record<string, string>): Promise<void> {
  for (const demo of DEMO_USERS) {
    const sessionToken = sessions[demo.id]!;
    const { created } = await store.ensureUser({
      id: demo.id,
      profile: demo.profile,
      customClaims: demo.customClaims,
      sessionToken,
    });
    if (!created) await store.setUserSessionToken(demo.id, sessionToken);
  }
}
