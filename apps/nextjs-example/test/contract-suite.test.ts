/** The contract suite against this app served by Next (contract-tests/test/support/adapter-contract-suite.ts). */
import { describeAdapterSuite } from '@bnpl-kit/contract-tests/test-support/adapter-contract-suite.js';
import { nextAdapter } from './next-adapter.js';

describeAdapterSuite(nextAdapter);
