import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/engram-error.js';
import { embedderFromAiSdk } from './ai-sdk-embedder.js';

const fakeEmbedding = (value: string) => [value.length, 1, 0];

describe('embedderFromAiSdk', () => {
  it('embeds through doEmbed in chunks of maxEmbeddingsPerCall, in order', async () => {
    const model = new MockEmbeddingModelV4({
      provider: 'mock-provider',
      modelId: 'mock-embed',
      maxEmbeddingsPerCall: 2,
      doEmbed: async ({ values }) => ({ embeddings: values.map(fakeEmbedding), warnings: [] }),
    });
    const embedder = embedderFromAiSdk(model);
    expect(embedder.dimensions).toBe(0);
    const vectors = await embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(vectors.map((vector) => vector[0])).toEqual([1, 2, 3, 4, 5]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(embedder.dimensions).toBe(3);
    expect(embedder.name).toBe('mock-provider/mock-embed');
  });

  it('caps the chunk size with its own option', async () => {
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => ({ embeddings: values.map(fakeEmbedding), warnings: [] }),
    });
    await embedderFromAiSdk(model, { maxEmbeddingsPerCall: 1 }).embed(['a', 'b']);
    expect(model.doEmbedCalls).toHaveLength(2);
  });

  it('wraps a failing call in a ModelError naming provider and model', async () => {
    const model = new MockEmbeddingModelV4({
      provider: 'acme',
      modelId: 'embed-1',
      doEmbed: async () => {
        throw new Error('rate limited');
      },
    });
    const error = await embedderFromAiSdk(model).embed(['a']).catch((caught: unknown) => caught);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'acme', modelId: 'embed-1' });
    expect(String((error as Error).message)).toContain('rate limited');
  });

  it('rejects vectors of a length other than the declared dimensions', async () => {
    const model = new MockEmbeddingModelV4({ doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 2]), warnings: [] }) });
    await expect(embedderFromAiSdk(model, { dimensions: 3 }).embed(['a'])).rejects.toThrow(/expected 3/);
  });

  it('rejects a wrong number of vectors', async () => {
    const model = new MockEmbeddingModelV4({ maxEmbeddingsPerCall: 10, doEmbed: async () => ({ embeddings: [[1, 2, 3]], warnings: [] }) });
    await expect(embedderFromAiSdk(model).embed(['a', 'b'])).rejects.toThrow(/1 embeddings for 2 values/);
  });
});
