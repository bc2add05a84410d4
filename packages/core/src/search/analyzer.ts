import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const stopWords: ReadonlySet<string> = new Set(eng);
const tokenPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
// For ASCII text the pattern above reads as `[a-z0-9]+(?:'[a-z]+)?` (see `tokeniseAscii`): NFKC
// changes no ASCII character, and after lower-casing the only letters are a–z, the only digits 0–9
// and the only apostrophe is `'`.
const nonAscii = /[^\x00-\x7f]/;

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

const isLetter = (code: number) => code >= 97 && code <= 122;
const isLetterOrDigit = (code: number) => isLetter(code) || (code >= 48 && code <= 57);

/**
 * `[a-z0-9]+(?:'[a-z]+)?` over lower-cased ASCII text, apostrophes dropped, scanned by hand: a regex
 * match allocates an array per token, and ingest tokenises every text it stores.
 */
function tokeniseAscii(lower: string, out: string[]): void {
  const length = lower.length;
  let index = 0;
  while (index < length) {
    if (!isLetterOrDigit(lower.charCodeAt(index))) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < length && isLetterOrDigit(lower.charCodeAt(index))) index += 1;
    // An apostrophe and letters continue the token ("don't" → "dont"); a final "'s" is dropped.
    if (index + 1 < length && lower.charCodeAt(index) === 39 && isLetter(lower.charCodeAt(index + 1))) {
      let end = index + 1;
      while (end < length && isLetter(lower.charCodeAt(end))) end += 1;
      const tail = lower.slice(index + 1, end);
      out.push(tail === 's' ? lower.slice(start, index) : lower.slice(start, index) + tail);
      index = end;
    } else {
      out.push(lower.slice(start, index));
    }
  }
}

function tokenise(text: string): string[] {
  const out: string[] = [];
  if (!nonAscii.test(text)) {
    // The common case, without Unicode normalisation, Unicode classes or a replace per token.
    tokeniseAscii(text.toLowerCase(), out);
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
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= stemLimit) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/**
 * The lexical analyzer every store uses, so that BM25 answers agree across backends: lower case,
 * stop words removed, Porter-stemmed.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.length === 0 || stopWords.has(word)) continue;
    out.push(stemOf(word));
  }
  return out;
}
