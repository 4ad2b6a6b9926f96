/** The adapter behaviour suite (contract-tests/test/support/adapter-behaviour-suite.ts) on this app served by Next. */
import { describeAdapterBehaviour } from '@bnpl-kit/contract-tests/test-support/adapter-behaviour-suite.js';
import { inProcess } from '@bnpl-kit/contract-tests/test-support/in-process-target.js';
import { nextAdapter } from './next-adapter.js';

describeAdapterBehaviour([inProcess(nextAdapter)]);
