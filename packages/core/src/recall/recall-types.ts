import type { EpisodicContext, SourceRef } from '../model/context.js';
import type { ScopeFilter } from '../model/scope.js';
import type { Unit } from '../model/units.js';

/** Names of the built-in recall strategies. */
export type StrategyName = 'bm25-turns' | 'orama-turns' | 'similarity' | 'graph' | 'ramem' | 'active';

/** Why an evidence item was chosen. */
export interface EvidenceReason {
  /** The operator or search that produced it, e.g. `lexical`, `vector`, `φ(c,g)→v`, `query_tag_events`. */
  operator: string;
  /** The recall-frame condition it satisfies, e.g. `time ∈ [2023-08-01, 2023-08-31]`, when any. */
  frameCondition?: string;
  /** Free-text detail (cue, tag, step). */
  detail?: string;
}

/** One ranked piece of evidence. */
export interface Evidence {
  /** The unit (turn, episode, fact or topic). */
  unit: Unit;
  /** Strategy-specific score; higher is better. */
  score: number;
  /** Source turns it was built from (for a turn: itself). */
  sources: SourceRef[];
  /** Its coordinates (same as `unit.context`). */
  coordinates: EpisodicContext;
  /** Why it was chosen. */
  reasons: EvidenceReason[];
}

/** One recorded step of what a strategy did. */
export interface TraceStep {
  /** Step number, from 0. */
  step: number;
  /** What was done, e.g. `induce-frame`, `lexical`, `select`, `expand`, `route`, `stop`. */
  action: string;
  /** Arguments or inputs of the step. */
  input?: Record<string, unknown>;
  /** What it produced (counts, ids, decisions). */
  output?: Record<string, unknown>;
  /** Why the step was taken or why the loop stopped. */
  reason?: string;
}

/** The result of one recall. */
export interface RecallResult {
  /** The strategy that produced it. */
  strategy: StrategyName | string;
  /** The query as asked. */
  query: string;
  /** Ranked evidence, best first. */
  evidence: Evidence[];
  /** What was done, step by step. */
  trace: TraceStep[];
}

/** Options of one recall. */
export interface RecallOptions {
  /** Whose memory to search. */
  scope: ScopeFilter;
  /** How many evidence items to return. @default 10 */
  k?: number;
  /** When the question is asked (ISO); relative expressions are grounded against the memory's own dates when omitted. */
  questionDate?: string;
  /** Cancels the recall. */
  signal?: AbortSignal;
}
