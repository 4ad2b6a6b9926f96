/**
 * Invented bearer tokens on offer filtering (test/support/adapter-invented-tokens-suite.ts) on every
 * framework adapter in `src/adapters.ts` (the Next.js example's in apps/nextjs-example/test).
 */
import { adapters } from '../src/adapters.js';
import { describeInventedTokens } from './support/adapter-invented-tokens-suite.js';

describeInventedTokens(adapters);
