import { adapterNamed } from '../../src/adapters.js';
import { describeAdapterSuite } from '../support/adapter-contract-suite.js';

describeAdapterSuite(adapterNamed('koa'));
