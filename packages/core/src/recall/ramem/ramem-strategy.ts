import type { Turn, Unit } from '../../model/units.js';
import { unitInWindow } from '../../store-kit/unit-filter.js';
import { induceFrame } from '../frame/induce-frame.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import { summarizeFrame } from '../active/active-reconstruction.js';
import type { Evidence, EvidenceReason, RecallOptions, RecallResult } from '../recall-types.js';
import { buildQueryModel, rankPositions } from '../relevance/query-model.js';
import { reciprocalRankFusion } from '../passive/fuse.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { MemoryViewCache } from '../view/memory-view.js';

/** How many content-relevant candidates the frame is checked against. */
const candidatePool = 60;

/** The frame conditions a unit satisfies, as readable strings; `undefined` when one fails. */
function frameConditions(unit: Unit, frame: RecallFrame): string[] | undefined {
  const satisfied: string[] = [];
  if (frame.participants.length > 0) {
    const names = frame.participants.map((participant) => participant.value);
    const speaker = unit.kind === 'turn' ? (unit as Turn).speaker : undefined;
    const involved = speaker !== undefined ? names.includes(speaker) : unit.context.participants.some((name) => names.includes(name));
    if (!involved) return undefined;
    satisfied.push(`participant ∈ {${names.join(', ')}}`);
  }
  if (frame.time) {
    if (!unitInWindow(unit, frame.time.value)) return undefined;
    satisfied.push(`time ∈ [${frame.time.value.start}, ${frame.time.value.end}]`);
  }
  if (frame.relation?.value.anchorTime) {
    const anchor = frame.relation.value.anchorTime;
    const window = frame.relation.value.type === 'after' ? { start: anchor } : { end: anchor };
    if (!unitInWindow(unit, { ...window, field: 'any' })) return undefined;
    satisfied.push(`${frame.relation.value.type} ${frame.relation.value.anchor} (${anchor.slice(0, 10)})`);
  }
  return satisfied;
}

/**
 * RaMem's validity-aware retrieval: (1) induce the recall frame, grounded against the memory;
 * (2) rank content-relevant candidates (contextual lexical over turns fused with dense over
 * distilled units), then put the frame-compatible ones (C_ctx) first and the content fallback
 * (C_content) after, de-duplicated; (3) evidence keeps its coordinates for rendering.
 */
export function createRamemStrategy(context: RecallContext): RecallStrategy {
  const views = context.views ?? new MemoryViewCache(context.store);
  return {
    name: 'ramem',
    async recall(query: string, options: RecallOptions): Promise<RecallResult> {
      const k = options.k ?? 10;
      const view = await views.get(options.scope);
      const frame = await induceFrame(query, { store: context.store, scope: options.scope, view, ...(options.questionDate ? { questionDate: options.questionDate } : {}) });
      const model = buildQueryModel(frame, view);
      const lexical = rankPositions(view.turnIndex.scoreAll(model.terms)).slice(0, candidatePool).map(([position]) => view.turns[position] as Unit);
      const [vector] = await context.embed([frame.need]);
      const dense = vector ? await context.store.vectorSearch(options.scope, vector, { k: 20, kinds: ['episode', 'fact'] }) : [];
      const content = reciprocalRankFusion([
        { name: 'lexical', units: lexical },
        { name: 'dense', units: dense.map((hit) => hit.unit), weight: 0.3 },
      ]);
      const hasFrame = frame.participants.length > 0 || frame.time !== undefined || frame.relation?.value.anchorTime !== undefined;
      const contextual: Evidence[] = [];
      const fallback: Evidence[] = [];
      for (const { unit, score, from } of content) {
        const conditions = hasFrame ? frameConditions(unit, frame) : [];
        const reasons: EvidenceReason[] = [{ operator: 'rrf(lexical, dense)', detail: from.join(', ') }];
        if (hasFrame && conditions) {
          contextual.push({ unit, score: 1 + score, sources: unit.sources, coordinates: unit.context, reasons: reasons.map((reason) => ({ ...reason, frameCondition: conditions.join(' ∧ ') })) });
        } else {
          fallback.push({ unit, score, sources: unit.sources, coordinates: unit.context, reasons });
        }
      }
      const evidence = [...contextual, ...fallback].slice(0, k);
      return {
        strategy: 'ramem',
        query,
        evidence,
        trace: [
          { step: 0, action: 'induce-frame', output: summarizeFrame(frame) },
          { step: 1, action: 'content-retrieval', output: { lexical: lexical.length, dense: dense.length, fused: content.length } },
          { step: 2, action: 'validity-ranking', output: { contextual: contextual.length, fallback: fallback.length }, reason: hasFrame ? 'frame-compatible candidates first' : 'no grounded frame: plain content retrieval' },
        ],
      };
    },
  };
}
