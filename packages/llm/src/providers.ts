import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { InvalidInputError } from '@engram/core';

/** The provider kinds Engram configures by itself. */
export const providerKinds = ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const;
/** A provider kind. */
export type ProviderKind = (typeof providerKinds)[number];

/** One model choice: `provider:modelId`, optionally with its own base URL and key. */
export interface ModelSpec {
  /** Which provider package serves it. */
  provider: ProviderKind;
  /** The provider's model id, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `llama3.1`. */
  modelId: string;
  /** Base URL of the API. @default the provider's (`OPENAI_BASE_URL`, `OLLAMA_BASE_URL`, `ENGRAM_BASE_URL` for openai-compatible) */
  baseURL?: string;
  /** API key. @default the provider's variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `ENGRAM_API_KEY`) */
  apiKey?: string;
}

/** The roles a model can be chosen for, plus embeddings. */
export type ModelChoiceRole = 'distill' | 'navigate' | 'answer' | 'judge' | 'embedding';

/** Environment variable of each role's model (each falls back to `ENGRAM_MODEL`, except embeddings). */
export const modelEnvironmentVariables: Readonly<Record<ModelChoiceRole, string>> = {
  distill: 'ENGRAM_DISTILL_MODEL',
  navigate: 'ENGRAM_NAVIGATE_MODEL',
  answer: 'ENGRAM_ANSWER_MODEL',
  judge: 'ENGRAM_JUDGE_MODEL',
  embedding: 'ENGRAM_EMBEDDING_MODEL',
};

/** Parses `provider:modelId` (e.g. `openai:gpt-4.1-mini`, `ollama:llama3.1`, `openai-compatible:qwen2.5`). */
export function parseModelSpec(text: string, where = 'model'): ModelSpec {
  const at = text.indexOf(':');
  const provider = at < 0 ? '' : text.slice(0, at).trim();
  const modelId = at < 0 ? '' : text.slice(at + 1).trim();
  if (!(providerKinds as ReadonlyArray<string>).includes(provider) || modelId.length === 0) {
    throw new InvalidInputError({
      message: `${where}: expected <provider>:<model id> with provider ${providerKinds.join(' | ')}, got ${JSON.stringify(text)}`,
      path: where,
    });
  }
  return { provider: provider as ProviderKind, modelId };
}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim().length === 0 ? undefined : value.trim();
}

function providerFor(spec: ModelSpec, env: NodeJS.ProcessEnv) {
  switch (spec.provider) {
    case 'openai': {
      const baseURL = spec.baseURL ?? setting(env, 'OPENAI_BASE_URL');
      const apiKey = spec.apiKey ?? setting(env, 'OPENAI_API_KEY');
      return { kind: 'openai' as const, provider: createOpenAI({ ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) }) };
    }
    case 'openai-compatible': {
      const baseURL = spec.baseURL ?? setting(env, 'ENGRAM_BASE_URL');
      if (baseURL === undefined) throw new InvalidInputError({ message: 'openai-compatible models need a base URL: set ENGRAM_BASE_URL (e.g. http://127.0.0.1:8000/v1)', path: 'ENGRAM_BASE_URL' });
      // Local servers rarely check the key; the provider still wants one.
      const apiKey = spec.apiKey ?? setting(env, 'ENGRAM_API_KEY') ?? 'not-needed';
      return { kind: 'compatible' as const, provider: createOpenAI({ baseURL, apiKey, name: 'openai-compatible' }) };
    }
    case 'anthropic': {
      const baseURL = spec.baseURL ?? setting(env, 'ANTHROPIC_BASE_URL');
      const apiKey = spec.apiKey ?? setting(env, 'ANTHROPIC_API_KEY');
      return { kind: 'anthropic' as const, provider: createAnthropic({ ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) }) };
    }
    case 'ollama': {
      const baseURL = spec.baseURL ?? setting(env, 'OLLAMA_BASE_URL') ?? 'http://127.0.0.1:11434/api';
      return { kind: 'ollama' as const, provider: createOllama({ baseURL }) };
    }
  }
}

/**
 * The AI SDK language model of a spec. OpenAI uses its Responses API; an OpenAI-compatible server
 * (vLLM, llama.cpp, LM Studio, OpenRouter, …) the Chat Completions API most of them implement.
 */
export function createLanguageModel(spec: ModelSpec | string, env: NodeJS.ProcessEnv = process.env): LanguageModel {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  const { kind, provider } = providerFor(parsed, env);
  if (kind === 'compatible') return provider.chat(parsed.modelId);
  return provider(parsed.modelId);
}

/** The AI SDK embedding model of a spec (Anthropic has none). */
export function createEmbeddingModel(spec: ModelSpec | string, env: NodeJS.ProcessEnv = process.env): EmbeddingModelV4 {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec, 'embedding model') : spec;
  const { kind, provider } = providerFor(parsed, env);
  if (kind === 'anthropic') throw new InvalidInputError({ message: 'anthropic has no embedding models: choose openai, ollama or openai-compatible for ENGRAM_EMBEDDING_MODEL', path: 'ENGRAM_EMBEDDING_MODEL' });
  if (kind === 'ollama') return provider.embedding(parsed.modelId);
  return provider.embedding(parsed.modelId);
}

/** Model choices by role, from flags or a config file (`provider:model` strings); absent roles fall back to the environment. */
export type ModelChoices = Partial<Record<ModelChoiceRole | 'default', string>>;

/**
 * The model spec of each role. Precedence: `choices[role]` > `ENGRAM_<ROLE>_MODEL` >
 * `choices.default` > `ENGRAM_MODEL` (embeddings have no default: the offline embedder stays
 * unless one is named). A role without a model is absent.
 */
export function resolveModelChoices(choices: ModelChoices = {}, env: NodeJS.ProcessEnv = process.env): Partial<Record<ModelChoiceRole, ModelSpec>> {
  const out: Partial<Record<ModelChoiceRole, ModelSpec>> = {};
  const fallback = choices.default ?? setting(env, 'ENGRAM_MODEL');
  for (const role of Object.keys(modelEnvironmentVariables) as ModelChoiceRole[]) {
    const variable = modelEnvironmentVariables[role];
    const text = choices[role] ?? setting(env, variable) ?? (role === 'embedding' ? undefined : fallback);
    if (text !== undefined) out[role] = parseModelSpec(text, choices[role] !== undefined ? role : setting(env, variable) !== undefined ? variable : 'ENGRAM_MODEL');
  }
  return out;
}
