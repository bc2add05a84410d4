/**
 * Rules for deictic and relative expressions: "yesterday", "two weekends ago", "last week",
 * "the past three months", "next Friday", "over the weekend", "earlier this year", and the vague
 * or anaphoric phrases that must not produce an interval ("recently", "the next day"; an anaphor with
 * an antecedent is grounded afterwards, in `anaphora.ts`).
 * Conventions are documented in `extract-time-mentions.ts`.
 */
import { isoWeekday } from './calendar.js';
import { MONTH_NAME, QUANTITY, SEASON, WEEKDAY_NAME, quantity, unitOf, weekdayOf, type Unit } from './lexicon.js';
import {
  daySpan,
  relativeUnits,
  shiftDay,
  span,
  textBefore,
  unitGranularity,
  unitRange,
  weekdayNear,
  weekendRange,
  type Resolved,
  type RuleContext,
  type TimeRule,
} from './resolve.js';

const UNIT = '(days?|weeks?|weekends?|months?|years?|fortnights?)';
/** Weekday abbreviations, accepted only after last / next / this ("last Fri"). */
const WEEKDAY_ABBREVIATION = '(?:mon|tues?|wed|thurs?|thu|fri|sat|sun)\\.?';
const TIME_OF_DAY = '(?:\\s+(?:morning|afternoon|evening|night))?';

const UNIT_HINT = ['day', 'week', 'month', 'year', 'fortnight'];
const WEEKDAY_HINT = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Cheap preconditions per rule (see {@link TimeRule.hint}). */
const HINTS: Readonly<Record<string, RegExp | readonly string[]>> = {
  'deictic-day': ['yesterday', 'tomorrow', 'today', 'night', 'morning', 'afternoon', 'evening'],
  ago: ['ago', 'back'],
  'day-or-two-ago': /or\s+two/i,
  'in-n-units': UNIT_HINT,
  'from-now': /from\s+(?:now|today)/i,
  'past-n-units': UNIT_HINT,
  'unit-modifier': ['week', 'month', 'year'],
  'this-past-coming': /this\s+(?:past|coming)/i,
  'before-last': /before\s+last|after\s+next/i,
  'weekday-before-last': /before\s+last/i,
  'the-weekend': ['weekend'],
  'weekday-modifier': ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  'weekdays-ago': /days\s+ago/i,
  weekday: WEEKDAY_HINT,
  'weekday-list': WEEKDAY_HINT,
  'earlier-later-this': /earlier|later|so\s+far/i,
  'current-unit-part': ['beginning', 'start', 'middle', 'end'],
  'and-a-half': ['half'],
};
const BLOCKERS = new Set(['vague', 'weekday-list']);

/** A count written out in "a year and a half", "two and a half years". */
const HALF_COUNT = '(?:\\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)';

function rule(name: string, source: string, resolve: TimeRule['resolve']): TimeRule {
  return { name, pattern: new RegExp(source, 'gi'), resolve, hint: HINTS[name], blocksOnly: BLOCKERS.has(name) };
}

function unitWord(word: string | undefined): Unit | undefined {
  return word === undefined ? undefined : unitOf(word)?.unit;
}

/** Quantity × unit factor (a fortnight is two weeks). */
function scaledQuantity(amount: string | undefined, unit: string | undefined): { unit: Unit; low: number; high: number } | undefined {
  const count = amount === undefined ? undefined : quantity(amount);
  const parsed = unit === undefined ? undefined : unitOf(unit);
  if (count === undefined || parsed === undefined) return undefined;
  return { unit: parsed.unit, low: count.low * parsed.factor, high: count.high * parsed.factor };
}

/** Words after which "last" is a verb ("batteries typically last 3 days"). */
const LAST_AS_VERB_BEFORE =
  /\b(?:will|would|can|could|should|may|might|must|to|typically|usually|generally|often|only|also|easily|it|they|that|which|these|those|does|do|did|won't|can't)\s+$/i;

