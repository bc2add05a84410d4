import type { Turn, Unit } from '../../model/units.js';
import { navigationActionTypes, type NavigationAction, type NavigationState, type Navigator } from '../../ports/navigator.js';
import { analyze } from '../../search/analyzer.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import { memoizeGraphReads } from '../view/memo-store.js';
import { induceFrame } from '../frame/induce-frame.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import type { Evidence, EvidenceReason, RecallOptions, RecallResult, TraceStep } from '../recall-types.js';
import { buildQueryModel } from '../relevance/query-model.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { MemoryViewCache, type MemoryView } from '../view/memory-view.js';
import { contextWeights, ReconstructedContext } from './reconstructed-context.js';
import { discover } from './discovery.js';
import { createOfflineNavigator } from './offline-navigator.js';
import { runAction, type ToolkitEnvironment } from './toolkit.js';

/** Budgets and policy of active reconstruction. */
export interface ActiveOptions {
  /** The policy. @default the offline navigator */
  navigator?: Navigator;
  /** Turns `T`: how many select–expand–route rounds at most. @default 3 */
  turns?: number;
  /** Expansions per turn `K`: actions executed per round at most. @default 4 */
  expansionsPerTurn?: number;
}

function actionKey(action: NavigationAction): string {
  return JSON.stringify(action);
}

/**
 * How specifically a cue's name points at a few turns: 1 when its rarest word occurs in at most
 * `specificTurns` turns, falling as the name gets commoner. A chain through a rare name ("the trail
 * continues at marker kalomi123") is a lead; a chain through "family" or "group" is mostly noise.
 */
function specificity(name: string, view: MemoryView): number {
  let rarest = Number.POSITIVE_INFINITY;
  for (const term of analyze(name)) rarest = Math.min(rarest, Math.max(1, view.turnIndex.documentCount(term)));
  if (!Number.isFinite(rarest)) return 0;
  return Math.min(1, specificTurns / rarest);
}

/** A cue name found in at most this many turns passes full activation along a chain. */
const specificTurns = 3;

/** Activation a content reached by `action` starts with (see {@link ReconstructedContext}). */
function activationOf(action: NavigationAction, state: NavigationState, held: ReconstructedContext, view: MemoryView): number {
  switch (action.type) {
    case 'query_tag_events': {
      const lead = state.discovered.cues.find((cue) => cue.name === action.cue || cue.id === action.cue);
      if (lead?.from !== undefined) return contextWeights.decay * Math.max(held.activationOf(lead.from), 0.5) * specificity(lead.name, view);
      return state.frame.entities.some((entity) => entity.value.name === action.cue || entity.value.id === action.cue) ? 0.15 : 0.25;
    }
    case 'query_personal_aspect':
      return 0.3;
    case 'query_topic_events':
      return 0.15;
    case 'query_event_context':
      return contextWeights.decay * contextWeights.decay * held.activationOf(action.contentId);
    default:
      return 0;
  }
}

/**
 * MRAgent's active reconstruction: state S(t) = (Z(t), H(t)); each round the navigator selects
 * actions, the toolkit expands only along them, the navigator routes (keeps) candidates, H grows,
 * and the loop stops when the navigator says so or the budget T is spent. Budgets, the action
 * vocabulary and the scope are enforced here, not by the navigator. Evidence is ranked turns, each
 * with the operators that reached it.
 */
