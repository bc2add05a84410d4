const monthNumbers: Readonly<Record<string, number>> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
  nov: 11, november: 11, dec: 12, december: 12,
};

// LoCoMo: "1:56 pm on 8 May, 2023".
const locomoPattern = /^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i;
// LongMemEval: "2023/05/23 (Tue) 19:11".
const longMemEvalPattern = /^(\d{4})\/(\d{1,2})\/(\d{1,2})\s*(?:\([a-z]{3}\))?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$/i;
// ISO 8601 date or date-time, with an optional offset; a space may stand for the `T`.
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (lengths[month - 1] ?? 0);
}

function wallClock(year: number, month: number, day: number, hour: number, minute: number, second = 0): string | undefined {
  if (!isValidDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/**
 * Parses a benchmark session timestamp into a wall-clock ISO date-time without a time zone
 * (no shift is applied: the benchmarks give local times).
 *
 * - LoCoMo `"1:56 pm on 8 May, 2023"` → `"2023-05-08T13:56:00"`
 * - LongMemEval `"2023/05/23 (Tue) 19:11"` → `"2023-05-23T19:11:00"`
 *
 * Returns `undefined` for text in neither format or naming an impossible date.
 */
export function parseSessionDateTime(text: string): string | undefined {
  const trimmed = text.trim();
  const locomo = locomoPattern.exec(trimmed);
  if (locomo !== null) {
    const [, hourText, minuteText, meridiem, dayText, monthName, yearText] = locomo;
    const month = monthNumbers[(monthName ?? '').toLowerCase()];
    const hour12 = Number(hourText);
    if (month === undefined || hour12 < 1 || hour12 > 12) return undefined;
    const hour = (hour12 % 12) + ((meridiem ?? '').toLowerCase() === 'p' ? 12 : 0);
    return wallClock(Number(yearText), month, Number(dayText), hour, Number(minuteText));
  }
  const longMemEval = longMemEvalPattern.exec(trimmed);
  if (longMemEval !== null) {
    const [, yearText, monthText, dayText, hourText, minuteText, secondText] = longMemEval;
    return wallClock(Number(yearText), Number(monthText), Number(dayText), Number(hourText), Number(minuteText), Number(secondText ?? 0));
  }
  return undefined;
}

/**
 * Normalises a chat-log timestamp to ISO 8601. Accepted: ISO dates and date-times (kept as given,
 * offset included; a space separator becomes `T`, missing seconds become `:00`), the benchmark
 * formats of {@link parseSessionDateTime}, and Unix epoch numbers (seconds below 1e11, else
 * milliseconds; rendered in UTC). Returns `undefined` when the value is none of these.
 */
export function normalizeTimestamp(value: string | number): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const date = new Date(Math.abs(value) < 1e11 ? value * 1000 : value);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  const trimmed = value.trim();
  const iso = isoPattern.exec(trimmed);
  if (iso !== null) {
    const [, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, offset] = iso;
    const year = Number(yearText);
    const month = Number(monthText);
    const day = Number(dayText);
    if (hourText === undefined) return isValidDate(year, month, day) ? trimmed : undefined;
    const clock = wallClock(year, month, day, Number(hourText), Number(minuteText), Number(secondText ?? 0));
    if (clock === undefined) return undefined;
    return `${clock}${fraction ?? ''}${offset === undefined ? '' : offset.toUpperCase()}`;
  }
  return parseSessionDateTime(trimmed);
}
