import type { Lexicon, Pos } from './lexicon.js';

/** One token of a message with its part of speech in context. */
export interface Token {
  /** As written (curly apostrophes straightened). */
  text: string;
  /** Lower case; a possessive `'s` is removed. */
  lower: string;
  /** Character offset in the message. */
  start: number;
  /** Offset just past the token. */
  end: number;
  /** Sentence number within the message, from 0. */
  sentence: number;
  /** Part of speech in context. */
  pos: Pos;
  /** Starts with an upper-case letter. */
  capital: boolean;
  /** First word of its sentence. */
  initial: boolean;
  /** Written with a possessive `'s` (`Caroline's`). */
  possessive: boolean;
  /** Gender of a first name, when the lexicon says. */
  gender: 'female' | 'male' | undefined;
}

/** A message split into tagged tokens and sentences. */
export interface TaggedText {
  /** The message. */
  text: string;
  /** Its tokens in order. */
  tokens: Token[];
  /** Token index ranges `[start, end)` of each sentence. */
  sentences: Array<[number, number]>;
}

const tokenPattern = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*|[.!?]+|[,;:()"…]|\n/gu;
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'who', 'people', 'kids', 'that', 'this', 'which', 'what', 'everything', 'something', 'nothing', 'there']);
const CONTRACTION_PRONOUN = /^(i|you|we|they|he|she|it|that|there|what|who|let|here)'(m|re|ve|ll|d|s)$/;
const PARTICLES = new Set(['out', 'up', 'off', 'back', 'down', 'around', 'over']);
const NOUNISH: ReadonlySet<Pos> = new Set(['noun', 'plural', 'proper']);
const BEFORE_NOUN: ReadonlySet<Pos> = new Set(['determiner', 'possessive', 'adjective']);

function contextTag(tokens: Token[], index: number, ambiguity: Array<string | undefined>): void {
  const token = tokens[index] as Token;
  // Reads stay in bounds: an out-of-bounds read costs a re-optimisation of this hot function.
  const previous = index > 0 ? tokens[index - 1] : undefined;
  const next = index + 1 < tokens.length ? tokens[index + 1] : undefined;
  const sameSentencePrevious = previous !== undefined && previous.sentence === token.sentence ? previous : undefined;
  const kind = ambiguity[index];
  const verbable = kind === 'Noun|Verb' || kind === 'Plural|Verb' || kind === 'Actor|Verb' || kind === 'Person|Verb';
  // Read up front for every token, so these comparisons see words with and without a class alike
  // (one made only on a rare branch sees too few kinds and costs a re-optimisation when it meets another).
  const pluralVerb = kind === 'Plural|Verb';
  const demonstrative = sameSentencePrevious !== undefined && (sameSentencePrevious.lower === 'that' || sameSentencePrevious.lower === 'this');
  if (sameSentencePrevious && BEFORE_NOUN.has(sameSentencePrevious.pos) && !(demonstrative && token.pos !== 'gerund')) {
    // "my work", "a visit", "the painting", "the adopted dog".
    if (token.pos === 'verb') token.pos = pluralVerb && token.lower.endsWith('s') ? 'plural' : 'noun';
    else if (token.pos === 'gerund' && sameSentencePrevious.pos !== 'adjective') token.pos = 'noun';
    else if (token.pos === 'past' && next !== undefined && NOUNISH.has(next.pos)) token.pos = 'adjective';
    return;
  }
  if (token.pos === 'adjective' && (kind === 'Adj|Past' || kind === 'Adj|Present' || kind === 'Adj|Gerund') && sameSentencePrevious) {
    // "we adopted", "she finally painted": a verb after its subject.
    const before = sameSentencePrevious.pos === 'adverb' ? (index > 1 ? tokens[index - 2] : undefined) : sameSentencePrevious;
    if (before && before.sentence === token.sentence && (SUBJECTS.has(before.lower) || before.pos === 'person')) {
      token.pos = kind === 'Adj|Past' ? 'past' : kind === 'Adj|Gerund' ? 'gerund' : 'verb';
      return;
    }
  }
  if (NOUNISH.has(token.pos) && token.pos !== 'proper' && verbable && sameSentencePrevious) {
    // "I work", "to paint", "can dance", "I really love".
    // "I work", "to paint", "can dance", "made me feel", "really blend", "check out".
    const before = sameSentencePrevious.pos === 'adverb' ? (index > 1 ? tokens[index - 2] : undefined) : sameSentencePrevious;
    const particle = next !== undefined && next.sentence === token.sentence && PARTICLES.has(next.lower);
    if (sameSentencePrevious.pos === 'adverb' || sameSentencePrevious.pos === 'pronoun' || particle
      || (before && before.sentence === token.sentence && (SUBJECTS.has(before.lower) || before.pos === 'modal' || before.lower === 'to'))) {
      token.pos = 'verb';
      return;
    }
  }
  if (token.pos === 'verb' && kind === 'Noun|Verb' && next !== undefined && NOUNISH.has(next.pos) && sameSentencePrevious
    && (NOUNISH.has(sameSentencePrevious.pos) || sameSentencePrevious.pos === 'adjective')) {
    // "LGBTQ support group": a noun modifier, not a verb.
    token.pos = 'noun';
  }
}

