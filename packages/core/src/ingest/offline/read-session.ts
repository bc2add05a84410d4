import { hashedVector, type HashedEmbedding } from '../../embed/hashed-embedder.js';
import type { ConversationSession, ConversationTurn } from '../conversation.js';
import { turnText } from '../turn-units.js';
import type { TimeMention } from '../time/index.js';
import { analyseSession, type TurnAnalysis } from './analyse-session.js';
import { episodeText } from './build-episodes.js';
import { findFacts, type FactCandidate } from './fact-patterns.js';
import type { Lexicon } from './lexicon.js';
import type { MentionKind } from './mentions.js';
import { restate } from './restate.js';
import { segmentEpisodes, type SegmentTurn } from './segment.js';
import type { Token } from './tagged-text.js';

/** What reading a session needs: its messages, who takes part, and when it was said. */
export interface SessionReadingInput {
  /** The session's messages, in order. */
  turns: ReadonlyArray<ConversationTurn>;
  /** Everyone who speaks in the conversation (display names). */
  speakerNames: ReadonlyArray<string>;
  /** The session date relative times resolve against, when known. */
  reference: string | undefined;
  /** Embed each message's turn text with the hashed embedder of these settings (the reader worker does; see {@link embedTurns}). */
  embed?: HashedEmbedding;
  /**
   * With `embed`: also segment the messages into episodes and embed the episodes' texts, as the
   * distiller would when every message is new (the reader worker does; see {@link planEpisodes}).
   */
  episodes?: EpisodePlanSettings;
}

/** How the distiller segments and words episodes: what {@link planEpisodes} needs to do the same. */
export interface EpisodePlanSettings {
  /** Most messages in one episode (the distiller's `maxEpisodeTurns`). */
  maxTurns: number | undefined;
  /** The session's day (`YYYY-MM-DD`) that starts each episode's text, when known. */
  day: string | undefined;
}

/** A session's episodes as the distiller would cut them when every message is new, with their texts' vectors. */
export interface EpisodePlan {
  /** The settings it was made with. */
  settings: EpisodePlanSettings;
  /** Index ranges `[start, end)` into the session's messages. */
  ranges: Array<[number, number]>;
  /** Each episode's text embedded as `input.embed` asks, in the order of `ranges`. */
  vectors: Float32Array<ArrayBuffer>[];
}

/** A first-person fact a message states, with the sentence it stands in. */
export interface FactReading extends FactCandidate {
  /** Character range of the sentence in the message. */
  from: number;
  to: number;
  /** The sentence restated self-contained. */
  restated: string;
}

/**
 * Everything the distiller keeps of one message's language analysis: plain data, independent of
 * what memory holds (so a session reads the same whenever it is read).
 */
export interface TurnReading extends Pick<TurnAnalysis, 'index' | 'speakers' | 'times' | 'vagueTimes' | 'restated' | 'cues' | 'sentenceTags' | 'stems'> {
  /** The names it mentions (for aliases of the listener). */
  mentions: Array<{ name: string; kind: MentionKind; kin: string | undefined }>;
  /** Number of word tokens. */
  words: number;
  /** Ends with a question. */
  asks: boolean;
  /** The first-person facts it states. */
  facts: FactReading[];
  /** Its turn unit's vector, when the reader was asked to embed and did (see {@link SessionReadingInput.embed}). */
  vector?: Float32Array<ArrayBuffer>;
}

/**
 * What reading a session takes; the reference is the session date, as `sessionTurnUnits` dates the
 * session span (so its day is the episodes' day). With turn vectors asked for, the episodes are
 * planned and embedded by the reader too.
 */
export function readingInput(conversation: { speakers: ReadonlyArray<string> }, session: ConversationSession, embed: HashedEmbedding | undefined, maxEpisodeTurns: number | undefined): SessionReadingInput {
  const names = new Set<string>(conversation.speakers);
  for (const turn of session.turns) names.add(turn.speaker);
  const speakerNames = [...names];
  const reference = session.turns.length === 0 ? undefined : (session.date ?? session.turns.find((turn) => turn.timestamp)?.timestamp);
  if (embed === undefined) return { turns: session.turns, speakerNames, reference };
  return { turns: session.turns, speakerNames, reference, embed, episodes: { maxTurns: maxEpisodeTurns, day: reference?.slice(0, 10) } };
}

/**
 * The turn texts of the session's messages embedded as `input.embed` asks, one row per message
 * in one buffer (what the reader worker hands back with its readings); `undefined` when not asked.
 */
export function embedTurns(input: SessionReadingInput): Float32Array<ArrayBuffer> | undefined {
  const settings = input.embed;
  if (settings === undefined) return undefined;
  const out = new Float32Array(input.turns.length * settings.dimensions);
  input.turns.forEach((turn, index) => out.set(hashedVector(turnText(turn), settings), index * settings.dimensions));
  return out;
}

/** Gives each reading its message's row of `vectors` (from {@link embedTurns}): a view, no copy (the store copies what it keeps). */
export function attachTurnVectors(readings: ReadonlyArray<TurnReading>, vectors: Float32Array<ArrayBuffer>, dimensions: number): void {
  for (const reading of readings) reading.vector = vectors.subarray(reading.index * dimensions, (reading.index + 1) * dimensions);
}

