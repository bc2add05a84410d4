import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/engram-error.js';
import type { WriteBatchInput } from '../model/batch.js';
import type { UnitInput } from '../model/units.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { standardWorld, type ConformanceHarness } from './conformance-harness.js';
import { batchArbitrary, type Universe } from './generators.js';
import { injectFault, resolveBatch, writeBoth, type BatchFault } from './operations.js';
import { createRandom } from './random.js';
import { ReferenceStore } from './reference-store.js';
import { collectAnswers, expectEqual, expectQuery, expectStoreMatchesReference, type CoverageDepth, type StoreQuery } from './store-queries.js';

const one = (dims: number, axis: number) => Array.from({ length: dims }, (_, index) => (index === axis ? 1 : 0));

/** A small hand-made graph: two tenants, a topic, a cue and a tag only one unit uses, a cue with no relation. */
export function deletionFixture(dims: number): WriteBatchInput {
  const day = (date: string) => ({ start: date, end: date, granularity: 'day' as const });
  const session = { id: 'session-1', start: '2023-05-03T10:00:00Z', end: '2023-05-03T11:00:00Z' };
  const unit = (id: string, userId: string, text: string, axis: number, date: string): UnitInput => ({
    id,
    kind: 'episode',
    scope: { userId },
    text,
    vector: one(dims, axis),
    context: { eventTime: day(date), session },
  });
  return {
    units: [
      unit('ua-e1', 'ua', 'a zebra crossing at sunset', 0, '2023-05-01'),
      unit('ua-e2', 'ua', 'Caroline went camping', 1, '2023-05-02'),
      { id: 'ua-p1', kind: 'topic', scope: { userId: 'ua' }, text: 'outdoor trips', label: 'travel', episodeIds: ['ua-e1', 'ua-e2'] },
      unit('ub-e1', 'ub', 'a zebra crossing at sunset', 0, '2023-05-01'),
    ],
    cues: [
      { id: 'ua-c1', scope: { userId: 'ua' }, name: 'zebra' },
      { id: 'ua-c2', scope: { userId: 'ua' }, name: 'caroline', aliases: ['caro'] },
      { id: 'ua-c3', scope: { userId: 'ua' }, name: 'lonely' },
      { id: 'ub-c1', scope: { userId: 'ub' }, name: 'zebra' },
    ],
    tags: [
      { id: 'ua-g1', scope: { userId: 'ua' }, label: 'seen animal' },
      { id: 'ua-g2', scope: { userId: 'ua' }, label: 'trip' },
      { id: 'ub-g1', scope: { userId: 'ub' }, label: 'seen animal' },
    ],
    relations: [
      { scope: { userId: 'ua' }, cueId: 'ua-c1', tagId: 'ua-g1', contentId: 'ua-e1' },
      { scope: { userId: 'ua' }, cueId: 'ua-c2', tagId: 'ua-g2', contentId: 'ua-e1' },
      { scope: { userId: 'ua' }, cueId: 'ua-c2', tagId: 'ua-g2', contentId: 'ua-e2' },
      { scope: { userId: 'ub' }, cueId: 'ub-c1', tagId: 'ub-g1', contentId: 'ub-e1' },
    ],
  };
}

