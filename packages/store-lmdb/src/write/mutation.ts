import { intervalBounds, normalizeName, type Cue, type Relation, type Tag, type Unit } from '@engram/core';
import type { Key } from 'lmdb';
import { cleanScope, keyPart, kindCodes, timeFieldCodes, type Databases, type RowRecord, type StoredUnit, type UnitBody } from '../layout.js';
import { PostingWriter } from '../lexical/posting-writer.js';

/**
 * `intervalBounds` remembered by start and end: the units of a batch share few intervals (every
 * turn of a session has the session's), and parsing dates is a visible share of a write.
 */
class IntervalCache {
  private readonly known = new Map<string, [number, number]>();

  bounds(interval: { start: string; end: string }): [number, number] {
    const key = `${interval.start}\u0000${interval.end}`;
    let bounds = this.known.get(key);
    if (bounds === undefined) {
      if (this.known.size >= 4096) this.known.clear();
      bounds = intervalBounds(interval);
      this.known.set(key, bounds);
    }
    return bounds;
  }
}

/** Timeline keys of a unit: per field, its earliest start (the sort key) and latest end. */
function timelineEntries(unit: UnitBody, cache: IntervalCache): Array<{ field: number; start: number; end: number }> {
  const { eventTime, mentionTimes, session } = unit.context;
  const bounds = (intervals: ReadonlyArray<{ start: string; end: string }>) => {
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    for (const interval of intervals) {
      const [from, to] = cache.bounds(interval);
      if (Number.isNaN(from) || Number.isNaN(to)) continue;
      start = Math.min(start, from);
      end = Math.max(end, to);
    }
    return { start, end };
  };
  // The same intervals `unitIntervals` gives per field: event; session; event, mentions and session.
  const event = bounds(eventTime ? [eventTime] : []);
  const sessionBounds = bounds(session ? [session] : []);
  const mentions = bounds(mentionTimes);
  const any = { start: Math.min(event.start, sessionBounds.start, mentions.start), end: Math.max(event.end, sessionBounds.end, mentions.end) };
  const entries: Array<{ field: number; start: number; end: number }> = [];
  for (const [field, range] of [['event', event], ['session', sessionBounds], ['any', any]] as const) {
    if (Number.isFinite(range.start)) entries.push({ field: timeFieldCodes[field], start: range.start, end: range.end });
  }
  return entries;
}

/** The names a cue is found by. */
function cueNameKeys(cue: Cue): string[] {
  return [...new Set([cue.name, ...cue.aliases].map(normalizeName))];
}

/**
 * The changes of one write transaction, applied to LMDB as they are made (inside
 * `transactionSync`). {@link commit} flushes postings, counters and the vector log entry and bumps
 * the generation; an exception anywhere aborts the transaction and leaves LMDB untouched.
 */
export class Mutation {
  /** Lexical changes, flushed on commit. */
  readonly postings: PostingWriter;
  private readonly added: number[] = [];
  private readonly removed: number[] = [];
  private readonly tenantVectorDelta = new Map<string, number>();
  private readonly intervals = new IntervalCache();
  private nextRow: number;
  private changed = false;
  private compact = false;
  private dims: number | undefined;

  constructor(private readonly databases: Databases) {
    this.postings = new PostingWriter(databases);
    this.nextRow = (databases.meta.get('nextRow') as number | undefined) ?? 1;
    this.dims = databases.meta.get('dims') as number | undefined;
  }

  /** The vectors this transaction removes must leave the graph file, not stay as tombstones (`forget`). */
  compactIndex(): void {
    this.compact = true;
  }

  /** Marks the transaction as changing something (so it gets a generation). */
  touch(): void {
    this.changed = true;
  }

