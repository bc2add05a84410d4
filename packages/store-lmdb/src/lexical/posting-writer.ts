import { analyze } from '@engram/core';
import type { Key } from 'lmdb';
import { keyPart, prefixRange, rangeEnd, type Databases, type LexicalStats } from '../layout.js';
import { PostingBuffer, appendTriples, chunkCapacity, chunkSize, decodeChunk, encodeChunk } from './posting-codec.js';

interface TermGroup {
  userId: string;
  kind: number;
  term: string;
  /** Flat (row, frequency, length) triples: plain arrays grow cheaper than typed ones here. */
  triples: number[];
}

interface RemovalGroup {
  userId: string;
  kind: number;
  term: string;
  rows: number[];
}

const groupKey = (userId: string, kind: number, term: string) => `${userId}\u0000${kind}\u0000${term}`;

/**
 * Collects the lexical changes of one write transaction and applies them in {@link flush}: each
 * posting chunk is read and rewritten at most once per transaction, whatever the batch size.
 * Removals are flushed before additions; added rows are always newer than every stored row, so
 * additions only ever append.
 */
export class PostingWriter {
  /** Additions by `userId \0 kind`, then by term (as analyzed, before `keyPart`). */
  private readonly additions = new Map<string, Map<string, TermGroup>>();
  private readonly removals = new Map<string, RemovalGroup>();
  private readonly statistics = new Map<string, { userId: string; kind: number; documents: number; totalLength: number }>();

  constructor(private readonly databases: Databases) {}

  /** Indexes a new row's text. */
  addDocument(userId: string, kind: number, row: number, text: string): void {
    const terms = analyze(text);
    const length = terms.length;
    this.adjustStatistics(userId, kind, 1, length);
    const tenantKind = `${userId}\u0000${kind}`;
    let groups = this.additions.get(tenantKind);
    if (groups === undefined) this.additions.set(tenantKind, (groups = new Map()));
    for (const term of terms) {
      let group = groups.get(term);
      if (group === undefined) {
        group = { userId, kind, term: keyPart(term), triples: [] };
        groups.set(term, group);
      }
      const { triples } = group;
      // Rows only grow within a transaction: a repeated term is the group's last triple.
      if (triples.length > 0 && triples[triples.length - 3] === row) triples[triples.length - 2] = (triples[triples.length - 2] as number) + 1;
      else triples.push(row, 1, length);
    }
  }

  /** Un-indexes a stored row (its text is analyzed again to find its terms). */
  removeDocument(userId: string, kind: number, row: number, text: string): void {
    const terms = analyze(text);
    this.adjustStatistics(userId, kind, -1, -terms.length);
    for (const term of new Set(terms)) {
      const stored = keyPart(term);
      const key = groupKey(userId, kind, stored);
      let group = this.removals.get(key);
      if (group === undefined) {
        group = { userId, kind, term: stored, rows: [] };
        this.removals.set(key, group);
      }
      group.rows.push(row);
    }
  }

  private adjustStatistics(userId: string, kind: number, documents: number, totalLength: number): void {
    const key = `${userId}\u0000${kind}`;
    const entry = this.statistics.get(key) ?? { userId, kind, documents: 0, totalLength: 0 };
    entry.documents += documents;
    entry.totalLength += totalLength;
    this.statistics.set(key, entry);
  }

  /**
   * Removes many rows of one tenant at once by rewriting every posting chunk of the tenant that
   * holds one (cheaper than per-term lookups when thousands of documents go). `kinds` gives each
   * removed row's kind code.
   */
  sweep(userId: string, kinds: ReadonlyMap<number, number>): void {
    const { postings } = this.databases;
    const lengths = new Map<number, number>();
    const decoded = new PostingBuffer();
    const kept = new PostingBuffer();
    const updates: Array<{ key: Key; value: Buffer | undefined }> = [];
    for (const { key, value } of postings.getRange(prefixRange([keyPart(userId)]))) {
      decoded.clear();
      kept.clear();
      decodeChunk(value, decoded);
      for (let index = 0; index < decoded.size; index++) {
        const row = decoded.rows[index] as number;
        if (kinds.has(row)) lengths.set(row, decoded.lengths[index] as number);
        else kept.push(row, decoded.frequencies[index] as number, decoded.lengths[index] as number);
      }
      if (kept.size !== decoded.size) updates.push({ key, value: kept.size === 0 ? undefined : encodeChunk(kept) });
    }
    for (const { key, value } of updates) {
      if (value === undefined) postings.removeSync(key);
      else postings.putSync(key, value);
    }
    for (const [row, kind] of kinds) this.adjustStatistics(userId, kind, -1, -(lengths.get(row) ?? 0));
  }

