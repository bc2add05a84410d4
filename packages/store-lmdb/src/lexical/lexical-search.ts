import { analyze, bm25Idf, bm25Parameters, unitInWindow, unitKinds, type ScopeFilter, type ScoredUnit, type Unit, type UnitFilter } from '@engram/core';
import { kindCodes, keyPart, prefixRange, type LexicalStats, type RowRecord } from '../layout.js';
import type { Snapshot } from '../snapshot.js';
import { viewChunk } from './posting-codec.js';

/** One query term's postings in one tenant and kind: rows increasing, with each row's BM25 contribution. */
interface TermList {
  /** Position of the term in the query (scores add contributions in this order). */
  position: number;
  count: number;
  rows: Uint32Array;
  contributions: Float64Array;
  /** Largest contribution of the list (exact: computed from the postings). */
  bound: number;
  /** Cursor: next posting to look at. */
  cursor: number;
}

const memoFrequencies = 16;
const memoLengths = 1024;
const memoStamps = new Uint32Array(memoFrequencies * memoLengths);
const memoValues = new Float64Array(memoFrequencies * memoLengths);
let memoStamp = 0;

/**
 * Reads a term's chunks and computes every posting's contribution with the same BM25 arithmetic,
 * in the same order, as core's `bm25Score`. The document frequency is the sum of the chunk counts.
 */
function readTerm(snapshot: Snapshot, userId: string, kind: number, term: string, position: number, statistics: LexicalStats): TermList | undefined {
  const chunks = [];
  let count = 0;
  for (const { value } of snapshot.range(snapshot.databases.postings, prefixRange([keyPart(userId), kind, keyPart(term)]))) {
    const chunk = viewChunk(value);
    count += chunk.count;
    chunks.push(chunk);
  }
  if (count === 0) return undefined;
  const { k1, b } = bm25Parameters;
  const averageLength = statistics.totalLength / statistics.documents;
  const idf = bm25Idf(statistics.documents, count);
  const rows = new Uint32Array(count);
  const contributions = new Float64Array(count);
  let bound = 0;
  let offset = 0;
  // A contribution depends only on (frequency, length), which repeat a lot: compute each pair once.
  memoStamp = (memoStamp + 1) >>> 0;
  if (memoStamp === 0) {
    memoStamps.fill(0);
    memoStamp = 1;
  }
  for (const chunk of chunks) {
    rows.set(chunk.rows, offset);
    const { frequencies, lengths } = chunk;
    for (let index = 0; index < chunk.count; index++) {
      const frequency = frequencies[index] as number;
      const length = lengths[index] as number;
      const slot = frequency < memoFrequencies && length < memoLengths ? frequency * memoLengths + length : -1;
      let contribution: number;
      if (slot >= 0 && memoStamps[slot] === memoStamp) contribution = memoValues[slot] as number;
      else {
        const norm = averageLength === 0 ? 1 : 1 - b + (b * length) / averageLength;
        contribution = (idf * frequency * (k1 + 1)) / (frequency + k1 * norm);
        if (slot >= 0) {
          memoStamps[slot] = memoStamp;
          memoValues[slot] = contribution;
        }
      }
      contributions[offset + index] = contribution;
      if (contribution > bound) bound = contribution;
    }
    offset += chunk.count;
  }
  return { position, count, rows, contributions, bound, cursor: 0 };
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
  const lists: TermList[] = [];
  terms.forEach((term, position) => {
    const list = readTerm(snapshot, userId, kind, term, position, statistics);
    if (list !== undefined) lists.push(list);
  });
  if (lists.length === 0) return;
  lists.sort((a, b) => a.bound - b.bound);
  const count = lists.length;
  /** below[i]: sum of the bounds of lists[0..i-1]. */
  const below = new Float64Array(count + 1);
  for (let index = 0; index < count; index++) below[index + 1] = (below[index] as number) + (lists[index] as TermList).bound;
  const found = new Float64Array(terms.length);
  const present = new Uint8Array(terms.length);
  let threshold = top.threshold;
  // Lists before `essential` cannot make a document reach the threshold on their own.
  let essential = 0;
  const updateEssential = () => {
    while (essential < count && (below[essential + 1] as number) * margin <= threshold) essential += 1;
  };
  updateEssential();
  for (;;) {
    if (essential >= count) return;
    let row = Number.POSITIVE_INFINITY;
    for (let index = essential; index < count; index++) {
      const list = lists[index] as TermList;
      if (list.cursor < list.count && (list.rows[list.cursor] as number) < row) row = list.rows[list.cursor] as number;
    }
    if (row === Number.POSITIVE_INFINITY) return;
    present.fill(0);
    let partial = 0;
    for (let index = essential; index < count; index++) {
      const list = lists[index] as TermList;
      if (list.cursor < list.count && list.rows[list.cursor] === row) {
        const contribution = list.contributions[list.cursor] as number;
        found[list.position] = contribution;
        present[list.position] = 1;
        partial += contribution;
        list.cursor += 1;
      }
    }
    let pruned = false;
    for (let index = essential - 1; index >= 0; index--) {
      if ((partial + (below[index + 1] as number)) * margin <= threshold) {
        pruned = true;
        break;
      }
      const list = lists[index] as TermList;
      list.cursor = seek(list.rows, list.count, list.cursor, row);
      if (list.cursor < list.count && list.rows[list.cursor] === row) {
        const contribution = list.contributions[list.cursor] as number;
        found[list.position] = contribution;
        present[list.position] = 1;
        partial += contribution;
      }
    }
    if (pruned || partial * margin <= threshold) continue;
    let score = 0;
    for (let position = 0; position < terms.length; position++) if (present[position] === 1) score += found[position] as number;
    if (score <= threshold) continue;
    const id = accept(row);
    if (id === undefined) continue;
    top.offer(id, score);
    if (top.threshold !== threshold) {
      threshold = top.threshold;
      updateEssential();
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
