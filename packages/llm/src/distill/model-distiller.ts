import { generateText, NoObjectGeneratedError, Output, type LanguageModel, type ModelMessage } from 'ai';
import {
  createOfflineDistiller,
  distillerSpecificationVersion,
  sessionTurnUnits,
  tenantOf,
  type DistillRequest,
  type DistillResult,
  type Distiller,
  type Scope,
  type Turn,
} from '@engram/core';
import { z } from 'zod';
import { callModel, describeModel, type ModelCallOptions } from '../call-model.js';
import { assembleSession, type DistilledBatch } from './assemble-session.js';
import { checkBatch, modelBatchSchema, type ModelBatch } from './distill-schema.js';
import { distillPrompt, distillSystemPrompt, repairPrompt } from './distill-prompt.js';
import { emptyResult, mergeResults } from './merge-results.js';

/** Something the model distiller reports as it works (for logs). */
export type DistillerEvent =
  | { type: 'repair'; sessionId: string; batch: number; problem: string }
  | { type: 'fallback'; sessionId: string; batch: number; turns: number; problem: string };

/** Counters of a model distiller's work since it was created. */
export interface DistillerStats {
  /** Batches distilled (by the model or the fallback). */
  batches: number;
  /** Batches whose first reply failed its schema and got a repair attempt. */
  repairs: number;
  /** Batches that fell back to the fallback distiller after the repair failed too. */
  fallbacks: number;
}

/** Options of {@link createModelDistiller}. */
export interface ModelDistillerOptions extends ModelCallOptions {
  /** The model that distils. */
  model: LanguageModel;
  /** Most new messages per model call; a longer session is split into batches. @default 40 */
  batchTurns?: number;
  /** Earlier messages shown before a batch as context (for pronouns). @default 4 */
  contextTurns?: number;
  /** Distils a batch whose output fails its schema twice. @default the offline distiller */
  fallback?: Distiller;
  /** Receives repairs and fallbacks, e.g. to log them. */
  onEvent?: (event: DistillerEvent) => void;
}

/** A model distiller, with counters of its repairs and fallbacks. */
export interface ModelDistiller extends Distiller {
  /** Counters since creation. */
  readonly stats: Readonly<DistillerStats>;
}

function problemOf(error: unknown): string {
  if (NoObjectGeneratedError.isInstance(error)) {
    const cause = error.cause;
    const detail = cause instanceof Error ? cause.message : '';
    return `${error.message}${detail ? `\n${detail}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The model distiller (SPEC §3, MRAgent's construction): per session, in batches of at most
 * `batchTurns` new messages, one structured call (`Output.object`, zod-validated) resolves
 * pronouns, normalises times against the session date, segments episodes with a tag and cues
 * each, reads facts with their aspect and names topics; the reply is assembled into exactly the
 * model of the offline distiller (same ids, units, relations, supersessions). A reply that fails
 * its schema gets one repair attempt; if that fails too, the batch is distilled by the fallback
 * (the offline distiller), reported through `onEvent` and counted — no turn is lost. Timeouts,
 * 429 and 5xx are retried with backoff, then raise a `ModelError`.
 */
export function createModelDistiller(options: ModelDistillerOptions): ModelDistiller {
  const batchTurns = Math.max(1, options.batchTurns ?? 40);
  const contextTurns = Math.max(0, options.contextTurns ?? 4);
  const fallback = options.fallback ?? createOfflineDistiller();
  const stats: DistillerStats = { batches: 0, repairs: 0, fallbacks: 0 };
  const { provider, modelId } = describeModel(options.model);

  const ask = async (messages: ModelMessage[], schema: z.ZodType<ModelBatch>, signal: AbortSignal | undefined) => {
    const result = await callModel(options.model, 'distill', { ...options, signal }, (abortSignal) =>
      generateText({ model: options.model, system: distillSystemPrompt, messages, output: Output.object({ schema }), maxRetries: 0, abortSignal }),
    );
    return { output: result.output, text: result.text };
  };

  const distilBatch = async (request: DistillRequest, batchIndex: number, turns: DistillRequest['session']['turns'], context: DistillRequest['session']['turns']): Promise<ModelBatch | { problem: string }> => {
    const schema = modelBatchSchema.superRefine((batch, issues) => {
      for (const problem of checkBatch(batch, turns.length)) issues.addIssue({ code: 'custom', message: problem });
    }) as unknown as z.ZodType<ModelBatch>;
    const prompt = distillPrompt({ sessionId: request.session.id, sessionDate: request.session.date ?? turns[0]?.timestamp, speakers: request.conversation.speakers, context, turns });
    const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
    try {
      return (await ask(messages, schema, request.signal)).output;
    } catch (error) {
      if (!NoObjectGeneratedError.isInstance(error)) throw error;
      const problem = problemOf(error);
      stats.repairs += 1;
      options.onEvent?.({ type: 'repair', sessionId: request.session.id, batch: batchIndex, problem });
      const repair: ModelMessage[] = [...messages, { role: 'assistant', content: error.text ?? '' }, { role: 'user', content: repairPrompt(problem) }];
      try {
        return (await ask(repair, schema, request.signal)).output;
      } catch (second) {
        if (!NoObjectGeneratedError.isInstance(second)) throw second;
        return { problem: problemOf(second) };
      }
    }
  };

  return {
    specificationVersion: distillerSpecificationVersion,
    name: `llm:${provider}/${modelId}`,
    get stats() {
      return { ...stats };
    },
    async distill(request): Promise<DistillResult> {
      request.signal?.throwIfAborted();
      const tenant = tenantOf(request.scope) as Scope;
      const units = sessionTurnUnits(tenant, request.conversation, request.session);
      const all = request.session.turns;
      const freshIndices = all.flatMap((turn, index) => (request.knownTurnIds.has(turn.id) ? [] : [index]));
      if (freshIndices.length === 0) return emptyResult();
      const distilled: DistilledBatch[] = [];
      const fellBack: Array<Promise<DistillResult>> = [];
      for (let start = 0, batchIndex = 0; start < freshIndices.length; start += batchTurns, batchIndex++) {
        const indices = freshIndices.slice(start, start + batchTurns);
        const first = indices[0] as number;
        const turns = indices.map((index) => all[index] as (typeof all)[number]);
        const context = all.slice(Math.max(0, first - contextTurns), first);
        stats.batches += 1;
        const outcome = await distilBatch(request, batchIndex, turns, context);
        if ('problem' in outcome) {
          stats.fallbacks += 1;
          options.onEvent?.({ type: 'fallback', sessionId: request.session.id, batch: batchIndex, turns: turns.length, problem: outcome.problem });
          const inBatch = new Set(turns.map((turn) => turn.id));
          // The fallback sees the whole session (for context) but produces only this batch's turns.
          const knownTurnIds = new Set([...request.knownTurnIds, ...all.filter((turn) => !inBatch.has(turn.id)).map((turn) => turn.id)]);
          fellBack.push(Promise.resolve(fallback.distill({ ...request, knownTurnIds })) as Promise<DistillResult>);
          continue;
        }
        distilled.push({ turns: indices.map((index) => units[index] as Turn), output: outcome });
      }
      const parts = [await assembleSession(request, distilled), ...(await Promise.all(fellBack))];
      return parts.length === 1 ? (parts[0] as DistillResult) : mergeResults(parts);
    },
  };
}
