/**
 * The reference market backend in basic mode: `pnpm start`. Everything it is made of lives in
 * `@bnpl-kit/reference-server` (apps/reference-kit), shared with the data-sharing server.
 */
import { runReferenceServer } from '@bnpl-kit/reference-server';

await runReferenceServer({
  integrationMode: 'basic',
  name: 'basic-server',
  defaults: { port: 3000, dataDir: '.data/basic' },
});
