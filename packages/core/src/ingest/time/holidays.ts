/**
 * Named days with a fixed or computable date (US / Western conventions). Holidays whose date
 * cannot be computed without a lunar calendar (Hanukkah, Diwali, Ramadan, Lunar New Year) are
 * not listed: they are not grounded rather than guessed.
 */
import { dayNumber, easterSunday, nthWeekdayOfMonth } from './calendar.js';

/** A named day. */
export interface Holiday {
  /** Anchored pattern for the name (case-insensitive). */
  readonly name: RegExp;
  /** Its day number in a year. */
  readonly date: (year: number) => number;
  /** True when the name alone is clearly a date ("Christmas Eve"), false when it needs a cue ("for Christmas"). */
  readonly evident: boolean;
}

const thanksgiving = (year: number): number => nthWeekdayOfMonth(year, 11, 4, 4);

/** Known named days, longest names first. */
export const HOLIDAYS: readonly Holiday[] = [
  { name: /^christmas\s+eve$/i, date: (y) => dayNumber(y, 12, 24), evident: true },
  { name: /^christmas\s+day$/i, date: (y) => dayNumber(y, 12, 25), evident: true },
  { name: /^(?:christmas|xmas)$/i, date: (y) => dayNumber(y, 12, 25), evident: false },
  { name: /^boxing\s+day$/i, date: (y) => dayNumber(y, 12, 26), evident: true },
  { name: /^new\s+year['’]?s\s+eve$/i, date: (y) => dayNumber(y, 12, 31), evident: true },
  { name: /^new\s+year['’]?s\s+day$/i, date: (y) => dayNumber(y, 1, 1), evident: true },
  { name: /^new\s+year['’]?s$/i, date: (y) => dayNumber(y, 1, 1), evident: false },
  { name: /^valentine['’]?s(?:\s+day)?$/i, date: (y) => dayNumber(y, 2, 14), evident: false },
  { name: /^(?:st\.?|saint)\s+patrick['’]?s\s+day$/i, date: (y) => dayNumber(y, 3, 17), evident: true },
  { name: /^april\s+fools['’]?(?:\s+day)?$/i, date: (y) => dayNumber(y, 4, 1), evident: true },
  { name: /^earth\s+day$/i, date: (y) => dayNumber(y, 4, 22), evident: true },
  { name: /^cinco\s+de\s+mayo$/i, date: (y) => dayNumber(y, 5, 5), evident: false },
  { name: /^juneteenth$/i, date: (y) => dayNumber(y, 6, 19), evident: true },
  { name: /^independence\s+day$/i, date: (y) => dayNumber(y, 7, 4), evident: true },
  { name: /^halloween$/i, date: (y) => dayNumber(y, 10, 31), evident: false },
  { name: /^veterans['’]?\s+day$/i, date: (y) => dayNumber(y, 11, 11), evident: true },
  { name: /^thanksgiving(?:\s+day)?$/i, date: thanksgiving, evident: false },
  { name: /^black\s+friday$/i, date: (y) => thanksgiving(y) + 1, evident: true },
  { name: /^cyber\s+monday$/i, date: (y) => thanksgiving(y) + 4, evident: true },
  { name: /^easter\s+sunday$/i, date: easterSunday, evident: true },
  { name: /^easter\s+monday$/i, date: (y) => easterSunday(y) + 1, evident: true },
  { name: /^easter$/i, date: easterSunday, evident: false },
  { name: /^good\s+friday$/i, date: (y) => easterSunday(y) - 2, evident: true },
  { name: /^palm\s+sunday$/i, date: (y) => easterSunday(y) - 7, evident: true },
  { name: /^ash\s+wednesday$/i, date: (y) => easterSunday(y) - 46, evident: true },
  { name: /^mother['’]?s\s+day$/i, date: (y) => nthWeekdayOfMonth(y, 5, 7, 2), evident: true },
  { name: /^father['’]?s\s+day$/i, date: (y) => nthWeekdayOfMonth(y, 6, 7, 3), evident: true },
  { name: /^memorial\s+day$/i, date: (y) => nthWeekdayOfMonth(y, 5, 1, -1), evident: true },
  { name: /^labou?r\s+day$/i, date: (y) => nthWeekdayOfMonth(y, 9, 1, 1), evident: true },
];

/** Alternation matching any holiday name (for composing the rule pattern). */
export const HOLIDAY_NAMES =
  "(?:christmas\\s+eve|christmas\\s+day|christmas|xmas|boxing\\s+day|new\\s+year['’]?s\\s+eve|new\\s+year['’]?s\\s+day|new\\s+year['’]?s|" +
  "valentine['’]?s(?:\\s+day)?|(?:st\\.?|saint)\\s+patrick['’]?s\\s+day|april\\s+fools['’]?(?:\\s+day)?|earth\\s+day|cinco\\s+de\\s+mayo|juneteenth|" +
  "independence\\s+day|halloween|veterans['’]?\\s+day|thanksgiving(?:\\s+day)?|black\\s+friday|cyber\\s+monday|easter\\s+sunday|easter\\s+monday|easter|" +
  "good\\s+friday|palm\\s+sunday|ash\\s+wednesday|mother['’]?s\\s+day|father['’]?s\\s+day|memorial\\s+day|labou?r\\s+day)";

/** The holiday a matched name denotes. */
export function holidayOf(name: string): Holiday | undefined {
  const normalized = name.replace(/\s+/g, ' ').trim();
  return HOLIDAYS.find((holiday) => holiday.name.test(normalized));
}
