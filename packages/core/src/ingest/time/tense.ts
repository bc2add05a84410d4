/**
 * A cheap tense guess around a time expression, used to pick the occurrence of an expression that
 * does not say which one it means ("in May", "on Friday", "at Christmas"): past tense → the most
 * recent one, future tense → the coming one, unknown → the closest one (or, for weekdays, the
 * coming one).
 */

/** Grammatical direction of the clause around an expression. */
export type Tense = 'past' | 'future' | 'unknown';

const FUTURE_MARKERS =
  /\b(?:will|shall|won't|wont|gonna|going to|plan(?:s|ning)? to|planning|hop(?:e|es|ing) to|want(?:s)? to|wanna|would like to|intend(?:s|ing)? to|scheduled|upcoming|tomorrow|next|soon|can't wait|cannot wait|looking forward|about to|thinking of|thinking about)\b|['’]ll\b/gi;

const IRREGULAR_PAST =
  'was|wasn\'t|wasnt|were|weren\'t|did|didn\'t|didnt|had|built|hadn\'t|went|got|came|made|took|saw|met|ran|began|bought|brought|caught|felt|found|gave|heard|kept|left|lost|paid|said|sang|sat|sent|spent|spoke|stood|taught|thought|told|won|wrote|ate|drove|flew|grew|knew|threw|wore|been|gone|seen|done|ago|yesterday|used to|fell|forgot|held|hung|led|let|meant|rode|rose|sold|shot|slept|swam|took|understood|woke|broke|chose|drew|drank|fought|hid|hit|hurt|lit|put|quit|read|shut|stuck|struck';
const PAST_MARKERS = new RegExp(`\\b(?:${IRREGULAR_PAST})\\b|\\b[a-z]{2,}ed\\b`, 'gi');
/** Words ending in -ed that are not past tense. */
const NOT_PAST = new Set([
  'need', 'feed', 'speed', 'seed', 'indeed', 'breed', 'weed', 'bleed', 'exceed', 'proceed', 'succeed',
  'bed', 'red', 'shed', 'wed', 'hundred', 'sacred', 'naked', 'wicked', 'kindred', 'greed', 'deed',
  'reed', 'steed', 'embed', 'tweed', 'ted', 'ned', 'fred', 'jared', 'med', 'ed', 'interested',
  'excited', 'married', 'tired', 'scheduled',
]);

interface Marker {
  index: number;
  end: number;
  tense: Exclude<Tense, 'unknown'>;
}

function markers(text: string): Marker[] {
  const found: Marker[] = [];
  for (const match of text.matchAll(FUTURE_MARKERS)) {
    found.push({ index: match.index, end: match.index + match[0].length, tense: 'future' });
  }
  for (const match of text.matchAll(PAST_MARKERS)) {
    if (NOT_PAST.has(match[0].toLowerCase())) continue;
    found.push({ index: match.index, end: match.index + match[0].length, tense: 'past' });
  }
  return found;
}

/** Offsets of the sentence boundaries of a text (`.`, `!`, `?`, `;`, line breaks), ascending. */
function boundaryOffsets(text: string): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(/[.!?;\n]/g)) out.push(match.index);
  return out;
}

/** Number of items of a sorted array that are below `value`. */
function countBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? 0) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `[start, end)` of the sentence holding `text[index, end)`. */
function sentenceBounds(boundaries: readonly number[], length: number, index: number, end: number): [number, number] {
  const before = countBelow(boundaries, index);
  const start = before === 0 ? 0 : (boundaries[before - 1] ?? -1) + 1;
  const stop = boundaries[countBelow(boundaries, end)] ?? length;
  return [start, stop];
}

/**
 * Returns a guesser for the tense of the clause around `text[index, end)`: the nearest tense
 * marker before the expression in its sentence decides, else the nearest one after it; markers
 * inside the expression itself are ignored. It answers `unknown` when the sentence has none.
 * Markers and sentence boundaries are found once per text, lazily; each query is logarithmic.
 */
export function tenseGuesser(text: string): (index: number, end: number) => Tense {
  let found: { markers: Marker[]; starts: number[]; boundaries: number[] } | undefined;
  return (index, end) => {
    if (found === undefined) {
      const sorted = markers(text).sort((a, b) => a.index - b.index);
      found = { markers: sorted, starts: sorted.map((m) => m.index), boundaries: boundaryOffsets(text) };
    }
    const { markers: all, starts, boundaries } = found;
    const [sentenceStart, sentenceEnd] = sentenceBounds(boundaries, text.length, index, end);
    for (let i = countBelow(starts, index) - 1; i >= 0; i -= 1) {
      const marker = all[i];
      if (marker === undefined || marker.index < sentenceStart) break;
      if (marker.end <= index) return marker.tense;
    }
    for (let i = countBelow(starts, end); i < all.length; i += 1) {
      const marker = all[i];
      if (marker === undefined || marker.end > sentenceEnd) break;
      return marker.tense;
    }
    return 'unknown';
  };
}

const HABITUAL_SOURCE = String.raw`\b(?:usually|always|often|typically|normally|generally|tend to|tends to|every|each|whenever|sometimes|most\s+(?:days|weeks|weekends|years))\b`;
const HABITUAL_ALL = new RegExp(HABITUAL_SOURCE, 'gi');
const HABITUAL = new RegExp(HABITUAL_SOURCE, 'i');

/**
 * Returns a test for habitual or generic clauses ("we usually go camping in the summer", "every
 * Friday"): a bare recurring expression there names no particular occurrence.
 */
export function habitualGuesser(text: string): (index: number, end: number) => boolean {
  if (!HABITUAL.test(text)) return () => false;
  const boundaries = boundaryOffsets(text);
  const positions = [...text.matchAll(HABITUAL_ALL)].map((match) => match.index);
  return (index, end) => {
    const [start, stop] = sentenceBounds(boundaries, text.length, index, end);
    return countBelow(positions, stop) > countBelow(positions, start);
  };
}
