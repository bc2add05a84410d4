import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  calendarDate,
  dayNumber,
  daysInMonth,
  easterSunday,
  isoDate,
  isoWeekday,
  isValidDate,
  nthWeekdayOfMonth,
  weekRange,
} from './calendar.js';

const day = (iso: string): number => {
  const [y, m, d] = iso.split('-').map(Number);
  return dayNumber(y ?? 0, m ?? 0, d ?? 0);
};

describe('calendar arithmetic', () => {
  it('round-trips day numbers and calendar dates', () => {
    fc.assert(
      fc.property(fc.integer({ min: -40_000, max: 60_000 }), (n) => {
        const { year, month, day: d } = calendarDate(n);
        expect(dayNumber(year, month, d)).toBe(n);
        expect(isValidDate(year, month, d)).toBe(true);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('knows weekdays and ISO weeks (Monday to Sunday)', () => {
    expect(isoWeekday(day('1970-01-01'))).toBe(4);
    expect(isoWeekday(day('2023-05-08'))).toBe(1);
    expect(isoWeekday(day('2023-07-16'))).toBe(7);
    const week = weekRange(day('2023-07-16'));
    expect([isoDate(week.start), isoDate(week.end)]).toEqual(['2023-07-10', '2023-07-16']);
    const lastWeek = weekRange(day('2024-01-02'), -1);
    expect([isoDate(lastWeek.start), isoDate(lastWeek.end)]).toEqual(['2023-12-25', '2023-12-31']);
  });

  it('handles leap years and month ends', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(isValidDate(2023, 2, 29)).toBe(false);
    expect(isoDate(addMonths(day('2024-03-31'), -1))).toBe('2024-02-29');
    expect(isoDate(addMonths(day('2024-02-29'), -12))).toBe('2023-02-28');
  });

  it('computes movable feasts', () => {
    expect(isoDate(easterSunday(2023))).toBe('2023-04-09');
    expect(isoDate(easterSunday(2024))).toBe('2024-03-31');
    expect(isoDate(easterSunday(2025))).toBe('2025-04-20');
    expect(isoDate(easterSunday(2000))).toBe('2000-04-23');
    expect(isoDate(nthWeekdayOfMonth(2023, 11, 4, 4))).toBe('2023-11-23'); // Thanksgiving
    expect(isoDate(nthWeekdayOfMonth(2024, 5, 1, -1))).toBe('2024-05-27'); // Memorial Day
    expect(isoDate(nthWeekdayOfMonth(2023, 5, 7, 2))).toBe('2023-05-14'); // Mother's Day
  });
});
