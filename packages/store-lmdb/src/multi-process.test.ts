import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '@engram/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startChild, type ChildMessage } from './__fixtures__/child-process.js';
import { batchIds, ingestBatch, tenant } from './__fixtures__/ingest-batches.mjs';
import { createLmdbStore } from './index.js';

const batches = 40;
const unitsPerBatch = 25;

describe('store-lmdb with several processes', () => {
  let directory: string;
  beforeAll(async () => {
    assertBuilt();
    directory = await mkdtemp(join(tmpdir(), 'engram-lmdb-processes-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('one writer and two readers: readers never fail, never see half a batch, and see every commit', { timeout: 600_000 }, async () => {
    const path = join(directory, 'shared');
    // Create the store (and a saved vector index) before the readers start.
    const setup = await createLmdbStore({ path, onWarning: () => undefined });
    await setup.write(ingestBatch(0, unitsPerBatch));
    await setup.dispose();

    let secondWriter: Promise<unknown> | undefined;
    let writerOpened!: () => void;
    const opened = new Promise<void>((resolve) => (writerOpened = resolve));
    const writer = startChild('ingest-child.mjs', [path, 1, batches, unitsPerBatch], (message) => {
      if (message.type === 'opened') writerOpened();
    });
    const readers = [0, 1].map(() => startChild('reader-child.mjs', [path, batches, unitsPerBatch]));
    await opened;
    // While the child writes, a second writer in this process is refused; a reader here works.
    secondWriter = createLmdbStore({ path, onWarning: () => undefined }).then(
      async (store) => {
        await store.dispose();
        return 'opened';
      },
      (error: unknown) => error,
    );
    const localReader = await createLmdbStore({ path, readOnly: true, onWarning: () => undefined });
    const visible = await localReader.getUnits({ userId: tenant }, batchIds(0, unitsPerBatch).units);
    expect(visible.every((unit) => unit !== undefined)).toBe(true);
    await expect(localReader.write(ingestBatch(99, 1))).rejects.toMatchObject({ code: 'read-only' });
    await localReader.dispose();

    const error = await secondWriter;
    expect(StoreError.isInstance(error), `a second writer is refused, got ${String(error)}`).toBe(true);
    expect((error as StoreError).code).toBe('locked');
    expect((error as StoreError).message).toMatch(/open for writing by process \d+/);

    expect((await writer.exited).code).toBe(0);
    const outcomes = await Promise.all(readers.map((reader) => reader.exited));
    const failures = readers.flatMap((reader) => reader.messages.filter((message: ChildMessage) => message.type === 'failure').map((message) => message.message));
    expect(failures).toEqual([]);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, 0]);
    for (const reader of readers) {
      const progress = reader.messages.filter((message) => message.type === 'progress').map((message) => message.complete ?? 0);
      expect(progress.at(-1), 'the reader saw the last commit').toBe(batches);
      expect(progress.length, 'the reader saw commits as they came').toBeGreaterThan(1);
    }

    // Once the writer is gone, the lock is free again.
    const next = await createLmdbStore({ path, onWarning: () => undefined });
    await next.dispose();
  });
});
