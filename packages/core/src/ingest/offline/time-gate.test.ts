import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractTimeMentions } from '../time/index.js';
import { mayMentionTime } from './analyse-session.js';

const cases = JSON.parse(readFileSync(new URL('../time/__fixtures__/time-phrases.json', import.meta.url), 'utf8')) as Array<{ reference: string; text: string }>;

describe('the time gate of message analysis', () => {
  it('lets through every phrasing of the temporal fixture the time rules resolve', () => {
    const resolving = cases.filter((phrase) => extractTimeMentions(phrase.text, phrase.reference).length > 0);
    expect(resolving.length).toBeGreaterThan(100);
    expect(resolving.filter((phrase) => !mayMentionTime(phrase.text)).map((phrase) => phrase.text)).toEqual([]);
  });

  it('lets through month, holiday and decade words, and not words that merely start like them', () => {
    for (const text of ['back in Sept.', 'for Cinco de Mayo', 'in the nineties', 'last March', 'on Tues', 'by Christmas Eve']) expect(mayMentionTime(text)).toBe(true);
    for (const text of ['Maria decided to join the marathon', 'maybe novels about activities', 'the market opportunities']) expect(mayMentionTime(text)).toBe(false);
    // Gated words still resolve through the rules.
    expect(extractTimeMentions('We danced for Cinco de Mayo.', '2023-05-08').length).toBeGreaterThan(0);
  });
});
