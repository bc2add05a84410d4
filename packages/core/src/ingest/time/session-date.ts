/**
 * Tolerant parsing of session timestamps as the data sets write them, to local wall-clock ISO
 * strings: no time zone is applied or shifted, the date stays exactly as written.
 */
import * as chrono from 'chrono-node';
import { isValidDate } from './calendar.js';
import { MONTH_ANY, monthOf } from './lexicon.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const TIME_OF_DAY = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s*m\b\.?)?|\b(\d{1,2})\s*([ap])\.?\s*m\b\.?/i;
const Y_M_D = /\b(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})\b/;
const D_MONTH_Y = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_ANY}),?\\s+(\\d{4})\\b`, 'i');
const MONTH_D_Y = new RegExp(`\\b(${MONTH_ANY})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const M_D_Y = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function format(year: number, month: number, day: number, time?: [number, number, number]): string | undefined {
  if (!isValidDate(year, month, day)) return undefined;
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  if (time === undefined) return date;
  const [hour, minute, second] = time;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** Reads a time of day; `null` when one is written but impossible. */
function timeOf(match: RegExpExecArray): [number, number, number] | null {
  const meridiem = (match[4] ?? match[6])?.toLowerCase();
  let hour = Number(match[1] ?? match[5]);
  const minute = Number(match[2] ?? 0);
  const second = Number(match[3] ?? 0);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  return [hour, minute, second];
}

function dateOf(text: string): [number, number, number] | undefined {
  const ymd = Y_M_D.exec(text);
  if (ymd !== null) return [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  const dmy = D_MONTH_Y.exec(text);
  if (dmy !== null) {
    const month = monthOf(dmy[2] ?? '');
    return month === undefined ? undefined : [Number(dmy[3]), month, Number(dmy[1])];
  }
  const mdy = MONTH_D_Y.exec(text);
  if (mdy !== null) {
    const month = monthOf(mdy[1] ?? '');
    return month === undefined ? undefined : [Number(mdy[3]), month, Number(mdy[2])];
  }
  const slash = M_D_Y.exec(text);
  if (slash !== null) {
    const [first, second] = [Number(slash[1]), Number(slash[2])];
    return first > 12 ? [Number(slash[3]), second, first] : [Number(slash[3]), first, second];
  }
  return undefined;
}

function viaChrono(text: string): string | undefined {
  const result = chrono.strict.parse(text, new Date(2000, 0, 1, 12))[0];
  if (result === undefined || result.text.length < text.length * 0.6) return undefined;
  const c = result.start;
  if (!c.isCertain('year') || !c.isCertain('month') || !c.isCertain('day')) return undefined;
  const [year, month, day] = [c.get('year') ?? 0, c.get('month') ?? 0, c.get('day') ?? 0];
  const time: [number, number, number] | undefined = c.isCertain('hour') ? [c.get('hour') ?? 0, c.get('minute') ?? 0, c.get('second') ?? 0] : undefined;
  return format(year, month, day, time);
}

/**
 * Parses a session timestamp into a local wall-clock ISO string, keeping the date and time
 * exactly as written (no time-zone shift; a trailing `Z` or offset is dropped):
 *
 * - LoCoMo `"1:56 pm on 8 May, 2023"` → `"2023-05-08T13:56:00"`
 * - LongMemEval `"2023/05/23 (Tue) 19:11"` → `"2023-05-23T19:11:00"`
 * - ISO `"2023-05-08"` → `"2023-05-08"`, `"2023-05-08T13:56"` → `"2023-05-08T13:56:00"`
 * - also `"May 8, 2023 1:56 PM"`, `"8th of May 2023"`, `"05/08/2023"` (US order unless the first
 *   number is above 12), and what chrono's strict parser reads as a full date.
 *
 * A value without a time of day gives a date only. Returns undefined when no real calendar date
 * can be read.
 */
export function parseSessionDate(value: string): string | undefined {
  const text = value.trim();
  if (text.length === 0) return undefined;
  const iso = ISO.exec(text);
  if (iso !== null) {
    const time: [number, number, number] | undefined = iso[4] === undefined ? undefined : [Number(iso[4]), Number(iso[5]), Number(iso[6] ?? 0)];
    return format(Number(iso[1]), Number(iso[2]), Number(iso[3]), time);
  }
  const timeMatch = TIME_OF_DAY.exec(text);
  const rest = timeMatch === null ? text : text.slice(0, timeMatch.index) + ' ' + text.slice(timeMatch.index + timeMatch[0].length);
  const date = dateOf(rest);
  if (date === undefined) return viaChrono(text);
  if (timeMatch === null) return format(...date);
  const time = timeOf(timeMatch);
  return time === null ? undefined : format(...date, time);
}
