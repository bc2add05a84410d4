import { cosineSimilarity, unitInWindow, type ScopeFilter, type ScoredUnit, type Unit, type UnitFilter } from '@engram/core';
import type { Key } from 'lmdb';
import { keyPart, kindsByCode, prefixRange } from '../layout.js';
import { selectTop, type RankedRow } from '../search/best-first.js';
import type { Snapshot } from '../snapshot.js';
import type { TenantVectorCache } from './tenant-vectors.js';
import type { VectorIndex } from './vector-index.js';

/** When vector search scans exactly instead of asking the graph. */
export interface VectorSearchSettings {
  /** A tenant with at most this many vectors is scanned exactly (exact answers, no graph). @default 5000 */
  exactScanLimit: number;
  /** Largest graph over-fetch before a filtered search falls back to an exact scan. @default 4096 */
  maxOverFetch: number;
  /** Fewest graph candidates re-scored exactly (float32 from LMDB) per search. @default 0 */
  candidates: number;
}

type Accept = (row: number) => { id: string; unit?: Unit } | undefined;

function acceptor(snapshot: Snapshot, scope: ScopeFilter, filter: UnitFilter): Accept {
  return (row) => {
    const record = snapshot.row(row);
    if (record === undefined || record.userId !== scope.userId) return undefined;
    if (scope.agentId !== undefined && record.agentId !== scope.agentId) return undefined;
    if (scope.sessionId !== undefined && record.sessionId !== scope.sessionId) return undefined;
    if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(kindsByCode[record.kind] ?? 'turn')) return undefined;
    if (filter.time === undefined) return { id: record.id };
    const unit = snapshot.unit(record.id);
    return unit !== undefined && unitInWindow(unit, filter.time) ? { id: record.id, unit } : undefined;
  };
}

/** Cosine of `query` against every vector of the tenant, streamed from LMDB (a tenant too big to keep in memory). */
function streamScan(snapshot: Snapshot, scope: ScopeFilter, query: Float32Array, k: number, accept: Accept): RankedRow[] {
  let rows = new Float64Array(1024);
  let scores = new Float64Array(1024);
  let count = 0;
  for (const { key, value } of snapshot.range(snapshot.databases.vectors, prefixRange([keyPart(scope.userId)]))) {
    if (value.byteLength !== query.length * 4) continue;
    if (count === rows.length) {
      const grownRows = new Float64Array(count * 2);
      grownRows.set(rows);
      const grownScores = new Float64Array(count * 2);
      grownScores.set(scores);
      rows = grownRows;
      scores = grownScores;
    }
    rows[count] = (key as Key[])[1] as number;
    scores[count] = cosineSimilarity(query, snapshot.vectorView(value));
    count += 1;
  }
  return selectTop(scores, count, k, (index) => accept(rows[index] as number)?.id);
}

/**
 * Cosine of `query` against every vector of the tenant (the same arithmetic as core's
 * `cosineSimilarity`, so the same scores), over the tenant's vectors kept in memory.
 */
function exactScan(snapshot: Snapshot, scope: ScopeFilter, query: Float32Array, k: number, accept: Accept, cache: TenantVectorCache, tenantVectors: number): RankedRow[] {
  if (!cache.fits(tenantVectors * query.length)) return streamScan(snapshot, scope, query, k, accept);
  const { count, rows, vectors, squaredNorms, dims } = cache.get(snapshot, scope.userId, query.length);
  let queryNorm = 0;
  for (let d = 0; d < dims; d++) queryNorm += (query[d] as number) * (query[d] as number);
  const scores = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    let dot = 0;
    for (let d = 0, offset = index * dims; d < dims; d++, offset++) dot += (query[d] as number) * (vectors[offset] as number);
    const norm = squaredNorms[index] as number;
    scores[index] = queryNorm === 0 || norm === 0 ? 0 : dot / Math.sqrt(queryNorm * norm);
  }
  return selectTop(scores, count, k, (index) => accept(rows[index] as number)?.id);
}

