import { analyze, bm25Idf, bm25Parameters, unitInWindow, unitKinds, type ScopeFilter, type ScoredUnit, type Unit, type UnitFilter } from '@engram/core';
import { kindCodes, keyPart, prefixRange, type LexicalStats, type RowRecord } from '../layout.js';
import type { Snapshot } from '../snapshot.js';
import { chunkCapacity, chunkHeader, copyChunk, summarize } from './posting-codec.js';

/** One query term's postings in one tenant and kind: rows increasing, contributions computed on demand. */
interface TermList {
  /** Position of the term in the query (scores add contributions in this order). */
  position: number;
  count: number;
  rows: Uint32Array;
  frequencies: Uint32Array;
  lengths: Uint32Array;
  idf: number;
  /** Upper bound of the list's contributions: its largest frequency with its shortest length. */
  bound: number;
  /** Cursor: next posting to look at. */
  cursor: number;
  /** Start of the list's slice of the contribution memo, or −1 (no slice left). */
  memo: number;
}

/** A contribution depends only on (frequency, length), which repeat a lot: each pair is computed once per list. */
const memoFrequencies = 16;
const memoLengths = 1024;
const memoSlice = memoFrequencies * memoLengths;
const memoLists = 16;
const memoStamps = new Uint32Array(memoLists * memoSlice);
const memoValues = new Float64Array(memoLists * memoSlice);
let memoStamp = 0;

interface Columns {
  rows: Uint32Array;
  frequencies: Uint32Array;
  lengths: Uint32Array;
}

const newColumns = (size: number): Columns => ({ rows: new Uint32Array(size), frequencies: new Uint32Array(size), lengths: new Uint32Array(size) });
/** One set of columns per query term (the first 8 terms; later ones allocate their own). */
const columnPool: Columns[] = Array.from({ length: 8 }, () => newColumns(0));

/** Per frequency, the shortest length whose posting cannot pass the single-list skip test (see `scoreKind`). */
const cutoffs = new Int32Array(memoFrequencies);

/** The same BM25 arithmetic, in the same order, as core's `bm25Score`. */
function bm25Contribution(idf: number, frequency: number, length: number, averageLength: number): number {
  const { k1, b } = bm25Parameters;
  const norm = averageLength === 0 ? 1 : 1 - b + (b * length) / averageLength;
  return (idf * frequency * (k1 + 1)) / (frequency + k1 * norm);
}

/** Contribution of posting `index` of `list`. */
function contributionAt(list: TermList, index: number, averageLength: number): number {
  const frequency = list.frequencies[index] as number;
  const length = list.lengths[index] as number;
  if (list.memo < 0 || frequency >= memoFrequencies || length >= memoLengths) return bm25Contribution(list.idf, frequency, length, averageLength);
  const slot = list.memo + frequency * memoLengths + length;
  if (memoStamps[slot] === memoStamp) return memoValues[slot] as number;
  const contribution = bm25Contribution(list.idf, frequency, length, averageLength);
  memoStamps[slot] = memoStamp;
  memoValues[slot] = contribution;
  return contribution;
}

/**
 * Reads a term's chunks into row-sorted columns. The document frequency is the sum of the chunk
 * counts; contributions are computed only for the postings the walk looks at.
 */
