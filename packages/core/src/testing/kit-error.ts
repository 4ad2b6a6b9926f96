import { type ErrorCode, isKitError, type KitError } from '../errors.js';

function expectKitError(error: unknown, code: ErrorCode | undefined): KitError {
  if (!isKitError(error)) throw new Error(`expected a KitError, got ${String(error)}`);
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected a KitError with code ${code}, got ${error.code}: ${error.message}`);
  }
  return error;
}

/**
 * The `KitError` a promise rejects with. Throws (failing the test) when it resolves, rejects with
 * something else, or, given `code`, with another code: one helper instead of a copy per test file.
 */
export async function kitErrorOf(promise: Promise<unknown>, code?: ErrorCode): Promise<KitError> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved)
    throw new Error(`expected a KitError, but the promise resolved to ${String(outcome.value)}`);
  return expectKitError(outcome.error, code);
}

/** `kitErrorOf` for synchronous code: the `KitError` that `run` throws. */
export function kitErrorThrownBy(run: () => unknown, code?: ErrorCode): KitError {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    return expectKitError(error, code);
  }
  throw new Error(`expected a KitError, but it returned ${String(value)}`);
}
