import { createHash } from 'node:crypto';
import type { Cue, Relation, Scope, Tag, TimeField, Unit, UnitKind } from '@engram/core';
import type { Database, DatabaseOptions, Key, RootDatabase } from 'lmdb';

/** On-disk format of this package; a store written by a newer format is refused (`format-version`). */
export const formatVersion = 1;

/** Unit kinds as stored in keys and row records. */
export const kindCodes: Readonly<Record<UnitKind, number>> = { turn: 0, episode: 1, fact: 2, topic: 3 };
/** Unit kinds by code. */
export const kindsByCode: ReadonlyArray<UnitKind> = ['turn', 'episode', 'fact', 'topic'];
/** Time coordinates of the timeline index. */
export const timeFieldCodes: Readonly<Record<TimeField, number>> = { event: 0, session: 1, any: 2 };

/** A unit without its vector (kept per kind, unlike `Omit<Unit, 'vector'>`). */
export type UnitBody = Unit extends infer Kind ? (Kind extends Unit ? Omit<Kind, 'vector'> : never) : never;

/** A unit as stored: without its vector (kept in `vectors` under its row). */
export interface StoredUnit {
  /** The unit, `vector` removed. */
  unit: UnitBody;
  /** Row of this version of the unit: posting and vector key; a new version gets a new row. */
  row: number;
  /** Whether `vectors` holds a vector for the row. */
  hasVector: boolean;
}

/** What a row (one stored version of a unit) resolves to, for search hits. */
export interface RowRecord {
  /** Unit id. */
  id: string;
  /** Tenant. */
  userId: string;
  /** Kind code. */
  kind: number;
  /** Agent of the unit's scope. */
  agentId?: string;
  /** Session of the unit's scope. */
  sessionId?: string;
}

/** The vector changes of one committed generation (what a derived index must replay). */
export interface VectorLogEntry {
  /** Rows whose vector was added (no tenant ids here: `rows` resolves them while they live). */
  added: number[];
  /** Rows whose vector was removed. */
  removed: number[];
  /**
   * Set by `forget`: the removed vectors must leave the graph file rather than stay in it as
   * tombstones, so the indexer rebuilds the graph without them once it has applied this entry.
   */
  compact?: true;
}

/** A timeline index value. */
export interface TimelineEntry {
  /** Unit id. */
  id: string;
  /** Latest end (ms) among the unit's intervals on the entry's field. */
  end: number;
}

/** Per-tenant, per-kind BM25 statistics. */
export interface LexicalStats {
  /** Units of that tenant and kind (every unit is a document, even one without terms). */
  documents: number;
  /** Sum of their analyzed lengths. */
  totalLength: number;
}


/** Every sub-database of a store. Keys starting with the tenant keep a tenant's records together. */
export interface Databases {
  /** The LMDB environment (also the `meta` database). */
  root: RootDatabase;
  /** `formatVersion`, `dims`, `generation`, `nextRow`, `vectorCount`, `logPrunedThrough`, `writer`. */
  meta: Database<unknown, string>;
  /** unit id → {@link StoredUnit}. */
  units: Database<StoredUnit, string>;
  /** [userId, unit id] → unit id: a tenant's units in id order. */
  tenantUnits: Database<string, Key>;
  /** row → {@link RowRecord}. */
  rows: Database<RowRecord, number>;
  /** [userId, row] → float32 bytes. */
  vectors: Database<Buffer, Key>;
  /** generation → {@link VectorLogEntry}. */
  vectorLog: Database<VectorLogEntry, number>;
  /** userId → number of vectors of the tenant. */
  tenantVectors: Database<number, string>;
  /** [userId, field code, start ms, unit id] → the unit id and the latest end (ms) of its intervals on that field. */
  timeline: Database<TimelineEntry, Key>;
  /** cue id → cue. */
  cues: Database<Cue, string>;
  /** [userId, cue id] → cue id. */
  tenantCues: Database<string, Key>;
  /** [userId, normalised name or alias, cue id] → cue id. */
  cueNames: Database<string, Key>;
  /** tag id → tag. */
  tags: Database<Tag, string>;
  /** [userId, tag id] → tag id. */
  tenantTags: Database<string, Key>;
  /** [userId, cue, tag, content] → relation (φ c→g, φ (c,g)→v). */
  relations: Database<Relation, Key>;
  /** [userId, content, cue, tag] → relation (φ v→(c,g)). */
  relationsByContent: Database<Relation, Key>;
  /** [userId, tag, cue, content] → 1 (is a tag still used). */
  relationsByTag: Database<number, Key>;
  /** [userId, topic id, episode id] → episode id (φ τ→e). */
  topicEpisodes: Database<string, Key>;
  /**
   * [userId, kind code, term, first row] → posting chunk (binary, see `posting-codec.ts`). A value
   * read from a range is lmdb-js's shared read buffer or a view of its memory map: valid only
   * until the next read; copy it first.
   */
  postings: Database<Uint8Array, Key>;
  /** [userId, kind code] → {@link LexicalStats}. */
  lexicalStats: Database<LexicalStats, Key>;
}

