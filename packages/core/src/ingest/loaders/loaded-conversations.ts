import { z } from 'zod';
import type { BenchmarkQuestion, Conversation } from '../conversation.js';

/** What every loader returns: the conversations and, for benchmarks, their questions. */
export interface LoadedConversations {
  /** Conversations in input order. */
  conversations: Conversation[];
  /** Benchmark questions in input order; empty for plain chat logs. */
  questions: BenchmarkQuestion[];
}

/** Options shared by the parsers. */
export interface LoaderOptions {
  /** Where the value came from (usually the file name); it prefixes every error message. */
  source?: string;
}

/** True for a plain (non-array) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `key` from `value` when it is an object (used to name a record before it is validated). */
export function peek(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

/** An answer as the benchmarks write it: a string, or a number in a few cases (e.g. `2022`). */
export const answerSchema = z.union([z.string(), z.number()], {
  error: (issue) => (issue.input === undefined ? 'missing (expected string or number)' : 'expected string or number'),
});

/** Renders an answer as a string (`2022` → `"2022"`). */
export function answerText(answer: string | number): string {
  return typeof answer === 'number' ? String(answer) : answer;
}