/**
 * Over-fetches from the graph (more when the tenant is a small share of all vectors), keeps the
 * candidates that pass scope, kind and time, and rescores them exactly from LMDB's float32 copy.
 * Returns `undefined` when even the largest over-fetch leaves fewer than `k`: the caller then
 * scans exactly.
 */
function graphSearch(
  snapshot: Snapshot,
  index: VectorIndex,
  scope: ScopeFilter,
  query: Float32Array,
  k: number,
  accept: Accept,
  share: number,
  settings: VectorSearchSettings,
): RankedRow[] | undefined {
  index.sync(snapshot);
  // The graph ranks by its quantized copy; re-scoring more candidates exactly recovers what that blurs.
  let fetch = Math.max(settings.candidates, Math.ceil((2 * k) / Math.max(share, 1e-6)) + 10);
  for (;;) {
    fetch = Math.min(fetch, Math.max(settings.maxOverFetch, k));
    const seen = new Set<number>();
    const kept: RankedRow[] = [];
    const candidates = index.candidates(query, fetch);
    for (const row of candidates) {
      if (seen.has(row)) continue;
      seen.add(row);
      const accepted = accept(row);
      if (accepted === undefined) continue;
      const vector = accepted.unit?.vector ?? snapshot.vectorCopy(scope.userId, row);
      if (vector === undefined || vector.length !== query.length) continue;
      kept.push({ id: accepted.id, score: cosineSimilarity(query, vector) });
    }
    const exhausted = fetch >= index.size + index.deltaSize;
    if (kept.length >= k || exhausted) {
      kept.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return kept.slice(0, k);
    }
    if (fetch >= settings.maxOverFetch) return undefined;
    fetch *= 4;
  }
}

/** Share of the tenant's units of the wanted kinds (from the lexical statistics, which count every unit). */
function kindShare(snapshot: Snapshot, userId: string, filter: UnitFilter): number {
  if (!filter.kinds || filter.kinds.length === 0) return 1;
  let wanted = 0;
  let all = 0;
  for (const [code, kind] of kindsByCode.entries()) {
    const documents = snapshot.get(snapshot.databases.lexicalStats, [keyPart(userId), code])?.documents ?? 0;
    all += documents;
    if (filter.kinds.includes(kind)) wanted += documents;
  }
  return all === 0 ? 1 : Math.max(wanted / all, 1e-3);
}

/** Cosine top-k over the tenant's vectors of the query's dimension, with scope, kind and time filters. */
export function vectorSearch(
  snapshot: Snapshot,
  index: VectorIndex | undefined,
  scope: ScopeFilter,
  query: Float32Array,
  options: UnitFilter & { k: number },
  settings: VectorSearchSettings,
  cache: TenantVectorCache,
): ScoredUnit[] {
  const { databases } = snapshot;
  const dims = snapshot.get(databases.meta, 'dims') as number | undefined;
  if (options.k <= 0 || dims === undefined || query.length !== dims) return [];
  const tenantVectors = snapshot.get(databases.tenantVectors, keyPart(scope.userId)) ?? 0;
  if (tenantVectors === 0) return [];
  const accept = acceptor(snapshot, scope, options);
  let norm = 0;
  for (const value of query) norm += value * value;
  let ranked: RankedRow[] | undefined;
  if (index !== undefined && tenantVectors > settings.exactScanLimit && norm > 0) {
    const total = (snapshot.get(databases.meta, 'vectorCount') as number | undefined) ?? tenantVectors;
    ranked = graphSearch(snapshot, index, scope, query, options.k, accept, (tenantVectors / Math.max(total, 1)) * kindShare(snapshot, scope.userId, options), settings);
  }
  ranked ??= exactScan(snapshot, scope, query, options.k, accept, cache, tenantVectors);
  const hits: ScoredUnit[] = [];
  for (const { id, score } of ranked) {
    const unit = snapshot.unit(id);
    if (unit !== undefined) hits.push({ unit, score });
  }
  return hits;
}
