/**
 * Calendar arithmetic on day numbers: whole days since 1970-01-01 in the proleptic Gregorian
 * calendar. Working on integers keeps every computation free of time zones and daylight saving:
 * dates are wall-clock dates exactly as written.
 */

/** A calendar date as numbers (month 1–12). */
export interface CalendarDate {
  /** Full year, e.g. 2023. */
  year: number;
  /** Month, 1–12. */
  month: number;
  /** Day of the month, 1–31. */
  day: number;
}

const MS_PER_DAY = 86_400_000;

/** Day number of a calendar date; out-of-range months and days roll over like `Date.UTC`. */
export function dayNumber(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** The calendar date of a day number. */
export function calendarDate(day: number): CalendarDate {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD` of a day number. */
export function isoDate(day: number): string {
  const { year, month, day: dayOfMonth } = calendarDate(day);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(dayOfMonth, 2)}`;
}

/** True when year/month/day name a real calendar date. */
export function isValidDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Number of days in a month. */
export function daysInMonth(year: number, month: number): number {
  return dayNumber(year, month + 1, 1) - dayNumber(year, month, 1);
}

/** ISO weekday of a day number: Monday = 1 … Sunday = 7. */
export function isoWeekday(day: number): number {
  // 1970-01-01 was a Thursday (4).
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Monday of the ISO week (Mon–Sun) containing `day`. */
export function weekStart(day: number): number {
  return day - (isoWeekday(day) - 1);
}

/** A closed range of day numbers. */
export interface DayRange {
  /** First day (inclusive). */
  start: number;
  /** Last day (inclusive). */
  end: number;
}

/** First and last day of a month; the month may be out of range (it rolls over). */
export function monthRange(year: number, month: number): DayRange {
  return { start: dayNumber(year, month, 1), end: dayNumber(year, month + 1, 0) };
}

/** First and last day of a year. */
export function yearRange(year: number): DayRange {
  return { start: dayNumber(year, 1, 1), end: dayNumber(year, 12, 31) };
}

/** The ISO week (Mon–Sun) `offset` weeks from the one containing `day`. */
export function weekRange(day: number, offset = 0): DayRange {
  const start = weekStart(day) + offset * 7;
  return { start, end: start + 6 };
}

/** The month `offset` months from the one containing `day`. */
export function monthOffsetRange(day: number, offset: number): DayRange {
  const { year, month } = calendarDate(day);
  return monthRange(year, month + offset);
}

/** Same day of the month `months` months away, clamped to the target month's last day. */
export function addMonths(day: number, months: number): number {
  const { year, month, day: dayOfMonth } = calendarDate(day);
  const target = monthRange(year, month + months);
  return Math.min(target.start + dayOfMonth - 1, target.end);
}

/** Day number of the `n`-th (1-based) ISO weekday of a month; `n = -1` is the last one. */
export function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  if (n < 0) {
    const last = monthRange(year, month).end;
    return last - ((isoWeekday(last) - weekday + 7) % 7);
  }
  const first = dayNumber(year, month, 1);
  return first + ((weekday - isoWeekday(first) + 7) % 7) + (n - 1) * 7;
}

/** Day number of (Western) Easter Sunday, by the anonymous Gregorian algorithm. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dayOfMonth = ((h + l - 7 * m + 114) % 31) + 1;
  return dayNumber(year, month, dayOfMonth);
}
