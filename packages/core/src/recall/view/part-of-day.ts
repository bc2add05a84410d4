import { analyzeWord } from '../../search/analyzer.js';

/** A clock time: "9:30 pm", "7am", "10 a.m.", "6:15 p.m.". */
const clockTime = /\b(\d{1,2})(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?/gi;
/** Words that name a part of the day without a clock. */
const namedParts: ReadonlyArray<[RegExp, ReadonlyArray<string>]> = [
  [/\btonight\b/i, ['evening', 'night']],
  [/\bbedtime\b/i, ['evening', 'night']],
  [/\bmidnight\b/i, ['night']],
];

/** The parts of the day an hour (0–23) falls in; 21:00–21:59 is both evening and night. */
function partsOfHour(hour: number): string[] {
  if (hour >= 5 && hour < 12) return ['morning'];
  if (hour >= 12 && hour < 17) return ['afternoon'];
  if (hour >= 17 && hour < 21) return ['evening'];
  if (hour === 21) return ['evening', 'night'];
  return ['night'];
}

const stems = new Map(['morning', 'afternoon', 'evening', 'night'].map((part) => [part, analyzeWord(part) ?? part]));

/**
 * The parts of the day a text names by the clock ("I wind down by 9:30 pm" → evening, night) or by
 * a word for one ("tonight"), as analysed terms: so that "what can I do in the evening?" finds a
 * turn that only gives the time. Each part is given once per text.
 */
export function partOfDayTerms(text: string): string[] {
  const parts = new Set<string>();
  if (/\d/.test(text)) {
    for (const match of text.matchAll(clockTime)) {
      const hour = Number(match[1]);
      if (hour < 1 || hour > 12) continue;
      const pm = (match[3] as string).toLowerCase() === 'p';
      for (const part of partsOfHour((hour % 12) + (pm ? 12 : 0))) parts.add(part);
    }
  }
  for (const [pattern, named] of namedParts) if (pattern.test(text)) for (const part of named) parts.add(part);
  return [...parts].map((part) => stems.get(part) as string);
}
