import type { Unit } from '../model/units.js';
import type { TimeField } from './memory-store.js';
import type { RecallFrame } from '../recall/frame/recall-frame.js';
import type { EvidenceReason, TraceStep } from '../recall/recall-types.js';

/** Version of the {@link Navigator} contract. */
export const navigatorSpecificationVersion = 'v1' as const;

/**
 * One action of the active-reconstruction toolkit (SPEC §4). The loop executes actions inside the
 * recall's scope; a navigator can neither name another scope nor invent an action.
 */
export type NavigationAction =
  /** Fused dense + lexical search over units; `expansions` are extra terms weighted lower than the query's words. */
  | { type: 'search'; query: string; expansions?: string[] }
  /** Query tag events: a cue (by name or id) → its tags → the contents, optionally only some tags. */
  | { type: 'query_tag_events'; cue: string; tags?: string[] }
  /** Query conversation time: contents whose time overlaps a window. */
  | { type: 'query_conversation_time'; start: string; end: string; field?: TimeField }
  /** Query event context: the (cue, tag) pairs around a content and its neighbouring turns. */
  | { type: 'query_event_context'; contentId: string }
  /** Query personal aspect: facts of an entity for an aspect (hobby, job, …) and their sources. */
  | { type: 'query_personal_aspect'; entity: string; aspect: string }
  /** Query topic events: the episodes of a topic. */
  | { type: 'query_topic_events'; topicId: string }
  /** Forward operator φ c→g: the tags of a cue. */
  | { type: 'cue_tags'; cueId: string }
  /** Forward operator φ (c,g)→v: the contents of a (cue, tag) pair. */
  | { type: 'pair_contents'; cueId: string; tagId: string }
  /** Reverse operator φ v→(c,g): the (cue, tag) pairs of a content. */
  | { type: 'content_pairs'; contentId: string };

/** The names of the toolkit's actions. */
export const navigationActionTypes = [
  'search',
  'query_tag_events',
  'query_conversation_time',
  'query_event_context',
  'query_personal_aspect',
  'query_topic_events',
  'cue_tags',
  'pair_contents',
  'content_pairs',
] as const;

/** A content reached by an action, before routing. */
export interface Candidate {
  /** The unit. */
  unit: Unit;
  /** Relevance to the query as scored by the loop (higher is better). */
  score: number;
  /** How it was reached. */
  reasons: EvidenceReason[];
  /** Step at which it was first reached. */
  step: number;
}

/** The state `S(t) = (Z(t), H(t))` a navigator decides on. */
export interface NavigationState {
  /** The query. */
  query: string;
  /** The induced recall frame. */
  frame: RecallFrame;
  /** Current step (0-based turn of the loop). */
  step: number;
  /** Budgets: turns `T`, expansions per turn `K`. */
  budget: { turns: number; expansionsPerTurn: number };
  /** Z(t): the active set — cue names/ids, tag ids and content ids currently in play. */
  active: { cues: Array<{ id: string; name: string }>; tags: Array<{ id: string; label: string; cueId: string }>; contentIds: string[] };
  /** H(t): the reconstructed context so far, best first. */
  context: Candidate[];
  /** What the retrieved content revealed: characteristic terms, cues named in it (and by which content), time anchors. */
  discovered: { terms: string[]; cues: Array<{ id: string; name: string; from?: string }>; times: string[] };
  /** What the last turn added: new contents kept, and how many of them entered the top-k. */
  progress: { newContents: number; newInTopK: number };
  /** Actions already executed (so a navigator does not repeat them). */
  executed: NavigationAction[];
  /** The trace so far. */
  trace: TraceStep[];
}

/** What a navigator decides for one turn. */
export interface NavigationDecision {
  /** Actions to execute this turn (the loop keeps at most `K`). */
  actions: NavigationAction[];
  /** Stop after this turn (or now, when `actions` is empty), and why. */
  stop?: { reason: string };
}

/** The policy behind active reconstruction: what to expand, what to keep, when to stop. */
export interface Navigator {
  /** Contract version. */
  readonly specificationVersion: typeof navigatorSpecificationVersion;
  /** Name shown in traces, e.g. `offline`. */
  readonly name: string;
  /** f_select: picks the next actions from the state. */
  select(state: NavigationState, options?: { signal?: AbortSignal }): Promise<NavigationDecision>;
  /** f_route: keeps the relevant candidates (by unit id) among those the actions reached. */
  route(state: NavigationState, candidates: ReadonlyArray<Candidate>, options?: { signal?: AbortSignal }): Promise<{ keep: string[]; reason?: string }>;
}
