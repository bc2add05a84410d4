/**
 * Temporal normalisation for the offline distiller: finds time expressions in a sentence and
 * resolves them to intervals of calendar dates against the date the sentence was said.
 *
 * # Conventions
 *
 * Every interval is `[start, end]`, both inclusive ISO dates (`YYYY-MM-DD`), resolved against the
 * REFERENCE date (the session's date), never against today. "ref" below is that date.
 *
 * Days (`day`): today / tonight / this morning / earlier today = ref; yesterday / last night =
 * ref−1; the day before yesterday = ref−2; tomorrow = ref+1; "N days ago" = ref−N;
 * "in N days" / "N days from now" = ref+N.
 *
 * Weeks (`week`) are ISO weeks, Monday–Sunday. this week = ref's week; last week / a week ago =
 * the week before; "N weeks ago" = the week N weeks before ref's week; next week / "in N weeks" =
 * the week after / N weeks after; the week before last = two weeks back; "the week of X" = X's week.
 *
 * Weekends (`range`, Saturday–Sunday) belong to their ISO week: last weekend = the weekend of last
 * week (on a Monday: the two previous days; on a Sunday: the weekend before this one); "N weekends
 * ago" = the weekend N weeks back; next weekend = the weekend of next week. "the weekend",
 * "over the weekend", "this weekend", "this past weekend" follow the tense: past → the most recent
 * weekend whose Saturday is ≤ ref; otherwise the coming one (the current one on Sat/Sun).
 *
 * Weekdays (`day`): last / past <weekday> = the most recent one strictly before ref (1–7 days
 * back); next / coming <weekday> = the first one strictly after ref (1–7 days ahead); a bare
 * "on Friday" = the one 1–7 days back in the past tense, else 1–7 days ahead; "this Friday" = the
 * one of the current week in the past tense (0–6 days back), else the coming one (0–6 days ahead);
 * "Friday before last" = a week before last Friday.
 *
 * Months (`month`): last month / a month ago = the calendar month before ref's; "N months ago" =
 * the month N back; last <Month> ("last August") = the latest such month that ended before ref
 * (never the coming one); next <Month> = the first one that starts after ref; this <Month> = that
 * month of ref's year; a bare "in May" = the latest May that started ≤ ref in the past tense, the
 * earliest not yet over in the future tense, else the nearest one ("booked a trip for May" looks
 * ahead whatever the verb); "May 2023", "May of last year" are explicit.
 * Inside a month (`range` unless a single day): "the first/second/third/fourth/last week of May" =
 * days 1–7 / 8–14 / 15–21 / 22–28 / the last seven; "the first weekend of June" = its first
 * Saturday and the Sunday after; "the first Thursday of November" = that day (`day`).
 *
 * Years (`year`): last year / a year ago = ref's year − 1; "N years ago" = year − N; "in 2022" = 2022;
 * a bare four-digit number counts as a year only between 1950 and ref's year + 10 and not before a
 * unit ("2000 dollars"). Decades (`range`): the 90s / the nineties = 1990–1999; "the 1900s" = the
 * century 1900–1999.
 *
 * Seasons (`season`) are meteorological, northern hemisphere: spring Mar–May, summer Jun–Aug,
 * autumn/fall Sep–Nov, winter Dec–Feb, and "winter 2022" = Dec 2022 – Feb 2023. last summer = the
 * latest summer that ended before ref; this summer = the one containing ref, else by the tense;
 * next summer = the first that starts after ref; bare "in the summer" follows the tense like months.
 *
 * Dates without a year ("May 8", "the 7th of May", "on the 7th", "at Christmas") follow the same
 * tense rule: past → latest ≤ ref, future → earliest ≥ ref, unknown → nearest. Named days with
 * fixed or computable dates (Christmas, Easter, Thanksgiving, Mother's Day…) resolve to their day.
 *
 * Vague counts give a `range` over the units they may mean: "a few" = 2–5 ("a few days ago" =
 * [ref−5, ref−2]), "several" = 3–7, "a day or two" / "in a month or two" = 1–2; "a couple (of)"
 * counts as exactly 2. "two Saturdays ago" = the Saturday a week before last Saturday.
 *
 * Spans (`range`): "the past three months" / "the last 2 weeks" = [ref − 3 months, ref] (same day
 * of month, clamped); "the past week" = [ref−7, ref]; "the next few days" = [ref, ref+5];
 * "since X" = [start of X, ref]; "from X to Y" / "between X and Y" / "2019–2021" = [start of X,
 * end of Y]; earlier this year = [Jan 1, ref]; later this month = [ref, end of month]; the 90s =
 * 1990–1999. Parts: early / beginning of, mid / middle of, late / end of a month = days 1–10,
 * 11–20, 21–end; of a year = Jan–Apr, May–Aug, Sep–Dec; of a week = Mon–Tue, Wed–Thu, Fri–Sun; of
 * a season = its first, second or third month (granularity `month`).
 * Anchored: "the week before 9 June 2023", "the Sunday before 25 May", "two weekends before
 * 17 July 2023", "the day after Christmas" resolve like "last week" / "last Sunday" /
 * "two weekends ago" / "tomorrow" said on that anchor day.
 *
 * Anaphora with an antecedent in the line ("Two weekends ago I ran a race. The week before, I was
 * ill"; "We landed on May 3 and two days later drove north") resolve against it; see `anaphora.ts`.
 *
 * Halves: "half a year ago" = the month six back, "in a year and a half" = the month eighteen ahead
 * (`month`); halves of other units ("a month and a half ago") ground nothing.
 *
 * Not grounded — no interval, never a guess: recently, lately, soon, the other day, a while ago,
 * years ago, one day, one of these days, these days, the holidays, anaphora without an antecedent
 * in the line (the next day, the week before, that summer, the following week), habits (every
 * Sunday, on Sundays), bare times of day ("at 3pm"), durations ("for two weeks", "in two weeks" in
 * the past tense), and non-dates ("May I ask", "I will march", "a second", "Sunday school", "Taco
 * Tuesday", "Easter eggs").
 * Habitual or generic sentences ("usually", "always", "every", "often"…) ground no bare weekday,
 * month, season, holiday or weekend; schedule labels ("Monday: yoga"), weekday lists ("Monday,
 * Wednesday and Friday") and "Monday to Friday" ground nothing either. "in 4 days" after a number
 * in the same clause ("1,200 miles in 4 days") is a rate, not a date.
 */
