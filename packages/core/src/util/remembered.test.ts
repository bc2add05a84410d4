import { describe, expect, it } from 'vitest';
import { remembered } from './remembered.js';

describe('remembered', () => {
  it('computes a key once, and empties the cache when it reaches its limit', () => {
    const cache = new Map<string, number>();
    let calls = 0;
    const length = (key: string) => {
      calls += 1;
      return key.length;
    };
    expect(remembered(cache, 2, 'ab', length)).toBe(2);
    expect(remembered(cache, 2, 'ab', length)).toBe(2);
    expect(calls).toBe(1);
    remembered(cache, 2, 'abc', length);
    expect([...cache.keys()]).toEqual(['ab', 'abc']);
    expect(remembered(cache, 2, 'abcd', length)).toBe(4);
    expect([...cache.keys()]).toEqual(['abcd']);
    expect(calls).toBe(3);
  });
});
