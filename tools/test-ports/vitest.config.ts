import { sharedWorkerUnitConfig } from '../../vitest.shared.ts';

export default sharedWorkerUnitConfig;
