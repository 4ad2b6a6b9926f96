import { describe, expect, it } from 'vitest';
import { shapeProblem } from '../src/index.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('shapeProblem', () => {
  it('passes objects made by one constructor', () => {
    expect(shapeProblem([new Point(1, 2), new Point(3, 4)])).toBeUndefined();
  });

  it('names an object whose getter was made for it (dictionary mode)', () => {
    const make = (n: number) => ({
      n,
      get double() {
        return n * 2;
      },
    });
    expect(shapeProblem([make(1), make(2)])).toBe('object 0 is in dictionary mode');
  });

  it('names an object given a getter of its own by defineProperty (a hidden class of its own)', () => {
    const make = (n: number) => Object.defineProperty(new Point(n, n), 'sum', { get: () => n + n });
    expect(shapeProblem([new Point(0, 0), make(1)])).toMatch(/^object 1 /);
  });

  it('names objects of different shapes', () => {
    expect(shapeProblem([{ a: 1 }, { b: 1 }])).toBe('object 1 has a hidden class of its own');
  });

  it('needs two objects to compare', () => {
    expect(() => shapeProblem([{}])).toThrow(/at least two/);
  });
});
