import { nodeLibrary } from '../../tsup.shared.ts';

export default nodeLibrary(['index', 'testing', 'node', 'openapi', 'wire', 'unstable-internals']);
