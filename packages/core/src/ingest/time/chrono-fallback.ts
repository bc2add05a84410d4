/**
 * chrono-node as a safety net for explicit calendar dates the rules did not claim (odd layouts
 * such as "Jan 3rd, at noon" or "Tuesday 23rd May"). Only results that name at least a day and a
 * month, or a month and a year, are kept; relative, weekday-only and time-only readings are
 * ignored (the rules own them, with the conventions chrono gets wrong, e.g. "last August").
 * A year chrono had to guess is re-chosen from the tense, like the rules do.
 */
import * as chrono from 'chrono-node';
import { calendarDate, dayNumber, isValidDate, monthRange, type DayRange } from './calendar.js';
import type { Found } from './refine.js';
import { pickFromTense, pickOccurrence, span, yearlyCandidates, type Resolved } from './resolve.js';
import type { Tense } from './tense.js';

/**
 * chrono's strict English parser cut down to its calendar-date parsers: the relative and
 * time-unit parsers are not needed here and cost about a second of regex warm-up on first use.
 * (Parsers are picked by class name; should a bundler rename them, the whole strict set is kept.)
 */
const DATE_PARSERS = new Set([
  'ENYearMonthDayParser',
  'ISOFormatParser',
  'SlashDateFormatParser',
  'ENMonthNameLittleEndianParser',
  'ENMonthNameMiddleEndianParser',
  'ENYearMonthNameParser',
  'ENWeekdayParser',
]);
const parser = chrono.strict.clone();
const dateParsers = parser.parsers.filter((p) => DATE_PARSERS.has(p.constructor.name));
if (dateParsers.length > 0) parser.parsers = dateParsers;

/** Cheap test for text worth handing to chrono: a digit next to a month word somewhere. */
const WORTH_TRYING = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:the\s+)?\d|\d(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

/** The text with the claimed spans replaced by spaces (offsets are kept). */
function blankOut(text: string, spans: readonly Found[]): string {
  const pieces: string[] = [];
  let cursor = 0;
  for (const found of [...spans].sort((a, b) => a.index - b.index)) {
    if (found.index < cursor) continue;
    pieces.push(text.slice(cursor, found.index), ' '.repeat(found.end - found.index));
    cursor = found.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}

function resolveComponents(
  components: chrono.ParsedComponents,
  ref: number,
  pick: ReturnType<typeof pickFromTense>,
): Resolved | undefined {
  const month = components.get('month');
  if (month === null || !components.isCertain('month')) return undefined;
  const yearKnown = components.isCertain('year');
  const year = components.get('year');
  if (components.isCertain('day')) {
    const day = components.get('day');
    if (day === null) return undefined;
    const build = (y: number): DayRange | undefined => (isValidDate(y, month, day) ? { start: dayNumber(y, month, day), end: dayNumber(y, month, day) } : undefined);
    const range = yearKnown && year !== null ? build(year) : pickOccurrence(yearlyCandidates(ref, build), ref, pick);
    return range === undefined ? undefined : span(range, 'day');
  }
  if (yearKnown && year !== null) return span(monthRange(year, month), 'month');
  return undefined;
}

/**
 * Runs chrono over the parts of `text` no rule claimed and returns the extra explicit dates it
 * finds, as spans. `tense` gives the tense around an offset range.
 */
export function chronoFallback(text: string, claimed: readonly Found[], ref: number, tense: (index: number, end: number) => Tense): Found[] {
  const residual = blankOut(text, claimed);
  if (!WORTH_TRYING.test(residual)) return [];
  const { year, month, day } = calendarDate(ref);
  const results = parser.parse(residual, new Date(year, month - 1, day, 12, 0, 0));
  const out: Found[] = [];
  for (const result of results) {
    const index = result.index;
    const end = index + result.text.length;
    if (!/[a-z]{3}/i.test(result.text) || !/\d/.test(result.text)) continue;
    // Lower-case "may" / "march" are verbs far more often than months ("you may 2x it").
    if (/\b(?:may|march)\b/.test(result.text) && !result.start.isCertain('year')) continue;
    const pick = pickFromTense(tense(index, end));
    const start = resolveComponents(result.start, ref, pick);
    if (start === undefined) continue;
    // chrono types `end` as optional but sets it to null.
    const last = result.end ? resolveComponents(result.end, ref, pick) : undefined;
    const resolved = last !== undefined && last.end > start.start ? { start: start.start, end: last.end, granularity: 'range' as const } : start;
    out.push({ index, end, resolved });
  }
  return out;
}
