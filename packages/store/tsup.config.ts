import { nodeLibrary } from '../../tsup.shared.ts';

export default nodeLibrary(['index', 'worker', 'testing']);
