import { randomUUID } from 'node:crypto';
import {
  checkCount,
  checkQueryVector,
  InvalidInputError,
  StoreError,
  memoryStoreSpecificationVersion,
  parseInput,
  prepareBatch,
  scopeFilterSchema,
  type BatchLookup,
  type ScopeFilter,
  type StoreCapabilities,
  type UnitFilter,
  type WriteBatch,
  type WriteBatchInput,
} from '@engram/core';
import { lexicalSearch } from './lexical/lexical-search.js';
import type { Databases } from './layout.js';
import type { LmdbStore, LmdbStoreOptions } from './lmdb-store-options.js';
import { isIoError, isSpaceError, lowOnSpace, openEnvironment } from './open-environment.js';
import * as queries from './queries.js';
import { Snapshot } from './snapshot.js';
import { applyBatch, deleteUnit, forgetScope } from './write/apply.js';
import type { Commit } from './write/mutation.js';
import type { HnswOptions } from './vector/index-file.js';
import { BackgroundIndexer } from './vector/background-indexer.js';
import { VectorIndex, type IndexMaintenance } from './vector/vector-index.js';
import { TenantVectorCache } from './vector/tenant-vectors.js';
import { vectorSearch, type VectorSearchSettings } from './vector/vector-search.js';
import { acquireWriterLock, assertWriterLock, releaseWriterLock } from './writer-lock.js';

const storeName = 'store-lmdb';
const capabilities: StoreCapabilities = Object.freeze({ persistent: true, exactVector: false, multiProcess: true });
const defaultHnsw: HnswOptions = { connectivity: 24, expansionAdd: 96, expansionSearch: 0, quantization: 'i8', addThreads: 1 };

/**
 * The LMDB store. LMDB is the source of truth for everything; the usearch HNSW index is derived
 * from it and rebuilt or caught up whenever it is missing, stale or corrupt.
 */
class LmdbMemoryStore implements LmdbStore {
  readonly specificationVersion = memoryStoreSpecificationVersion;
  readonly name = storeName;
  readonly capabilities = capabilities;
  private disposed = false;
  private vectorIndex: VectorIndex | undefined;
  private indexer: BackgroundIndexer | undefined;
  private dims: number | undefined;
  private readonly token = randomUUID();
  private readonly readOnly: boolean;
  private readonly warn: (message: string) => void;
  private readonly hnsw: HnswOptions;
  private readonly maintenance: IndexMaintenance;
  private readonly searchSettings: VectorSearchSettings;
  /** Small tenants' vectors in memory for exact search, checked against the generation on every read. */
  private readonly tenantVectors = new TenantVectorCache();
  private readonly lookup: BatchLookup;

  constructor(
    private readonly databases: Databases,
    private readonly options: LmdbStoreOptions,
    dims: number | undefined,
  ) {
    this.dims = dims;
    this.readOnly = options.readOnly ?? false;
    this.warn = options.onWarning ?? ((message) => console.warn(message));
    this.hnsw = { ...defaultHnsw, ...options.hnsw };
    this.maintenance = { saveMinimumChanges: 20_000, saveFraction: 0.25, compactFraction: 0.2, idleSaveMs: 5000, ...options.indexMaintenance };
    this.searchSettings = { exactScanLimit: options.exactScanLimit ?? 5000, maxOverFetch: options.maxOverFetch ?? 4096, candidates: options.vectorCandidates ?? 0 };
    this.lookup = {
      ownerOf: (kind, id) => {
        if (kind === 'unit') return databases.units.get(id)?.unit.scope.userId;
        return (kind === 'cue' ? databases.cues : databases.tags).get(id)?.scope.userId;
      },
    };
  }

  /** Takes the write lock (writers) and opens the vector index. */
  open(): void {
    if (!this.readOnly) acquireWriterLock(this.databases, this.options.path, this.token, this.warn);
    try {
      if (this.dims !== undefined) this.openVectorIndex();
    } catch (error) {
      if (!this.readOnly) releaseWriterLock(this.databases, this.token);
      throw error;
    }
  }

