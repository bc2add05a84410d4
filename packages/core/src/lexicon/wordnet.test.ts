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

  it('finds synonyms', () => {
    expect(nounSynonyms('kid')).toContain('child');
  });

  it('returns nothing for unknown words', () => {
    expect(nounHyponyms('zzxqv').size).toBe(0);
  });
});
