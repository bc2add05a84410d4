import { navigatorSpecificationVersion, type Candidate, type NavigationAction, type NavigationDecision, type NavigationState, type Navigator } from '../../ports/navigator.js';

/** Tunables of the offline navigator. */
export interface OfflineNavigatorOptions {
  /** Keep candidates scoring at least this share of the best candidate of the round. @default 0.2 */
  keepRatio?: number;
  /** Keep at most this many candidates per round. @default 40 */
  keepPerRound?: number;
  /** Feedback terms added to a follow-up search. @default 8 */
  feedbackTerms?: number;
}

/** The actions already executed, as keys (computed once per decision, not once per check). */
function executedKeys(state: NavigationState): (action: NavigationAction) => boolean {
  const keys = new Set(state.executed.map((executed) => JSON.stringify(executed)));
  return (action) => keys.has(JSON.stringify(action));
}

/**
 * The deterministic offline policy. Round 0 acts on the recall frame: a search for the need, the
 * personal aspects asked about, the entities named, the time window. Later rounds act on what the
 * retrieved content revealed — cues named in it (followed through their tags), characteristic
 * terms (a follow-up search), the context and topics of the best events — and it stops as soon as
 * a round adds nothing to the top of the context.
 */
export function createOfflineNavigator(options: OfflineNavigatorOptions = {}): Navigator {
  const keepRatio = options.keepRatio ?? 0.2;
  const keepPerRound = options.keepPerRound ?? 40;
  const feedbackCount = options.feedbackTerms ?? 8;
  return {
    specificationVersion: navigatorSpecificationVersion,
    name: 'offline',
    async select(state: NavigationState): Promise<NavigationDecision> {
      const { frame } = state;
      const actions: NavigationAction[] = [];
      if (state.step === 0) {
        const participantNames = new Set(frame.participants.map((participant) => participant.value.toLowerCase()));
        for (const entity of frame.entities) {
          if (!participantNames.has(entity.value.name)) actions.push({ type: 'query_tag_events', cue: entity.value.name });
        }
        actions.push({ type: 'search', query: frame.query });
        for (const participant of frame.participants) {
          for (const aspect of frame.aspects) actions.push({ type: 'query_personal_aspect', entity: participant.value, aspect: aspect.value });
        }
        if (frame.time) actions.push({ type: 'query_conversation_time', start: frame.time.value.start, end: frame.time.value.end });
        // Entity cues first only when they are specific; the search is the backbone otherwise.
        actions.sort((a, b) => (a.type === 'search' ? -0.5 : 0) - (b.type === 'search' ? -0.5 : 0));
        return { actions };
      }
      if (state.progress.newInTopK === 0 && state.step > 1) return { actions: [], stop: { reason: 'the last round added nothing to the top of the context' } };
      const isExecuted = executedKeys(state);
      // Follow cues that the retrieved content names but the query did not.
      const queried = new Set(state.executed.flatMap((action) => (action.type === 'query_tag_events' ? [action.cue] : [])));
      const rankOf = new Map(state.context.map((candidate, index) => [candidate.unit.id, index]));
      const leads = [...state.discovered.cues].sort((a, b) => (rankOf.get(a.from ?? '') ?? 1e9) - (rankOf.get(b.from ?? '') ?? 1e9));
      for (const cue of leads) {
        if (!queried.has(cue.name) && !queried.has(cue.id) && state.frame.query.toLowerCase().indexOf(cue.name) < 0) {
          actions.push({ type: 'query_tag_events', cue: cue.name });
        }
        if (actions.length >= 2) break;
      }
      const expansions = state.discovered.terms.slice(0, feedbackCount);
      const search: NavigationAction = { type: 'search', query: frame.query, expansions };
      if (expansions.length > 0 && !isExecuted(search)) actions.push(search);
      const best = state.context[0];
      if (best && !isExecuted({ type: 'query_event_context', contentId: best.unit.id })) actions.push({ type: 'query_event_context', contentId: best.unit.id });
      const topic = state.context.map((candidate) => candidate.unit.context.topicId).find((topicId): topicId is string => topicId !== undefined && !isExecuted({ type: 'query_topic_events', topicId }));
      if (topic) actions.push({ type: 'query_topic_events', topicId: topic });
      if (actions.length === 0) return { actions, stop: { reason: 'nothing new to follow' } };
      return { actions };
    },
    async route(state: NavigationState, candidates: ReadonlyArray<Candidate>) {
      const best = Math.max(state.context[0]?.score ?? 0, candidates[0]?.score ?? 0);
      const keep: string[] = [];
      for (const candidate of candidates) {
        const structural = candidate.reasons.some((reason) => reason.operator !== 'search' && reason.operator !== 'query_event_context');
        if (candidate.score >= keepRatio * best || structural) keep.push(candidate.unit.id);
        if (keep.length >= keepPerRound) break;
      }
      return { keep, reason: `kept candidates scoring ≥ ${keepRatio} × best or reached through the graph` };
    },
  };
}
