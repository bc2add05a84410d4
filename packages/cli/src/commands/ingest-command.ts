import { resolve } from 'node:path';
import { conversationFormats, loadConversationFile } from '@engram/core';
import { choiceOption, type ParsedArguments } from '../cli-arguments.js';
import { CliError, exitCodes } from '../cli-errors.js';
import { resolveSettings } from '../cli-settings.js';
import { ingestConversations, validateJobs, type IngestJob, type IngestSummary } from '../memory/ingest-conversations.js';
import { describeUsage, loadModels } from '../memory/load-models.js';
import { openMemory, type OpenMemory } from '../memory/open-memory.js';
import { addUsers } from '../memory/user-registry.js';
import { ingestProgressBar, ingestSummaryJson, renderIngestSummary } from '../output/ingest-output.js';
import { colorsFor, writeJson, writeLines, type CliIo } from '../output/terminal.js';

/** Benchmark formats hold one conversation per person: each becomes its own user unless --user says otherwise. */
const perConversationFormats = new Set(['locomo', 'longmemeval']);

/**
 * Ingests into an open store with a progress bar (on a terminal) and Ctrl-C handling: an
 * interrupted ingest keeps the sessions already written, and running it again finishes the rest.
 */
export async function ingestWithProgress(memory: OpenMemory, jobs: ReadonlyArray<IngestJob>, io: CliIo): Promise<IngestSummary> {
  const controller = new AbortController();
  const interrupt = () => controller.abort(new CliError('interrupted'));
  process.once('SIGINT', interrupt);
  const bar = ingestProgressBar(io.stderr as typeof process.stderr, true);
  let done = 0;
  let total = 0;
  try {
    total = jobs.reduce((sum, job) => sum + job.conversation.sessions.length, 0);
    bar.start(total);
    return await ingestConversations(memory, jobs, {
      signal: controller.signal,
      onProgress: (progress) => {
        done = progress.done;
        bar.update(progress);
      },
    });
  } catch (error) {
    if (controller.signal.aborted) {
      throw new CliError(`interrupted after ${done} of ${total} sessions: what was written stays, and running the same command again adds the rest`);
    }
    throw error;
  } finally {
    bar.stop();
    process.off('SIGINT', interrupt);
  }
}

/** `engram ingest <file…>`: checks every file, then writes them to the store. */
export async function runIngestCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const format = choiceOption(args.strings.format, '--format', conversationFormats) ?? 'auto';
  const settings = resolveSettings({ store: args.strings.store, user: args.strings.user }, io.env, io.cwd);

  // Everything is read and checked before the store is opened: a bad file leaves the store as it was.
  const jobs: IngestJob[] = [];
  const files: Array<Record<string, unknown>> = [];
  for (const file of args.positionals) {
    const path = io.cwd === process.cwd() ? file : resolve(io.cwd, file);
    const loaded = await loadConversationFile(path, { format });
    files.push({ file, format: loaded.format, conversations: loaded.conversations.length, questions: loaded.questions.length });
    for (const conversation of loaded.conversations) {
      const userId = settings.user ?? (perConversationFormats.has(loaded.format) ? conversation.id : 'default');
      jobs.push({ userId, conversation });
    }
  }
  validateJobs(jobs);

  // With a distilling model configured (ENGRAM_DISTILL_MODEL, ENGRAM_MODEL or engram.config.json), it builds
  // the memory graph; a batch whose output stays invalid after one repair falls back to the offline distiller.
  const warn = (message: string) => io.stderr.write(`engram: warning: ${message}\n`);
  const models = await loadModels(settings, io.env, {
    onDistillerEvent: (event) => warn(`model distiller ${event.type === 'repair' ? 'repairing' : 'fell back to the offline distiller for'} session ${event.sessionId}, batch ${event.batch}: ${event.problem.split('\n')[0]}`),
  });
  const memory = await openMemory({ path: settings.store, readOnly: false, warn, ...(models?.distiller ? { distiller: models.distiller } : {}) });
  let summary: IngestSummary;
  try {
    await addUsers(memory.path, [...new Set(jobs.map((job) => job.userId))]);
    summary = await ingestWithProgress(memory, jobs, io);
  } finally {
    await memory.close();
  }
  const usage = models?.distiller ? models.meter.total() : undefined;
  if (usage !== undefined) io.stderr.write(`${describeUsage(usage)}\n`);
  if (args.flags.json) writeJson(io.stdout, ingestSummaryJson(summary, files));
  else writeLines(io.stdout, renderIngestSummary(summary, colorsFor(io.stdout, io.env)));
  return exitCodes.ok;
}
