/** Version of the {@link Embedder} contract an embedder implements. */
export const embedderSpecificationVersion = 'v1' as const;

/** Options of one {@link Embedder.embed} call. */
export interface EmbedOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * The embedder port: turns texts into vectors for the store's vector search. Vectors of one
 * embedder are comparable with each other only; a store keeps the vectors it was given.
 *
 * Core ships an offline one (`createHashedEmbedder`, no download) and an adapter for any AI SDK
 * embedding model (`embedderFromAiSdk`).
 */
export interface Embedder {
  /** Contract version. */
  readonly specificationVersion: typeof embedderSpecificationVersion;
  /** Name used in errors and reports, e.g. `hashed-256` or `openai/text-embedding-3-small`. */
  readonly name: string;
  /** Length of every vector it returns; `0` while an adapter has not learned it yet (before its first call). */
  readonly dimensions: number;
  /** One vector per text, in order; the same text always gives the same vector for a deterministic embedder. */
  embed(texts: ReadonlyArray<string>, options?: EmbedOptions): Promise<Array<Float32Array<ArrayBuffer>>>;
}
