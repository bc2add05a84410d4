import { InvalidInputError } from '@engram/core';
import { describe, expect, it } from 'vitest';
import { createEmbeddingModel, createLanguageModel, parseModelSpec, resolveModelChoices } from './providers.js';

describe('providers', () => {
  it('parses provider:model and names what is wrong', () => {
    expect(parseModelSpec('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect(parseModelSpec('ollama:llama3.1:8b')).toEqual({ provider: 'ollama', modelId: 'llama3.1:8b' });
    expect(() => parseModelSpec('gpt-4', 'ENGRAM_MODEL')).toThrow(/ENGRAM_MODEL: expected <provider>:<model id>/);
    expect(InvalidInputError.isInstance((() => { try { parseModelSpec('cohere:x'); } catch (error) { return error; } })())).toBe(true);
  });

  it('chooses a model per role: flag > role variable > default > ENGRAM_MODEL; embeddings only when named', () => {
    const env = { ENGRAM_MODEL: 'openai:gpt-4.1-mini', ENGRAM_JUDGE_MODEL: 'anthropic:claude-sonnet-4-5' };
    const specs = resolveModelChoices({ answer: 'ollama:qwen2.5' }, env);
    expect(specs.answer).toEqual({ provider: 'ollama', modelId: 'qwen2.5' });
    expect(specs.judge).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(specs.distill).toEqual({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect(specs.embedding).toBeUndefined();
    expect(resolveModelChoices({}, {})).toEqual({});
  });

  it('builds each provider kind; openai-compatible needs a base URL and talks chat completions', () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', ENGRAM_BASE_URL: 'http://127.0.0.1:9/v1' };
    expect(createLanguageModel('openai:gpt-4.1-mini', env)).toMatchObject({ modelId: 'gpt-4.1-mini', provider: 'openai.responses' });
    expect(createLanguageModel('anthropic:claude-sonnet-4-5', env)).toMatchObject({ modelId: 'claude-sonnet-4-5' });
    expect(createLanguageModel('ollama:llama3.1', env)).toMatchObject({ modelId: 'llama3.1' });
    expect(createLanguageModel('openai-compatible:qwen2.5', env)).toMatchObject({ modelId: 'qwen2.5', provider: 'openai-compatible.chat' });
    expect(() => createLanguageModel('openai-compatible:qwen2.5', {})).toThrow(/ENGRAM_BASE_URL/);
    expect(() => createEmbeddingModel('anthropic:x', env)).toThrow(/no embedding models/);
    expect(createEmbeddingModel('ollama:nomic-embed-text', env)).toMatchObject({ modelId: 'nomic-embed-text' });
  });
});
