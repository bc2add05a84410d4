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
  createStore: ({ directory }) => createLmdbStore({ path: directory, exactScanLimit: 0, hnsw: { expansionSearch: 1024, expansionAdd: 256, addThreads: 1 }, onWarning: () => undefined }),
  persistent: true,
  exactVector: false,
  propertyRuns: 10,
});
