import { EngramError, InvalidInputError } from '../errors/engram-error.js';
import type { KernelMetric, TopKOptions } from './vector-kernel.js';

// Argument checks shared by both backends, so they reject the same inputs with the same errors.

/** Largest accepted vector dimension. */
export const maxDims = 65_536;

function invalid(path: string, message: string): InvalidInputError {
  return new InvalidInputError({ message: `invalid ${path}: ${message}`, path });
}

/** Throws unless `dims` is an integer in [1, {@link maxDims}]. */
export function checkDims(dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > maxDims) {
    throw invalid('dims', `expected an integer from 1 to ${maxDims}, got ${String(dims)}`);
  }
}

/** Throws unless `capacity` is a non-negative integer. */
export function checkCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw invalid('options.initialCapacity', `expected a non-negative integer, got ${String(capacity)}`);
  }
}

/** Checks that `vector` has `dims` finite values and returns its Euclidean norm (computed in f64). */
export function checkVector(vector: ArrayLike<number>, dims: number, path: string): number {
  if (vector === null || typeof vector !== 'object' || typeof vector.length !== 'number') {
    throw invalid(path, `expected a Float32Array of ${dims} values`);
  }
  if (vector.length !== dims) {
    throw invalid(path, `expected ${dims} dims, got ${vector.length}`);
  }
  let sum = 0;
  for (let index = 0; index < dims; index++) {
    const value = vector[index] as number;
    if (!Number.isFinite(value)) throw invalid(`${path}[${index}]`, `expected a finite number, got ${String(value)}`);
    sum += value * value;
  }
  // Norms are kept as f32 (WASM) or f64 (JS); one that overflows f32 would turn cosine into NaN.
  const norm = Math.sqrt(sum);
  if (norm > 3.4e38) throw invalid(path, 'norm overflows float32');
  return norm;
}

/** Throws unless `row` is an existing row index. */
export function checkRow(row: number, rows: number): void {
  if (!Number.isInteger(row) || row < 0 || row >= rows) {
    throw invalid('row', `expected an integer from 0 to ${rows - 1}, got ${String(row)}`);
  }
}

/** Throws unless `k` is a non-negative integer or `Infinity`. */
export function checkK(k: number): void {
  if (!(k === Number.POSITIVE_INFINITY || (Number.isInteger(k) && k >= 0))) {
    throw invalid('k', `expected a non-negative integer or Infinity, got ${String(k)}`);
  }
}

/** Validated {@link TopKOptions}. */
export interface ResolvedTopKOptions {
  /** Similarity to rank by. */
  metric: KernelMetric;
  /** Candidate mask, at least `rows` bytes long, or undefined for every row. */
  mask: Uint8Array | undefined;
}

/** Validates the options of `topK` against a matrix of `rows` rows. */
export function resolveTopKOptions(options: TopKOptions | undefined, rows: number): ResolvedTopKOptions {
  const metric = options?.metric ?? 'cosine';
  if (metric !== 'cosine' && metric !== 'dot') {
    throw invalid('options.metric', `expected 'cosine' or 'dot', got ${String(metric)}`);
  }
  const mask = options?.mask;
  if (mask !== undefined) {
    if (!(mask instanceof Uint8Array)) throw invalid('options.mask', 'expected a Uint8Array with one byte per row');
    if (mask.length < rows) throw invalid('options.mask', `expected at least ${rows} bytes (one per row), got ${mask.length}`);
  }
  return { metric, mask };
}

/** The error thrown by any call on a disposed matrix. */
export function disposedError(): EngramError {
  return new EngramError('VectorMatrix: used after dispose()');
}

/** Next capacity when a matrix of `capacity` rows is full: doubling, at least 16. */
export function grownCapacity(capacity: number): number {
  return Math.max(16, capacity * 2);
}
