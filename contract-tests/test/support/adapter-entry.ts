/**
 * What an adapter entry is, for an adapter whose entry lives outside src/adapters.ts (the Next.js
 * example's, in apps/nextjs-example/test, which reaches this folder as
 * `@bnpl-kit/contract-tests/test-support/*`).
 */
export type {
  AdapterEntry,
  GlobalJsonParser,
  StartedServer,
  StartOptions,
} from '../../src/adapter-server.js';
export { listen } from '../../src/adapter-server.js';
