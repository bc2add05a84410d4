import { analyze } from '../search/analyzer.js';
import { bm25Score, termCounts, type Bm25Statistics } from '../search/bm25.js';
import type { ScopeFilter } from '../model/scope.js';
import type { Unit, UnitKind } from '../model/units.js';
import type { UnitFilter } from '../ports/memory-store.js';
import { unitMatches } from '../store-kit/unit-filter.js';

/** A unit with its analyzed text, so that repeated reference queries need not re-analyze. */
export interface AnalyzedUnit {
  /** The unit. */
  unit: Unit;
  /** `analyze(unit.text)`. */
  terms: ReadonlyArray<string>;
  /** Count of each term. */
  counts: ReadonlyMap<string, number>;
}

/** Pairs a unit with its analyzed text. */
export function analyzeUnit(unit: Unit): AnalyzedUnit {
  const terms = analyze(unit.text);
  return { unit, terms, counts: termCounts(terms) };
}

/**
 * BM25 statistics of one tenant (`userId`) and one unit kind, computed by brute force: every unit
 * of that tenant and kind counts, whatever its agent, session or time.
 */
export function referenceBm25Statistics(units: Iterable<AnalyzedUnit>, userId: string, kind: UnitKind): Bm25Statistics {
  let documents = 0;
  let totalLength = 0;
  const frequencies = new Map<string, number>();
  for (const { unit, terms, counts } of units) {
    if (unit.scope.userId !== userId || unit.kind !== kind) continue;
    documents += 1;
    totalLength += terms.length;
    for (const term of counts.keys()) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  }
  return { documents, totalLength, documentFrequency: (term) => frequencies.get(term) ?? 0 };
}

/**
 * Exact BM25 scores of every unit that matches the scope and filters and contains at least one
 * query term: the distinct terms of `analyze(query)` are scored with `bm25Score` against the
 * statistics of the unit's own tenant and kind. Returns unit id → score.
 */
export function referenceLexicalScores(
  units: ReadonlyArray<AnalyzedUnit>,
  scope: ScopeFilter,
  query: string,
  filter: UnitFilter = {},
): Map<string, number> {
  const queryTerms = [...new Set(analyze(query))];
  const scores = new Map<string, number>();
  if (queryTerms.length === 0) return scores;
  const statistics = new Map<UnitKind, Bm25Statistics>();
  for (const { unit, terms, counts } of units) {
    if (!queryTerms.some((term) => counts.has(term)) || !unitMatches(scope, filter, unit)) continue;
    let kindStatistics = statistics.get(unit.kind);
    if (kindStatistics === undefined) {
      kindStatistics = referenceBm25Statistics(units, scope.userId, unit.kind);
      statistics.set(unit.kind, kindStatistics);
    }
    scores.set(unit.id, bm25Score(queryTerms, (term) => counts.get(term) ?? 0, terms.length, kindStatistics));
  }
  return scores;
}