/** Up to 40 characters before `index`, cut at the start of the sentence. */
function clauseBefore(text: string, index: number): string {
  const window = text.slice(Math.max(0, index - 40), index);
  const boundary = Math.max(window.lastIndexOf('.'), window.lastIndexOf('!'), window.lastIndexOf('?'), window.lastIndexOf('\n'));
  return window.slice(boundary + 1);
}

/** The most recent weekend that has started (Sat ≤ ref). */
function recentWeekend(ref: number): Resolved {
  return span(weekendRange(ref, isoWeekday(ref) >= 6 ? 0 : -1), 'range');
}

/** The coming weekend, or the current one when ref is a Saturday or Sunday. */
function comingWeekend(ref: number): Resolved {
  return span(weekendRange(ref, 0), 'range');
}

/** `[ref − 1 unit, ref]`: "the past week" and friends. */
function pastSpan(unit: Unit, ref: number, count: number): Resolved {
  return { start: shiftDay(unit, ref, count, -1), end: ref, granularity: 'range' };
}

function nextSpan(unit: Unit, ref: number, count: number): Resolved {
  return { start: ref, end: shiftDay(unit, ref, count, 1), granularity: 'range' };
}

function weekdayWithTense(weekday: number, context: RuleContext, match: RegExpExecArray): Resolved {
  const tense = context.tense(match.index, match.index + match[0].length);
  return daySpan(weekdayNear(context.ref, weekday, tense === 'past' ? 'before' : 'after'));
}

const VAGUE =
  'recently|lately|soon|someday|sometime|nowadays|currently|these\\s+days|one\\s+of\\s+these\\s+days|some\\s+day|' +
  'the\\s+other\\s+(?:day|night|week)|a\\s+while\\s+(?:ago|back)|(?:ages|long|years|months|weeks|days)\\s+ago|back\\s+in\\s+the\\s+day|' +
  'the\\s+(?:day|night|morning|afternoon|evening|week|weekend|month|year)\\s+(?:before|after)|' +
  'the\\s+(?:next|following|previous|same)\\s+(?:day|night|morning|afternoon|evening|week|weekend|month|year)|' +
  `(?:${QUANTITY})\\s+(?:days?|weeks?|weekends?|months?|years?)\\s+(?:later|earlier|before|after)|` +
  `that\\s+(?:day|night|morning|afternoon|evening|week|weekend|month|year|${SEASON.slice(3, -1)})|` +
  `(?:every|each|most|all|some|many|other|a|one)\\s+(?:other\\s+)?(?:${WEEKDAY_NAME.slice(3, -1)}|weekend|spring|summer|autumn|fall|winter|${MONTH_NAME.slice(3, -1)})|` +
  'all\\s+(?:day|night|week|weekend|month|year)(?:\\s+long)?|every\\s+(?:day|night|morning|evening|week|month|year)|' +
  'day\\s+(?:by|to|after)\\s+day|(?:a|one)\\s+day|' +
  `${WEEKDAY_NAME}\\s+(?:school|best|roast|papers?|services?|mass|league|funday|blues|drivers?|times)|` +
  `(?:taco|throwback|casual|fun|flashback|motivation|man\\s+crush|woman\\s+crush|wellness|self-care|caturday)\\s+${WEEKDAY_NAME}`;

