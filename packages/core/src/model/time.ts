import { z } from 'zod';

/** How precise a time interval is. */
export const granularitySchema = z.enum(['instant', 'day', 'week', 'month', 'season', 'year', 'range']);
/** How precise a time interval is. */
export type Granularity = z.output<typeof granularitySchema>;

const isoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'must be an ISO date (YYYY-MM-DD[THH:mm[:ss][Z]])')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a real calendar date');

/** An ISO 8601 date or date-time string. */
export const isoDateSchema = isoDateTime;

/**
 * A time interval `[start, end]` (both inclusive ISO strings) with its granularity and, when it came
 * from text, the expression it was read from.
 */
export const timeIntervalSchema = z
  .strictObject({
    /** First instant of the interval (ISO). */
    start: isoDateTime,
    /** Last instant of the interval (ISO), inclusive. */
    end: isoDateTime,
    /** How precise it is. */
    granularity: granularitySchema,
    /** The expression it was read from, e.g. `last August`. */
    text: z.string().optional(),
  })
  .refine((interval) => Date.parse(interval.start) <= Date.parse(interval.end), {
    message: 'start must not be after end',
    path: ['end'],
  });

/** A time interval with a granularity. */
export type TimeInterval = z.output<typeof timeIntervalSchema>;

/** Milliseconds of an interval's bounds; `end` covers the whole last day when it is a bare date. */
export function intervalBounds(interval: { start: string; end: string }): [number, number] {
  const start = Date.parse(interval.start);
  const endRaw = Date.parse(interval.end);
  const end = /^\d{4}-\d{2}-\d{2}$/.test(interval.end) ? endRaw + 86_399_999 : endRaw;
  return [start, end];
}

/** True when two intervals share at least one instant. */
export function intervalsOverlap(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  const [aStart, aEnd] = intervalBounds(a);
  const [bStart, bEnd] = intervalBounds(b);
  return aStart <= bEnd && bStart <= aEnd;
}
