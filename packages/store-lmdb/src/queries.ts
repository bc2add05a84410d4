import {
  intervalBounds,
  normalizeName,
  scopeMatches,
  unitMatches,
  type Cue,
  type ListOptions,
  type Relation,
  type ScopeFilter,
  type Tag,
  type TimeWindow,
  type Unit,
  type UnitKind,
} from '@engram/core';
import type { Key } from 'lmdb';
import { keyPart, prefixRange, timeFieldCodes, type TimelineEntry } from './layout.js';
import type { Snapshot } from './snapshot.js';

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareRelations = (a: Relation, b: Relation) => compareIds(a.cueId, b.cueId) || compareIds(a.tagId, b.tagId) || compareIds(a.contentId, b.contentId);

/** Units by id, in order; `undefined` where missing or outside the scope. */
export function getUnits(snapshot: Snapshot, scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Unit | undefined> {
  return ids.map((id) => {
    const unit = snapshot.unit(id);
    return unit !== undefined && scopeMatches(scope, unit.scope) ? unit : undefined;
  });
}

/** Cues by id, in order. */
export function getCues(snapshot: Snapshot, scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Cue | undefined> {
  return ids.map((id) => {
    const cue = snapshot.get(snapshot.databases.cues, id);
    return cue !== undefined && scopeMatches(scope, cue.scope) ? cue : undefined;
  });
}

/** Tags by id, in order. */
export function getTags(snapshot: Snapshot, scope: ScopeFilter, ids: ReadonlyArray<string>): Array<Tag | undefined> {
  return ids.map((id) => {
    const tag = snapshot.get(snapshot.databases.tags, id);
    return tag !== undefined && scopeMatches(scope, tag.scope) ? tag : undefined;
  });
}

/** Cues whose normalised name or alias is one of `names`, sorted by id. */
export function findCues(snapshot: Snapshot, scope: ScopeFilter, names: ReadonlyArray<string>): Cue[] {
  const tenant = keyPart(scope.userId);
  const found = new Map<string, Cue>();
  for (const name of new Set(names.map(normalizeName))) {
    for (const { value: id } of snapshot.range(snapshot.databases.cueNames, prefixRange([tenant, keyPart(name)]))) {
      if (found.has(id)) continue;
      const cue = snapshot.get(snapshot.databases.cues, id);
      if (cue !== undefined && scopeMatches(scope, cue.scope)) found.set(id, cue);
    }
  }
  return [...found.values()].sort((a, b) => compareIds(a.id, b.id));
}

function relationsByPrefixes(snapshot: Snapshot, scope: ScopeFilter, database: 'relations' | 'relationsByContent', prefixes: Iterable<Key[]>): Relation[] {
  const found = new Map<string, Relation>();
  for (const prefix of prefixes) {
    for (const { value: relation } of snapshot.range(snapshot.databases[database], prefixRange(prefix))) {
      if (scopeMatches(scope, relation.scope)) found.set(`${relation.cueId}\u0000${relation.tagId}\u0000${relation.contentId}`, relation);
    }
  }
  return [...found.values()].sort(compareRelations);
}

/** φ c→g. */
export function relationsOfCues(snapshot: Snapshot, scope: ScopeFilter, cueIds: ReadonlyArray<string>): Relation[] {
  const tenant = keyPart(scope.userId);
  return relationsByPrefixes(snapshot, scope, 'relations', [...new Set(cueIds)].map((id) => [tenant, keyPart(id)]));
}

/** φ (c,g)→v. */
export function relationsOfPairs(snapshot: Snapshot, scope: ScopeFilter, pairs: ReadonlyArray<{ cueId: string; tagId: string }>): Relation[] {
  const tenant = keyPart(scope.userId);
  const unique = new Map(pairs.map((pair) => [`${pair.cueId}\u0000${pair.tagId}`, [tenant, keyPart(pair.cueId), keyPart(pair.tagId)]]));
  return relationsByPrefixes(snapshot, scope, 'relations', unique.values());
}

/** φ v→(c,g). */
export function relationsOfContents(snapshot: Snapshot, scope: ScopeFilter, contentIds: ReadonlyArray<string>): Relation[] {
  const tenant = keyPart(scope.userId);
  return relationsByPrefixes(snapshot, scope, 'relationsByContent', [...new Set(contentIds)].map((id) => [tenant, keyPart(id)]));
}

/** φ τ→e: pairs whose topic and episode are both visible in the scope. */
export function episodesOfTopics(snapshot: Snapshot, scope: ScopeFilter, topicIds: ReadonlyArray<string>): Array<{ topicId: string; episodeId: string }> {
  const tenant = keyPart(scope.userId);
  const pairs: Array<{ topicId: string; episodeId: string }> = [];
  for (const topicId of new Set(topicIds)) {
    const topic = snapshot.get(snapshot.databases.units, topicId)?.unit;
    if (topic?.kind !== 'topic' || !scopeMatches(scope, topic.scope)) continue;
    for (const { value: episodeId } of snapshot.range(snapshot.databases.topicEpisodes, prefixRange([tenant, keyPart(topicId)]))) {
      const episode = snapshot.get(snapshot.databases.units, episodeId)?.unit;
      if (episode?.kind === 'episode' && scopeMatches(scope, episode.scope)) pairs.push({ topicId, episodeId });
    }
  }
  return pairs.sort((a, b) => compareIds(a.topicId, b.topicId) || compareIds(a.episodeId, b.episodeId));
}

/**
 * Units whose coordinate overlaps the window, by the coordinate's earliest start, then id. The
 * index is read in start order up to the window's end; entries ending before the window's start
 * are skipped without loading the unit.
 */
export function timeline(snapshot: Snapshot, scope: ScopeFilter, window: TimeWindow, options: { kinds?: ReadonlyArray<UnitKind>; limit?: number } = {}): Unit[] {
  const field = window.field ?? 'any';
  const [windowStart, windowEnd] = intervalBounds({ start: window.start ?? '0000-01-01', end: window.end ?? '9999-12-31' });
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const filter = { time: window, ...(options.kinds === undefined ? {} : { kinds: options.kinds }) };
  const out: Unit[] = [];
  if (limit <= 0) return out;
  const tenant = keyPart(scope.userId);
  const code = timeFieldCodes[field];
  const run: Array<{ start: number; unit: Unit }> = [];
  const flush = () => {
    // Entries with the same start are ordered by key (the id, or its hash when huge): re-sort by id.
    run.sort((a, b) => compareIds(a.unit.id, b.unit.id));
    for (const { unit } of run) if (out.length < limit) out.push(unit);
    run.length = 0;
  };
  for (const { key, value } of snapshot.range<TimelineEntry>(snapshot.databases.timeline, prefixRange([tenant, code]))) {
    const start = (key as Key[])[2] as number;
    if (start > windowEnd) break;
    if (run.length > 0 && (run[0] as { start: number }).start !== start) {
      flush();
      if (out.length >= limit) break;
    }
    if (value.end < windowStart) continue;
    const unit = snapshot.unit(value.id);
    if (unit !== undefined && unitMatches(scope, filter, unit)) run.push({ start, unit });
  }
  flush();
  return out;
}

function page<T>(snapshot: Snapshot, database: 'tenantUnits' | 'tenantCues' | 'tenantTags', scope: ScopeFilter, options: { limit?: number; after?: string }, load: (id: string) => T | undefined): T[] {
  const limit = options.limit ?? 100;
  const out: T[] = [];
  if (limit <= 0) return out;
  const tenant = keyPart(scope.userId);
  const range = prefixRange([tenant]);
  const start = options.after === undefined ? range.start : [tenant, keyPart(options.after)];
  for (const { value: id } of snapshot.range(snapshot.databases[database], { start, end: range.end })) {
    if (options.after !== undefined && id <= options.after) continue;
    const record = load(id);
    if (record === undefined) continue;
    out.push(record);
    if (out.length >= limit) break;
  }
  return out;
}

/** Units in the scope passing the filters, by id. */
export function listUnits(snapshot: Snapshot, scope: ScopeFilter, options: ListOptions = {}): Unit[] {
  return page(snapshot, 'tenantUnits', scope, options, (id) => {
    const unit = snapshot.unit(id);
    return unit !== undefined && unitMatches(scope, options, unit) ? unit : undefined;
  });
}

/** Cues in the scope, by id. */
export function listCues(snapshot: Snapshot, scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Cue[] {
  return page(snapshot, 'tenantCues', scope, options, (id) => {
    const cue = snapshot.get(snapshot.databases.cues, id);
    return cue !== undefined && scopeMatches(scope, cue.scope) ? cue : undefined;
  });
}

/** Tags in the scope, by id. */
export function listTags(snapshot: Snapshot, scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Tag[] {
  return page(snapshot, 'tenantTags', scope, options, (id) => {
    const tag = snapshot.get(snapshot.databases.tags, id);
    return tag !== undefined && scopeMatches(scope, tag.scope) ? tag : undefined;
  });
}
