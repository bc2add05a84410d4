import { describe, expect, it } from 'vitest';
import {
  allAt,
  anyAt,
  contextTokensToTurns,
  itemsWithinBudget,
  percentile,
  rankedSessions,
  rankedTurns,
  recallAt,
  recallWithinTokens,
  type RankedItem,
} from './metrics.js';

function item(tokens: number, ...turns: string[]): RankedItem {
  return { tokens, sources: turns.map((turnId) => ({ sessionId: `session_${turnId.slice(1, turnId.indexOf(':'))}`, turnId })) };
}

describe('rank → turns', () => {
  it('expands items to their source turns in rank order, each kept once', () => {
    const items = [item(10, 'D1:2', 'D1:3'), item(5, 'D1:3'), item(7, 'D2:1', 'D1:2', 'D3:4')];
    expect(rankedTurns(items)).toEqual(['D1:2', 'D1:3', 'D2:1', 'D3:4']);
    expect(rankedSessions(items)).toEqual(['session_1', 'session_2', 'session_3']);
  });
});

describe('R@k', () => {
  it('counts gold turns among the first k distinct turns', () => {
    const turns = ['D1:1', 'D1:2', 'D2:5', 'D3:1'];
    expect(recallAt(turns, ['D1:2', 'D3:1'], 1)).toBe(0);
    expect(recallAt(turns, ['D1:2', 'D3:1'], 2)).toBe(0.5);
    expect(recallAt(turns, ['D1:2', 'D3:1'], 4)).toBe(1);
    expect(recallAt(turns, ['D1:2', 'D1:2', 'D9:9'], 10)).toBe(0.5);
    expect(recallAt(turns, [], 10)).toBe(0);
  });

  it('lets a many-turn unit spend several of the k slots', () => {
    // An episode built from five turns fills R@5 on its own: the gold turn ranked by the next item is out.
    const items = [item(40, 'D1:1', 'D1:2', 'D1:3', 'D1:4', 'D1:5'), item(8, 'D2:1')];
    expect(recallAt(rankedTurns(items), ['D2:1'], 5)).toBe(0);
    expect(recallAt(rankedTurns(items), ['D2:1'], 6)).toBe(1);
  });
});

describe('R@400tok', () => {
  it('stops before the first item that would exceed the budget', () => {
    const items = [item(150, 'D1:1'), item(200, 'D1:2'), item(60, 'D1:3'), item(10, 'D1:4')];
    expect(itemsWithinBudget(items, 400).map((entry) => entry.tokens)).toEqual([150, 200]);
    expect(recallWithinTokens(items, ['D1:2', 'D1:3'], 400)).toBe(0.5);
    // The small item after the cut-off does not count even though it would fit.
    expect(recallWithinTokens(items, ['D1:4'], 400)).toBe(0);
    expect(recallWithinTokens(items, ['D1:3'], 410)).toBe(1);
  });

  it('counts an item that fills the budget exactly, and nothing when the first item is too big', () => {
    expect(recallWithinTokens([item(400, 'D1:1')], ['D1:1'], 400)).toBe(1);
    expect(recallWithinTokens([item(401, 'D1:1'), item(5, 'D1:2')], ['D1:1', 'D1:2'], 400)).toBe(0);
  });
});

describe('session_any / session_all / turn_any', () => {
  const sessions = ['s7', 's2', 's9', 's1', 's4', 's3'];
  it('any: at least one gold session in the top k', () => {
    expect(anyAt(sessions, ['s3'], 5)).toBe(false);
    expect(anyAt(sessions, ['s3'], 6)).toBe(true);
    expect(anyAt(sessions, ['s3', 's9'], 5)).toBe(true);
    expect(anyAt(sessions, [], 5)).toBe(false);
  });
  it('all: every gold session in the top k', () => {
    expect(allAt(sessions, ['s2', 's9'], 5)).toBe(true);
    expect(allAt(sessions, ['s2', 's3'], 5)).toBe(false);
    expect(allAt(sessions, ['s2', 's3'], 10)).toBe(true);
    expect(allAt(sessions, [], 10)).toBe(false);
  });
  it('turn_any@10 looks at the first 10 distinct turns only', () => {
    const turns = Array.from({ length: 12 }, (_, index) => `s#${index}`);
    expect(anyAt(turns, ['s#10'], 10)).toBe(false);
    expect(anyAt(turns, ['s#9', 's#11'], 10)).toBe(true);
  });
});

describe('contextTokens@10', () => {
  it('sums items until 10 distinct turns are reached, the crossing item whole', () => {
    const items = [item(30, 'D1:1', 'D1:2', 'D1:3'), item(5, 'D1:1'), item(50, 'D2:1', 'D2:2', 'D2:3', 'D2:4', 'D2:5'), item(90, 'D3:1', 'D3:2', 'D3:3'), item(1, 'D4:1')];
    expect(contextTokensToTurns(items, 10)).toBe(175);
    expect(contextTokensToTurns(items, 3)).toBe(30);
  });
  it('counts the whole ranking when it has fewer turns', () => {
    expect(contextTokensToTurns([item(12, 'D1:1'), item(8, 'D1:1')], 10)).toBe(20);
    expect(contextTokensToTurns([], 10)).toBe(0);
  });
});

describe('percentile', () => {
  it('is nearest-rank', () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });
});
