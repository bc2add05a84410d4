/** Which implementation runs the vector kernel. */
export type KernelBackend = 'wasm-simd' | 'js';

/** Result of a top-k scan: row indexes and their scores, best first (ties: lower row first). */
export interface TopKResult {
  /** Row indexes, best first. */
  rows: Int32Array;
  /** Scores of those rows. */
  scores: Float32Array;
}

/**
 * A growable row-major f32 matrix held where the kernel can scan it without copying (WASM memory
 * for `wasm-simd`), with exact top-k by dot product or cosine.
 */
export interface VectorMatrix {
  /** Which implementation scans it. */
  readonly backend: KernelBackend;
  /** Vector dimension. */
  readonly dims: number;
  /** Number of rows. */
  readonly rows: number;
  /** Appends a row; returns its index. */
  append(vector: Float32Array): number;
  /** Overwrites a row. */
  set(row: number, vector: Float32Array): void;
  /** A copy of a row. */
  get(row: number): Float32Array;
  /** Removes a row by moving the last row into its place; returns the index that moved (or -1). */
  swapRemove(row: number): number;
  /**
   * Exact top-k. `metric` `cosine` divides by both norms (0 for a zero vector); `dot` does not.
   * `mask`, when given, has one byte per row: only rows with a non-zero byte are candidates.
   */
  topK(query: Float32Array, k: number, options?: { metric?: 'cosine' | 'dot'; mask?: Uint8Array }): TopKResult;
  /** Frees the memory. */
  dispose(): void;
}

/** Options of {@link VectorMatrix} creation. */
export interface VectorMatrixOptions {
  /** `auto` picks WASM SIMD where the runtime supports it, else plain JS. @default 'auto' */
  backend?: 'auto' | 'wasm' | 'js';
  /** Rows to reserve up front. @default 1024 */
  initialCapacity?: number;
}
