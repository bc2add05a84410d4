import { describe, expect, it } from 'vitest';
import { answerF1, bleu1, locomoAnswerF1, multiAnswerF1, normalizeAnswer } from './answer-metrics.js';

describe('answer metrics', () => {
  it('normalises like LoCoMo: articles, punctuation and commas go, case folds', () => {
    expect(normalizeAnswer('The  Blue Bowl, and a cat!')).toBe('blue bowl cat');
  });

  it('scores token F1 over Porter stems', () => {
    expect(answerF1('She was painting sunsets', 'painted sunset')).toBeCloseTo(2 * (2 / 4) * 1 / (2 / 4 + 1));
    expect(answerF1('Lyon', 'Lyon')).toBe(1);
    expect(answerF1('Porto', 'Lyon')).toBe(0);
    expect(answerF1('', 'Lyon')).toBe(0);
  });

  it('applies the per-category rules', () => {
    expect(multiAnswerF1('pottery, painting', 'painting, pottery, camping')).toBeCloseTo(2 / 3);
    expect(locomoAnswerF1('a sunrise', 'sunrise; a sunset over the lake', 'open-domain')).toBe(1);
    expect(locomoAnswerF1('7 May 2023', '7 May 2023', 'temporal')).toBe(1);
  });

  it('computes BLEU-1 with the brevity penalty and smoothing', () => {
    expect(bleu1('the cat sat', 'the cat sat')).toBe(1);
    expect(bleu1('cat', 'the cat sat')).toBeCloseTo(Math.exp(1 - 3));
    expect(bleu1('the the the the', 'the cat')).toBeCloseTo(1 / 4);
    expect(bleu1('dog', 'cat')).toBeCloseTo(0.1);
  });
});
