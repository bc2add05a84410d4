import { createMappingOperators } from '../../operators/mapping-operators.js';
import type { Unit } from '../../model/units.js';
import type { Evidence, RecallOptions, RecallResult } from '../recall-types.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { fusedSearch } from './similarity.js';

/** Options of the `graph` strategy. */
export interface GraphOptions {
  /** Similarity seeds expanded. @default 5 */
  seeds?: number;
  /** Hops along cue–tag–content relations. @default 1 */
  hops?: number;
  /** Neighbours kept per hop. @default 20 */
  perHop?: number;
}

/**
 * The `graph` strategy: similarity seeds plus their N-hop neighbours through the relation graph
 * (content → its cues → the cues' other contents, and topic → episodes). Passive: the hops are
 * fixed, not chosen; neighbours are ordered by how many seeds share them.
 */
export function createGraphStrategy(context: RecallContext, options: GraphOptions = {}): RecallStrategy {
  const seedCount = options.seeds ?? 5;
  const hops = options.hops ?? 1;
  const perHop = options.perHop ?? 20;
  return {
    name: 'graph',
    async recall(query: string, recallOptions: RecallOptions): Promise<RecallResult> {
      const k = recallOptions.k ?? 10;
      const operators = createMappingOperators(context.store, recallOptions.scope);
      const { fused } = await fusedSearch(context, query, recallOptions);
      const evidence: Evidence[] = [];
      const seen = new Set<string>();
      const seeds = fused.slice(0, seedCount);
      for (const { unit, score, from } of seeds) {
        seen.add(unit.id);
        evidence.push({ unit, score, sources: unit.sources, coordinates: unit.context, reasons: [{ operator: 'rrf(lexical, dense)', detail: from.join(', ') }] });
      }
      const trace: RecallResult['trace'] = [{ step: 0, action: 'seeds', output: { seeds: seeds.map((seed) => seed.unit.id) } }];
      let frontier = seeds.map((seed) => seed.unit);
      for (let hop = 1; hop <= hops && frontier.length > 0; hop++) {
        const pairs = await operators.contentsToPairs(frontier.map((unit) => unit.id));
        const byCue = await operators.cueToTags(pairs.map((pair) => pair.cueId));
        const contents = await operators.pairsToContents(byCue);
        const topics = frontier.map((unit) => unit.context.topicId).filter((id): id is string => id !== undefined);
        const episodes = await operators.topicsToEpisodes(topics);
        const counts = new Map<string, number>();
        for (const id of [...contents, ...episodes]) if (!seen.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
        const chosen = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, perHop).map(([id]) => id);
        const units = (await context.store.getUnits(recallOptions.scope, chosen)).filter((unit): unit is Unit => unit !== undefined);
        const tail = evidence[evidence.length - 1]?.score ?? 1;
        units.forEach((unit, index) => {
          seen.add(unit.id);
          evidence.push({ unit, score: tail * 0.5 ** hop * (1 - index / (units.length + 1)), sources: unit.sources, coordinates: unit.context, reasons: [{ operator: 'n-hop', detail: `hop ${hop} via shared cues/topics` }] });
        });
        trace.push({ step: hop, action: 'expand', output: { pairs: pairs.length, neighbours: units.length } });
        frontier = units;
      }
      // Fill with the rest of the similarity ranking so a caller asking for many items gets them.
      for (const { unit, score, from } of fused.slice(seedCount)) {
        if (evidence.length >= Math.max(k, seedCount)) break;
        if (seen.has(unit.id)) continue;
        seen.add(unit.id);
        evidence.push({ unit, score: score * 0.25, sources: unit.sources, coordinates: unit.context, reasons: [{ operator: 'rrf(lexical, dense)', detail: from.join(', ') }] });
      }
      return { strategy: 'graph', query, evidence: evidence.slice(0, k), trace };
    },
  };
}
