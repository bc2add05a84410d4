import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLmdbStore } from '../index.js';

const scope = { userId: 'ana' };
const unit = (id: string, vector: number[]) => ({ id, kind: 'episode' as const, scope, text: id, vector: Float32Array.from(vector), context: {} });

describe('exact vector search over a small tenant kept in memory', () => {
  const directories: string[] = [];
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const directory = async () => {
    const path = await mkdtemp(join(tmpdir(), 'engram-tenant-vectors-'));
    directories.push(path);
    return path;
  };

  it('sees every write made after the tenant was kept: its own and another process’s', async () => {
    const path = await directory();
    const writer = await createLmdbStore({ path, onWarning: () => undefined });
    await writer.write({ units: [unit('a', [1, 0, 0]), unit('b', [0, 1, 0])] });
    const reader = await createLmdbStore({ path, readOnly: true, onWarning: () => undefined });
    const top = async (store: typeof writer) => (await store.vectorSearch(scope, Float32Array.from([0, 0, 1]), { k: 1 }))[0]?.unit.id;
    // Both stores now keep the tenant's two vectors.
    expect(['a', 'b']).toContain(await top(writer));
    expect(['a', 'b']).toContain(await top(reader));
    await writer.write({ units: [unit('c', [0, 0.1, 1])] });
    expect(await top(writer)).toBe('c');
    expect(await top(reader)).toBe('c');
    expect(await writer.delete(scope, 'c')).toBe(true);
    expect(['a', 'b']).toContain(await top(writer));
    expect(['a', 'b']).toContain(await top(reader));
    await reader.dispose();
    await writer.dispose();
  });

  it('scores as core’s cosine does', async () => {
    const store = await createLmdbStore({ path: await directory(), onWarning: () => undefined });
    await store.write({ units: [unit('a', [1, 2, 3]), unit('b', [0, 0, 0]), unit('c', [-1, 0.5, 2])] });
    const hits = await store.vectorSearch(scope, Float32Array.from([0.5, -1, 2]), { k: 3 });
    const cosine = (a: number[], b: number[]) => {
      const dot = a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
      const na = a.reduce((sum, x) => sum + x * x, 0);
      const nb = b.reduce((sum, x) => sum + x * x, 0);
      return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
    };
    const f32 = (values: number[]) => [...Float32Array.from(values)];
    expect(hits.map((hit) => [hit.unit.id, hit.score])).toEqual([
      ['c', cosine(f32([0.5, -1, 2]), f32([-1, 0.5, 2]))],
      ['a', cosine(f32([0.5, -1, 2]), f32([1, 2, 3]))],
      ['b', 0],
    ]);
    await store.dispose();
  });
});
