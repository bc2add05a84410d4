/**
 * Shared resolution primitives of the temporal rules: resolved spans, relative calendar units,
 * choosing among the occurrences of a recurring date, and parts (early / mid / late) of a span.
 */
import type { Granularity } from '../../model/time.js';
import {
  addMonths,
  calendarDate,
  type DayRange,
  isoWeekday,
  monthOffsetRange,
  weekRange,
  yearRange,
} from './calendar.js';
import type { Quantity, Unit } from './lexicon.js';
import type { Tense } from './tense.js';

/** A resolved interval on day numbers, both ends inclusive. */
export interface Resolved extends DayRange {
  /** How precise it is. */
  granularity: Granularity;
}

/** What a rule sees besides its match. */
export interface RuleContext {
  /** The whole input text. */
  readonly text: string;
  /** Day number of the reference date (when the text was said). */
  readonly ref: number;
  /** Tense of the clause around `text[index, end)`. */
  tense(index: number, end: number): Tense;
  /** True when the sentence around `text[index, end)` is habitual ("usually", "every"). */
  habitual(index: number, end: number): boolean;
}

/**
 * A temporal rule: a global, case-insensitive pattern and a resolver. The resolver returns a
 * resolved span, `null` to claim the matched span without producing a mention (vague or
 * non-temporal phrases such as "recently" or "Sunday school"), or `undefined` to decline.
 */
export interface TimeRule {
  /** Rule name, for debugging. */
  readonly name: string;
  /** Global pattern (flags `gi`). */
  readonly pattern: RegExp;
  /**
   * Cheap precondition on the text: a pattern, or lower-case substrings one of which must occur.
   * The rule's pattern is not tried when the hint fails.
   */
  readonly hint?: RegExp | readonly string[];
  /** True for rules that only claim spans (never resolve): they run only when another rule matched. */
  readonly blocksOnly?: boolean;
  /** Resolves one match. */
  resolve(match: RegExpExecArray, context: RuleContext): Resolved | null | undefined;
}

/** The text just before `index`, for checking the cue word of a match ("in", "since"…). */
export function textBefore(text: string, index: number, width = 32): string {
  return text.slice(Math.max(0, index - width), index);
}

/** Builds a resolved span. */
export function span(range: DayRange, granularity: Granularity): Resolved {
  return { start: range.start, end: range.end, granularity };
}

/** A single day. */
export function daySpan(day: number): Resolved {
  return { start: day, end: day, granularity: 'day' };
}

/** Saturday–Sunday of the ISO week `offset` weeks from the one containing `day`. */
export function weekendRange(day: number, offset = 0): DayRange {
  const week = weekRange(day, offset);
  return { start: week.start + 5, end: week.end };
}

/** The calendar unit `offset` units away from `day` (`week` = ISO week, `weekend` = its Sat–Sun). */
export function unitRange(unit: Unit, day: number, offset: number): DayRange {
  switch (unit) {
    case 'day':
      return { start: day + offset, end: day + offset };
    case 'week':
      return weekRange(day, offset);
    case 'weekend':
      return weekendRange(day, offset);
    case 'month':
      return monthOffsetRange(day, offset);
    case 'year':
      return yearRange(calendarDate(day).year + offset);
  }
}

/** Granularity of one calendar unit. */
export function unitGranularity(unit: Unit): Granularity {
  return unit === 'weekend' ? 'range' : unit;
}

/**
 * The unit(s) `quantity` units before (`direction = -1`) or after (`+1`) `day`: an exact count
 * gives that unit with its own granularity, a vague count (`a few`) the span of units it may mean.
 */
export function relativeUnits(unit: Unit, day: number, count: Quantity, direction: -1 | 1): Resolved {
  if (count.low === count.high) return span(unitRange(unit, day, direction * count.low), unitGranularity(unit));
  const near = unitRange(unit, day, direction * count.low);
  const far = unitRange(unit, day, direction * count.high);
  return direction < 0 ? { start: far.start, end: near.end, granularity: 'range' } : { start: near.start, end: far.end, granularity: 'range' };
}

/** The day `count` units before (`-1`) or after (`+1`) `day`, by calendar arithmetic. */
export function shiftDay(unit: Unit, day: number, count: number, direction: -1 | 1): number {
  switch (unit) {
    case 'day':
      return day + direction * count;
    case 'week':
      return day + direction * 7 * count;
    case 'weekend':
      return direction < 0 ? weekendRange(day, -count).start : weekendRange(day, count).end;
    case 'month':
      return addMonths(day, direction * count);
    case 'year':
      return addMonths(day, direction * 12 * count);
  }
}

