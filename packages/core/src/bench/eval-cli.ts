// Retrieval evaluation on LoCoMo / LongMemEval:
//   pnpm -s run eval <locomo|longmemeval> --data <path> --strategy <name>[,<name>…|all]
//        [--json] [--dump <file.jsonl>] [--store memory|lmdb] [--limit N] [--k N]
//        [--answer|--judge|--distill|--navigate <provider:model>]   (through @engram/llm, loaded at run time)
// Results go to stdout (one JSON object per strategy with --json, else a table); progress to stderr.
// Exit codes: 0 done, 1 failure while running, 2 usage error.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngramError } from '../errors/engram-error.js';
import { runEval, type EvalProgress } from '../eval/harness.js';
import { formatDumpLine, formatJsonReports, formatTableReport } from '../eval/report.js';
import { evalUsage, parseEvalArguments, UsageError, type EvalCliOptions } from '../eval/eval-cli-options.js';
import { loadConversationFile } from '../ingest/loaders/index.js';
import type { Answerer, Judge, ModelUsageTotals } from '../ports/answerer.js';
import type { Distiller } from '../ports/distiller.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Navigator } from '../ports/navigator.js';
import { createEvalIngestion } from '../eval/eval-ingestion.js';
import { createActiveStrategy } from '../recall/active/active-reconstruction.js';
import type { RecallStrategyFactory } from '../recall/strategy.js';

/** A failure with a message meant for the user (no stack needed). */
class CliError extends Error {}

/**
 * Imports a workspace store package. Core does not depend on the store packages, so a bare import
 * only works where the package is installed; inside this monorepo, fall back to its built `dist`
 * next to core (relative to this file, then to the working directory).
 */
async function importStorePackage(name: string, directory: string): Promise<Record<string, unknown>> {
  const candidates = [
    name,
    new URL(`../../../${directory}/dist/index.js`, import.meta.url).href,
    pathToFileURL(join(process.cwd(), 'packages', directory, 'dist', 'index.js')).href,
  ];
  let firstError: unknown;
  for (const specifier of candidates) {
    try {
      return (await import(specifier)) as Record<string, unknown>;
    } catch (error) {
      firstError ??= error;
    }
  }
  const reason = firstError instanceof Error ? firstError.message : String(firstError);
  throw new CliError(`cannot load ${name} (${reason}); build it first: pnpm --filter ${name} build`);
}

