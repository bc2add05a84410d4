/** Which implementation runs the vector kernel. */
export type KernelBackend = 'wasm-simd' | 'js';

/** Similarity used by {@link VectorMatrix.topK}. */
export type KernelMetric = 'cosine' | 'dot';

/** Result of a top-k scan: row indexes and their scores, best first (ties: lower row first). */
export interface TopKResult {
  /** Row indexes, best first. */
  rows: Int32Array;
  /** Scores of those rows. */
  scores: Float32Array;
}

/** Options of {@link VectorMatrix.topK}. */
export interface TopKOptions {
  /** `cosine` divides the dot product by both norms (0 when either is 0); `dot` does not. @default 'cosine' */
  metric?: KernelMetric;
  /** One byte per row: only rows with a non-zero byte are candidates; bytes past `rows` are ignored. @default every row */
  mask?: Uint8Array;
}

/**
 * A growable row-major f32 matrix held where the kernel can scan it without copying (WASM memory
 * for `wasm-simd`), with exact top-k by dot product or cosine. Vectors must have `dims` finite
 * values; a bad argument throws an `InvalidInputError` naming it and changes nothing.
 */
export interface VectorMatrix {
  /** Which implementation scans it. */
  readonly backend: KernelBackend;
  /** Vector dimension. */
  readonly dims: number;
  /** Number of rows (0 after `dispose()`). */
  readonly rows: number;
  /** Appends a row (copied); returns its index. Grows the storage when full. */
  append(vector: Float32Array): number;
  /** Overwrites a row (copied). */
  set(row: number, vector: Float32Array): void;
  /** A copy of a row. */
  get(row: number): Float32Array;
  /** Removes a row by moving the last row into its place; returns the index that moved (or -1). */
  swapRemove(row: number): number;
  /**
   * Exact top-k, best first, ties broken by lower row index; fewer than `k` results when there
   * are fewer candidates. `k` is a non-negative integer or `Infinity` (every candidate).
   */
  topK(query: Float32Array, k: number, options?: TopKOptions): TopKResult;
  /** Frees the memory; any later call except `rows` throws. */
  dispose(): void;
}

/** Options of {@link VectorMatrix} creation. */
export interface VectorMatrixOptions {
  /** `auto` picks WASM SIMD where the runtime supports it, else plain JS; `wasm` throws where unsupported. @default 'auto' */
  backend?: 'auto' | 'wasm' | 'js';
  /** Rows to reserve up front. @default 1024 */
  initialCapacity?: number;
}

/** What the running JavaScript engine offers the kernel. */
export interface KernelSupport {
  /** WebAssembly with the fixed-width SIMD (v128) proposal is available. */
  wasmSimd: boolean;
}
