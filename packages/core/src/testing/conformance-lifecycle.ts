import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../errors/engram-error.js';
import type { WriteBatchInput } from '../model/batch.js';
import { memoryStoreSpecificationVersion, type MemoryStore } from '../ports/memory-store.js';
import type { ConformanceHarness } from './conformance-harness.js';
import { cueArbitrary, cueId, tagArbitrary, tagId, unitArbitrary, unitId, universeUnitIds, type Universe } from './generators.js';
import { ReferenceStore } from './reference-store.js';
import { collectAnswers, describeQuery, expectEqual, expectStoreMatchesReference, expectWithinScope, runQuery, type StoreQuery } from './store-queries.js';

/** Every method of the port called with harmless arguments. */
export function everyCall(store: MemoryStore): Array<[string, () => Promise<unknown>]> {
  const scope = { userId: 'ua' };
  return [
    ['write', () => store.write({ units: [{ id: 'ua-late', kind: 'episode', scope, text: 'too late' }] })],
    ['getUnits', () => store.getUnits(scope, ['ua-e1'])],
    ['getCues', () => store.getCues(scope, ['ua-c1'])],
    ['getTags', () => store.getTags(scope, ['ua-g1'])],
    ['findCues', () => store.findCues(scope, ['caroline'])],
    ['relationsOfCues', () => store.relationsOfCues(scope, ['ua-c1'])],
    ['relationsOfPairs', () => store.relationsOfPairs(scope, [{ cueId: 'ua-c1', tagId: 'ua-g1' }])],
    ['relationsOfContents', () => store.relationsOfContents(scope, ['ua-e1'])],
    ['episodesOfTopics', () => store.episodesOfTopics(scope, ['ua-p1'])],
    ['timeline', () => store.timeline(scope, {})],
    ['vectorSearch', () => store.vectorSearch(scope, new Float32Array([1, 0, 0, 0, 0, 0, 0, 0]), { k: 3 })],
    ['lexicalSearch', () => store.lexicalSearch(scope, 'caroline', { k: 3 })],
    ['listUnits', () => store.listUnits(scope)],
    ['listCues', () => store.listCues(scope)],
    ['listTags', () => store.listTags(scope)],
    ['delete', () => store.delete(scope, 'ua-e1')],
    ['forget', () => store.forget(scope)],
  ];
}

/**
 * Self-contained batches with disjoint ids (one per tenant and pool index), so that their end
 * state does not depend on the order they land in.
 */
export function disjointBatches(universe: Universe, seed: number): WriteBatchInput[] {
  return universe.tenants.flatMap((tenant, tenantIndex) =>
    Array.from({ length: universe.poolSize }, (_, index): WriteBatchInput => {
      const sampleSeed = seed + tenantIndex * 1000 + index;
      const units = fc.sample(unitArbitrary(universe, tenant), { seed: sampleSeed, numRuns: 4 }).map((unit) => ({ ...unit, id: unitId(tenant, unit.kind, index) }));
      const [cue] = fc.sample(cueArbitrary(universe, tenant), { seed: sampleSeed, numRuns: 1 });
      const [tag] = fc.sample(tagArbitrary(universe, tenant), { seed: sampleSeed, numRuns: 1 });
      const cues = cue === undefined ? [] : [{ ...cue, id: cueId(tenant, index) }];
      const tags = tag === undefined ? [] : [{ ...tag, id: tagId(tenant, index) }];
      const relations = units.map((unit) => ({ scope: { userId: tenant }, cueId: cueId(tenant, index), tagId: tagId(tenant, index), contentId: unit.id }));
      return { units, cues, tags, relations };
    }),
  );
}

