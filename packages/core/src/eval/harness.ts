import type { BenchmarkQuestion, Conversation } from '../ingest/conversation.js';
import type { Scope } from '../model/scope.js';
import type { Answerer, Judge, ModelUsageTotals } from '../ports/answerer.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Evidence } from '../recall/recall-types.js';
import { renderEvidence } from '../recall/render-evidence.js';
import type { RecallContext, RecallStrategyFactory } from '../recall/strategy.js';
import {
  allAt,
  anyAt,
  contextTokensToTurns,
  rankedSessions,
  rankedTurns,
  recallAt,
  recallWithinTokens,
  type RankedItem,
} from './metrics.js';
import { answerF1, bleu1, locomoAnswerF1 } from './answer-metrics.js';
import { aggregateReports, type StrategyReport } from './report.js';
import { selectScoredQuestions, type BenchmarkName, type ScoredQuestion } from './scored-questions.js';

/** Evidence items asked of every strategy. */
export const defaultEvalK = 50;
/** The fixed context budget of R@400tok. */
export const defaultTokenBudget = 400;

/** Metric names of LoCoMo, in report order. */
export const locomoMetrics = ['R@1', 'R@5', 'R@10', 'R@20', 'R@400tok', 'contextTokens@10'] as const;
/** Metric names of LongMemEval, in report order. */
export const longMemEvalMetrics = ['session_any@5', 'session_any@10', 'session_all@5', 'session_all@10', 'turn_any@10', 'contextTokens@10'] as const;

/** The metric names of a benchmark, in report order. */
export function benchmarkMetrics(benchmark: BenchmarkName): ReadonlyArray<string> {
  return benchmark === 'locomo' ? locomoMetrics : longMemEvalMetrics;
}

/** Answer metric names: F1 and BLEU-1 with an answerer, J with a judge too. */
export function answerMetrics(options: { answerer?: unknown; judge?: unknown }): string[] {
  if (options.answerer === undefined) return [];
  return options.judge === undefined ? ['F1', 'BLEU-1'] : ['F1', 'BLEU-1', 'J'];
}

function usageDelta(before: ModelUsageTotals, after: ModelUsageTotals): ModelUsageTotals {
  return { calls: after.calls - before.calls, inputTokens: after.inputTokens - before.inputTokens, outputTokens: after.outputTokens - before.outputTokens };
}

/** What one strategy returned for one question, reduced to what the metrics and the dump need. */
export interface QuestionOutcome {
  /** Strategy name. */
  strategy: string;
  /** Question id. */
  id: string;
  /** Category name. */
  category: string;
  /** Question text. */
  question: string;
  /** Distinct source turn ids in rank order. */
  turns: string[];
  /** Distinct source session ids in rank order. */
  sessions: string[];
  /** The ranked items: rendered size in tokens and source turn ids. */
  items: Array<{ tokens: number; turns: string[] }>;
  /** Metric values; a metric that does not apply to the question is absent. */
  metrics: Record<string, number>;
  /** Wall time of the recall call, in milliseconds. */
  recallMs: number;
  /** The answer written from the evidence, with an answerer. */
  answer?: string;
  /** The gold answer it was scored against. */
  gold?: string;
  /** The judge's verdict, with a judge. */
  correct?: boolean;
  /** Model calls and tokens of this question's recall and answer (the judge's are not counted), with `modelUsage`. */
  modelUsage?: ModelUsageTotals;
}

/** Progress of a run, for a reporter on stderr. */
export type EvalProgress =
  | { phase: 'ingest'; conversation: string; index: number; total: number; turns: number; ms: number }
  | { phase: 'recall'; conversation: string; index: number; total: number; questions: number; strategies: number };

