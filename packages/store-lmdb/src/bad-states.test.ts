import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '@engram/core';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startChild } from './__fixtures__/child-process.js';
import { batchIds, ingestBatch, tenant } from './__fixtures__/ingest-batches.mjs';
import { createLmdbStore } from './index.js';

const scope = { userId: tenant };
const quiet = { onWarning: () => undefined };

async function failure(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(StoreError.isInstance(error), `expected a StoreError, got ${String(error)}`).toBe(true);
  return error as StoreError;
}

describe('store-lmdb bad states', () => {
  let directory: string;
  beforeAll(async () => {
    assertBuilt();
    directory = await mkdtemp(join(tmpdir(), 'engram-lmdb-bad-'));
    await chmod(directory, 0o755);
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('a path that cannot be written gives not-writable, for a new and an existing store', async () => {
    const readOnlyParent = join(directory, 'read-only-parent');
    mkdirSync(readOnlyParent);
    const existing = join(directory, 'existing');
    const store = await createLmdbStore({ path: existing, ...quiet });
    await store.write(ingestBatch(0, 3));
    await store.dispose();
    chmodSync(readOnlyParent, 0o555);
    const paths = [join(readOnlyParent, 'store'), existing];
    let codes: string[];
    if (process.getuid?.() === 0) {
      // Root ignores permissions: check as an unprivileged user in a child process.
      const run = startChild('open-child.mjs', paths, undefined, { uid: 65534, gid: 65534 });
      await run.exited;
      const done = run.messages.find((message) => message.type === 'done');
      codes = (done?.results as Array<{ code: string }>).map((result) => result.code);
    } else {
      chmodSync(existing, 0o555);
      for (const file of ['data.mdb', 'lock.mdb']) chmodSync(join(existing, file), 0o444);
      codes = [];
      for (const path of paths) codes.push((await failure(createLmdbStore({ path, ...quiet }))).code);
      chmodSync(existing, 0o755);
      for (const file of ['data.mdb', 'lock.mdb']) chmodSync(join(existing, file), 0o644);
    }
    expect(codes).toEqual(['not-writable', 'not-writable']);
    const reopened = await createLmdbStore({ path: existing, ...quiet });
    expect((await reopened.getUnits(scope, batchIds(0, 3).units)).every((unit) => unit !== undefined), 'nothing was lost').toBe(true);
    await reopened.dispose();
  });

  it('a store written by a newer format version is refused and left as it was', async () => {
    const path = join(directory, 'future');
    const store = await createLmdbStore({ path, ...quiet });
    await store.write(ingestBatch(0, 3));
    await store.dispose();
    const root = open({ path, maxDbs: 32 });
    const meta = root.openDB('meta', {});
    await meta.put('formatVersion', 99);
    await root.close();
    const error = await failure(createLmdbStore({ path, ...quiet }));
    expect(error.code).toBe('format-version');
    expect(error.message).toMatch(/format 99/);
    const again = open({ path, maxDbs: 32 });
    await again.openDB('meta', {}).put('formatVersion', 1);
    await again.close();
    const reopened = await createLmdbStore({ path, ...quiet });
    expect((await reopened.getUnits(scope, batchIds(0, 3).units)).every((unit) => unit !== undefined)).toBe(true);
    await reopened.dispose();
  });

  it('dims that differ from the stored vectors give dimension-mismatch, at open and on write', async () => {
    const path = join(directory, 'dims');
    const store = await createLmdbStore({ path, dims: 16, ...quiet });
    await store.write(ingestBatch(0, 3));
    const wrong = { units: [{ id: 'short', kind: 'episode' as const, scope, text: 'short vector', vector: [1, 2, 3] }] };
    const error = await failure(store.write(wrong));
    expect(error.code).toBe('dimension-mismatch');
    expect(error.message).toContain('batch.units[0].vector');
    expect(await store.getUnits(scope, ['short'])).toEqual([undefined]);
    await store.dispose();
    expect((await failure(createLmdbStore({ path, dims: 32, ...quiet }))).code).toBe('dimension-mismatch');
    const reopened = await createLmdbStore({ path, dims: 16, ...quiet });
    expect((await reopened.vectorSearch(scope, new Float32Array(32).fill(1), { k: 3 })).length, 'a query of another dimension matches nothing').toBe(0);
    await reopened.dispose();
  });

  it('one writer at a time: a second writer gets locked, a dead writer’s lock is taken over', async () => {
    const path = join(directory, 'lock');
    const first = await createLmdbStore({ path, ...quiet });
    const error = await failure(createLmdbStore({ path, ...quiet }));
    expect(error.code).toBe('locked');
    expect(error.message).toContain(String(process.pid));
    const reader = await createLmdbStore({ path, readOnly: true, ...quiet });
    expect((await failure(reader.write(ingestBatch(0, 1)))).code).toBe('read-only');
    await reader.dispose();
    await first.dispose();
    // A lock left behind by a process that no longer runs.
    const gone = startChild('open-child.mjs', []);
    const pid = gone.child.pid as number;
    await gone.exited;
    const root = open({ path, maxDbs: 32 });
    await root.openDB('meta', {}).put('writer', { pid, host: (await import('node:os')).hostname(), token: 'dead', since: new Date().toISOString() });
    await root.close();
    const warnings: string[] = [];
    const taken = await createLmdbStore({ path, onWarning: (message) => warnings.push(message) });
    expect(warnings.join('\n')).toContain(`process ${pid}, which is no longer running`);
    await taken.dispose();
    expect((await failure(createLmdbStore({ path: join(directory, 'nowhere'), readOnly: true }))).code).toBe('not-found');
  });

  it('a file size limit hit mid-batch fails that batch whole; everything committed before survives', { timeout: 300_000 }, async () => {
    const path = join(directory, 'limited');
    const run = startChild('fill-child.mjs', [path, 200], undefined, { fileSizeLimitBlocks: 8192 });
    await run.exited;
    const done = run.messages.find((message) => message.type === 'done');
    const failed = done?.failure as { code: string; name: string } | undefined;
    expect(failed?.name).toBe('StoreError');
    expect(['disk-full', 'write-failed']).toContain(failed?.code);
    expect(done?.leftOfFailedBatch, 'nothing of the failed batch is visible').toBe(0);
    const failedBatch = done?.failedBatch as number;
    expect(failedBatch).toBeGreaterThan(0);
    const store = await createLmdbStore({ path, ...quiet });
    for (let index = 0; index < failedBatch; index++) {
      expect((await store.getUnits(scope, batchIds(index, 200).units)).every((unit) => unit !== undefined), `batch ${index}`).toBe(true);
    }
    expect((await store.getUnits(scope, batchIds(failedBatch, 200).units)).every((unit) => unit === undefined)).toBe(true);
    await store.write(ingestBatch(failedBatch, 200));
    expect((await store.lexicalSearch(scope, `marker${failedBatch}`, { k: 500 })).length).toBe(200);
    await store.dispose();
  });

  it('a full disk (small tmpfs) fails the batch whole with disk-full; after freeing space it is written', { timeout: 300_000 }, async (context) => {
    const mountPoint = join(directory, 'tmpfs');
    mkdirSync(mountPoint);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    } catch {
      context.skip('mounting a tmpfs needs root; the file size limit test covers the same path');
      return;
    }
    try {
      const ballast = join(mountPoint, 'ballast');
      writeFileSync(ballast, Buffer.alloc(12 * 1024 * 1024, 1));
      const path = join(mountPoint, 'store');
      const store = await createLmdbStore({ path, ...quiet });
      let index = 0;
      let error: unknown;
      for (; index < 1000 && error === undefined; index++) {
        await store.write(ingestBatch(index, 200)).catch((caught: unknown) => (error = caught));
      }
      const failedBatch = index - 1;
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as StoreError).code).toBe('disk-full');
      expect(statfsSync(mountPoint).bavail).toBeLessThan(4096);
      expect((await store.getUnits(scope, batchIds(failedBatch, 200).units)).filter((unit) => unit !== undefined)).toEqual([]);
      rmSync(ballast);
      await store.write(ingestBatch(failedBatch, 200));
      await store.dispose();
      const reopened = await createLmdbStore({ path, ...quiet });
      for (let batch = 0; batch <= failedBatch; batch++) {
        expect((await reopened.lexicalSearch(scope, `marker${batch}`, { k: 500 })).length, `batch ${batch}`).toBe(200);
      }
      await reopened.dispose();
    } finally {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
    }
  });
});
