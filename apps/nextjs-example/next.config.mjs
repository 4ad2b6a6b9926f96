/** @type {import('next').NextConfig} */
export default {
  // `pnpm typecheck` checks this app with the rest of the repository; one check is enough.
  typescript: { ignoreBuildErrors: true },
  // Loaded by Node from node_modules, not bundled: PGlite reads its WebAssembly and data files
  // next to its own modules, and `pg` has optional native parts.
  serverExternalPackages: ['@bnpl-kit/store', '@electric-sql/pglite', 'pg'],
};
