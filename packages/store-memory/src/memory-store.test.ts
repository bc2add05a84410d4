import { InvalidInputError, StoreError, type UnitInput } from '@engram/core';
import { ReferenceStore, createRandom, expectHits, randomVectors, runStoreConformance } from '@engram/core/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';

runStoreConformance({ name: 'store-memory', createStore: async () => createMemoryStore() });

const scope = { userId: 'u1' };
const episode = (id: string, vector?: Float32Array<ArrayBuffer>, text = `episode ${id}`): UnitInput => ({ id, kind: 'episode', scope, text, ...(vector ? { vector } : {}) });

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('store-memory', () => {
  it('is an exact, non-persistent, single-process store named store-memory', () => {
    const store = createMemoryStore();
    expect(store.name).toBe('store-memory');
    expect(store.specificationVersion).toBe('v1');
    expect(store.capabilities).toEqual({ persistent: false, exactVector: true, multiProcess: false });
  });

  it('keeps vector rows right through replacements, removals, dimension changes and deletes', async () => {
    const store = createMemoryStore({ initialVectorCapacity: 4 });
    const reference = new ReferenceStore();
    const random = createRandom(5);
    const small = randomVectors(1, 300, 12);
    const large = randomVectors(2, 300, 20);
    const write = async (units: UnitInput[]) => {
      reference.write({ units });
      await store.write({ units });
    };
    await write(small.map((vector, index) => episode(`e${index}`, vector)));
    for (let round = 0; round < 6; round++) {
      const changes: UnitInput[] = [];
      for (let index = 0; index < 300; index++) {
        const roll = random();
        if (roll < 0.1) changes.push(episode(`e${index}`, small[(index * 7 + round) % 300]));
        else if (roll < 0.15) changes.push(episode(`e${index}`));
        else if (roll < 0.2) changes.push(episode(`e${index}`, large[index]));
      }
      await write(changes);
      for (let index = round; index < 300; index += 17) {
        expect(await store.delete(scope, `e${index}`)).toBe(reference.delete(scope, `e${index}`));
      }
      for (const [dims, queries] of [[12, small], [20, large]] as const) {
        for (const query of queries.slice(round * 5, round * 5 + 5)) {
          expectHits(await store.vectorSearch(scope, query, { k: 15 }), {
            label: `round ${round}, ${dims} dimensions`,
            k: 15,
            eligible: reference.vectorScores(scope, query),
            unitOf: (id) => reference.unit(id),
            exact: true,
            tolerance: 1e-4,
          });
        }
      }
    }
  });

  it('answers the same with the plain-JS kernel as with WASM', async () => {
    const units = randomVectors(3, 400, 16).map((vector, index) => episode(`e${index}`, vector));
    const wasm = createMemoryStore({ vectorBackend: 'auto' });
    const js = createMemoryStore({ vectorBackend: 'js' });
    for (const store of [wasm, js]) await store.write({ units });
    for (const query of randomVectors(4, 10, 16)) {
      const [fromWasm, fromJs] = await Promise.all([wasm.vectorSearch(scope, query, { k: 10 }), js.vectorSearch(scope, query, { k: 10 })]);
      expect(fromJs.map((hit) => hit.unit.id)).toEqual(fromWasm.map((hit) => hit.unit.id));
      fromJs.forEach((hit, index) => expect(hit.score).toBeCloseTo(fromWasm[index]?.score ?? Number.NaN, 5));
    }
  });

  it('rejects bad query arguments with an InvalidInputError naming them', async () => {
    const store = createMemoryStore();
    await store.write({ units: [episode('e1', new Float32Array([1, 0]))] });
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['options.k', () => store.vectorSearch(scope, new Float32Array([1, 0]), { k: -1 })],
      ['options.k', () => store.lexicalSearch(scope, 'episode', { k: 1.5 })],
      ['vector', () => store.vectorSearch(scope, new Float32Array([Number.NaN, 0]), { k: 1 })],
      ['options.limit', () => store.listUnits(scope, { limit: -3 })],
      ['scope.userId', () => store.getUnits({ userId: '' }, ['e1'])],
    ];
    for (const [path, call] of cases) {
      const error = await rejection(call);
      expect(InvalidInputError.isInstance(error), `${path}: ${String(error)}`).toBe(true);
      expect((error as InvalidInputError).path).toBe(path);
    }
  });

  it('a vector query only sees units of its own dimension', async () => {
    const store = createMemoryStore();
    await store.write({ units: [episode('two', new Float32Array([1, 0])), episode('three', new Float32Array([1, 0, 0]))] });
    expect((await store.vectorSearch(scope, new Float32Array([1, 0, 0]), { k: 5 })).map((hit) => hit.unit.id)).toEqual(['three']);
    expect(await store.vectorSearch(scope, new Float32Array([1, 0, 0, 0]), { k: 5 })).toEqual([]);
  });

  it('forgetting a tenant releases its state; getInstance exposes what is held', async () => {
    const store = createMemoryStore();
    await store.write({ units: [episode('e1', new Float32Array([1, 0])), { ...episode('e2'), scope: { userId: 'u2' } }] });
    expect([...store.getInstance().tenants.keys()].sort()).toEqual(['u1', 'u2']);
    await store.forget({ userId: 'u1' });
    expect([...store.getInstance().tenants.keys()]).toEqual(['u2']);
    expect(store.getInstance().owners.unit.has('e1')).toBe(false);
    await store.delete({ userId: 'u2' }, 'e2');
    expect(store.getInstance().tenants.size).toBe(0);
  });

  it('writing a cue or a unit again keeps its names and words findable, and a change replaces them', async () => {
    const store = createMemoryStore();
    const cue = (aliases: string[]) => ({ id: 'c1', scope, name: 'Caroline', aliases });
    await store.write({ units: [episode('e1', undefined, 'Caroline adopted a beagle')], cues: [cue(['Caro'])] });
    // The same again (as ingest writes cues and topics every session): nothing lost.
    await store.write({ units: [episode('e1', undefined, 'Caroline adopted a beagle')], cues: [cue(['Caro'])] });
    expect((await store.findCues(scope, ['caro'])).map((found) => found.id)).toEqual(['c1']);
    expect((await store.lexicalSearch(scope, 'beagle', { k: 5 })).map((hit) => hit.unit.id)).toEqual(['e1']);
    // Changed: the old alias and words no longer match, the new ones do.
    await store.write({ units: [episode('e1', undefined, 'Caroline adopted a kitten')], cues: [cue(['Carrie'])] });
    expect(await store.findCues(scope, ['caro'])).toEqual([]);
    expect((await store.findCues(scope, ['carrie', 'caroline'])).map((found) => found.id)).toEqual(['c1']);
    expect(await store.lexicalSearch(scope, 'beagle', { k: 5 })).toEqual([]);
    expect((await store.lexicalSearch(scope, 'kitten', { k: 5 })).map((hit) => hit.unit.id)).toEqual(['e1']);
  });

  it('a disposed store names itself in the error', async () => {
    const store = createMemoryStore();
    await store.dispose();
    const error = await rejection(() => store.listUnits(scope));
    expect(StoreError.isInstance(error) && error.store === 'store-memory' && error.code === 'disposed').toBe(true);
  });
});
