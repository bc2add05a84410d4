import { describe, expect, it } from 'vitest';
import { nounBaseForms, nounHyponyms, nounSynonyms } from './wordnet.js';

describe('wordnet', () => {
  it('finds noun base forms of plurals', () => {
    expect(nounBaseForms('activities')).toContain('activity');
    expect(nounBaseForms('children')).toContain('child');
    expect(nounBaseForms('boxes')).toContain('box');
  });

  it('finds hyponyms of a category noun', () => {
    const sports = nounHyponyms('sports', { depth: 3 });
    expect(sports.has('swimming')).toBe(true);
    expect(sports.has('football')).toBe(true);
    const children = nounHyponyms('children', { depth: 3 });
    expect(children.has('son') || children.has('daughter')).toBe(true);
  });

  it('stops a walk once more than `limit` lemmas are found, keeping the walk order', () => {
    const whole = nounHyponyms('person', { depth: 3 });
    expect(whole.size).toBeGreaterThan(1000);
    const cut = nounHyponyms('person', { depth: 3, limit: 100 });
    expect(cut.size).toBeGreaterThan(100);
    expect(cut.size).toBeLessThan(120);
    expect([...cut.keys()]).toEqual([...whole.keys()].slice(0, cut.size));
    expect(nounHyponyms('sports', { depth: 3, limit: 100_000 })).toEqual(nounHyponyms('sports', { depth: 3 }));
  });

  it('finds synonyms', () => {
    expect(nounSynonyms('kid')).toContain('child');
  });

  it('returns nothing for unknown words', () => {
    expect(nounHyponyms('zzxqv').size).toBe(0);
  });
});
