import { createVectorMatrix, type VectorMatrix, type VectorMatrixOptions } from '@engram/core';
import { compareIds } from './sorted-ids.js';

interface Space {
  matrix: VectorMatrix;
  /** Unit id of each row. */
  ids: string[];
}

/**
 * The vectors of one tenant: one kernel matrix per dimension, rows mapped to unit ids. Search is
 * an exact cosine scan; filters become a row mask.
 */
export class VectorIndex {
  private readonly spaces = new Map<number, Space>();
  private readonly placement = new Map<string, { dims: number; row: number }>();

  constructor(private readonly options: VectorMatrixOptions) {}

  /** Puts (or replaces, or with `undefined` removes) the vector of a unit. */
  put(id: string, vector: Float32Array | undefined): void {
    const placed = this.placement.get(id);
    if (placed !== undefined && vector !== undefined && placed.dims === vector.length) {
      this.spaces.get(placed.dims)?.matrix.set(placed.row, vector);
      return;
    }
    this.remove(id);
    if (vector === undefined) return;
    let space = this.spaces.get(vector.length);
    if (space === undefined) {
      space = { matrix: createVectorMatrix(vector.length, this.options), ids: [] };
      this.spaces.set(vector.length, space);
    }
    const row = space.matrix.append(vector);
    space.ids[row] = id;
    this.placement.set(id, { dims: vector.length, row });
  }

  /** Removes a unit's vector (moving the last row of its matrix into the hole). */
  remove(id: string): void {
    const placed = this.placement.get(id);
    if (placed === undefined) return;
    this.placement.delete(id);
    const space = this.spaces.get(placed.dims);
    if (space === undefined) return;
    const moved = space.matrix.swapRemove(placed.row);
    const last = space.ids.pop() as string;
    if (moved >= 0 && moved !== placed.row) {
      space.ids[placed.row] = last;
      this.placement.set(last, { dims: placed.dims, row: placed.row });
    }
    if (space.matrix.rows === 0) {
      space.matrix.dispose();
      this.spaces.delete(placed.dims);
    }
  }

  /**
   * Exact cosine top-k over rows of the query's dimension that `accept` lets through (every row
   * when `accept` is undefined), best first, ties by id — also at the cut-off.
   */
  search(query: Float32Array, k: number, accept: ((id: string) => boolean) | undefined): Array<{ id: string; score: number }> {
    const space = this.spaces.get(query.length);
    if (space === undefined || k <= 0) return [];
    const rows = space.matrix.rows;
    let mask: Uint8Array | undefined;
    let candidates = rows;
    if (accept !== undefined) {
      mask = new Uint8Array(rows);
      candidates = 0;
      for (let row = 0; row < rows; row++) {
        if (accept(space.ids[row] as string)) {
          mask[row] = 1;
          candidates += 1;
        }
      }
    }
    if (candidates === 0) return [];
    // The kernel breaks ties by row; ask for more until the k-th score is no longer tied, so the
    // cut-off can be decided by id.
    let wanted = Math.min(k, candidates);
    for (;;) {
      const result = space.matrix.topK(query, wanted, { metric: 'cosine', ...(mask ? { mask } : {}) });
      const count = result.rows.length;
      const kth = result.scores[Math.min(k, count) - 1];
      if (count === wanted && wanted < candidates && result.scores[count - 1] === kth) {
        wanted = Math.min(candidates, wanted * 2);
        continue;
      }
      const hits = Array.from(result.rows, (row, index) => ({ id: space.ids[row] as string, score: result.scores[index] as number }));
      return hits.sort((a, b) => b.score - a.score || compareIds(a.id, b.id)).slice(0, k);
    }
  }

  /** Frees every matrix. */
  dispose(): void {
    for (const space of this.spaces.values()) space.matrix.dispose();
    this.spaces.clear();
    this.placement.clear();
  }
}
