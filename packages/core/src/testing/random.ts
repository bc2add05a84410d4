/**
 * A small seeded pseudo-random generator (mulberry32): the same seed always yields the same
 * sequence, so generated data sets are reproducible without fast-check.
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard-normal sample from a uniform generator (Box–Muller). */
export function normalSample(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * `count` random vectors of `dims` dimensions, grouped around `clusters` centres (like real
 * embeddings, which are far from uniform): reproducible for a given seed.
 */
export function randomVectors(seed: number, count: number, dims: number, clusters = 16): Array<Float32Array<ArrayBuffer>> {
  const random = createRandom(seed);
  const centres = Array.from({ length: Math.max(1, clusters) }, () => Float32Array.from({ length: dims }, () => normalSample(random)));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * centres.length)] as Float32Array;
    return Float32Array.from(centre, (value) => value + 0.6 * normalSample(random));
  });
}
