import { type ErrorCode, isKitError, type KitError } from '../errors.js';

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
  const { error } = outcome;
  if (!isKitError(error)) throw new Error(`expected a KitError, got ${String(error)}`);
  if (code !== undefined && error.code !== code) {
    throw new Error(`expected a KitError with code ${code}, got ${error.code}: ${error.message}`);
  }
  return error;
}
