import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/engram-error.js';
import { cosineSimilarity } from '../store-kit/unit-filter.js';
import { createHashedEmbedder, hashedVector } from './hashed-embedder.js';

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe('createHashedEmbedder', () => {
  it('returns one unit-length vector per text, of the configured length', async () => {
    const embedder = createHashedEmbedder({ dimensions: 64 });
    const vectors = await embedder.embed(['Caroline went to a support group', 'Melanie paints sunsets', '']);
    expect(embedder.dimensions).toBe(64);
    expect(embedder.name).toBe('hashed-64');
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(64);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it('is deterministic across instances', async () => {
    const [a] = await createHashedEmbedder().embed(['I adopted a puppy last week']);
    const [b] = await createHashedEmbedder().embed(['I adopted a puppy last week']);
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
  });

  it('puts texts sharing words and word forms closer than unrelated ones', () => {
    const query = hashedVector('When did Melanie paint the sunset?');
    const related = hashedVector('Melanie painted a sunset over the lake');
    const unrelated = hashedVector('Caroline went to a support group yesterday');
    expect(cosineSimilarity(query, related)).toBeGreaterThan(cosineSimilarity(query, unrelated) + 0.2);
  });

  it('falls back to stop words so that a stop-word-only text is not a zero vector', () => {
    expect(norm(hashedVector('how are you?'))).toBeCloseTo(1, 5);
    expect(cosineSimilarity(hashedVector('how are you?'), hashedVector('how are you'))).toBeCloseTo(1, 5);
  });

  it('rejects a bad dimension with an InvalidInputError', () => {
    expect(() => createHashedEmbedder({ dimensions: 3 })).toThrow(InvalidInputError);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createHashedEmbedder().embed(['x'], { signal: controller.signal })).rejects.toThrow();
  });
});
