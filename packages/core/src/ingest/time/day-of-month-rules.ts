/**
 * Rules for days and weeks inside a month: "on the 7th", "from the 20th to the 24th",
 * "the first Thursday of October", "the last week of April", "the first weekend of June".
 * Conventions are documented in `extract-time-mentions.ts`.
 */
import { calendarDate, dayNumber, isValidDate, monthRange, nthWeekdayOfMonth, type DayRange } from './calendar.js';
import { ORDINAL_WORD, monthSpan, tenseOf } from './calendar-rules.js';
import { MONTH_ANY, WEEKDAY_NAME, YEAR, dayOf, monthOf, weekdayOf } from './lexicon.js';
import { pickOccurrence, span, textBefore, type Resolved, type RuleContext, type TimeRule } from './resolve.js';

/** Cheap preconditions per rule (see {@link TimeRule.hint}). */
const HINTS: Readonly<Record<string, RegExp | readonly string[]>> = {
  'ordinal-day': /\d(?:st|nd|rd|th)\b|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|teenth|twentieth|thirtieth/i,
  'nth-weekday-of-month': /(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:of|in)\b/i,
  'week-of-month': ['week'],
};
const BLOCKERS = new Set<string>();

function rule(name: string, source: string, resolve: TimeRule['resolve']): TimeRule {
  return { name, pattern: new RegExp(source, 'gi'), resolve, hint: HINTS[name], blocksOnly: BLOCKERS.has(name) };
}

/** Words that may follow "on the 7th" when it is a date (not "on the 7th floor"). */
const AFTER_ORDINAL_DAY =
  /^(?:and|at|when|i|we|he|she|they|it|my|our|too|so|but|because|in|for|with|around|was|is|or|then|to|after|before|the|a|last|this|next|until|till|through)$/i;
/** Start of a day range whose second bound is being read: "from the 20th to". */
const DAY_RANGE_START_BEFORE = /\b(?:from|between)\s+the\s+\w+\s+(?:to|and|through|thru|until|till)\s+$/i;
const NTH = '(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)';
/** A month reference after "of": "the month" (generic), "this/next/last month" or "May [2023]". */
const OF_MONTH = `(?:of|in)\\s+(?:(the|each|every|this|next|last)\\s+month|(${MONTH_ANY})(?:,?\\s+(${YEAR}))?)`;

function nthOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (lower === 'last') return -1;
  return { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 }[lower];
}

/** The month a match names: `null` for a generic "of the month", undefined when unreadable. */
function namedMonth(relative: string | undefined, monthWord: string | undefined, yearText: string | undefined, context: RuleContext, match: RegExpExecArray): DayRange | null | undefined {
  if (relative !== undefined) {
    const offset = { this: 0, next: 1, last: -1 }[relative.toLowerCase()];
    if (offset === undefined) return null;
    const { year, month } = calendarDate(context.ref);
    return monthRange(year, month + offset);
  }
  const month = monthOf(monthWord ?? '');
  if (month === undefined) return undefined;
  return monthSpan(month, yearText === undefined ? undefined : Number(yearText), context.ref, tenseOf(context, match));
}

/** Day-of-month and week-of-month rules (longest match wins). */
export const DAY_OF_MONTH_RULES: readonly TimeRule[] = [
  rule(
    'ordinal-day',
    `\\bthe\\s+(\\d{1,2}(?:st|nd|rd|th)|${ORDINAL_WORD})\\b(?:\\s+of\\s+(this|last|next)\\s+month\\b)?`,
    (match, context) => {
      const cueMatch = /\b(on|from|since|until|till|by|before|after|to|and|through|thru)\s+$/i.exec(textBefore(context.text, match.index, 12));
      if (cueMatch === null) return undefined;
      const cue = (cueMatch[1] ?? '').toLowerCase();
      const day = dayOf(match[1] ?? '');
      if (day === undefined) return undefined;
      const before = context.text.slice(Math.max(0, match.index - 40), match.index);
      if (/^(?:to|and|through|thru)$/.test(cue) && !DAY_RANGE_START_BEFORE.test(before)) return undefined;
      const following = /^\s*([a-z]+)/i.exec(context.text.slice(match.index + match[0].length));
      if (match[2] === undefined && following !== null && !AFTER_ORDINAL_DAY.test(following[1] ?? '')) return undefined;
      const { year, month } = calendarDate(context.ref);
      const build = (offset: number): DayRange | undefined => {
        const { year: y, month: m } = calendarDate(monthRange(year, month + offset).start);
        return isValidDate(y, m, day) ? { start: dayNumber(y, m, day), end: dayNumber(y, m, day) } : undefined;
      };
      const relative = match[2]?.toLowerCase();
      const range =
        relative !== undefined
          ? build({ this: 0, last: -1, next: 1 }[relative as 'this' | 'last' | 'next'])
          : pickOccurrence([-2, -1, 0, 1, 2].map(build).filter((r): r is DayRange => r !== undefined), context.ref, tenseOf(context, match));
      return range === undefined ? undefined : span(range, 'day');
    },
  ),

  rule('nth-weekday-of-month', `\\bthe\\s+${NTH}\\s+(${WEEKDAY_NAME})\\s+${OF_MONTH}`, (match, context) => {
    const nth = nthOf(match[1] ?? '');
    const weekday = weekdayOf(match[2] ?? '');
    if (nth === undefined || weekday === undefined) return undefined;
    const month = namedMonth(match[3], match[4], match[5], context, match);
    if (month === null) return null;
    if (month === undefined) return undefined;
    const { year, month: monthNumber } = calendarDate(month.start);
    const day = nthWeekdayOfMonth(year, monthNumber, weekday, nth);
    return day < month.start || day > month.end ? undefined : span({ start: day, end: day }, 'day');
  }),

  rule('week-of-month', `\\b(?:the\\s+)?${NTH}\\s+(week|weekend)\\s+${OF_MONTH}`, (match, context) => {
    const nth = nthOf(match[1] ?? '');
    if (nth === undefined || nth > 4) return undefined;
    const month = namedMonth(match[3], match[4], match[5], context, match);
    if (month === null) return null;
    if (month === undefined) return undefined;
    let resolved: Resolved;
    if ((match[2] ?? '').toLowerCase() === 'weekend') {
      const { year, month: monthNumber } = calendarDate(month.start);
      const saturday = nthWeekdayOfMonth(year, monthNumber, 6, nth);
      resolved = { start: saturday, end: saturday + 1, granularity: 'range' };
    } else {
      resolved = nth < 0 ? { start: month.end - 6, end: month.end, granularity: 'range' } : { start: month.start + 7 * (nth - 1), end: month.start + 7 * nth - 1, granularity: 'range' };
    }
    return resolved;
  }),
];

