import type { Evidence } from '../recall/recall-types.js';

/** Version of the {@link Answerer} and {@link Judge} contracts. */
export const answererSpecificationVersion = 'v1' as const;

/** What an answer prompt is written for: a benchmark's own prompt, or a plain chat. */
export type AnswerStyle = 'locomo' | 'longmemeval' | 'chat';

/** One question to answer from recalled evidence. */
export interface AnswerRequest {
  /** The question. */
  question: string;
  /** The evidence, best first; each item reaches the model with its coordinates (context-preserved synthesis). */
  evidence: ReadonlyArray<Pick<Evidence, 'unit'>>;
  /** When the question is asked (ISO), when known. */
  questionDate?: string;
  /** The benchmark category or question type, when any. */
  category?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** The answerer port: writes the answer to a question from recalled evidence. */
export interface Answerer {
  /** Contract version. */
  readonly specificationVersion: typeof answererSpecificationVersion;
  /** Name used in reports, e.g. `llm:openai/gpt-4.1-mini`. */
  readonly name: string;
  /** Answers one question. */
  answer(request: AnswerRequest): Promise<{ answer: string }>;
}

/** One answer to grade against the gold answer. */
export interface JudgeRequest {
  /** The question. */
  question: string;
  /** The expected answer. */
  gold: string;
  /** The answer to grade. */
  answer: string;
  /** The benchmark category or question type (LongMemEval grades per type). */
  category: string;
  /** True when the right response is to say the memory does not hold the answer. */
  abstention?: boolean;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** The judge port: grades an answer CORRECT or WRONG (the benchmarks' LLM-judge, J). */
export interface Judge {
  /** Contract version. */
  readonly specificationVersion: typeof answererSpecificationVersion;
  /** Name used in reports. */
  readonly name: string;
  /** Grades one answer. */
  judge(request: JudgeRequest): Promise<{ correct: boolean }>;
}

/** Model calls and tokens spent so far, as a cumulative counter. */
export interface ModelUsageTotals {
  /** Model calls. */
  calls: number;
  /** Input tokens. */
  inputTokens: number;
  /** Output tokens. */
  outputTokens: number;
}
