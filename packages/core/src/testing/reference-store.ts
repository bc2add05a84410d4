import { normalizeName, relationKey, type Cue, type Relation, type Tag } from '../model/graph.js';
import { scopeMatches, type ScopeFilter } from '../model/scope.js';
import type { Unit, UnitKind } from '../model/units.js';
import type { WriteBatchInput } from '../model/batch.js';
import type { ListOptions, ScoredUnit, TimeWindow, UnitFilter } from '../ports/memory-store.js';
import { prepareBatch, type BatchLookup } from '../store-kit/prepare-batch.js';
import { compareHits, cosineSimilarity, unitMatches, unitTimeKey } from '../store-kit/unit-filter.js';
import { analyzeUnit, referenceLexicalScores, type AnalyzedUnit } from './reference-bm25.js';

/** Orders strings by UTF-16 code units, like `<` (the id order every store uses). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders relations by cue, tag, then content id. */
export function compareRelations(a: Relation, b: Relation): number {
  return compareIds(a.cueId, b.cueId) || compareIds(a.tagId, b.tagId) || compareIds(a.contentId, b.contentId);
}

/** Scores (id → score) ranked best first, ties by id, cut to `k`. */
export function rankScores(scores: ReadonlyMap<string, number>, k: number): Array<{ id: string; score: number }> {
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .slice(0, Math.max(0, k));
}

const byId = <T extends { id: string }>(a: T, b: T) => compareIds(a.id, b.id);

function page<T extends { id: string }>(records: T[], options: { limit?: number; after?: string }): T[] {
  const after = options.after;
  return records
    .filter((record) => after === undefined || record.id > after)
    .sort(byId)
    .slice(0, options.limit ?? 100);
}

/**
 * The brute-force model of the store port that the conformance suite compares stores against.
 * Every query scans everything; the semantics it pins down:
 *
 * - writes are validated with core's `prepareBatch`; units, cues and tags are put (last write of
 *   an id wins), relations are keyed by `(cue, tag, content)` and the last write of a triple wins;
 * - a record is visible to a query when `scopeMatches(filter, record.scope)` (relations by their
 *   own scope; `episodesOfTopics` needs both the topic and the episode visible);
 * - `delete` removes the unit, every relation pointing at it, then the cues and tags that lost a
 *   relation and have none left; `forget` removes the units, cues, tags and relations in the
 *   scope, every relation pointing at a removed record, then the cues and tags orphaned that way;
 * - `timeline` orders by `unitTimeKey` then id, with no limit unless one is given; lists page by
 *   id with a default limit of 100; vector scores are cosine over units whose vector has the
 *   query's dimension; lexical scores are {@link referenceLexicalScores}.
 */
export class ReferenceStore {
  /** Units by id. */
  readonly units = new Map<string, AnalyzedUnit>();
  /** Cues by id. */
  readonly cues = new Map<string, Cue>();
  /** Tags by id. */
  readonly tags = new Map<string, Tag>();
  /** Relations by `relationKey`. */
  readonly relations = new Map<string, Relation>();

  /** Owner lookup for `prepareBatch`. */
  readonly lookup: BatchLookup = {
    ownerOf: (kind, id) =>
      kind === 'unit' ? this.units.get(id)?.unit.scope.userId : (kind === 'cue' ? this.cues : this.tags).get(id)?.scope.userId,
  };

  /** Applies a batch; throws `InvalidInputError` (and changes nothing) when `prepareBatch` does. */
  write(input: WriteBatchInput): void {
    const batch = prepareBatch(input, this.lookup);
    for (const unit of batch.units) this.units.set(unit.id, analyzeUnit(structuredClone(unit)));
    for (const cue of batch.cues) this.cues.set(cue.id, structuredClone(cue));
    for (const tag of batch.tags) this.tags.set(tag.id, structuredClone(tag));
    for (const relation of batch.relations) this.relations.set(relationKey(relation), structuredClone(relation));
  }

  /** Deletes a unit visible in `scope`; returns whether it did. */
  delete(scope: ScopeFilter, id: string): boolean {
    const entry = this.units.get(id);
    if (entry === undefined || !scopeMatches(scope, entry.unit.scope)) return false;
    this.units.delete(id);
    this.removeRelations((relation) => relation.contentId === id);
    return true;
  }

