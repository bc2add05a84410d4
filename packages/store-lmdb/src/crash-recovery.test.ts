import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandom } from '@engram/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startChild } from './__fixtures__/child-process.js';
import { batchIds, ingestBatch, tenant, unitVector } from './__fixtures__/ingest-batches.mjs';
import { createLmdbStore } from './index.js';

const batches = 30;
const unitsPerBatch = 12;
const scope = { userId: tenant };
const allIds = Array.from({ length: batches }, (_, index) => batchIds(index, unitsPerBatch));

/** Opens the store and checks that every batch is whole or absent; returns how many leading batches are present. */
async function checkBatches(path: string, mustHave: number): Promise<{ present: boolean[]; warnings: string[] }> {
  const warnings: string[] = [];
  const store = await createLmdbStore({ path, onWarning: (message) => warnings.push(message) });
  try {
    const units = await store.getUnits(scope, allIds.flatMap((ids) => ids.units));
    const present: boolean[] = [];
    for (let index = 0; index < batches; index++) {
      const ids = allIds[index] as (typeof allIds)[number];
      const count = units.slice(index * unitsPerBatch, (index + 1) * unitsPerBatch).filter((unit) => unit !== undefined).length;
      expect([0, unitsPerBatch], `batch ${index}: units present`).toContain(count);
      const whole = count === unitsPerBatch;
      present.push(whole);
      const [cue] = await store.getCues(scope, [ids.cue]);
      expect(cue !== undefined, `batch ${index}: cue present with its units`).toBe(whole);
      expect((await store.relationsOfCues(scope, [ids.cue])).length, `batch ${index}: relations`).toBe(whole ? unitsPerBatch : 0);
      expect((await store.lexicalSearch(scope, `marker${index}`, { k: 100 })).length, `batch ${index}: lexical postings`).toBe(whole ? unitsPerBatch : 0);
      if (whole) {
        const [hit] = await store.vectorSearch(scope, unitVector(index, 3), { k: 1 });
        expect(hit?.unit.id, `batch ${index}: vector`).toBe(ids.units[3]);
      }
    }
    for (let index = 0; index < mustHave; index++) expect(present[index], `acknowledged batch ${index} survived`).toBe(true);
    return { present, warnings };
  } finally {
    await store.dispose();
  }
}

describe('store-lmdb crash recovery', () => {
  let directory: string;
  beforeAll(async () => {
    assertBuilt();
    directory = await mkdtemp(join(tmpdir(), 'engram-lmdb-crash-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('SIGKILL at 20+ seeded moments: every reopen works, batches are whole, re-running adds no duplicates', { timeout: 900_000 }, async () => {
    const path = join(directory, 'store');
    const random = createRandom(20240611);
    let acknowledged = 0;
    let next = 0;
    let kills = 0;
    for (let round = 0; kills < 22 && round < 60; round++) {
      const from = random() < 0.7 ? next : Math.floor(random() * (next + 1));
      // Kill on the n-th progress message: `writing` lands the kill inside a transaction or an index save.
      const killOn = 1 + Math.floor(random() * Math.min(8, 2 * (batches - from)));
      let seen = 0;
      const run = startChild('ingest-child.mjs', [path, from, batches, unitsPerBatch], (message, child) => {
        if (message.type === 'committed') acknowledged = Math.max(acknowledged, (message.batch ?? -1) + 1);
        if (message.type !== 'writing' && message.type !== 'committed') return;
        seen += 1;
        if (seen === killOn) child.kill('SIGKILL');
      });
      const { signal } = await run.exited;
      if (signal === 'SIGKILL') kills += 1;
      const { present } = await checkBatches(path, acknowledged);
      next = present.indexOf(false) === -1 ? batches : present.indexOf(false);
      if (next === batches && kills < 22) next = 0;
    }
    expect(kills).toBeGreaterThanOrEqual(20);
    // Re-run the whole ingest to the end: nothing may be duplicated.
    const final = startChild('ingest-child.mjs', [path, 0, batches, unitsPerBatch]);
    expect((await final.exited).code).toBe(0);
    const { present } = await checkBatches(path, batches);
    expect(present.every(Boolean)).toBe(true);
    const store = await createLmdbStore({ path, exactScanLimit: 0, onWarning: () => undefined });
    try {
      const total = batches * unitsPerBatch;
      const listed: string[] = [];
      for (let page = await store.listUnits(scope, { limit: 100 }); page.length > 0; page = await store.listUnits(scope, { limit: 100, after: listed[listed.length - 1] as string })) {
        listed.push(...page.map((unit) => unit.id));
      }
      expect(listed).toHaveLength(total);
      const hits = await store.lexicalSearch(scope, 'memory sunset', { k: 10 * total });
      expect(new Set(hits.map((hit) => hit.unit.id)).size).toBe(total);
      expect(hits).toHaveLength(total);
      const meta = store.getInstance().openDB('meta', {});
      expect(meta.get('vectorCount')).toBe(total);
      const stats = store.getInstance().openDB('lexical-stats', {});
      expect([...stats.getRange()].map(({ value }) => (value as { documents: number }).documents)).toEqual([total]);
      for (const index of [0, 7, batches - 1]) {
        const [hit] = await store.vectorSearch(scope, unitVector(index, 5), { k: 1 });
        expect(hit?.unit.id).toBe(allIds[index]?.units[5]);
        expect(hit?.score).toBeCloseTo(1, 5);
      }
      // Writing a batch again through the store itself changes nothing either.
      const generation = meta.get('generation');
      await store.write(ingestBatch(3, unitsPerBatch));
      expect(meta.get('generation')).toBe(generation);
    } finally {
      await store.dispose();
    }
  });
});
