import { stemmer } from 'stemmer';
import { InvalidInputError } from '../errors/engram-error.js';
import { embedderSpecificationVersion, type Embedder } from '../ports/embedder.js';
import { isStopWord, words } from '../search/analyzer.js';

/** Options of {@link createHashedEmbedder}. */
export interface HashedEmbedderOptions {
  /** Vector length. @default 256 */
  dimensions?: number;
  /** Character n-gram length over each content word (`0` turns them off). @default 3 */
  charNgram?: number;
  /** Add word bigrams of consecutive content words. @default true */
  bigrams?: boolean;
}

/** The settings of a hashed embedder: with them, {@link hashedVector} gives exactly its vectors. */
export interface HashedEmbedding {
  dimensions: number;
  charNgram: number;
  bigrams: boolean;
}

/** Key of the {@link HashedEmbedding} an embedder made by {@link createHashedEmbedder} carries. */
export const hashedEmbedding: unique symbol = Symbol.for('engram.hashed-embedding');

/** The settings of an embedder made by {@link createHashedEmbedder}, else `undefined`. */
export function hashedEmbeddingOf(embedder: unknown): HashedEmbedding | undefined {
  return typeof embedder === 'object' && embedder !== null ? ((embedder as Record<symbol, HashedEmbedding | undefined>)[hashedEmbedding] ?? undefined) : undefined;
}

const fnvOffset = 0x811c9dc5;

