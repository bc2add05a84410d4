import type { UnitKind } from '../../model/units.js';
import type { RecallOptions, RecallResult } from '../recall-types.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { reciprocalRankFusion } from './fuse.js';

/** Unit kinds passive strategies search: the source turns and what was distilled from them. */
export const searchableKinds: ReadonlyArray<UnitKind> = ['turn', 'episode', 'fact'];

/** Fused dense + lexical top-k over units: `TopK(sim(x, v))`, the passive baseline of SPEC §4. */
export async function fusedSearch(context: RecallContext, query: string, options: RecallOptions & { depth?: number }) {
  const depth = options.depth ?? 50;
  const [vector] = await context.embed([query]);
  const [lexical, dense] = await Promise.all([
    context.store.lexicalSearch(options.scope, query, { k: depth, kinds: searchableKinds }),
    vector ? context.store.vectorSearch(options.scope, vector, { k: depth, kinds: searchableKinds }) : Promise.resolve([]),
  ]);
  return {
    fused: reciprocalRankFusion([
      { name: 'lexical', units: lexical.map((hit) => hit.unit) },
      { name: 'dense', units: dense.map((hit) => hit.unit), weight: 0.3 },
    ]),
    lexical: lexical.length,
    dense: dense.length,
  };
}

/** The `similarity` strategy. */
export function createSimilarityStrategy(context: RecallContext): RecallStrategy {
  return {
    name: 'similarity',
    async recall(query: string, options: RecallOptions): Promise<RecallResult> {
      const k = options.k ?? 10;
      const { fused, lexical, dense } = await fusedSearch(context, query, options);
      return {
        strategy: 'similarity',
        query,
        evidence: fused.slice(0, k).map(({ unit, score, from }) => ({
          unit,
          score,
          sources: unit.sources,
          coordinates: unit.context,
          reasons: [{ operator: 'rrf(lexical, dense)', detail: from.join(', ') }],
        })),
        trace: [{ step: 0, action: 'fused-search', input: { query, kinds: ['turn', 'episode', 'fact'] }, output: { lexical, dense, fused: fused.length } }],
      };
    },
  };
}