import { InvalidInputError } from '../../errors/index.js';
import { resolveAnaphora } from './anaphora.js';
import { dayNumber, isoDate, isValidDate } from './calendar.js';
import { CALENDAR_RULES } from './calendar-rules.js';
import { chronoFallback } from './chrono-fallback.js';
import { DAY_OF_MONTH_RULES } from './day-of-month-rules.js';
import { refine, type Found } from './refine.js';
import { RELATIVE_RULES } from './relative-rules.js';
import type { RuleContext, TimeRule } from './resolve.js';
import { parseSessionDate } from './session-date.js';
import { habitualGuesser, tenseGuesser, type Tense } from './tense.js';
import type { TimeMention } from './time-expression.js';
import type { TimeInterval } from '../../model/time.js';

/** Options of {@link extractTimeMentions}. */
export interface ExtractTimeOptions {
  /**
   * Tense assumed where the sentence gives no cue (default `unknown`: the nearest occurrence;
   * weekdays then look ahead). {@link resolveTimeExpression} defaults to `past`.
   */
  defaultTense?: Tense;
}

const RULES: readonly TimeRule[] = [...RELATIVE_RULES, ...CALENDAR_RULES, ...DAY_OF_MONTH_RULES];
const RESOLVING_RULES = RULES.filter((rule) => rule.blocksOnly !== true);
const BLOCKING_RULES = RULES.filter((rule) => rule.blocksOnly === true);

/**
 * Fast gate: a line containing none of these substrings (nor a digit) holds no time expression and
 * skips every rule. Substrings on purpose: "today" contains "day", "Monday" contains "mon".
 */
const GATE_WORDS = [
  'day', 'week', 'month', 'year', 'night', 'morning', 'afternoon', 'evening', 'fortnight', 'tomorrow', 'jan', 'feb', 'mar',
  'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'spring',
  'summer', 'autumn', 'fall', 'winter', 'christmas', 'xmas', 'easter', 'thanksgiving', 'halloween', 'valentine', 'juneteenth',
  'new year', 'ties',
];
const DIGIT = /\d/;

function passesGate(lower: string): boolean {
  return DIGIT.test(lower) || GATE_WORDS.some((word) => lower.includes(word));
}

/** Evaluates rule hints once per distinct hint (many rules share one) on the lower-cased text. */
function hintChecker(text: string, lower: string): (hint: RegExp | readonly string[]) => boolean {
  const cache = new Map<RegExp | readonly string[], boolean>();
  return (hint) => {
    let ok = cache.get(hint);
    if (ok === undefined) {
      ok = hint instanceof RegExp ? hint.test(text) : hint.some((word) => lower.includes(word));
      cache.set(hint, ok);
    }
    return ok;
  };
}

