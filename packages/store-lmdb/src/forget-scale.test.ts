import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Key } from 'lmdb';
import type { ScopeFilter, UnitInput, WriteBatchInput } from '@engram/core';
import { ReferenceStore, expectQuery, randomVectors } from '@engram/core/testing';
import { Index, MetricKind } from 'usearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLmdbStore } from './index.js';
import { openDatabases } from './layout.js';

const dims = 8;
const words = ['caroline', 'melanie', 'painting', 'pottery', 'camping', 'lake', 'sunset', 'puppy', 'guitar', 'career', 'school', 'beach'];

/** `count` units of `userId` (ids from `from`), with text, a vector, a date and, every third one, an agent. */
function tenantBatch(userId: string, from: number, count: number, options: { agents?: boolean } = {}): WriteBatchInput {
  const vectors = randomVectors(from + userId.length, count, dims);
  const units: UnitInput[] = vectors.map((vector, index) => {
    const number = from + index;
    const day = `2023-${String((number % 12) + 1).padStart(2, '0')}-${String((number % 28) + 1).padStart(2, '0')}`;
    return {
      id: `${userId}-${String(number).padStart(6, '0')}`,
      kind: number % 2 === 0 ? 'episode' : 'turn',
      ...(number % 2 === 0 ? {} : { speaker: 'Caroline', index: number }),
      scope: { userId, ...(options.agents && number % 3 !== 0 ? { agentId: 'a1' } : {}) },
      text: `${words[number % words.length]} ${words[(number * 7) % words.length]} note ${number}`,
      vector,
      context: { eventTime: { start: day, end: day, granularity: 'day' } },
    } as UnitInput;
  });
  const cueIds = Array.from({ length: 10 }, (_, index) => `${userId}-cue-${from}-${index}`);
  return {
    units,
    cues: cueIds.map((id, index) => ({ id, scope: { userId }, name: `${words[index % words.length]} ${from}` })),
    tags: [{ id: `${userId}-tag-${from}`, scope: { userId }, label: 'mentioned' }],
    relations: units.map((unit, index) => ({ scope: unit.scope, cueId: cueIds[index % cueIds.length] as string, tagId: `${userId}-tag-${from}`, contentId: unit.id })),
  };
}