  private openVectorIndex(): void {
    if (this.dims === undefined || this.vectorIndex !== undefined) return;
    const snapshot = new Snapshot(this.databases, this.dims);
    try {
      const index = VectorIndex.open({
        databases: this.databases,
        directory: this.options.path,
        dims: this.dims,
        options: this.hnsw,
        mode: this.readOnly ? 'reader' : 'writer',
        warn: this.warn,
        snapshot,
      });
      this.vectorIndex = index;
      if (!this.readOnly) {
        this.indexer = new BackgroundIndexer(
          {
            databases: this.databases,
            path: this.options.path,
            dims: this.dims,
            options: this.hnsw,
            maintenance: this.maintenance,
            lmdb: { ...(this.options.mapSize === undefined ? {} : { mapSize: this.options.mapSize }), ...(this.options.maxReaders === undefined ? {} : { maxReaders: this.options.maxReaders }) },
            plan: index.plan,
            generation: snapshot.generation(),
          },
          { warn: this.warn, saved: (sidecar) => index.markSaved(sidecar), prune: (through) => this.pruneVectorLog(through) },
        );
      }
    } finally {
      snapshot.done();
    }
  }

  /** Drops vector log entries through `through` (the background thread saved a file past them). */
  private pruneVectorLog(through: number): void {
    const { root, vectorLog, meta } = this.databases;
    try {
      root.transactionSync(() => {
        for (const key of [...vectorLog.getKeys({ end: through, inclusiveEnd: true })]) vectorLog.removeSync(key);
        if (((meta.get('logPrunedThrough') as number | undefined) ?? 0) < through) meta.putSync('logPrunedThrough', through);
      });
    } catch (error) {
      this.warn(`store-lmdb: pruning the vector log failed (${String(error)}); it is retried after the next index save`);
    }
  }

  getInstance() {
    return this.databases.root;
  }