  /** Removes everything in `scope` and what it leaves dangling or orphaned. */
  forget(scope: ScopeFilter): void {
    const removed = { units: new Set<string>(), cues: new Set<string>(), tags: new Set<string>() };
    for (const [id, { unit }] of this.units) if (scopeMatches(scope, unit.scope)) removed.units.add(id);
    for (const [id, cue] of this.cues) if (scopeMatches(scope, cue.scope)) removed.cues.add(id);
    for (const [id, tag] of this.tags) if (scopeMatches(scope, tag.scope)) removed.tags.add(id);
    for (const id of removed.units) this.units.delete(id);
    for (const id of removed.cues) this.cues.delete(id);
    for (const id of removed.tags) this.tags.delete(id);
    this.removeRelations(
      (relation) =>
        scopeMatches(scope, relation.scope) ||
        removed.units.has(relation.contentId) ||
        removed.cues.has(relation.cueId) ||
        removed.tags.has(relation.tagId),
    );
  }

  private removeRelations(predicate: (relation: Relation) => boolean): void {
    const touchedCues = new Set<string>();
    const touchedTags = new Set<string>();
    for (const [key, relation] of this.relations) {
      if (!predicate(relation)) continue;
      this.relations.delete(key);
      touchedCues.add(relation.cueId);
      touchedTags.add(relation.tagId);
    }
    const related = { cues: new Set<string>(), tags: new Set<string>() };
    for (const relation of this.relations.values()) {
      related.cues.add(relation.cueId);
      related.tags.add(relation.tagId);
    }
    for (const id of touchedCues) if (!related.cues.has(id)) this.cues.delete(id);
    for (const id of touchedTags) if (!related.tags.has(id)) this.tags.delete(id);
  }

  /** A deep copy, for comparing before and after. */
  clone(): ReferenceStore {
    const copy = new ReferenceStore();
    for (const [id, entry] of this.units) copy.units.set(id, structuredClone(entry));
    for (const [id, cue] of this.cues) copy.cues.set(id, structuredClone(cue));
    for (const [id, tag] of this.tags) copy.tags.set(id, structuredClone(tag));
    for (const [key, relation] of this.relations) copy.relations.set(key, structuredClone(relation));
    return copy;
  }

  /** A unit by id, ignoring scope. */
  unit(id: string): Unit | undefined {
    return this.units.get(id)?.unit;
  }

