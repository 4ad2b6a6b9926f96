/** The resolve hook behind record-modules.mjs (it runs on the loader's thread). */
import { appendFileSync } from 'node:fs';

const target = process.env.RECORD_MODULES_TO;

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (target) appendFileSync(target, `${result.url}\n`);
  return result;
}
