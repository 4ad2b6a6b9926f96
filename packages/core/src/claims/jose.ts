/**
 * jose, loaded on first use: importing it costs about 40 ms of CPU at start-up (a quarter of
 * importing the whole kit), and only claim tokens (data-sharing mode) need it.
 */
type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

export function loadJose(): Promise<Jose> {
  loading ??= import('jose');
  return loading;
}
