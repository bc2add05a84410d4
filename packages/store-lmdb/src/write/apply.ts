import { scopeMatches, type Cue, type Relation, type ScopeFilter, type Tag, type Unit, type WriteBatch } from '@engram/core';
import { cleanScope, keyPart, kindCodes, prefixRange, type Databases, type StoredUnit } from '../layout.js';
import { dropTenantPostings } from '../lexical/posting-writer.js';
import { Mutation, relationKeyParts, sameRecord, tenantKeys, type Commit } from './mutation.js';

/** Above this many removed units, `forget` rewrites the tenant's postings in one sweep. */
const sweepThreshold = 256;

function lastById<T extends { id: string }>(records: ReadonlyArray<T>): T[] {
  const byId = new Map<string, T>();
  for (const record of records) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()];
}

function sameUnit(databases: Databases, stored: StoredUnit, unit: Unit): boolean {
  const { vector, ...rest } = unit;
  if (!sameRecord(stored.unit, rest)) return false;
  if (vector === undefined) return !stored.hasVector;
  if (!stored.hasVector) return false;
  const bytes = databases.vectors.getBinary([keyPart(unit.scope.userId), stored.row]);
  return bytes !== undefined && Buffer.compare(bytes, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)) === 0;
}

/**
 * Writes a validated batch inside the current write transaction; returns the commit, or
 * `undefined` when the batch changed nothing (identical content written again).
 */
export function applyBatch(databases: Databases, batch: WriteBatch): Commit | undefined {
  const mutation = new Mutation(databases);
  for (const unit of lastById(batch.units)) {
    const stored = databases.units.get(unit.id);
    if (stored !== undefined && sameUnit(databases, stored, unit)) continue;
    if (stored !== undefined) mutation.removeUnitVersion(stored);
    mutation.putUnit(unit);
  }
  for (const cue of lastById(batch.cues)) {
    const stored = databases.cues.get(cue.id);
    if (stored === undefined || !sameRecord(stored, cue)) mutation.putCue(cue, stored);
  }
  for (const tag of lastById(batch.tags)) {
    const stored = databases.tags.get(tag.id);
    if (stored === undefined || !sameRecord(stored, tag)) mutation.putTag(tag);
  }
  for (const relation of batch.relations) {
    const clean: Relation = { scope: cleanScope(relation.scope), cueId: relation.cueId, tagId: relation.tagId, contentId: relation.contentId };
    const stored = databases.relations.get(relationKeyParts(clean));
    if (stored === undefined || !sameRecord(stored, clean)) mutation.putRelation(clean);
  }
  return mutation.commit();
}

/** Removes the cues and tags among `cueIds` / `tagIds` that no relation uses any more. */
function removeOrphans(databases: Databases, mutation: Mutation, tenant: string, cueIds: Iterable<string>, tagIds: Iterable<string>): void {
  for (const cueId of cueIds) {
    let used = false;
    for (const _key of databases.relations.getKeys({ ...prefixRange([tenant, keyPart(cueId)]), limit: 1 })) used = true;
    const cue = used ? undefined : databases.cues.get(cueId);
    if (cue !== undefined) mutation.removeCue(cue);
  }
  for (const tagId of tagIds) {
    let used = false;
    for (const _key of databases.relationsByTag.getKeys({ ...prefixRange([tenant, keyPart(tagId)]), limit: 1 })) used = true;
    const tag = used ? undefined : databases.tags.get(tagId);
    if (tag !== undefined) mutation.removeTag(tag);
  }
}

/**
 * Deletes a unit visible in `scope` with every relation pointing at it and the cues and tags
 * left without any relation. Returns the new generation, or `undefined` when there was no such unit.
 */
export function deleteUnit(databases: Databases, scope: ScopeFilter, id: string): Commit | undefined {
  const stored = databases.units.get(id);
  if (stored === undefined || !scopeMatches(scope, stored.unit.scope)) return undefined;
  const mutation = new Mutation(databases);
  const tenant = keyPart(stored.unit.scope.userId);
  mutation.removeUnit(stored);
  const relations = [...databases.relationsByContent.getRange(prefixRange([tenant, keyPart(id)]))].map(({ value }) => value);
  for (const relation of relations) mutation.removeRelation(relation);
  removeOrphans(
    databases,
    mutation,
    tenant,
    new Set(relations.map((relation) => relation.cueId)),
    new Set(relations.map((relation) => relation.tagId)),
  );
  return mutation.commit();
}

/**
 * Removes every unit, cue, tag and relation whose scope matches, every relation pointing at a
 * removed record, then the cues and tags orphaned that way. Returns the new generation, if any.
 */
export function forgetScope(databases: Databases, scope: ScopeFilter): Commit | undefined {
  const mutation = new Mutation(databases);
  // Forgetting erases: the scope's vectors leave the graph file too, not only LMDB.
  mutation.compactIndex();
  const tenant = keyPart(scope.userId);
  const whole = scope.agentId === undefined && scope.sessionId === undefined;
  const units: StoredUnit[] = [];
  for (const { value: id } of databases.tenantUnits.getRange(prefixRange([tenant]))) {
    const stored = databases.units.get(id);
    if (stored !== undefined && scopeMatches(scope, stored.unit.scope)) units.push(stored);
  }
  const cues: Cue[] = [];
  for (const { value: id } of databases.tenantCues.getRange(prefixRange([tenant]))) {
    const cue = databases.cues.get(id);
    if (cue !== undefined && scopeMatches(scope, cue.scope)) cues.push(cue);
  }
  const tags: Tag[] = [];
  for (const { value: id } of databases.tenantTags.getRange(prefixRange([tenant]))) {
    const tag = databases.tags.get(id);
    if (tag !== undefined && scopeMatches(scope, tag.scope)) tags.push(tag);
  }
  const sweep = whole || units.length > sweepThreshold;
  for (const stored of units) mutation.removeUnit(stored, { postings: !sweep });
  if (whole) {
    dropTenantPostings(databases, scope.userId);
    for (const database of [databases.relations, databases.relationsByContent, databases.relationsByTag] as const) {
      for (const key of tenantKeys(database, tenant)) database.removeSync(key);
    }
    for (const cue of cues) mutation.removeCue(cue);
    for (const tag of tags) mutation.removeTag(tag);
    mutation.touch();
    return mutation.commit();
  }
  if (sweep) mutation.postings.sweep(scope.userId, new Map(units.map((stored) => [stored.row, kindCodes[stored.unit.kind]])));
  const removedUnits = new Set(units.map((stored) => stored.unit.id));
  const removedCues = new Set(cues.map((cue) => cue.id));
  const removedTags = new Set(tags.map((tag) => tag.id));
  const touchedCues = new Set<string>();
  const touchedTags = new Set<string>();
  const doomed: Relation[] = [];
  for (const { value: relation } of databases.relations.getRange(prefixRange([tenant]))) {
    if (scopeMatches(scope, relation.scope) || removedUnits.has(relation.contentId) || removedCues.has(relation.cueId) || removedTags.has(relation.tagId)) doomed.push(relation);
  }
  for (const relation of doomed) {
    mutation.removeRelation(relation);
    touchedCues.add(relation.cueId);
    touchedTags.add(relation.tagId);
  }
  for (const cue of cues) mutation.removeCue(cue);
  for (const tag of tags) mutation.removeTag(tag);
  removeOrphans(
    databases,
    mutation,
    tenant,
    [...touchedCues].filter((id) => !removedCues.has(id)),
    [...touchedTags].filter((id) => !removedTags.has(id)),
  );
  return mutation.commit();
}
