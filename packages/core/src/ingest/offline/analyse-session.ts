import { EngramError } from '../../errors/engram-error.js';
import type { CueKind } from '../../model/graph.js';
import { normalizeName } from '../../model/graph.js';
import type { TimeInterval } from '../../model/time.js';
import type { ConversationTurn } from '../conversation.js';
import { extractTimeMentions, type TimeMention } from '../time/index.js';
import type { Lexicon } from './lexicon.js';
import { findMentions, type Mention } from './mentions.js';
import { referentOf, restate, type Referent, type Speakers } from './restate.js';
import { sentenceTokens, tagText, type TaggedText } from './tagged-text.js';
import { verbPhraseTag } from './verb-phrase.js';
import { remembered } from '../../util/remembered.js';

/** One cue named in a message. */
export interface CueOccurrence {
  /** Normalised cue name (before alias resolution against memory). */
  name: string;
  /** What it stands for. */
  kind: CueKind;
  /** Sentence it appears in (`-1`: the message as a whole, e.g. its speaker). */
  sentence: number;
}

/** Everything the distiller reads from one message. */
export interface TurnAnalysis {
  /** The source turn. */
  turn: ConversationTurn;
  /** Position in the session. */
  index: number;
  /** Who speaks and who listens. */
  speakers: Speakers;
  /** Tokens and sentences. */
  tagged: TaggedText;
  /** Entities and things it names. */
  mentions: Mention[];
  /** Resolved time expressions, in text order. */
  times: TimeMention[];
  /** Time-like words that could not be resolved ("recently", "the other day"). */
  vagueTimes: number;
  /** The message restated self-contained (speaker named, pronouns and relative dates resolved). */
  restated: string;
  /** Cue names with the sentence each first appears in. */
  cues: CueOccurrence[];
  /** Verb-phrase tag of each sentence (`undefined` where a sentence has none). */
  sentenceTags: Array<string | undefined>;
  /** Content stems for segmentation (cue names and main verbs, speakers excluded). */
  stems: Set<string>;
  /** The person names a later message's he/she may refer to. */
  referents: Referent[];
}

const VAGUE_TIME = /\b(?:recently|lately|soon|the other day|a while (?:ago|back)|years ago|one day|these days|nowadays|the next day|the day before|that (?:day|week|weekend|month|summer|year)|the following (?:day|week|month|year)|back then|earlier|some time ago|long ago)\b/gi;
const LIGHT_VERBS = new Set(['be', 'have', 'do', 'get', 'go', 'make', 'know', 'think', 'feel', 'say', 'tell', 'see', 'look', 'want', 'need', 'let', 'take', 'thank', 'love', 'like', 'hope', 'sound', 'seem', 'mean', 'keep', 'try', 'come', 'wait', 'glad', 'can']);

const WORD_START = /(^|[\s-])(\p{L})/gu;

/** `Caroline`, `Caroline's sister`: names as shown in restatements (`speakers` by normalised name). */
export function displayName(name: string, speakers: ReadonlyMap<string, string>): string {
  const speaker = speakers.get(name);
  if (speaker !== undefined) return speaker;
  return remembered(capitalised, 10_000, name, capitalise);
}

/** Each word of a name with a capital letter ("maple street" → "Maple Street"). */
function capitalise(name: string): string {
  return name.replace(WORD_START, (_, space: string, letter: string) => `${space}${letter.toUpperCase()}`).replace(/'S\b/g, "'s");
}

/** Names capitalised by {@link displayName} (the same names come up in every session); bounded. */
const capitalised = new Map<string, string>();

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The time cue of an interval: `may 2023` (the month it starts in) or `2022` for a year. */
export function timeCueName(interval: TimeInterval): string {
  const year = interval.start.slice(0, 4);
  if (interval.granularity === 'year') return year;
  return `${MONTHS[Number(interval.start.slice(5, 7)) - 1] ?? ''} ${year}`.trim();
}

/**
 * Words without which no time expression can be read (checked on the whole corpus of LoCoMo: no
 * resolved expression lacks one). Skipping the time rules for the other messages saves most of
 * their cost. Month and decade words are the forms the time rules read (`MONTHS`, "cinco de
 * mayo", the nineties), not every word starting like one: "Maria", "maybe", "decided" and
 * "activities" open no time expression.
 */
const TIME_GATE =
  /\d|\b(?:yesterday|today|tonight|tomorrow|nights?|mornings?|afternoons?|evenings?|days?|weeks?|weekends?|fortnights?|months?|years?|decades?|centur(?:y|ies)|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|mayo?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)|spring|summer|autumn|fall|winter|christmas|xmas|easter|thanksgiving|halloween|valentine'?s?|juneteenth|hanukkah|diwali|ramadan|new year'?s?|(?:twen|thir|for|fif|six|seven|eigh|nine)ties|eve|noon|midnight|season)\b/i;

/** Most cues one message contributes: long messages (an assistant's essay) name dozens of things. */
const MAX_CUES_PER_TURN = 16;
const KIND_RANK: Readonly<Record<string, number>> = { person: 0, place: 1, organisation: 2, entity: 3, thing: 4 };