/** Relative and deictic rules, in no particular order (longest match wins). */
export const RELATIVE_RULES: readonly TimeRule[] = [
  rule('vague', `\\b(?:${VAGUE})\\b`, () => null),

  rule(
    'deictic-day',
    `\\b(?:(?:the\\s+)?day\\s+before\\s+yesterday|(?:the\\s+)?day\\s+after\\s+tomorrow|the\\s+night\\s+before\\s+last|yesterday${TIME_OF_DAY}|tomorrow${TIME_OF_DAY}|last\\s+night|today|tonight|this\\s+(?:morning|afternoon|evening)|(?:earlier|later)\\s+today)\\b`,
    (match, { ref }) => {
      const words = match[0].toLowerCase();
      if (/before\s+yesterday|before\s+last/.test(words)) return daySpan(ref - 2);
      if (/after\s+tomorrow/.test(words)) return daySpan(ref + 2);
      if (words.startsWith('yesterday') || words.startsWith('last')) return daySpan(ref - 1);
      if (words.startsWith('tomorrow')) return daySpan(ref + 1);
      return daySpan(ref);
    },
  ),

  rule('ago', `\\b(${QUANTITY})\\s+${UNIT}\\s+(?:ago|back)\\b`, (match, { ref }) => {
    const amount = scaledQuantity(match[1], match[2]);
    return amount === undefined ? undefined : relativeUnits(amount.unit, ref, amount, -1);
  }),

  rule('day-or-two-ago', '\\b(?:a|one)\\s+(day|week|month|year)\\s+or\\s+two\\s+(?:ago|back)\\b', (match, { ref }) => {
    const unit = unitWord(match[1]);
    return unit === undefined ? undefined : relativeUnits(unit, ref, { low: 1, high: 2 }, -1);
  }),

  rule(
    'in-n-units',
    `\\bin\\s+(?:(?:about|around|roughly|like|another|just|only)\\s+)?(${QUANTITY})\\s+${UNIT}\\b(?:\\s+or\\s+(two|three|so)\\b)?(?!['’]?\\s+(?:ago|back|old|later|earlier|before|after|of)\\b)`,
    (match, context) => {
      if (context.tense(match.index, match.index + match[0].length) === 'past') return null;
      // "1,200 miles in 4 days", "10 videos in a few weeks": a rate, not a date.
      if (/\d/.test(clauseBefore(context.text, match.index))) return null;
      // "Rome wasn't built in a day": a duration, not a date.
      if (/^(?:a|one)$/i.test(match[1] ?? '') && /^days?$/i.test(match[2] ?? '') && match[3] === undefined) return null;
      const amount = scaledQuantity(match[1], match[2]);
      if (amount === undefined) return undefined;
      const upTo = match[3] === undefined || match[3].toLowerCase() === 'so' ? undefined : quantity(match[3]);
      if (upTo !== undefined) amount.high = Math.max(amount.high, upTo.high * (unitOf(match[2] ?? '')?.factor ?? 1));
      return relativeUnits(amount.unit, context.ref, amount, 1);
    },
  ),

  rule('from-now', `\\b(${QUANTITY})\\s+${UNIT}\\s+from\\s+(?:now|today)\\b`, (match, { ref }) => {
    const amount = scaledQuantity(match[1], match[2]);
    return amount === undefined ? undefined : relativeUnits(amount.unit, ref, amount, 1);
  }),

  rule('past-n-units', `\\b(the\\s+)?(past|last|previous|prior|next|coming)\\s+(${QUANTITY})\\s+${UNIT}\\b(\\s+(?:of|before|after)\\b)?`, (match, { ref, text }) => {
    if (match[5] !== undefined) return null;
    // "tomatoes last 3-5 days": "last" as a verb.
    if (match[1] === undefined && LAST_AS_VERB_BEFORE.test(text.slice(Math.max(0, match.index - 16), match.index))) return undefined;
    const amount = scaledQuantity(match[3], match[4]);
    if (amount === undefined) return undefined;
    const forward = /^(?:next|coming)$/i.test(match[2] ?? '');
    return forward ? nextSpan(amount.unit, ref, amount.high) : pastSpan(amount.unit, ref, amount.high);
  }),

  rule(
    'unit-modifier',
    '\\b(?:(the)\\s+)?(last|past|previous|prior|this|next|coming|following)\\s+(week|month|year|weekend)\\b(\\s+of\\b)?',
    (match, context) => {
      const { ref } = context;
      const hasThe = match[1] !== undefined;
      const modifier = (match[2] ?? '').toLowerCase();
      const unit = unitWord(match[3]);
      if (unit === undefined) return undefined;
      if (hasThe && match[4] !== undefined) return null;
      if (modifier === 'following' || (hasThe && (modifier === 'previous' || modifier === 'prior' || modifier === 'next'))) return null;
      if (unit === 'weekend') {
        if (modifier === 'this') return undefined;
        if (hasThe) return modifier === 'coming' ? comingWeekend(ref) : recentWeekend(ref);
        if (modifier === 'coming') return comingWeekend(ref);
        return span(weekendRange(ref, modifier === 'next' ? 1 : -1), 'range');
      }
      if (modifier === 'past' || (hasThe && modifier === 'last')) return pastSpan(unit, ref, 1);
      if (hasThe && modifier === 'coming') return nextSpan(unit, ref, 1);
      const offset = modifier === 'this' ? 0 : modifier === 'next' || modifier === 'coming' ? 1 : -1;
      return span(unitRange(unit, ref, offset), unitGranularity(unit));
    },
  ),

  rule('this-past-coming', `\\bthis\\s+(past|coming)\\s+(week|month|year|weekend|${WEEKDAY_NAME})\\b`, (match, { ref }) => {
    const past = (match[1] ?? '').toLowerCase() === 'past';
    const word = match[2] ?? '';
    const weekday = weekdayOf(word);
    if (weekday !== undefined) return daySpan(weekdayNear(ref, weekday, past ? 'before' : 'after'));
    const unit = unitWord(word);
    if (unit === undefined) return undefined;
    if (unit === 'weekend') return past ? recentWeekend(ref) : comingWeekend(ref);
    return past ? pastSpan(unit, ref, 1) : span(unitRange(unit, ref, 1), unitGranularity(unit));
  }),

  rule('before-last', '\\bthe\\s+(week|month|year|weekend)\\s+(before\\s+last|after\\s+next)\\b', (match, { ref }) => {
    const unit = unitWord(match[1]);
    if (unit === undefined) return undefined;
    const offset = /before/i.test(match[2] ?? '') ? -2 : 2;
    return span(unitRange(unit, ref, offset), unitGranularity(unit));
  }),

  rule('weekday-before-last', `\\b(?:the\\s+)?(${WEEKDAY_NAME})\\s+before\\s+last\\b`, (match, { ref }) => {
    const weekday = weekdayOf(match[1] ?? '');
    return weekday === undefined ? undefined : daySpan(weekdayNear(ref, weekday, 'before') - 7);
  }),

  rule('the-weekend', '\\b(?:the|this)\\s+(?:whole\\s+|entire\\s+)?weekend\\b', (match, context) => {
    const end = match.index + match[0].length;
    if (context.habitual(match.index, end)) return null;
    const tense = context.tense(match.index, end);
    // "Anything fun over the weekend?" asks about the one just gone.
    const over = tense === 'unknown' && /\bover\s+$/i.test(context.text.slice(Math.max(0, match.index - 8), match.index));
    return tense === 'past' || over ? recentWeekend(context.ref) : comingWeekend(context.ref);
  }),

  rule('weekday-modifier', `\\b(last|past|next|coming|this)\\s+(${WEEKDAY_NAME}|${WEEKDAY_ABBREVIATION})${TIME_OF_DAY}\\b`, (match, context) => {
    const weekday = weekdayOf(match[2] ?? '');
    if (weekday === undefined) return undefined;
    const modifier = (match[1] ?? '').toLowerCase();
    if (modifier === 'last' || modifier === 'past') return daySpan(weekdayNear(context.ref, weekday, 'before'));
    if (modifier === 'next' || modifier === 'coming') return daySpan(weekdayNear(context.ref, weekday, 'after'));
    const tense = context.tense(match.index, match.index + match[0].length);
    return daySpan(weekdayNear(context.ref, weekday, tense === 'past' ? 'this-before' : 'this-after'));
  }),

  rule('weekdays-ago', `\\b(${QUANTITY})\\s+(${WEEKDAY_NAME.slice(3, -1).replace(/\|/g, 's|')}s)\\s+ago\\b`, (match, { ref }) => {
    const count = quantity(match[1] ?? '');
    const weekday = weekdayOf((match[2] ?? '').replace(/s$/i, ''));
    if (count === undefined || weekday === undefined) return undefined;
    const last = weekdayNear(ref, weekday, 'before');
    return { start: last - 7 * (count.high - 1), end: last - 7 * (count.low - 1), granularity: count.low === count.high ? 'day' : 'range' };
  }),

  rule('weekday', `\\b(${WEEKDAY_NAME})${TIME_OF_DAY}\\b(\\W{0,3}:)?`, (match, context) => {
    const weekday = weekdayOf(match[1] ?? '');
    if (weekday === undefined) return undefined;
    // "Monday: yoga" is a schedule label; "I usually run on Sunday" names no particular day.
    if (match[2] !== undefined || context.habitual(match.index, match.index + match[0].length)) return null;
    return weekdayWithTense(weekday, context, match);
  }),

  rule(
    'weekday-list',
    `\\b${WEEKDAY_NAME}(?:\\s*(?:,|and|or|&|/)\\s*(?:and\\s+|or\\s+)?${WEEKDAY_NAME}){2,}\\b|\\b(?:monday|mon)\\s*(?:-|–|to|through|thru)\\s*(?:friday|fri)\\b`,
    () => null,
  ),

  rule('earlier-later-this', '\\b(earlier|later|so\\s+far)\\s+(?:this|in\\s+the)\\s+(week|month|year)\\b', (match, { ref }) => {
    const unit = unitWord(match[2]);
    if (unit === undefined) return undefined;
    const whole = unitRange(unit, ref, 0);
    return /^later/i.test(match[1] ?? '') ? { start: ref, end: whole.end, granularity: 'range' } : { start: whole.start, end: ref, granularity: 'range' };
  }),

  // "half a year ago" is six months back, not "a year ago"; "in a year and a half" is eighteen months
  // ahead, not "in a year". Halves of a year resolve to their month; other halves ("a month and a
  // half ago", "half a week") have no calendar unit to land on and are claimed without a date, as is
  // a duration ("for a year and a half").
  rule(
    'and-a-half',
    `\\b(?:(in)\\s+)?(?:half\\s+an?\\s+(day|week|month|year)|(${HALF_COUNT})\\s+(days?|weeks?|months?|years?)\\s+and\\s+a\\s+half|(${HALF_COUNT})\\s+and\\s+a\\s+half\\s+(days|weeks|months|years))(?:\\s+(ago|back|from\\s+now))?\\b`,
    (match, context) => {
      const ahead = match[1] !== undefined || /^from/i.test(match[7] ?? '');
      const back = /^(?:ago|back)$/i.test(match[7] ?? '');
      if (ahead === back || unitWord(match[2] ?? match[4] ?? match[6]) !== 'year') return null;
      if (match[1] !== undefined && context.tense(match.index, match.index + match[0].length) === 'past') return null;
      const years = match[2] !== undefined ? { low: 0, high: 0 } : quantity(match[3] ?? match[5] ?? '');
      if (years === undefined || years.low !== years.high) return null;
      const months = 12 * years.low + 6;
      return span(unitRange('month', context.ref, back ? -months : months), 'month');
    },
  ),

  rule('current-unit-part', '\\bthe\\s+(week|month|year)\\b', (match, { ref, text }) => {
    if (!/\b(?:beginning|start|middle|end)\s+of\s+$/i.test(textBefore(text, match.index))) return undefined;
    const unit = unitWord(match[1]);
    return unit === undefined ? undefined : span(unitRange(unit, ref, 0), unitGranularity(unit));
  }),
];
