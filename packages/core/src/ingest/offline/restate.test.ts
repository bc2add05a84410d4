import { beforeAll, describe, expect, it } from 'vitest';
import { extractTimeMentions } from '../time/index.js';
import { loadLexicon, type Lexicon } from './lexicon.js';
import { findMentions } from './mentions.js';
import { referentOf, renderInterval, restate, resolveThirdPerson, type Referent } from './restate.js';
import { tagText } from './tagged-text.js';

let lexicon: Lexicon;
beforeAll(async () => {
  lexicon = await loadLexicon();
});

const speakers = { speaker: 'Caroline', listener: 'Melanie' };
function restated(text: string, referents: Referent[] = [], reference = '2023-05-08T13:56:00'): string {
  const tagged = tagText(text, lexicon);
  const own = findMentions(tagged, lexicon).flatMap((mention) => referentOf(mention, speakers, (name) => name.replace(/^./, (c) => c.toUpperCase())) ?? []);
  return restate(text, tagged.tokens, speakers, [...referents, ...own], extractTimeMentions(text, reference), lexicon);
}

describe('restate', () => {
  it('names the speaker for the first person and dates relative times', () => {
    expect(restated('I went to a grief support meeting yesterday and it helped a lot.')).toBe(
      'Caroline went to a grief support meeting yesterday (2023-05-07) and it helped a lot.',
    );
  });

  it('names the listener for the second person, with verb agreement', () => {
    expect(restated('How have you been? Did you hear any stories? You are amazing and I love your paintings.')).toBe(
      "How has Melanie been? Did Melanie hear any stories? Melanie is amazing and Caroline loves Melanie's paintings.",
    );
    expect(restated("I'm proud of you. I've been busy and I'll call you.")).toBe('Caroline is proud of Melanie. Caroline has been busy and Caroline will call Melanie.');
  });

  it('leaves a plural "you" alone', () => {
    expect(restated('Thank you guys so much!')).toBe('Thank you guys so much!');
  });

  it('resolves he/she only to a single person of matching gender', () => {
    expect(restated('My sister called last week. She said her new job is great.')).toBe(
      "Caroline's sister called last week (week of 2023-05-01). Caroline's sister said Caroline's sister's new job is great.",
    );
    // Two women mentioned: "she" stays.
    expect(restated('My sister met Anna. She was happy.')).toBe("Caroline's sister met Anna. She was happy.");
    // Nobody of the pronoun's gender: "he" stays.
    expect(restated('My sister called. He was happy.')).toBe("Caroline's sister called. He was happy.");
  });

  it('does not add a date to an expression that already has its year', () => {
    expect(restated('I moved here in May 2021.')).toBe('Caroline moved here in May 2021.');
  });
});

describe('resolveThirdPerson', () => {
  it('refuses when a candidate of unknown gender could also fit', () => {
    expect(resolveThirdPerson('female', [{ name: 'Jo', gender: undefined }, { name: 'Anna', gender: 'female' }])).toBeUndefined();
    expect(resolveThirdPerson('female', [{ name: 'Anna', gender: 'female' }, { name: 'Tom', gender: 'male' }])?.name).toBe('Anna');
  });
});

describe('renderInterval', () => {
  it('renders each granularity', () => {
    expect(renderInterval({ start: '2023-05-07', end: '2023-05-07', granularity: 'day' })).toBe('2023-05-07');
    expect(renderInterval({ start: '2023-05-01', end: '2023-05-07', granularity: 'week' })).toBe('week of 2023-05-01');
    expect(renderInterval({ start: '2023-04-01', end: '2023-04-30', granularity: 'month' })).toBe('2023-04');
    expect(renderInterval({ start: '2022-01-01', end: '2022-12-31', granularity: 'year' })).toBe('2022');
    expect(renderInterval({ start: '2022-06-01', end: '2022-08-31', granularity: 'season' })).toBe('2022-06-01 to 2022-08-31');
  });
});
