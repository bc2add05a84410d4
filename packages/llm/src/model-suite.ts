import { embedderFromAiSdk, type Answerer, type AnswerStyle, type Distiller, type Embedder, type Judge, type Navigator } from '@engram/core';
import type { RetryOptions } from './call-model.js';
import { createModelAnswerer, createModelJudge } from './answer/model-answerer.js';
import { createModelDistiller, type DistillerEvent } from './distill/model-distiller.js';
import { createModelNavigator } from './navigate/model-navigator.js';
import { createEmbeddingModel, createLanguageModel, resolveModelChoices, type ModelChoices } from './providers.js';
import { createUsageMeter, type UsageMeter } from './usage-meter.js';

/** Options of {@link createModelSuite}. */
export interface ModelSuiteOptions extends RetryOptions {
  /** Model choices by role (`provider:model`); roles not named fall back to the environment. */
  choices?: ModelChoices;
  /** The environment to read (`ENGRAM_MODEL`, `ENGRAM_<ROLE>_MODEL`, provider keys). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The answer prompt. @default 'chat' */
  style?: AnswerStyle;
  /** The judge's benchmark. @default 'locomo' */
  judgeBenchmark?: 'locomo' | 'longmemeval';
  /** Receives the distiller's repairs and fallbacks. */
  onDistillerEvent?: (event: DistillerEvent) => void;
  /** Let `ENGRAM_MODEL` / `ENGRAM_<ROLE>_MODEL` choose models for roles `choices` does not name (provider keys are read from `env` either way). @default true */
  rolesFromEnvironment?: boolean;
}

/** The model-backed parts a configuration names, sharing one usage meter; roles without a model are absent. */
export interface ModelSuite {
  distiller?: Distiller;
  navigator?: Navigator;
  answerer?: Answerer;
  judge?: Judge;
  embedder?: Embedder;
  /** Counts the calls and tokens of all of them. */
  meter: UsageMeter;
}

/** Builds the distiller, navigator, answerer, judge and embedder the choices and environment name. */
export function createModelSuite(options: ModelSuiteOptions = {}): ModelSuite {
  const env = options.env ?? process.env;
  const specs = resolveModelChoices(options.choices, options.rolesFromEnvironment === false ? {} : env);
  const meter = createUsageMeter();
  const retry: RetryOptions = {
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  };
  const suite: ModelSuite = { meter };
  if (specs.distill) suite.distiller = createModelDistiller({ ...retry, meter, model: createLanguageModel(specs.distill, env), ...(options.onDistillerEvent ? { onEvent: options.onDistillerEvent } : {}) });
  if (specs.navigate) suite.navigator = createModelNavigator({ ...retry, meter, model: createLanguageModel(specs.navigate, env) });
  if (specs.answer) suite.answerer = createModelAnswerer({ ...retry, meter, model: createLanguageModel(specs.answer, env), style: options.style ?? 'chat' });
  if (specs.judge) suite.judge = createModelJudge({ ...retry, meter, model: createLanguageModel(specs.judge, env), benchmark: options.judgeBenchmark ?? 'locomo' });
  if (specs.embedding) suite.embedder = embedderFromAiSdk(createEmbeddingModel(specs.embedding, env));
  return suite;
}