describe('store-lmdb forget at scale', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'engram-lmdb-forget-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('forget of a 100k-unit tenant leaves nothing of it in LMDB, the vector index or the lexical index', { timeout: 900_000 }, async () => {
    const path = join(directory, 'big');
    // One inserting thread: the graph the self-lookups below go through is the same every run.
    const store = await createLmdbStore({ path, exactScanLimit: 0, hnsw: { addThreads: 1 }, indexMaintenance: { saveMinimumChanges: 1_000_000 }, onWarning: () => undefined });
    const total = 100_000;
    for (let from = 0; from < total; from += 10_000) await store.write(tenantBatch('big', from, 10_000));
    await store.write(tenantBatch('small', 0, 500));
    expect((await store.lexicalSearch({ userId: 'big' }, 'pottery', { k: 5 })).length).toBe(5);
    const started = performance.now();
    await store.forget({ userId: 'big' });
    console.log(`forget of ${total} units took ${Math.round(performance.now() - started)} ms`);
    const big = { userId: 'big' };
    expect(await store.listUnits(big)).toEqual([]);
    expect(await store.listCues(big)).toEqual([]);
    expect(await store.listTags(big)).toEqual([]);
    expect(await store.timeline(big, {})).toEqual([]);
    expect(await store.lexicalSearch(big, words.join(' '), { k: 10 })).toEqual([]);
    expect(await store.vectorSearch(big, new Float32Array(dims).fill(1), { k: 10 })).toEqual([]);
    const root = store.getInstance();
    const { root: _root, ...databases } = openDatabases(root);
    for (const [name, database] of Object.entries(databases)) {
      for (const { key, value } of database.getRange({})) {
        const text = JSON.stringify([key, value], (_field, item: unknown) => (item instanceof Uint8Array ? undefined : item));
        expect(Array.isArray(key) && (key as Key[])[0] === 'big', `${name} still holds ${text.slice(0, 120)}`).toBe(false);
        expect(text.includes('"big"') || text.includes('big-'), `${name} still holds ${text.slice(0, 120)}`).toBe(false);
      }
    }
    expect(databases.meta.get('vectorCount')).toBe(500);
    await store.dispose();
    const sidecar = JSON.parse(readFileSync(join(path, 'vectors.json'), 'utf8')) as { count: number };
    expect(sidecar.count, 'the saved graph holds only the other tenant').toBe(500);
    const warnings: string[] = [];
    const reopened = await createLmdbStore({ path, exactScanLimit: 0, hnsw: { addThreads: 1 }, onWarning: (message) => warnings.push(message) });
    const small = tenantBatch('small', 0, 500).units ?? [];
    for (const unit of small.slice(0, 20)) {
      const [hit] = await reopened.vectorSearch({ userId: 'small' }, unit.vector as Float32Array, { k: 1 });
      expect(hit?.unit.id).toBe(unit.id);
    }
    expect(warnings).toEqual([]);
    await reopened.dispose();
  });

  it('forget of a tenant that is a small share of the graph leaves none of its vectors in the saved graph', { timeout: 300_000 }, async () => {
    const path = join(directory, 'share');
    const store = await createLmdbStore({ path, exactScanLimit: 0, indexMaintenance: { saveMinimumChanges: 1_000_000 }, onWarning: () => undefined });
    await store.write(tenantBatch('keep', 0, 2000));
    await store.write(tenantBatch('gone', 0, 300));
    const units = openDatabases(store.getInstance()).units;
    const rowsOf = (userId: string) => [...units.getRange({})].filter(({ value }) => value.unit.scope.userId === userId).map(({ value }) => value.row);
    const goneRows = rowsOf('gone');
    const keptRows = rowsOf('keep');
    expect(goneRows).toHaveLength(300);
    await store.forget({ userId: 'gone' });
    await store.flush();
    const sidecar = JSON.parse(readFileSync(join(path, 'vectors.json'), 'utf8')) as { file: string; count: number; tombstones: number };
    // 300 of 2300 is below the compaction share (compactFraction 0.2): only forget's own rule removes them.
    expect(sidecar).toMatchObject({ count: 2000, tombstones: 0 });
    const graph = new Index(dims, MetricKind.Cos);
    graph.view(join(path, sidecar.file));
    expect(goneRows.filter((row) => graph.contains(BigInt(row))), 'rows of the forgotten tenant in the graph file').toEqual([]);
    expect(keptRows.every((row) => graph.contains(BigInt(row)))).toBe(true);
    const kept = tenantBatch('keep', 0, 2000).units ?? [];
    for (const unit of kept.slice(0, 20)) expect((await store.vectorSearch({ userId: 'keep' }, unit.vector as Float32Array, { k: 1 }))[0]?.unit.id).toBe(unit.id);
    await store.dispose();
  });

  it('forget of an agent with thousands of units (the posting sweep) answers like the reference', { timeout: 300_000 }, async () => {
    const store = await createLmdbStore({ path: join(directory, 'agents'), onWarning: () => undefined });
    const reference = new ReferenceStore();
    for (const batch of [tenantBatch('mixed', 0, 2000, { agents: true }), tenantBatch('other', 0, 300, { agents: true })]) {
      reference.write(batch);
      await store.write(batch);
    }
    const agent = { userId: 'mixed', agentId: 'a1' };
    await store.forget(agent);
    reference.forget(agent);
    const options = { exactVector: true };
    const scopes: ScopeFilter[] = [{ userId: 'mixed' }, agent, { userId: 'other' }];
    for (const scope of scopes) {
      for (const query of ['pottery lake', 'caroline note', 'guitar school beach']) {
        await expectQuery(store, reference, { method: 'lexicalSearch', scope, query, options: { k: 50 } }, options);
        await expectQuery(store, reference, { method: 'lexicalSearch', scope, query, options: { k: 20, kinds: ['turn'] } }, options);
      }
      await expectQuery(store, reference, { method: 'listUnits', scope, options: { limit: 5000 } }, options);
      await expectQuery(store, reference, { method: 'listCues', scope, options: { limit: 5000 } }, options);
      await expectQuery(store, reference, { method: 'timeline', scope, window: { start: '2023-03-01', end: '2023-04-30' } }, options);
      await expectQuery(store, reference, { method: 'vectorSearch', scope, vector: new Float32Array(dims).fill(0.5), options: { k: 10 } }, options);
    }
    await store.dispose();
  });
});
