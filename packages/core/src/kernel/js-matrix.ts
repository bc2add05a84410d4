import {
  checkCapacity,
  checkDims,
  checkK,
  checkRow,
  checkVector,
  disposedError,
  grownCapacity,
  resolveTopKOptions,
} from './matrix-arguments.js';
import type { KernelBackend, TopKOptions, TopKResult, VectorMatrix } from './vector-kernel.js';

/**
 * Bounded top-k selector: a min-heap whose root is the worst kept hit, so a row enters only when
 * it beats the root. Rows must be offered in increasing order (a tie never displaces the root).
 */
class TopKHeap {
  readonly rows: Int32Array;
  readonly scores: Float32Array;
  size = 0;

  constructor(readonly capacity: number) {
    this.rows = new Int32Array(capacity);
    this.scores = new Float32Array(capacity);
  }

  /** Offers a hit whose score is already rounded to f32. */
  offer(row: number, score: number): void {
    if (this.size < this.capacity) {
      this.siftUp(this.size++, row, score);
    } else if (score > (this.scores[0] as number)) {
      this.siftDown(0, this.size, row, score);
    }
  }

  /** Sorts in place, best first, and returns the result. */
  finish(): TopKResult {
    const { rows, scores } = this;
    for (let end = this.size - 1; end > 0; end--) {
      const row = rows[end] as number;
      const score = scores[end] as number;
      rows[end] = rows[0] as number;
      scores[end] = scores[0] as number;
      this.siftDown(0, end, row, score);
    }
    return { rows: rows.subarray(0, this.size), scores: scores.subarray(0, this.size) };
  }

  private siftUp(index: number, row: number, score: number): void {
    const { rows, scores } = this;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentScore = scores[parent] as number;
      const parentRow = rows[parent] as number;
      if (!(score < parentScore || (score === parentScore && row > parentRow))) break;
      rows[index] = parentRow;
      scores[index] = parentScore;
      index = parent;
    }
    rows[index] = row;
    scores[index] = score;
  }

  private siftDown(index: number, size: number, row: number, score: number): void {
    const { rows, scores } = this;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      let childScore = scores[child] as number;
      let childRow = rows[child] as number;
      const right = child + 1;
      if (right < size) {
        const rightScore = scores[right] as number;
        const rightRow = rows[right] as number;
        if (rightScore < childScore || (rightScore === childScore && rightRow > childRow)) {
          child = right;
          childScore = rightScore;
          childRow = rightRow;
        }
      }
      if (!(childScore < score || (childScore === score && childRow > row))) break;
      rows[index] = childRow;
      scores[index] = childScore;
      index = child;
    }
    rows[index] = row;
    scores[index] = score;
  }
}

/** Dot product of `query` with the row starting at `offset`; four accumulators hide add latency. */
function dot(data: Float32Array, offset: number, query: Float32Array, dims: number): number {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  const end4 = dims & ~3;
  let index = 0;
  for (; index < end4; index += 4) {
    sum0 += (data[offset + index] as number) * (query[index] as number);
    sum1 += (data[offset + index + 1] as number) * (query[index + 1] as number);
    sum2 += (data[offset + index + 2] as number) * (query[index + 2] as number);
    sum3 += (data[offset + index + 3] as number) * (query[index + 3] as number);
  }
  for (; index < dims; index++) sum0 += (data[offset + index] as number) * (query[index] as number);
  return sum0 + sum1 + (sum2 + sum3);
}

/** Plain-JS {@link VectorMatrix}: the fallback where WASM SIMD is missing, same behaviour. */
export class JsVectorMatrix implements VectorMatrix {
  readonly backend: KernelBackend = 'js';
  private data: Float32Array;
  private norms: Float64Array;
  private count = 0;
  private disposed = false;
  private readonly queryCopy: Float32Array;

  constructor(
    readonly dims: number,
    initialCapacity = 1024,
  ) {
    checkDims(dims);
    checkCapacity(initialCapacity);
    this.data = new Float32Array(initialCapacity * dims);
    this.norms = new Float64Array(initialCapacity);
    this.queryCopy = new Float32Array(dims);
  }

  get rows(): number {
    return this.disposed ? 0 : this.count;
  }

  append(vector: Float32Array): number {
    this.assertLive();
    const norm = checkVector(vector, this.dims, 'vector');
    if (this.count === this.norms.length) this.grow(grownCapacity(this.norms.length));
    const row = this.count++;
    this.data.set(vector, row * this.dims);
    this.norms[row] = norm;
    return row;
  }

  set(row: number, vector: Float32Array): void {
    this.assertLive();
    checkRow(row, this.count);
    const norm = checkVector(vector, this.dims, 'vector');
    this.data.set(vector, row * this.dims);
    this.norms[row] = norm;
  }

  get(row: number): Float32Array {
    this.assertLive();
    checkRow(row, this.count);
    return this.data.slice(row * this.dims, (row + 1) * this.dims);
  }

  swapRemove(row: number): number {
    this.assertLive();
    checkRow(row, this.count);
    const last = --this.count;
    if (row === last) return -1;
    this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
    this.norms[row] = this.norms[last] as number;
    return last;
  }

  topK(query: Float32Array, k: number, options?: TopKOptions): TopKResult {
    this.assertLive();
    const queryNorm = checkVector(query, this.dims, 'query');
    checkK(k);
    const { metric, mask } = resolveTopKOptions(options, this.count);
    const { dims, data, norms, count } = this;
    // A copy in a Float32Array keeps the inner loop monomorphic whatever array-like came in.
    const q = this.queryCopy;
    q.set(query);
    const heap = new TopKHeap(Math.min(k, count));
    if (heap.capacity === 0) return heap.finish();
    const cosine = metric === 'cosine';
    for (let row = 0, offset = 0; row < count; row++, offset += dims) {
      if (mask !== undefined && mask[row] === 0) continue;
      const product = dot(data, offset, q, dims);
      let score: number;
      if (cosine) {
        const denominator = queryNorm * (norms[row] as number);
        score = denominator === 0 ? 0 : Math.fround(product / denominator);
      } else {
        score = Math.fround(product);
      }
      // Overflow (only reachable with huge values) ranks last instead of corrupting the heap.
      heap.offer(row, Number.isNaN(score) ? Number.NEGATIVE_INFINITY : score);
    }
    return heap.finish();
  }

  dispose(): void {
    this.disposed = true;
    this.data = new Float32Array(0);
    this.norms = new Float64Array(0);
    this.count = 0;
  }

  private grow(capacity: number): void {
    const data = new Float32Array(capacity * this.dims);
    data.set(this.data.subarray(0, this.count * this.dims));
    const norms = new Float64Array(capacity);
    norms.set(this.norms.subarray(0, this.count));
    this.data = data;
    this.norms = norms;
  }

  private assertLive(): void {
    if (this.disposed) throw disposedError();
  }
}
