import type { MemoryStore } from '../../ports/memory-store.js';
import { ReferenceStore } from '../../testing/reference-store.js';

/**
 * A store for the eval's tests: the brute-force reference model of the store port behind async
 * methods, recording which tenants were forgotten.
 */
export function createTinyStore(): MemoryStore & { forgotten: string[] } {
  const reference = new ReferenceStore();
  const forgotten: string[] = [];
  return {
    specificationVersion: 'v1',
    name: 'tiny-test-store',
    capabilities: { persistent: false, exactVector: true, multiProcess: false },
    forgotten,
    write: async (batch) => reference.write(batch),
    getUnits: async (scope, ids) => reference.getUnits(scope, ids),
    getCues: async (scope, ids) => reference.getCues(scope, ids),
    getTags: async (scope, ids) => reference.getTags(scope, ids),
    findCues: async (scope, names) => reference.findCues(scope, names),
    relationsOfCues: async (scope, ids) => reference.relationsOfCues(scope, ids),
    relationsOfPairs: async (scope, pairs) => reference.relationsOfPairs(scope, pairs),
    relationsOfContents: async (scope, ids) => reference.relationsOfContents(scope, ids),
    episodesOfTopics: async (scope, ids) => reference.episodesOfTopics(scope, ids),
    timeline: async (scope, window, options) => reference.timeline(scope, window, options),
    vectorSearch: async (scope, vector, options) => reference.vectorSearch(scope, vector, options),
    lexicalSearch: async (scope, query, options) => reference.lexicalSearch(scope, query, options),
    listUnits: async (scope, options) => reference.listUnits(scope, options),
    listCues: async (scope, options) => reference.listCues(scope, options),
    listTags: async (scope, options) => reference.listTags(scope, options),
    delete: async (scope, id) => reference.delete(scope, id),
    forget: async (scope) => {
      forgotten.push(scope.userId);
      reference.forget(scope);
    },
    dispose: async () => {},
  };
}
