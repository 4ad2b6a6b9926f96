/**
 * The adapter behaviour suite (test/support/adapter-behaviour-suite.ts) for every framework adapter
 * in `src/adapters.ts`, each market built in this process and served by that framework (the Next.js
 * example's run in apps/nextjs-example/test, after its build).
 */
import { adapters } from '../src/adapters.js';
import { describeAdapterBehaviour } from './support/adapter-behaviour-suite.js';
import { inProcess } from './support/in-process-target.js';

describeAdapterBehaviour(adapters.map(inProcess));
