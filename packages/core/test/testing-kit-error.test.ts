/** The `@bnpl-kit/core/testing` helpers that catch a KitError fail the test on anything else. */
import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { kitErrorOf, kitErrorThrownBy } from '../src/testing.js';

const refused = new KitError('validation_failed', 'no');

describe('kitErrorOf', () => {
  it('returns the KitError a promise rejects with', async () => {
    await expect(kitErrorOf(Promise.reject(refused), 'validation_failed')).resolves.toBe(refused);
  });

  it.each([
    ['resolves', () => Promise.resolve(1), /resolved to 1/],
    ['rejects with another error', () => Promise.reject(new Error('boom')), /got Error: boom/],
    ['rejects with another code', () => Promise.reject(refused), /code not_found, got validation_failed/],
  ])('fails when the promise %s', async (_, promise, message) => {
    await expect(kitErrorOf(promise(), 'not_found')).rejects.toThrow(message);
  });
});

describe('kitErrorThrownBy', () => {
  it('returns the KitError the function throws', () => {
    expect(
      kitErrorThrownBy(() => {
        throw refused;
      }, 'validation_failed'),
    ).toBe(refused);
  });

  it.each([
    ['returns', () => 1, /returned 1/],
    [
      'throws another error',
      () => {
        throw new Error('boom');
      },
      /got Error: boom/,
    ],
    [
      'throws another code',
      () => {
        throw refused;
      },
      /code not_found, got validation_failed/,
    ],
  ])('fails when the function %s', (_, run, message) => {
    expect(() => kitErrorThrownBy(run, 'not_found')).toThrow(message);
  });
});