/** Port metadata, value copies, dispose, concurrency and reopening. */
export function describeLifecycle(harness: ConformanceHarness): void {
  const { options, universe } = harness;

  describe(`store conformance: ${options.name} — contract and lifecycle`, () => {
    it('declares the port version, a name and its capabilities', async () => {
      const store = await harness.open();
      expect(store.specificationVersion).toBe(memoryStoreSpecificationVersion);
      expect(typeof store.name === 'string' && store.name.length > 0).toBe(true);
      expect(store.capabilities).toMatchObject({ persistent: options.persistent, exactVector: options.exactVector });
      expect(typeof store.capabilities.multiProcess).toBe('boolean');
    });

    it('keeps its own copies: mutating written or returned values changes nothing stored', async () => {
      const store = await harness.open();
      const vector = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]);
      const unit = { id: 'ua-e1', kind: 'episode' as const, scope: { userId: 'ua' }, text: 'Caroline painted a sunset', vector, context: { participants: ['Caroline'] } };
      const cue = { id: 'ua-c1', scope: { userId: 'ua' }, name: 'caroline', aliases: ['caro'] };
      await store.write({ units: [unit], cues: [cue] });
      const [stored] = await store.getUnits({ userId: 'ua' }, ['ua-e1']);
      const [storedCue] = await store.getCues({ userId: 'ua' }, ['ua-c1']);
      unit.text = 'changed';
      vector[0] = 99;
      unit.context.participants.push('Mallory');
      cue.aliases.push('mallory');
      if (stored?.vector) stored.vector[1] = 42;
      if (stored) stored.context.participants.push('Eve');
      storedCue?.aliases.push('eve');
      const [again] = await store.getUnits({ userId: 'ua' }, ['ua-e1']);
      expect(again?.text).toBe('Caroline painted a sunset');
      expect(Array.from(again?.vector ?? [])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(again?.context.participants).toEqual(['Caroline']);
      expect((await store.getCues({ userId: 'ua' }, ['ua-c1']))[0]?.aliases).toEqual(['caro']);
      expect(await store.findCues({ userId: 'ua' }, ['mallory', 'eve'])).toEqual([]);
      const [hit] = await store.vectorSearch({ userId: 'ua' }, new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]), { k: 1 });
      expect(hit?.score).toBeCloseTo(1, 4);
    });

    it('after dispose every method fails with a StoreError (disposed)', async () => {
      const store = await harness.open();
      await store.write({ units: [{ id: 'ua-e1', kind: 'episode', scope: { userId: 'ua' }, text: 'before dispose' }] });
      await harness.close(store);
      for (const [method, call] of everyCall(store)) {
        let error: unknown;
        try {
          await call();
        } catch (caught) {
          error = caught;
        }
        expect(StoreError.isInstance(error), `${method} after dispose throws a StoreError, got ${String(error)}`).toBe(true);
        expect((error as StoreError).code, method).toBe('disposed');
        expect((error as StoreError).store, method).toBe(store.name);
      }
    });

    it('concurrent writes, deletes and reads end in the same state as sequential ones', async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      const batches = disjointBatches(universe, options.seed);
      for (const batch of batches) reference.write(batch);
      // Reads racing the writes may see any state, but never another tenant's records.
      const pendingReads: Array<Promise<void>> = [];
      const reads = (index: number): Array<Promise<void>> => {
        const scope = { userId: universe.tenants[index % universe.tenants.length] ?? 'ua' };
        const queries: StoreQuery[] = [
          { method: 'listUnits', scope },
          { method: 'lexicalSearch', scope, query: 'caroline painting', options: { k: 5 } },
          { method: 'relationsOfCues', scope, cueIds: [cueId(scope.userId, 0), cueId('ub', 1)] },
          { method: 'getUnits', scope, ids: universeUnitIds(universe) },
        ];
        return queries.map(async (query) => expectWithinScope(query, await runQuery(store, query), reference, `during concurrent writes: ${describeQuery(query)}`));
      };
      await Promise.all(
        batches.map((batch, index) => {
          pendingReads.push(...reads(index));
          return store.write(batch);
        }),
      );
      await Promise.all(pendingReads);
      await expectStoreMatchesReference(store, reference, universe, { ...harness.answerOptions, depth: 'lean' });
      const victims = [...reference.units.values()].map(({ unit }) => unit).filter((_, index) => index % 3 === 0);
      const deleted = await Promise.all(
        victims.map((unit, index) => {
          pendingReads.push(...reads(index));
          return store.delete({ userId: unit.scope.userId }, unit.id);
        }),
      );
      await Promise.all(pendingReads);
      for (const unit of victims) expect(reference.delete({ userId: unit.scope.userId }, unit.id)).toBe(true);
      expect(deleted.filter((result) => result === true)).toHaveLength(victims.length);
      await expectStoreMatchesReference(store, reference, universe, { ...harness.answerOptions, depth: 'lean' });
    });

    if (options.persistent) {
      it('dispose and reopen: every answer is identical', async () => {
        const directory = await harness.directory();
        const store = await harness.open(directory);
        const reference = await harness.writeWorld(store);
        const [victim] = [...reference.units.keys()];
        if (victim !== undefined) {
          const owner = { userId: reference.unit(victim)?.scope.userId ?? 'ua' };
          expect(await store.delete(owner, victim)).toBe(reference.delete(owner, victim));
        }
        await store.forget({ userId: universe.tenants[2] ?? 'uc', agentId: universe.agents[0] ?? 'a1' });
        reference.forget({ userId: universe.tenants[2] ?? 'uc', agentId: universe.agents[0] ?? 'a1' });
        const before = await collectAnswers(store, universe);
        await harness.close(store);
        const reopened = await harness.open(directory);
        expectEqual(await collectAnswers(reopened, universe), before, 'answers after reopening');
        await expectStoreMatchesReference(reopened, reference, universe, harness.answerOptions);
        const more = disjointBatches(universe, options.seed + 1).slice(0, 3);
        for (const batch of more) {
          reference.write(batch);
          await reopened.write(batch);
        }
        await expectStoreMatchesReference(reopened, reference, universe, { ...harness.answerOptions, depth: 'lean' });
      });
    }
  });
}
