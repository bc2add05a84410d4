import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchmarkQuestion } from '@engram/core';
import type { QuestionPayload } from './playground-types.js';

/** File in the store directory with the benchmark questions of the files loaded through the playground. */
export const questionsFile = 'playground-questions.json';

/**
 * The benchmark questions (with gold evidence) of each memory, kept beside the store so that hits
 * and misses can still be marked after a restart. Written only by the process holding the store's
 * write lock, and replaced atomically.
 */
export class BenchmarkQuestions {
  private readonly byUser = new Map<string, QuestionPayload[]>();

  private constructor(private readonly storePath: string) {}

  /** Reads the file of a store (a missing or damaged file means no questions). */
  static async open(storePath: string): Promise<BenchmarkQuestions> {
    const questions = new BenchmarkQuestions(storePath);
    try {
      const value = JSON.parse(await readFile(join(storePath, questionsFile), 'utf8')) as { users?: Record<string, QuestionPayload[]> };
      for (const [user, list] of Object.entries(value.users ?? {})) if (Array.isArray(list)) questions.byUser.set(user, list);
    } catch {
      // No questions yet (or an unreadable file, which the next save replaces).
    }
    return questions;
  }

  /** The questions of a memory. */
  of(user: string): QuestionPayload[] {
    return this.byUser.get(user) ?? [];
  }

  /** The question asked, by id or by its exact text. */
  find(user: string, idOrText: string): QuestionPayload | undefined {
    const wanted = idOrText.trim();
    return this.of(user).find((question) => question.id === wanted || question.question.trim() === wanted);
  }

  /** Replaces the questions of the given memories and saves the file. */
  async set(entries: ReadonlyMap<string, ReadonlyArray<BenchmarkQuestion>>): Promise<void> {
    if (entries.size === 0) return;
    for (const [user, list] of entries) {
      this.byUser.set(
        user,
        list.map((question) => ({
          id: question.id,
          question: question.question,
          ...(question.answer === undefined ? {} : { answer: question.answer }),
          category: question.category,
          evidenceTurns: question.evidenceTurns,
          ...(question.questionDate === undefined ? {} : { questionDate: question.questionDate }),
        })),
      );
    }
    await mkdir(this.storePath, { recursive: true });
    const path = join(this.storePath, questionsFile);
    const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify({ version: 1, users: Object.fromEntries(this.byUser) }), 'utf8');
    await rename(temporary, path);
  }
}
