/** Test helpers shared by the reference servers' test suites (`@bnpl-kit/reference-server/testing`). */

export { pgbouncerAvailable, type RunningPgBouncer, startPgBouncer } from '@bnpl-kit/store/testing';
export {
  type ChildServer,
  runServerProcess,
  type ServerProcess,
  type SpawnOptions,
  spawnServer,
} from './child-server.js';
export { BACKENDS, type BackendName, dropSchema, freshSchema, TEST_DATABASE_URL } from './databases.js';
export { type ExternalService, startExternalService } from './external-service.js';
export { orderRequest } from './orders.js';
export { waitFor } from './wait.js';
