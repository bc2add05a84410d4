/**
 * Anaphoric times — "Two weekends ago I ran a half marathon. The week before, I twisted my ankle."
 * — resolved against the time named just before them. The rules leave these phrases unresolved
 * (they mean nothing without an antecedent); this step, run after them, grounds one when:
 *
 * - a resolved expression precedes it in the same line, at most one sentence back;
 * - that antecedent lies within one unit of the anaphor ("the week before" needs an antecedent
 *   inside one ISO week, "the day after" a single day, "the month before" one month);
 * - "before" / "after" end the phrase ("The week before, …", "the day after.", "the week before
 *   that"): "the week before the wedding" or "the week before I left" are about another event;
 * - the sentence is not habitual ("Every Friday I work late and the day after I sleep in");
 * - "the next / following / previous <unit>" is not a duration ("for the next year", "over the
 *   following week");
 * - an anaphor resolved this way is the antecedent of a later one only when that one is another
 *   phrase ("tired the next day … the night before") or says "that" ("the day after that"): a
 *   report that repeats "compared to the previous year" means the same year each time;
 * - the result agrees with the tense: a past-tense clause does not land after the reference, a
 *   future one not before it.
 *
 * Forms: the <unit> before / after, the next / following / previous <unit>, N <units> later /
 * earlier / before / after (N as in "a few", "two", "3"), where <unit> is day (also night,
 * morning, evening), week, weekend, month or year. "The weekend before / after" is the one
 * ending before / starting after the antecedent.
 */
import { calendarDate, isoWeekday, weekRange } from './calendar.js';
import { QUANTITY, quantity, unitOf, type Unit } from './lexicon.js';
import type { Found } from './refine.js';
import { relativeUnits, textBefore, unitRange, type Resolved, type RuleContext } from './resolve.js';

const DAY_PART = 'day|night|morning|afternoon|evening';
const UNIT_WORD = `${DAY_PART}|week|weekend|month|year`;

/** The phrases this step grounds, as the whole of a span the rules claimed without a date. */
const ANAPHOR = new RegExp(
  `^(?:the\\s+(${UNIT_WORD})\\s+(before|after)|the\\s+(next|following|previous)\\s+(${UNIT_WORD})|` +
    `(${QUANTITY})\\s+(days?|weeks?|weekends?|months?|years?)\\s+(later|earlier|before|after))$`,
  'i',
);
/** What may follow "before" / "after" for it to point back: punctuation, the end, or "that". */
const ENDS_PHRASE = /^(?:\s*(?:[,.;:!?)]|$)|\s+that\b)/i;
const THAT_AFTER = /^\s+that\b/i;
const DURATION_BEFORE = /\b(?:for|over|within|throughout|during)\s+$/i;
const SENTENCE_END = /[.!?]+(?:\s|$)/g;
const DAY_PART_WORD = new RegExp(`^(?:${DAY_PART})$`, 'i');

interface Anaphor {
  /** The phrase, lower case with single spaces. */
  phrase: string;
  /** `the week before`, `the next day` or `two days later`. */
  form: 'preposition' | 'ordinal' | 'count';
  /** Whether "before" or "after" ends it, which must then end the phrase. */
  preposition: boolean;
  unit: Unit;
  low: number;
  high: number;
  direction: -1 | 1;
}

function unitOfWord(word: string): Unit | undefined {
  return DAY_PART_WORD.test(word) ? 'day' : unitOf(word)?.unit;
}

