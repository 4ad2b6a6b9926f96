import { describe, expect, it } from 'vitest';
import { headerValueNearMisses, tokenNearMisses } from '../src/support/credentials.js';

describe('credential near misses', () => {
  it('gives every near miss of a token, none of them the token itself', () => {
    expect(tokenNearMisses('s3cret-Token')).toEqual([
      ['with its last character changed', 's3cret-Tokex'],
      ['without its last character', 's3cret-Toke'],
      ['with a character appended', 's3cret-Tokenx'],
      ['in the other letter case', 's3cret-token'],
      ['its first half', 's3cret'],
      ['empty', ''],
    ]);
    expect(tokenNearMisses('abx').map(([, v]) => v)).toEqual(['aby', 'ab', 'abxx', 'ABX', '']);
  });

  it('keeps an authentication scheme and varies the token after it', () => {
    const near = headerValueNearMisses('Bearer abcd');
    expect(near).toContainEqual(['the token without its last character', 'Bearer abc']);
    expect(near).toContainEqual(['the token in the other letter case', 'Bearer ABCD']);
    expect(near).toContainEqual(['the token empty', 'Bearer']);
    expect(near.every(([, v]) => v !== 'Bearer abcd')).toBe(true);
  });

  it('varies the whole value of a header without a scheme', () => {
    expect(headerValueNearMisses('k3y-value')).toContainEqual(['the value its first half', 'k3y-v']);
  });
});
