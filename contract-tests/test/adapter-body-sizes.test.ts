/**
 * Request bodies of every size and transfer (test/support/adapter-body-sizes-suite.ts) on every
 * framework adapter in `src/adapters.ts` (the Next.js example's in apps/nextjs-example/test).
 */
import { adapters } from '../src/adapters.js';
import { describeBodySizes } from './support/adapter-body-sizes-suite.js';

describeBodySizes(adapters);
