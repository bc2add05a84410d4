import fc from 'fast-check';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithCompounds, analyzeWord, isStopWord, words } from './analyzer.js';

// The analyzer as first written: the reference its fast paths must agree with.
const tokenPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
function referenceWords(text: string): string[] {
  return [...text.normalize('NFKC').toLowerCase().matchAll(tokenPattern)].map((match) => match[0].replace(/['’]s$/u, '').replace(/['’]/gu, ''));
}
const referenceCompounds = (text: string) =>
  [...text.matchAll(/(?<![\p{L}\p{N}'’])([a-z]+)-([a-z]+)(?![\p{L}\p{N}'’])/giu)].map((match) => `${match[1]}${match[2]}`.toLowerCase());
const referenceAnalyze = (text: string) => referenceWords(text).filter((word) => word.length > 0 && !isStopWord(word)).map((word) => stemmer(word));
const referenceWithCompounds = (text: string) =>
  [...referenceWords(text), ...referenceCompounds(text)].filter((word) => word.length > 0 && !isStopWord(word)).map((word) => stemmer(word));

const pieces = ['I', "don't", "Caroline's", 'caf\u00e9', 'Stra\u00dfe', '\uff21\uff22', '\ufb01ne', "it\u2019s", "rock'n'roll", 'ISTANBUL', '\u0130stanbul', '42nd', '\u00bd', ' ', '  ', '\n', '.', ',', "'", '\u2019', '-', 'running', 'paintings', 'the'];

describe('words and analyze', () => {
  it('tokenise as the Unicode pattern does, for ASCII and other text alike', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(fc.constantFrom(...pieces)).map((parts) => parts.join(''))), (text) => {
        expect(words(text)).toEqual(referenceWords(text));
        expect(analyze(text)).toEqual(referenceAnalyze(text));
        expect(analyzeWithCompounds(text)).toEqual(referenceWithCompounds(text));
      }),
      { numRuns: 500 },
    );
  });

  it('give every caller its own tokens of a text read before', () => {
    const text = 'Melanie: I painted a sunrise over the lake last weekend, my kids loved it!';
    const first = words(text);
    first.push('changed');
    expect(words(text)).toEqual(referenceWords(text));
    expect(words(text)).not.toBe(words(text));
  });

  it('count a hyphenated word joined up too, so either spelling finds the other', () => {
    expect(analyzeWithCompounds('running to de-stress')).toEqual(['run', 'de', 'stress', 'destress']);
    expect(analyzeWithCompounds('I destress by running')).toEqual(['destress', 'run']);
    expect(analyzeWithCompounds('a well-known place')).toEqual(['known', 'place', 'wellknown']);
    expect(analyzeWithCompounds('an x-ray')).toEqual(['x', 'rai', 'xrai']);
    // What stores persist stays as it was.
    expect(analyze('running to de-stress')).toEqual(['run', 'de', 'stress']);
  });

  it('read a chat line', () => {
    expect(words("Caroline's sister didn't go to the caf\u00e9 in 2022.")).toEqual(['caroline', 'sister', 'didnt', 'go', 'to', 'the', 'caf\u00e9', 'in', '2022']);
    expect(analyze('She was painting sunsets again')).toEqual(['she', 'paint', 'sunset', 'again']);
  });

  it('analyze one plain word the way analyze reads it as a text', () => {
    for (const word of ['painting', 'the', 'sunsets', 'a', 'x', 'swimming', 'abc123', 'was', 'kids']) {
      expect(analyzeWord(word)).toBe(analyze(word)[0]);
    }
  });
});