/** Options of {@link runEval}. */
export interface EvalOptions {
  /** Which benchmark the data is, for question selection and metrics. */
  benchmark: BenchmarkName;
  /** Conversations to ingest (each into its own scope, `userId` = conversation id). */
  conversations: ReadonlyArray<Conversation>;
  /** Questions; those of conversations not given are ignored. */
  questions: ReadonlyArray<BenchmarkQuestion>;
  /** The store written by `ingest` and read by the strategies. */
  store: MemoryStore;
  /** Writes one conversation into the store under `scope` (e.g. `engram.add`). */
  ingest: (conversation: Conversation, scope: Scope) => Promise<unknown>;
  /** Embeds query texts, for strategies with dense search. */
  embed: RecallContext['embed'];
  /** The strategies to score, by name, in report order. */
  strategies: Readonly<Record<string, RecallStrategyFactory>>;
  /** Evidence items asked per recall. @default 50 */
  k?: number;
  /** Context budget of the token-budgeted recall, in tokens. @default 400 */
  tokenBudget?: number;
  /** Forget each conversation's scope once its questions are scored, to bound memory. @default true */
  forget?: boolean;
  /** Counts the tokens of a rendered evidence item. @default gpt-tokenizer `countTokens` (o200k_base) */
  countTokens?: (text: string) => number;
  /** Called as conversations are ingested and recalled. */
  onProgress?: (progress: EvalProgress) => void;
  /** Called for every scored (strategy, question) pair as soon as it is known. */
  onOutcome?: (outcome: QuestionOutcome) => void;
  /** Writes an answer from each question's evidence (context-preserved synthesis); adds F1 and BLEU-1 against the gold answer. */
  answerer?: Answerer;
  /** Grades each answer CORRECT / WRONG; adds J. Used only with an answerer. */
  judge?: Judge;
  /** Evidence items the answerer is given (the best of the ranking). @default 10 */
  answerK?: number;
  /** Cumulative model calls and tokens (e.g. `@engram/llm`'s usage meter): read around ingest and each question to report costs. */
  modelUsage?: () => ModelUsageTotals;
}

/** The result of {@link runEval}. */
export interface EvalRun {
  /** One report per strategy, in the order given. */
  reports: StrategyReport[];
  /** Every scored (strategy, question) outcome. */
  outcomes: QuestionOutcome[];
}

function scopeOf(conversation: Conversation): Scope {
  return { userId: conversation.id };
}

/** Scores one ranking of one question: the per-question metric values of its benchmark. */
export function scoreQuestion(
  benchmark: BenchmarkName,
  scored: Pick<ScoredQuestion, 'goldTurns' | 'goldSessions' | 'goldUserTurns'>,
  items: ReadonlyArray<RankedItem>,
  tokenBudget = defaultTokenBudget,
): Record<string, number> {
  const turns = rankedTurns(items);
  const metrics: Record<string, number> = {};
  if (benchmark === 'locomo') {
    for (const k of [1, 5, 10, 20]) metrics[`R@${k}`] = recallAt(turns, scored.goldTurns, k);
    metrics[`R@${tokenBudget}tok`] = recallWithinTokens(items, scored.goldTurns, tokenBudget);
  } else {
    const sessions = rankedSessions(items);
    for (const k of [5, 10]) metrics[`session_any@${k}`] = anyAt(sessions, scored.goldSessions, k) ? 1 : 0;
    for (const k of [5, 10]) metrics[`session_all@${k}`] = allAt(sessions, scored.goldSessions, k) ? 1 : 0;
    // Following the official scorer: only user-side has_answer turns are gold; questions without one are skipped.
    if (scored.goldUserTurns.length > 0) metrics['turn_any@10'] = anyAt(turns, scored.goldUserTurns, 10) ? 1 : 0;
  }
  metrics['contextTokens@10'] = contextTokensToTurns(items, 10);
  return metrics;
}

async function listTurnCount(store: MemoryStore, scope: Scope): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await store.listUnits(scope, { kinds: ['turn'], limit: 1000, ...(after === undefined ? {} : { after }) });
    count += page.length;
    const last = page[page.length - 1];
    if (page.length < 1000 || last === undefined) return count;
    after = last.id;
  }
}

/**
 * gpt-tokenizer's `countTokens` (o200k_base), loaded on first use: its encoding tables take a few
 * hundred milliseconds and tens of megabytes, which nothing but the eval needs.
 */
async function o200kTokenCounter(): Promise<(text: string) => number> {
  return (await import('gpt-tokenizer')).countTokens;
}

/**
 * Runs a benchmark: ingests each conversation into its own scope, recalls every scored question with
 * every strategy (k = 50 by default), and scores the rankings expanded to their source turns.
 */
