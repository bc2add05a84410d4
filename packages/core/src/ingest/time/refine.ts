/**
 * Refiners run after the rules: they read the words just before a resolved expression and widen
 * it — parts ("early May", "the end of last month"), anchors ("the week before 9 June 2023",
 * "two days after Christmas"), "since X" ranges — then join "from X to Y" / "between X and Y".
 */
import { QUANTITY, WEEKDAY_NAME, quantity, unitOf, weekdayOf } from './lexicon.js';
import {
  daySpan,
  narrowToPart,
  partOf,
  relativeUnits,
  span,
  unitRange,
  weekdayNear,
  weekendRange,
  type Resolved,
} from './resolve.js';

/** A span of the text claimed by a rule; `resolved` is null for vague or non-temporal phrases. */
export interface Found {
  /** Start offset in the text. */
  index: number;
  /** End offset (exclusive). */
  end: number;
  /** The interval, or null when the span produces no mention. */
  resolved: Resolved | null;
}

const PART_BEFORE = /(?:\b(early|mid|late)[\s-]+|\bthe\s+(?:very\s+)?(beginning|start|middle|end)\s+of\s+)$/i;
/** Words after which "early" / "late" describe a manner ("woke up early"), not a part of a span. */
const MANNER_BEFORE =
  /\b(?:am|is|are|was|were|be|been|being|'m|'re|'s|up|so|too|very|really|quite|running|ran|arrived?|left|leave|came|come|home|working|worked|stay(?:ed)?|slept|sleep|finish(?:ed)?|got|get|getting|start(?:ed)?|woke|wake|went|go|out)\s+$/i;
const ANCHOR_BEFORE = new RegExp(
  `\\b(?:the\\s+(day|night|week|weekend|month|year|${WEEKDAY_NAME})|(${QUANTITY})\\s+(days?|weeks?|weekends?|months?|years?))\\s+(before|after|prior\\s+to)\\s+(?:the\\s+)?$`,
  'i',
);
const WEEK_OF_BEFORE = /\bthe\s+(week|weekend)\s+of\s+(?:the\s+)?$/i;
const SINCE_BEFORE = /\b(?:ever\s+)?since\s+$/i;
const RANGE_CUE_BEFORE = /\b(from|between)\s+$/i;
const RANGE_JOIN = /^\s*(-|–|—|to|until|till|through|thru|and)\s*$/i;

function lookBehind(text: string, index: number, width = 48): string {
  return text.slice(Math.max(0, index - width), index);
}

/** "the week before X", "two days after X", "the Friday before X", "the week of X". */
function anchored(text: string, found: Found): Found | undefined {
  const anchor = found.resolved;
  if (anchor === null || anchor.granularity !== 'day') return undefined;
  const before = lookBehind(text, found.index);
  const weekOf = WEEK_OF_BEFORE.exec(before);
  if (weekOf !== null) {
    const isWeekend = (weekOf[1] ?? '').toLowerCase() === 'weekend';
    const resolved = isWeekend ? span(weekendRange(anchor.start), 'range') : span(unitRange('week', anchor.start, 0), 'week');
    return { index: found.index - weekOf[0].length, end: found.end, resolved };
  }
  const match = ANCHOR_BEFORE.exec(before);
  if (match === null) return undefined;
  const direction = (match[4] ?? '').toLowerCase().startsWith('after') ? 1 : -1;
  const ref = anchor.start;
  let resolved: Resolved | undefined;
  const weekday = match[1] === undefined ? undefined : weekdayOf(match[1]);
  if (weekday !== undefined) {
    resolved = daySpan(weekdayNear(ref, weekday, direction < 0 ? 'before' : 'after'));
  } else {
    const unitText = match[1] ?? match[3] ?? '';
    const parsedUnit = unitText.toLowerCase() === 'night' ? { unit: 'day' as const, factor: 1 } : unitOf(unitText);
    const count = match[2] === undefined ? { low: 1, high: 1 } : quantity(match[2]);
    if (parsedUnit === undefined || count === undefined) return undefined;
    const scaled = { low: count.low * parsedUnit.factor, high: count.high * parsedUnit.factor };
    resolved = relativeUnits(parsedUnit.unit, ref, scaled, direction);
  }
  return { index: found.index - match[0].length, end: found.end, resolved };
}

/** "early May", "the end of last month", "late 2022", "mid-summer". */
function withPart(text: string, found: Found): Found | undefined {
  const resolved = found.resolved;
  if (resolved === null || !['month', 'year', 'season', 'week'].includes(resolved.granularity)) return undefined;
  const before = lookBehind(text, found.index);
  const match = PART_BEFORE.exec(before);
  if (match === null) return undefined;
  if (match[1] !== undefined && MANNER_BEFORE.test(before.slice(0, before.length - match[0].length))) return undefined;
  const part = partOf(match[1] ?? match[2] ?? '');
  if (part === undefined) return undefined;
  return { index: found.index - match[0].length, end: found.end, resolved: narrowToPart(resolved, part) };
}

/** "since 2019" → [2019-01-01, ref]. */
function withSince(text: string, found: Found, ref: number): Found | undefined {
  const resolved = found.resolved;
  if (resolved === null || resolved.start > ref) return undefined;
  const match = SINCE_BEFORE.exec(lookBehind(text, found.index, 16));
  if (match === null) return undefined;
  return { index: found.index - match[0].length, end: found.end, resolved: { start: resolved.start, end: ref, granularity: 'range' } };
}

/**
 * Applies the refiners to the selected spans (sorted by index, non-overlapping) and returns the
 * refined, non-overlapping spans sorted by index. Widened spans win over the spans they cover.
 */
export function refine(text: string, selected: readonly Found[], ref: number): Found[] {
  let current = [...selected];
  for (const step of [anchored, withPart, (t: string, f: Found) => withSince(t, f, ref)]) {
    const widened = current.map((found) => step(text, found));
    if (widened.every((wide) => wide === undefined)) continue;
    // owner[c] = 1 + index of the widened span covering character c (linear, not pairwise).
    const owner = new Int32Array(text.length);
    widened.forEach((wide, i) => {
      if (wide !== undefined) owner.fill(i + 1, wide.index, wide.end);
    });
    const next: Found[] = [];
    current.forEach((found, i) => {
      const wide = widened[i];
      if (wide !== undefined) next.push(wide);
      else if (!coveredByOther(owner, found, i + 1)) next.push(found);
    });
    current = next.sort((a, b) => a.index - b.index);
  }
  return joinRanges(text, current);
}

function coveredByOther(owner: Int32Array, found: Found, self: number): boolean {
  for (let c = found.index; c < found.end; c += 1) {
    const mark = owner[c] ?? 0;
    if (mark !== 0 && mark !== self) return true;
  }
  return false;
}

/** "from May to July", "between 2019 and 2021", "May 3 – June 4". */
function joinRanges(text: string, spans: Found[]): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < spans.length; i += 1) {
    const first = spans[i];
    const second = spans[i + 1];
    if (first === undefined) continue;
    if (second !== undefined && first.resolved !== null && second.resolved !== null) {
      const join = RANGE_JOIN.exec(text.slice(first.end, second.index));
      if (join !== null && second.resolved.end >= first.resolved.start) {
        const cue = RANGE_CUE_BEFORE.exec(lookBehind(text, first.index, 12));
        const word = (join[1] ?? '').toLowerCase();
        const cueOk = word === 'and' ? cue?.[1]?.toLowerCase() === 'between' : true;
        if (cueOk) {
          out.push({
            index: first.index - (cue?.[0].length ?? 0),
            end: second.end,
            resolved: { start: first.resolved.start, end: second.resolved.end, granularity: 'range' },
          });
          i += 1;
          continue;
        }
      }
    }
    out.push(first);
  }
  return out;
}
