/**
 * Words and regular-expression fragments shared by the temporal rules. Fragments are source
 * strings (no flags) meant to be composed into case-insensitive patterns.
 */

/** Month name or abbreviation (lower case) → month number. */
export const MONTHS: Readonly<Record<string, number>> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5,
  june: 6, jun: 6, july: 7, jul: 7, august: 8, aug: 8, september: 9, sept: 9, sep: 9,
  october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

/** Weekday name or abbreviation (lower case) → ISO weekday (Monday = 1). */
export const WEEKDAYS: Readonly<Record<string, number>> = {
  monday: 1, mon: 1, tuesday: 2, tue: 2, tues: 2, wednesday: 3, wed: 3, thursday: 4, thu: 4,
  thur: 4, thurs: 4, friday: 5, fri: 5, saturday: 6, sat: 6, sunday: 7, sun: 7,
};

/** Full month names (any case in patterns). */
export const MONTH_NAME = '(?:january|february|march|april|may|june|july|august|september|october|november|december)';
/** Month names or abbreviations (an abbreviation may carry a dot). */
export const MONTH_ANY =
  '(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
/** Full weekday names. */
export const WEEKDAY_NAME = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
/** Weekday names or common abbreviations (used only next to a date). */
export const WEEKDAY_ANY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\\.?';
/** Seasons. */
export const SEASON = '(?:spring|summer|autumn|fall|winter)';
/** A calendar year the rules accept (1900–2099). */
export const YEAR = '(?:19|20)\\d{2}';
/** A day of the month, with an optional ordinal suffix. */
export const DAY_OF_MONTH = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?';
/** Ordinal words for days of the month (first … thirty-first). */
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15,
  sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
  'twenty-first': 21, 'twenty-second': 22, 'twenty-third': 23, 'twenty-fourth': 24,
  'twenty-fifth': 25, 'twenty-sixth': 26, 'twenty-seventh': 27, 'twenty-eighth': 28,
  'twenty-ninth': 29, thirtieth: 30, 'thirty-first': 31,
};

/** Cardinal number words → value. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
};

/**
 * A quantity: a number (digits or words), `a couple (of)` (= 2), `a few` (2–5), `several` (3–7),
 * or `N or M` / `N-M`. See {@link quantity}.
 */
export const QUANTITY =
  '(?:(?:\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)' +
  '(?:\\s*(?:or|to|-|–)\\s*(?:\\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))?' +
  '|(?:a\\s+)?couple(?:\\s+of)?|(?:a\\s+)?few|several)';

/** Inclusive bounds of a quantity phrase. */
export interface Quantity {
  /** Smallest count meant. */
  low: number;
  /** Largest count meant. */
  high: number;
}

function numberValue(word: string): number | undefined {
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word];
}

/** Reads a phrase matched by {@link QUANTITY}; undefined when it is not a quantity. */
export function quantity(phrase: string): Quantity | undefined {
  const text = phrase.toLowerCase().replace(/\s+/g, ' ').trim();
  if (/^(?:a )?couple(?: of)?$/.test(text)) return { low: 2, high: 2 };
  if (/^(?:a )?few$/.test(text)) return { low: 2, high: 5 };
  if (text === 'several') return { low: 3, high: 7 };
  const pair = /^(\w+) ?(?:or|to|-|–) ?(\w+)$/.exec(text);
  if (pair !== null) {
    const low = numberValue(pair[1] ?? '');
    const high = numberValue(pair[2] ?? '');
    return low !== undefined && high !== undefined && low <= high ? { low, high } : undefined;
  }
  const value = numberValue(text);
  return value === undefined ? undefined : { low: value, high: value };
}

/** Calendar units of the relative rules (singular, lower case). */
export type Unit = 'day' | 'week' | 'weekend' | 'month' | 'year';

/** Unit words → unit, `fortnight` being two weeks. */
export function unitOf(word: string): { unit: Unit; factor: number } | undefined {
  const singular = word.toLowerCase().replace(/s$/, '');
  switch (singular) {
    case 'day':
    case 'week':
    case 'weekend':
    case 'month':
    case 'year':
      return { unit: singular, factor: 1 };
    case 'fortnight':
      return { unit: 'week', factor: 2 };
    default:
      return undefined;
  }
}

/** Month number of a month word (name or abbreviation, optional dot). */
export function monthOf(word: string): number | undefined {
  return MONTHS[word.toLowerCase().replace(/\.$/, '')];
}

/** ISO weekday of a weekday word (name or abbreviation, optional dot). */
export function weekdayOf(word: string): number | undefined {
  return WEEKDAYS[word.toLowerCase().replace(/\.$/, '')];
}

/** Day of the month from `7`, `7th` or `seventh`. */
export function dayOf(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/[-\s]+/g, '-');
  const digits = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(lower);
  if (digits !== null) return Number(digits[1]);
  return ORDINAL_WORDS[lower];
}

/** Season names → the month its (meteorological, northern) season starts in. */
export function seasonStartMonth(word: string): number | undefined {
  switch (word.toLowerCase()) {
    case 'spring':
      return 3;
    case 'summer':
      return 6;
    case 'autumn':
    case 'fall':
      return 9;
    case 'winter':
      return 12;
    default:
      return undefined;
  }
}
