import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScopeFilter } from '../model/scope.js';
import { unitKinds, type UnitInput } from '../model/units.js';
import type { ListOptions, MemoryStore } from '../ports/memory-store.js';
import type { ConformanceHarness } from './conformance-harness.js';
import { cueId, tagId, universeCueIds, universeTagIds, universeUnitIds, windowArbitrary, type Universe } from './generators.js';
import { ReferenceStore } from './reference-store.js';
import { expectEqual, expectQuery, type StoreQuery } from './store-queries.js';

/** The scopes the graph tests query: each tenant, and each tenant narrowed to an agent and to a session. */
export function querySlices(universe: Universe): ScopeFilter[] {
  return universe.tenants.flatMap((userId) => [
    { userId },
    ...universe.agents.map((agentId) => ({ userId, agentId })),
    { userId, sessionId: universe.sessions[0] ?? 'session' },
  ]);
}

async function expectQueries(store: MemoryStore, reference: ReferenceStore, harness: ConformanceHarness, queries: StoreQuery[]) {
  for (const query of queries) await expectQuery(store, reference, query, harness.answerOptions);
}

/** Lookups, the mapping operators, the timeline and the lists, against the reference. */
export function describeGraph(harness: ConformanceHarness): void {
  const { universe } = harness;
  const slices = querySlices(universe);

  describe(`store conformance: ${harness.options.name} — lookups and graph operators`, () => {
    it('getUnits / getCues / getTags answer in order, undefined where missing or out of scope', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      expect(reference.units.size, 'the data set has units').toBeGreaterThan(60);
      const unitIds = universeUnitIds(universe);
      const reversed = [...unitIds].reverse();
      for (const scope of slices) {
        await expectQueries(store, reference, harness, [
          { method: 'getUnits', scope, ids: unitIds },
          { method: 'getUnits', scope, ids: [...reversed.slice(0, 5), ...reversed.slice(0, 5)] },
          { method: 'getUnits', scope, ids: [] },
          { method: 'getCues', scope, ids: universeCueIds(universe) },
          { method: 'getTags', scope, ids: [...universeTagIds(universe)].reverse() },
        ]);
      }
    });

    it('findCues matches normalised names and aliases, within the scope only', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const names = fc.sample(fc.array(fc.constantFrom('CAROLINE', '  video   GAME', 'Café', 'ｃａｆｅ', 'Mel', 'NYC', 'the  big apple', 'Paris', 'nobody'), { minLength: 1, maxLength: 3 }), { seed: 11, numRuns: 12 });
      let found = 0;
      for (const scope of slices) {
        for (const list of names) {
          const query: StoreQuery = { method: 'findCues', scope, names: list };
          found += reference.findCues(scope, list).length;
          await expectQuery(store, reference, query, harness.answerOptions);
        }
        await expectQuery(store, reference, { method: 'findCues', scope, names: [] }, harness.answerOptions);
      }
      expect(found, 'some names are found').toBeGreaterThan(0);
    });

    it('φ c→g, φ (c,g)→v, φ v→(c,g) and φ τ→e equal the brute-force reference', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      expect(reference.relations.size, 'the data set has relations').toBeGreaterThan(40);
      const topicPairs = reference.episodesOfTopics({ userId: universe.tenants[0] ?? 'ua' }, universeUnitIds(universe, ['topic']));
      expect(topicPairs.length, 'some topics group existing episodes').toBeGreaterThan(0);
      const cueIds = universeCueIds(universe);
      const unitIds = universeUnitIds(universe);
      const topicIds = universeUnitIds(universe, ['topic']);
      for (const scope of slices) {
        const tenant = scope.userId;
        const queries: StoreQuery[] = [
          { method: 'relationsOfCues', scope, cueIds },
          { method: 'relationsOfCues', scope, cueIds: [cueId(tenant, 1), cueId(tenant, 1), cueId(tenant, 0)] },
          ...cueIds.map((id): StoreQuery => ({ method: 'relationsOfCues', scope, cueIds: [id] })),
          { method: 'relationsOfContents', scope, contentIds: unitIds },
          ...unitIds.map((id): StoreQuery => ({ method: 'relationsOfContents', scope, contentIds: [id, id] })),
          { method: 'episodesOfTopics', scope, topicIds: [...topicIds, ...topicIds] },
          ...topicIds.map((id): StoreQuery => ({ method: 'episodesOfTopics', scope, topicIds: [id] })),
          ...reference.relationsOfCues(scope, cueIds).map((relation): StoreQuery => ({ method: 'relationsOfPairs', scope, pairs: [{ cueId: relation.cueId, tagId: relation.tagId }] })),
          {
            method: 'relationsOfPairs',
            scope,
            pairs: universe.tenants.flatMap((owner) => Array.from({ length: universe.poolSize }, (_, index) => ({ cueId: cueId(owner, index), tagId: tagId(owner, (index * 5) % universe.poolSize) }))),
          },
          { method: 'relationsOfPairs', scope, pairs: [] },
        ];
        await expectQueries(store, reference, harness, queries);
      }
    });

    it('timeline orders units by the start of the chosen coordinate, then id, with kinds and limits', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const windows = fc.sample(windowArbitrary, { seed: 3, numRuns: 25 });
      let returned = 0;
      for (const scope of slices.filter((slice) => slice.agentId === undefined)) {
        for (const [index, window] of windows.entries()) {
          const kinds = index % 3 === 0 ? undefined : [unitKinds[index % 4] ?? 'episode', 'fact' as const];
          const limit = index % 4 === 0 ? 1 + (index % 7) : undefined;
          const options = { ...(kinds ? { kinds } : {}), ...(limit ? { limit } : {}) };
          returned += reference.timeline(scope, window, options).length;
          await expectQuery(store, reference, { method: 'timeline', scope, window, ...(index % 5 === 0 ? {} : { options }) }, harness.answerOptions);
        }
      }
      expect(returned, 'windows hit units').toBeGreaterThan(50);
    });

    it('listUnits / listCues / listTags page through the scope in id order', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const filters: ListOptions[] = [{}, { kinds: ['episode', 'topic'] }, { time: { start: '2023-03-01', end: '2023-09-30', field: 'event' } }];
      for (const scope of slices) {
        for (const pageSize of [1, 4, 13]) {
          for (const filter of filters) {
            const all = reference.listUnits(scope, { ...filter, limit: 1_000_000 });
            const seen = await pageThrough((after) => store.listUnits(scope, { ...filter, limit: pageSize, ...(after ? { after } : {}) }), pageSize);
            expectEqual(seen, all, `listUnits ${JSON.stringify({ scope, filter, pageSize })}`);
          }
          const cues = await pageThrough((after) => store.listCues(scope, { limit: pageSize, ...(after ? { after } : {}) }), pageSize);
          expectEqual(cues, reference.listCues(scope, { limit: 1_000_000 }), `listCues ${JSON.stringify(scope)} by ${pageSize}`);
          const tags = await pageThrough((after) => store.listTags(scope, { limit: pageSize, ...(after ? { after } : {}) }), pageSize);
          expectEqual(tags, reference.listTags(scope, { limit: 1_000_000 }), `listTags ${JSON.stringify(scope)} by ${pageSize}`);
        }
        await expectQueries(store, reference, harness, [
          { method: 'listUnits', scope, options: { after: `${scope.userId}-f`, limit: 5 } },
          { method: 'listCues', scope, options: { after: 'zzz' } },
          { method: 'listTags', scope },
        ]);
      }
    });

    it('lists default to 100 records per page', async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      const units: UnitInput[] = Array.from({ length: 130 }, (_, index) => ({
        id: `bulk-${String(index).padStart(3, '0')}`,
        kind: 'turn',
        scope: { userId: 'ua' },
        text: `turn number ${index}`,
        speaker: 'Caroline',
        index,
      }));
      reference.write({ units });
      await store.write({ units });
      const page = await store.listUnits({ userId: 'ua' });
      expect(page).toHaveLength(100);
      expect(page).toEqual(reference.listUnits({ userId: 'ua' }));
      expect(await store.listUnits({ userId: 'ub' })).toEqual([]);
    });
  });
}

/** Collects every page of a paginated list, checking that no page is longer than asked. */
async function pageThrough<T extends { id: string }>(list: (after: string | undefined) => Promise<T[]>, pageSize: number): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await list(after);
    expect(page.length, 'page size').toBeLessThanOrEqual(pageSize);
    out.push(...page);
    if (page.length < pageSize) return out;
    after = page[page.length - 1]?.id;
  }
  throw new Error('pagination does not end');
}
