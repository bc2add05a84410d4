import { describe } from 'vitest';
import { createHarness, type StoreConformanceOptions } from './conformance-harness.js';
import { describeGraph } from './conformance-graph.js';
import { describeLifecycle } from './conformance-lifecycle.js';
import { describeMutation } from './conformance-mutation.js';
import { describeScoping } from './conformance-scoping.js';
import { describeSearch } from './conformance-search.js';

/**
 * The store conformance suite: every store package runs it first in its own tests. It writes
 * generated multi-tenant data (seeded) and holds every answer against a brute-force reference
 * ({@link ReferenceStore}): lookups, the mapping operators, timeline, lists and pagination, vector
 * top-k against exact cosine (or recall@10 for approximate stores), lexical top-k against exact
 * BM25, scoping as a property test, delete/forget, idempotent writes, atomic rejection of bad
 * batches, dispose, concurrency and, for persistent stores, reopening.
 *
 * @example
 * ```ts
 * import { runStoreConformance } from '@engram/core/testing';
 * runStoreConformance({ name: 'store-memory', createStore: async () => createMemoryStore() });
 * ```
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`store conformance: ${options.name}`, () => {
    const harness = createHarness(options);
    describeLifecycle(harness);
    describeGraph(harness);
    describeSearch(harness);
    describeMutation(harness);
    describeScoping(harness);
  });
}
