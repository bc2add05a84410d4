import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { ConformanceHarness } from './conformance-harness.js';
import { defaultUniverse } from './generators.js';
import { applyOperation, operationArbitrary } from './operations.js';
import { ReferenceStore } from './reference-store.js';
import { expectStoreMatchesReference } from './store-queries.js';

/**
 * The scoping property: random multi-tenant writes (good and bad), deletes, forgets and queries of
 * every method; every answer equals the brute-force reference, which never crosses tenants.
 */
export function describeScoping(harness: ConformanceHarness): void {
  const { options } = harness;
  const universe = defaultUniverse;

  describe(`store conformance: ${options.name} — scoping (property)`, () => {
    it('random multi-tenant writes, deletes, forgets and queries agree with the reference and never leak across tenants', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(operationArbitrary(universe), { minLength: 12, maxLength: 40 }), async (operations) => {
          const store = await harness.open();
          const reference = new ReferenceStore();
          try {
            for (const [index, operation] of operations.entries()) {
              await applyOperation(store, reference, operation, universe, { ...harness.answerOptions, label: `step ${index} (${operation.type}): ` });
            }
            await expectStoreMatchesReference(store, reference, universe, { ...harness.answerOptions, depth: 'state', label: 'after all steps: ' });
          } finally {
            await harness.close(store);
          }
        }),
        { seed: options.seed, numRuns: options.propertyRuns },
      );
    });
  });
}
