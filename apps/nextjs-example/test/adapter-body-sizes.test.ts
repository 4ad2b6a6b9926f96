/** Bodies of every size and transfer (contract-tests/test/support/adapter-body-sizes-suite.ts) on this app served by Next. */
import { describeBodySizes } from '@bnpl-kit/contract-tests/test-support/adapter-body-sizes-suite.js';
import { nextAdapter } from './next-adapter.js';

describeBodySizes([nextAdapter]);
