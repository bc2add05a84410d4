import { runStoreConformance } from '@engram/core/testing';
import { createLmdbStore } from './index.js';

runStoreConformance({
  name: 'store-lmdb',
  createStore: ({ directory }) => createLmdbStore({ path: directory, onWarning: () => undefined }),
  persistent: true,
  exactVector: false,
});

// The same contract with every vector search going through the HNSW graph (no exact scan of small tenants).
runStoreConformance({
  name: 'store-lmdb (graph search)',
  // A wide search beam makes the graph exhaustive on the suite's small data, so its answers are stable.
  // The graph file is saved only on forget (which compacts) and dispose: a save in between (idle, or
  // compaction once tombstones pass a share) lands at a moment that depends on the indexing
  // thread's pace, and a filtered search over file + exact delta can then answer otherwise than over
  // the one graph saved at dispose ("dispose and reopen" failed that way now and then under load).
  createStore: ({ directory }) =>
    createLmdbStore({ path: directory, exactScanLimit: 0, hnsw: { expansionSearch: 1024, expansionAdd: 256, addThreads: 1 }, indexMaintenance: { idleSaveMs: 0, compactFraction: 1 }, onWarning: () => undefined }),
  persistent: true,
  exactVector: false,
  propertyRuns: 10,
});
