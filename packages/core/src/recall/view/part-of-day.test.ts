import { describe, expect, it } from 'vitest';
import { analyzeWord } from '../../search/analyzer.js';
import { partOfDayTerms } from './part-of-day.js';

const term = (word: string) => analyzeWord(word) as string;

describe('partOfDayTerms', () => {
  it('reads the part of the day from clock times', () => {
    expect(partOfDayTerms('On work nights I am winding down by 9:30 pm.')).toEqual([term('evening'), term('night')]);
    expect(partOfDayTerms('My run is at 7am, then work at 10 a.m.')).toEqual([term('morning')]);
    expect(partOfDayTerms('Lunch at 12:30 pm, dinner at 6 p.m.')).toEqual([term('afternoon'), term('evening')]);
    expect(partOfDayTerms('The train leaves at 11:45 PM and arrives at 2 am.')).toEqual([term('night')]);
  });

  it('reads words that name a part of the day', () => {
    expect(partOfDayTerms("I'll try another meditation session tonight.")).toEqual([term('evening'), term('night')]);
  });

  it('finds nothing in a text without a time of day', () => {
    expect(partOfDayTerms('I bought 3 apples and 12 pears; I am 34.')).toEqual([]);
    expect(partOfDayTerms('The score was 5 to 3 in the 9th.')).toEqual([]);
  });
});