  getUnits(scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Unit | undefined> {
    return ids.map((id) => {
      const unit = this.unit(id);
      return unit !== undefined && scopeMatches(scope, unit.scope) ? unit : undefined;
    });
  }

  getCues(scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Cue | undefined> {
    return ids.map((id) => {
      const cue = this.cues.get(id);
      return cue !== undefined && scopeMatches(scope, cue.scope) ? cue : undefined;
    });
  }

  getTags(scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Tag | undefined> {
    return ids.map((id) => {
      const tag = this.tags.get(id);
      return tag !== undefined && scopeMatches(scope, tag.scope) ? tag : undefined;
    });
  }

  /** Matching cues sorted by id (the suite compares `findCues` answers in id order). */
  findCues(scope: ScopeFilter, names: ReadonlyArray<string>): Cue[] {
    const wanted = new Set(names.map(normalizeName));
    return [...this.cues.values()]
      .filter((cue) => scopeMatches(scope, cue.scope))
      .filter((cue) => [cue.name, ...cue.aliases].some((name) => wanted.has(normalizeName(name))))
      .sort(byId);
  }

  private relationsWhere(scope: ScopeFilter, predicate: (relation: Relation) => boolean): Relation[] {
    return [...this.relations.values()]
      .filter((relation) => scopeMatches(scope, relation.scope) && predicate(relation))
      .sort(compareRelations);
  }

  relationsOfCues(scope: ScopeFilter, cueIds: ReadonlyArray<string>): Relation[] {
    const wanted = new Set(cueIds);
    return this.relationsWhere(scope, (relation) => wanted.has(relation.cueId));
  }

  relationsOfPairs(scope: ScopeFilter, pairs: ReadonlyArray<{ cueId: string; tagId: string }>): Relation[] {
    const wanted = new Set(pairs.map((pair) => `${pair.cueId}\u0000${pair.tagId}`));
    return this.relationsWhere(scope, (relation) => wanted.has(`${relation.cueId}\u0000${relation.tagId}`));
  }

  relationsOfContents(scope: ScopeFilter, contentIds: ReadonlyArray<string>): Relation[] {
    const wanted = new Set(contentIds);
    return this.relationsWhere(scope, (relation) => wanted.has(relation.contentId));
  }

  episodesOfTopics(scope: ScopeFilter, topicIds: ReadonlyArray<string>): Array<{ topicId: string; episodeId: string }> {
    const pairs = new Map<string, { topicId: string; episodeId: string }>();
    for (const topicId of new Set(topicIds)) {
      const topic = this.unit(topicId);
      if (topic?.kind !== 'topic' || !scopeMatches(scope, topic.scope)) continue;
      for (const episodeId of topic.episodeIds) {
        const episode = this.unit(episodeId);
        if (episode?.kind !== 'episode' || !scopeMatches(scope, episode.scope)) continue;
        pairs.set(`${topicId}\u0000${episodeId}`, { topicId, episodeId });
      }
    }
    return [...pairs.values()].sort((a, b) => compareIds(a.topicId, b.topicId) || compareIds(a.episodeId, b.episodeId));
  }

  timeline(scope: ScopeFilter, window: TimeWindow, options: { kinds?: ReadonlyArray<UnitKind>; limit?: number } = {}): Unit[] {
    const field = window.field ?? 'any';
    const filter: UnitFilter = { time: window, ...(options.kinds === undefined ? {} : { kinds: options.kinds }) };
    return this.unitList()
      .filter((unit) => unitMatches(scope, filter, unit))
      .map((unit) => ({ unit, key: unitTimeKey(unit, field) }))
      .sort((a, b) => a.key - b.key || compareIds(a.unit.id, b.unit.id))
      .slice(0, options.limit ?? Number.POSITIVE_INFINITY)
      .map(({ unit }) => unit);
  }

  /** Cosine similarity of every eligible unit (in scope, passing the filters, vector of the query's dimension). */
  vectorScores(scope: ScopeFilter, vector: Float32Array, filter: UnitFilter = {}): Map<string, number> {
    const scores = new Map<string, number>();
    for (const unit of this.unitList()) {
      if (unit.vector === undefined || unit.vector.length !== vector.length || !unitMatches(scope, filter, unit)) continue;
      scores.set(unit.id, cosineSimilarity(vector, unit.vector));
    }
    return scores;
  }

  vectorSearch(scope: ScopeFilter, vector: Float32Array, options: UnitFilter & { k: number }): ScoredUnit[] {
    return this.hits(this.vectorScores(scope, vector, options), options.k);
  }

  /** Exact BM25 score of every eligible unit (see {@link referenceLexicalScores}). */
  lexicalScores(scope: ScopeFilter, query: string, filter: UnitFilter = {}): Map<string, number> {
    return referenceLexicalScores([...this.units.values()], scope, query, filter);
  }

  lexicalSearch(scope: ScopeFilter, query: string, options: UnitFilter & { k: number }): ScoredUnit[] {
    return this.hits(this.lexicalScores(scope, query, options), options.k);
  }

  private hits(scores: ReadonlyMap<string, number>, k: number): ScoredUnit[] {
    return rankScores(scores, k)
      .map(({ id, score }) => ({ unit: this.unit(id) as Unit, score }))
      .sort(compareHits);
  }

  listUnits(scope: ScopeFilter, options: ListOptions = {}): Unit[] {
    return page(
      this.unitList().filter((unit) => unitMatches(scope, options, unit)),
      options,
    );
  }

  listCues(scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Cue[] {
    return page(
      [...this.cues.values()].filter((cue) => scopeMatches(scope, cue.scope)),
      options,
    );
  }

  listTags(scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Tag[] {
    return page(
      [...this.tags.values()].filter((tag) => scopeMatches(scope, tag.scope)),
      options,
    );
  }

  private unitList(): Unit[] {
    return [...this.units.values()].map((entry) => entry.unit);
  }
}
