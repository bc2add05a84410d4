import { describe, expect, it } from 'vitest';
import { searchExpansion } from './index-file.js';

describe('store-lmdb automatic search beam', () => {
  it('rises from 96 at 100 000 vectors to 256 at 1 000 000 for the default graph, to 512 for a sparser one', () => {
    const dense = { connectivity: 24, expansionSearch: 0 };
    const sparse = { connectivity: 16, expansionSearch: 0 };
    expect([0, 100_000, 550_000, 1_000_000, 2_000_000, 5_000_000].map((count) => searchExpansion(dense, count))).toEqual([96, 96, 176, 256, 434, 512]);
    expect([100_000, 1_000_000, 2_000_000].map((count) => searchExpansion(sparse, count))).toEqual([96, 512, 512]);
    expect(searchExpansion({ connectivity: 24, expansionSearch: 40 }, 1_000_000)).toBe(40);
  });
});
