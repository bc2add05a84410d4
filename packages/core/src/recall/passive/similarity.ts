import type { UnitKind } from '../../model/units.js';
import type { RecallOptions, RecallResult } from '../recall-types.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { reciprocalRankFusion } from './fuse.js';

/** Unit kinds passive strategies search: the source turns and what was distilled from them. */
export const searchableKinds: ReadonlyArray<UnitKind> = ['turn', 'episode', 'fact'];

const distilledKinds: ReadonlyArray<UnitKind> = ['episode', 'fact'];

/**
 * Weights of the fused lists. Turns and distilled units (episodes, facts) are ranked lexically
 * each on their own, so they meet by rank rather than by BM25 scores measured over documents of
 * very different lengths, and interleave. The offline embedder hashes words, so its list says
 * little the lexical lists do not and only breaks their ties; a model embedder earns more weight.
 */
export const fusionWeights = { distilled: 1, dense: 0.05 };

/** Fused dense + lexical top-k over units: `TopK(sim(x, v))`, the passive baseline of SPEC §4. */
export async function fusedSearch(context: RecallContext, query: string, options: RecallOptions & { depth?: number; weights?: { distilled: number; dense: number } }) {
  const depth = options.depth ?? 50;
  const weights = options.weights ?? fusionWeights;
  const [vector] = await context.embed([query]);
  const [turns, distilled, dense] = await Promise.all([
    context.store.lexicalSearch(options.scope, query, { k: depth, kinds: ['turn'] }),
    context.store.lexicalSearch(options.scope, query, { k: depth, kinds: distilledKinds }),
    vector ? context.store.vectorSearch(options.scope, vector, { k: depth, kinds: searchableKinds }) : Promise.resolve([]),
  ]);
  const lexical = [...turns, ...distilled];
  return {
    fused: reciprocalRankFusion([
      { name: 'lexical', units: turns.map((hit) => hit.unit) },
      { name: 'lexical-distilled', units: distilled.map((hit) => hit.unit), weight: weights.distilled },
      { name: 'dense', units: dense.map((hit) => hit.unit), weight: weights.dense },
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
