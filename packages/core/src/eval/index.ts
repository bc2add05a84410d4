export {
  runEval,
  answerMetrics,
  scoreQuestion,
  benchmarkMetrics,
  locomoMetrics,
  longMemEvalMetrics,
  defaultEvalK,
  defaultTokenBudget,
  type EvalOptions,
  type EvalRun,
  type EvalProgress,
  type QuestionOutcome,
} from './harness.js';
export {
  rankedTurns,
  rankedSessions,
  recallAt,
  anyAt,
  allAt,
  itemsWithinBudget,
  recallWithinTokens,
  contextTokensToTurns,
  percentile,
  type RankedItem,
} from './metrics.js';
export { aggregateReports, formatJsonReports, formatDumpLine, formatTableReport, type StrategyReport, type MetricValues } from './report.js';
export {
  selectScoredQuestions,
  locomoCategoryName,
  isAbstention,
  locomoScoredCategories,
  longMemEvalQuestionTypes,
  type BenchmarkName,
  type ScoredQuestion,
  type SkipCounts,
} from './scored-questions.js';
export { evalStrategies, selectStrategies } from './strategies.js';
export { createEvalIngestion, type EvalIngestion } from './eval-ingestion.js';
export { parseEvalArguments, evalUsage, UsageError, type EvalCliOptions } from './eval-cli-options.js';
export { answerF1, multiAnswerF1, locomoAnswerF1, bleu1, normalizeAnswer } from './answer-metrics.js';
