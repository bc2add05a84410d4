import { StoreError } from '../../errors/engram-error.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import { memoryStoreSpecificationVersion } from '../../ports/memory-store.js';
import { ReferenceStore } from '../../testing/reference-store.js';

/** A test store: the conformance suite's reference model behind the async port, with a write log. */
export interface TestMemoryStore extends MemoryStore {
  /** The model holding the records. */
  readonly reference: ReferenceStore;
  /** Number of `write` calls that succeeded. */
  readonly writes: number;
  /** A canonical JSON image of everything stored (vectors rounded), to compare before and after. */
  snapshot(): string;
}

/** Creates an empty {@link TestMemoryStore}. */
export function createTestMemoryStore(): TestMemoryStore {
  const reference = new ReferenceStore();
  let writes = 0;
  let disposed = false;
  const live = <T>(run: () => T): Promise<T> => {
    if (disposed) return Promise.reject(new StoreError({ store: 'test', code: 'disposed', message: 'store disposed' }));
    try {
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return {
    specificationVersion: memoryStoreSpecificationVersion,
    name: 'test',
    capabilities: { persistent: false, exactVector: true, multiProcess: false },
    reference,
    get writes() {
      return writes;
    },
    snapshot: () => {
      const sorted = <T extends { id?: string }>(values: Iterable<T>, key: (value: T) => string) => [...values].sort((a, b) => (key(a) < key(b) ? -1 : 1));
      const units = sorted([...reference.units.values()].map((entry) => entry.unit), (unit) => unit.id);
      return JSON.stringify({
        units: units.map((unit) => ({ ...unit, vector: undefined })),
        cues: sorted(reference.cues.values(), (cue) => cue.id),
        tags: sorted(reference.tags.values(), (tag) => tag.id),
        relations: [...reference.relations.keys()].sort(),
      });
    },
    write: (batch) => live(() => {
      reference.write(batch);
      writes += 1;
    }),
    getUnits: (scope, ids) => live(() => reference.getUnits(scope, ids)),
    getCues: (scope, ids) => live(() => reference.getCues(scope, ids)),
    getTags: (scope, ids) => live(() => reference.getTags(scope, ids)),
    findCues: (scope, names) => live(() => reference.findCues(scope, names)),
    relationsOfCues: (scope, ids) => live(() => reference.relationsOfCues(scope, ids)),
    relationsOfPairs: (scope, pairs) => live(() => reference.relationsOfPairs(scope, pairs)),
    relationsOfContents: (scope, ids) => live(() => reference.relationsOfContents(scope, ids)),
    episodesOfTopics: (scope, ids) => live(() => reference.episodesOfTopics(scope, ids)),
    timeline: (scope, window, options) => live(() => reference.timeline(scope, window, options)),
    vectorSearch: (scope, vector, options) => live(() => reference.vectorSearch(scope, vector, options)),
    lexicalSearch: (scope, query, options) => live(() => reference.lexicalSearch(scope, query, options)),
    listUnits: (scope, options) => live(() => reference.listUnits(scope, options)),
    listCues: (scope, options) => live(() => reference.listCues(scope, options)),
    listTags: (scope, options) => live(() => reference.listTags(scope, options)),
    delete: (scope, id) => live(() => reference.delete(scope, id)),
    forget: (scope) => live(() => reference.forget(scope)),
    dispose: async () => {
      disposed = true;
    },
  };
}
