import { describe, expect, it } from 'vitest';
import { EngramError, InvalidInputError } from '../errors/engram-error.js';
import { createVectorMatrix } from './create-vector-matrix.js';
import type { KernelMetric, VectorMatrix } from './vector-kernel.js';

/** Seeded PRNG (mulberry32): the same data on every run. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomVectors(count: number, dims: number, random: () => number): Float32Array[] {
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, () => random() * 2 - 1));
}

/** Float64 reference score, with a tolerance for the f32 arithmetic of the kernels. */
function referenceScore(query: Float32Array, row: Float32Array, metric: KernelMetric): { score: number; tolerance: number } {
  let dot = 0;
  let absolute = 0;
  let queryNorm = 0;
  let rowNorm = 0;
  for (let index = 0; index < query.length; index++) {
    const product = (query[index] as number) * (row[index] as number);
    dot += product;
    absolute += Math.abs(product);
    queryNorm += (query[index] as number) ** 2;
    rowNorm += (row[index] as number) ** 2;
  }
  if (metric === 'dot') return { score: dot, tolerance: 1e-5 * absolute + 1e-6 };
  const denominator = Math.sqrt(queryNorm) * Math.sqrt(rowNorm);
  if (denominator === 0) return { score: 0, tolerance: 0 };
  return { score: dot / denominator, tolerance: (1e-5 * absolute) / denominator + 1e-6 };
}

/**
 * Checks a top-k result against the float64 reference over `vectors` (row i = vectors[i]):
 * the right count, candidates only, no repeats, best first with ties by lower row, each score
 * right for its row, and the score at each rank equal to the reference's score at that rank.
 */
function expectMatchesReference(
  matrix: VectorMatrix,
  vectors: Float32Array[],
  query: Float32Array,
  k: number,
  metric: KernelMetric,
  mask?: Uint8Array,
): void {
  const result = matrix.topK(query, k, mask === undefined ? { metric } : { metric, mask });
  const candidates = vectors
    .map((vector, row) => ({ row, ...referenceScore(query, vector, metric) }))
    .filter(({ row }) => mask === undefined || mask[row] !== 0);
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.row - b.row);
  const expectedCount = Math.min(k, candidates.length);
  expect(result.rows.length).toBe(expectedCount);
  expect(result.scores.length).toBe(expectedCount);
  const byRow = new Map(candidates.map((candidate) => [candidate.row, candidate]));
  const seen = new Set<number>();
  // Problems are collected and asserted once: an expect() per rank would dominate the run time.
  const problems: string[] = [];
  for (let rank = 0; rank < expectedCount; rank++) {
    const row = result.rows[rank] as number;
    const score = result.scores[rank] as number;
    const reference = byRow.get(row);
    const atRank = ranked[rank] as { score: number; tolerance: number };
    if (reference === undefined) {
      problems.push(`rank ${rank}: row ${row} is not a candidate`);
      continue;
    }
    if (seen.has(row)) problems.push(`rank ${rank}: row ${row} repeated`);
    seen.add(row);
    if (!(Math.abs(score - reference.score) <= reference.tolerance)) {
      problems.push(`rank ${rank}: row ${row} scored ${score}, reference ${reference.score}`);
    }
    if (!(Math.abs(score - atRank.score) <= atRank.tolerance + reference.tolerance)) {
      problems.push(`rank ${rank}: score ${score}, reference score at this rank ${atRank.score}`);
    }
    if (rank > 0) {
      const previous = result.scores[rank - 1] as number;
      if (!(previous > score || (previous === score && (result.rows[rank - 1] as number) < row))) {
        problems.push(`rank ${rank}: row ${row} (${score}) out of order after row ${result.rows[rank - 1]} (${previous})`);
      }
    }
  }
  expect(problems).toEqual([]);
}

