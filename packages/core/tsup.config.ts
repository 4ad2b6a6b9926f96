import { nodeLibrary } from '../../tsup.shared.ts';

export default nodeLibrary(['index', 'testing', 'node', 'openapi', 'wire', 'unstable-internals'], {
  // The OpenTelemetry API is compiled in (its ES module build, tree-shaken to what the kit calls):
  // required from node_modules it is 44 CommonJS files, about a quarter of the package's import
  // time. The API keeps its providers on a global made for several copies, so an SDK the application
  // registers with its own copy is the one the kit's spans and metrics go to. The dependency stays
  // for the types in the .d.ts files.
  noExternal: ['@opentelemetry/api'],
  esbuildOptions(options) {
    options.mainFields = ['module', 'main'];
  },
});
