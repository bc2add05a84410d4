import type { TimeInterval } from '../../model/time.js';
import type { TimeMention } from '../time/index.js';
import type { Lexicon } from './lexicon.js';
import type { Mention } from './mentions.js';
import type { Token } from './tagged-text.js';

/** A person a third-person pronoun may refer to. */
export interface Referent {
  /** How to name it in a restatement (`Caroline's sister`, `John`). */
  name: string;
  /** Its gender, when known; unknown gender makes every pronoun ambiguous. */
  gender: 'female' | 'male' | undefined;
}

/** Who is talking to whom, for first and second person. */
export interface Speakers {
  /** The speaker of the message. */
  speaker: string;
  /** The one person addressed, in a two-party conversation; `undefined` otherwise. */
  listener: string | undefined;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const FIRST: ReadonlyMap<string, (name: string) => string> = new Map(Object.entries({
  i: (name: string) => name, me: (name: string) => name, myself: (name: string) => name, my: (name: string) => `${name}'s`, mine: (name: string) => `${name}'s`,
  "i'm": (name: string) => `${name} is`, "i've": (name: string) => `${name} has`, "i'll": (name: string) => `${name} will`, "i'd": (name: string) => `${name} would`,
}));
const SECOND: ReadonlyMap<string, (name: string) => string> = new Map(Object.entries({
  you: (name: string) => name, yourself: (name: string) => name, your: (name: string) => `${name}'s`, yours: (name: string) => `${name}'s`,
  "you're": (name: string) => `${name} is`, "you've": (name: string) => `${name} has`, "you'll": (name: string) => `${name} will`, "you'd": (name: string) => `${name} would`,
}));
const THIRD: ReadonlyMap<string, 'female' | 'male'> = new Map([
  ['she', 'female'], ['her', 'female'], ['hers', 'female'], ['herself', 'female'], ['he', 'male'], ['him', 'male'], ['his', 'male'], ['himself', 'male'],
]);
/** First/second-person verb forms and their third-person agreement. */
const AGREEMENT: ReadonlyMap<string, string> = new Map([
  ['am', 'is'], ['are', 'is'], ['were', 'was'], ['have', 'has'], ['do', 'does'], ["don't", "doesn't"], ["haven't", "hasn't"],
  ["aren't", "isn't"], ["weren't", "wasn't"],
]);
const INVERTED: ReadonlyMap<string, string> = new Map([...AGREEMENT].filter(([form]) => form !== "weren't"));
const PLURAL_YOU = new Set(['guys', 'all', 'both', 'two', 'folks']);

function keepCase(original: string, replacement: string): string {
  const first = original.charAt(0);
  return first !== first.toLowerCase() ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}

function agree(tokens: Token[], subject: number, lexicon: Lexicon, edits: Edit[]): void {
  // "did you go", "can I ask", "let me": the verb after the subject stays in its base form.
  const before = tokens[subject - 1];
  if (before !== undefined && before.sentence === tokens[subject]?.sentence
    && (before.pos === 'aux' || before.pos === 'modal' || before.pos === 'copula' || before.lower === 'to' || before.lower === 'let')) return;
  let index = subject + 1;
  while (tokens[index]?.pos === 'adverb' && index < subject + 3) index += 1;
  const verb = tokens[index];
  if (verb === undefined || verb.sentence !== tokens[subject]?.sentence) return;
  const agreed = AGREEMENT.get(verb.lower);
  if (agreed !== undefined) edits.push({ start: verb.start, end: verb.end, text: agreed });
  else if (verb.pos === 'verb' && lexicon.infinitive(verb.lower) === verb.lower) edits.push({ start: verb.start, end: verb.end, text: lexicon.thirdPerson(verb.lower) });
}

/** Renders an interval for a restatement: `2023-05-07`, `2023-05`, `2022`, `week of 2023-05-01`, `2023-05-01 to 2023-05-07`. */
export function renderInterval(interval: TimeInterval): string {
  const start = interval.start.slice(0, 10);
  const end = interval.end.slice(0, 10);
  switch (interval.granularity) {
    case 'instant':
    case 'day':
      return start === end ? start : `${start} to ${end}`;
    case 'week':
      return `week of ${start}`;
    case 'month':
      return start.slice(0, 7) === end.slice(0, 7) ? start.slice(0, 7) : `${start.slice(0, 7)} to ${end.slice(0, 7)}`;
    case 'year':
      return start.slice(0, 4) === end.slice(0, 4) ? start.slice(0, 4) : `${start.slice(0, 4)} to ${end.slice(0, 4)}`;
    default:
      return `${start} to ${end}`;
  }
}

/**
 * Resolves the third-person pronouns a single referent explains: the one candidate of matching
 * gender (a candidate of unknown gender makes it ambiguous). Returns the referent or `undefined`.
 */
export function resolveThirdPerson(gender: 'female' | 'male', candidates: ReadonlyArray<Referent>): Referent | undefined {
  const names = new Map<string, Referent>();
  for (const candidate of candidates) {
    if (candidate.gender === undefined || candidate.gender === gender) names.set(candidate.name.toLowerCase(), candidate);
  }
  if (names.size !== 1) return undefined;
  const only = [...names.values()][0] as Referent;
  return only.gender === gender ? only : undefined;
}

/**
 * Restates a message self-contained: first person becomes the speaker's name, second person the
 * listener's (two-party chats only; "you guys" is left alone), he/she/him/her/his the one
 * recent person of matching gender when there is exactly one, with verb agreement ("I love" →
 * "Caroline loves", "are you" → "is Melanie"); each relative time expression gets its absolute
 * date in brackets ("yesterday (2023-05-07)").
 */
export function restate(
  text: string,
  tokens: Token[],
  speakers: Speakers,
  referents: ReadonlyArray<Referent>,
  times: ReadonlyArray<TimeMention>,
  lexicon: Lexicon,
): string {
  const edits: Edit[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    const previous = tokens[index - 1];
    const inverted = previous !== undefined && previous.sentence === token.sentence ? INVERTED.get(previous.lower) : undefined;
    const first = FIRST.get(token.lower);
    if (first !== undefined) {
      edits.push({ start: token.start, end: token.end, text: first(speakers.speaker) });
      if (token.lower === 'i') {
        if (inverted !== undefined && previous) edits.push({ start: previous.start, end: previous.end, text: keepCase(previous.text, inverted) });
        else agree(tokens, index, lexicon, edits);
      }
      continue;
    }
    const second = speakers.listener === undefined ? undefined : SECOND.get(token.lower);
    if (second !== undefined && speakers.listener !== undefined) {
      if (token.lower === 'you' && PLURAL_YOU.has(tokens[index + 1]?.lower ?? '')) continue;
      edits.push({ start: token.start, end: token.end, text: keepCase(token.text, second(speakers.listener)) });
      if (token.lower === 'you') {
        if (inverted !== undefined && previous) edits.push({ start: previous.start, end: previous.end, text: keepCase(previous.text, inverted) });
        else agree(tokens, index, lexicon, edits);
      }
      continue;
    }
    const gender = THIRD.get(token.lower);
    if (gender !== undefined) {
      const referent = resolveThirdPerson(gender, referents);
      if (referent === undefined) continue;
      const next = tokens[index + 1];
      const possessive = token.lower === 'his' || token.lower === 'hers'
        || (token.lower === 'her' && next !== undefined && next.sentence === token.sentence
          && ['noun', 'plural', 'adjective', 'gerund', 'proper', 'value', 'person'].includes(next.pos));
      const name = referent.name.replace(/^./, (letter) => letter.toUpperCase());
      edits.push({ start: token.start, end: token.end, text: possessive ? `${name}'s` : name });
    }
  }
  for (const time of times) {
    if (/\b\d{4}\b/.test(time.text) && time.interval.granularity !== 'week') continue;
    const end = time.index + time.text.length;
    edits.push({ start: end, end, text: ` (${renderInterval(time.interval)})` });
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let cursor = 0;
  for (const edit of edits) {
    if (edit.start < cursor) continue;
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

/** The referent a mention names, as written in restatements, or `undefined` when it is not a person. */
export function referentOf(mention: Mention, speakers: Speakers, displayName: (name: string) => string): Referent | undefined {
  if (mention.kind !== 'person') return undefined;
  if (mention.kin === undefined) return { name: displayName(mention.name), gender: mention.gender };
  const owner = mention.possessor === 'my' ? speakers.speaker
    : mention.possessor === 'your' ? speakers.listener
      : mention.possessor !== undefined && !['his', 'her', 'their', 'our'].includes(mention.possessor) ? displayName(mention.possessor)
        : undefined;
  if (owner === undefined) return undefined;
  return { name: `${owner}'s ${mention.kin}`, gender: mention.gender };
}
