/**
 * Rules for calendar expressions: explicit dates ("8 May, 2023", "the 7th of May", "5/8/2023"),
 * months ("in May", "last August", "May 2023"), years ("in 2022", "2019–2021"), decades,
 * seasons ("summer 2022", "last summer") and named days ("Christmas", "Mother's Day").
 * Conventions are documented in `extract-time-mentions.ts`.
 */
import { calendarDate, dayNumber, isValidDate, monthRange, yearRange, type DayRange } from './calendar.js';
import { HOLIDAY_NAMES, holidayOf } from './holidays.js';
import { DAY_OF_MONTH, MONTH_ANY, MONTH_NAME, SEASON, WEEKDAY_ANY, YEAR, dayOf, monthOf, seasonStartMonth } from './lexicon.js';
import {
  daySpan,
  narrowToPart,
  partOf,
  pickFromTense,
  pickOccurrence,
  span,
  textBefore,
  yearlyCandidates,
  type Pick,
  type Resolved,
  type RuleContext,
  type TimeRule,
} from './resolve.js';

const MONTH_HINT = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SEASON_HINT = ['spring', 'summer', 'autumn', 'fall', 'winter'];
const YEAR_HINT = /(?:19|20)\d\d/;

/** Cheap preconditions per rule (see {@link TimeRule.hint}). */
const HINTS: Readonly<Record<string, RegExp | readonly string[]>> = {
  'iso-date': /\d[-/.]\d/,
  'slash-date': /\d\/\d/,
  'dotted-date': /\d\.\d/,
  'on-month-slash-day': /\d\/\d/,
  'month-day': MONTH_HINT,
  'day-month': MONTH_HINT,
  'month-year': MONTH_HINT,
  'month-of-relative-year': MONTH_HINT,
  'month-modifier': MONTH_HINT,
  'month-after-cue': MONTH_HINT,
  year: YEAR_HINT,
  'year-range': YEAR_HINT,
  decade: /0['’]?s\b|ties\b/i,
  'season-year': SEASON_HINT,
  'season-modifier': SEASON_HINT,
  'season-after-cue': SEASON_HINT,
  holiday: [
    'christmas', 'xmas', 'boxing', 'new year', 'valentine', 'patrick', 'fools', 'earth day', 'cinco', 'juneteenth', 'independence',
    'halloween', 'veteran', 'thanksgiving', 'friday', 'cyber', 'easter', 'palm', 'ash wed', 'mother', 'father', 'memorial', 'labo',
  ],
};
const BLOCKERS = new Set<string>();

function rule(name: string, source: string, resolve: TimeRule['resolve']): TimeRule {
  return { name, pattern: new RegExp(source, 'gi'), resolve, hint: HINTS[name], blocksOnly: BLOCKERS.has(name) };
}

/** Ordinal words first … thirty-first. */
export const ORDINAL_WORD =
  '(?:twenty[-\\s]?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|thirty[-\\s]?first|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)';
const SHORT_YEAR = "'\\d{2}";

/** A four-digit year, or `'23` read in the reference's century. */
function yearOf(text: string | undefined, ref: number): number | undefined {
  if (text === undefined) return undefined;
  if (text.startsWith("'")) return Math.floor(calendarDate(ref).year / 100) * 100 + Number(text.slice(1));
  return Number(text);
}

/** Occurrence choice from the tense around a match. */
export function tenseOf(context: RuleContext, match: RegExpExecArray): Pick {
  return pickFromTense(context.tense(match.index, match.index + match[0].length));
}

/** A day (or day span) of a month, in the given year or in the year the tense points to. */
function monthDays(month: number, firstDay: number, lastDay: number, year: number | undefined, context: RuleContext, match: RegExpExecArray): Resolved | undefined {
  if (lastDay < firstDay) return undefined;
  const build = (y: number): DayRange | undefined =>
    isValidDate(y, month, firstDay) && isValidDate(y, month, lastDay) ? { start: dayNumber(y, month, firstDay), end: dayNumber(y, month, lastDay) } : undefined;
  const range = year !== undefined ? build(year) : pickOccurrence(yearlyCandidates(context.ref, build), context.ref, tenseOf(context, match));
  if (range === undefined) return undefined;
  return span(range, firstDay === lastDay ? 'day' : 'range');
}

/** The month (in the year given, or picked by `pick`). */
export function monthSpan(month: number, year: number | undefined, ref: number, pick: Pick): Resolved | undefined {
  const range = year !== undefined ? monthRange(year, month) : pickOccurrence(yearlyCandidates(ref, (y) => monthRange(y, month)), ref, pick);
  return range === undefined ? undefined : span(range, 'month');
}

/** Meteorological season starting in `year` (winter Y = Dec Y – Feb Y+1). */
function seasonRange(startMonth: number, year: number): DayRange {
  return { start: dayNumber(year, startMonth, 1), end: dayNumber(year, startMonth + 3, 0) };
}

/** Words that may stand before a bare month name. Names that are also first names need a stronger cue. */
const MONTH_CUE = '(?:in|for|since|until|till|through|throughout|during|around|from|by|before|after|back\\s+in|early|late|mid|(?:beginning|start|middle|end)\\s+of)';
const MONTH_CUE_BEFORE = new RegExp(`\\b(${MONTH_CUE}|to|and)[\\s-]+$`, 'i');
const NAME_LIKE_MONTHS = new Set(['april', 'may', 'june', 'august']);
const WEAK_CUES = new Set(['by', 'before', 'after', 'around', 'from', 'for']);
/** "booked a trip for May": the month is ahead whatever the tense of the verb. */
const FOR_BEFORE = /\bfor\s+(?:(?:early|mid|late)[\s-]+|(?:the\s+)?(?:beginning|start|middle|end)\s+of\s+)?$/i;

/** "from May to", "between June and": the start of a month range, before its second month. */
const RANGE_START_BEFORE = new RegExp(`\\b(?:from|between)\\s+(?:(?:early|mid|late)[\\s-]+)?${MONTH_ANY}(?:\\s+\\d{4})?\\s+(?:to|and)\\s+$`, 'i');

function rejectsLowercaseModal(word: string): boolean {
  return word === 'may' || word === 'march';
}

const SEASON_CUE_BEFORE =
  /\b(in|during|over|through|throughout|since|until|till|around|for|from|before|after|early|late|mid|(?:beginning|start|middle|end)\s+of)[\s-]+$/i;

/** Nouns after which a holiday name is an attribute, not a date ("Easter eggs", "Christmas tree"). */
const HOLIDAY_THINGS =
  '(?:eggs?|bunny|bunnies|baskets?|trees?|cards?|lights|music|songs?|carols?|movies?|films?|sweaters?|jumpers?|decorations?|costumes?|candy|spirit|specials?|episodes?|albums?|markets?|shopping|sales?|deals?)\\b';

/** Words before a holiday name that make it a date ("for Christmas", "spent Easter"). */
const HOLIDAY_CUE = /\b(?:on|at|for|over|during|around|before|after|since|until|till|by|from|through|of|near|til|spent|spend|spending|celebrated|celebrate|celebrating)\s+$/i;

/** Calendar rules, in no particular order (longest match wins). */
export const CALENDAR_RULES: readonly TimeRule[] = [
  rule('iso-date', '\\b(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})(?!\\d)', (match) => {
    const [y, m, d] = [Number(match[1]), Number(match[3]), Number(match[4])];
    return isValidDate(y, m, d) ? daySpan(dayNumber(y, m, d)) : undefined;
  }),

  rule('slash-date', '\\b(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})\\b(?!/)', (match, { ref }) => {
    let [m, d] = [Number(match[1]), Number(match[2])];
    if (m > 12 && d <= 12) [m, d] = [d, m];
    const y = (match[3] ?? '').length === 2 ? Math.floor(calendarDate(ref).year / 100) * 100 + Number(match[3]) : Number(match[3]);
    return isValidDate(y, m, d) ? daySpan(dayNumber(y, m, d)) : undefined;
  }),

  rule('dotted-date', '\\b(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})\\b', (match) => {
    const [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
    return isValidDate(y, m, d) ? daySpan(dayNumber(y, m, d)) : undefined;
  }),

  rule('on-month-slash-day', '\\b(\\d{1,2})/(\\d{1,2})\\b(?![/\\d])', (match, context) => {
    if (!/\bon\s+$/i.test(textBefore(context.text, match.index, 8))) return undefined;
    const [m, d] = [Number(match[1]), Number(match[2])];
    return m >= 1 && m <= 12 ? monthDays(m, d, d, undefined, context, match) : undefined;
  }),

  rule(
    'month-day',
    `\\b(?:${WEEKDAY_ANY},?\\s+)?(?:(${YEAR}),?\\s+)?(${MONTH_ANY})\\s+(?:the\\s+)?(${DAY_OF_MONTH}|${ORDINAL_WORD})\\b(?:\\s*(?:-|–|to|through|thru|until|till)\\s*(?:the\\s+)?(${DAY_OF_MONTH})\\b(?!\\s*${MONTH_ANY}))?(?:,?\\s+(${YEAR}|${SHORT_YEAR})\\b)?(?![:.]\\d)`,
    (match, context) => {
      const monthWord = match[2] ?? '';
      if (rejectsLowercaseModal(monthWord) && match[5] === undefined && match[1] === undefined) {
        // "you may 2x it", "we march 5 miles": lower-case verbs unless a cue makes them months.
        if (!/\b(?:on|in|by|of|since|until|till|before|after|from|the|early|late|mid)\s+$/i.test(context.text.slice(Math.max(0, match.index - 8), match.index))) return undefined;
      }
      const month = monthOf(monthWord);
      const first = dayOf(match[3] ?? '');
      if (month === undefined || first === undefined) return undefined;
      const last = match[4] === undefined ? first : dayOf(match[4]);
      const year = yearOf(match[5] ?? match[1], context.ref);
      return last === undefined ? undefined : monthDays(month, first, last, year, context, match);
    },
  ),

  rule(
    'day-month',
    `\\b(?:${WEEKDAY_ANY},?\\s+)?(?:the\\s+)?(${DAY_OF_MONTH}|${ORDINAL_WORD})(?:\\s*(?:-|–|to|and|&)\\s*(?:the\\s+)?(${DAY_OF_MONTH}|${ORDINAL_WORD}))?(?:\\s+|(?<=\\d))(of\\s+)?(${MONTH_ANY})(?:,?\\s+(${YEAR}|${SHORT_YEAR}))?\\b`,
    (match, context) => {
      const monthWord = match[4] ?? '';
      if (monthWord === 'may' && match[3] === undefined && match[5] === undefined) return undefined;
      const month = monthOf(monthWord);
      const first = dayOf(match[1] ?? '');
      if (month === undefined || first === undefined) return undefined;
      const last = match[2] === undefined ? first : dayOf(match[2]);
      return last === undefined ? undefined : monthDays(month, first, last, yearOf(match[5], context.ref), context, match);
    },
  ),

  rule('month-year', `\\b(${MONTH_ANY})(?:\\s+of)?,?\\s+(${YEAR}|${SHORT_YEAR})\\b(?![.,:]\\d)`, (match, { ref }) => {
    const month = monthOf(match[1] ?? '');
    return month === undefined ? undefined : monthSpan(month, yearOf(match[2], ref), ref, 'closest');
  }),

  rule('month-of-relative-year', `\\b(${MONTH_NAME})\\s+(?:of\\s+)?(last|this|next)\\s+year\\b`, (match, { ref }) => {
    const month = monthOf(match[1] ?? '');
    const offset = { last: -1, this: 0, next: 1 }[(match[2] ?? 'this').toLowerCase() as 'last' | 'this' | 'next'];
    return month === undefined ? undefined : monthSpan(month, calendarDate(ref).year + offset, ref, 'closest');
  }),

  rule('month-modifier', `\\b(last|next|this|coming|past|this\\s+past|this\\s+coming)\\s+(${MONTH_NAME})\\b`, (match, { ref }) => {
    const word = match[2] ?? '';
    if (rejectsLowercaseModal(word)) return undefined;
    const month = monthOf(word);
    if (month === undefined) return undefined;
    const modifier = (match[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    if (modifier === 'this') return monthSpan(month, calendarDate(ref).year, ref, 'closest');
    const pick: Pick = modifier === 'next' || modifier === 'coming' || modifier === 'this coming' ? 'next' : 'last';
    return monthSpan(month, undefined, ref, pick);
  }),

  rule('month-after-cue', `\\b(${MONTH_NAME}|(?:jan|feb|apr|aug|sept|oct|nov|dec)\\b\\.?)(?!\\w|\\s*\\d)`, (match, context) => {
    const cueMatch = MONTH_CUE_BEFORE.exec(textBefore(context.text, match.index));
    if (cueMatch === null) return undefined;
    const cue = (cueMatch[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    if ((cue === 'to' || cue === 'and') && !RANGE_START_BEFORE.test(context.text.slice(Math.max(0, match.index - 40), match.index))) return undefined;
    const word = match[1] ?? '';
    const lower = word.toLowerCase();
    if (word === 'may' && !/^(?:in|since|until|till|during|early|late|mid)$/.test(cue)) return undefined;
    if (NAME_LIKE_MONTHS.has(lower) && WEAK_CUES.has(cue)) {
      const rest = context.text.slice(match.index + match[0].length);
      if (!(cue === 'from' && new RegExp(`^\\s*(?:to|until|till|through|-|–)\\s*${MONTH_NAME}`, 'i').test(rest))) return undefined;
    }
    const month = monthOf(word);
    if (month === undefined) return undefined;
    if (context.habitual(match.index, match.index + match[0].length)) return null;
    const forward = FOR_BEFORE.test(context.text.slice(Math.max(0, match.index - 24), match.index));
    return monthSpan(month, undefined, context.ref, forward ? 'future' : tenseOf(context, match));
  }),

  rule('year', `(?<![\\w$£€#.,/:'-])(${YEAR})(?![\\w%]|[.,:/-]\\d)`, (match, context) => {
    const year = Number(match[1]);
    const before = context.text.slice(Math.max(0, match.index - 24), match.index);
    const cued = /\b(?:in|since|until|till|through|throughout|during|around|from|by|before|after|of|back\s+in|early|late|mid|circa|to|and|between|year)[\s-]+$/i.test(before);
    const after = context.text.slice(match.index + match[0].length, match.index + match[0].length + 16);
    if (/^\s*(?:dollars|bucks|euros|pounds|usd|eur|people|miles|km|kilometers|meters|metres|feet|ft|calories|kcal|words|steps|points|pts|followers|views|likes|subscribers|times|units|items|pieces|pages|copies|hours|minutes|mins|seconds|kg|lbs|grams|mg|ml|liters|litres|sq|square|cc|hp|rpm|k|x)\b/i.test(after)) {
      return undefined;
    }
    const weakCue = /\b(?:to|and)\s+$/i.test(before);
    if ((!cued || weakCue) && (year < 1950 || year > calendarDate(context.ref).year + 10)) return undefined;
    return span(yearRange(year), 'year');
  }),

  rule('year-range', `\\b(${YEAR})\\s*(?:-|–|to)\\s*(${YEAR}|\\d{2})\\b(?![-/]\\d)`, (match) => {
    const first = Number(match[1]);
    const secondText = match[2] ?? '';
    const second = secondText.length === 2 ? Math.floor(first / 100) * 100 + Number(secondText) : Number(secondText);
    return second > first ? { start: yearRange(first).start, end: yearRange(second).end, granularity: 'range' } : undefined;
  }),

  rule(
    'decade',
    "\\bthe\\s+(?:(early|mid|late)[\\s-]+)?(?:((?:19|20)\\d0)['’]?s|['’]?(\\d0)['’]?s|(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties))\\b",
    (match, { ref }) => {
      const names = ['twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];
      let start: number;
      // "the 1900s" is the century in everyday speech, not its first decade.
      if (match[2] !== undefined && match[2].endsWith('00')) return { start: yearRange(Number(match[2])).start, end: yearRange(Number(match[2]) + 99).end, granularity: 'range' };
      if (match[2] !== undefined) start = Number(match[2]);
      else {
        const tens = match[3] !== undefined ? Number(match[3]) : (names.indexOf((match[4] ?? '').toLowerCase()) + 2) * 10;
        start = 2000 + tens <= calendarDate(ref).year ? 2000 + tens : 1900 + tens;
      }
      const decade: Resolved = { start: yearRange(start).start, end: yearRange(start + 9).end, granularity: 'range' };
      const part = match[1] === undefined ? undefined : partOf(match[1]);
      return part === undefined ? decade : narrowToPart(decade, part);
    },
  ),

  rule('season-year', `\\b(?:the\\s+)?(${SEASON})\\s+(?:of\\s+)?(${YEAR}|${SHORT_YEAR})\\b`, (match, { ref }) => {
    const startMonth = seasonStartMonth(match[1] ?? '');
    const year = yearOf(match[2], ref);
    return startMonth === undefined || year === undefined ? undefined : span(seasonRange(startMonth, year), 'season');
  }),

  rule('season-modifier', `\\b(last|next|this|coming|past|this\\s+past|this\\s+coming)\\s+(${SEASON})\\b`, (match, context) => {
    const { ref } = context;
    const startMonth = seasonStartMonth(match[2] ?? '');
    if (startMonth === undefined) return undefined;
    const candidates = yearlyCandidates(ref, (y) => seasonRange(startMonth, y));
    const modifier = (match[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    let range: DayRange | undefined;
    if (modifier === 'this') {
      range = candidates.find((c) => c.start <= ref && ref <= c.end) ?? pickOccurrence(candidates, ref, tenseOf(context, match));
    } else {
      range = pickOccurrence(candidates, ref, modifier === 'next' || modifier === 'coming' || modifier === 'this coming' ? 'next' : 'last');
    }
    return range === undefined ? undefined : span(range, 'season');
  }),

  rule(
    'season-after-cue',
    `\\b(the\\s+)?(${SEASON})\\b(?!\\s+(?:of\\s+)?(?:\\d|'\\d)|\\s+(?:camp|school|job|jobs|internship|program|class|classes|course|house|home|dress|clothes|reading|league|olympics|games|squash|tires|collection|menu|sale|of\\s+(?:my|our|his|her|their|life)))`,
    (match, context) => {
      const cueMatch = SEASON_CUE_BEFORE.exec(textBefore(context.text, match.index));
      if (cueMatch === null) return undefined;
      const cue = (cueMatch[1] ?? '').toLowerCase();
      const hasThe = match[1] !== undefined;
      const startMonth = seasonStartMonth(match[2] ?? '');
      if (startMonth === undefined || (cue === 'for' && !hasThe)) return undefined;
      const end = match.index + match[0].length;
      // "In winter, the park gets snow": a bare season in a generic present-tense clause.
      if (context.habitual(match.index, end)) return null;
      const tense = context.tense(match.index, end);
      if (!hasThe && tense === 'unknown' && !/^(?:since|until|till|early|late|mid)$/.test(cue)) return null;
      const candidates = yearlyCandidates(context.ref, (y) => seasonRange(startMonth, y));
      const range = pickOccurrence(candidates, context.ref, pickFromTense(tense));
      return range === undefined ? undefined : span(range, 'season');
    },
  ),

  rule('holiday', `\\b(?:(last|this|next|past)\\s+)?(${HOLIDAY_NAMES})(?:,?\\s+(${YEAR}))?(?![\\w'’])(?!\\s+${HOLIDAY_THINGS})`, (match, context) => {
    const holiday = holidayOf(match[2] ?? '');
    if (holiday === undefined) return undefined;
    const modifier = match[1]?.toLowerCase();
    const year = match[3] === undefined ? undefined : Number(match[3]);
    if (!holiday.evident && modifier === undefined && year === undefined) {
      const before = context.text.slice(Math.max(0, match.index - 12), match.index);
      if (!HOLIDAY_CUE.test(before)) return undefined;
    }
    if (year !== undefined) return daySpan(holiday.date(year));
    if (modifier === undefined && context.habitual(match.index, match.index + match[0].length)) return null;
    const candidates = yearlyCandidates(context.ref, (y) => ({ start: holiday.date(y), end: holiday.date(y) }));
    let range: DayRange | undefined;
    if (modifier === 'this') {
      const thisYear = calendarDate(context.ref).year;
      range = candidates.find((c) => calendarDate(c.start).year === thisYear);
    } else {
      const pick: Pick = modifier === 'last' || modifier === 'past' ? 'last' : modifier === 'next' ? 'next' : tenseOf(context, match);
      range = pickOccurrence(candidates, context.ref, pick);
    }
    return range === undefined ? undefined : span(range, 'day');
  }),
];
