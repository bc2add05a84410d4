import { randomUUID } from 'node:crypto';
import { loadConversationFile, sampleConversation, type BenchmarkQuestion, type Conversation } from '@engram/core';
import { addUsers } from '../memory/user-registry.js';
import { ingestConversations, validateJobs, type IngestJob } from '../memory/ingest-conversations.js';
import type { OpenMemory } from '../memory/open-memory.js';
import type { BenchmarkQuestions } from './benchmark-questions.js';
import type { IngestJobPayload, SampleInfo } from './playground-types.js';

/** Benchmark formats hold one conversation per person: each becomes its own memory. */
const perConversationFormats = new Set(['locomo', 'longmemeval']);

/** What a job ingests once read. */
interface LoadedInput {
  format: string;
  conversations: Conversation[];
  questions: BenchmarkQuestion[];
}

/** A conversation the server offers without an upload: the bundled sample, or a file named on the command line. */
export interface Sample {
  info: SampleInfo;
  load(): Promise<LoadedInput>;
}

function describe(conversations: ReadonlyArray<Conversation>): string {
  const sessions = conversations.reduce((sum, conversation) => sum + conversation.sessions.length, 0);
  const turns = conversations.reduce((sum, conversation) => sum + conversation.sessions.reduce((count, session) => count + session.turns.length, 0), 0);
  return `${conversations.length > 1 ? `${conversations.length} conversations, ` : ''}${sessions} sessions, ${turns} turns`;
}

/** The bundled demo conversation (two friends, five sessions). */
export function bundledSample(): Sample {
  return {
    info: { id: sampleConversation.id, label: `Sample: ${sampleConversation.speakers.join(' & ')}`, description: describe([sampleConversation]) },
    load: async () => ({ format: 'conversation', conversations: [sampleConversation], questions: [] }),
  };
}

/** A conversation file named on the command line (e.g. LoCoMo), read when first loaded. */
export async function fileSample(path: string): Promise<Sample> {
  const loaded = await loadConversationFile(path);
  const name = path.split(/[\\/]/).pop() ?? path;
  return {
    info: { id: `file:${name}`, label: name, description: `${loaded.format}: ${describe(loaded.conversations)}, ${loaded.questions.length} questions` },
    load: async () => loaded,
  };
}

/**
 * Runs one ingest at a time and remembers the last ones, so the app can poll their progress. A
 * file is read and checked whole before anything is written: a bad file leaves the store as it was.
 */
export class IngestJobs {
  private readonly jobs = new Map<string, IngestJobPayload>();
  private running: Promise<unknown> = Promise.resolve();
  private current: IngestJobPayload | undefined;

  constructor(
    private readonly memory: OpenMemory,
    private readonly questions: BenchmarkQuestions,
    private readonly onWrite: (users: ReadonlyArray<string>) => void,
  ) {}

  /** A job by id. */
  get(id: string): IngestJobPayload | undefined {
    return this.jobs.get(id);
  }

  /** The job running now. */
  active(): IngestJobPayload | undefined {
    return this.current !== undefined && (this.current.status === 'reading' || this.current.status === 'ingesting') ? this.current : undefined;
  }

  /** Starts a job; `describeError` turns a failure into the message the app shows. */
  start(source: string, read: () => Promise<LoadedInput>, describeError: (error: unknown) => string, cleanup?: () => Promise<void>): IngestJobPayload {
    const job: IngestJobPayload = { id: randomUUID(), source, status: 'reading', done: 0, total: 0, turns: 0, users: [], questions: 0, ms: 0 };
    this.jobs.set(job.id, job);
    const started = performance.now();
    const run = async () => {
      this.current = job;
      try {
        const loaded = await read();
        job.format = loaded.format;
        const jobs: IngestJob[] = loaded.conversations.map((conversation) => ({
          userId: conversation.id,
          conversation,
        }));
        validateJobs(jobs);
        job.users = [...new Set(jobs.map((entry) => entry.userId))];
        job.questions = loaded.questions.length;
        job.total = jobs.reduce((sum, entry) => sum + entry.conversation.sessions.length, 0);
        job.status = 'ingesting';
        if (perConversationFormats.has(loaded.format)) {
          const byUser = new Map<string, BenchmarkQuestion[]>(job.users.map((user) => [user, []]));
          for (const question of loaded.questions) byUser.get(question.conversationId)?.push(question);
          await this.questions.set(byUser);
        }
        await addUsers(this.memory.path, job.users);
        await ingestConversations(this.memory, jobs, {
          onProgress: (progress) => {
            job.done = progress.done;
            job.turns = progress.turns;
            job.ms = performance.now() - started;
            this.onWrite([progress.userId]);
          },
        });
        job.status = 'done';
      } catch (error) {
        job.status = 'failed';
        job.error = describeError(error);
      } finally {
        job.ms = performance.now() - started;
        this.onWrite(job.users);
        await cleanup?.().catch(() => undefined);
      }
    };
    this.running = this.running.then(run, run);
    return job;
  }

  /** Waits for the running and queued jobs. */
  async idle(): Promise<void> {
    await this.running;
  }
}
