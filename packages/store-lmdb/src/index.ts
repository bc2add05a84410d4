export { createLmdbStore } from './lmdb-store.js';
export type { LmdbStore, LmdbStoreOptions } from './lmdb-store-options.js';
export type { HnswOptions } from './vector/index-file.js';
export type { IndexMaintenance } from './vector/vector-index.js';
