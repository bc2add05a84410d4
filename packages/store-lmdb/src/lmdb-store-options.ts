import type { MemoryStore } from '@engram/core';
import type { RootDatabase } from 'lmdb';
import type { HnswOptions } from './vector/index-file.js';
import type { IndexMaintenance } from './vector/vector-index.js';

/** Options of {@link createLmdbStore}. */
export interface LmdbStoreOptions {
  /** Directory of the store (created when missing): LMDB's `data.mdb`/`lock.mdb` and the vector index files. */
  path: string;
  /** Vector dimension. When given it must match the stored vectors (else `dimension-mismatch`); otherwise the first vector written fixes it. */
  dims?: number;
  /**
   * Open as a reader: never writes, takes no lock, any number of reader processes may share the
   * path with one writer. The store must exist. @default false
   */
  readOnly?: boolean;
  /** Receives non-fatal problems (a stale, missing or corrupt vector index being rebuilt, a stale lock taken over). @default console.warn */
  onWarning?: (message: string) => void;
  /** HNSW parameters of the derived vector index. Changing them later rebuilds the index. */
  hnsw?: Partial<HnswOptions>;
  /** A tenant with at most this many vectors is searched exactly, from LMDB, without the graph. @default 5000 */
  exactScanLimit?: number;
  /** Largest graph over-fetch of a filtered vector search before it falls back to an exact scan. @default 4096 */
  maxOverFetch?: number;
  /**
   * Fewest candidates a vector search takes from the graph and re-scores exactly from LMDB's
   * float32 vectors; it always takes at least `2k + 10` (more when the tenant is a small share).
   * At 1 000 000 vectors 100 instead of 30 added ~1–2 ms and no recall: the beam
   * (`hnsw.expansionSearch`) is what finds more of the true top k. @default 0
   */
  vectorCandidates?: number;
  /** When the writer saves (always on dispose, too) and compacts the vector index file. */
  indexMaintenance?: Partial<IndexMaintenance>;
  /**
   * When `write`, `delete` and `forget` resolve. `'flushed'`: once the change is synced to disk, so
   * it survives a power cut as well as a crash. `'committed'`: as soon as it is committed — visible
   * to readers and safe from a killed process (LMDB never shows half a transaction), but the OS
   * may still hold it in memory; faster for bulk loads that can be re-run. @default 'flushed'
   */
  durability?: 'flushed' | 'committed';
  /** Initial LMDB map size in bytes (LMDB grows it as needed). @default lmdb-js default */
  mapSize?: number;
  /** Most concurrent LMDB read transactions across all processes. @default 126 */
  maxReaders?: number;
}

/** The LMDB store: the store port with its escape hatch typed as the LMDB root database. */
export type LmdbStore = Omit<MemoryStore, 'getInstance'> & {
  /** The LMDB root database (sub-databases via `openDB`). Read it; writing behind the store's back breaks its indexes. */
  getInstance(): RootDatabase;
  /**
   * Resolves once the background HNSW index covers every vector committed so far and is saved.
   * Not needed for correct results (vectors not yet in the graph are searched exactly); useful
   * before timing searches or handing the directory to reader processes. Readers resolve at once.
   */
  flush(): Promise<void>;
};
