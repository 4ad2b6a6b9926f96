/**
 * The reference market backend in basic mode: `node scripts/start.mjs` (or `pnpm start`). Everything it is made of lives in
 * `@bnpl-kit/reference-server` (apps/reference-kit), shared with the data-sharing server.
 */
import { fileURLToPath } from 'node:url';
import { runReferenceServer } from '@bnpl-kit/reference-server';

// Next to this app whatever the working directory (`node scripts/start.mjs` runs from the root).
const DATA_DIR = fileURLToPath(new URL('../.data/basic', import.meta.url));

await runReferenceServer({
  integrationMode: 'basic',
  name: 'basic-server',
  defaults: { port: 3000, dataDir: DATA_DIR },
});