  /** Writes everything collected; call inside the write transaction. */
  flush(): void {
    for (const group of this.removals.values()) this.flushRemoval(group);
    for (const groups of this.additions.values()) for (const group of groups.values()) this.flushAddition(group);
    const { lexicalStats } = this.databases;
    for (const { userId, kind, documents, totalLength } of this.statistics.values()) {
      const key = [keyPart(userId), kind];
      const current = lexicalStats.get(key) ?? { documents: 0, totalLength: 0 };
      const next: LexicalStats = { documents: current.documents + documents, totalLength: current.totalLength + totalLength };
      if (next.documents <= 0) lexicalStats.removeSync(key);
      else lexicalStats.putSync(key, next);
    }
    this.removals.clear();
    this.additions.clear();
    this.statistics.clear();
  }

  private flushRemoval(group: RemovalGroup): void {
    const { postings } = this.databases;
    const prefix: Key[] = [keyPart(group.userId), group.kind, group.term];
    // Group the rows by the chunk holding them: the last chunk whose first row is ≤ the row.
    const byChunk = new Map<number, Set<number>>();
    for (const row of group.rows) {
      for (const { key } of postings.getRange({ start: [...prefix, row], end: prefix, reverse: true, limit: 1 })) {
        const base = (key as Key[])[3] as number;
        let rows = byChunk.get(base);
        if (rows === undefined) byChunk.set(base, (rows = new Set()));
        rows.add(row);
      }
    }
    const decoded = new PostingBuffer();
    const kept = new PostingBuffer();
    for (const [base, rows] of byChunk) {
      const key = [...prefix, base];
      const chunk = postings.getBinary(key);
      if (chunk === undefined) continue;
      decoded.clear();
      kept.clear();
      decodeChunk(chunk, decoded);
      for (let index = 0; index < decoded.size; index++) {
        const row = decoded.rows[index] as number;
        if (!rows.has(row)) kept.push(row, decoded.frequencies[index] as number, decoded.lengths[index] as number);
      }
      if (kept.size === 0) postings.removeSync(key);
      else if (kept.size !== decoded.size) postings.putSync(key, encodeChunk(kept));
    }
  }

  private flushAddition(group: TermGroup): void {
    const { postings } = this.databases;
    const prefix: Key[] = [keyPart(group.userId), group.kind, group.term];
    const { triples } = group;
    const added = triples.length / 3;
    let next = 0;
    for (const { key, value } of postings.getRange({ start: [...prefix, rangeEnd], end: prefix, reverse: true, limit: 1 })) {
      const count = chunkSize(value);
      if (count >= chunkCapacity) break;
      next = Math.min(added, chunkCapacity - count);
      postings.putSync(key, appendTriples(value, triples, 0, next));
    }
    while (next < added) {
      const end = Math.min(added, next + chunkCapacity);
      postings.putSync([...prefix, triples[3 * next] as number], appendTriples(undefined, triples, next, end));
      next = end;
    }
  }
}

/** Removes every posting and statistic of a tenant (the whole-tenant `forget`). */
export function dropTenantPostings(databases: Databases, userId: string): void {
  const tenant = keyPart(userId);
  for (const database of [databases.postings, databases.lexicalStats] as const) {
    const keys = [...database.getKeys(prefixRange([tenant]))];
    for (const key of keys) database.removeSync(key);
  }
}
