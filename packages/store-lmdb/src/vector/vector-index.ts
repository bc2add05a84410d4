import { cosineSimilarity } from '@engram/core';
import type { Key } from 'lmdb';
import type { Index } from 'usearch';
import type { Databases, VectorLogEntry } from '../layout.js';
import type { Snapshot } from '../snapshot.js';
import type { IndexPlan } from './background-indexer.js';
import { builtWith, createIndex, openIndexFile, readSidecar, releaseIndex, type HnswOptions, type Sidecar } from './index-file.js';

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
  /**
   * Once the background graph has caught up, unsaved changes are saved after this many ms
   * without commits (searches scan the vectors after the saved file exactly, so a long-lived
   * writer should not keep many); 0: only by the thresholds above, `flush()` and `dispose()`.
   * @default 5000
   */
  idleSaveMs: number;
}

const addBatch = 8192;

/**
 * The main thread's view of the derived HNSW index over every vector in LMDB, identified by row
 * (`BigInt(row)` keys): the saved file, memory-mapped read-only (`view`), plus an exact "delta" of
 * the vectors committed since that file (read from LMDB's vector log), so a search always covers
 * every committed vector.
 *
 * The writer does not change the graph itself: a background thread (`index-worker.ts`) builds it
 * and saves files; each save marks this view stale and the next search re-maps the newer file.
 * Readers (other processes) do the same with the writer's files. A missing, stale or corrupt file
 * (or one of another dimension) is detected at open: the writer warns and plans a rebuild (or a
 * catch-up) for the background thread; a reader rebuilds a private in-memory graph — never an
 * error. A file built with other HNSW options is still a correct graph: readers search it as it
 * is (the writer owns the files), the writer searches it while its thread rebuilds the graph.
 */
export class VectorIndex {
  private index: Index | undefined;
  private sidecar: Sidecar | undefined;
  private applied = 0;
  /** Whether graph + delta cover every vector (false while the writer's graph is being rebuilt). */
  private coversAll = true;
  /** A newer file was saved (writer: by the background thread): re-map at the next sync. */
  private stale = false;
  private readonly delta = new Map<number, Float32Array>();
  /** What the background thread must do (writer), decided at open. */
  plan: IndexPlan = { kind: 'empty', generation: 0 };

  private constructor(
    private readonly databases: Databases,
    private readonly directory: string,
    readonly dims: number,
    private readonly options: HnswOptions,
    private readonly mode: 'writer' | 'reader',
    private readonly warn: (message: string) => void,
  ) {}

  /** Opens the index for `snapshot`'s generation, validating the saved file against LMDB. */
  static open(parameters: {
    databases: Databases;
    directory: string;
    dims: number;
    options: HnswOptions;
    mode: 'writer' | 'reader';
    warn: (message: string) => void;
    snapshot: Snapshot;
  }): VectorIndex {
    const { databases, directory, dims, options, mode, warn, snapshot } = parameters;
    const vectorIndex = new VectorIndex(databases, directory, dims, options, mode, warn);
    vectorIndex.plan = vectorIndex.reopen(snapshot, false);
    return vectorIndex;
  }

  /** Vectors in the graph (delta excluded). */
  get size(): number {
    return this.index?.size() ?? 0;
  }

  /** Vectors in the delta (committed after the mapped file). */
  get deltaSize(): number {
    return this.delta.size;
  }

  /** Generation reflected by graph + delta. */
  get generation(): number {
    return this.applied;
  }

  /** Whether graph + delta cover every committed vector (else search scans LMDB exactly). */
  get covered(): boolean {
    return this.coversAll;
  }

  /** The writer's background thread saved `sidecar`: re-map it at the next search. */
  markSaved(sidecar: Sidecar): void {
    if (sidecar.generation > (this.sidecar?.generation ?? -1) || sidecar.file !== this.sidecar?.file) this.stale = true;
  }

  /** Replaces the graph, freeing the previous one (and its file mapping) right away. */
  private replaceIndex(next: Index | undefined): void {
    const previous = this.index;
    this.index = next;
    if (previous !== undefined && previous !== next) releaseIndex(previous, this.options);
  }

