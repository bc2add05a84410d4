import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { remembered } from '../util/remembered.js';

const stopWords: ReadonlySet<string> = new Set(eng);
const tokenPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
// For ASCII text the pattern above reads as this one: NFKC changes no ASCII character, and after
// lower-casing the only letters are a–z, the only digits 0–9 and the only apostrophe is `'`.
const nonAscii = /[^\x00-\x7f]/;
const asciiTokenPattern = /[a-z0-9]+(?:'[a-z]+)?/g;

/** A token without its possessive `'s` and its apostrophes ("don't" → "dont"). */
function dropApostrophes(token: string): string {
  return token.replace(/['’]s$/u, '').replace(/['’]/gu, '');
}

/**
 * Tokens of the texts read last. Ingest reads each unit's text twice, in a row (the embedder, then
 * the store's lexical index); a text is one string, so its hash is computed once. Bounded.
 */
const recent = new Map<string, readonly string[]>();
const recentLimit = 4096;
/** Shorter texts (words, names, queries) are not worth remembering. */
const recentMinLength = 64;

/** Lower-cased word tokens of `text`, in order, stop words included. */
export function words(text: string): string[] {
  if (text.length < recentMinLength) return tokenise(text);
  const known = recent.get(text);
  if (known !== undefined) return known.slice();
  const out = tokenise(text);
  if (recent.size >= recentLimit) recent.clear();
  recent.set(text, out.slice());
  return out;
}

function tokenise(text: string): string[] {
  const out: string[] = [];
  if (!nonAscii.test(text)) {
    // The common case, without Unicode normalisation, Unicode classes or a replace per token.
    const lower = text.toLowerCase();
    asciiTokenPattern.lastIndex = 0;
    for (let match = asciiTokenPattern.exec(lower); match !== null; match = asciiTokenPattern.exec(lower)) {
      const token = match[0];
      out.push(token.includes("'") ? dropApostrophes(token) : token);
    }
    return out;
  }
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(tokenPattern)) {
    const token = match[0];
    out.push(token.includes("'") || token.includes('’') ? dropApostrophes(token) : token);
  }
  return out;
}

/** True for an English stop word (lower case). */
export function isStopWord(word: string): boolean {
  return stopWords.has(word);
}

/** Porter stems of words seen (chat vocabulary is small next to the text analysed); bounded. */
const stems = new Map<string, string>();
const stemLimit = 50_000;

function stemOf(word: string): string {
  return remembered(stems, stemLimit, word, stemmer);
}

/**
 * What {@link analyze} makes of one lower-case ASCII word (`/^[a-z0-9]+$/`): its stem, or
 * `undefined` for a stop word — without tokenising. Other strings go through `analyze`.
 */
export function analyzeWord(word: string): string | undefined {
  if (word.length === 0 || stopWords.has(word)) return undefined;
  return stemOf(word);
}

/**
 * The lexical analyzer every store uses, so that BM25 answers agree across backends: lower case,
 * stop words removed, Porter-stemmed. Stores persist what it gives: changing it changes their indexes.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.length === 0 || stopWords.has(word)) continue;
    out.push(stemOf(word));
  }
  return out;
}

/**
 * {@link analyze}, plus each hyphenated word joined up ("de-stress" also gives "destress",
 * "self-care" "selfcare"), so that either spelling finds the other; the parts are terms already.
 * Recall's in-memory view indexes text this way (a query's words need no joining: its parts, or
 * its joined word, meet one of the forms).
 */
export function analyzeWithCompounds(text: string): string[] {
  const out = analyze(text);
  if (text.includes('-')) for (const joined of hyphenCompounds(text)) if (!stopWords.has(joined)) out.push(stemOf(joined));
  return out;
}

const hyphenCompound = /(?<![\p{L}\p{N}'’])([a-z]+)-([a-z]+)(?![\p{L}\p{N}'’])/giu;

/** Hyphenated words of a text, joined up and lower-cased. */
function hyphenCompounds(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(hyphenCompound)) out.push(`${match[1]}${match[2]}`.toLowerCase());
  return out;
}