function readTerm(snapshot: Snapshot, userId: string, kind: number, term: string, position: number, statistics: LexicalStats, slot: number): TermList | undefined {
  // Each value is lmdb-js's reused read buffer: copy it into the columns before the next read.
  // Columns are reused from query to query: allocating megabytes per common term costs GC time.
  let columns = slot < columnPool.length ? (columnPool[slot] as Columns) : newColumns(chunkCapacity);
  let count = 0;
  let largest = 0;
  let shortest = Number.POSITIVE_INFINITY;
  let summarized = true;
  for (const { value } of snapshot.range(snapshot.databases.postings, prefixRange([keyPart(userId), kind, keyPart(term)]))) {
    const header = chunkHeader(value);
    if (columns.rows.length < count + header.count) {
      const grown = newColumns(Math.max(count + header.count, columns.rows.length * 2, chunkCapacity));
      grown.rows.set(columns.rows.subarray(0, count));
      grown.frequencies.set(columns.frequencies.subarray(0, count));
      grown.lengths.set(columns.lengths.subarray(0, count));
      columns = grown;
      if (slot < columnPool.length) columnPool[slot] = columns;
    }
    copyChunk(value, header.count, columns, count);
    count += header.count;
    if (header.largestFrequency === undefined) summarized = false;
    else {
      if (header.largestFrequency > largest) largest = header.largestFrequency;
      if (header.shortestLength < shortest) shortest = header.shortestLength;
    }
  }
  if (count === 0) return undefined;
  const averageLength = statistics.totalLength / statistics.documents;
  const idf = bm25Idf(statistics.documents, count);
  const rows = columns.rows.subarray(0, count);
  const frequencies = columns.frequencies.subarray(0, count);
  const lengths = columns.lengths.subarray(0, count);
  if (!summarized) {
    // Chunks written before summaries existed: compute the bound from the postings.
    const [largestFrequency, shortestLength] = summarize(frequencies, lengths);
    largest = largestFrequency;
    shortest = shortestLength;
  }
  // A contribution grows with the frequency and shrinks with the length (idf > 0).
  const bound = bm25Contribution(idf, largest, shortest, averageLength);
  return { position, count, rows, frequencies, lengths, idf, bound, cursor: 0, memo: slot < memoLists ? slot * memoSlice : -1 };
}

/** First index ≥ `from` whose row is ≥ `row` (galloping, then binary search). */
function seek(rows: Uint32Array, count: number, from: number, row: number): number {
  if (from >= count || (rows[from] as number) >= row) return from;
  let step = 1;
  let low = from;
  let high = from + 1;
  while (high < count && (rows[high] as number) < row) {
    low = high;
    step *= 2;
    high = from + step;
  }
  if (high > count) high = count;
  // rows[low] < row; answer in (low, high].
  while (low + 1 < high) {
    const middle = (low + high) >>> 1;
    if ((rows[middle] as number) < row) low = middle;
    else high = middle;
  }
  return high;
}

/** Bounds are sums taken in another order than the score: a relative margin covers rounding. */
const margin = 1 + 1e-9;

/**
 * The best `k` accepted hits, ordered by score, then id. Once `k` are held a candidate must score
 * strictly more than the k-th to get in: among documents tied at the cut-off the first found
 * (kind order, then storage order) stays. The port allows any of the tied ones; not asking for
 * the others spares looking up every tied document's id, which on large stores with short queries
 * (thousands of documents with the same one-term score) was most of a query's time.
 */
class TopHits {
  readonly hits: Array<{ id: string; score: number }> = [];

  constructor(private readonly k: number) {}

  /** Score a candidate must exceed to matter (−∞ until `k` hits are kept). */
  get threshold(): number {
    return this.hits.length < this.k ? Number.NEGATIVE_INFINITY : (this.hits[this.hits.length - 1] as { score: number }).score;
  }

  offer(id: string, score: number): void {
    const { hits } = this;
    if (hits.length >= this.k && score <= this.threshold) return;
    let index = hits.length;
    while (index > 0) {
      const other = hits[index - 1] as { id: string; score: number };
      if (other.score > score || (other.score === score && other.id < id)) break;
      index -= 1;
    }
    if (index >= this.k) return;
    hits.splice(index, 0, { id, score });
    if (hits.length > this.k) hits.pop();
  }
}

