import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sampleConversation, sampleQuestions, type RecallResult } from '@engram/core';
import { integerOption, type ParsedArguments } from '../cli-arguments.js';
import { exitCodes } from '../cli-errors.js';
import { addUsers } from '../memory/user-registry.js';
import { validateJobs, type IngestJob, type IngestSummary } from '../memory/ingest-conversations.js';
import { openMemory } from '../memory/open-memory.js';
import { ingestSummaryJson, renderIngestSummary } from '../output/ingest-output.js';
import { recallJson, renderRecallText } from '../output/render-recall.js';
import { colorsFor, writeJson, writeLines, type CliIo } from '../output/terminal.js';
import { noModelNote } from './ask-command.js';
import { ingestWithProgress } from './ingest-command.js';

/** How many evidence items the demo shows per question. */
const demoK = 5;

/**
 * `engram demo`: ingests the sample conversation (two friends, five sessions, nine months) into an
 * LMDB store, then asks the sample questions with `active` recall and shows the evidence with its
 * coordinates and the reconstruction trace. Offline; no model.
 */
export async function runDemoCommand(args: ParsedArguments, io: CliIo): Promise<number> {
  const k = integerOption(args.strings.k, '--k', { min: 1, max: 1000 }) ?? demoK;
  const user = args.strings.user ?? sampleConversation.id;
  const fresh = args.strings.store === undefined;
  const store = fresh ? await mkdtemp(join(tmpdir(), 'engram-demo-')) : resolve(io.cwd, args.strings.store as string);
  const out = colorsFor(io.stdout, io.env);
  const say = (lines: string[]) => {
    if (!args.flags.json) writeLines(io.stdout, lines);
  };
  const turns = sampleConversation.sessions.reduce((sum, session) => sum + session.turns.length, 0);
  say([
    out.bold('Engram demo — offline: no model, no network'),
    `store: ${store} (LMDB${fresh ? ', a fresh temporary directory; pass --store <path> to choose one' : ''})`,
    `ingesting the sample conversation "${sampleConversation.id}" (${sampleConversation.speakers.join(' and ')}: ${sampleConversation.sessions.length} sessions, ${turns} turns) for user ${user}…`,
    '',
  ]);

  const jobs: IngestJob[] = [{ userId: user, conversation: sampleConversation }];
  validateJobs(jobs);
  const memory = await openMemory({ path: store, readOnly: false, warn: (message) => io.stderr.write(`engram: warning: ${message}\n`) });
  let summary: IngestSummary;
  const results: RecallResult[] = [];
  try {
    await addUsers(store, [user]);
    summary = await ingestWithProgress(memory, jobs, io);
    say([...renderIngestSummary(summary, out), '']);
    io.stderr.write(`${colorsFor(io.stderr, io.env).yellow(noModelNote)}\n`);
    for (const question of sampleQuestions) {
      const result = await memory.engram.recall(question, { scope: { userId: user }, strategy: 'active', k });
      results.push(result);
      say([...renderRecallText(result, { user, k, trace: true, colors: out }), '']);
    }
  } finally {
    await memory.close();
  }
  if (args.flags.json) {
    writeJson(io.stdout, {
      store,
      user,
      ingest: ingestSummaryJson(summary, [{ file: '(sample conversation)', format: 'conversation', conversations: 1, questions: sampleQuestions.length }]),
      questions: results.map((result) => recallJson(result, { user, k, trace: true })),
    });
    return exitCodes.ok;
  }
  const storeFlag = /^[\w./-]+$/.test(store) ? store : JSON.stringify(store);
  say([
    out.bold('Explore it yourself:'),
    `  engram ask --store ${storeFlag} --user ${user} "Where does Tom work now?" --trace`,
    `  engram inspect --store ${storeFlag} --user ${user} cue boston`,
    `  engram stats --store ${storeFlag}`,
  ]);
  return exitCodes.ok;
}
