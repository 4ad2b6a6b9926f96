/**
 * Starts PGlite with the kit's settings (`pglite-settings.ts`). A database that does not exist yet
 * (in memory, or a data directory without PG_VERSION) starts from the initdb template
 * (`pglite-template.ts`) rather than running initdb; when PGlite refuses the template, the template
 * is dropped and initdb runs as before.
 */
import { access, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite } from './pglite-settings.js';
import {
  forgetPgliteTemplate,
  type PgliteTemplateKind,
  pgliteTemplate,
  releasePgliteTemplate,
  tarballSource,
} from './pglite-template.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function templateOrNothing(kind: PgliteTemplateKind): Promise<ArrayBuffer | undefined> {
  try {
    return await pgliteTemplate(kind);
  } catch {
    return undefined;
  }
}

/** PGlite in `dataDir` (created if empty), or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir: string | undefined): Promise<PGlite> {
  const location = dataDir ?? 'memory://';
  if (dataDir !== undefined && (await exists(join(dataDir, 'PG_VERSION')))) {
    return createPglite(location);
  }
  const kind = dataDir === undefined ? 'memory' : 'cluster';
  const template = await templateOrNothing(kind);
  if (template !== undefined) {
    // What was in the directory before (the lock file): everything else came from the template.
    const before = dataDir === undefined ? undefined : new Set(await readdir(dataDir));
    try {
      const db = await createPglite(location, { loadDataDir: tarballSource(template) });
      if (dataDir !== undefined) releasePgliteTemplate(kind);
      return db;
    } catch {
      if (dataDir !== undefined && before !== undefined) {
        for (const name of await readdir(dataDir)) {
          if (!before.has(name)) await rm(join(dataDir, name), { recursive: true, force: true });
        }
      }
      await forgetPgliteTemplate(kind);
    }
  }
  return createPglite(location);
}