  /**
   * Maps the saved file (if usable) and replays the log after it into the delta. At open
   * (`remap` false) problems are reported and planned for; a re-map after the writer's own save
   * is silent.
   */
  private reopen(snapshot: Snapshot, remap: boolean): IndexPlan {
    const generation = snapshot.generation();
    const vectorCount = (snapshot.get(this.databases.meta, 'vectorCount') as number | undefined) ?? 0;
    const prunedThrough = (snapshot.get(this.databases.meta, 'logPrunedThrough') as number | undefined) ?? 0;
    this.delta.clear();
    this.stale = false;
    let found = readSidecar(this.directory, this.dims);
    // A reader may look just as the writer replaces the file: read the new sidecar again.
    for (let attempt = 0; attempt < 3 && (this.mode === 'reader' || remap) && 'problem' in found && found.problem.includes('missing'); attempt++) {
      found = readSidecar(this.directory, this.dims);
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
          this.replaceIndex(openIndexFile(this.directory, sidecar, this.options, 'view'));
          this.sidecar = sidecar;
          this.applied = sidecar.generation;
          this.coversAll = true;
          this.sync(snapshot);
          if (this.mode === 'writer' && !remap && !builtWith(sidecar, this.options)) {
            // Still a correct graph of these vectors: it serves searches until the new one is saved.
            this.warn(
              `store-lmdb: the vector index was built with other HNSW options (connectivity ${sidecar.connectivity}, ${sidecar.quantization}; now ${this.options.connectivity}, ${this.options.quantization}); rebuilding it from LMDB (${vectorCount} vectors) in the background, searching the old one meanwhile`,
            );
            return { kind: 'rebuild' };
          }
          if (this.mode === 'writer' && behind && !remap) this.warn(`store-lmdb: the vector index is behind the database (generation ${sidecar.generation} of ${generation}); catching up from the change log in the background`);
          return { kind: 'load', sidecar, behind };
        } catch (error) {
          problem = `the vector index file is corrupt (${error instanceof Error ? error.message : String(error)})`;
        }
      }
    }
    if (remap) {
      // The background thread owns the file; until it saves a good one, search scans exactly.
      this.uncovered(generation);
      return this.plan;
    }
    if (this.mode === 'reader' && problem === 'the vector index sidecar is missing' && prunedThrough === 0 && vectorCount <= 50_000) {
      // The writer has not saved a file yet: every vector is in the log, replay it into the delta.
      this.replayAll(snapshot);
      return this.plan;
    }
    if (vectorCount === 0 && !('sidecar' in found)) {
      // Nothing indexed yet (or ever): the empty graph is the truth.
      this.replaceIndex(undefined);
      this.sidecar = undefined;
      this.applied = generation;
      this.coversAll = true;
      return { kind: 'empty', generation };
    }
    this.warn(`store-lmdb: ${problem ?? 'the vector index cannot be used'}; rebuilding it from LMDB (${vectorCount} vectors)`);
    if (this.mode === 'reader') this.rebuild(snapshot);
    else if (prunedThrough === 0) this.replayAll(snapshot);
    else this.uncovered(generation);
    return { kind: 'rebuild' };
  }

  /** No graph; the delta is the whole log (nothing was ever pruned). */
  private replayAll(snapshot: Snapshot): void {
    this.replaceIndex(undefined);
    this.sidecar = undefined;
    this.applied = 0;
    this.coversAll = true;
    this.sync(snapshot);
  }

  /** No usable graph and the log does not cover everything: search scans LMDB exactly. */
  private uncovered(generation: number): void {
    this.replaceIndex(undefined);
    this.sidecar = undefined;
    this.applied = generation;
    this.coversAll = false;
  }

  private hasChanges(snapshot: Snapshot, after: number, through: number): boolean {
    for (const _entry of snapshot.range(this.databases.vectorLog, { start: after, end: through, exclusiveStart: true, inclusiveEnd: true, limit: 1 })) return true;
    return false;
  }

  /** A reader's private in-memory graph of every vector (never saved: the writer owns the files). */
  private rebuild(snapshot: Snapshot): void {
    const index = createIndex(this.dims, this.options, (snapshot.get(this.databases.meta, 'vectorCount') as number | undefined) ?? 0);
    const keys = new BigUint64Array(addBatch);
    const matrix = new Float32Array(addBatch * this.dims);
    const bytes = new Uint8Array(matrix.buffer);
    let filled = 0;
    const flush = () => {
      if (filled > 0) index.add(keys.subarray(0, filled), matrix.subarray(0, filled * this.dims), this.options.addThreads ?? 0);
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
    this.sidecar = undefined;
    this.applied = snapshot.generation();
    this.coversAll = true;
  }

  /** Brings the delta up to the snapshot's generation from the vector log (re-mapping a newer file first). */
  sync(snapshot: Snapshot): void {
    if (this.stale) {
      this.reopen(snapshot, this.mode === 'writer');
      return;
    }
    const generation = snapshot.generation();
    if (generation <= this.applied) return;
    if (!this.coversAll) {
      this.applied = generation;
      return;
    }
    const prunedThrough = (snapshot.get(this.databases.meta, 'logPrunedThrough') as number | undefined) ?? 0;
    if (prunedThrough > this.applied) {
      this.reopen(snapshot, this.mode === 'writer');
      return;
    }
    for (const { key, value } of snapshot.range<VectorLogEntry>(this.databases.vectorLog, { start: this.applied, end: generation, exclusiveStart: true, inclusiveEnd: true })) {
      this.applyToDelta(snapshot, value);
      this.applied = key as number;
    }
    this.applied = generation;
    if (this.mode === 'reader' && this.delta.size > Math.max(10_000, 0.1 * this.size)) {
      const found = readSidecar(this.directory, this.dims);
      if ('sidecar' in found && found.sidecar.generation > (this.sidecar?.generation ?? -1)) this.reopen(snapshot, false);
    }
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

  /** Releases the graph mapping. */
  close(): void {
    this.replaceIndex(undefined);
    this.delta.clear();
  }
}
