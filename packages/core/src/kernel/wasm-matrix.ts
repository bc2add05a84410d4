import { EngramError } from '../errors/engram-error.js';
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
import { instantiateKernel, type KernelExports } from './wasm-module.js';

const pageBytes = 65_536;
/** wasm32 addresses at most 65,536 pages. */
const maxMemoryBytes = 65_536 * pageBytes;

/** Byte offsets of the regions in the instance's memory (all 16-byte aligned). */
interface Layout {
  /** Rows the per-row regions hold. */
  capacity: number;
  /** The query, `stride` floats (padding stays zero). */
  query: number;
  /** Row norms, f32 per row; its offset never changes, so growth only moves the matrix. */
  norms: number;
  /** Candidate mask, one byte per row. */
  mask: number;
  /** Top-k rows (i32), up to one per row. */
  outRows: number;
  /** Top-k scores (f32), up to one per row. */
  outScores: number;
  /** Every row's score, for the two-pass strategy. */
  scores: number;
  /** The matrix, `stride` floats per row. */
  matrix: number;
  /** First byte after the matrix. */
  end: number;
}

function align16(bytes: number): number {
  return Math.ceil(bytes / 16) * 16;
}

function computeLayout(base: number, stride: number, capacity: number): Layout {
  const query = align16(base);
  const norms = align16(query + stride * 4);
  const mask = align16(norms + capacity * 4);
  const outRows = align16(mask + capacity);
  const outScores = align16(outRows + capacity * 4);
  const scores = align16(outScores + capacity * 4);
  const matrix = align16(scores + capacity * 4);
  return { capacity, query, norms, mask, outRows, outScores, scores, matrix, end: matrix + capacity * stride * 4 };
}

/** How the WASM scan selects the top k. `fused` is the default: it measured faster (see the bench). */
export type WasmTopKStrategy = 'fused' | 'two-pass';

/**
 * {@link VectorMatrix} in the linear memory of its own WASM instance. Rows are zero-padded to a
 * stride that is a multiple of 4 floats so the SIMD loop has no scalar tail; norms are stored at
 * append/set time so cosine costs one dot product per row.
 */
export class WasmVectorMatrix implements VectorMatrix {
  readonly backend: KernelBackend = 'wasm-simd';
  private readonly stride: number;
  /** The instance; dropped by `dispose()` so its memory can be collected even if the matrix is not. */
  private kernel: KernelExports | undefined;
  private readonly heapBase: number;
  private layout: Layout;
  private count = 0;
  private bytes!: Uint8Array;
  private floats!: Float32Array;
  private ints!: Int32Array;

  constructor(
    readonly dims: number,
    initialCapacity = 1024,
    private readonly strategy: WasmTopKStrategy = 'fused',
  ) {
    checkDims(dims);
    checkCapacity(initialCapacity);
    this.stride = Math.ceil(dims / 4) * 4;
    const kernel = instantiateKernel();
    this.kernel = kernel;
    this.heapBase = kernel.heapBase();
    this.layout = computeLayout(this.heapBase, this.stride, initialCapacity);
    this.reserve(kernel, this.layout);
  }

  get rows(): number {
    return this.count;
  }

  append(vector: Float32Array): number {
    this.assertLive();
    const norm = checkVector(vector, this.dims, 'vector');
    if (this.count === this.layout.capacity) this.grow(grownCapacity(this.layout.capacity));
    const row = this.count++;
    const offset = (this.layout.matrix >>> 2) + row * this.stride;
    this.floats.set(vector, offset);
    // The SIMD loop reads the padding, so it must be zero; fresh memory is, but do not rely on
    // the layout never reusing bytes.
    if (this.stride !== this.dims) this.floats.fill(0, offset + this.dims, offset + this.stride);
    this.floats[(this.layout.norms >>> 2) + row] = norm;
    return row;
  }

  set(row: number, vector: Float32Array): void {
    this.assertLive();
    checkRow(row, this.count);
    const norm = checkVector(vector, this.dims, 'vector');
    this.floats.set(vector, (this.layout.matrix >>> 2) + row * this.stride);
    this.floats[(this.layout.norms >>> 2) + row] = norm;
  }

