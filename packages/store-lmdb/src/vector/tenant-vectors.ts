import { keyPart, prefixRange } from '../layout.js';
import type { Snapshot } from '../snapshot.js';
import type { Key } from 'lmdb';

/** A tenant's vectors of one dimension as one matrix, with their rows and squared norms. */
export interface TenantVectors {
  generation: number;
  dims: number;
  count: number;
  rows: Float64Array;
  vectors: Float32Array;
  squaredNorms: Float64Array;
}

/**
 * The vectors of small tenants (the ones vector search scans exactly), kept in memory for as long
 * as the store's generation is unchanged: every commit bumps it, in this process or another, and
 * each read checks it on its own snapshot, so a kept matrix is never older than what it reads.
 * Without it every search of such a tenant reads and copies all of its vectors from LMDB. Bounded
 * by `maxFloats` in all (a tenant may take a quarter of it; bigger ones are streamed from LMDB as
before); the least recently used tenant goes first.
 */
export class TenantVectorCache {
  private readonly entries = new Map<string, TenantVectors>();
  private floats = 0;

  constructor(private readonly maxFloats = 16_000_000) {}

  /** Whether a tenant of `floats` vector components may be kept (else it is streamed from LMDB). */
  fits(floats: number): boolean {
    return floats <= this.maxFloats / 4;
  }

  /** The tenant's vectors of dimension `dims` as of `snapshot`. */
  get(snapshot: Snapshot, userId: string, dims: number): TenantVectors {
    const generation = (snapshot.get(snapshot.databases.meta, 'generation') as number | undefined) ?? 0;
    const kept = this.entries.get(userId);
    if (kept !== undefined) {
      this.entries.delete(userId);
      if (kept.generation === generation && kept.dims === dims) {
        this.entries.set(userId, kept);
        return kept;
      }
      this.floats -= kept.vectors.length;
    }
    const read = readTenant(snapshot, userId, dims, generation);
    if (this.fits(read.vectors.length)) {
      this.entries.set(userId, read);
      this.floats += read.vectors.length;
      for (const [oldest, entry] of this.entries) {
        if (this.floats <= this.maxFloats) break;
        this.entries.delete(oldest);
        this.floats -= entry.vectors.length;
      }
    }
    return read;
  }

  /** Drops everything (on dispose). */
  clear(): void {
    this.entries.clear();
    this.floats = 0;
  }
}

function readTenant(snapshot: Snapshot, userId: string, dims: number, generation: number): TenantVectors {
  let rows = new Float64Array(1024);
  let vectors = new Float32Array(1024 * dims);
  let count = 0;
  const bytes = dims * 4;
  for (const { key, value } of snapshot.range(snapshot.databases.vectors, prefixRange([keyPart(userId)]))) {
    if (value.byteLength !== bytes) continue;
    if (count === rows.length) {
      const grownRows = new Float64Array(count * 2);
      grownRows.set(rows);
      rows = grownRows;
      const grownVectors = new Float32Array(count * 2 * dims);
      grownVectors.set(vectors);
      vectors = grownVectors;
    }
    rows[count] = (key as Key[])[1] as number;
    new Uint8Array(vectors.buffer, count * bytes, bytes).set(value);
    count += 1;
  }
  rows = rows.slice(0, count);
  vectors = vectors.slice(0, count * dims);
  const squaredNorms = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    let norm = 0;
    for (let d = index * dims, end = d + dims; d < end; d++) {
      const value = vectors[d] as number;
      norm += value * value;
    }
    squaredNorms[index] = norm;
  }
  return { generation, dims, count, rows, vectors, squaredNorms };
}
