/**
 * The reference market backend in data-sharing mode: `node scripts/start.mjs data-sharing`. Its own port and
 * data directory, so it runs next to the basic-mode server. Built from `@bnpl-kit/reference-server`.
 */
import { fileURLToPath } from 'node:url';
import { runReferenceServer } from '@bnpl-kit/reference-server';

// Next to this app whatever the working directory (`node scripts/start.mjs` runs from the root).
const DATA_DIR = fileURLToPath(new URL('../.data/data-sharing', import.meta.url));

await runReferenceServer({
  integrationMode: 'data-sharing',
  name: 'data-sharing-server',
  defaults: { port: 3001, dataDir: DATA_DIR },
});
