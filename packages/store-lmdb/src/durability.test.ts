import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestBatch, tenant } from './__fixtures__/ingest-batches.mjs';
import { createLmdbStore } from './index.js';

/** Counts the syncs to disk the store asks LMDB for (lmdb-js's `sync(callback)`), letting each run. */
function countSyncs(root: object): { count: number } {
  const counter = { count: 0 };
  const target = root as { sync(callback: (error?: unknown) => void): void };
  const original = target.sync.bind(target);
  target.sync = (callback) => {
    counter.count++;
    original(callback);
  };
  return counter;
}

describe('store-lmdb durability', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const open = async (options: { durability?: 'flushed' | 'committed' } = {}) => {
    const directory = await mkdtemp(join(tmpdir(), 'engram-durability-'));
    directories.push(directory);
    return createLmdbStore({ path: directory, onWarning: () => undefined, ...options });
  };

  it('resolves write, delete and forget only after syncing the commit to disk, by default', async () => {
    const store = await open();
    const syncs = countSyncs(store.getInstance());
    await store.write(ingestBatch(0, 3));
    expect(syncs.count).toBe(1);
    expect(await store.delete({ userId: tenant }, 'b0000-u000')).toBe(true);
    expect(syncs.count).toBe(2);
    // Nothing deleted, nothing to sync.
    expect(await store.delete({ userId: tenant }, 'no-such-unit')).toBe(false);
    expect(syncs.count).toBe(2);
    await store.forget({ userId: tenant });
    expect(syncs.count).toBe(3);
    await store.dispose();
  });

  it("resolves at commit with durability: 'committed', and the writes are there", async () => {
    const store = await open({ durability: 'committed' });
    const syncs = countSyncs(store.getInstance());
    await store.write(ingestBatch(0, 3));
    expect(syncs.count).toBe(0);
    expect((await store.getUnits({ userId: tenant }, ['b0000-u001'])).map((unit) => unit?.id)).toEqual(['b0000-u001']);
    await store.dispose();
  });
});
