import { generateText, NoObjectGeneratedError, Output, type LanguageModel } from 'ai';
import { answererSpecificationVersion, renderContext, type Answerer, type AnswerStyle, type Judge } from '@engram/core';
import { z } from 'zod';
import { callModel, describeModel, type ModelCallOptions } from '../call-model.js';
import { chatAnswerPrompt, locomoAnswerPrompt, locomoJudgePrompt, longMemEvalAnswerPrompt, longMemEvalJudgePrompt } from './answer-prompts.js';

/** Options of {@link createModelAnswerer}. */
export interface ModelAnswererOptions extends ModelCallOptions {
  /** The model that answers. */
  model: LanguageModel;
  /** Which prompt: LoCoMo's, LongMemEval's, or a plain one. @default 'chat' */
  style?: AnswerStyle;
}

/**
 * The answerer (RaMem's context-preserved synthesis): the evidence reaches the model rendered with
 * its coordinates (`[8 May 2023; event 7 May] text`), under the benchmark's own answer prompt.
 */
export function createModelAnswerer(options: ModelAnswererOptions): Answerer {
  const style = options.style ?? 'chat';
  const { provider, modelId } = describeModel(options.model);
  return {
    specificationVersion: answererSpecificationVersion,
    name: `llm:${provider}/${modelId}`,
    async answer(request) {
      const memories = renderContext(request.evidence);
      const prompt =
        style === 'locomo'
          ? locomoAnswerPrompt(memories, request.question)
          : style === 'longmemeval'
            ? longMemEvalAnswerPrompt(memories, request.question, request.questionDate)
            : chatAnswerPrompt(memories, request.question, request.questionDate);
      const result = await callModel(options.model, 'answer', { ...options, signal: request.signal }, (abortSignal) =>
        generateText({ model: options.model, prompt, maxRetries: 0, abortSignal }),
      );
      return { answer: result.text.trim().replace(/^answer:\s*/i, '') };
    },
  };
}

/** Options of {@link createModelJudge}. */
export interface ModelJudgeOptions extends ModelCallOptions {
  /** The judging model. */
  model: LanguageModel;
  /** LoCoMo's CORRECT/WRONG judge or LongMemEval's per-question-type judge. */
  benchmark: 'locomo' | 'longmemeval';
}

const locomoLabel = z.object({ label: z.enum(['CORRECT', 'WRONG']) });

/**
 * The LLM judge (J): LoCoMo's CORRECT/WRONG prompt with a JSON label, or LongMemEval's prompt for
 * the question's type (temporal reasoning forgives off-by-one counts, knowledge updates want the
 * latest value, preferences are graded against a rubric, abstentions must say "unanswerable").
 */
export function createModelJudge(options: ModelJudgeOptions): Judge {
  const { provider, modelId } = describeModel(options.model);
  return {
    specificationVersion: answererSpecificationVersion,
    name: `llm:${provider}/${modelId}`,
    async judge(request) {
      if (options.benchmark === 'locomo') {
        const prompt = locomoJudgePrompt(request.question, request.gold, request.answer);
        try {
          const result = await callModel(options.model, 'judge', { ...options, signal: request.signal }, (abortSignal) =>
            generateText({ model: options.model, prompt, output: Output.object({ schema: locomoLabel }), maxRetries: 0, abortSignal }),
          );
          return { correct: result.output.label === 'CORRECT' };
        } catch (error) {
          // Like LoCoMo's script: a reply that is not the JSON asked for is read for its label.
          if (!NoObjectGeneratedError.isInstance(error)) throw error;
          const text = error.text ?? '';
          return { correct: /\bCORRECT\b/.test(text) && !/\bWRONG\b/.test(text) };
        }
      }
      const prompt = longMemEvalJudgePrompt(request.category, request.question, request.gold, request.answer, request.abstention === true);
      const result = await callModel(options.model, 'judge', { ...options, signal: request.signal }, (abortSignal) =>
        generateText({ model: options.model, prompt, maxRetries: 0, abortSignal }),
      );
      return { correct: /\byes\b/i.test(result.text) };
    },
  };
}
