import { parseArgs } from 'node:util';
import type { RecallStrategyFactory } from '../recall/strategy.js';
import type { BenchmarkName } from './scored-questions.js';
import { evalStrategies, selectStrategies } from './strategies.js';

/** The usage text, listing the strategies of `registry`. */
export function evalUsage(registry: Readonly<Record<string, RecallStrategyFactory>> = evalStrategies): string {
  return `usage: pnpm -s run eval <locomo|longmemeval> --data <path> --strategy <name>[,<name>…|all]
         [--json] [--dump <file.jsonl>] [--store memory|lmdb] [--limit N] [--k N]
         [--answer <provider:model>] [--judge <provider:model>] [--distill <provider:model>] [--navigate <provider:model>]
strategies: ${Object.keys(registry).join(', ')}, all
models (need @engram/llm, built): providers openai | anthropic | ollama | openai-compatible, e.g. --answer openai:gpt-4.1-mini;
  --answer adds F1 and BLEU-1, --judge adds J, --distill ingests with the model distiller, --navigate runs active
  recall with the model navigator; calls and tokens are reported for ingest and per question.`;
}

/** A bad command line: the CLI prints the message and the usage, and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A parsed eval command line. */
export interface EvalCliOptions {
  /** Which benchmark. */
  benchmark: BenchmarkName;
  /** Path of the data file. */
  data: string;
  /** The strategies to score, in order. */
  strategies: Record<string, RecallStrategyFactory>;
  /** Print JSON lines instead of a table. */
  json: boolean;
  /** Where to write the per-question JSONL dump. */
  dump: string | undefined;
  /** Which store package to ingest into. @default 'memory' */
  store: 'memory' | 'lmdb';
  /** Only the first N conversations. */
  limit: number | undefined;
  /** Evidence items asked per recall. @default 50 */
  k: number;
  /** Model choices (`provider:model`) by role, for `@engram/llm`; absent roles use no model. */
  models: { answer?: string; judge?: string; distill?: string; navigate?: string };
}

const modelSpec = /^(openai|anthropic|ollama|openai-compatible):\S+$/;

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses the eval's arguments (after the script name); throws a {@link UsageError} on a bad command line. */
export function parseEvalArguments(argv: ReadonlyArray<string>, registry: Readonly<Record<string, RecallStrategyFactory>> = evalStrategies): EvalCliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        strategy: { type: 'string' },
        json: { type: 'boolean', default: false },
        dump: { type: 'string' },
        store: { type: 'string', default: 'memory' },
        limit: { type: 'string' },
        k: { type: 'string' },
        answer: { type: 'string' },
        judge: { type: 'string' },
        distill: { type: 'string' },
        navigate: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError('');
  const [benchmark, ...rest] = positionals;
  if (benchmark !== 'locomo' && benchmark !== 'longmemeval') {
    throw new UsageError(benchmark === undefined ? 'missing benchmark' : `unknown benchmark ${JSON.stringify(benchmark)}`);
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  if (values.data === undefined) throw new UsageError('missing --data <path>');
  if (values.strategy === undefined) throw new UsageError('missing --strategy <name>[,<name>…|all]');
  if (values.store !== 'memory' && values.store !== 'lmdb') throw new UsageError(`--store must be memory or lmdb, got ${JSON.stringify(values.store)}`);
  let strategies: Record<string, RecallStrategyFactory>;
  try {
    strategies = selectStrategies(values.strategy, registry);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const models: EvalCliOptions['models'] = {};
  for (const role of ['answer', 'judge', 'distill', 'navigate'] as const) {
    const value = values[role];
    if (value === undefined) continue;
    if (!modelSpec.test(value)) throw new UsageError(`--${role} must be <provider>:<model> (openai, anthropic, ollama, openai-compatible), got ${JSON.stringify(value)}`);
    models[role] = value;
  }
  if (models.judge !== undefined && models.answer === undefined) throw new UsageError('--judge grades answers: give --answer <provider:model> too');
  return {
    benchmark,
    data: values.data,
    strategies,
    json: values.json,
    dump: values.dump,
    store: values.store,
    limit: positiveInteger(values.limit, '--limit'),
    k: positiveInteger(values.k, '--k') ?? 50,
    models,
  };
}
