import { describe, expect, it } from 'vitest';
import { createReferenceMemoryStore } from './reference-memory-store.js';
import { ReferenceStore } from './reference-store.js';
import { runStoreConformance } from './store-conformance.js';

// Reusing the state of a directory simulates a persistent store, so the suite's reopen test runs too.
const states = new Map<string, ReferenceStore>();
runStoreConformance({
  name: 'store-reference',
  persistent: true,
  propertyRuns: 10,
  createStore: async ({ directory }) => {
    const state = states.get(directory) ?? new ReferenceStore();
    states.set(directory, state);
    return createReferenceMemoryStore({ state, persistent: true });
  },
});

describe('createReferenceMemoryStore', () => {
  it('returns copies, so callers cannot change what it holds', async () => {
    const store = createReferenceMemoryStore();
    await store.write({ units: [{ id: 'e1', kind: 'episode', scope: { userId: 'u' }, text: 'kept as written' }] });
    const [unit] = await store.getUnits({ userId: 'u' }, ['e1']);
    if (unit) unit.text = 'changed';
    expect((await store.getUnits({ userId: 'u' }, ['e1']))[0]?.text).toBe('kept as written');
  });
});