export function createActiveStrategy(context: RecallContext, options: ActiveOptions = {}): RecallStrategy {
  const views = context.views ?? new MemoryViewCache(context.store);
  const navigator = options.navigator ?? createOfflineNavigator();
  const budget = { turns: options.turns ?? 3, expansionsPerTurn: options.expansionsPerTurn ?? 4 };
  // The graph reads of a view's memory, memoised for as long as the view lives (it is rebuilt after a write).
  const graphReads = new WeakMap<MemoryView, MemoryStore>();
  return {
    name: 'active',
    async recall(query: string, recallOptions: RecallOptions): Promise<RecallResult> {
      const { scope } = recallOptions;
      const k = recallOptions.k ?? 10;
      const signal = recallOptions.signal;
      const view = await views.get(scope);
      let store = graphReads.get(view);
      if (!store) graphReads.set(view, (store = memoizeGraphReads(context.store, scope)));
      const frame = await induceFrame(query, { store, scope, view, ...(recallOptions.questionDate ? { questionDate: recallOptions.questionDate } : {}) });
      const baseModel = buildQueryModel(frame, view);
      const environment: ToolkitEnvironment = { store, scope, view, frame, embed: context.embed, baseModel };
      const trace: TraceStep[] = [{ step: 0, action: 'induce-frame', output: summarizeFrame(frame) }];
      const held = new ReconstructedContext(view, baseModel, frame);
      const state: NavigationState = {
        query,
        frame,
        step: 0,
        budget,
        active: { cues: [], tags: [], contentIds: [] },
        context: [],
        discovered: { terms: [], cues: [], times: [] },
        progress: { newContents: 0, newInTopK: 0 },
        executed: [],
        trace,
      };
      // Ids already in the active set Z (cue ids, `cueId\u0000tagId` pairs, content ids): Z's lists only grow.
      const active = new Set<string>();

      for (let step = 0; step < budget.turns; step++) {
        signal?.throwIfAborted();
        state.step = step;
        const decision = await navigator.select(state, signal ? { signal } : {});
        const seen = new Set(state.executed.map(actionKey));
        const valid = decision.actions.filter((action) => (navigationActionTypes as ReadonlyArray<string>).includes(action?.type) && !seen.has(actionKey(action)));
        const actions = valid.slice(0, budget.expansionsPerTurn);
        trace.push({ step, action: 'select', input: { navigator: navigator.name }, output: { actions, refused: decision.actions.length - actions.length }, ...(decision.stop ? { reason: decision.stop.reason } : {}) });
        if (actions.length === 0) {
          trace.push({ step, action: 'stop', reason: decision.stop?.reason ?? 'no action left to take' });
          break;
        }
        // Expand only along the chosen actions; contents reach H through their source turns.
        const reached = new Map<string, { turn: Turn; reasons: EvidenceReason[]; activation: number }>();
        for (const action of actions) {
          const result = await runAction(environment, action);
          const activation = activationOf(action, state, held, view);
          state.executed.push(action);
          if (action.type === 'search') held.expand(action.expansions ?? []);
          for (const cue of result.cues) {
            if (active.has(cue.id)) continue;
            active.add(cue.id);
            state.active.cues.push({ id: cue.id, name: cue.name });
          }
          for (const tag of result.tags) {
            const key = `${tag.cueId}\u0000${tag.id}`;
            if (active.has(key)) continue;
            active.add(key);
            state.active.tags.push({ id: tag.id, label: tag.label, cueId: tag.cueId });
          }
          for (const { unit, detail } of result.contents) {
            if (unit.kind !== 'turn' && !active.has(unit.id)) {
              active.add(unit.id);
              state.active.contentIds.push(unit.id);
            }
            collect(reached, unit, view, { operator: action.type, detail }, activation);
          }
          trace.push({ step, action: 'expand', input: action as unknown as Record<string, unknown>, output: { contents: result.contents.length, cues: result.cues.length, tags: result.tags.length } });
        }
        // Route: the navigator keeps what is relevant (f_route); H grows by what it keeps.
        const before = new Set(state.context.slice(0, k).map((candidate) => candidate.unit.id));
        const pending = [...reached.values()];
        const scores = held.score(pending);
        const candidates = pending.map((entry, index) => ({ unit: entry.turn as Unit, score: scores[index] as number, reasons: entry.reasons, step })).sort((a, b) => b.score - a.score);
        const routed = await navigator.route(state, candidates, signal ? { signal } : {});
        const keep = new Set(routed.keep);
        let newContents = 0;
        for (const entry of pending) if (keep.has(entry.turn.id) && held.hold(entry.turn, entry.reasons, step, entry.activation)) newContents++;
        state.context = held.ranked();
        const newInTopK = state.context.slice(0, k).filter((candidate) => !before.has(candidate.unit.id)).length;
        state.progress = { newContents, newInTopK };
        trace.push({ step, action: 'route', output: { candidates: candidates.length, kept: keep.size, pruned: candidates.length - keep.size, newContents, newInTopK }, ...(routed.reason ? { reason: routed.reason } : {}) });
        if (step + 1 < budget.turns && !decision.stop) await discover(state, environment, view, held.currentModel());
        if (decision.stop) {
          trace.push({ step, action: 'stop', reason: decision.stop.reason });
          break;
        }
      }
      // Every reconstruction says why it ended, the turn budget included.
      if (trace.at(-1)?.action !== 'stop') trace.push({ step: state.step, action: 'stop', reason: `turn budget reached (T = ${budget.turns})` });
      const evidence: Evidence[] = state.context.slice(0, k).map((candidate) => ({
        unit: candidate.unit,
        score: candidate.score,
        sources: candidate.unit.sources,
        coordinates: candidate.unit.context,
        reasons: dedupeReasons(candidate.reasons, frame),
      }));
      return { strategy: 'active', query, evidence, trace };
    },
  };
}

function collect(
  reached: Map<string, { turn: Turn; reasons: EvidenceReason[]; activation: number }>,
  unit: Unit,
  view: MemoryView,
  reason: EvidenceReason,
  activation: number,
): void {
  const why = unit.kind === 'turn' ? reason : { ...reason, detail: `${reason.detail ?? ''} via ${unit.kind} ${unit.id}`.trim() };
  for (const turn of view.sourceTurns(unit)) {
    const entry = reached.get(turn.id) ?? { turn, reasons: [], activation: 0 };
    entry.reasons.push(why);
    entry.activation = Math.max(entry.activation, activation);
    reached.set(turn.id, entry);
  }
}

function dedupeReasons(reasons: EvidenceReason[], frame: RecallFrame): EvidenceReason[] {
  const seen = new Map<string, EvidenceReason>();
  for (const reason of reasons) {
    const key = `${reason.operator}\u0000${reason.detail ?? ''}`;
    if (!seen.has(key)) seen.set(key, frame.time ? { ...reason, frameCondition: `time ∈ [${frame.time.value.start}, ${frame.time.value.end}]` } : reason);
  }
  return [...seen.values()];
}

/** A compact, JSON-friendly summary of a frame for the trace. */
export function summarizeFrame(frame: RecallFrame): Record<string, unknown> {
  return {
    need: frame.need,
    participants: frame.participants.map((participant) => participant.value),
    entities: frame.entities.map((entity) => entity.value.name),
    time: frame.time ? `${frame.time.value.start}..${frame.time.value.end} (${frame.time.text}, from the ${frame.time.anchor === 'question-date' ? 'question date' : 'memory\u2019s last date'})` : undefined,
    relation: frame.relation ? `${frame.relation.value.type} ${frame.relation.value.anchor}` : undefined,
    aspects: frame.aspects.map((aspect) => aspect.value),
    asksWhen: frame.asksWhen,
    dropped: frame.dropped,
  };
}
