import { describeConformanceMarket } from './support/conformance-market-suite.js';

describeConformanceMarket('data-sharing');