  get(row: number): Float32Array {
    this.assertLive();
    checkRow(row, this.count);
    const offset = (this.layout.matrix >>> 2) + row * this.stride;
    return this.floats.slice(offset, offset + this.dims);
  }

  swapRemove(row: number): number {
    this.assertLive();
    checkRow(row, this.count);
    const last = --this.count;
    if (row === last) return -1;
    const matrix = this.layout.matrix >>> 2;
    const norms = this.layout.norms >>> 2;
    this.floats.copyWithin(matrix + row * this.stride, matrix + last * this.stride, matrix + (last + 1) * this.stride);
    this.floats[norms + row] = this.floats[norms + last] as number;
    return last;
  }

  topK(query: Float32Array, k: number, options?: TopKOptions): TopKResult {
    const kernel = this.assertLive();
    const queryNorm = checkVector(query, this.dims, 'query');
    checkK(k);
    const { metric, mask } = resolveTopKOptions(options, this.count);
    const wanted = Math.min(k, this.count);
    if (wanted === 0) return { rows: new Int32Array(0), scores: new Float32Array(0) };
    const layout = this.layout;
    this.floats.set(query, layout.query >>> 2);
    if (mask !== undefined) this.bytes.set(mask.subarray(0, this.count), layout.mask);
    const maskPointer = mask === undefined ? 0 : layout.mask;
    // A negative query norm tells the kernel to rank by dot product.
    const norm = metric === 'cosine' ? queryNorm : -1;
    const found =
      this.strategy === 'fused'
        ? kernel.topK(
            layout.matrix, layout.norms, this.count, this.stride, layout.query, norm,
            maskPointer, wanted, layout.outRows, layout.outScores,
          )
        : kernel.topKTwoPass(
            layout.matrix, layout.norms, this.count, this.stride, layout.query, norm,
            maskPointer, wanted, layout.outRows, layout.outScores, layout.scores,
          );
    return {
      rows: this.ints.slice(layout.outRows >>> 2, (layout.outRows >>> 2) + found),
      scores: this.floats.slice(layout.outScores >>> 2, (layout.outScores >>> 2) + found),
    };
  }

  dispose(): void {
    // The instance and its memory are freed by the garbage collector once unreferenced.
    this.kernel = undefined;
    this.count = 0;
    this.bytes = new Uint8Array(0);
    this.floats = new Float32Array(0);
    this.ints = new Int32Array(0);
  }

  private grow(capacity: number): void {
    const previous = this.layout;
    const next = computeLayout(this.heapBase, this.stride, capacity);
    this.reserve(this.assertLive(), next);
    // The matrix only moves up (every region before it grew); copyWithin handles the overlap.
    const from = previous.matrix >>> 2;
    this.floats.copyWithin(next.matrix >>> 2, from, from + this.count * this.stride);
    this.layout = next;
  }

  /** Grows the memory to hold `layout` and renews the views (growing detaches the old buffer). */
  private reserve(kernel: KernelExports, layout: Layout): void {
    const end = layout.end;
    if (end > maxMemoryBytes) {
      throw new EngramError(
        `VectorMatrix: ${layout.capacity} rows of ${this.dims} dims need ${end} bytes, over the 4 GiB of WASM memory`,
      );
    }
    const memory = kernel.memory;
    const pages = Math.ceil(end / pageBytes) - memory.buffer.byteLength / pageBytes;
    if (pages > 0) {
      try {
        memory.grow(pages);
      } catch (error) {
        throw new EngramError(`VectorMatrix: could not grow WASM memory to ${end} bytes`, { cause: error });
      }
    }
    const buffer = memory.buffer;
    this.bytes = new Uint8Array(buffer);
    this.floats = new Float32Array(buffer);
    this.ints = new Int32Array(buffer);
  }

  private assertLive(): KernelExports {
    if (this.kernel === undefined) throw disposedError();
    return this.kernel;
  }
}
