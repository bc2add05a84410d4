import { generateText, NoObjectGeneratedError, Output, ToolChoiceViolationError, type LanguageModel } from 'ai';
import { navigatorSpecificationVersion, type Candidate, type NavigationAction, type NavigationDecision, type NavigationState, type Navigator } from '@engram/core';
import { z } from 'zod';
import { callModel, describeModel, type ModelCallOptions } from '../call-model.js';
import { navigateSystemPrompt, routePrompt, routeSystemPrompt, selectPrompt } from './navigation-prompt.js';
import { navigationTools, toAction } from './navigation-tools.js';

/** Options of {@link createModelNavigator}. */
export interface ModelNavigatorOptions extends ModelCallOptions {
  /** The model that navigates. */
  model: LanguageModel;
  /** Context items shown to the model when it selects. @default 12 */
  contextItems?: number;
  /** Candidates the model routes per turn (the best by the loop's score); the rest are dropped. @default 30 */
  routeCandidates?: number;
  /** `model`: the model routes (f_route); `keep-all`: every candidate shown is kept (one call per turn fewer). @default 'model' */
  route?: 'model' | 'keep-all';
}

const routeSchema = z.object({ keep: z.array(z.string()), reason: z.string() });

/**
 * The model navigator (SPEC §4, MRAgent's navigate mode) for core's active reconstruction: `select`
 * offers the model the toolkit as AI SDK tools (no `execute`: the model proposes, core's loop
 * runs) and turns its valid calls into actions, `stop` into the stop decision; `route` asks which
 * candidates to keep, by short labels mapped back to unit ids. Calls to tools that do not exist,
 * with bad arguments, or naming candidates not offered are dropped; scope, budgets (`T`, `K`) and
 * the trace stay with core's loop, so text inside memories cannot widen them.
 */
export function createModelNavigator(options: ModelNavigatorOptions): Navigator {
  const contextItems = options.contextItems ?? 12;
  const routeCandidates = options.routeCandidates ?? 30;
  const { provider, modelId } = describeModel(options.model);
  return {
    specificationVersion: navigatorSpecificationVersion,
    name: `llm:${provider}/${modelId}`,
    async select(state: NavigationState, callOptions = {}): Promise<NavigationDecision> {
      let result;
      try {
        result = await callModel(options.model, 'navigate', { ...options, signal: callOptions.signal }, (abortSignal) =>
          generateText({
            model: options.model,
            system: navigateSystemPrompt,
            prompt: selectPrompt(state, contextItems),
            tools: navigationTools,
            toolChoice: 'required',
            maxRetries: 0,
            abortSignal,
          }),
        );
      } catch (error) {
        if (!ToolChoiceViolationError.isInstance(error)) throw error;
        return { actions: [], stop: { reason: 'model replied without calling a tool' } };
      }
      const actions: NavigationAction[] = [];
      let stop: { reason: string } | undefined;
      for (const call of result.toolCalls) {
        if ((call as { invalid?: boolean }).invalid === true) continue;
        if (call.toolName === 'stop') {
          const reason = (call.input as { reason?: unknown }).reason;
          stop = { reason: `model: ${typeof reason === 'string' ? reason : 'stop'}` };
          continue;
        }
        const action = toAction(call.toolName, call.input);
        if (action !== undefined) actions.push(action);
      }
      if (actions.length === 0 && stop === undefined) stop = { reason: 'model proposed no valid action' };
      return stop === undefined ? { actions } : { actions, stop };
    },
    async route(state: NavigationState, candidates: ReadonlyArray<Candidate>, callOptions = {}) {
      const shown = candidates.slice(0, routeCandidates);
      if (shown.length === 0) return { keep: [], reason: 'no candidates' };
      if (options.route === 'keep-all') return { keep: shown.map((candidate) => candidate.unit.id), reason: `kept the ${shown.length} best candidates` };
      let result;
      try {
        result = await callModel(options.model, 'navigate', { ...options, signal: callOptions.signal }, (abortSignal) =>
          generateText({ model: options.model, system: routeSystemPrompt, prompt: routePrompt(state, shown), output: Output.object({ schema: routeSchema }), maxRetries: 0, abortSignal }),
        );
      } catch (error) {
        // A routing reply that fails its schema prunes nothing: the loop's own ranking still orders H.
        if (!NoObjectGeneratedError.isInstance(error)) throw error;
        return { keep: shown.map((candidate) => candidate.unit.id), reason: 'model reply failed its schema: kept every candidate shown' };
      }
      const keep = new Set<string>();
      for (const label of result.output.keep) {
        const index = /^c(\d+)$/.exec(label.trim())?.[1];
        const candidate = index === undefined ? undefined : shown[Number(index)];
        if (candidate !== undefined) keep.add(candidate.unit.id);
      }
      return { keep: [...keep], reason: `model: ${result.output.reason}` };
    },
  };
}
