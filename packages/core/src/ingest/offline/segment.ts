/** What segmentation needs to know about a message. */
export interface SegmentTurn {
  /** Speaker name. */
  speaker: string;
  /** Content stems (cue names, main verbs). */
  stems: ReadonlySet<string>;
  /** Ends with a question. */
  asks: boolean;
  /** Number of word tokens. */
  words: number;
}

/** Options of {@link segmentEpisodes}. */
export interface SegmentOptions {
  /** Most messages in one episode. @default 4 */
  maxTurns?: number;
  /** A message of at most this many words with no content joins the current episode. @default 6 */
  shortTurnWords?: number;
  /** Most words in one episode: a message that would pass it starts a new one. @default 300 */
  maxWords?: number;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let count = 0;
  for (const stem of a) if (b.has(stem)) count += 1;
  return count;
}

/**
 * Groups consecutive messages into small episodes. A message joins the current episode when the
 * episode has room and the message continues it: it shares a content stem with the episode, it
 * is a short reaction without content of its own ("Thanks!", "Wow, that's great"), or it answers
 * the question that a one-message episode asked — and the episode stays under `maxTurns` messages
 * and `maxWords` words. Anything else starts a new episode. Returns the
 * episodes as index ranges `[start, end)` into `turns`.
 */
export function segmentEpisodes(turns: ReadonlyArray<SegmentTurn>, options: SegmentOptions = {}): Array<[number, number]> {
  const maxTurns = options.maxTurns ?? 4;
  const shortWords = options.shortTurnWords ?? 6;
  const maxWords = options.maxWords ?? 300;
  const episodes: Array<[number, number]> = [];
  let start = 0;
  let words = 0;
  let stems = new Set<string>();
  turns.forEach((turn, index) => {
    if (index === start) {
      stems = new Set(turn.stems);
      words = turn.words;
      return;
    }
    const previous = turns[index - 1] as SegmentTurn;
    const size = index - start;
    const shared = overlap(turn.stems, stems);
    const short = turn.words <= shortWords && turn.stems.size <= 1;
    const answers = size === 1 && previous.asks && previous.speaker !== turn.speaker;
    const continues = size < maxTurns && words + turn.words <= maxWords && (shared > 0 || short || answers);
    if (!continues) {
      episodes.push([start, index]);
      start = index;
      stems = new Set(turn.stems);
      words = turn.words;
      return;
    }
    words += turn.words;
    for (const stem of turn.stems) stems.add(stem);
  });
  if (turns.length > start) episodes.push([start, turns.length]);
  return episodes;
}
