import { nodeLibrary } from '../../tsup.shared.ts';

export default nodeLibrary(['index', 'testing', 'node', 'openapi', 'wire', 'unstable-internals'], {
  // The OpenTelemetry API is compiled in (its ES module build, tree-shaken to what the kit calls):
  // required from node_modules it is 44 CommonJS files, about a quarter of the package's import
  // time. The API keeps its providers on a global made for several copies, so an SDK the application
  // registers with its own copy is the one the kit's spans and metrics go to. The dependency stays
  // for the types in the .d.ts files.
  //
  // zod is compiled in for the same reason: from node_modules it is about 100 ES modules that node
  // resolves, reads and compiles one by one, most of the package's import time (issue 36: importing
  // core cost 1.56× importing hono + pg, 0.8× with zod compiled in). Core's sources import it as a
  // namespace (`import * as z`, biome.json holds it) so that esbuild keeps only the parts core calls
  // (no locales, no compiler, no mini or v3): 230 KB instead of 780 KB. zod keeps its registry and
  // config on globals made for several copies, and its schemas recognise each other by traits, not
  // by class, so schemas of this copy and of an application's own compose. The dependency stays for
  // the types in the .d.ts files, which still import from 'zod'.
  noExternal: ['@opentelemetry/api', 'zod'],
  esbuildOptions(options) {
    options.mainFields = ['module', 'main'];
  },
});
