import { z } from 'zod';
import type { BenchmarkQuestion, Conversation, ConversationSession, ConversationTurn } from '../conversation.js';
import {
  answerSchema,
  answerText,
  peek,
  type LoadedConversations,
  type LoaderOptions,
} from './loaded-conversations.js';
import { IssueCollector, describeRecord, joinWhere } from './loader-issues.js';
import { parseSessionDateTime } from './parse-session-date-time.js';

const dateFormat = 'expected a date like "2023/05/23 (Tue) 19:11"';
const dateSchema = z.string().transform((text, context) => {
  const parsed = parseSessionDateTime(text);
  if (parsed === undefined) {
    context.addIssue({ code: 'custom', message: `${dateFormat}, got ${JSON.stringify(text)}` });
    return z.NEVER;
  }
  return parsed;
});

// `has_answer` only appears on turns of evidence sessions.
const turnSchema = z.looseObject({
  role: z.enum(['user', 'assistant'], {
    error: (issue) => (issue.input === undefined ? undefined : `expected "user" or "assistant", got ${JSON.stringify(issue.input)}`),
  }),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

const recordSchema = z
  .looseObject({
    question_id: z.string().min(1, 'must not be empty'),
    question_type: z.string().min(1, 'must not be empty'),
    question: z.string(),
    answer: answerSchema,
    question_date: dateSchema.optional(),
    haystack_dates: z.array(dateSchema),
    haystack_session_ids: z.array(z.string().min(1, 'must not be empty')),
    haystack_sessions: z.array(z.array(turnSchema)),
    answer_session_ids: z.array(z.string()),
  })
  .superRefine((record, context) => {
    const sessions = record.haystack_sessions.length;
    for (const key of ['haystack_session_ids', 'haystack_dates'] as const) {
      if (record[key].length !== sessions) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `expected ${sessions} items (one per haystack session), got ${record[key].length}`,
        });
      }
    }
  });

type LongMemEvalRecord = z.output<typeof recordSchema>;

/**
 * Parses LongMemEval records (an array, or one record): one conversation per record, id = `question_id`.
 *
 * Sessions take their ids from `haystack_session_ids` and their dates from `haystack_dates`, and are
 * put in date order (stable). A session id the record repeats (the `_s` split has a few identical
 * distractor sessions twice) gets a `~2`, `~3`… suffix, the given id kept as `sourceId`, so turn ids
 * stay unique. Turn ids are `<session id>#<turn index>` (0-based, as given); speaker and role are the
 * turn's role (`user` or `assistant`). A turn whose content is blank (LongMemEval_S has a few) is left
 * out — it says nothing and `engram.add` refuses empty text — and the others keep their given index. The question carries `question_type` as its category, `abstention` for `_abs` ids,
 * `answer_session_ids` as evidence sessions and the `has_answer` turns as evidence turns (all of them,
 * and the user's alone in `evidenceUserTurns`).
 *
 * All-or-nothing: any bad record raises one InvalidInputError naming the file, record and field.
 */
export function parseLongMemEval(value: unknown, options: LoaderOptions = {}): LoadedConversations {
  const issues = new IssueCollector();
  const records = Array.isArray(value) ? value : [value];
  const conversations: Conversation[] = [];
  const questions: BenchmarkQuestion[] = [];
  const seenIds = new Map<string, number>();

  records.forEach((raw, index) => {
    const where = joinWhere(options.source, describeRecord(Array.isArray(value) ? index : undefined, peek(raw, 'question_id')));
    const record = issues.validate(recordSchema, raw, where);
    if (record === undefined) return;
    const previous = seenIds.get(record.question_id);
    if (previous !== undefined) {
      issues.add(where, 'question_id', `duplicate question_id "${record.question_id}" (also record ${previous + 1})`);
      return;
    }
    seenIds.set(record.question_id, index);
    const { conversation, question } = convertRecord(record);
    conversations.push(conversation);
    questions.push(question);
  });

  issues.throwIfAny();
  return { conversations, questions };
}

function convertRecord(record: LongMemEvalRecord): { conversation: Conversation; question: BenchmarkQuestion } {
  const occurrences = new Map<string, number>();
  const evidenceTurns: string[] = [];
  const evidenceUserTurns: string[] = [];
  const speakers: string[] = [];

  const indexed = record.haystack_sessions.map((turns, sessionIndex) => {
    const sourceId = record.haystack_session_ids[sessionIndex] ?? `session_${sessionIndex + 1}`;
    const count = (occurrences.get(sourceId) ?? 0) + 1;
    occurrences.set(sourceId, count);
    const session: ConversationSession = { id: count === 1 ? sourceId : `${sourceId}~${count}`, turns: [] };
    if (count > 1) session.sourceId = sourceId;
    const date = record.haystack_dates[sessionIndex];
    if (date !== undefined) session.date = date;
    turns.forEach((turn, turnIndex) => {
      if (turn.content.trim().length === 0) return;
      const converted: ConversationTurn = {
        id: `${session.id}#${turnIndex}`,
        speaker: turn.role,
        role: turn.role,
        text: turn.content,
      };
      if (!speakers.includes(turn.role)) speakers.push(turn.role);
      if (turn.has_answer === true) {
        evidenceTurns.push(converted.id);
        if (turn.role === 'user') evidenceUserTurns.push(converted.id);
      }
      session.turns.push(converted);
    });
    return { session, sessionIndex };
  });

  // Dates are zero-padded wall-clock ISO strings, so they sort as text; ties keep the given order.
  indexed.sort((left, right) => {
    const leftDate = left.session.date ?? '';
    const rightDate = right.session.date ?? '';
    if (leftDate !== rightDate) return leftDate < rightDate ? -1 : 1;
    return left.sessionIndex - right.sessionIndex;
  });
  const sessions = indexed.map((entry) => entry.session);
  const order = new Map(sessions.flatMap((session, position) => session.turns.map((turn) => [turn.id, position] as const)));
  const byTime = (left: string, right: string): number => (order.get(left) ?? 0) - (order.get(right) ?? 0);

  const question: BenchmarkQuestion = {
    id: record.question_id,
    conversationId: record.question_id,
    question: record.question,
    answer: answerText(record.answer),
    category: record.question_type,
    abstention: record.question_id.endsWith('_abs'),
    evidenceTurns: evidenceTurns.sort(byTime),
    evidenceUserTurns: evidenceUserTurns.sort(byTime),
    evidenceSessions: [...record.answer_session_ids],
  };
  if (record.question_date !== undefined) question.questionDate = record.question_date;
  return { conversation: { id: record.question_id, speakers, sessions }, question };
}