  private assertOpen(): void {
    if (this.disposed) throw new StoreError({ store: storeName, code: 'disposed', message: 'store-lmdb: the store was disposed' });
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readOnly) throw new StoreError({ store: storeName, code: 'read-only', message: `store-lmdb: ${this.options.path} was opened with { readOnly: true }` });
  }

  /** Runs a query on a fresh snapshot (readers first notice a dimension fixed by the writer). */
  private read<T>(scope: ScopeFilter, run: (snapshot: Snapshot, scope: ScopeFilter) => T): T {
    this.assertOpen();
    const parsed = parseInput(scopeFilterSchema, scope, { label: 'scope' });
    const snapshot = new Snapshot(this.databases, this.dims);
    try {
      return run(snapshot, parsed);
    } finally {
      snapshot.done();
    }
  }

  /** Runs one write transaction; LMDB errors become `StoreError`s and nothing of it is kept. */
  private transact(action: () => Commit | undefined): Commit | undefined {
    let commit: Commit | undefined;
    try {
      commit = this.databases.root.transactionSync(() => {
        assertWriterLock(this.databases, this.options.path, this.token);
        return action();
      });
    } catch (error) {
      if (StoreError.isInstance(error) || InvalidInputError.isInstance(error)) throw error;
      if (isSpaceError(error) || (isIoError(error) && lowOnSpace(this.options.path))) {
        throw new StoreError({ store: storeName, code: 'disk-full', message: `store-lmdb: no space left writing to ${this.options.path}; nothing of this write was kept (${String(error)})`, cause: error });
      }
      const hint = isIoError(error) ? ' (an I/O error: the disk may be full or a file size limit reached)' : '';
      throw new StoreError({ store: storeName, code: 'write-failed', message: `store-lmdb: the write to ${this.options.path} failed and was rolled back${hint}: ${String(error)}`, cause: error });
    }
    if (commit !== undefined) this.afterCommit(commit);
    return commit;
  }

  /** Tells the background indexer about the new commit; LMDB already has everything. */
  private afterCommit(commit: Commit): void {
    if (this.dims === undefined) this.dims = this.databases.meta.get('dims') as number | undefined;
    try {
      this.openVectorIndex();
      if (commit.vectorsChanged) this.indexer?.notify(commit.generation);
    } catch (error) {
      this.warn(`store-lmdb: updating the vector index failed (${String(error)}); it is rebuilt from LMDB at the next open`);
    }
  }

  /**
   * Resolves once the background vector index covers every vector committed so far and is saved
   * (searches are exact over not-yet-indexed vectors meanwhile, so this is about speed, not
   * correctness). A reader resolves at once.
   */
  async flush(): Promise<void> {
    this.assertOpen();
    if (this.indexer === undefined) return;
    await this.indexer.flush((this.databases.meta.get('generation') as number | undefined) ?? 0);
  }

  private checkDimensions(batch: WriteBatch): void {
    let dims = this.dims;
    batch.units.forEach((unit, index) => {
      if (unit.vector === undefined) return;
      dims ??= unit.vector.length;
      if (unit.vector.length !== dims) {
        throw new StoreError({
          store: storeName,
          code: 'dimension-mismatch',
          message: `store-lmdb: batch.units[${index}].vector has ${unit.vector.length} dimensions, the store holds ${dims}-dimensional vectors; nothing was written`,
        });
      }
    });
  }

  async write(batch: WriteBatchInput): Promise<void> {
    this.assertWritable();
    const prepared = prepareBatch(batch, this.lookup);
    this.checkDimensions(prepared);
    if (this.vectorIndex === undefined) {
      // The first vectors fix the dimension: open the (empty) index before they commit.
      this.dims ??= prepared.units.find((unit) => unit.vector !== undefined)?.vector?.length;
      this.openVectorIndex();
    }
    this.transact(() => applyBatch(this.databases, prepared));
    await this.durable();
  }

  /**
   * Waits until what was committed is on disk (`durability: 'flushed'`). LMDB commits with
   * overlapping sync on Linux and macOS: the commit is atomic and visible at once, and the sync to
   * disk follows; this waits for it, off the main thread.
   */
  private async durable(): Promise<void> {
    if (this.options.durability === 'committed') return;
    await new Promise<void>((resolve, reject) => {
      // lmdb-js's `sync(callback)` (not in its typings): mdb_env_sync(force) on a worker thread.
      (this.databases.root as unknown as { sync(callback: (error?: unknown) => void): void }).sync((error) => {
        if (error) reject(new StoreError({ store: storeName, code: 'write-failed', message: `store-lmdb: the write to ${this.options.path} was committed but syncing it to disk failed: ${String(error)}`, cause: error }));
        else resolve();
      });
    });
  }

  async delete(scope: ScopeFilter, id: string): Promise<boolean> {
    this.assertWritable();
    const parsed = parseInput(scopeFilterSchema, scope, { label: 'scope' });
    const deleted = this.transact(() => deleteUnit(this.databases, parsed, id)) !== undefined;
    if (deleted) await this.durable();
    return deleted;
  }

  async forget(scope: ScopeFilter): Promise<void> {
    this.assertWritable();
    const parsed = parseInput(scopeFilterSchema, scope, { label: 'scope' });
    this.transact(() => forgetScope(this.databases, parsed));
    await this.durable();
  }

  async getUnits(scope: ScopeFilter, ids: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.getUnits(snapshot, parsed, ids));
  }

  async getCues(scope: ScopeFilter, ids: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.getCues(snapshot, parsed, ids));
  }

  async getTags(scope: ScopeFilter, ids: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.getTags(snapshot, parsed, ids));
  }

  async findCues(scope: ScopeFilter, names: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.findCues(snapshot, parsed, names));
  }

  async relationsOfCues(scope: ScopeFilter, cueIds: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.relationsOfCues(snapshot, parsed, cueIds));
  }

  async relationsOfPairs(scope: ScopeFilter, pairs: ReadonlyArray<{ cueId: string; tagId: string }>) {
    return this.read(scope, (snapshot, parsed) => queries.relationsOfPairs(snapshot, parsed, pairs));
  }

  async relationsOfContents(scope: ScopeFilter, contentIds: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.relationsOfContents(snapshot, parsed, contentIds));
  }

  async episodesOfTopics(scope: ScopeFilter, topicIds: ReadonlyArray<string>) {
    return this.read(scope, (snapshot, parsed) => queries.episodesOfTopics(snapshot, parsed, topicIds));
  }

  async timeline(scope: ScopeFilter, window: Parameters<LmdbStore['timeline']>[1], options?: Parameters<LmdbStore['timeline']>[2]) {
    checkCount(options?.limit, 'options.limit');
    return this.read(scope, (snapshot, parsed) => queries.timeline(snapshot, parsed, window, options));
  }

  async vectorSearch(scope: ScopeFilter, vector: Float32Array, options: UnitFilter & { k: number }) {
    this.assertOpen();
    checkCount(options.k, 'options.k');
    const query = checkQueryVector(vector);
    if (this.readOnly) {
      // A reader learns the dimension when the writer first stores a vector.
      this.dims ??= this.databases.meta.get('dims') as number | undefined;
      this.openVectorIndex();
    }
    return this.read(scope, (snapshot, parsed) => {
      const index = this.vectorIndex;
      index?.sync(snapshot);
      return vectorSearch(snapshot, index?.covered ? index : undefined, parsed, query, options, this.searchSettings, this.tenantVectors);
    });
  }

  async lexicalSearch(scope: ScopeFilter, query: string, options: UnitFilter & { k: number }) {
    this.assertOpen();
    checkCount(options.k, 'options.k');
    return this.read(scope, (snapshot, parsed) => lexicalSearch(snapshot, parsed, query, options));
  }

  async listUnits(scope: ScopeFilter, options?: Parameters<LmdbStore['listUnits']>[1]) {
    checkCount(options?.limit, 'options.limit');
    return this.read(scope, (snapshot, parsed) => queries.listUnits(snapshot, parsed, options));
  }

  async listCues(scope: ScopeFilter, options?: { limit?: number; after?: string }) {
    checkCount(options?.limit, 'options.limit');
    return this.read(scope, (snapshot, parsed) => queries.listCues(snapshot, parsed, options));
  }

  async listTags(scope: ScopeFilter, options?: { limit?: number; after?: string }) {
    checkCount(options?.limit, 'options.limit');
    return this.read(scope, (snapshot, parsed) => queries.listTags(snapshot, parsed, options));
  }

  /**
   * Waits for the background indexer to index every committed vector and save the file (so the
   * next open maps it at once), then closes. A process that ends without disposing loses nothing:
   * the next open catches the index up from LMDB in the background.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    try {
      await this.indexer?.stop((this.databases.meta.get('generation') as number | undefined) ?? 0);
    } catch (error) {
      this.warn(`store-lmdb: saving the vector index failed (${String(error)}); it is rebuilt from LMDB at the next open`);
    }
    this.indexer = undefined;
    this.tenantVectors.clear();
    this.vectorIndex?.close();
    this.vectorIndex = undefined;
    if (!this.readOnly) releaseWriterLock(this.databases, this.token);
    await this.databases.root.close();
  }
}

/**
 * Opens (creating when needed) an LMDB-backed store at `options.path`.
 *
 * One process may write at a time: a second writer gets a `StoreError` with code `locked`; open
 * readers with `{ readOnly: true }`. Bad states throw `StoreError`s: `not-writable`, `not-found`
 * (reader of a missing store), `format-version`, `dimension-mismatch`, `disk-full` (the batch is
 * not written), `disposed`.
 *
 * @example
 * ```ts
 * const store = await createLmdbStore({ path: './memory', dims: 256 });
 * await store.write({ units: [{ id: 'e1', kind: 'episode', scope: { userId: 'u1' }, text: 'Caroline adopted a puppy' }] });
 * const hits = await store.lexicalSearch({ userId: 'u1' }, 'puppy', { k: 5 });
 * await store.dispose();
 * ```
 */
export async function createLmdbStore(options: LmdbStoreOptions): Promise<LmdbStore> {
  if (typeof options?.path !== 'string' || options.path.length === 0) {
    throw new InvalidInputError({ message: 'invalid options.path: must be a non-empty directory path', path: 'options.path' });
  }
  if (options.dims !== undefined && (!Number.isInteger(options.dims) || options.dims <= 0)) {
    throw new InvalidInputError({ message: `invalid options.dims: must be a positive integer, got ${String(options.dims)}`, path: 'options.dims' });
  }
  const { root, databases, dims } = openEnvironment(options);
  const store = new LmdbMemoryStore(databases, options, dims);
  try {
    store.open();
  } catch (error) {
    await root.close();
    throw error;
  }
  return store;
}
