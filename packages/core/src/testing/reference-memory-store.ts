import { StoreError } from '../errors/engram-error.js';
import { memoryStoreSpecificationVersion, type MemoryStore } from '../ports/memory-store.js';
import { ReferenceStore } from './reference-store.js';

/** Options of {@link createReferenceMemoryStore}. */
export interface ReferenceMemoryStoreOptions {
  /** State to serve; pass the same one again after `dispose()` to simulate reopening. @default a new one */
  state?: ReferenceStore;
  /** What `capabilities.persistent` declares (true when you reuse `state` across instances). @default false */
  persistent?: boolean;
}

const name = 'store-reference';

/**
 * The brute-force {@link ReferenceStore} behind the store port: slow (every query scans
 * everything) but obviously right. Use it to test code that needs a store (recall, operators)
 * without depending on a store package; values are copied in and out.
 */
export function createReferenceMemoryStore(options: ReferenceMemoryStoreOptions = {}): Omit<MemoryStore, 'getInstance'> & { getInstance(): ReferenceStore } {
  const state = options.state ?? new ReferenceStore();
  let disposed = false;
  const run = async <T>(call: () => T): Promise<T> => {
    if (disposed) throw new StoreError({ store: name, code: 'disposed', message: `${name}: the store was disposed` });
    return structuredClone(call());
  };
  return {
    specificationVersion: memoryStoreSpecificationVersion,
    name,
    capabilities: { persistent: options.persistent ?? false, exactVector: true, multiProcess: false },
    write: (batch) => run(() => state.write(batch)),
    getUnits: (scope, ids) => run(() => state.getUnits(scope, ids)),
    getCues: (scope, ids) => run(() => state.getCues(scope, ids)),
    getTags: (scope, ids) => run(() => state.getTags(scope, ids)),
    findCues: (scope, names) => run(() => state.findCues(scope, names)),
    relationsOfCues: (scope, cueIds) => run(() => state.relationsOfCues(scope, cueIds)),
    relationsOfPairs: (scope, pairs) => run(() => state.relationsOfPairs(scope, pairs)),
    relationsOfContents: (scope, contentIds) => run(() => state.relationsOfContents(scope, contentIds)),
    episodesOfTopics: (scope, topicIds) => run(() => state.episodesOfTopics(scope, topicIds)),
    timeline: (scope, window, timelineOptions) => run(() => state.timeline(scope, window, timelineOptions)),
    vectorSearch: (scope, vector, searchOptions) => run(() => state.vectorSearch(scope, vector, searchOptions)),
    lexicalSearch: (scope, query, searchOptions) => run(() => state.lexicalSearch(scope, query, searchOptions)),
    listUnits: (scope, listOptions) => run(() => state.listUnits(scope, listOptions)),
    listCues: (scope, listOptions) => run(() => state.listCues(scope, listOptions)),
    listTags: (scope, listOptions) => run(() => state.listTags(scope, listOptions)),
    delete: (scope, id) => run(() => state.delete(scope, id)),
    forget: (scope) => run(() => state.forget(scope)),
    dispose: async () => {
      disposed = true;
    },
    getInstance: () => state,
  };
}
