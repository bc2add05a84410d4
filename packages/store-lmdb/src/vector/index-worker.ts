/**
 * The background indexer: a worker thread that owns the writer's in-memory HNSW graph. LMDB is
 * the source of truth and commits without waiting for it; this thread reads the committed vector
 * log and vectors from LMDB (its own handle on the same environment), adds them to the graph,
 * saves the file + sidecar now and then, and tells the main thread, which re-maps the file and
 * prunes the log. See `background-indexer.ts` for the main-thread side and the message protocol.
 */
import { parentPort } from 'node:worker_threads';
import { open, type Key, type RootDatabase, type Transaction } from 'lmdb';
import type { Index } from 'usearch';
import { databaseCount, keyPart, openDatabases, type Databases, type VectorLogEntry } from '../layout.js';
import { createIndex, openIndexFile, releaseIndex, saveIndexFile, writeSidecar, type HnswOptions, type Sidecar } from './index-file.js';
import type { IndexMaintenance } from './vector-index.js';
import type { FromIndexer, IndexPlan, ToIndexer } from './background-indexer.js';

const addBatch = 8192;

class IndexBuilder {
  private index: Index | undefined;
  private sidecar: Sidecar | undefined;
  private applied = 0;
  private unsaved = 0;
  private tombstones = 0;
  /** Rows from the log may already be in a loaded file (catch-up): check before adding. */
  private catchingUp = false;
  private readonly keys = new BigUint64Array(addBatch);
  private readonly matrix: Float32Array;
  private readonly bytes: Uint8Array;

  constructor(
    private readonly databases: Databases,
    private readonly directory: string,
    private readonly dims: number,
    private readonly options: HnswOptions,
    readonly maintenance: IndexMaintenance,
    private readonly post: (message: FromIndexer) => void,
  ) {
    this.matrix = new Float32Array(addBatch * dims);
    this.bytes = new Uint8Array(this.matrix.buffer);
  }

  get generation(): number {
    return this.applied;
  }

  private warn(message: string): void {
    this.post({ type: 'warning', message });
  }

  private replaceIndex(next: Index | undefined): void {
    const previous = this.index;
    this.index = next;
    if (previous !== undefined && previous !== next) releaseIndex(previous, this.options);
  }

  private meta(key: string, transaction?: Transaction): number {
    return (this.databases.meta.get(key, transaction === undefined ? undefined : { transaction }) as number | undefined) ?? 0;
  }

  /** Starts from the plan the main thread made when it checked the saved file. */
  start(plan: IndexPlan): void {
    if (plan.kind === 'load') {
      try {
        this.replaceIndex(openIndexFile(this.directory, plan.sidecar, this.options, 'load'));
        this.sidecar = plan.sidecar;
        this.applied = plan.sidecar.generation;
        this.tombstones = plan.sidecar.tombstones ?? 0;
        this.catchingUp = plan.behind;
        return;
      } catch (error) {
        this.warn(`store-lmdb: the vector index file is corrupt (${error instanceof Error ? error.message : String(error)}); rebuilding it from LMDB`);
      }
    } else if (plan.kind === 'empty') {
      this.applied = plan.generation;
      return;
    }
    this.rebuild();
  }

  /** Builds the graph from every vector in LMDB (one read transaction), saves it and lets the whole log go. */
  private rebuild(): void {
    const { root, vectors } = this.databases;
    const index = createIndex(this.dims, this.options);
    const transaction = root.useReadTransaction();
    let generation: number;
    try {
      generation = this.meta('generation', transaction);
      let filled = 0;
      const flush = () => {
        if (filled > 0) index.add(this.keys.subarray(0, filled), this.matrix.subarray(0, filled * this.dims), this.options.addThreads ?? 0);
        filled = 0;
      };
      for (const { key, value } of vectors.getRange({ transaction })) {
        if (value.byteLength !== this.dims * 4) continue;
        this.keys[filled] = BigInt((key as Key[])[1] as number);
        this.bytes.set(value, filled * this.dims * 4);
        filled += 1;
        if (filled === addBatch) flush();
      }
      flush();
    } finally {
      transaction.done();
    }
    this.replaceIndex(index);
    this.sidecar = undefined;
    this.applied = generation;
    this.unsaved = Math.max(1, index.size());
    this.tombstones = 0;
    this.catchingUp = false;
    this.save(generation);
  }

