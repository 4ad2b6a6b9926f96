/** Invented bearer tokens (contract-tests/test/support/adapter-invented-tokens-suite.ts) on this app served by Next. */
import { describeInventedTokens } from '@bnpl-kit/contract-tests/test-support/adapter-invented-tokens-suite.js';
import { nextAdapter } from './next-adapter.js';

describeInventedTokens([nextAdapter]);
