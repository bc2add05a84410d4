import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../errors/index.js';
import { timeIntervalSchema } from '../../model/time.js';
import { calendarDate, dayNumber, isoDate } from './calendar.js';
import { chronoFallback } from './chrono-fallback.js';
import { extractTimeMentions, resolveTimeExpression } from './extract-time-mentions.js';

const spans = (text: string, reference: string): string[] =>
  extractTimeMentions(text, reference).map((m) => `${m.text}: ${m.interval.start}..${m.interval.end} ${m.interval.granularity}`);

describe('extractTimeMentions', () => {
  it('reports the expression, its offset and the resolved interval', () => {
    const [mention] = extractTimeMentions('We went camping last August with the kids.', '2024-03-15');
    expect(mention).toEqual({
      text: 'last August',
      index: 16,
      interval: { start: '2023-08-01', end: '2023-08-31', granularity: 'month', text: 'last August' },
    });
  });

  it('reads "last <Month>" as the one before the reference, never the coming one', () => {
    expect(resolveTimeExpression('last August', '2024-03-15')?.start).toBe('2023-08-01');
    expect(resolveTimeExpression('last August', '2024-08-20')?.start).toBe('2023-08-01');
    expect(resolveTimeExpression('last August', '2024-09-10')?.start).toBe('2024-08-01');
    expect(resolveTimeExpression('next August', '2024-08-20')?.start).toBe('2025-08-01');
  });

  it('resolves against the reference, not against today', () => {
    expect(spans('I saw her yesterday.', '1999-06-15')).toEqual(['yesterday: 1999-06-14..1999-06-14 day']);
    expect(spans('We met last year.', '1987-02-01')).toEqual(['last year: 1986-01-01..1986-12-31 year']);
  });

  it('accepts a date-time or a session timestamp as the reference and rejects anything else', () => {
    expect(spans('yesterday', '2023-05-08T13:56:00')).toEqual(['yesterday: 2023-05-07..2023-05-07 day']);
    expect(spans('yesterday', '1:56 pm on 8 May, 2023')).toEqual(['yesterday: 2023-05-07..2023-05-07 day']);
    expect(() => extractTimeMentions('yesterday', 'someday')).toThrow(InvalidInputError);
    expect(() => extractTimeMentions('yesterday', '2023-02-30')).toThrow(/reference/);
  });

  it('returns several mentions in text order', () => {
    expect(spans('I graduated in 2016, moved here last June and start a new job next Monday.', '2023-05-08')).toEqual([
      '2016: 2016-01-01..2016-12-31 year',
      'last June: 2022-06-01..2022-06-30 month',
      'next Monday: 2023-05-15..2023-05-15 day',
    ]);
  });

  it('reads multi-line text line by line, with offsets into the whole text', () => {
    const text = 'Plan:\n* Monday: rest\nI ran 5k yesterday.\nSee you next week!';
    const mentions = extractTimeMentions(text, '2023-05-10');
    expect(mentions.map((m) => [m.text, m.index, m.interval.start])).toEqual([
      ['yesterday', text.indexOf('yesterday'), '2023-05-09'],
      ['next week', text.indexOf('next week'), '2023-05-15'],
    ]);
  });

  it('lets the tense pick the occurrence of a bare month or weekday', () => {
    expect(spans('I went to Paris in May.', '2024-03-15')).toEqual(['May: 2023-05-01..2023-05-31 month']);
    expect(spans("I'm going to Paris in May.", '2024-03-15')).toEqual(['May: 2024-05-01..2024-05-31 month']);
    expect(spans('I went hiking on Friday.', '2024-03-13')).toEqual(['Friday: 2024-03-08..2024-03-08 day']);
    expect(spans("I'll go hiking on Friday.", '2024-03-13')).toEqual(['Friday: 2024-03-15..2024-03-15 day']);
  });

  it('widens "since", "from … to", parts and anchors into ranges', () => {
    expect(spans("I've lived here since 2019.", '2023-05-08')).toEqual(['since 2019: 2019-01-01..2023-05-08 range']);
    expect(spans('We were in Spain from June to August.', '2023-10-04')).toEqual(['from June to August: 2023-06-01..2023-08-31 range']);
    expect(spans('It happened in early 2022.', '2023-10-04')).toEqual(['early 2022: 2022-01-01..2022-04-30 range']);
    expect(spans('the Friday before 15 July 2023', '2023-07-20')).toEqual(['the Friday before 15 July 2023: 2023-07-14..2023-07-14 day']);
    expect(spans('two days after Christmas 2022', '2023-07-20')).toEqual(['two days after Christmas 2022: 2022-12-27..2022-12-27 day']);
    expect(spans('the week of 23 August 2023', '2023-09-01')).toEqual(['the week of 23 August 2023: 2023-08-21..2023-08-27 week']);
  });

  it('produces nothing for vague, anaphoric, habitual or non-temporal phrases', () => {
    for (const text of [
      'I have been so busy recently.',
      "Let's grab coffee soon!",
      'I saw her the other day.',
      'We left the next day.',
      'We should do it one of these days.',
      'I always go running on Sunday.',
      'Every summer we go to the lake.',
      'May I ask you something?',
      'I will march with them.',
      'Hold on a second.',
      'She teaches Sunday school.',
      'Taco Tuesday is my favourite.',
      'It costs 2000 dollars.',
      'Call me at 3pm.',
      'I finished the book in two weeks.',
      'Rome was not built in a day.',
      'Fresh tomatoes typically last 3-5 days.',
      'We drove 1,200 miles in 4 days!',
      'The movie is full of Easter eggs.',
      'Monday: yoga. Wednesday: swim.',
      'The gym is open Monday to Friday.',
      'I can meet Monday, Wednesday or Friday.',
      'In winter the park gets a lot of snow.',
    ]) {
      expect(spans(text, '2023-05-08'), text).toEqual([]);
    }
  });

  it('grounds "the week before", "the next day", "two days later" against the time named just before', () => {
    const cases: Array<[text: string, reference: string, expected: string[]]> = [
      [
        'Two weekends ago I ran a half marathon. The week before, I twisted my ankle.',
        '2024-03-15',
        ['Two weekends ago: 2024-03-02..2024-03-03 range', 'The week before: 2024-02-19..2024-02-25 week'],
      ],
      ['We landed on May 3 and two days later drove north.', '2023-05-20', ['May 3: 2023-05-03..2023-05-03 day', 'two days later: 2023-05-05..2023-05-05 day']],
      // A chain: each anaphor is the antecedent of the next.
      [
        'On Monday I flew out. The day after, I hiked; the day after that, I slept.',
        '2024-03-15',
        ['Monday: 2024-03-11..2024-03-11 day', 'The day after: 2024-03-12..2024-03-12 day', 'the day after: 2024-03-13..2024-03-13 day'],
      ],
      ['I started on Wednesday. The weekend after, I rested.', '2024-03-20', ['Wednesday: 2024-03-13..2024-03-13 day', 'The weekend after: 2024-03-16..2024-03-17 range']],
      ['We married in June 2019. A year later our son was born.', '2024-03-15', ['June 2019: 2019-06-01..2019-06-30 month', 'A year later: 2020-01-01..2020-12-31 year']],
      // Another phrase may point back to an anaphor ("the night before" the next day)...
      [
        'I went to bed late last Monday and felt awful the next day: I had been gaming the night before.',
        '2023-05-29',
        ['last Monday: 2023-05-22..2023-05-22 day', 'the next day: 2023-05-23..2023-05-23 day', 'the night before: 2023-05-22..2023-05-22 day'],
      ],
      // ...but a repeated comparison means the same year each time, not one further back.
      [
        'Sales fell 5% in 2020 compared to the previous year. Costs rose 3% compared to the previous year.',
        '2023-05-08',
        ['2020: 2020-01-01..2020-12-31 year', 'the previous year: 2019-01-01..2019-12-31 year'],
      ],
    ];
    for (const [text, reference, expected] of cases) expect(spans(text, reference), text).toEqual(expected);
  });

  it('leaves an anaphor alone without a fitting antecedent close before it', () => {
    const reference = '2024-03-15';
    expect(spans('The week before, I was ill.', reference)).toEqual([]);
    // Two sentences back is too far.
    expect(spans('I graduated in 2019. A lot happened then. The year after, I moved.', reference)).toHaveLength(1);
    // "before the exam", "before I left": another event, not the antecedent.
    expect(spans('Last Tuesday was my exam; the week before the exam I studied.', reference)).toHaveLength(1);
    expect(spans('Last Tuesday was my exam. The week before I left I studied.', reference)).toHaveLength(1);
    // A habit, and an antecedent longer than the unit ("the day after" a whole week).
    expect(spans('Every Friday I work late and the day after I sleep in.', reference)).toEqual([]);
    expect(spans('I started last week. The day after, I quit.', reference)).toHaveLength(1);
    // A duration, not a time; a past tense that would land after the reference.
    expect(spans('On May 3 we signed the lease, and we will rent the flat for the next year.', '2023-05-20')).toHaveLength(1);
    expect(spans('The recital was today. I phoned my aunt a few days later.', reference)).toHaveLength(1);
  });

  it('reads halves of a year as their month and grounds no other half', () => {
    expect(spans('Half a year ago I quit my job.', '2025-01-06')).toEqual(['Half a year ago: 2024-07-01..2024-07-31 month']);
    expect(spans('We retire in a year and a half.', '2025-01-06')).toEqual(['in a year and a half: 2026-07-01..2026-07-31 month']);
    expect(spans('They divorced two and a half years ago.', '2025-01-06')).toEqual(['two and a half years ago: 2022-07-01..2022-07-31 month']);
    for (const text of ['We met a month and a half ago.', 'half a month ago', "I've been vegan for a year and a half."]) {
      expect(spans(text, '2025-01-06'), text).toEqual([]);
    }
  });

  it('does not read manner adverbs as parts of a span', () => {
    expect(spans('I was late last week.', '2024-03-15')).toEqual(['last week: 2024-03-04..2024-03-10 week']);
    expect(spans('I woke up early last Monday.', '2024-03-15')).toEqual(['last Monday: 2024-03-11..2024-03-11 day']);
  });

  it('treats "last <weekday>" as the most recent one, even at week boundaries', () => {
    expect(spans('last Sunday', '2023-07-16')).toEqual(['last Sunday: 2023-07-09..2023-07-09 day']);
    expect(spans('last Sunday', '2023-07-17')).toEqual(['last Sunday: 2023-07-16..2023-07-16 day']);
    expect(spans('last weekend', '2023-07-16')).toEqual(['last weekend: 2023-07-08..2023-07-09 range']);
    expect(spans('last weekend', '2023-07-17')).toEqual(['last weekend: 2023-07-15..2023-07-16 range']);
  });

  it('always yields valid, ordered ISO intervals', () => {
    const expressions = [
      'yesterday', 'last week', 'last month', 'last year', 'last August', 'last summer', 'last winter', 'two weekends ago',
      'a few days ago', 'three weeks ago', 'last Saturday', 'the week before last', 'at the end of last month', 'last Christmas',
    ];
    fc.assert(
      fc.property(fc.integer({ min: dayNumber(1990, 1, 1), max: dayNumber(2040, 12, 31) }), fc.constantFrom(...expressions), (ref, expression) => {
        const reference = isoDate(ref);
        const interval = resolveTimeExpression(expression, reference);
        expect(interval, `${expression} @ ${reference}`).toBeDefined();
        if (interval === undefined) return;
        expect(timeIntervalSchema.safeParse(interval).success).toBe(true);
        expect(interval.end < reference, `${expression} @ ${reference} ends ${interval.end}`).toBe(true);
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it('keeps "next …" expressions after the reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: dayNumber(1990, 1, 1), max: dayNumber(2040, 12, 31) }), fc.constantFrom('tomorrow', 'next week', 'next month', 'next year', 'next Friday', 'next summer', 'next weekend', 'three days from now'), (ref, expression) => {
        const reference = isoDate(ref);
        const interval = resolveTimeExpression(expression, reference);
        expect(interval?.start !== undefined && interval.start > reference, `${expression} @ ${reference}`).toBe(true);
      }),
      { seed: 11, numRuns: 400 },
    );
  });
});

describe('resolveTimeExpression', () => {
  it('grounds LoCoMo-style answers and question phrases', () => {
    expect(resolveTimeExpression('7 May 2023', '2023-10-01')).toEqual({ start: '2023-05-07', end: '2023-05-07', granularity: 'day', text: '7 May 2023' });
    expect(resolveTimeExpression('The week before 9 June 2023', '2023-10-01')).toMatchObject({ start: '2023-05-29', end: '2023-06-04', granularity: 'week' });
    expect(resolveTimeExpression('two weekends before 17 July 2023', '2023-10-01')).toMatchObject({ start: '2023-07-08', end: '2023-07-09' });
    expect(resolveTimeExpression('June 2023', '2023-10-01')).toMatchObject({ start: '2023-06-01', end: '2023-06-30', granularity: 'month' });
  });

  it('reads a bare expression in the past tense unless told otherwise', () => {
    expect(resolveTimeExpression('on Friday', '2024-03-13')?.start).toBe('2024-03-08');
    expect(resolveTimeExpression('on Friday', '2024-03-13', { defaultTense: 'future' })?.start).toBe('2024-03-15');
    expect(resolveTimeExpression('in May', '2024-03-15')?.start).toBe('2023-05-01');
  });

  it('returns undefined when nothing can be grounded', () => {
    expect(resolveTimeExpression('recently', '2024-03-15')).toBeUndefined();
    expect(resolveTimeExpression('the holidays', '2024-03-15')).toBeUndefined();
    expect(resolveTimeExpression('', '2024-03-15')).toBeUndefined();
  });
});

describe('chrono fallback', () => {
  const ref = dayNumber(2024, 5, 10);
  it('adds explicit calendar dates from text no rule claimed, re-choosing a guessed year from the tense', () => {
    const [found] = chronoFallback('Dec 25 - Jan 2', [], ref, () => 'past');
    expect(found && [isoDate(found.resolved?.start ?? 0), isoDate(found.resolved?.end ?? 0), found.resolved?.granularity]).toEqual(['2023-12-25', '2024-01-02', 'range']);
    const [future] = chronoFallback('12 Jan', [], ref, () => 'future');
    expect(calendarDate(future?.resolved?.start ?? 0)).toEqual({ year: 2025, month: 1, day: 12 });
  });

  it('ignores relative, weekday-only and time-only readings and text already claimed', () => {
    expect(chronoFallback('next Friday at 3pm', [], ref, () => 'unknown')).toEqual([]);
    expect(chronoFallback('I may 2 things', [], ref, () => 'unknown')).toEqual([]);
    expect(chronoFallback('on 12 Jan', [{ index: 3, end: 9, resolved: null }], ref, () => 'unknown')).toEqual([]);
  });
});
