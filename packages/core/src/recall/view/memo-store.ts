import { normalizeName, type Cue, type Relation, type Tag } from '../../model/graph.js';
import type { ScopeFilter } from '../../model/scope.js';
import type { MemoryStore } from '../../ports/memory-store.js';

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRelations(a: Relation, b: Relation): number {
  return compareIds(a.cueId, b.cueId) || compareIds(a.tagId, b.tagId) || compareIds(a.contentId, b.contentId);
}

/** Per-key memo of a batch lookup: looks up only the keys not seen before, in one call. */
class KeyedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly fetch: (keys: string[]) => Promise<Map<string, V>>, private readonly missing: V) {}

  async get(keys: ReadonlyArray<string>): Promise<V[]> {
    const unknown = [...new Set(keys.filter((key) => !this.values.has(key)))];
    if (unknown.length > 0) {
      const found = await this.fetch(unknown);
      for (const key of unknown) this.values.set(key, found.get(key) ?? this.missing);
    }
    return keys.map((key) => this.values.get(key) as V);
  }
}

function relationUnion(lists: ReadonlyArray<ReadonlyArray<Relation>>): Relation[] {
  const seen = new Map<string, Relation>();
  for (const list of lists) for (const relation of list) seen.set(`${relation.cueId}\u0000${relation.tagId}\u0000${relation.contentId}`, relation);
  return [...seen.values()].sort(compareRelations);
}

function groupBy<T>(items: ReadonlyArray<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/**
 * The graph reads of one tenant's memory, memoised per key: cue names, cues, tags, relations by
 * cue / pair / content and topic episodes. Recall asks the same questions of the graph again and
 * again (the cues a turn names, the tags of a cue), so a view keeps one of these for as long as the
 * memory does not change (views are rebuilt after a write). Answers are the store's, in the
 * store's order; everything else goes straight to the store.
 */
export function memoizeGraphReads(store: MemoryStore, scope: ScopeFilter): MemoryStore {
  const cuesByName = new KeyedMemo<Cue[]>(async (names) => {
    const cues = await store.findCues(scope, names);
    const wanted = new Set(names);
    const out = new Map<string, Cue[]>();
    for (const cue of cues) {
      for (const name of new Set([cue.name, ...cue.aliases].map(normalizeName))) {
        if (!wanted.has(name)) continue;
        const list = out.get(name);
        if (list) list.push(cue);
        else out.set(name, [cue]);
      }
    }
    return out;
  }, []);
  const cues = new KeyedMemo<Cue | undefined>(async (ids) => {
    const found = await store.getCues(scope, ids);
    return new Map(ids.map((id, index) => [id, found[index]]));
  }, undefined);
  const tags = new KeyedMemo<Tag | undefined>(async (ids) => {
    const found = await store.getTags(scope, ids);
    return new Map(ids.map((id, index) => [id, found[index]]));
  }, undefined);
  const byCue = new KeyedMemo<Relation[]>(async (ids) => groupBy(await store.relationsOfCues(scope, ids), (relation) => relation.cueId), []);
  const byContent = new KeyedMemo<Relation[]>(async (ids) => groupBy(await store.relationsOfContents(scope, ids), (relation) => relation.contentId), []);
  const byPair = new KeyedMemo<Relation[]>(async (keys) => {
    const pairs = keys.map((key) => {
      const [cueId, tagId] = key.split('\u0000') as [string, string];
      return { cueId, tagId };
    });
    return groupBy(await store.relationsOfPairs(scope, pairs), (relation) => `${relation.cueId}\u0000${relation.tagId}`);
  }, []);
  const topics = new KeyedMemo<Array<{ topicId: string; episodeId: string }>>(async (ids) => groupBy(await store.episodesOfTopics(scope, ids), (pair) => pair.topicId), []);
  const sameScope = (other: ScopeFilter) => other === scope || JSON.stringify([other.userId, other.agentId, other.sessionId]) === JSON.stringify([scope.userId, scope.agentId, scope.sessionId]);
  return {
    specificationVersion: store.specificationVersion,
    name: store.name,
    capabilities: store.capabilities,
    write: (batch) => store.write(batch),
    getUnits: (other, ids) => store.getUnits(other, ids),
    getCues: async (other, ids) => (sameScope(other) ? cues.get(ids) : store.getCues(other, ids)),
    getTags: async (other, ids) => (sameScope(other) ? tags.get(ids) : store.getTags(other, ids)),
    findCues: async (other, names) => {
      if (!sameScope(other)) return store.findCues(other, names);
      const found = new Map<string, Cue>();
      for (const list of await cuesByName.get(names.map(normalizeName))) for (const cue of list) found.set(cue.id, cue);
      return [...found.values()].sort((a, b) => compareIds(a.id, b.id));
    },
    relationsOfCues: async (other, ids) => (sameScope(other) ? relationUnion(await byCue.get(ids)) : store.relationsOfCues(other, ids)),
    relationsOfPairs: async (other, pairs) => (sameScope(other) ? relationUnion(await byPair.get(pairs.map((pair) => `${pair.cueId}\u0000${pair.tagId}`))) : store.relationsOfPairs(other, pairs)),
    relationsOfContents: async (other, ids) => (sameScope(other) ? relationUnion(await byContent.get(ids)) : store.relationsOfContents(other, ids)),
    episodesOfTopics: async (other, ids) => {
      if (!sameScope(other)) return store.episodesOfTopics(other, ids);
      const out = new Map<string, { topicId: string; episodeId: string }>();
      for (const list of await topics.get(ids)) for (const pair of list) out.set(`${pair.topicId}\u0000${pair.episodeId}`, pair);
      return [...out.values()].sort((a, b) => compareIds(a.topicId, b.topicId) || compareIds(a.episodeId, b.episodeId));
    },
    timeline: (other, window, options) => store.timeline(other, window, options),
    vectorSearch: (other, vector, options) => store.vectorSearch(other, vector, options),
    lexicalSearch: (other, query, options) => store.lexicalSearch(other, query, options),
    listUnits: (other, options) => store.listUnits(other, options),
    listCues: (other, options) => store.listCues(other, options),
    listTags: (other, options) => store.listTags(other, options),
    delete: (other, id) => store.delete(other, id),
    forget: (other) => store.forget(other),
    dispose: () => store.dispose(),
  };
}
