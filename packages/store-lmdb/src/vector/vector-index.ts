import { cosineSimilarity } from '@engram/core';
import type { Key } from 'lmdb';
import type { Index } from 'usearch';
import type { Databases, VectorLogEntry } from '../layout.js';
import type { Snapshot } from '../snapshot.js';
import { createIndex, openIndexFile, readSidecar, releaseIndex, saveIndexFile, writeSidecar, type HnswOptions, type Sidecar } from './index-file.js';

/** When the writer saves and compacts the index file. */
export interface IndexMaintenance {
  /** Save once this many vector changes are unsaved… @default 20000 */
  saveMinimumChanges: number;
  /** …and they are at least this share of the index. @default 0.25 */
  saveFraction: number;
  /**
   * Removed vectors stay in the graph as tombstones (every hit is checked against LMDB, so they
   * are never returned); once they are this share of the graph it is rebuilt from LMDB without
   * them. @default 0.2
   */
  compactFraction: number;
}

const addBatch = 8192;

/**
 * The derived HNSW index over every vector in LMDB, identified by row (`BigInt(row)` keys).
 *
 * It tracks the store generation it reflects. The writer keeps it in memory and applies each
 * commit's vector changes from LMDB's vector log, saving the file now and then and on dispose;
 * readers memory-map the saved file and exact-scan the vectors committed since (the "delta"),
 * re-mapping when the writer saves a newer file. A missing, stale, foreign or corrupt file is
 * detected at open and rebuilt (or caught up) from LMDB with a warning — never an error.
 */
export class VectorIndex {
  private index: Index | undefined;
  private viewed = false;
  private sidecar: Sidecar | undefined;
  private applied = 0;
  private unsaved = 0;
  private tombstones = 0;
  private catchingUp = false;
  private readonly delta = new Map<number, Float32Array>();

  private constructor(
    private readonly databases: Databases,
    private readonly directory: string,
    readonly dims: number,
    private readonly options: HnswOptions,
    private readonly mode: 'writer' | 'reader',
    private readonly maintenance: IndexMaintenance,
    private readonly warn: (message: string) => void,
  ) {}

  /** Opens the index for `snapshot`'s generation, validating the saved file against LMDB. */
  static open(parameters: {
    databases: Databases;
    directory: string;
    dims: number;
    options: HnswOptions;
    mode: 'writer' | 'reader';
    maintenance: IndexMaintenance;
    warn: (message: string) => void;
    snapshot: Snapshot;
  }): VectorIndex {
    const { databases, directory, dims, options, mode, maintenance, warn, snapshot } = parameters;
    const vectorIndex = new VectorIndex(databases, directory, dims, options, mode, maintenance, warn);
    vectorIndex.reopen(snapshot);
    return vectorIndex;
  }

  /** Vectors in the graph (delta excluded). */
  get size(): number {
    return this.index?.size() ?? 0;
  }

  /** Vectors in the delta (committed after the mapped file; readers only). */
  get deltaSize(): number {
    return this.delta.size;
  }

  /** Generation reflected by graph + delta. */
  get generation(): number {
    return this.applied;
  }

  /** Replaces the graph, freeing the previous one (and its file mapping) right away. */
  private replaceIndex(next: Index | undefined): void {
    const previous = this.index;
    this.index = next;
    if (previous !== undefined && previous !== next) releaseIndex(previous, this.options);
  }

