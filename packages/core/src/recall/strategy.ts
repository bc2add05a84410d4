import type { MemoryStore } from '../ports/memory-store.js';
import type { RecallOptions, RecallResult } from './recall-types.js';
import type { MemoryView } from './view/memory-view.js';

/** What a strategy recalls from: the store, and an embedding function for dense search. */
export interface RecallContext {
  /** The store to read. */
  store: MemoryStore;
  /** Embeds query texts (the same embedder that wrote the vectors). */
  embed: (texts: string[]) => Promise<Float32Array[]>;
  /** Per-scope memory views shared by strategies (the engram passes its cache, invalidated on writes). @default a cache per strategy */
  views?: { get(scope: RecallOptions['scope']): Promise<MemoryView> };
}

/** One recall strategy: every strategy shares this interface and returns evidence plus a trace. */
export interface RecallStrategy {
  /** Strategy name, e.g. `active`. */
  readonly name: string;
  /** Recalls evidence for `query` in `options.scope`. */
  recall(query: string, options: RecallOptions): Promise<RecallResult>;
}

/** Builds a strategy over a context. */
export type RecallStrategyFactory = (context: RecallContext) => RecallStrategy;
