import { copyFileSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UnitInput } from '@engram/core';
import { randomVectors } from '@engram/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, startChild } from '../__fixtures__/child-process.js';
import { createLmdbStore } from '../index.js';

const dims = 12;
const scope = { userId: 'ua' };

function units(from: number, count: number): UnitInput[] {
  return randomVectors(from + 1, count, dims).map((vector, index) => ({ id: `ua-${String(from + index).padStart(5, '0')}`, kind: 'episode', scope, text: `unit ${from + index}`, vector }));
}

/** Opens with every vector search going through the graph (built on one thread, so the same graph every run), collecting warnings. */
async function openStore(path: string, warnings: string[] = []) {
  return createLmdbStore({ path, exactScanLimit: 0, hnsw: { expansionSearch: 1024, expansionAdd: 256, addThreads: 1 }, indexMaintenance: { saveMinimumChanges: 1_000_000, idleSaveMs: 0 }, onWarning: (message) => warnings.push(message) });
}

/** Every written unit is found first by its own vector (in the store `open` opens). */
async function expectSelfFound(path: string, written: UnitInput[], warnings: string[], open: typeof openStore = openStore): Promise<void> {
  const store = await open(path, warnings);
  try {
    for (const unit of written.filter((_, index) => index % 7 === 0)) {
      const [hit] = await store.vectorSearch(scope, unit.vector as Float32Array, { k: 1 });
      expect(hit?.unit.id).toBe(unit.id);
    }
  } finally {
    await store.dispose();
  }
}

const sidecar = (path: string) => JSON.parse(readFileSync(join(path, 'vectors.json'), 'utf8')) as { generation: number; file: string; count: number; connectivity: number; quantization: string };

