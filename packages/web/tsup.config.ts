import { defineConfig } from 'tsup';

// Browser bundles: ES2020 syntax, no Node built-ins, React left to the application.
export default defineConfig({
  entry: ['src/index.ts', 'src/react.ts', 'src/page.ts'],
  format: ['esm', 'cjs'],
  platform: 'browser',
  target: 'es2020',
  external: ['react'],
  dts: true,
  sourcemap: true,
  clean: true,
});
