import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const stopWords: ReadonlySet<string> = new Set(eng);
const tokenPattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lower-cased word tokens of `text`, in order, stop words included. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(tokenPattern)) {
    out.push(match[0].replace(/['’]s$/u, '').replace(/['’]/gu, ''));
  }
  return out;
}

/** True for an English stop word (lower case). */
export function isStopWord(word: string): boolean {
  return stopWords.has(word);
}

/**
 * The lexical analyzer every store uses, so that BM25 answers agree across backends: lower case,
 * stop words removed, Porter-stemmed.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.length === 0 || stopWords.has(word)) continue;
    out.push(stemmer(word));
  }
  return out;
}