/** Bytes in, bytes out (see `postings` in {@link openDatabases}). */
const postingBytes = {
  encode: (value: Uint8Array) => value,
  // lmdb-js's shared read buffer is larger than the value: it sets `length` to the value's size.
  decode: (bytes: Uint8Array) => bytes.subarray(0, bytes.length),
  needsStableBuffer: false,
};

/** Opens (creating when writable) every sub-database of `root`. */
export function openDatabases(root: RootDatabase): Databases {
  const structured = { sharedStructuresKey: Symbol.for('engram.structures') };
  return {
    root,
    meta: root.openDB('meta', {}),
    units: root.openDB('units', structured),
    tenantUnits: root.openDB('tenant-units', {}),
    rows: root.openDB('rows', structured),
    vectors: root.openDB('vectors', { encoding: 'binary' }),
    vectorLog: root.openDB('vector-log', {}),
    tenantVectors: root.openDB('tenant-vectors', {}),
    timeline: root.openDB('timeline', {}),
    cues: root.openDB('cues', structured),
    tenantCues: root.openDB('tenant-cues', {}),
    cueNames: root.openDB('cue-names', {}),
    tags: root.openDB('tags', structured),
    tenantTags: root.openDB('tenant-tags', {}),
    relations: root.openDB('relations', structured),
    relationsByContent: root.openDB('relations-by-content', structured),
    relationsByTag: root.openDB('relations-by-tag', {}),
    topicEpisodes: root.openDB('topic-episodes', {}),
    // Chunks are bytes. A pass-through encoder instead of `encoding: 'binary'` makes lmdb-js hand
    // out values in its reused read buffer (or as views of its memory map) rather than copying
    // each into a new Buffer: queries copy the postings straight into their columns, once.
    postings: root.openDB<Uint8Array, Key>('postings', { encoder: postingBytes } as DatabaseOptions),
    lexicalStats: root.openDB('lexical-stats', {}),
  };
}

/** Names of the sub-databases. */
export const databaseNames = [
  'meta',
  'units',
  'tenant-units',
  'rows',
  'vectors',
  'vector-log',
  'tenant-vectors',
  'timeline',
  'cues',
  'tenant-cues',
  'cue-names',
  'tags',
  'tenant-tags',
  'relations',
  'relations-by-content',
  'relations-by-tag',
  'topic-episodes',
  'postings',
  'lexical-stats',
] as const;

/** Number of sub-databases (for `maxDbs`). */
export const databaseCount = databaseNames.length;

const maxKeyPartBytes = 400;

/**
 * A string as it goes into a key: unchanged unless it could push the key past LMDB's 1978-byte
 * limit, in which case it is cut and suffixed with a hash (exact lookups still work; only the
 * sort order of such giant ids is approximate).
 */
export function keyPart(value: string): string {
  if (value.length <= maxKeyPartBytes / 3 || Buffer.byteLength(value) <= maxKeyPartBytes) return value;
  return `${value.slice(0, 100)}\u0000${createHash('sha256').update(value).digest('base64url')}`;
}

/** Last element of a range end over a tuple prefix: sorts after every key that extends the prefix. */
export const rangeEnd: Key = new Uint8Array([0xff]);

/** Range options covering every key that extends `prefix`. */
export function prefixRange(prefix: Key[]): { start: Key[]; end: Key[] } {
  return { start: prefix, end: [...prefix, rangeEnd] };
}

/** A scope without `undefined` fields, as stored. */
export function cleanScope(scope: Scope): Scope {
  const out: Scope = { userId: scope.userId };
  if (scope.agentId !== undefined) out.agentId = scope.agentId;
  if (scope.sessionId !== undefined) out.sessionId = scope.sessionId;
  return out;
}