/**
 * Scores the documents of one tenant and kind holding a query term, document at a time over the
 * row-sorted lists, with MaxScore pruning: lists are ordered by their largest contribution, and
 * those whose bounds together cannot lift a document above the current k-th score are only probed
 * for documents found in the others. Only documents that can still enter the top k are accepted
 * (scope, time) and scored exactly — contributions added in query-term order from 0, as core's
 * `bm25Score` adds them, so scores agree with every other store to the last bit.
 */
function scoreKind(snapshot: Snapshot, userId: string, kind: number, terms: ReadonlyArray<string>, top: TopHits, accept: (row: number) => string | undefined): void {
  const statistics = snapshot.get<LexicalStats>(snapshot.databases.lexicalStats, [keyPart(userId), kind]);
  if (statistics === undefined || statistics.documents === 0) return;
  const averageLength = statistics.totalLength / statistics.documents;
  memoStamp = (memoStamp + 1) >>> 0;
  if (memoStamp === 0) {
    memoStamps.fill(0);
    memoStamp = 1;
  }
  /** Lists in query-term order (the order scores add contributions in). */
  const byPosition: TermList[] = [];
  terms.forEach((term, position) => {
    const list = readTerm(snapshot, userId, kind, term, position, statistics, byPosition.length);
    if (list !== undefined) byPosition.push(list);
  });
  if (byPosition.length === 0) return;
  const lists = [...byPosition].sort((a, b) => a.bound - b.bound);
  const count = lists.length;
  /** below[i]: sum of the bounds of lists[0..i-1]. */
  const below = new Float64Array(count + 1);
  for (let index = 0; index < count; index++) below[index + 1] = (below[index] as number) + (lists[index] as TermList).bound;
  let threshold = top.threshold;
  // Lists before `essential` cannot make a document reach the threshold on their own.
  let essential = 0;
  const updateEssential = () => {
    while (essential < count && (below[essential + 1] as number) * margin <= threshold) essential += 1;
  };
  updateEssential();
  /**
   * Probes the non-essential lists for `row` (the essential ones sit at it, not advanced yet,
   * adding up to `partial`), then scores and offers the document unless pruned on the way.
   */
  const finish = (row: number, partial: number): void => {
    for (let index = essential - 1; index >= 0; index--) {
      const list = lists[index] as TermList;
      list.cursor = seek(list.rows, list.count, list.cursor, row);
      if (list.cursor < list.count && list.rows[list.cursor] === row) partial += contributionAt(list, list.cursor, averageLength);
      if ((partial + (below[index] as number)) * margin <= threshold) return;
    }
    // Exact score: contributions added in query-term order from 0, as core's bm25Score does.
    let score = 0;
    for (const list of byPosition) {
      if (list.cursor < list.count && list.rows[list.cursor] === row) score += contributionAt(list, list.cursor, averageLength);
    }
    if (score <= threshold) return;
    const id = accept(row);
    if (id === undefined) return;
    top.offer(id, score);
    if (top.threshold !== threshold) {
      threshold = top.threshold;
      updateEssential();
    }
  };
  while (essential < count) {
    if (essential === count - 1) {
      // One essential list (the usual case once k hits are held): skip its postings that cannot
      // lift a document above the threshold even with every other term, without probing.
      const list = lists[essential] as TermList;
      const others = (below[essential] as number) * margin;
      const passes = (frequency: number, length: number) => bm25Contribution(list.idf, frequency, length, averageLength) * margin + others > threshold;
      // The contribution shrinks as the length grows (in floating point too): per frequency, the
      // postings that pass are those shorter than a cut-off length.
      for (let frequency = 1; frequency < memoFrequencies; frequency++) {
        let low = 0;
        let high = memoLengths;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (passes(frequency, middle)) low = middle + 1;
          else high = middle;
        }
        cutoffs[frequency] = low;
      }
      const { rows, frequencies, lengths } = list;
      const before = threshold;
      let cursor = list.cursor;
      while (cursor < list.count) {
        const frequency = frequencies[cursor] as number;
        const length = lengths[cursor] as number;
        if (frequency > 0 && frequency < memoFrequencies && length < memoLengths ? length < (cutoffs[frequency] as number) : passes(frequency, length)) {
          list.cursor = cursor;
          finish(rows[cursor] as number, contributionAt(list, cursor, averageLength));
          if (threshold !== before) {
            cursor += 1;
            break;
          }
        }
        cursor += 1;
      }
      list.cursor = cursor;
      if (cursor >= list.count) return;
      continue;
    }
    let row = Number.POSITIVE_INFINITY;
    for (let index = essential; index < count; index++) {
      const list = lists[index] as TermList;
      if (list.cursor < list.count && (list.rows[list.cursor] as number) < row) row = list.rows[list.cursor] as number;
    }
    if (row === Number.POSITIVE_INFINITY) return;
    let partial = 0;
    for (let index = essential; index < count; index++) {
      const list = lists[index] as TermList;
      if (list.cursor < list.count && list.rows[list.cursor] === row) partial += contributionAt(list, list.cursor, averageLength);
    }
    const first = essential;
    if ((partial + (below[essential] as number)) * margin > threshold) finish(row, partial);
    // Advance the lists that were essential for this document (`finish` may have moved `essential`).
    for (let index = first; index < count; index++) {
      const list = lists[index] as TermList;
      if (list.cursor < list.count && list.rows[list.cursor] === row) list.cursor += 1;
    }
  }
}

