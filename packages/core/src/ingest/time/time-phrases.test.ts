import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractTimeMentions } from './extract-time-mentions.js';

interface ExpectedInterval {
  start: string;
  end: string;
  granularity: string;
}

interface PhraseCase {
  reference: string;
  text: string;
  expected: ExpectedInterval[];
}

const cases = JSON.parse(readFileSync(new URL('./__fixtures__/time-phrases.json', import.meta.url), 'utf8')) as PhraseCase[];

function key(interval: ExpectedInterval): string {
  return `${interval.start}..${interval.end} ${interval.granularity}`;
}

describe('temporal fixture (real-world phrasings)', () => {
  it('has at least 150 cases, negatives included', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(cases.filter((c) => c.expected.length === 0).length).toBeGreaterThanOrEqual(20);
  });

  it('resolves at least 95% of the phrasings exactly (start, end and granularity)', () => {
    const misses: string[] = [];
    for (const phrase of cases) {
      const got = extractTimeMentions(phrase.text, phrase.reference).map((m) => key(m.interval));
      const want = phrase.expected.map(key);
      if (got.join(' | ') !== want.join(' | ')) {
        misses.push(`  [${phrase.reference}] ${phrase.text}\n      want: ${want.join(' | ') || '∅'}\n      got:  ${got.join(' | ') || '∅'}`);
      }
    }
    const exact = cases.length - misses.length;
    const share = (100 * exact) / cases.length;
    console.log(`temporal fixture: ${exact}/${cases.length} exact (${share.toFixed(1)}%)`);
    if (misses.length > 0) console.log(`misses:\n${misses.join('\n')}`);
    expect(share).toBeGreaterThanOrEqual(95);
  });
});
