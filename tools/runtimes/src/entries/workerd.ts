import { handle } from '../app.js';

export default { fetch: handle };
