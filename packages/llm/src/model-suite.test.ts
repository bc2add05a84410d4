import { MockEmbeddingModelV4 } from 'ai/test';
import { createEngram, embedderFromAiSdk } from '@engram/core';
import { createMemoryStore } from '@engram/store-memory';
import { describe, expect, it } from 'vitest';
import { anaAndBen, jsonReply, scriptedModel, sessionOneBatch } from './__fixtures__/mock-replies.js';
import { createModelDistiller } from './distill/model-distiller.js';
import { createModelSuite } from './model-suite.js';

describe('model suite', () => {
  it('embeds what the model distilled with an AI SDK embedding model, so dense search finds it', async () => {
    const vector = (text: string) => [text.includes('pottery') ? 1 : 0, text.includes('Lyon') ? 1 : 0, 0.1];
    const embedding = new MockEmbeddingModelV4({ provider: 'mock', modelId: 'embed', maxEmbeddingsPerCall: 16, doEmbed: async ({ values }) => ({ embeddings: values.map(vector), warnings: [] }) });
    const store = createMemoryStore();
    const engram = createEngram({ store, embedder: embedderFromAiSdk(embedding), distiller: createModelDistiller({ model: scriptedModel([jsonReply(sessionOneBatch)]) }) });
    await engram.add({ ...anaAndBen, sessions: [anaAndBen.sessions[0]!] }, { userId: 'ana' });
    const embedded = embedding.doEmbedCalls.flatMap((call) => call.values);
    expect(embedded).toContain(`[2024-03-10] ${sessionOneBatch.episodes[0]!.text}`);
    expect(embedding.doEmbedCalls.every((call) => call.values.length <= 16)).toBe(true);
    const [hit] = await store.vectorSearch({ userId: 'ana' }, new Float32Array([1, 0, 0.1]), { k: 1, kinds: ['episode'] });
    expect(hit?.unit.text).toContain('blue bowl');
    expect(engram.embedder.dimensions).toBe(3);
  });

  it('builds the parts the environment names, one per role, sharing a meter', () => {
    const env = { ENGRAM_MODEL: 'openai-compatible:small', ENGRAM_ANSWER_MODEL: 'openai-compatible:large', ENGRAM_BASE_URL: 'http://127.0.0.1:9/v1', ENGRAM_EMBEDDING_MODEL: 'openai-compatible:embed' };
    const suite = createModelSuite({ env });
    expect(suite.distiller?.name).toBe('llm:openai-compatible.chat/small');
    expect(suite.navigator?.name).toBe('llm:openai-compatible.chat/small');
    expect(suite.answerer?.name).toBe('llm:openai-compatible.chat/large');
    expect(suite.judge?.name).toBe('llm:openai-compatible.chat/small');
    expect(suite.embedder?.name).toBe('openai-compatible.embedding/embed');
    expect(suite.meter.total()).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0 });

    const only = createModelSuite({ env, choices: { answer: 'openai-compatible:x' }, rolesFromEnvironment: false });
    expect(Object.keys(only).sort()).toEqual(['answerer', 'meter']);
    expect(Object.keys(createModelSuite({ env: {} }))).toEqual(['meter']);
  });
});
