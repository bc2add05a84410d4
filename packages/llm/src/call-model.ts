import { APICallError, NoObjectGeneratedError, ToolChoiceViolationError, type LanguageModel } from 'ai';
import { ModelError } from '@engram/core';
import type { ModelRole, UsageMeter } from './usage-meter.js';

/** How model calls are retried and timed out. */
export interface RetryOptions {
  /** Retries after the first attempt for timeouts, HTTP 429 and 5xx (and network failures). @default 3 */
  maxRetries?: number;
  /** First backoff delay in milliseconds; doubles on each retry (a `retry-after` header wins, capped at 30 s). @default 500 */
  backoffMs?: number;
  /** Time limit of one attempt, in milliseconds. @default 60000 */
  timeoutMs?: number;
  /** Waits between attempts (injectable so tests never sleep). @default setTimeout */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/** What every model-backed part is given besides its model. */
export interface ModelCallOptions extends RetryOptions {
  /** Counts calls and tokens. */
  meter?: UsageMeter;
}

/** Provider and model id of an AI SDK model (a string model id resolves through the global provider). */
export function describeModel(model: LanguageModel): { provider: string; modelId: string } {
  if (typeof model === 'string') return { provider: 'gateway', modelId: model };
  return { provider: model.provider, modelId: model.modelId };
}

const defaultSleep = (milliseconds: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** Why an attempt failed, and whether trying again can help. */
function classify(error: unknown, timedOut: boolean): { retry: boolean; why: string } {
  if (timedOut) return { retry: true, why: 'timed out' };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429) return { retry: true, why: 'HTTP 429 (rate limited)' };
    if (status !== undefined && status >= 500) return { retry: true, why: `HTTP ${status}` };
    if (status !== undefined) return { retry: false, why: `HTTP ${status}` };
    return { retry: error.isRetryable, why: 'network error' };
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return { retry: true, why: 'timed out' };
  return { retry: false, why: error instanceof Error ? error.name : 'error' };
}

function retryAfter(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const header = error.responseHeaders?.['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 30_000) : undefined;
}

/** The usage an AI SDK result or error reports. */
export function usageOf(value: unknown): { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined {
  const usage = (value as { totalUsage?: unknown; usage?: unknown } | null)?.totalUsage ?? (value as { usage?: unknown } | null)?.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  return usage as { inputTokens?: number; outputTokens?: number };
}

/**
 * Runs one model call with bounded retries: timeouts, HTTP 429, 5xx and network failures are
 * retried with exponential backoff; other failures (a 4xx, a bad schema) are not retried here.
 * Every attempt that reached the model is counted under `role`. When retries are exhausted the
 * error is a `ModelError` that names the provider, the model, the role and the last failure.
 */
export async function callModel<T>(
  model: LanguageModel,
  role: ModelRole,
  options: ModelCallOptions & { signal?: AbortSignal | undefined },
  run: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const maxRetries = options.maxRetries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const { provider, modelId } = describeModel(model);
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await run(controller.signal);
      options.meter?.record(role, usageOf(result));
      return result;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // A reply that failed its schema still cost a call and its tokens.
      // A reply that ignored the tool choice is an answer, not a failure: the caller decides.
      if (NoObjectGeneratedError.isInstance(error) || ToolChoiceViolationError.isInstance(error)) {
        options.meter?.record(role, usageOf(error));
        throw error;
      }
      // A failed attempt reached (or tried to reach) the provider: it counts as a call without tokens.
      options.meter?.record(role, undefined);
      const { retry, why } = classify(error, timedOut);
      if (!retry || attempt >= maxRetries) {
        const tries = attempt + 1;
        const message = error instanceof Error ? error.message : String(error);
        throw new ModelError({
          provider,
          modelId,
          message: `${provider}/${modelId}: ${role} call failed${retry ? ` after ${tries} attempt${tries === 1 ? '' : 's'}` : ''} (${why}): ${message}`,
          cause: error,
        });
      }
      await sleep(retryAfter(error) ?? backoffMs * 2 ** attempt, options.signal);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}