  private reopen(snapshot: Snapshot): void {
    const generation = snapshot.generation();
    const vectorCount = (snapshot.get(this.databases.meta, 'vectorCount') as number | undefined) ?? 0;
    const prunedThrough = (snapshot.get(this.databases.meta, 'logPrunedThrough') as number | undefined) ?? 0;
    this.delta.clear();
    let found = readSidecar(this.directory, this.dims, this.options);
    // A reader may look just as the writer replaces the file: read the new sidecar again.
    for (let attempt = 0; attempt < 3 && this.mode === 'reader' && 'problem' in found && found.problem.includes('missing'); attempt++) {
      found = readSidecar(this.directory, this.dims, this.options);
    }
    let problem = 'problem' in found ? found.problem : undefined;
    if ('sidecar' in found) {
      const { sidecar } = found;
      if (this.mode === 'writer' && sidecar.generation > generation) problem = `the vector index reflects generation ${sidecar.generation}, newer than the database (${generation})`;
      else if (sidecar.generation < generation && sidecar.generation < prunedThrough) problem = `the vector index is at generation ${sidecar.generation}, older than the kept change log`;
      else {
        try {
          // Behind = vectors changed since the file was saved (other commits only move the generation).
          const behind = sidecar.generation < generation && this.hasChanges(snapshot, sidecar.generation, generation);
          const catchUp = this.mode === 'writer' && behind;
          this.replaceIndex(openIndexFile(this.directory, sidecar, this.options, catchUp ? 'load' : 'view'));
          this.viewed = !catchUp;
          this.sidecar = sidecar;
          this.applied = sidecar.generation;
          this.unsaved = 0;
          this.tombstones = sidecar.tombstones ?? 0;
          if (catchUp) this.warn(`store-lmdb: the vector index is behind the database (generation ${sidecar.generation} of ${generation}); catching up from the change log`);
          this.catchingUp = catchUp;
          try {
            this.sync(snapshot);
          } finally {
            this.catchingUp = false;
          }
          if (catchUp) this.save();
          return;
        } catch (error) {
          problem = `the vector index file is corrupt (${error instanceof Error ? error.message : String(error)})`;
        }
      }
    }
    if (this.mode === 'reader' && problem === 'the vector index sidecar is missing' && prunedThrough === 0 && vectorCount <= 50_000) {
      // The writer has not saved a file yet: every vector is in the log, replay it into the delta.
      this.replaceIndex(undefined);
      this.sidecar = undefined;
      this.applied = 0;
      this.sync(snapshot);
      return;
    }
    if (vectorCount === 0 && !('sidecar' in found)) {
      // Nothing indexed yet (or ever): the empty graph is the truth.
      this.replaceIndex(undefined);
      this.viewed = false;
      this.sidecar = undefined;
      this.applied = generation;
      return;
    }
    this.warn(`store-lmdb: ${problem ?? 'the vector index cannot be used'}; rebuilding it from LMDB (${vectorCount} vectors)`);
    this.rebuild(snapshot);
  }

  private hasChanges(snapshot: Snapshot, after: number, through: number): boolean {
    for (const _entry of snapshot.range(this.databases.vectorLog, { start: after, end: through, exclusiveStart: true, inclusiveEnd: true, limit: 1 })) return true;
    return false;
  }

  private rebuild(snapshot: Snapshot): void {
    const index = createIndex(this.dims, this.options);
    const keys = new BigUint64Array(addBatch);
    const matrix = new Float32Array(addBatch * this.dims);
    const bytes = new Uint8Array(matrix.buffer);
    let filled = 0;
    const flush = () => {
      if (filled > 0) index.add(keys.subarray(0, filled), matrix.subarray(0, filled * this.dims), 0);
      filled = 0;
    };
    for (const { key, value } of snapshot.range(this.databases.vectors, {})) {
      if (value.byteLength !== this.dims * 4) continue;
      keys[filled] = BigInt((key as Key[])[1] as number);
      bytes.set(value, filled * this.dims * 4);
      filled += 1;
      if (filled === addBatch) flush();
    }
    flush();
    this.replaceIndex(index);
    this.viewed = false;
    this.sidecar = undefined;
    this.applied = snapshot.generation();
    this.unsaved = Math.max(1, index.size());
    this.tombstones = 0;
    // Readers of older files re-map this one: the whole log up to here can go.
    if (this.mode === 'writer') this.save(this.applied);
  }

  /**
   * Brings graph (writer) or delta (reader) up to the snapshot's generation from the vector log.
   * `known` holds vectors the caller already has in memory (the commit just made), by row.
   */
  sync(snapshot: Snapshot, known?: ReadonlyMap<number, Float32Array>): void {
    const generation = snapshot.generation();
    if (generation <= this.applied) return;
    const prunedThrough = (snapshot.get(this.databases.meta, 'logPrunedThrough') as number | undefined) ?? 0;
    if (prunedThrough > this.applied) {
      this.reopen(snapshot);
      return;
    }
    for (const { key, value } of snapshot.range<VectorLogEntry>(this.databases.vectorLog, { start: this.applied, end: generation, exclusiveStart: true, inclusiveEnd: true })) {
      if (this.mode === 'writer') this.applyToGraph(snapshot, value, known);
      else this.applyToDelta(snapshot, value);
      this.applied = key as number;
    }
    this.applied = generation;
    if (this.mode === 'writer' && this.index !== undefined && this.tombstones > this.maintenance.compactFraction * this.index.size()) {
      // usearch's own removal slows with index size; rebuilding without the tombstones is cheaper.
      this.rebuild(snapshot);
    }
    if (this.mode === 'reader' && this.delta.size > Math.max(10_000, 0.1 * this.size)) {
      const found = readSidecar(this.directory, this.dims, this.options);
      if ('sidecar' in found && found.sidecar.generation > (this.sidecar?.generation ?? -1)) this.reopen(snapshot);
    }
  }

