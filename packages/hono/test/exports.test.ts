// Behaviour is tested once for every adapter, against real servers, in
// contract-tests/test/adapter-behaviour.test.ts; this only pins the export shape shared by all adapters.
import { describe, expect, it } from 'vitest';
import * as adapter from '../src/index.js';

describe('@bnpl-kit/hono exports', () => {
  it('has the same export names as every other adapter', () => {
    expect(Object.keys(adapter).sort()).toEqual([
      'RAW_BODY_HELP',
      'bnplErrorHandler',
      'createBnplRouter',
      'frameworkName',
    ]);
    expect(adapter.frameworkName).toBe('hono');
    expect(adapter.RAW_BODY_HELP).toContain('createBnplRouter(market)');
  });
});
