import { unitConfig } from '../../vitest.shared.ts';

export default unitConfig;
