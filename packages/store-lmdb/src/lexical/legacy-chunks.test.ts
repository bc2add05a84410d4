import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UnitInput } from '@engram/core';
import { ReferenceStore, expectQuery } from '@engram/core/testing';
import type { Key } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLmdbStore } from '../index.js';
import { openDatabases } from '../layout.js';
import { chunkHeader } from './posting-codec.js';

const words = ['caroline', 'melanie', 'painting', 'pottery', 'camping', 'lake', 'sunset', 'puppy', 'guitar', 'career', 'school', 'beach'];

function units(from: number, count: number): UnitInput[] {
  return Array.from({ length: count }, (_, index) => {
    const number = from + index;
    // Lengths and repeated words vary, so chunk summaries (largest frequency, shortest length) matter.
    const text = [words[number % words.length], words[(number * 7) % words.length], ...Array.from({ length: number % 4 }, () => words[(number * 5) % words.length]), `note${number % 50}`].join(' ');
    return { id: `u${String(number).padStart(6, '0')}`, kind: number % 3 === 0 ? 'episode' : 'turn', ...(number % 3 === 0 ? {} : { speaker: 'Caroline', index: number }), scope: { userId: 'u1' }, text, context: {} } as UnitInput;
  });
}

/** Chunks without a summary (each value is only valid until the next read: look at it in the loop). */
function countLegacy(postings: ReturnType<typeof openDatabases>['postings']): number {
  let count = 0;
  for (const { value } of postings.getRange({})) if (chunkHeader(value).largestFrequency === undefined) count += 1;
  return count;
}

const queries = ['pottery lake', 'caroline', 'guitar school beach note7', 'sunset sunset puppy', 'career note3'];

describe('store-lmdb posting chunks written before chunk summaries', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'engram-lmdb-legacy-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('are searched exactly, and appending to them writes summaries', { timeout: 120_000 }, async () => {
    const path = join(directory, 'store');
    const reference = new ReferenceStore();
    let store = await createLmdbStore({ path, onWarning: () => undefined });
    const first = { units: units(0, 3000) };
    reference.write(first);
    await store.write(first);
    // Rewrite every chunk as the first format wrote it: no summary words at the end.
    const { postings } = openDatabases(store.getInstance());
    store.getInstance().transactionSync(() => {
      const legacy: Array<{ key: Key; value: Buffer }> = [];
      for (const { key, value } of postings.getRange({})) legacy.push({ key, value: Buffer.from(value.subarray(0, value.byteLength - 8)) });
      for (const { key, value } of legacy) postings.putSync(key, value);
    });
    const legacyChunks = countLegacy(postings);
    expect(legacyChunks).toBeGreaterThan(20);
    await store.dispose();

    store = await createLmdbStore({ path, onWarning: () => undefined });
    for (const query of queries) {
      for (const k of [1, 10, 200]) await expectQuery(store, reference, { method: 'lexicalSearch', scope: { userId: 'u1' }, query, options: { k } }, { exactVector: true });
    }
    const second = { units: units(3000, 500) };
    reference.write(second);
    await store.write(second);
    for (const query of queries) await expectQuery(store, reference, { method: 'lexicalSearch', scope: { userId: 'u1' }, query, options: { k: 10, kinds: ['turn'] } }, { exactVector: true });
    const after = openDatabases(store.getInstance()).postings;
    const remaining = countLegacy(after);
    expect(remaining, 'chunks appended to are rewritten with a summary').toBeLessThan(legacyChunks);
    await store.dispose();
  });
});