/** Most row records a process keeps per store for lexical search. */
const rowCacheLimit = 1 << 20;
const rowCaches = new WeakMap<object, Map<number, RowRecord>>();

/**
 * A row's record, remembered across queries. Sound for lexical search only: a row (one stored
 * version of a unit) never changes and is never reused, and a row found in a snapshot's postings
 * exists in that snapshot (postings go in the same transaction as the row). Ties at the cut-off
 * need the id of every tied document, which makes these lookups most of a query's time on large
 * stores.
 */
function cachedRow(snapshot: Snapshot, row: number): RowRecord | undefined {
  let cache = rowCaches.get(snapshot.databases);
  if (cache === undefined) rowCaches.set(snapshot.databases, (cache = new Map()));
  let record = cache.get(row);
  if (record === undefined) {
    record = snapshot.row(row);
    if (record === undefined) return undefined;
    if (cache.size >= rowCacheLimit) cache.clear();
    cache.set(row, record);
  }
  return record;
}

/** BM25 top-k within a snapshot; statistics are those of each unit's own tenant and kind. */
export function lexicalSearch(snapshot: Snapshot, scope: ScopeFilter, query: string, options: UnitFilter & { k: number }): ScoredUnit[] {
  const terms = [...new Set(analyze(query))];
  if (terms.length === 0 || options.k <= 0) return [];
  const kinds = options.kinds && options.kinds.length > 0 ? unitKinds.filter((kind) => options.kinds?.includes(kind)) : unitKinds;
  const units = new Map<string, Unit>();
  const accept = (row: number) => {
    const record = cachedRow(snapshot, row);
    if (record === undefined) return undefined;
    if (scope.agentId !== undefined && record.agentId !== scope.agentId) return undefined;
    if (scope.sessionId !== undefined && record.sessionId !== scope.sessionId) return undefined;
    if (options.time !== undefined) {
      const unit = snapshot.unit(record.id);
      if (unit === undefined || !unitInWindow(unit, options.time)) return undefined;
      units.set(record.id, unit);
    }
    return record.id;
  };
  const top = new TopHits(options.k);
  for (const kind of kinds) scoreKind(snapshot, scope.userId, kindCodes[kind], terms, top, accept);
  const hits: ScoredUnit[] = [];
  for (const { id, score } of top.hits) {
    const unit = units.get(id) ?? snapshot.unit(id);
    if (unit !== undefined) hits.push({ unit, score });
  }
  return hits;
}
