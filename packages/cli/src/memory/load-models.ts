import type { ModelSuite, ModelSuiteOptions } from '@engram/llm';
import { UsageError } from '../cli-errors.js';
import type { Settings } from '../cli-settings.js';

/**
 * The model-backed parts the environment or engram.config.json names, or `undefined` when none is
 * configured. `@engram/llm` is loaded only then: without a model the CLI stays offline and starts fast.
 */
export async function loadModels(settings: Pick<Settings, 'models' | 'modelConfigured'>, env: NodeJS.ProcessEnv, options: Partial<Pick<ModelSuiteOptions, 'onDistillerEvent'>> = {}): Promise<ModelSuite | undefined> {
  if (!settings.modelConfigured) return undefined;
  const { createModelSuite } = await import('@engram/llm');
  const { InvalidInputError } = await import('@engram/core');
  try {
    return createModelSuite({ choices: settings.models, env, ...options });
  } catch (error) {
    if (InvalidInputError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}

/** `model: 3 calls, 1200 input / 80 output tokens` — what a run spent, for stderr. */
export function describeUsage(usage: { calls: number; inputTokens: number; outputTokens: number }): string {
  return `model: ${usage.calls} call${usage.calls === 1 ? '' : 's'}, ${usage.inputTokens} input / ${usage.outputTokens} output tokens`;
}