const ids = (records: ReadonlyArray<{ id: string } | { unit: { id: string } } | undefined>) =>
  records.map((record) => (record === undefined ? undefined : 'unit' in record ? record.unit.id : record.id));

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Delete, forget, idempotent writes and atomic rejection of bad batches. */
export function describeMutation(harness: ConformanceHarness): void {
  const { options, universe } = harness;
  const check = (store: MemoryStore, reference: ReferenceStore, depth: CoverageDepth = 'full') => expectStoreMatchesReference(store, reference, universe, { ...harness.answerOptions, depth });

  describe(`store conformance: ${options.name} — delete, forget, idempotence, atomicity`, () => {
    it('delete removes the unit, its relations, its index entries and the cues and tags it orphans', async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      await writeBoth(store, reference, deletionFixture(universe.dims));
      const ua = { userId: 'ua' };
      expect(await store.delete({ userId: 'ub' }, 'ua-e1'), 'another tenant cannot delete it').toBe(false);
      expect(await store.delete({ userId: 'ua', agentId: 'a1' }, 'ua-e1'), 'a scope that does not contain it cannot delete it').toBe(false);
      expect(await store.delete(ua, 'ua-e1')).toBe(reference.delete(ua, 'ua-e1'));
      expect(await store.getUnits(ua, ['ua-e1', 'ua-e2'])).toEqual([undefined, reference.unit('ua-e2')]);
      expect(await store.relationsOfContents(ua, ['ua-e1'])).toEqual([]);
      expect(await store.relationsOfCues(ua, ['ua-c1', 'ua-c2'])).toEqual([{ scope: ua, cueId: 'ua-c2', tagId: 'ua-g2', contentId: 'ua-e2' }]);
      expect(ids(await store.getCues(ua, ['ua-c1', 'ua-c2', 'ua-c3'])), 'the orphaned cue goes; a cue that never had a relation stays').toEqual([undefined, 'ua-c2', 'ua-c3']);
      expect(ids(await store.getTags(ua, ['ua-g1', 'ua-g2']))).toEqual([undefined, 'ua-g2']);
      expect(await store.findCues(ua, ['Zebra'])).toEqual([]);
      expect(ids(await store.listCues(ua))).toEqual(['ua-c2', 'ua-c3']);
      expect(ids(await store.vectorSearch(ua, Float32Array.from(one(universe.dims, 0)), { k: 10 }))).toEqual(['ua-e2']);
      expect(await store.lexicalSearch(ua, 'zebra', { k: 10 })).toEqual([]);
      expect(ids(await store.lexicalSearch({ userId: 'ub' }, 'zebra', { k: 10 })), 'the other tenant keeps its twin').toEqual(['ub-e1']);
      expect(await store.timeline(ua, { start: '2023-05-01', end: '2023-05-01', field: 'event' })).toEqual([]);
      expect(await store.episodesOfTopics(ua, ['ua-p1'])).toEqual([{ topicId: 'ua-p1', episodeId: 'ua-e2' }]);
      expect(await store.delete(ua, 'ua-e1'), 'a second delete finds nothing').toBe(false);
      expect(await store.delete(ua, 'ua-p1')).toBe(reference.delete(ua, 'ua-p1'));
      expect(await store.episodesOfTopics(ua, ['ua-p1'])).toEqual([]);
      await check(store, reference);
    });

    it('deleting generated units one by one keeps every answer equal to the reference', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const random = createRandom(options.seed);
      const victims = [...reference.units.values()].map(({ unit }) => unit).filter(() => random() < 0.2).slice(0, 10);
      expect(victims.length, 'there is something to delete').toBeGreaterThan(5);
      for (const unit of victims) {
        const scope = random() < 0.5 ? { userId: unit.scope.userId } : unit.scope;
        expect(await store.delete(scope, unit.id), `delete ${unit.id}`).toBe(reference.delete(scope, unit.id));
        await check(store, reference, 'state');
      }
      await check(store, reference);
    });

    it('forget(scope) leaves nothing of the scope in any query and other tenants intact', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const approximate = { skipVector: !harness.options.exactVector };
      const othersBefore = await collectAnswers(store, { ...universe, tenants: universe.tenants.slice(1) }, 'full', approximate);
      const [tenant = 'ua'] = universe.tenants;
      const agentScope = { userId: tenant, agentId: universe.agents[0] ?? 'a1' };
      expect(reference.listUnits(agentScope).length, 'the agent has units').toBeGreaterThan(0);
      await store.forget(agentScope);
      reference.forget(agentScope);
      expect(await store.listUnits(agentScope)).toEqual([]);
      await check(store, reference);
      const forgottenId = reference.listUnits({ userId: tenant })[0]?.id ?? 'never-written';
      await store.forget({ userId: tenant });
      reference.forget({ userId: tenant });
      const scope = { userId: tenant };
      const empty: StoreQuery[] = [
        { method: 'listUnits', scope, options: { limit: 1000 } },
        { method: 'listCues', scope, options: { limit: 1000 } },
        { method: 'listTags', scope, options: { limit: 1000 } },
        { method: 'timeline', scope, window: {} },
        { method: 'lexicalSearch', scope, query: 'caroline painting pottery zebra dog', options: { k: 100 } },
        { method: 'vectorSearch', scope, vector: Float32Array.from(one(universe.dims, 0)), options: { k: 100 } },
      ];
      expect(reference.listUnits(scope).length + reference.listCues(scope).length + reference.listTags(scope).length, 'the reference holds nothing of the tenant').toBe(0);
      for (const query of empty) await expectQuery(store, reference, query, harness.answerOptions);
      await check(store, reference);
      expectEqual(await collectAnswers(store, { ...universe, tenants: universe.tenants.slice(1) }, 'full', approximate), othersBefore, 'other tenants are untouched');
      // Forgotten ids are free again: another tenant may now take them.
      const reused: UnitInput = { id: forgottenId, kind: 'episode', scope: { userId: universe.tenants[1] ?? 'ub' }, text: 'an id the forgotten tenant used' };
      await writeBoth(store, reference, { units: [reused] });
      await writeBoth(store, reference, resolveBatch(standardWorld(options.seed)[0] ?? {}, reference));
      await check(store, reference, 'lean');
    });

    it('writing the same batch twice changes nothing', async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      for (const batch of standardWorld(options.seed).slice(0, 3)) {
        const resolved = resolveBatch(batch, reference);
        await writeBoth(store, reference, resolved);
        const once = await collectAnswers(store, universe, 'lean');
        await store.write(resolved);
        expectEqual(await collectAnswers(store, universe, 'lean'), once, 'answers after writing the batch again');
      }
      await check(store, reference);
    });

    it('a bad batch throws InvalidInputError naming the path and writes nothing', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const before = await collectAnswers(store, universe);
      const fresh = (id: string, userId = 'ua'): UnitInput => ({ id, kind: 'episode', scope: { userId }, text: 'fresh atomic unit' });
      const cases: Array<[string, WriteBatchInput]> = [
        ['batch.units[2].text', { units: [fresh('ua-atomic-1'), fresh('ua-atomic-2'), { ...fresh('ua-atomic-3'), text: '' }] }],
        ['batch.units[1].vector', { units: [fresh('ua-atomic-1'), { ...fresh('ua-atomic-2'), vector: new Float32Array([1, Number.NaN, 0]) }] }],
        ['batch.units[0].context.eventTime.start', { units: [{ ...fresh('ua-atomic-1'), context: { eventTime: { start: '2023-02-30x', end: '2023-03-01', granularity: 'day' } } }] }],
        [
          'batch.relations[1].contentId',
          {
            units: [fresh('ua-atomic-1')],
            cues: [{ id: 'ua-atomic-cue', scope: { userId: 'ua' }, name: 'atomic' }],
            tags: [{ id: 'ua-atomic-tag', scope: { userId: 'ua' }, label: 'atomic' }],
            relations: [
              { scope: { userId: 'ua' }, cueId: 'ua-atomic-cue', tagId: 'ua-atomic-tag', contentId: 'ua-atomic-1' },
              { scope: { userId: 'ua' }, cueId: 'ua-atomic-cue', tagId: 'ua-atomic-tag', contentId: 'ua-no-such-unit' },
            ],
          },
        ],
        [
          'batch.relations[0].cueId',
          {
            units: [fresh('ua-atomic-1')],
            cues: [{ id: 'ub-atomic-cue', scope: { userId: 'ub' }, name: 'atomic' }],
            tags: [{ id: 'ua-atomic-tag', scope: { userId: 'ua' }, label: 'atomic' }],
            relations: [{ scope: { userId: 'ua' }, cueId: 'ub-atomic-cue', tagId: 'ua-atomic-tag', contentId: 'ua-atomic-1' }],
          },
        ],
      ];
      const foreign = [...reference.units.values()].find(({ unit }) => unit.scope.userId !== 'ua')?.unit;
      if (foreign !== undefined) cases.push(['batch.units[1].id', { units: [fresh('ua-atomic-1'), fresh(foreign.id)] }]);
      for (const [path, batch] of cases) {
        const error = await rejection(() => store.write(batch));
        expect(InvalidInputError.isInstance(error), `${path}: rejected with an InvalidInputError, got ${String(error)}`).toBe(true);
        expect((error as InvalidInputError).path).toBe(path);
        expect((error as InvalidInputError).message).toContain(path);
        expect(await store.getUnits({ userId: 'ua' }, ['ua-atomic-1', 'ua-atomic-2']), `${path}: nothing of the batch was written`).toEqual([undefined, undefined]);
      }
      const faults: BatchFault[] = ['dangling-content', 'cross-tenant-cue', 'empty-text', 'foreign-id', 'bad-date'];
      const batches = fc.sample(batchArbitrary(universe as Universe), { seed: options.seed, numRuns: 10 });
      for (const [index, batch] of batches.entries()) {
        await writeBoth(store, reference, injectFault(batch, faults[index % faults.length] ?? 'empty-text', index, reference, universe));
      }
      expectEqual(await collectAnswers(store, universe), before, 'no bad batch changed any answer');
      await check(store, reference);
    });
  });
}
