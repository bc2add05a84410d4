import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScopeFilter } from '../model/scope.js';
import { unitKinds, type UnitInput, type UnitKind } from '../model/units.js';
import type { UnitFilter } from '../ports/memory-store.js';
import type { ConformanceHarness } from './conformance-harness.js';
import { expectHits } from './compare-hits.js';
import { dayDate, lexicalQueryArbitrary, vocabulary } from './generators.js';
import { createRandom, randomVectors } from './random.js';
import { ReferenceStore } from './reference-store.js';
import { expectQuery, probeVectors } from './store-queries.js';
import { querySlices } from './conformance-graph.js';

/**
 * `count` units of `tenant` with clustered float vectors, cycling through the kinds, with event and
 * session times spread over 2023 (seeded).
 */
export function vectorUnits(tenant: string, count: number, dims: number, seed: number): UnitInput[] {
  const random = createRandom(seed);
  const vectors = randomVectors(seed, count, dims);
  return vectors.map((vector, index) => {
    const kind = unitKinds[index % unitKinds.length] as UnitKind;
    const day = Math.floor(random() * 365);
    const base = {
      id: `${tenant}-v${String(index).padStart(5, '0')}`,
      scope: { userId: tenant, ...(index % 5 === 0 ? { agentId: 'a1' } : {}) },
      text: Array.from({ length: 3 + (index % 5) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
      vector,
      context: {
        eventTime: { start: dayDate(day), end: dayDate(day + (index % 3)), granularity: 'range' as const },
        session: { id: `session-${index % 9}`, start: `${dayDate((day + 40) % 365)}T10:00:00Z`, end: `${dayDate((day + 40) % 365)}T11:00:00Z` },
      },
    };
    switch (kind) {
      case 'turn':
        return { ...base, kind, speaker: 'Caroline', index };
      case 'episode':
        return { ...base, kind };
      case 'fact':
        return { ...base, kind, entity: 'caroline', aspect: 'hobby', value: 'pottery' };
      case 'topic':
        return { ...base, kind, label: 'hobby' };
    }
  });
}

const vectorFilters: Array<UnitFilter & { name: string }> = [
  { name: 'no filter' },
  { name: 'kind episode', kinds: ['episode'] },
  { name: 'kinds fact+topic, event window', kinds: ['fact', 'topic'], time: { start: '2023-03-01', end: '2023-08-31', field: 'event' } },
  { name: 'session window', time: { start: '2023-06-01', field: 'session' } },
];

/** Vector and lexical top-k against exact cosine and exact BM25. */
export function describeSearch(harness: ConformanceHarness): void {
  const { options, universe } = harness;

  describe(`store conformance: ${options.name} — vector and lexical search`, () => {
    it(options.exactVector ? 'vector top-k equals exact cosine (kind and time filters, ties by id)' : `vector recall@10 is at least ${options.vectorRecallAt10} (kind and time filters)`, async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      const dims = 24;
      // Approximate stores get a data set large enough for recall to mean something.
      const size = options.exactVector ? 500 : 1500;
      const batches = [vectorUnits('ua', size, dims, 1), vectorUnits('ub', size / 4, dims, 2)];
      for (const units of batches) {
        for (let start = 0; start < units.length; start += 300) {
          const batch = { units: units.slice(start, start + 300) };
          reference.write(batch);
          await store.write(batch);
        }
      }
      const queries = randomVectors(99, options.exactVector ? 20 : 40, dims);
      const scopes: ScopeFilter[] = [{ userId: 'ua' }, { userId: 'ua', agentId: 'a1' }, { userId: 'ub' }];
      for (const filter of vectorFilters) {
        const { name, ...unitFilter } = filter;
        for (const scope of scopes) {
          let recall = 0;
          for (const [index, vector] of queries.entries()) {
            const k = options.exactVector ? [1, 10, 37][index % 3] ?? 10 : 10;
            const hits = await store.vectorSearch(scope, vector, { ...unitFilter, k });
            recall += expectHits(hits, {
              label: `vectorSearch ${name} ${JSON.stringify(scope)} query ${index} k=${k}`,
              k,
              eligible: reference.vectorScores(scope, vector, unitFilter),
              unitOf: (id) => reference.unit(id),
              exact: options.exactVector,
              tolerance: 1e-4,
            });
          }
          if (!options.exactVector) expect(recall / queries.length, `mean recall@10, ${name}, ${JSON.stringify(scope)}`).toBeGreaterThanOrEqual(options.vectorRecallAt10 - 1e-9);
        }
      }
      if (options.exactVector) {
        // Five units share one vector: equal scores are ordered by id, also at the cut-off.
        const twin = Float32Array.from({ length: dims }, (_, index) => (index % 3) - 1);
        const twins = ['ua-twin-4', 'ua-twin-2', 'ua-twin-0', 'ua-twin-3', 'ua-twin-1'].map((id): UnitInput => ({ id, kind: 'episode', scope: { userId: 'ua' }, text: 'twin', vector: twin }));
        await store.write({ units: twins });
        const hits = await store.vectorSearch({ userId: 'ua' }, twin, { k: 3 });
        expect(hits.map((hit) => hit.unit.id)).toEqual(['ua-twin-0', 'ua-twin-1', 'ua-twin-2']);
      }
      expect(await store.vectorSearch({ userId: 'uc' }, queries[0] as Float32Array, { k: 10 }), 'a tenant without vectors gets nothing').toEqual([]);
    });

    it('vector search on the standard data set (integer vectors, zero vectors, mixed scopes)', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      for (const scope of querySlices(universe)) {
        for (const vector of [...probeVectors(universe, 4, 5), new Float32Array(universe.dims)]) {
          for (const filter of vectorFilters) {
            const { name: _name, ...unitFilter } = filter;
            await expectQuery(store, reference, { method: 'vectorSearch', scope, vector, options: { ...unitFilter, k: 7 } }, harness.answerOptions);
          }
        }
      }
    });

    it('lexical top-k equals exact BM25 with statistics per tenant and unit kind', async () => {
      const store = await harness.open();
      const reference = await harness.writeWorld(store);
      const queries = [...fc.sample(lexicalQueryArbitrary, { seed: 17, numRuns: 30 }), 'the and of', '', 'PAINTING!!! paints', 'naive cafe'];
      let hits = 0;
      for (const scope of querySlices(universe)) {
        for (const [index, query] of queries.entries()) {
          const filter = vectorFilters[index % vectorFilters.length] ?? { name: 'none' };
          const { name: _name, ...unitFilter } = filter;
          const k = [3, 10, 1000][index % 3] ?? 10;
          hits += Math.min(k, reference.lexicalScores(scope, query, unitFilter).size);
          await expectQuery(store, reference, { method: 'lexicalSearch', scope, query, options: { ...unitFilter, k } }, harness.answerOptions);
        }
      }
      expect(hits, 'queries find units').toBeGreaterThan(200);
    });

    it("another tenant's or another kind's writes do not change a tenant's lexical scores", async () => {
      const store = await harness.open();
      const reference = new ReferenceStore();
      const mine = vectorUnits('ua', 40, 4, 5).map(({ id, scope, text }): UnitInput => ({ id, scope, text, kind: 'episode' }));
      reference.write({ units: mine });
      await store.write({ units: mine });
      const query = 'painting pottery caroline';
      const before = await store.lexicalSearch({ userId: 'ua' }, query, { k: 10 });
      expect(before.length, 'the query finds units').toBeGreaterThan(0);
      const noise: UnitInput[] = Array.from({ length: 60 }, (_, index) => ({ id: `ub-noise-${index}`, kind: 'episode', scope: { userId: 'ub' }, text: 'painting painting pottery' }));
      const facts: UnitInput[] = Array.from({ length: 60 }, (_, index) => ({
        id: `ua-noise-${index}`,
        kind: 'fact',
        scope: { userId: 'ua' },
        text: 'pottery painting caroline pottery',
        entity: 'caroline',
        aspect: 'hobby',
        value: 'pottery',
      }));
      for (const batch of [{ units: noise }, { units: facts }]) {
        reference.write(batch);
        await store.write(batch);
      }
      const after = await store.lexicalSearch({ userId: 'ua' }, query, { k: 10, kinds: ['episode'] });
      expect(after.map((hit) => hit.unit.id)).toEqual(before.map((hit) => hit.unit.id));
      after.forEach((hit, index) => expect(hit.score).toBeCloseTo(before[index]?.score ?? Number.NaN, 9));
      await expectQuery(store, reference, { method: 'lexicalSearch', scope: { userId: 'ua' }, query, options: { k: 100 } }, harness.answerOptions);
    });
  });
}