/** How to choose among the yearly (or weekly…) occurrences of a recurring date. */
export type Pick = 'last' | 'next' | 'past' | 'future' | 'closest';

/**
 * Chooses one of `candidates` (sorted by start) relative to `ref`:
 * `last` — the latest that ended before `ref`; `next` — the earliest that starts after `ref`;
 * `past` — the latest that started on or before `ref`; `future` — the earliest that has not
 * ended before `ref`; `closest` — the one nearest to `ref` (0 when it contains it; ties → past).
 */
export function pickOccurrence<T extends DayRange>(candidates: readonly T[], ref: number, pick: Pick): T | undefined {
  switch (pick) {
    case 'last':
      return candidates.filter((c) => c.end < ref).at(-1);
    case 'next':
      return candidates.find((c) => c.start > ref);
    case 'past':
      return candidates.filter((c) => c.start <= ref).at(-1);
    case 'future':
      return candidates.find((c) => c.end >= ref);
    case 'closest': {
      let best: T | undefined;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (const candidate of candidates) {
        const distance = candidate.start > ref ? candidate.start - ref : candidate.end < ref ? ref - candidate.end : 0;
        if (distance < bestDistance) {
          best = candidate;
          bestDistance = distance;
        }
      }
      return best;
    }
  }
}

/** Occurrence choice for an expression without a modifier, from the tense around it. */
export function pickFromTense(tense: Tense): Pick {
  return tense === 'past' ? 'past' : tense === 'future' ? 'future' : 'closest';
}

/** Occurrences of a yearly date (or span) in the years around `ref`. */
export function yearlyCandidates(ref: number, build: (year: number) => DayRange | undefined): DayRange[] {
  const year = calendarDate(ref).year;
  const out: DayRange[] = [];
  for (let y = year - 2; y <= year + 2; y += 1) {
    const range = build(y);
    if (range !== undefined) out.push(range);
  }
  return out;
}

/**
 * The ISO weekday `weekday` near `ref`: `before` — 1 to 7 days before; `after` — 1 to 7 days
 * after; `this-before` / `this-after` — 0 to 6 days before / after.
 */
export function weekdayNear(ref: number, weekday: number, mode: 'before' | 'after' | 'this-before' | 'this-after'): number {
  const today = isoWeekday(ref);
  switch (mode) {
    case 'before':
      return ref - ((today - weekday + 6) % 7) - 1;
    case 'after':
      return ref + ((weekday - today + 6) % 7) + 1;
    case 'this-before':
      return ref - ((today - weekday + 7) % 7);
    case 'this-after':
      return ref + ((weekday - today + 7) % 7);
  }
}

/** A part of a span: its first, middle or last third. */
export type Part = 'early' | 'mid' | 'late';

/** Reads `early`, `beginning`, `start` / `mid`, `middle` / `late`, `end`. */
export function partOf(word: string): Part | undefined {
  const lower = word.toLowerCase();
  if (lower === 'early' || lower === 'beginning' || lower === 'start') return 'early';
  if (lower === 'mid' || lower === 'middle') return 'mid';
  if (lower === 'late' || lower === 'end') return 'late';
  return undefined;
}

/**
 * Narrows a span to a part of it. Months: days 1–10, 11–20, 21–end. Years: Jan–Apr, May–Aug,
 * Sep–Dec. Weeks: Mon–Tue, Wed–Thu, Fri–Sun. Seasons (three months): one month each, with
 * granularity `month`. Anything else: thirds by length. Other results have granularity `range`.
 */
export function narrowToPart(resolved: Resolved, part: Part): Resolved {
  const { start, end, granularity } = resolved;
  const index = part === 'early' ? 0 : part === 'mid' ? 1 : 2;
  if (granularity === 'month') {
    const bounds = [start, start + 10, start + 20, end + 1];
    return { start: bounds[index] ?? start, end: (bounds[index + 1] ?? end + 1) - 1, granularity: 'range' };
  }
  if (granularity === 'year' || granularity === 'season') {
    const months = granularity === 'year' ? 4 : 1;
    const first = addMonths(start, index * months);
    const next = addMonths(start, (index + 1) * months);
    return { start: first, end: next - 1, granularity: granularity === 'year' ? 'range' : 'month' };
  }
  if (granularity === 'week') {
    const bounds = [start, start + 2, start + 4, end + 1];
    return { start: bounds[index] ?? start, end: (bounds[index + 1] ?? end + 1) - 1, granularity: 'range' };
  }
  const length = end - start + 1;
  if (length < 3) return resolved;
  const first = start + Math.floor((length * index) / 3);
  const last = start + Math.floor((length * (index + 1)) / 3) - 1;
  return { start: first, end: last, granularity: 'range' };
}