/** Read messages as segmentation sees them. */
export function segmentTurns(read: ReadonlyArray<{ turn: ConversationTurn; reading: TurnReading }>): SegmentTurn[] {
  // Pushed, not mapped (see `planEpisodes`).
  const out: SegmentTurn[] = [];
  for (const { turn, reading } of read) out.push({ speaker: turn.speaker, stems: reading.stems, asks: reading.asks, words: reading.words });
  return out;
}

/**
 * The episodes the distiller cuts from a session whose messages are all new — the same
 * segmentation and texts — with the texts embedded as `input.embed` asks, all rows in one buffer
 * (the reader worker makes them, off the distilling thread); `undefined` when not asked.
 */
export function planEpisodes(input: SessionReadingInput, readings: ReadonlyArray<TurnReading>): { ranges: Array<[number, number]>; vectors: Float32Array<ArrayBuffer> } | undefined {
  const settings = input.embed;
  const plan = input.episodes;
  if (settings === undefined || plan === undefined) return undefined;
  // Arrays pushed one by one: an array made by `map` has another shape in optimised code than in
  // the interpreter, and the functions it reaches would be re-optimised for it.
  const read: Array<{ turn: ConversationTurn; reading: TurnReading }> = [];
  for (const reading of readings) read.push({ turn: input.turns[reading.index] as ConversationTurn, reading });
  const ranges = segmentEpisodes(segmentTurns(read), plan.maxTurns === undefined ? {} : { maxTurns: plan.maxTurns });
  const out = new Float32Array(ranges.length * settings.dimensions);
  for (let index = 0; index < ranges.length; index++) {
    const range = ranges[index] as [number, number];
    const parts: Array<{ speaker: string; restated: string }> = [];
    for (let at = range[0]; at < range[1]; at++) {
      const { turn, reading } = read[at] as { turn: ConversationTurn; reading: TurnReading };
      parts.push({ speaker: turn.speaker, restated: reading.restated });
    }
    out.set(hashedVector(episodeText(plan.day, parts), settings), index * settings.dimensions);
  }
  return { ranges, vectors: out };
}

function sentenceRange(analysis: TurnAnalysis, sentence: number): [number, number] | undefined {
  const range = analysis.tagged.sentences[sentence];
  if (range === undefined) return undefined;
  return [(analysis.tagged.tokens[range[0]] as Token).start, (analysis.tagged.tokens[range[1] - 1] as Token).end];
}

function readFacts(analysis: TurnAnalysis, lexicon: Lexicon): FactReading[] {
  const out: FactReading[] = [];
  for (const candidate of findFacts(analysis.tagged.tokens, analysis.tagged.sentences, lexicon)) {
    const range = sentenceRange(analysis, candidate.sentence);
    if (range === undefined) {
      out.push({ ...candidate, from: 0, to: analysis.turn.text.length, restated: analysis.restated });
      continue;
    }
    const [from, to] = range;
    const [first, last] = analysis.tagged.sentences[candidate.sentence] as [number, number];
    // Copies written out in the originals' key order (as `tagText` and the time module make them),
    // so that `restate` sees one shape of each: a spread copy has another and costs a re-optimisation.
    const tokens: Token[] = [];
    for (let index = first; index < last; index++) {
      const token = analysis.tagged.tokens[index] as Token;
      tokens.push({ text: token.text, lower: token.lower, start: token.start - from, end: token.end - from, sentence: token.sentence, pos: token.pos, capital: token.capital, initial: token.initial, possessive: token.possessive, gender: token.gender });
    }
    const times: TimeMention[] = [];
    for (const time of analysis.times) if (time.index >= from && time.index < to) times.push({ text: time.text, index: time.index - from, interval: time.interval });
    const restated = restate(analysis.turn.text.slice(from, to), tokens, analysis.speakers, analysis.referents, times, lexicon);
    out.push({ ...candidate, from, to, restated });
  }
  return out;
}

/**
 * Reads every message of a session: the language work of the offline distiller (tagging, names,
 * times, restatements, verb-phrase tags, first-person facts), which needs nothing from memory.
 */
export function readSession(input: SessionReadingInput, lexicon: Lexicon): TurnReading[] {
  const analyses = analyseSession(input, input.speakerNames, input.reference, lexicon);
  return analyses.map((analysis) => ({
    index: analysis.index,
    speakers: analysis.speakers,
    mentions: analysis.mentions.map((mention) => ({ name: mention.name, kind: mention.kind, kin: mention.kin })),
    times: analysis.times,
    vagueTimes: analysis.vagueTimes,
    restated: analysis.restated,
    cues: analysis.cues,
    sentenceTags: analysis.sentenceTags,
    stems: analysis.stems,
    words: analysis.tagged.tokens.filter((token) => token.pos !== 'punct').length,
    asks: /\?\s*$/.test(analysis.turn.text),
    facts: readFacts(analysis, lexicon),
  }));
}
