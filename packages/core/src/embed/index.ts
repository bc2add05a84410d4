export { createHashedEmbedder, hashedVector, type HashedEmbedderOptions } from './hashed-embedder.js';
export { embedderFromAiSdk, type AiSdkEmbeddingModel, type AiSdkEmbedderOptions } from './ai-sdk-embedder.js';
