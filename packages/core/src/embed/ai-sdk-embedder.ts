import { ModelError } from '../errors/engram-error.js';
import { embedderSpecificationVersion, type Embedder } from '../ports/embedder.js';

/**
 * The part of an AI SDK embedding model (`EmbeddingModelV4`, also V3) this adapter uses. Duck-typed
 * so that core does not depend on the `ai` package at run time.
 */
export interface AiSdkEmbeddingModel {
  /** Provider name, e.g. `openai`. */
  readonly provider: string;
  /** Model id, e.g. `text-embedding-3-small`. */
  readonly modelId: string;
  /** Most values one call accepts; `undefined` or `Infinity` for no limit. */
  readonly maxEmbeddingsPerCall?: PromiseLike<number | undefined> | number | undefined;
  /** Embeds `values`, in order. */
  doEmbed(options: { values: string[]; abortSignal?: AbortSignal }): PromiseLike<{ embeddings: ReadonlyArray<ReadonlyArray<number>> }>;
}

/** Options of {@link embedderFromAiSdk}. */
export interface AiSdkEmbedderOptions {
  /** Expected vector length; learned from the first call when omitted (and checked afterwards). */
  dimensions?: number;
  /** Caps the values per call below the model's own `maxEmbeddingsPerCall`. */
  maxEmbeddingsPerCall?: number;
}

/**
 * Wraps any AI SDK embedding model as an {@link Embedder}: calls `model.doEmbed({ values })` in
 * chunks of at most `maxEmbeddingsPerCall` values, one chunk after another. A failed call, a
 * wrong number of vectors or a vector of the wrong length raises a `ModelError` naming the
 * provider and model.
 */
export function embedderFromAiSdk(model: AiSdkEmbeddingModel, options: AiSdkEmbedderOptions = {}): Embedder {
  let dimensions = options.dimensions ?? 0;
  const fail = (message: string, cause?: unknown) =>
    new ModelError({ provider: model.provider, modelId: model.modelId, message: `${model.provider}/${model.modelId}: ${message}`, cause });

  const chunkSize = async (): Promise<number> => {
    const modelLimit = await model.maxEmbeddingsPerCall;
    const limits = [modelLimit, options.maxEmbeddingsPerCall].filter(
      (limit): limit is number => typeof limit === 'number' && Number.isFinite(limit) && limit >= 1,
    );
    return limits.length === 0 ? Number.POSITIVE_INFINITY : Math.floor(Math.min(...limits));
  };

  return {
    specificationVersion: embedderSpecificationVersion,
    name: `${model.provider}/${model.modelId}`,
    get dimensions() {
      return dimensions;
    },
    embed: async (texts, embedOptions = {}) => {
      if (texts.length === 0) return [];
      const size = await chunkSize();
      const out: Array<Float32Array<ArrayBuffer>> = [];
      for (let start = 0; start < texts.length; start += size) {
        embedOptions.signal?.throwIfAborted();
        const values = texts.slice(start, start + size);
        let result: { embeddings: ReadonlyArray<ReadonlyArray<number>> };
        try {
          result = await model.doEmbed({ values, ...(embedOptions.signal ? { abortSignal: embedOptions.signal } : {}) });
        } catch (error) {
          if (embedOptions.signal?.aborted) throw error;
          throw fail(`embedding call failed: ${error instanceof Error ? error.message : String(error)}`, error);
        }
        if (result.embeddings.length !== values.length) {
          throw fail(`returned ${result.embeddings.length} embeddings for ${values.length} values`);
        }
        for (const embedding of result.embeddings) {
          if (dimensions === 0) dimensions = embedding.length;
          if (embedding.length !== dimensions || dimensions === 0) {
            throw fail(`returned a vector of length ${embedding.length}, expected ${dimensions}`);
          }
          out.push(Float32Array.from(embedding));
        }
      }
      return out;
    },
  };
}