/** Keeps every mention of a message's most salient names: people and places first, then the things named most often. */
function capMentions(mentions: Mention[]): Mention[] {
  const names = new Map<string, { mention: Mention; count: number; first: number }>();
  mentions.forEach((mention, index) => {
    const entry = names.get(mention.name);
    if (entry === undefined) names.set(mention.name, { mention, count: 1, first: index });
    else entry.count += 1;
  });
  if (names.size <= MAX_CUES_PER_TURN) return mentions;
  const kept = new Set(
    [...names.values()]
      .sort((a, b) => (KIND_RANK[a.mention.kind] ?? 5) - (KIND_RANK[b.mention.kind] ?? 5) || b.count - a.count || a.first - b.first)
      .slice(0, MAX_CUES_PER_TURN)
      .map((entry) => entry.mention.name),
  );
  return mentions.filter((mention) => kept.has(mention.name));
}

/** False when `text` holds no word a time expression needs (then the time rules are skipped). */
export function mayMentionTime(text: string): boolean {
  return TIME_GATE.test(text);
}

function timesOf(text: string, reference: string | undefined): TimeMention[] {
  if (reference === undefined || !TIME_GATE.test(text)) return [];
  try {
    return extractTimeMentions(text, reference);
  } catch (error) {
    // A session date the time module cannot read leaves the turn without resolved times.
    if (EngramError.isInstance(error)) return [];
    throw error;
  }
}

/**
 * Analyses every message of a session in order: tags, mentions, time expressions against the
 * session date, third-person referents carried over from the previous message, the restatement,
 * the cue occurrences and a verb-phrase tag per sentence.
 */
export function analyseSession(
  session: { turns: ReadonlyArray<ConversationTurn> },
  speakerNames: ReadonlyArray<string>,
  reference: string | undefined,
  lexicon: Lexicon,
): TurnAnalysis[] {
  const normalised = new Map(speakerNames.map((name) => [name, normalizeName(name)]));
  const byNormalised = new Map(speakerNames.map((name) => [normalizeName(name), name]));
  const normalisedSpeakers = [...byNormalised.keys()];
  const show = (name: string) => displayName(name, byNormalised);
  const normal = (name: string) => {
    let out = normalised.get(name);
    if (out === undefined) {
      out = normalizeName(name);
      normalised.set(name, out);
    }
    return out;
  };
  const out: TurnAnalysis[] = [];
  let previousReferents: Referent[] = [];
  session.turns.forEach((turn, index) => {
    const listener = speakerNames.length === 2 ? speakerNames.find((name) => name !== turn.speaker) : undefined;
    const speakers: Speakers = { speaker: turn.speaker, listener };
    const tagged = tagText(turn.text, lexicon);
    const mentions = findMentions(tagged, lexicon);
    const times = timesOf(turn.text, reference);
    let vagueTimes = 0;
    for (const match of turn.text.matchAll(VAGUE_TIME)) {
      if (!times.some((time) => time.index <= match.index && match.index < time.index + time.text.length)) vagueTimes += 1;
    }
    const own = new Set([normal(turn.speaker), ...(listener ? [normal(listener)] : [])]);
    const referents: Referent[] = [];
    for (let at = 0; at < mentions.length; at++) {
      const mention = mentions[at] as Mention;
      // "my brother Tom" is one person: the name stands for the kinship word before it.
      const next = mentions[at + 1];
      if (mention.kin !== undefined && next?.kind === 'person' && next.kin === undefined && next.start === mention.end) continue;
      const referent = referentOf(mention, speakers, show);
      if (referent !== undefined && !own.has(normal(referent.name))) referents.push(referent);
    }
    const candidates = [...previousReferents.filter((referent) => !own.has(normal(referent.name))), ...referents];
    let restated = restate(turn.text, tagged.tokens, speakers, candidates, times, lexicon);
    if (turn.imageCaption) restated += ` [${turn.speaker} shared an image: ${turn.imageCaption}]`;

    const cues: CueOccurrence[] = [{ name: normal(turn.speaker), kind: 'person', sentence: -1 }];
    const stems = new Set<string>();
    for (const mention of capMentions(mentions)) {
      let name = mention.name;
      let kind: CueKind = mention.kind;
      if (mention.kin !== undefined) {
        // "my sister" → "caroline's sister"; a kinship word without a known owner is no cue.
        const referent = referentOf(mention, speakers, show);
        if (referent === undefined) continue;
        name = normal(referent.name);
      }
      cues.push({ name, kind, sentence: mention.sentence });
      if (!normalisedSpeakers.includes(name)) stems.add(name);
    }
    for (const time of times) {
      const sentence = tagged.tokens.find((token) => token.start >= time.index)?.sentence ?? -1;
      cues.push({ name: timeCueName(time.interval), kind: 'time', sentence });
    }
    const sentenceTags = tagged.sentences.map((_, sentence) => verbPhraseTag(sentenceTokens(tagged, sentence), lexicon));
    for (const token of tagged.tokens) {
      if (token.pos === 'verb' || token.pos === 'past') {
        const lemma = lexicon.infinitive(token.lower);
        if (!LIGHT_VERBS.has(lemma)) stems.add(lemma);
      }
    }
    out.push({ turn, index, speakers, tagged, mentions, times, vagueTimes, restated, cues, sentenceTags, stems, referents });
    previousReferents = referents;
  });
  return out;
}
