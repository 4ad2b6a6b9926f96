/**
 * Per request to the market under certification, in these tests: what only a hang exceeds on a
 * machine whose two cores run every package's suite at once (certify's own default is 10 s).
 */
export const LOADED_REQUEST_TIMEOUT_MS = 60_000;
