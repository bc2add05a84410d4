import type { Cue, Relation, Tag } from '../model/graph.js';
import type { ScopeFilter } from '../model/scope.js';
import type { Unit, UnitKind } from '../model/units.js';
import type { WriteBatchInput } from '../model/batch.js';

/** Version of the {@link MemoryStore} contract a store implements. */
export const memoryStoreSpecificationVersion = 'v1' as const;

/** Which coordinate a time window applies to. */
export type TimeField = 'event' | 'session' | 'any';

/** A time window over one coordinate; bounds are inclusive ISO strings, either may be open. */
export interface TimeWindow {
  /** First instant (ISO); open when omitted. */
  start?: string;
  /** Last instant (ISO), inclusive; open when omitted. */
  end?: string;
  /** `event` (event time), `session` (session span) or `any` (event, mention or session). @default 'any' */
  field?: TimeField;
}

/** Filters shared by every unit query. */
export interface UnitFilter {
  /** Only these kinds. @default all kinds */
  kinds?: ReadonlyArray<UnitKind>;
  /** Only units whose chosen coordinate overlaps this window. */
  time?: TimeWindow;
}

/** One search hit. */
export interface ScoredUnit {
  /** The unit. */
  unit: Unit;
  /** Cosine similarity (vector) or BM25 score (lexical); higher is better. */
  score: number;
}

/** Pagination of list queries. */
export interface ListOptions extends UnitFilter {
  /** Page size. @default 100 */
  limit?: number;
  /** Return records whose id sorts after this one (the last id of the previous page). */
  after?: string;
}

/** What a store can do beyond the required surface; core falls back where a flag is false. */
export interface StoreCapabilities {
  /** Survives `dispose()` and reopen. */
  persistent: boolean;
  /** Vector top-k is exact (otherwise approximate, e.g. HNSW). */
  exactVector: boolean;
  /** Several processes may open the same store at once. */
  multiProcess: boolean;
}

/**
 * The store port. Everything is scoped: a query never returns a record of another tenant.
 * Writes are atomic batches: all of a batch lands or none of it. Implement it with
 * `@engram/core/testing`'s `runStoreConformance()` as your first test.
 */
export interface MemoryStore {
  /** Contract version. */
  readonly specificationVersion: typeof memoryStoreSpecificationVersion;
  /** Store name used in errors, e.g. `store-memory`. */
  readonly name: string;
  /** Optional capabilities. */
  readonly capabilities: StoreCapabilities;

  /** Writes units, cues, tags and relations atomically; identical content written twice changes nothing. */
  write(batch: WriteBatchInput): Promise<void>;
  /** Units by id, in order; `undefined` where missing or outside the scope. */
  getUnits(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Unit | undefined>>;
  /** Cues by id, in order; `undefined` where missing or outside the scope. */
  getCues(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Cue | undefined>>;
  /** Tags by id, in order; `undefined` where missing or outside the scope. */
  getTags(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Tag | undefined>>;
  /** Cues whose normalised name or alias equals one of `names` (normalised by the store). */
  findCues(scope: ScopeFilter, names: ReadonlyArray<string>): Promise<Cue[]>;

  /** φ c→g: relations of the given cues (each names a tag), sorted by cue, tag, content id. */
  relationsOfCues(scope: ScopeFilter, cueIds: ReadonlyArray<string>): Promise<Relation[]>;
  /** φ (c,g)→v: relations of the given (cue, tag) pairs, sorted by cue, tag, content id. */
  relationsOfPairs(scope: ScopeFilter, pairs: ReadonlyArray<{ cueId: string; tagId: string }>): Promise<Relation[]>;
  /** φ v→(c,g): relations pointing at the given contents, sorted by cue, tag, content id. */
  relationsOfContents(scope: ScopeFilter, contentIds: ReadonlyArray<string>): Promise<Relation[]>;
  /** φ τ→e: `(topicId, episodeId)` pairs of the given topics whose episode exists, sorted. */
  episodesOfTopics(scope: ScopeFilter, topicIds: ReadonlyArray<string>): Promise<Array<{ topicId: string; episodeId: string }>>;

  /** Units whose coordinate overlaps `window`, ordered by that coordinate's start, then id. */
  timeline(scope: ScopeFilter, window: TimeWindow, options?: { kinds?: ReadonlyArray<UnitKind>; limit?: number }): Promise<Unit[]>;
  /** Cosine top-k over units that have a vector. */
  vectorSearch(scope: ScopeFilter, vector: Float32Array, options: UnitFilter & { k: number }): Promise<ScoredUnit[]>;
  /** BM25 top-k (see `bm25Score` in core for the exact formula and statistics). */
  lexicalSearch(scope: ScopeFilter, query: string, options: UnitFilter & { k: number }): Promise<ScoredUnit[]>;

  /** Units in the scope, sorted by id. */
  listUnits(scope: ScopeFilter, options?: ListOptions): Promise<Unit[]>;
  /** Cues in the scope, sorted by id. */
  listCues(scope: ScopeFilter, options?: { limit?: number; after?: string }): Promise<Cue[]>;
  /** Tags in the scope, sorted by id. */
  listTags(scope: ScopeFilter, options?: { limit?: number; after?: string }): Promise<Tag[]>;

  /** Deletes one unit with its relations and the cues and tags left without any; returns whether it existed. */
  delete(scope: ScopeFilter, id: string): Promise<boolean>;
  /** Removes every record whose scope matches `scope` from every index (and cues/tags left orphaned). */
  forget(scope: ScopeFilter): Promise<void>;
  /** Releases files, handles and memory; later calls fail with a `StoreError` (`disposed`). */
  dispose(): Promise<void>;
  /** Escape hatch to the raw backend. */
  getInstance?(): unknown;
}
