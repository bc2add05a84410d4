import { analyze, bm25Idf, bm25Parameters, unitInWindow, unitKinds, type ScopeFilter, type ScoredUnit, type Unit, type UnitFilter } from '@engram/core';
import { kindCodes, keyPart, prefixRange, type LexicalStats } from '../layout.js';
import { selectTop } from '../search/best-first.js';
import type { Snapshot } from '../snapshot.js';
import { viewChunk } from './posting-codec.js';

/**
 * Score accumulator indexed by row, reused across queries (queries run synchronously, one at a
 * time): only the rows a query touched are reset afterwards.
 */
class Accumulator {
  scores = new Float64Array(1 << 16);
  touched = new Uint32Array(1 << 12);
  count = 0;

  add(row: number, value: number): void {
    if (row >= this.scores.length) {
      let size = this.scores.length;
      while (size <= row) size *= 2;
      const grown = new Float64Array(size);
      grown.set(this.scores);
      this.scores = grown;
    }
    if (this.scores[row] === 0) {
      if (this.count === this.touched.length) {
        const grown = new Uint32Array(this.touched.length * 2);
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[this.count++] = row;
    }
    this.scores[row] = (this.scores[row] as number) + value;
  }

  reset(): void {
    for (let index = 0; index < this.count; index++) this.scores[this.touched[index] as number] = 0;
    this.count = 0;
  }
}

const accumulator = new Accumulator();

/**
 * Adds every posting of one tenant and kind, term by term in query order, to the accumulator:
 * the same BM25 arithmetic in the same order as core's `bm25Score`, so scores agree with every
 * other store to the last bit. A term's document frequency is the sum of its chunk counts.
 */
function scoreKind(snapshot: Snapshot, userId: string, kind: number, terms: ReadonlyArray<string>): void {
  const statistics = snapshot.get<LexicalStats>(snapshot.databases.lexicalStats, [keyPart(userId), kind]);
  if (statistics === undefined || statistics.documents === 0) return;
  const { k1, b } = bm25Parameters;
  const averageLength = statistics.totalLength / statistics.documents;
  for (const term of terms) {
    const chunks = [];
    let documentFrequency = 0;
    for (const { value } of snapshot.range(snapshot.databases.postings, prefixRange([keyPart(userId), kind, keyPart(term)]))) {
      const chunk = viewChunk(value);
      documentFrequency += chunk.count;
      chunks.push(chunk);
    }
    if (documentFrequency === 0) continue;
    const idf = bm25Idf(statistics.documents, documentFrequency);
    for (const { count, rows, frequencies, lengths } of chunks) {
      for (let index = 0; index < count; index++) {
        const frequency = frequencies[index] as number;
        const norm = averageLength === 0 ? 1 : 1 - b + (b * (lengths[index] as number)) / averageLength;
        accumulator.add(rows[index] as number, (idf * frequency * (k1 + 1)) / (frequency + k1 * norm));
      }
    }
  }
}

/** BM25 top-k within a snapshot; statistics are those of each unit's own tenant and kind. */
export function lexicalSearch(snapshot: Snapshot, scope: ScopeFilter, query: string, options: UnitFilter & { k: number }): ScoredUnit[] {
  const terms = [...new Set(analyze(query))];
  if (terms.length === 0 || options.k <= 0) return [];
  const kinds = options.kinds && options.kinds.length > 0 ? unitKinds.filter((kind) => options.kinds?.includes(kind)) : unitKinds;
  let rows: Float64Array;
  let scores: Float64Array;
  try {
    for (const kind of kinds) scoreKind(snapshot, scope.userId, kindCodes[kind], terms);
    rows = new Float64Array(accumulator.count);
    scores = new Float64Array(accumulator.count);
    for (let index = 0; index < accumulator.count; index++) {
      const row = accumulator.touched[index] as number;
      rows[index] = row;
      scores[index] = accumulator.scores[row] as number;
    }
  } finally {
    accumulator.reset();
  }
  const units = new Map<string, Unit>();
  const ranked = selectTop(scores, scores.length, options.k, (index) => {
    const record = snapshot.row(rows[index] as number);
    if (record === undefined) return undefined;
    if (scope.agentId !== undefined && record.agentId !== scope.agentId) return undefined;
    if (scope.sessionId !== undefined && record.sessionId !== scope.sessionId) return undefined;
    if (options.time !== undefined) {
      const unit = snapshot.unit(record.id);
      if (unit === undefined || !unitInWindow(unit, options.time)) return undefined;
      units.set(record.id, unit);
    }
    return record.id;
  });
  const hits: ScoredUnit[] = [];
  for (const { id, score } of ranked) {
    const unit = units.get(id) ?? snapshot.unit(id);
    if (unit !== undefined) hits.push({ unit, score });
  }
  return hits;
}