function readAnaphor(text: string): Anaphor | undefined {
  const phrase = text.replace(/\s+/g, ' ').trim().toLowerCase();
  const match = ANAPHOR.exec(phrase);
  if (match === null) return undefined;
  if (match[1] !== undefined) {
    const unit = unitOfWord(match[1]);
    const direction = match[2] === 'before' ? -1 : 1;
    return unit === undefined ? undefined : { phrase, form: 'preposition', preposition: true, unit, low: 1, high: 1, direction };
  }
  if (match[4] !== undefined) {
    const unit = unitOfWord(match[4]);
    const direction = match[3] === 'previous' ? -1 : 1;
    return unit === undefined ? undefined : { phrase, form: 'ordinal', preposition: false, unit, low: 1, high: 1, direction };
  }
  const count = quantity(match[5] ?? '');
  const unit = unitOf(match[6] ?? '');
  const word = match[7] ?? '';
  if (count === undefined || unit === undefined) return undefined;
  const direction = word === 'earlier' || word === 'before' ? -1 : 1;
  const preposition = word === 'before' || word === 'after';
  return { phrase, form: 'count', preposition, unit: unit.unit, low: count.low * unit.factor, high: count.high * unit.factor, direction };
}

/** True when `[start, end]` lies within one `unit` (a weekend: within one ISO week). */
function withinOneUnit(unit: Unit, start: number, end: number): boolean {
  switch (unit) {
    case 'day':
      return start === end;
    case 'week':
    case 'weekend':
      return weekRange(start, 0).end >= end;
    case 'month':
    case 'year': {
      const first = calendarDate(start);
      const last = calendarDate(end);
      return first.year === last.year && (unit === 'year' || first.month === last.month);
    }
  }
}

function resolveAgainst(anaphor: Anaphor, antecedent: Resolved): Resolved | undefined {
  const { unit, low, high, direction } = anaphor;
  if (!withinOneUnit(unit, antecedent.start, antecedent.end)) return undefined;
  if (unit !== 'weekend') return relativeUnits(unit, antecedent.start, { low, high }, direction);
  if (low !== high) return undefined;
  // The nearest weekend wholly before it (the previous week's) or after it (its own week's, unless
  // it reaches into that weekend), then N − 1 more.
  const nearest = direction < 0 ? -1 : isoWeekday(antecedent.end) < 6 ? 0 : 1;
  return { ...unitRange('weekend', antecedent.start, nearest + direction * (low - 1)), granularity: 'range' };
}

/** Whether `found` may be grounded against `antecedent`, by the rules at the top of this module. */
function pointsBack(anaphor: Anaphor, found: Found, antecedent: { found: Found; phrase?: string }, context: RuleContext): boolean {
  const { text } = context;
  const after = text.slice(found.end);
  if (anaphor.preposition && !ENDS_PHRASE.test(after)) return false;
  if (anaphor.form === 'ordinal' && DURATION_BEFORE.test(textBefore(text, found.index))) return false;
  if (antecedent.phrase === anaphor.phrase && !THAT_AFTER.test(after)) return false;
  if ((text.slice(antecedent.found.end, found.index).match(SENTENCE_END)?.length ?? 0) > 1) return false;
  return !context.habitual(found.index, found.end);
}

function agreesWithTense(resolved: Resolved, found: Found, context: RuleContext): boolean {
  const tense = context.tense(found.index, found.end);
  return !(tense === 'past' && resolved.start > context.ref) && !(tense === 'future' && resolved.end < context.ref);
}

/**
 * Grounds the anaphoric spans of `spans` (sorted, non-overlapping; an anaphor is a span without a
 * date) against the resolved span before each, following the rules at the top of this module.
 */
export function resolveAnaphora(spans: readonly Found[], context: RuleContext): Found[] {
  // The latest resolved span, with its phrase when it was itself an anaphor.
  let antecedent: { found: Found; phrase?: string } | undefined;
  const out: Found[] = [];
  for (const found of spans) {
    const anaphor = found.resolved === null ? readAnaphor(context.text.slice(found.index, found.end)) : undefined;
    let current = found;
    if (anaphor !== undefined && antecedent?.found.resolved && pointsBack(anaphor, found, antecedent, context)) {
      const resolved = resolveAgainst(anaphor, antecedent.found.resolved);
      if (resolved !== undefined && agreesWithTense(resolved, found, context)) current = { ...found, resolved };
    }
    if (current.resolved !== null) antecedent = current === found ? { found } : { found: current, ...(anaphor ? { phrase: anaphor.phrase } : {}) };
    out.push(current);
  }
  return out;
}
