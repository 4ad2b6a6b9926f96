/**
 * The reference market backend in data-sharing mode: `pnpm start:data-sharing`. Its own port and
 * data directory, so it runs next to the basic-mode server. Built from `@bnpl-kit/reference-server`.
 */
import { runReferenceServer } from '@bnpl-kit/reference-server';

await runReferenceServer({
  integrationMode: 'data-sharing',
  name: 'data-sharing-server',
  defaults: { port: 3001, dataDir: '.data/data-sharing' },
});