describe('store-lmdb vector index file', () => {
  let path: string;
  let written: UnitInput[];
  beforeEach(async () => {
    path = join(await mkdtemp(join(tmpdir(), 'engram-lmdb-index-')), 'store');
    written = units(0, 300);
    const store = await openStore(path);
    await store.write({ units: written.slice(0, 150) });
    await store.write({ units: written.slice(150) });
    await store.dispose();
  });
  afterEach(async () => {
    await rm(join(path, '..'), { recursive: true, force: true });
  });

  it('is saved on dispose with a sidecar naming its generation, and reopens without warnings', async () => {
    expect(sidecar(path)).toMatchObject({ count: 300, generation: 2 });
    const warnings: string[] = [];
    await expectSelfFound(path, written, warnings);
    expect(warnings).toEqual([]);
    // Writes without vectors move the generation but do not make the index stale.
    const store = await openStore(path, warnings);
    await store.write({ units: [{ id: 'ua-plain', kind: 'episode', scope, text: 'no vector' }] });
    await store.dispose();
    await expectSelfFound(path, written, warnings);
    expect(warnings).toEqual([]);
  });

  it('commits do not wait for the background graph: new vectors are found at once, flush() saves them', async () => {
    const warnings: string[] = [];
    const store = await openStore(path, warnings);
    const more = units(300, 100);
    await store.write({ units: more });
    // The graph may or may not hold them yet: the unindexed ones are searched exactly.
    for (const unit of more.filter((_, index) => index % 7 === 0)) {
      const [hit] = await store.vectorSearch(scope, unit.vector as Float32Array, { k: 1 });
      expect(hit?.unit.id).toBe(unit.id);
    }
    await store.flush();
    expect(sidecar(path)).toMatchObject({ count: 400, generation: 3 });
    for (const unit of more.filter((_, index) => index % 7 === 3)) {
      const [hit] = await store.vectorSearch(scope, unit.vector as Float32Array, { k: 1 });
      expect(hit?.unit.id).toBe(unit.id);
    }
    await store.dispose();
    expect(warnings).toEqual([]);
  });

  it('a missing index file is rebuilt from LMDB with a warning', async () => {
    rmSync(join(path, sidecar(path).file));
    const warnings: string[] = [];
    await expectSelfFound(path, written, warnings);
    expect(warnings.join('\n')).toMatch(/missing; rebuilding it from LMDB \(300 vectors\)/);
    expect(sidecar(path).count).toBe(300);
  });

  it('a stale index file is caught up from the change log with a warning', async () => {
    const old = sidecar(path);
    copyFileSync(join(path, old.file), join(path, 'saved.usearch'));
    copyFileSync(join(path, 'vectors.json'), join(path, 'saved.json'));
    const more = units(300, 100);
    const store = await openStore(path);
    await store.write({ units: more });
    await store.delete(scope, 'ua-00000');
    await store.dispose();
    // Put the older file back, as after a crash before the index was saved.
    for (const name of readdirSync(path)) if (name.startsWith('vectors-')) rmSync(join(path, name));
    copyFileSync(join(path, 'saved.usearch'), join(path, old.file));
    copyFileSync(join(path, 'saved.json'), join(path, 'vectors.json'));
    const warnings: string[] = [];
    await expectSelfFound(path, [...written.slice(1), ...more], warnings);
    expect(warnings.join('\n')).toMatch(/behind the database \(generation 2 of 4\); catching up/);
    expect(sidecar(path), 'the removed vector is a tombstone').toMatchObject({ generation: 4, count: 400, tombstones: 1 });
    const reopened = await openStore(path);
    expect((await reopened.vectorSearch(scope, written[0]?.vector as Float32Array, { k: 5 })).map((hit) => hit.unit.id)).not.toContain('ua-00000');
    await reopened.dispose();
  });

  it('a truncated or garbage index file is rebuilt with a warning', async () => {
    const { file } = sidecar(path);
    truncateSync(join(path, file), 100);
    const warnings: string[] = [];
    await expectSelfFound(path, written, warnings);
    expect(warnings.join('\n')).toMatch(/has 100 bytes, its sidecar says/);
    const again = sidecar(path);
    const size = readFileSync(join(path, again.file)).length;
    writeFileSync(join(path, again.file), Buffer.alloc(size, 7));
    warnings.length = 0;
    await expectSelfFound(path, written, warnings);
    expect(warnings.join('\n')).toMatch(/does not match its checksum \(corrupt\); rebuilding it from LMDB/);
  });

  it('an index newer than the database or with other HNSW options is rebuilt with a warning', async () => {
    const current = sidecar(path);
    writeFileSync(join(path, 'vectors.json'), JSON.stringify({ ...current, generation: 99 }));
    const warnings: string[] = [];
    await expectSelfFound(path, written, warnings);
    expect(warnings.join('\n')).toMatch(/generation 99, newer than the database/);
    warnings.length = 0;
    const store = await createLmdbStore({ path, hnsw: { connectivity: 8 }, onWarning: (message) => warnings.push(message) });
    await store.dispose();
    expect(warnings.join('\n')).toMatch(/other HNSW options/);
  });

  it('a graph saved as f16 (the default before i8) is rebuilt as i8 with a warning when opened with the defaults', async () => {
    const old = join(path, '..', 'f16');
    const before = await createLmdbStore({ path: old, exactScanLimit: 0, hnsw: { quantization: 'f16', addThreads: 1 }, onWarning: () => undefined });
    await before.write({ units: written });
    await before.dispose();
    expect(JSON.parse(readFileSync(join(old, 'vectors.json'), 'utf8')).quantization).toBe('f16');
    const warnings: string[] = [];
    const after = await createLmdbStore({ path: old, exactScanLimit: 0, onWarning: (message) => warnings.push(message) });
    try {
      expect(warnings.join('\n')).toMatch(/other HNSW options/);
      for (const unit of written.filter((_, index) => index % 7 === 0)) {
        const hits = await after.vectorSearch(scope, unit.vector as Float32Array, { k: 3 });
        expect(hits.map((hit) => hit.unit.id)).toContain(unit.id);
      }
    } finally {
      await after.dispose();
    }
    expect(JSON.parse(readFileSync(join(old, 'vectors.json'), 'utf8')).quantization).toBe('i8');
  });

  it('a graph built with the previous defaults (connectivity 16, expansion 64) is searched while it is rebuilt once with the current ones', async () => {
    const old = join(path, '..', 'previous-defaults');
    const before = await createLmdbStore({ path: old, exactScanLimit: 0, hnsw: { connectivity: 16, expansionAdd: 64 }, onWarning: () => undefined });
    await before.write({ units: written });
    await before.dispose();
    expect(sidecar(old)).toMatchObject({ connectivity: 16, quantization: 'i8', count: 300 });
    const warnings: string[] = [];
    const after = await createLmdbStore({ path: old, exactScanLimit: 0, onWarning: (message) => warnings.push(message) });
    const selfFound = async () => {
      for (const unit of written.filter((_, index) => index % 7 === 0)) {
        const hits = await after.vectorSearch(scope, unit.vector as Float32Array, { k: 3 });
        expect(hits.map((hit) => hit.unit.id)).toContain(unit.id);
      }
    };
    try {
      expect(warnings.join('\n')).toMatch(/built with other HNSW options \(connectivity 16, i8; now 24, i8\); rebuilding it from LMDB \(300 vectors\) in the background, searching the old one meanwhile/);
      await selfFound();
      await after.flush();
      expect(sidecar(old)).toMatchObject({ connectivity: 24, quantization: 'i8', count: 300 });
      await selfFound();
    } finally {
      await after.dispose();
    }
    const again: string[] = [];
    const reopened = await createLmdbStore({ path: old, onWarning: (message) => again.push(message) });
    await reopened.dispose();
    expect(again, 'the graph is rebuilt once').toEqual([]);
  });

  it('a reader searches the saved graph as it is when its HNSW options differ (no private rebuild, no warning)', async () => {
    const warnings: string[] = [];
    await expectSelfFound(path, written, warnings, (at, into = []) =>
      createLmdbStore({ path: at, readOnly: true, exactScanLimit: 0, hnsw: { connectivity: 8, quantization: 'f16', expansionSearch: 1024 }, onWarning: (message) => into.push(message) }),
    );
    expect(warnings).toEqual([]);
  });

  it('a writer that ends without dispose() still exits; the next open indexes what it committed', async () => {
    assertBuilt();
    const other = join(path, '..', 'no-dispose');
    const run = startChild('no-dispose-child.mjs', [other, 200]);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.messages.map((message) => message.type)).toEqual(['committed']);
    const warnings: string[] = [];
    const store = await createLmdbStore({ path: other, exactScanLimit: 0, onWarning: (message) => warnings.push(message) });
    const vector = Float32Array.from({ length: 8 }, (_, dimension) => Math.sin(5 * 7 + dimension * 3));
    expect((await store.vectorSearch({ userId: 'nd' }, vector, { k: 1 }))[0]?.unit.id).toBe('nd-5');
    await store.dispose();
    expect(JSON.parse(readFileSync(join(other, 'vectors.json'), 'utf8'))).toMatchObject({ count: 200 });
  });
});
