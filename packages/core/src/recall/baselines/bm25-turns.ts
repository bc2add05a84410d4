import type { Unit } from '../../model/units.js';
import type { Evidence, RecallOptions, RecallResult } from '../recall-types.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';

/** Name of the plain BM25 baseline. */
export const bm25TurnsName = 'bm25-turns';

/** Default number of evidence items of a baseline recall. */
export const defaultBaselineK = 10;

/** One evidence item for a raw turn found by a lexical search. */
export function turnEvidence(unit: Unit, score: number, operator: string): Evidence {
  return { unit, score, sources: unit.sources, coordinates: unit.context, reasons: [{ operator }] };
}

/**
 * The yardstick: the store's own BM25 over the raw turn units, untuned — no query rewriting, no
 * fusion, no time frame. Every other strategy is measured against it.
 */
export function createBm25TurnsStrategy(context: RecallContext): RecallStrategy {
  return {
    name: bm25TurnsName,
    async recall(query: string, options: RecallOptions): Promise<RecallResult> {
      options.signal?.throwIfAborted();
      const k = options.k ?? defaultBaselineK;
      const hits = await context.store.lexicalSearch(options.scope, query, { kinds: ['turn'], k });
      return {
        strategy: bm25TurnsName,
        query,
        evidence: hits.map((hit) => turnEvidence(hit.unit, hit.score, 'bm25')),
        trace: [{ step: 0, action: 'lexical', input: { query, kinds: ['turn'], k }, output: { hits: hits.length } }],
      };
    },
  };
}
