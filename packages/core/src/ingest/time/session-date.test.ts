import { describe, expect, it } from 'vitest';
import { parseSessionDate } from './session-date.js';

describe('parseSessionDate', () => {
  it('reads LoCoMo timestamps as wall-clock time', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00');
    expect(parseSessionDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00');
    expect(parseSessionDate('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00');
    expect(parseSessionDate('10:37 am on 27 June, 2023')).toBe('2023-06-27T10:37:00');
  });

  it('reads LongMemEval timestamps', () => {
    expect(parseSessionDate('2023/05/23 (Tue) 19:11')).toBe('2023-05-23T19:11:00');
    expect(parseSessionDate('2024/02/29 (Thu) 00:05')).toBe('2024-02-29T00:05:00');
  });

  it('keeps ISO dates and date-times as written, without time-zone shifts', () => {
    expect(parseSessionDate('2023-05-08')).toBe('2023-05-08');
    expect(parseSessionDate('2023-05-08T13:56')).toBe('2023-05-08T13:56:00');
    expect(parseSessionDate('2023-05-08 23:30:15')).toBe('2023-05-08T23:30:15');
    expect(parseSessionDate('2023-05-08T23:30:00Z')).toBe('2023-05-08T23:30:00');
    expect(parseSessionDate('2023-05-08T23:30:00+09:00')).toBe('2023-05-08T23:30:00');
  });

  it('tolerates other common layouts', () => {
    expect(parseSessionDate('May 8, 2023 1:56 PM')).toBe('2023-05-08T13:56:00');
    expect(parseSessionDate('8th of May 2023')).toBe('2023-05-08');
    expect(parseSessionDate('Mon, 8 May 2023 13:56')).toBe('2023-05-08T13:56:00');
    expect(parseSessionDate('05/08/2023')).toBe('2023-05-08');
    expect(parseSessionDate('  1:56 pm on 8 May, 2023  ')).toBe('2023-05-08T13:56:00');
  });

  it('returns undefined when no real date can be read', () => {
    expect(parseSessionDate('')).toBeUndefined();
    expect(parseSessionDate('yesterday')).toBeUndefined();
    expect(parseSessionDate('not a date')).toBeUndefined();
    expect(parseSessionDate('1:56 pm on 31 February, 2023')).toBeUndefined();
    expect(parseSessionDate('2023-13-01')).toBeUndefined();
    expect(parseSessionDate('25:00 on 8 May, 2023')).toBeUndefined();
  });
});