  private applyToGraph(snapshot: Snapshot, entry: VectorLogEntry, known: ReadonlyMap<number, Float32Array> | undefined): void {
    if (this.index === undefined) this.index = createIndex(this.dims, this.options);
    else if (this.viewed && this.sidecar !== undefined) {
      // A memory-mapped file is read-only: take an in-memory copy before the first change.
      this.replaceIndex(openIndexFile(this.directory, this.sidecar, this.options, 'load'));
      this.viewed = false;
    }
    const index = this.index;
    this.tombstones += entry.removed.length;
    for (let start = 0; start < entry.added.length; start += addBatch) {
      const slice = entry.added.slice(start, start + addBatch);
      const keys: bigint[] = [];
      const matrix = new Float32Array(slice.length * this.dims);
      for (const row of slice) {
        let vector = known?.get(row);
        if (vector === undefined) {
          const record = snapshot.row(row);
          vector = record === undefined ? undefined : snapshot.vectorCopy(record.userId, row);
        }
        if (vector === undefined || vector.length !== this.dims) continue;
        const key = BigInt(row);
        // Replaying the log over a saved file (catch-up) may meet rows the file already holds.
        if (this.catchingUp && index.contains(key)) continue;
        matrix.set(vector, keys.length * this.dims);
        keys.push(key);
      }
      if (keys.length > 0) index.add(BigUint64Array.from(keys), matrix.subarray(0, keys.length * this.dims), 0);
    }
    this.unsaved += entry.added.length + entry.removed.length;
  }

  private applyToDelta(snapshot: Snapshot, entry: VectorLogEntry): void {
    for (const row of entry.removed) this.delta.delete(row);
    for (const row of entry.added) {
      const record = snapshot.row(row);
      const vector = record === undefined ? undefined : snapshot.vectorCopy(record.userId, row);
      if (vector !== undefined && vector.length === this.dims) this.delta.set(row, vector);
    }
  }

  /** Candidate rows near `query`: `count` from the graph plus the best `count` of the delta. */
  candidates(query: Float32Array, count: number): number[] {
    const rows: number[] = [];
    const index = this.index;
    if (index !== undefined && index.size() > 0) {
      const matches = index.search(query, Math.min(count, index.size()), 1);
      for (const key of matches.keys) rows.push(Number(key));
    }
    if (this.delta.size > 0) {
      const scored: Array<[number, number]> = [];
      for (const [row, vector] of this.delta) scored.push([row, cosineSimilarity(query, vector)]);
      scored.sort((a, b) => b[1] - a[1]);
      for (const [row] of scored.slice(0, count)) rows.push(row);
    }
    return rows;
  }

  /** Saves when enough changes are unsaved (writer). */
  maybeSave(): void {
    if (this.unsaved >= Math.max(this.maintenance.saveMinimumChanges, this.maintenance.saveFraction * this.size)) this.save();
  }

  /**
   * Saves the graph file and sidecar, then prunes the vector log up to `pruneThrough` (by default
   * the previous file's generation: readers still on it replay the log after it) (writer).
   */
  save(pruneThrough?: number): void {
    if (this.mode !== 'writer' || this.index === undefined) return;
    if (this.unsaved === 0) {
      // No vector changed: only record that the file is current as of this generation.
      if (this.sidecar !== undefined && this.sidecar.generation < this.applied) {
        this.sidecar = { ...this.sidecar, generation: this.applied };
        writeSidecar(this.directory, this.sidecar);
      }
      return;
    }
    const previous = this.sidecar;
    this.sidecar = saveIndexFile(this.directory, this.index, { generation: this.applied, tombstones: this.tombstones }, this.options, previous);
    this.unsaved = 0;
    const through = pruneThrough ?? previous?.generation ?? 0;
    if (through > 0) {
      const { root, vectorLog, meta } = this.databases;
      root.transactionSync(() => {
        for (const key of [...vectorLog.getKeys({ end: through, inclusiveEnd: true })]) vectorLog.removeSync(key);
        if (((meta.get('logPrunedThrough') as number | undefined) ?? 0) < through) meta.putSync('logPrunedThrough', through);
      });
    }
  }

  /** Saves unsaved changes (writer) and releases the graph. */
  close(): void {
    try {
      if (this.mode === 'writer') this.save();
    } finally {
      this.replaceIndex(undefined);
      this.delta.clear();
    }
  }
}
