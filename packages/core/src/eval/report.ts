import type { ModelUsageTotals } from '../ports/answerer.js';
import type { QuestionOutcome } from './harness.js';
import { percentile } from './metrics.js';
import { locomoScoredCategories, longMemEvalQuestionTypes, type BenchmarkName, type SkipCounts } from './scored-questions.js';

/** Metric means of a set of questions; `null` where the metric applied to none of them. */
export type MetricValues = Record<string, number | null>;

/** The scores of one strategy on one benchmark. */
export interface StrategyReport {
  /** `locomo` or `longmemeval`. */
  benchmark: BenchmarkName;
  /** Strategy name. */
  strategy: string;
  /** Scored questions. */
  questions: number;
  /** Means over all scored questions (each metric over the questions it applies to). */
  overall: MetricValues;
  /** Means per category, with the category's question count. */
  byCategory: Record<string, { questions: number } & MetricValues>;
  /** Questions each metric was averaged over (differs from `questions` for `turn_any@10`). */
  metricQuestions: Record<string, number>;
  /** Questions left out, by reason (adversarial, abstention, no evidence). */
  skipped: SkipCounts;
  /** Wall time: ingest of all conversations (shared by the strategies) and recall latency per question. */
  timing: { ingestMs: number; recallP50Ms: number; recallP95Ms: number };
  /** Model cost, when a model was used: ingest totals (shared by the strategies), per-question means of recall + answer, judge totals. */
  model?: { ingest: ModelUsageTotals; perQuestion: ModelUsageTotals; judge: ModelUsageTotals };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function isTokenMetric(metric: string): boolean {
  return metric.startsWith('contextTokens');
}

function means(outcomes: ReadonlyArray<QuestionOutcome>, metrics: ReadonlyArray<string>): { values: MetricValues; counts: Record<string, number> } {
  const values: MetricValues = {};
  const counts: Record<string, number> = {};
  for (const metric of metrics) {
    let sum = 0;
    let n = 0;
    for (const outcome of outcomes) {
      const value = outcome.metrics[metric];
      if (value === undefined) continue;
      sum += value;
      n++;
    }
    values[metric] = n === 0 ? null : round(sum / n, isTokenMetric(metric) ? 1 : 4);
    counts[metric] = n;
  }
  return { values, counts };
}

function categoryOrder(benchmark: BenchmarkName, seen: ReadonlyArray<string>): string[] {
  const known: ReadonlyArray<string> = benchmark === 'locomo' ? locomoScoredCategories : longMemEvalQuestionTypes;
  const extra = [...new Set(seen)].filter((name) => !known.includes(name)).sort();
  return [...known.filter((name) => seen.includes(name)), ...extra];
}

/** Aggregates per-question outcomes into one report per strategy. */
export function aggregateReports(input: {
  benchmark: BenchmarkName;
  strategies: ReadonlyArray<string>;
  metrics: ReadonlyArray<string>;
  outcomes: ReadonlyArray<QuestionOutcome>;
  ingestMs: number;
  skipped: SkipCounts;
  modelUsage?: { ingest: ModelUsageTotals; judge: ModelUsageTotals };
}): StrategyReport[] {
  return input.strategies.map((strategy) => {
    const mine = input.outcomes.filter((outcome) => outcome.strategy === strategy);
    const overall = means(mine, input.metrics);
    const byCategory: StrategyReport['byCategory'] = {};
    for (const category of categoryOrder(input.benchmark, mine.map((outcome) => outcome.category))) {
      const inCategory = mine.filter((outcome) => outcome.category === category);
      byCategory[category] = { questions: inCategory.length, ...means(inCategory, input.metrics).values };
    }
    const latencies = mine.map((outcome) => outcome.recallMs);
    const mean = (pick: (usage: ModelUsageTotals) => number) => (mine.length === 0 ? 0 : round(mine.reduce((sum, outcome) => sum + (outcome.modelUsage ? pick(outcome.modelUsage) : 0), 0) / mine.length, 1));
    const model = input.modelUsage === undefined
      ? {}
      : { model: { ingest: { ...input.modelUsage.ingest }, perQuestion: { calls: mean((usage) => usage.calls), inputTokens: mean((usage) => usage.inputTokens), outputTokens: mean((usage) => usage.outputTokens) }, judge: { ...input.modelUsage.judge } } };
    return {
      benchmark: input.benchmark,
      strategy,
      questions: mine.length,
      overall: overall.values,
      byCategory,
      metricQuestions: overall.counts,
      skipped: { ...input.skipped },
      timing: {
        ingestMs: Math.round(input.ingestMs),
        recallP50Ms: round(percentile(latencies, 50), 2),
        recallP95Ms: round(percentile(latencies, 95), 2),
      },
      ...model,
    };
  });
}

/** The `--json` output: one JSON object per strategy, one per line. */
export function formatJsonReports(reports: ReadonlyArray<StrategyReport>): string {
  return reports.map((report) => JSON.stringify(report)).join('\n');
}

/**
 * One `--dump` line: the ranked distinct source turns and sessions of one question (plus the rendered
 * size and turns of every ranked item, so the token-budget metrics can be recomputed too).
 */
export function formatDumpLine(outcome: QuestionOutcome, withStrategy: boolean): string {
  return JSON.stringify({
    ...(withStrategy ? { strategy: outcome.strategy } : {}),
    id: outcome.id,
    category: outcome.category,
    question: outcome.question,
    turns: outcome.turns,
    sessions: outcome.sessions,
    items: outcome.items,
    ...(outcome.answer === undefined ? {} : { answer: outcome.answer, gold: outcome.gold }),
    ...(outcome.correct === undefined ? {} : { correct: outcome.correct }),
    ...(outcome.modelUsage === undefined ? {} : { modelUsage: outcome.modelUsage }),
  });
}

function cell(value: number | null | undefined, metric: string): string {
  if (value === null || value === undefined) return '–';
  return isTokenMetric(metric) ? value.toFixed(1) : value.toFixed(3);
}

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) => row.map((value, column) => (column < 2 ? value.padEnd(widths[column] ?? 0) : value.padStart(widths[column] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** A readable table: one row per (category, strategy), metrics as columns, then timing. */
export function formatTableReport(reports: ReadonlyArray<StrategyReport>): string {
  const first = reports[0];
  if (first === undefined) return 'no strategies';
  const metrics = Object.keys(first.overall);
  const rows: string[][] = [['category', 'strategy', 'n', ...metrics]];
  const categories = ['overall', ...Object.keys(first.byCategory)];
  for (const category of categories) {
    for (const report of reports) {
      const values = category === 'overall' ? report.overall : report.byCategory[category];
      const n = category === 'overall' ? report.questions : (report.byCategory[category]?.questions ?? 0);
      rows.push([category, report.strategy, String(n), ...metrics.map((metric) => cell(values?.[metric], metric))]);
    }
  }
  const skipped = Object.entries(first.skipped).map(([reason, n]) => `${n} ${reason}`).join(', ');
  const counts = Object.entries(first.metricQuestions)
    .filter(([, n]) => n !== first.questions)
    .map(([metric, n]) => `${metric} over ${n}`)
    .join(', ');
  const timing = reports
    .map((report) => `${report.strategy}: recall p50 ${report.timing.recallP50Ms} ms, p95 ${report.timing.recallP95Ms} ms`)
    .join('; ');
  const usage = (value: ModelUsageTotals) => `${value.calls} calls, ${value.inputTokens} in / ${value.outputTokens} out tokens`;
  const model = first.model === undefined
    ? []
    : [
        `model: ingest ${usage(first.model.ingest)}; judge ${usage(first.model.judge)}`,
        ...reports.map((report) => (report.model ? `model per question (${report.strategy}, recall + answer): ${usage(report.model.perQuestion)}` : '')).filter((line) => line.length > 0),
      ];
  const lines = [
    `${first.benchmark}: ${first.questions} questions scored${skipped ? ` (skipped: ${skipped})` : ''}${counts ? `; ${counts}` : ''}`,
    '',
    table(rows),
    '',
    `ingest ${first.timing.ingestMs} ms; ${timing}`,
    ...model,
  ];
  return lines.join('\n');
}
