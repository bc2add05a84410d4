import { parseAddInput, type AddCounts, type Conversation, type ConversationSession } from '@engram/core';
import type { OpenMemory } from './open-memory.js';

/** One conversation to ingest for one user. */
export interface IngestJob {
  /** Whose memory it goes to. */
  userId: string;
  /** The conversation. */
  conversation: Conversation;
}

/** What an ingest wrote. */
export interface IngestSummary {
  /** The store directory. */
  store: string;
  /** Conversations ingested. */
  conversations: number;
  /** Sessions ingested (including ones already stored, which are skipped). */
  sessions: number;
  /** New records per user. */
  users: Record<string, AddCounts>;
  /** New records in all. */
  total: AddCounts;
  /** Wall-clock time of the writes, in milliseconds. */
  ms: number;
}

/** Progress after each session. */
export interface IngestProgress {
  /** Sessions done. */
  done: number;
  /** Sessions in all. */
  total: number;
  /** The user just written to. */
  userId: string;
  /** The conversation. */
  conversationId: string;
  /** The session just done. */
  sessionId: string;
  /** Turns written so far. */
  turns: number;
}

/** Counts of nothing written. */
export function emptyCounts(): AddCounts {
  return { turns: 0, episodes: 0, facts: 0, topics: 0, cues: 0, tags: 0, relations: 0, supersededFacts: 0, skippedTurns: 0, timeExpressions: 0, timeExpressionsResolved: 0 };
}

/** Adds two counts field by field. */
export function addCounts(a: AddCounts, b: AddCounts): AddCounts {
  const sum = { ...a };
  for (const key of Object.keys(sum) as Array<keyof AddCounts>) sum[key] += b[key] ?? 0;
  return sum;
}

/**
 * Checks every conversation as `engram.add` will, before anything is written: a bad record stops
 * the whole ingest with an error naming it, and the store stays as it was.
 */
export function validateJobs(jobs: ReadonlyArray<IngestJob>): void {
  for (const job of jobs) parseAddInput(job.conversation, { now: () => new Date() });
}

function sessionInput(conversation: Conversation, session: ConversationSession): Conversation {
  // One session at a time, under the conversation's id: the same ids as adding it whole, with progress.
  return { id: conversation.id, speakers: conversation.speakers, sessions: [session] };
}

/** Adds the conversations session by session; sessions already stored are skipped by the engram. */
export async function ingestConversations(
  memory: OpenMemory,
  jobs: ReadonlyArray<IngestJob>,
  options: { signal?: AbortSignal; onProgress?: (progress: IngestProgress) => void } = {},
): Promise<IngestSummary> {
  const started = performance.now();
  const total = jobs.reduce((sum, job) => sum + job.conversation.sessions.length, 0);
  const users: Record<string, AddCounts> = {};
  let all = emptyCounts();
  let done = 0;
  for (const job of jobs) {
    users[job.userId] ??= emptyCounts();
    for (const session of job.conversation.sessions) {
      // Writing a session may never leave the microtask queue; yielding lets Ctrl-C and the progress bar's timer run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      const counts = await memory.engram.add(sessionInput(job.conversation, session), { userId: job.userId }, options.signal === undefined ? {} : { signal: options.signal });
      users[job.userId] = addCounts(users[job.userId] ?? emptyCounts(), counts);
      all = addCounts(all, counts);
      done += 1;
      options.onProgress?.({ done, total, userId: job.userId, conversationId: job.conversation.id, sessionId: session.id, turns: all.turns });
    }
  }
  return { store: memory.path, conversations: jobs.length, sessions: total, users, total: all, ms: performance.now() - started };
}