function sameValues(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

function fill(matrix: VectorMatrix, vectors: Float32Array[]): VectorMatrix {
  for (const vector of vectors) matrix.append(vector);
  return matrix;
}

function expectInvalid(action: () => unknown, path: string): void {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(InvalidInputError.isInstance(caught), `expected InvalidInputError, got ${String(caught)}`).toBe(true);
  expect((caught as InvalidInputError).path).toBe(path);
}

describe.each([
  { backend: 'wasm' as const, name: 'wasm-simd' },
  { backend: 'js' as const, name: 'js' },
])('VectorMatrix ($name)', ({ backend, name }) => {
  const create = (dims: number, initialCapacity?: number): VectorMatrix =>
    createVectorMatrix(dims, initialCapacity === undefined ? { backend } : { backend, initialCapacity });

  it('reports its backend and shape', () => {
    const matrix = create(3);
    expect(matrix.backend).toBe(name);
    expect(matrix.dims).toBe(3);
    expect(matrix.rows).toBe(0);
  });

  describe.each([1, 3, 5, 256, 384])('dims %i', (dims) => {
    it.each([0, 1, 1037])('matches the float64 reference with %i rows', (rows) => {
      const random = createRandom(dims * 10_007 + rows);
      const vectors = randomVectors(rows, dims, random);
      const matrix = fill(create(dims), vectors);
      expect(matrix.rows).toBe(rows);
      for (const query of randomVectors(3, dims, random)) {
        for (const metric of ['cosine', 'dot'] as const) {
          for (const k of [1, 10, rows + 5]) expectMatchesReference(matrix, vectors, query, k, metric);
        }
      }
    });
  });

  it('only returns rows whose mask byte is non-zero', () => {
    const random = createRandom(7);
    const vectors = randomVectors(1500, 37, random);
    const matrix = fill(create(37), vectors);
    const mask = Uint8Array.from({ length: 1500 }, () => (random() < 0.3 ? 1 + Math.floor(random() * 200) : 0));
    for (const query of randomVectors(3, 37, random)) {
      expectMatchesReference(matrix, vectors, query, 25, 'cosine', mask);
      expectMatchesReference(matrix, vectors, query, 5000, 'dot', mask);
    }
    const query = vectors[3] as Float32Array;
    expect(matrix.topK(query, 10, { mask: new Uint8Array(1500) }).rows.length).toBe(0);
    const only = new Uint8Array(1600); // longer than rows: the extra bytes are ignored
    only[42] = 1;
    only[1550] = 1;
    expect(Array.from(matrix.topK(query, 10, { mask: only }).rows)).toEqual([42]);
  });

  it('swapRemove moves the last row into the hole', () => {
    const random = createRandom(11);
    const vectors = randomVectors(300, 6, random);
    const matrix = fill(create(6), vectors);
    expect(matrix.swapRemove(10)).toBe(299);
    vectors[10] = vectors.pop() as Float32Array;
    expect(matrix.rows).toBe(299);
    expect(matrix.get(10)).toEqual(vectors[10]);
    expect(matrix.swapRemove(298)).toBe(-1);
    vectors.pop();
    expect(matrix.rows).toBe(298);
    const query = randomVectors(1, 6, random)[0] as Float32Array;
    expectMatchesReference(matrix, vectors, query, 400, 'cosine');
    // The moved row keeps its norm: a query equal to it scores 1 there.
    const hit = matrix.topK(vectors[10] as Float32Array, 1);
    expect(hit.rows[0]).toBe(10);
    expect(hit.scores[0]).toBeCloseTo(1, 5);
    while (matrix.rows > 0) matrix.swapRemove(0);
    expect(matrix.topK(query, 10).rows.length).toBe(0);
    expect(matrix.append(vectors[0] as Float32Array)).toBe(0);
  });

  it('set overwrites a row and its norm', () => {
    const random = createRandom(13);
    const vectors = randomVectors(500, 9, random);
    const matrix = fill(create(9), vectors);
    const query = randomVectors(1, 9, random)[0] as Float32Array;
    const scaled = query.map((value) => value * 40);
    matrix.set(321, scaled);
    vectors[321] = scaled;
    expect(matrix.get(321)).toEqual(scaled);
    const cosine = matrix.topK(query, 3);
    expect(cosine.rows[0]).toBe(321);
    expect(cosine.scores[0]).toBeCloseTo(1, 5);
    expectMatchesReference(matrix, vectors, query, 20, 'cosine');
    expectMatchesReference(matrix, vectors, query, 20, 'dot');
  });

  it('keeps every row exact while growing past its initial capacity', () => {
    const random = createRandom(17);
    for (const initialCapacity of [0, 3]) {
      const vectors = randomVectors(2100, 7, random);
      const matrix = create(7, initialCapacity);
      const appended = vectors.map((vector) => matrix.append(vector));
      expect(appended).toEqual(vectors.map((_, index) => index));
      const differing = vectors.filter((vector, index) => !sameValues(matrix.get(index), vector));
      expect(differing.length).toBe(0);
      const query = randomVectors(1, 7, random)[0] as Float32Array;
      expectMatchesReference(matrix, vectors, query, 50, 'cosine');
      expectMatchesReference(matrix, vectors, query, 50, 'dot');
    }
  });

  it('scores zero vectors 0 under cosine', () => {
    const random = createRandom(19);
    const vectors = randomVectors(40, 5, random);
    vectors[4] = new Float32Array(5);
    const matrix = fill(create(5), vectors);
    const query = randomVectors(1, 5, random)[0] as Float32Array;
    const all = matrix.topK(query, 100);
    expect(all.scores[all.rows.indexOf(4)]).toBe(0);
    expectMatchesReference(matrix, vectors, query, 100, 'cosine');
    const zeroQuery = matrix.topK(new Float32Array(5), 3);
    expect(Array.from(zeroQuery.rows)).toEqual([0, 1, 2]);
    expect(Array.from(zeroQuery.scores)).toEqual([0, 0, 0]);
    expect(Array.from(matrix.topK(new Float32Array(5), 2, { metric: 'dot' }).scores)).toEqual([0, 0]);
  });

  it('returns every candidate when k exceeds them, nothing for k = 0', () => {
    const random = createRandom(23);
    const matrix = fill(create(4), randomVectors(12, 4, random));
    const query = randomVectors(1, 4, random)[0] as Float32Array;
    expect(matrix.topK(query, 50).rows.length).toBe(12);
    expect(matrix.topK(query, Number.POSITIVE_INFINITY).rows.length).toBe(12);
    expect(matrix.topK(query, 0).rows.length).toBe(0);
  });

  it('orders equal scores by lower row', () => {
    const random = createRandom(29);
    const [same, other] = randomVectors(2, 6, random) as [Float32Array, Float32Array];
    const matrix = create(6);
    for (let row = 0; row < 30; row++) matrix.append(row % 3 === 0 ? same : other);
    for (const metric of ['cosine', 'dot'] as const) {
      const result = matrix.topK(same, 4, { metric });
      expect(Array.from(result.rows)).toEqual([0, 3, 6, 9]);
      expect(new Set(result.scores).size).toBe(1);
    }
    const allEqual = fill(create(3), Array.from({ length: 20 }, () => Float32Array.of(1, 2, 3)));
    expect(Array.from(allEqual.topK(Float32Array.of(3, 2, 1), 5).rows)).toEqual([0, 1, 2, 3, 4]);
  });

  it('returns copies and keeps matrices independent', () => {
    const first = fill(create(2), [Float32Array.of(1, 0), Float32Array.of(0, 1)]);
    const second = fill(create(2), [Float32Array.of(0, 1), Float32Array.of(1, 0)]);
    const row = first.get(0);
    row[0] = 99;
    expect(first.get(0)).toEqual(Float32Array.of(1, 0));
    const input = Float32Array.of(5, 5);
    first.append(input);
    input[0] = -5;
    expect(first.get(2)).toEqual(Float32Array.of(5, 5));
    expect(first.topK(Float32Array.of(1, 0), 1).rows[0]).toBe(0);
    expect(second.topK(Float32Array.of(1, 0), 1).rows[0]).toBe(1);
  });

  it('rejects bad arguments, naming them, without changing anything', () => {
    expectInvalid(() => create(0), 'dims');
    expectInvalid(() => create(2.5), 'dims');
    expectInvalid(() => create(3, -1), 'options.initialCapacity');
    const matrix = fill(create(3), [Float32Array.of(1, 2, 3)]);
    expectInvalid(() => matrix.append(Float32Array.of(1, 2)), 'vector');
    expectInvalid(() => matrix.append(Float32Array.of(1, Number.NaN, 3)), 'vector[1]');
    expectInvalid(() => matrix.set(0, Float32Array.of(1, 2, Number.POSITIVE_INFINITY)), 'vector[2]');
    expectInvalid(() => matrix.set(1, Float32Array.of(1, 2, 3)), 'row');
    expectInvalid(() => matrix.get(-1), 'row');
    expectInvalid(() => matrix.swapRemove(1), 'row');
    expectInvalid(() => matrix.topK(Float32Array.of(1, 2, 3, 4), 1), 'query');
    expectInvalid(() => matrix.topK(Float32Array.of(1, 2, 3), -1), 'k');
    expectInvalid(() => matrix.topK(Float32Array.of(1, 2, 3), 1.5), 'k');
    expectInvalid(
      () => matrix.topK(Float32Array.of(1, 2, 3), 1, { metric: 'euclid' as KernelMetric }),
      'options.metric',
    );
    expectInvalid(() => matrix.topK(Float32Array.of(1, 2, 3), 1, { mask: new Uint8Array(0) }), 'options.mask');
    expect(matrix.rows).toBe(1);
    expect(matrix.get(0)).toEqual(Float32Array.of(1, 2, 3));
  });

  it('throws an EngramError once disposed', () => {
    const matrix = fill(create(2), [Float32Array.of(1, 2)]);
    matrix.dispose();
    expect(matrix.rows).toBe(0);
    expect(() => matrix.topK(Float32Array.of(1, 2), 1)).toThrow(EngramError);
    expect(() => matrix.append(Float32Array.of(1, 2))).toThrow(/dispose/);
  });
});

describe('backends agree', () => {
  it('wasm-simd and js return the same rows on random data', () => {
    const random = createRandom(31);
    const vectors = randomVectors(3000, 384, random);
    const wasm = fill(createVectorMatrix(384, { backend: 'wasm' }), vectors);
    const js = fill(createVectorMatrix(384, { backend: 'js' }), vectors);
    for (const query of randomVectors(5, 384, random)) {
      const a = wasm.topK(query, 20);
      const b = js.topK(query, 20);
      expect(Array.from(a.rows)).toEqual(Array.from(b.rows));
      a.scores.forEach((score, index) => expect(score).toBeCloseTo(b.scores[index] as number, 5));
    }
  });
});
