import type { ScopeFilter } from '../model/scope.js';
import type { MemoryStore } from '../ports/memory-store.js';

/** A (cue, tag) pair. */
export interface CueTagPair {
  /** Cue id. */
  cueId: string;
  /** Tag id. */
  tagId: string;
}

/**
 * SPEC §1's mapping operators as batched functions over sets (Π): each takes a set and returns the
 * union of the operator applied to every member, de-duplicated, in a stable order.
 */
export interface MappingOperators {
  /** φ c→g over a set of cues: every (cue, tag) pair the cues take part in. */
  cueToTags(cueIds: Iterable<string>): Promise<CueTagPair[]>;
  /** φ (c,g)→v over a set of pairs: the contents the pairs point to. */
  pairsToContents(pairs: Iterable<CueTagPair>): Promise<string[]>;
  /** φ v→(c,g) over a set of contents: the (cue, tag) pairs pointing at them. */
  contentsToPairs(contentIds: Iterable<string>): Promise<CueTagPair[]>;
  /** φ τ→e over a set of topics: their episodes. */
  topicsToEpisodes(topicIds: Iterable<string>): Promise<string[]>;
}

function uniquePairs(pairs: Iterable<CueTagPair>): CueTagPair[] {
  const seen = new Map<string, CueTagPair>();
  for (const pair of pairs) seen.set(`${pair.cueId}\u0000${pair.tagId}`, { cueId: pair.cueId, tagId: pair.tagId });
  return [...seen.values()];
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** The mapping operators over one store and scope. */
export function createMappingOperators(store: MemoryStore, scope: ScopeFilter): MappingOperators {
  return {
    async cueToTags(cueIds) {
      const ids = unique(cueIds);
      if (ids.length === 0) return [];
      return uniquePairs(await store.relationsOfCues(scope, ids));
    },
    async pairsToContents(pairs) {
      const list = uniquePairs(pairs);
      if (list.length === 0) return [];
      return unique((await store.relationsOfPairs(scope, list)).map((relation) => relation.contentId));
    },
    async contentsToPairs(contentIds) {
      const ids = unique(contentIds);
      if (ids.length === 0) return [];
      return uniquePairs(await store.relationsOfContents(scope, ids));
    },
    async topicsToEpisodes(topicIds) {
      const ids = unique(topicIds);
      if (ids.length === 0) return [];
      return unique((await store.episodesOfTopics(scope, ids)).map((pair) => pair.episodeId));
    },
  };
}