  /** Indexes a new version of a unit (any previous version must be removed first). */
  putUnit(unit: Unit): void {
    const { databases } = this;
    const { vector, ...rest } = unit;
    const userId = unit.scope.userId;
    const tenant = keyPart(userId);
    const row = this.nextRow++;
    const kind = kindCodes[unit.kind];
    databases.units.putSync(unit.id, { unit: rest, row, hasVector: vector !== undefined });
    databases.tenantUnits.putSync([tenant, keyPart(unit.id)], unit.id);
    const record: RowRecord = { id: unit.id, userId, kind };
    if (unit.scope.agentId !== undefined) record.agentId = unit.scope.agentId;
    if (unit.scope.sessionId !== undefined) record.sessionId = unit.scope.sessionId;
    databases.rows.putSync(row, record);
    if (vector !== undefined) {
      if (this.dims === undefined) {
        this.dims = vector.length;
        databases.meta.putSync('dims', vector.length);
      }
      databases.vectors.putSync([tenant, row], Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      this.added.push(row);
      this.tenantVectorDelta.set(tenant, (this.tenantVectorDelta.get(tenant) ?? 0) + 1);
    }
    for (const entry of timelineEntries(rest, this.intervals)) databases.timeline.putSync([tenant, entry.field, entry.start, keyPart(unit.id)], { id: unit.id, end: entry.end });
    this.postings.addDocument(userId, kind, row, unit.text);
    if (unit.kind === 'topic') {
      for (const episodeId of new Set(unit.episodeIds)) databases.topicEpisodes.putSync([tenant, keyPart(unit.id), keyPart(episodeId)], episodeId);
    }
    this.changed = true;
  }

  /** Removes the index entries of a stored version (not the unit record nor its relations). */
  removeUnitVersion(stored: StoredUnit, options: { postings?: boolean } = {}): void {
    const { databases } = this;
    const { unit, row } = stored;
    const tenant = keyPart(unit.scope.userId);
    databases.rows.removeSync(row);
    if (stored.hasVector) {
      databases.vectors.removeSync([tenant, row]);
      this.removed.push(row);
      this.tenantVectorDelta.set(tenant, (this.tenantVectorDelta.get(tenant) ?? 0) - 1);
    }
    for (const entry of timelineEntries(unit, this.intervals)) databases.timeline.removeSync([tenant, entry.field, entry.start, keyPart(unit.id)]);
    if (options.postings !== false) this.postings.removeDocument(unit.scope.userId, kindCodes[unit.kind], row, unit.text);
    if (unit.kind === 'topic') {
      for (const episodeId of new Set(unit.episodeIds)) databases.topicEpisodes.removeSync([tenant, keyPart(unit.id), keyPart(episodeId)]);
    }
    this.changed = true;
  }

  /** Removes a unit record and its index entries (its relations are the caller's business). */
  removeUnit(stored: StoredUnit, options: { postings?: boolean } = {}): void {
    this.removeUnitVersion(stored, options);
    this.databases.units.removeSync(stored.unit.id);
    this.databases.tenantUnits.removeSync([keyPart(stored.unit.scope.userId), keyPart(stored.unit.id)]);
  }

  /** Puts a cue, re-indexing its names. */
  putCue(cue: Cue, previous: Cue | undefined): void {
    const tenant = keyPart(cue.scope.userId);
    if (previous !== undefined) for (const name of cueNameKeys(previous)) this.databases.cueNames.removeSync([tenant, keyPart(name), keyPart(previous.id)]);
    this.databases.cues.putSync(cue.id, cue);
    this.databases.tenantCues.putSync([tenant, keyPart(cue.id)], cue.id);
    for (const name of cueNameKeys(cue)) this.databases.cueNames.putSync([tenant, keyPart(name), keyPart(cue.id)], cue.id);
    this.changed = true;
  }

  /** Removes a cue and its names. */
  removeCue(cue: Cue): void {
    const tenant = keyPart(cue.scope.userId);
    for (const name of cueNameKeys(cue)) this.databases.cueNames.removeSync([tenant, keyPart(name), keyPart(cue.id)]);
    this.databases.cues.removeSync(cue.id);
    this.databases.tenantCues.removeSync([tenant, keyPart(cue.id)]);
    this.changed = true;
  }

  /** Puts a tag. */
  putTag(tag: Tag): void {
    this.databases.tags.putSync(tag.id, tag);
    this.databases.tenantTags.putSync([keyPart(tag.scope.userId), keyPart(tag.id)], tag.id);
    this.changed = true;
  }

  /** Removes a tag. */
  removeTag(tag: Tag): void {
    this.databases.tags.removeSync(tag.id);
    this.databases.tenantTags.removeSync([keyPart(tag.scope.userId), keyPart(tag.id)]);
    this.changed = true;
  }

  /** Puts a relation under its three keys. */
  putRelation(relation: Relation): void {
    const stored: Relation = { scope: cleanScope(relation.scope), cueId: relation.cueId, tagId: relation.tagId, contentId: relation.contentId };
    const [tenant, cue, tag, content] = relationKeyParts(stored);
    this.databases.relations.putSync([tenant, cue, tag, content], stored);
    this.databases.relationsByContent.putSync([tenant, content, cue, tag], stored);
    this.databases.relationsByTag.putSync([tenant, tag, cue, content], 1);
    this.changed = true;
  }

  /** Removes a relation from its three keys. */
  removeRelation(relation: Relation): void {
    const [tenant, cue, tag, content] = relationKeyParts(relation);
    this.databases.relations.removeSync([tenant, cue, tag, content]);
    this.databases.relationsByContent.removeSync([tenant, content, cue, tag]);
    this.databases.relationsByTag.removeSync([tenant, tag, cue, content]);
    this.changed = true;
  }

  /** Flushes postings and counters, logs vector changes and bumps the generation; `undefined` when nothing changed. */
  commit(): Commit | undefined {
    this.postings.flush();
    if (!this.changed) return undefined;
    const { meta, tenantVectors, vectorLog } = this.databases;
    const generation = ((meta.get('generation') as number | undefined) ?? 0) + 1;
    meta.putSync('generation', generation);
    meta.putSync('nextRow', this.nextRow);
    if (this.added.length > 0 || this.removed.length > 0) {
      const count = ((meta.get('vectorCount') as number | undefined) ?? 0) + this.added.length - this.removed.length;
      meta.putSync('vectorCount', count);
      for (const [tenant, delta] of this.tenantVectorDelta) {
        if (delta === 0) continue;
        const next = (tenantVectors.get(tenant) ?? 0) + delta;
        if (next > 0) tenantVectors.putSync(tenant, next);
        else tenantVectors.removeSync(tenant);
      }
      vectorLog.putSync(generation, { added: this.added, removed: this.removed, ...(this.compact && this.removed.length > 0 ? { compact: true as const } : {}) });
    }
    return { generation, vectorsChanged: this.added.length > 0 || this.removed.length > 0 };
  }
}

/** What a committed write transaction hands on. */
export interface Commit {
  /** The new store generation. */
  generation: number;
  /** Whether it added or removed vectors (the vector index has work to do). */
  vectorsChanged: boolean;
}

/** Key parts of a relation: tenant, cue, tag, content. */
export function relationKeyParts(relation: Relation): [string, string, string, string] {
  return [keyPart(relation.scope.userId), keyPart(relation.cueId), keyPart(relation.tagId), keyPart(relation.contentId)];
}

/** Whether two plain records are the same (records from zod and msgpack keep the schema's key order). */
export function sameRecord(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Ranges over every key of a tenant in a tenant-prefixed database, collected before any removal. */
export function tenantKeys(database: { getKeys(options: { start: Key; end: Key }): Iterable<Key> }, tenant: string): Key[] {
  return [...database.getKeys({ start: [tenant], end: [tenant, new Uint8Array([0xff])] })];
}