async function openStore(kind: 'memory' | 'lmdb'): Promise<{ store: MemoryStore; close: () => Promise<void> }> {
  if (kind === 'memory') {
    const module = await importStorePackage('@engram/store-memory', 'store-memory');
    const create = module.createMemoryStore as (() => MemoryStore) | undefined;
    if (typeof create !== 'function') throw new CliError('@engram/store-memory does not export createMemoryStore()');
    const store = create();
    return { store, close: () => store.dispose() };
  }
  const module = await importStorePackage('@engram/store-lmdb', 'store-lmdb');
  const create = module.createLmdbStore as ((options: { path: string }) => MemoryStore | Promise<MemoryStore>) | undefined;
  if (typeof create !== 'function') throw new CliError('@engram/store-lmdb does not export createLmdbStore()');
  const directory = await mkdtemp(join(tmpdir(), 'engram-eval-'));
  const store = await create({ path: directory });
  return {
    store,
    close: async () => {
      await store.dispose();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The model-backed parts named on the command line, from @engram/llm (core does not depend on it). */
interface EvalModels {
  distiller?: Distiller;
  navigator?: Navigator;
  answerer?: Answerer;
  judge?: Judge;
  meter: { total(): ModelUsageTotals };
}

async function loadModels(options: EvalCliOptions, log: (line: string) => void): Promise<EvalModels | undefined> {
  if (Object.keys(options.models).length === 0) return undefined;
  // `engram eval` names the copy of @engram/llm the CLI depends on; inside the monorepo the built package is found next to core.
  const override = process.env.ENGRAM_LLM_MODULE;
  const llm = override ? ((await import(override)) as Record<string, unknown>) : await importStorePackage('@engram/llm', 'llm');
  const createModelSuite = llm.createModelSuite as ((options: Record<string, unknown>) => EvalModels) | undefined;
  if (typeof createModelSuite !== 'function') throw new CliError('@engram/llm does not export createModelSuite()');
  return createModelSuite({
    choices: options.models,
    rolesFromEnvironment: false,
    style: options.benchmark,
    judgeBenchmark: options.benchmark,
    onDistillerEvent: (event: { type: string; sessionId: string; batch: number; problem: string }) =>
      log(`[eval] distiller ${event.type} in session ${event.sessionId}, batch ${event.batch}: ${event.problem.split('\n')[0]}`),
  });
}

function describeProgress(progress: EvalProgress): string {
  const position = `${progress.index + 1}/${progress.total} ${progress.conversation}`;
  if (progress.phase === 'ingest') return `[eval] ${position}: ingested ${progress.turns} turns in ${Math.round(progress.ms)} ms`;
  return `[eval] ${position}: recalled ${progress.questions} questions × ${progress.strategies} strateg${progress.strategies === 1 ? 'y' : 'ies'}`;
}

async function closeStream(stream: WriteStream | undefined): Promise<void> {
  if (stream === undefined) return;
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

async function main(options: EvalCliOptions): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const loaded = await loadConversationFile(options.data, { format: options.benchmark });
  const conversations = options.limit === undefined ? loaded.conversations : loaded.conversations.slice(0, options.limit);
  const selected = new Set(conversations.map((conversation) => conversation.id));
  const questions = loaded.questions.filter((question) => selected.has(question.conversationId));
  log(`[eval] ${options.benchmark}: ${conversations.length} of ${loaded.conversations.length} conversations, ${questions.length} questions from ${options.data}`);
  const { store, close } = await openStore(options.store);
  const dump = options.dump === undefined ? undefined : createWriteStream(options.dump, { encoding: 'utf8' });
  const several = Object.keys(options.strategies).length > 1;
  try {
    const models = await loadModels(options, log);
    const ingestion = createEvalIngestion(store, models?.distiller ? { distiller: models.distiller } : {});
    const navigator = models?.navigator;
    const strategies: Record<string, RecallStrategyFactory> = { ...options.strategies };
    if (navigator !== undefined && strategies.active !== undefined) strategies.active = (context) => createActiveStrategy(context, { navigator });
    const run = await runEval({
      benchmark: options.benchmark,
      conversations,
      questions,
      store,
      ingest: ingestion.ingest,
      embed: ingestion.embed,
      strategies,
      k: options.k,
      ...(models?.answerer ? { answerer: models.answerer } : {}),
      ...(models?.judge ? { judge: models.judge } : {}),
      ...(models ? { modelUsage: () => models.meter.total() } : {}),
      onProgress: (progress) => log(describeProgress(progress)),
      ...(dump === undefined ? {} : { onOutcome: (outcome) => dump.write(`${formatDumpLine(outcome, several)}\n`) }),
    });
    process.stdout.write(`${options.json ? formatJsonReports(run.reports) : formatTableReport(run.reports)}\n`);
  } finally {
    await closeStream(dump);
    await close();
  }
}

let options: EvalCliOptions;
try {
  options = parseEvalArguments(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  // `--help` is a usage error without a message: the usage is then the answer, so exit cleanly.
  if (error.message === '') {
    process.stdout.write(`${evalUsage()}\n`);
    process.exit(0);
  }
  process.stderr.write(`eval: ${error.message}\n${evalUsage()}\n`);
  process.exit(2);
}
try {
  await main(options);
} catch (error) {
  // Input and store errors speak for themselves; anything else is a bug, so show where it happened.
  const detail = error instanceof Error ? (EngramError.isInstance(error) || error instanceof CliError ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(`eval: ${detail}\n`);
  process.exitCode = 1;
}
