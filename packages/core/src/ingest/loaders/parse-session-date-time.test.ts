import { describe, expect, it } from 'vitest';
import { normalizeTimestamp, parseSessionDateTime } from './parse-session-date-time.js';

describe('parseSessionDateTime', () => {
  it.each([
    ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00'],
    ['12:05 am on 1 January, 2024', '2024-01-01T00:05:00'],
    ['12:30 pm on 31 Dec, 2022', '2022-12-31T12:30:00'],
    ['10:04 AM on 29 February, 2024', '2024-02-29T10:04:00'],
    ['2023/05/23 (Tue) 19:11', '2023-05-23T19:11:00'],
    ['2023/05/23 07:01', '2023-05-23T07:01:00'],
  ])('reads %j as wall-clock %s', (text, expected) => {
    expect(parseSessionDateTime(text)).toBe(expected);
  });

  it.each(['8 May 2023', '13:56 pm on 8 May, 2023', '1:56 pm on 30 February, 2023', '1:56 pm on 8 Mayo, 2023', '2023/13/01 (Sun) 10:00'])(
    'rejects %j',
    (text) => {
      expect(parseSessionDateTime(text)).toBeUndefined();
    },
  );
});

describe('normalizeTimestamp', () => {
  it('keeps ISO dates and offsets, filling the T and the seconds', () => {
    expect(normalizeTimestamp('2024-03-02')).toBe('2024-03-02');
    expect(normalizeTimestamp('2024-03-02 10:00')).toBe('2024-03-02T10:00:00');
    expect(normalizeTimestamp('2024-03-02T10:00:05.250+02:00')).toBe('2024-03-02T10:00:05.250+02:00');
    expect(normalizeTimestamp('2024-03-02t10:00:05z')).toBe('2024-03-02T10:00:05Z');
  });

  it('reads epoch seconds and milliseconds as UTC', () => {
    expect(normalizeTimestamp(1704790800)).toBe('2024-01-09T09:00:00.000Z');
    expect(normalizeTimestamp(1704790800000)).toBe('2024-01-09T09:00:00.000Z');
  });

  it('falls back to the benchmark formats and rejects the rest', () => {
    expect(normalizeTimestamp('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00');
    expect(normalizeTimestamp('2024-02-30')).toBeUndefined();
    expect(normalizeTimestamp('tomorrow')).toBeUndefined();
    expect(normalizeTimestamp(Number.NaN)).toBeUndefined();
  });
});
