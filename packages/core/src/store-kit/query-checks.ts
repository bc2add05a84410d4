import { InvalidInputError } from '../errors/engram-error.js';

/** Checks a query's `k` or `limit`: absent, `Infinity` or a non-negative integer; otherwise an error naming `path`. */
export function checkCount(value: number | undefined, path: string): void {
  if (value === undefined || value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 0)) return;
  throw new InvalidInputError({ message: `invalid ${path}: must be a non-negative integer, got ${String(value)}`, path });
}

/** A query vector as a Float32Array, checked to be non-empty and finite. */
export function checkQueryVector(vector: Float32Array | ReadonlyArray<number>): Float32Array {
  const values = vector instanceof Float32Array ? vector : Float32Array.from(vector);
  if (values.length === 0 || !values.every(Number.isFinite)) {
    throw new InvalidInputError({ message: 'invalid vector: must be a non-empty vector of finite numbers', path: 'vector' });
  }
  return values;
}
