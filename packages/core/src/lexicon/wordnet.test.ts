import { describe, expect, it } from 'vitest';
import { isAdjective, nounBaseForms, nounCompoundKinds, nounHyponyms, nounIsA, nounSynonyms } from './wordnet.js';

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
    expect(nounCompoundKinds('zzxqv').size).toBe(0);
    expect(nounIsA('zzxqv', 'instrumentality')).toBe(false);
  });

  it('reads the kinds a noun modifier names from two-word nouns, its derived adjective included', () => {
    // photography → photographic (derived adjective) → photographic camera / equipment → …
    const photography = nounCompoundKinds('photography', { depth: 1 });
    expect(photography.get('camera')).toBe('photographic camera');
    expect(photography.get('flash')).toBe('photographic equipment');
    expect(photography.get('enlarger')).toBe('photographic equipment');
    // cooking → cooking pan, cooking utensil → skillet, saucepan, …
    const cooking = nounCompoundKinds('cooking', { depth: 1 });
    expect(cooking.has('skillet')).toBe(true);
    expect(cooking.has('saucepan')).toBe(true);
    // Only one-word lemmas: "photographic_paper" itself is not a kind.
    expect([...photography.keys()].every((lemma) => !lemma.includes('_'))).toBe(true);
  });

  it('tells adjectives and kinds of a noun', () => {
    expect(isAdjective('current')).toBe(true);
    expect(isAdjective('photography')).toBe(false);
    for (const word of ['setup', 'gear', 'kit', 'tools', 'equipment']) expect(nounIsA(word, 'instrumentality')).toBe(true);
    for (const word of ['studio', 'race', 'account', 'weekend']) expect(nounIsA(word, 'instrumentality')).toBe(false);
  });
});