/** FNV-1a, 32 bits (cheap, stable across runs and platforms), over `text[from, to)`, continued from `hash`. */
function fnv1a(text: string, hash = fnvOffset, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// Features are hashed as strings `w:<stem>`, `c:<gram>` and `b:<stem> <stem>`: the hash of a
// prefix is computed once and continued over the rest, without building the strings.
const wordPrefix = fnv1a('w:');
const gramPrefix = fnv1a('c:');
const bigramHashPrefix = fnv1a('b:');

function normalize(vector: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

/** The features of one word — its stem and its character n-grams — as slots and signed weights. */
interface WordFeatures {
  stem: string;
  /** A stop word (skipped unless a text has only stop words). */
  stop: boolean;
  slots: Int32Array;
  weights: Float32Array;
  /** FNV state after `b:<stem> `: a bigram's hash continues from it over the next word's stem. */
  bigramPrefix: number;
}

function wordFeatures(word: string, dimensions: number, charNgram: number): WordFeatures {
  const stem = stemmer(word);
  const padded = `#${word}#`;
  const grams = charNgram > 0 ? Math.max(0, padded.length - charNgram + 1) : 0;
  const slots = new Int32Array(1 + grams);
  const weights = new Float32Array(1 + grams);
  // Low bits pick the slot, the top bit the sign (signed hashing keeps collisions unbiased).
  const stemHash = fnv1a(stem, wordPrefix);
  slots[0] = stemHash % dimensions;
  weights[0] = stemHash & 0x80000000 ? -1 : 1;
  const weight = 0.5 / Math.sqrt(Math.max(1, grams));
  for (let i = 0; i < grams; i++) {
    const gramHash = fnv1a(padded, gramPrefix, i, i + charNgram);
    slots[i + 1] = gramHash % dimensions;
    weights[i + 1] = (gramHash & 0x80000000 ? -1 : 1) * weight;
  }
  return { stem, stop: isStopWord(word), slots, weights, bigramPrefix: fnv1a(' ', fnv1a(stem, bigramHashPrefix)) };
}
/** Per-word features are memoised: chat vocabulary is small next to the number of messages. */
class FeatureCache {
  private readonly words = new Map<string, WordFeatures>();

  constructor(
    readonly dimensions: number,
    readonly charNgram: number,
    private readonly limit = 200_000,
  ) {}

  get(word: string): WordFeatures {
    let features = this.words.get(word);
    if (features === undefined) {
      if (this.words.size >= this.limit) this.words.clear();
      features = wordFeatures(word, this.dimensions, this.charNgram);
      this.words.set(word, features);
    }
    return features;
  }
}

function embedWith(text: string, cache: FeatureCache, dimensions: number, bigrams: boolean): Float32Array<ArrayBuffer> {
  const vector = new Float32Array(dimensions);
  const all = words(text);
  // Content words (stop words skipped); a text of stop words only falls back to all its words.
  if (add(vector, all, true, cache, dimensions, bigrams) === 0 && add(vector, all, false, cache, dimensions, bigrams) === 0) {
    vector[0] = 1;
    return vector;
  }
  return normalize(vector);
}

/** Adds the features of `tokens` (without stop words when `skipStopWords`) into `vector`; returns how many words it took. */
function add(vector: Float32Array, tokens: ReadonlyArray<string>, skipStopWords: boolean, cache: FeatureCache, dimensions: number, bigrams: boolean): number {
  let taken = 0;
  let previous: WordFeatures | undefined;
  for (const word of tokens) {
    const features = cache.get(word);
    if (skipStopWords && features.stop) continue;
    taken += 1;
    for (let i = 0; i < features.slots.length; i++) {
      const slot = features.slots[i] as number;
      vector[slot] = (vector[slot] ?? 0) + (features.weights[i] as number);
    }
    if (bigrams && previous !== undefined) {
      // The feature `b:<previous stem> <stem>`, hashed without building the string.
      const hash = fnv1a(features.stem, previous.bigramPrefix);
      const slot = hash % dimensions;
      vector[slot] = (vector[slot] ?? 0) + (hash & 0x80000000 ? -0.5 : 0.5);
    }
    previous = features;
  }
  return taken;
}

const defaultCaches = new Map<string, FeatureCache>();
/** The cache of the last settings asked for (callers keep to one). */
let lastCache: FeatureCache | undefined;

/**
 * Embeds one text: stemmed content words (weight 1), bigrams of consecutive content words (0.5)
 * and character n-grams of each content word (together about half a word), hashed with a sign
 * into `dimensions` slots and L2-normalised. A text of stop words only falls back to all its
 * words; an empty text gets a fixed unit vector.
 */
export function hashedVector(text: string, options: HashedEmbedderOptions = {}): Float32Array<ArrayBuffer> {
  const dimensions = options.dimensions ?? 256;
  const charNgram = options.charNgram ?? 3;
  let cache = lastCache;
  if (cache?.dimensions !== dimensions || cache.charNgram !== charNgram) {
    const key = `${dimensions}:${charNgram}`;
    cache = defaultCaches.get(key);
    if (cache === undefined) {
      cache = new FeatureCache(dimensions, charNgram, 20_000);
      defaultCaches.set(key, cache);
    }
    lastCache = cache;
  }
  return embedWith(text, cache, dimensions, options.bigrams !== false);
}

/**
 * The offline embedder every user gets by default: feature hashing of words, word bigrams and
 * character n-grams — no model, no download, deterministic. It captures lexical and
 * morphological similarity ("painting" ~ "paintings" ~ "painter"), not synonyms.
 */
export function createHashedEmbedder(options: HashedEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 8) {
    throw new InvalidInputError({ message: 'invalid dimensions: must be an integer ≥ 8', path: 'dimensions' });
  }
  const charNgram = options.charNgram ?? 3;
  if (!Number.isInteger(charNgram) || charNgram < 0) {
    throw new InvalidInputError({ message: 'invalid charNgram: must be an integer ≥ 0', path: 'charNgram' });
  }
  const cache = new FeatureCache(dimensions, charNgram);
  const bigrams = options.bigrams !== false;
  const settings: HashedEmbedding = { dimensions, charNgram, bigrams };
  const embedder: Embedder & { [hashedEmbedding]: HashedEmbedding } = {
    // Lets ingest have the offline distiller's reader worker embed source turns (same vectors).
    [hashedEmbedding]: settings,
    specificationVersion: embedderSpecificationVersion,
    name: `hashed-${dimensions}`,
    dimensions,
    embed: async (texts, embedOptions) => {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => embedWith(text, cache, dimensions, bigrams));
    },
  };
  return embedder;
}