/** What a token is out of context: everything but its position, read once per spelling. */
interface Lexeme {
  /** As written, curly apostrophes straightened. */
  text: string;
  lower: string;
  possessive: boolean;
  capital: boolean;
  /** Punctuation; `closes` when it ends a sentence. */
  punct: boolean;
  closes: boolean;
  /** Part of speech and gender first in a sentence, and elsewhere. */
  initial: [Pos, 'female' | 'male' | undefined];
  inner: [Pos, 'female' | 'male' | undefined];
  /** The lexicon's ambiguity class. */
  kind: string | undefined;
}

const lexemes = new WeakMap<Lexicon, Map<string, Lexeme>>();
const LEXEME_LIMIT = 200_000;

function readLexeme(written: string, lexicon: Lexicon): Lexeme {
  const raw = written.replace(/’/g, "'");
  const first = raw.charAt(0);
  const capital = first !== first.toLowerCase();
  let lower = raw.toLowerCase();
  if (/^[.!?]+$/.test(raw) || /^[,;:()"…]$/.test(raw)) {
    const none: [Pos, undefined] = ['punct', undefined];
    return { text: raw, lower, possessive: false, capital: false, punct: true, closes: /^[.!?]/.test(raw), initial: none, inner: none, kind: undefined };
  }
  let possessive = false;
  if (CONTRACTION_PRONOUN.test(lower) || /n't$/.test(lower)) {
    const fixed: [Pos, undefined] = [CONTRACTION_PRONOUN.test(lower) ? 'pronoun' : 'aux', undefined];
    return { text: raw, lower, possessive, capital, punct: false, closes: false, initial: fixed, inner: fixed, kind: undefined };
  }
  if (lower.endsWith("'s")) {
    lower = lower.slice(0, -2);
    possessive = true;
  }
  const info = lexicon.info(lower);
  const kind = info.ambiguity;
  const at = (initial: boolean): [Pos, 'female' | 'male' | undefined] => {
    const pos = info.pos;
    if ((pos === 'person' || pos === 'place' || pos === 'org') && !capital) {
      // "will", "grace", "bill" written in lower case are ordinary words.
      // (`undefined` tested first: the class comparisons then only ever see strings.)
      return [kind === undefined ? 'noun' : kind === 'Person|Verb' ? 'verb' : kind === 'Person|Adj' ? 'adjective' : 'noun', undefined];
    }
    if (capital && !initial && raw !== 'I' && (!info.known || pos === 'noun' || pos === 'plural')) return ['proper', info.gender];
    if (capital && initial && !info.known && pos !== 'gerund' && pos !== 'adverb' && pos !== 'past') return ['proper', info.gender];
    return [pos, info.gender];
  };
  return { text: raw, lower, possessive, capital, punct: false, closes: false, initial: at(true), inner: at(false), kind };
}

/** The lexeme of a spelling, memoised per lexicon: chat reuses a small vocabulary. */
function lexemeOf(written: string, lexicon: Lexicon): Lexeme {
  let cache = lexemes.get(lexicon);
  if (cache === undefined) {
    cache = new Map();
    lexemes.set(lexicon, cache);
  }
  let lexeme = cache.get(written);
  if (lexeme === undefined) {
    if (cache.size >= LEXEME_LIMIT) cache.clear();
    lexeme = readLexeme(written, lexicon);
    cache.set(written, lexeme);
  }
  return lexeme;
}

/**
 * Tokenises and tags a message: lexicon part of speech, then a few context rules (a verb after a
 * determiner is a noun, a noun/verb word after a subject pronoun is a verb, names only when
 * capitalised, capitalised unknown words inside a sentence are proper nouns).
 */
export function tagText(text: string, lexicon: Lexicon): TaggedText {
  const tokens: Token[] = [];
  const ambiguity: Array<string | undefined> = [];
  const sentences: Array<[number, number]> = [];
  let sentence = 0;
  let sentenceStart = 0;
  const closeSentence = () => {
    if (tokens.length > sentenceStart) {
      sentences.push([sentenceStart, tokens.length]);
      sentence += 1;
    }
    sentenceStart = tokens.length;
  };
  for (const match of text.matchAll(tokenPattern)) {
    const written = match[0];
    if (written === '\n') {
      closeSentence();
      continue;
    }
    const start = match.index;
    const initial = tokens.length === sentenceStart;
    const lexeme = lexemeOf(written, lexicon);
    const end = start + lexeme.text.length;
    if (lexeme.punct) {
      tokens.push({ text: lexeme.text, lower: lexeme.lower, start, end, sentence, pos: 'punct', capital: false, initial, possessive: false, gender: undefined });
      ambiguity.push(undefined);
      if (lexeme.closes) closeSentence();
      continue;
    }
    const [pos, gender] = initial ? lexeme.initial : lexeme.inner;
    tokens.push({ text: lexeme.text, lower: lexeme.lower, start, end, sentence, pos, capital: lexeme.capital, initial, possessive: lexeme.possessive, gender });
    ambiguity.push(lexeme.kind);
  }
  closeSentence();
  for (let index = 0; index < tokens.length; index++) contextTag(tokens, index, ambiguity);
  return { text, tokens, sentences };
}

/** Tokens of sentence `index`. */
export function sentenceTokens(tagged: TaggedText, index: number): Token[] {
  const range = tagged.sentences[index];
  return range === undefined ? [] : tagged.tokens.slice(range[0], range[1]);
}