/** Day number of the reference (ISO date or date-time, or any format {@link parseSessionDate} reads). */
function referenceDay(reference: string): number {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(reference.trim()) ?? /^(\d{4})-(\d{2})-(\d{2})/.exec(parseSessionDate(reference) ?? '');
  const [y, m, d] = iso === null ? [0, 0, 0] : [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  if (iso === null || !isValidDate(y, m, d)) {
    throw new InvalidInputError({ message: `reference must be an ISO date or date-time, got ${JSON.stringify(reference)}`, path: 'reference' });
  }
  return dayNumber(y, m, d);
}

/** Runs the rules whose hint passes and appends their claims. */
function collect(rules: readonly TimeRule[], context: RuleContext, hints: (hint: RegExp | readonly string[]) => boolean, into: Found[]): void {
  for (const rule of rules) {
    if (rule.hint !== undefined && !hints(rule.hint)) continue;
    for (const match of context.text.matchAll(rule.pattern)) {
      if (match[0].length === 0) continue;
      const resolved = rule.resolve(match, context);
      if (resolved === undefined) continue;
      if (resolved !== null && resolved.start > resolved.end) continue;
      into.push({ index: match.index, end: match.index + match[0].length, resolved });
    }
  }
}

/** Runs every rule and keeps the longest non-overlapping claims (ties: earlier, then resolving). */
function runRules(context: RuleContext, lower: string): Found[] {
  const hints = hintChecker(context.text, lower);
  const candidates: Found[] = [];
  collect(RESOLVING_RULES, context, hints, candidates);
  // Blocking rules only matter where they overlap a candidate.
  if (candidates.length === 0) return candidates;
  collect(BLOCKING_RULES, context, hints, candidates);
  candidates.sort((a, b) => b.end - b.index - (a.end - a.index) || a.index - b.index || Number(a.resolved === null) - Number(b.resolved === null));
  const selected: Found[] = [];
  const claimed = new Uint8Array(context.text.length);
  for (const candidate of candidates) {
    if (claimed.subarray(candidate.index, candidate.end).includes(1)) continue;
    claimed.fill(1, candidate.index, candidate.end);
    selected.push(candidate);
  }
  return selected.sort((a, b) => a.index - b.index);
}

function toMention(text: string, found: Found, offset: number): TimeMention | undefined {
  if (found.resolved === null) return undefined;
  const expression = text.slice(found.index, found.end).trim();
  const interval: TimeInterval = {
    start: isoDate(found.resolved.start),
    end: isoDate(found.resolved.end),
    granularity: found.resolved.granularity,
    text: expression,
  };
  return { text: expression, index: offset + found.index, interval };
}

/**
 * Finds the time expressions of `text` (a sentence or a chat turn) said at `reference` — an ISO
 * date or date-time, the session's date — and resolves each to an interval of ISO dates with a
 * granularity, following the conventions at the top of this module. Expressions that cannot be
 * grounded ("recently", "the next day") produce nothing. Mentions are in text order.
 *
 * @throws InvalidInputError when `reference` is not a date.
 */
export function extractTimeMentions(text: string, reference: string, options: ExtractTimeOptions = {}): TimeMention[] {
  const ref = referenceDay(reference);
  const defaultTense = options.defaultTense ?? 'unknown';
  if (!text.includes('\n')) return extractFromLine(text, 0, ref, defaultTense);
  // Lines are independent units (expressions never span a line break): gating each one keeps long
  // multi-line turns (lists, tables, assistant answers) cheap.
  const mentions: TimeMention[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    mentions.push(...extractFromLine(line, offset, ref, defaultTense));
    offset += line.length + 1;
  }
  return mentions;
}

function extractFromLine(text: string, offset: number, ref: number, defaultTense: Tense): TimeMention[] {
  const lower = text.toLowerCase();
  if (!passesGate(lower)) return [];
  const guess = tenseGuesser(text);
  const tense = (index: number, end: number): Tense => {
    if (/\bsince\s+(?:the\s+)?$/i.test(text.slice(Math.max(0, index - 12), index))) return 'past';
    const guessed = guess(index, end);
    return guessed === 'unknown' ? defaultTense : guessed;
  };
  const context: RuleContext = { text, ref, tense, habitual: habitualGuesser(text) };
  const selected = runRules(context, lower);
  const extra = chronoFallback(text, selected, ref, tense);
  const all = extra.length === 0 ? selected : [...selected, ...extra].sort((a, b) => a.index - b.index);
  const mentions: TimeMention[] = [];
  for (const found of resolveAnaphora(refine(text, all, ref), context)) {
    const mention = toMention(text, found, offset);
    if (mention !== undefined) mentions.push(mention);
  }
  return mentions;
}

/**
 * Resolves a single time expression ("last August", "the week before 9 June 2023") against
 * `reference` — at query time, the date range end of the memory being asked about. Without a
 * tense cue, the expression is read in the past tense (memories are about the past) unless
 * `options.defaultTense` says otherwise. Returns the interval of the longest expression found, or
 * undefined when nothing can be grounded.
 *
 * @throws InvalidInputError when `reference` is not a date.
 */
export function resolveTimeExpression(expression: string, reference: string, options: ExtractTimeOptions = {}): TimeInterval | undefined {
  const mentions = extractTimeMentions(expression, reference, { defaultTense: options.defaultTense ?? 'past' });
  let best: TimeMention | undefined;
  for (const mention of mentions) {
    if (best === undefined || mention.text.length > best.text.length) best = mention;
  }
  return best?.interval;
}