export async function runEval(options: EvalOptions): Promise<EvalRun> {
  const k = options.k ?? defaultEvalK;
  const tokenBudget = options.tokenBudget ?? defaultTokenBudget;
  const count = options.countTokens ?? (await o200kTokenCounter());
  const { scored, skipped } = selectScoredQuestions(options.benchmark, options.conversations, options.questions);
  const byConversation = new Map<string, ScoredQuestion[]>();
  for (const item of scored) {
    const list = byConversation.get(item.question.conversationId) ?? [];
    list.push(item);
    byConversation.set(item.question.conversationId, list);
  }
  const context: RecallContext = { store: options.store, embed: options.embed };
  const names = Object.keys(options.strategies);
  const outcomes: QuestionOutcome[] = [];
  let ingestMs = 0;
  const zero: ModelUsageTotals = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const usageNow = () => (options.modelUsage ? { ...options.modelUsage() } : zero);
  let ingestUsage = zero;
  let judgeUsage = zero;
  const answerK = options.answerK ?? 10;
  const total = options.conversations.length;
  for (const [index, conversation] of options.conversations.entries()) {
    const questions = byConversation.get(conversation.id) ?? [];
    if (questions.length === 0) continue;
    const scope = scopeOf(conversation);
    const started = performance.now();
    const usageBefore = usageNow();
    await options.ingest(conversation, scope);
    const ms = performance.now() - started;
    ingestMs += ms;
    const ingestDelta = usageDelta(usageBefore, usageNow());
    ingestUsage = { calls: ingestUsage.calls + ingestDelta.calls, inputTokens: ingestUsage.inputTokens + ingestDelta.inputTokens, outputTokens: ingestUsage.outputTokens + ingestDelta.outputTokens };
    if (options.onProgress) {
      const turns = await listTurnCount(options.store, scope);
      options.onProgress({ phase: 'ingest', conversation: conversation.id, index, total, turns, ms });
    }
    const tokenCache = new Map<string, number>();
    const tokensOf = (evidence: Evidence): number => {
      let tokens = tokenCache.get(evidence.unit.id);
      if (tokens === undefined) {
        tokens = count(renderEvidence(evidence));
        tokenCache.set(evidence.unit.id, tokens);
      }
      return tokens;
    };
    for (const name of names) {
      const factory = options.strategies[name] as RecallStrategyFactory;
      // A fresh strategy per conversation: caches (e.g. orama-turns' index) never outlive the scope.
      const strategy = factory(context);
      for (const item of questions) {
        const questionUsage = usageNow();
        const questionStarted = performance.now();
        const result = await strategy.recall(item.question.question, {
          scope,
          k,
          ...(item.question.questionDate === undefined ? {} : { questionDate: item.question.questionDate }),
        });
        const recallMs = performance.now() - questionStarted;
        const items = result.evidence.map((evidence) => ({ sources: evidence.sources, tokens: tokensOf(evidence) }));
        const outcome: QuestionOutcome = {
          strategy: name,
          id: item.question.id,
          category: item.category,
          question: item.question.question,
          turns: rankedTurns(items),
          sessions: rankedSessions(items),
          items: items.map((ranked) => ({ tokens: ranked.tokens, turns: rankedTurns([ranked]) })),
          metrics: scoreQuestion(options.benchmark, item, items, tokenBudget),
          recallMs,
        };
        const gold = item.question.answer;
        if (options.answerer !== undefined && gold !== undefined) {
          const { answer } = await options.answerer.answer({
            question: item.question.question,
            evidence: result.evidence.slice(0, answerK),
            category: item.category,
            ...(item.question.questionDate === undefined ? {} : { questionDate: item.question.questionDate }),
          });
          outcome.answer = answer;
          outcome.gold = gold;
          outcome.metrics.F1 = options.benchmark === 'locomo' ? locomoAnswerF1(answer, gold, item.category) : answerF1(answer, gold);
          outcome.metrics['BLEU-1'] = bleu1(answer, gold);
        }
        if (options.modelUsage) outcome.modelUsage = usageDelta(questionUsage, usageNow());
        if (options.judge !== undefined && outcome.answer !== undefined && gold !== undefined) {
          const judgeBefore = usageNow();
          const { correct } = await options.judge.judge({ question: item.question.question, gold, answer: outcome.answer, category: item.category, ...(item.question.abstention ? { abstention: true } : {}) });
          outcome.correct = correct;
          outcome.metrics.J = correct ? 1 : 0;
          const judged = usageDelta(judgeBefore, usageNow());
          judgeUsage = { calls: judgeUsage.calls + judged.calls, inputTokens: judgeUsage.inputTokens + judged.inputTokens, outputTokens: judgeUsage.outputTokens + judged.outputTokens };
        }
        outcomes.push(outcome);
        options.onOutcome?.(outcome);
      }
    }
    options.onProgress?.({ phase: 'recall', conversation: conversation.id, index, total, questions: questions.length, strategies: names.length });
    if (options.forget ?? true) await options.store.forget(scope);
  }
  const retrievalMetrics = options.benchmark === 'locomo' ? benchmarkMetrics('locomo').map((name) => name.replace('400tok', `${tokenBudget}tok`)) : benchmarkMetrics(options.benchmark);
  const metricNames = [...retrievalMetrics, ...answerMetrics(options)];
  const reports = aggregateReports({
    benchmark: options.benchmark,
    strategies: names,
    metrics: metricNames,
    outcomes,
    ingestMs,
    skipped,
    ...(options.modelUsage ? { modelUsage: { ingest: ingestUsage, judge: judgeUsage } } : {}),
  });
  return { reports, outcomes };
}