  /**
   * Applies log entries after the applied generation, up to `target` and about `budget` added
   * rows (whole entries). Returns whether it reached `target`.
   */
  step(target: number, budget: number): boolean {
    if (target <= this.applied) return true;
    const { root, vectorLog, rows, vectors } = this.databases;
    root.resetReadTxn();
    const prunedThrough = this.meta('logPrunedThrough');
    if (prunedThrough > this.applied) {
      // Cannot happen while this thread is the only one saving; recover anyway.
      this.warn(`store-lmdb: the vector log was pruned past the index (generation ${this.applied}); rebuilding it from LMDB`);
      this.rebuild();
      return this.applied >= target;
    }
    // Only what this thread's snapshot holds counts as applied: a commit the main thread has
    // announced but this read transaction does not see yet is taken on the next step, never skipped.
    const through = Math.min(target, this.meta('generation'));
    let added = 0;
    let compact = false;
    for (const { key, value } of vectorLog.getRange({ start: this.applied, end: through, exclusiveStart: true, inclusiveEnd: true }) as Iterable<{ key: Key; value: VectorLogEntry }>) {
      this.index ??= createIndex(this.dims, this.options);
      const index = this.index;
      this.tombstones += value.removed.length;
      if (value.compact === true && value.removed.length > 0) compact = true;
      let filled = 0;
      const flush = () => {
        if (filled > 0) index.add(this.keys.subarray(0, filled), this.matrix.subarray(0, filled * this.dims), this.options.addThreads ?? 0);
        filled = 0;
      };
      for (const row of value.added) {
        const record = rows.get(row);
        if (record === undefined) continue; // removed since: a later entry counts it
        const bytes = vectors.getBinary([keyPart(record.userId), row]);
        if (bytes === undefined || bytes.byteLength !== this.dims * 4) continue;
        const id = BigInt(row);
        if (this.catchingUp && index.contains(id)) continue;
        this.keys[filled] = id;
        this.bytes.set(bytes, filled * this.dims * 4);
        filled += 1;
        if (filled === addBatch) flush();
      }
      flush();
      this.unsaved += value.added.length + value.removed.length;
      added += value.added.length;
      this.applied = key as number;
      if (added >= budget) break;
    }
    if (added < budget) this.applied = Math.max(this.applied, through);
    if (this.index !== undefined && this.tombstones > 0 && (compact || this.tombstones > this.maintenance.compactFraction * this.index.size())) {
      // usearch's own removal slows with index size; rebuilding without the tombstones is cheaper.
      // A forget rebuilds at once whatever its share: its vectors must not stay in the file.
      this.rebuild();
    }
    return this.applied >= target;
  }

  /** Saves when enough changes are unsaved. */
  maybeSave(): void {
    if (this.unsaved >= Math.max(this.maintenance.saveMinimumChanges, this.maintenance.saveFraction * (this.index?.size() ?? 0))) this.save();
  }

  /**
   * Saves the graph file and sidecar; the main thread then prunes the vector log up to
   * `pruneThrough` (by default the previous file's generation: readers still on it replay the log
   * after it).
   */
  save(pruneThrough?: number): void {
    if (this.index === undefined) return;
    if (this.unsaved === 0) {
      // No vector changed: only record that the file is current as of this generation.
      if (this.sidecar !== undefined && this.sidecar.generation < this.applied) {
        this.sidecar = { ...this.sidecar, generation: this.applied };
        writeSidecar(this.directory, this.sidecar);
        this.post({ type: 'saved', sidecar: this.sidecar, pruneThrough: 0 });
      }
      return;
    }
    const previous = this.sidecar;
    this.sidecar = saveIndexFile(this.directory, this.index, { generation: this.applied, tombstones: this.tombstones }, this.options, previous);
    this.unsaved = 0;
    this.catchingUp = false;
    this.post({ type: 'saved', sidecar: this.sidecar, pruneThrough: pruneThrough ?? previous?.generation ?? 0 });
  }

  /** Whether the graph has changes the saved file lacks. */
  get dirty(): boolean {
    return this.unsaved > 0;
  }

  close(): void {
    this.replaceIndex(undefined);
  }
}



function run(): void {
  const port = parentPort;
  if (port === null) throw new Error('store-lmdb: index-worker must run in a worker thread');
  const post = (message: FromIndexer) => port.postMessage(message);
  let builder: IndexBuilder | undefined;
  let root: RootDatabase | undefined;
  let target = 0;
  let flushes: number[] = [];
  let stopping = false;
  let scheduled = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const finish = async () => {
    clearTimeout(idleTimer);
    builder?.close();
    builder = undefined;
    await root?.close();
    post({ type: 'stopped' });
    port.close();
  };

  const work = () => {
    scheduled = false;
    try {
      if (builder === undefined) return;
      const reached = builder.step(target, addBatch);
      if (!reached) {
        builder.maybeSave();
        post({ type: 'progress', generation: builder.generation });
        schedule();
        return;
      }
      if (flushes.length > 0 || stopping) builder.save();
      else builder.maybeSave();
      const { idleSaveMs } = builder.maintenance;
      if (builder.dirty && !stopping && idleSaveMs > 0) {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => {
          if (builder !== undefined && !stopping && builder.generation >= target) {
            try {
              builder.save();
            } catch (error) {
              post({ type: 'warning', message: `store-lmdb: saving the vector index failed (${String(error)}); it is retried later` });
            }
          }
        }, idleSaveMs);
      }
      post({ type: 'progress', generation: builder.generation });
      for (const id of flushes) post({ type: 'flushed', id, generation: builder.generation });
      flushes = [];
      if (stopping) void finish();
    } catch (error) {
      post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      void finish();
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(work);
  };

  port.on('message', (message: ToIndexer) => {
    try {
      switch (message.type) {
        case 'start': {
          root = open({ path: message.path, maxDbs: databaseCount + 4, noSubdir: false, ...message.lmdb });
          const databases = openDatabases(root);
          builder = new IndexBuilder(databases, message.path, message.dims, message.options, message.maintenance, post);
          builder.start(message.plan);
          target = Math.max(target, message.generation);
          break;
        }
        case 'sync':
          target = Math.max(target, message.generation);
          clearTimeout(idleTimer);
          break;
        case 'flush':
          target = Math.max(target, message.generation);
          flushes.push(message.id);
          break;
        case 'stop':
          stopping = true;
          break;
      }
      schedule();
    } catch (error) {
      post({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      void finish();
    }
  });
}

run();
