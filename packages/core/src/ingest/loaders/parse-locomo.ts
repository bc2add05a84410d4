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

/** LoCoMo category ids → names, after the LoCoMo code (not Mem0's different mapping). */
export const locomoCategories: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

// Image turns also carry img_url, query and re-download; loose objects keep accepting whatever else appears.
const turnSchema = z.looseObject({
  speaker: z.string().min(1, 'must not be empty'),
  dia_id: z.string().min(1, 'must not be empty'),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const sessionSchema = z.array(turnSchema);

const qaSchema = z.looseObject({
  question: z.string(),
  answer: answerSchema.optional(),
  adversarial_answer: answerSchema.optional(),
  evidence: z.array(z.string()),
  category: z.number().int().min(1).max(5),
});

const sampleSchema = z.looseObject({
  sample_id: z.string().min(1, 'must not be empty'),
  conversation: z.looseObject({
    speaker_a: z.string().min(1, 'must not be empty'),
    speaker_b: z.string().min(1, 'must not be empty'),
  }),
  qa: z.array(z.unknown()).optional(),
});

const sessionKeyPattern = /^session_(\d+)$/;
const evidencePattern = /^D\d+:\d+$/;

/**
 * Normalises LoCoMo evidence: splits entries on `;` and whitespace (`"D8:6; D9:17"`), drops tokens
 * that are not dialogue ids (`"D"`, `"D:11:26"`) and removes duplicates, keeping first-seen order.
 */
export function normalizeLocomoEvidence(evidence: ReadonlyArray<string>): string[] {
  const seen = new Set<string>();
  for (const entry of evidence) {
    for (const token of entry.split(/[;\s]+/)) {
      if (evidencePattern.test(token)) seen.add(token);
    }
  }
  return [...seen];
}

/**
 * Parses LoCoMo samples (an array, or one sample) into conversations and questions.
 *
 * Sessions come from the `session_N` keys in numeric order (the `session_N_date_time` keys alone
 * do not make a session); turn ids are the `dia_id`s; `blip_caption` becomes `imageCaption`. A turn
 * with blank text and no image says nothing and is left out (`engram.add` refuses empty text).
 * Question ids are `<sample_id>#<qa index>` (0-based); evidence sessions are derived from the
 * evidence turn ids (`D8:6` → `session_8`). Category 5 items keep their tempting wrong
 * answer as `adversarialAnswer` and are marked `abstention`.
 *
 * All-or-nothing: any bad record raises one InvalidInputError naming the file, record and field,
 * e.g. `data.json: record 3 (conv-41): invalid conversation.session_2[4].text: expected string, received number`.
 */
export function parseLocomo(value: unknown, options: LoaderOptions = {}): LoadedConversations {
  const issues = new IssueCollector();
  const records = Array.isArray(value) ? value : [value];
  const conversations: Conversation[] = [];
  const questions: BenchmarkQuestion[] = [];
  const seenIds = new Map<string, number>();

  records.forEach((record, index) => {
    const where = joinWhere(options.source, describeRecord(Array.isArray(value) ? index : undefined, peek(record, 'sample_id')));
    const sample = issues.validate(sampleSchema, record, where);
    if (sample === undefined) return;
    const previous = seenIds.get(sample.sample_id);
    if (previous !== undefined) {
      issues.add(where, 'sample_id', `duplicate sample_id "${sample.sample_id}" (also record ${previous + 1})`);
      return;
    }
    seenIds.set(sample.sample_id, index);

    const conversation = readConversation(sample.sample_id, sample.conversation, where, issues);
    const sampleQuestions = (sample.qa ?? []).flatMap((item, qaIndex) => {
      const question = readQuestion(sample.sample_id, item, qaIndex, where, issues);
      return question === undefined ? [] : [question];
    });
    if (conversation !== undefined) conversations.push(conversation);
    questions.push(...sampleQuestions);
  });

  issues.throwIfAny();
  return { conversations, questions };
}

function readConversation(
  id: string,
  raw: z.output<typeof sampleSchema>['conversation'],
  where: string,
  issues: IssueCollector,
): Conversation | undefined {
  const sessionKeys = Object.keys(raw)
    .flatMap((key) => {
      const match = sessionKeyPattern.exec(key);
      return match === null ? [] : [{ key, number: Number(match[1]) }];
    })
    .sort((left, right) => left.number - right.number);
  if (sessionKeys.length === 0) {
    issues.add(where, 'conversation', 'no sessions (expected session_1, session_2, … keys)');
    return undefined;
  }

  const firstSeen = new Map<string, string>();
  const sessions: ConversationSession[] = [];
  let valid = true;
  for (const { key } of sessionKeys) {
    const turns = issues.validate(sessionSchema, raw[key], where, ['conversation', key]);
    const date = readSessionDate(raw[`${key}_date_time`], `conversation.${key}_date_time`, where, issues);
    if (turns === undefined || date === null) {
      valid = false;
      continue;
    }
    const session: ConversationSession = { id: key, turns: [] };
    if (date !== undefined) session.date = date;
    turns.forEach((turn, turnIndex) => {
      const path = `conversation.${key}[${turnIndex}].dia_id`;
      const first = firstSeen.get(turn.dia_id);
      if (first !== undefined) {
        issues.add(where, path, `duplicate turn id "${turn.dia_id}" (first at ${first})`);
        valid = false;
        return;
      }
      firstSeen.set(turn.dia_id, path);
      if (turn.text.trim().length === 0 && turn.blip_caption === undefined) return;
      const converted: ConversationTurn = { id: turn.dia_id, speaker: turn.speaker, text: turn.text };
      if (turn.blip_caption !== undefined) converted.imageCaption = turn.blip_caption;
      session.turns.push(converted);
    });
    sessions.push(session);
  }
  if (!valid) return undefined;
  return { id, speakers: [raw.speaker_a, raw.speaker_b], sessions };
}

/** The session's ISO date, `undefined` when the sample gives none, `null` when the given one is bad. */
function readSessionDate(raw: unknown, path: string, where: string, issues: IssueCollector): string | undefined | null {
  if (raw === undefined) return undefined;
  const parsed = typeof raw === 'string' ? parseSessionDateTime(raw) : undefined;
  if (parsed !== undefined) return parsed;
  const got = typeof raw === 'string' ? JSON.stringify(raw) : `a ${raw === null ? 'null' : typeof raw}`;
  issues.add(where, path, `expected a date like "1:56 pm on 8 May, 2023", got ${got}`);
  return null;
}

function readQuestion(
  sampleId: string,
  raw: unknown,
  qaIndex: number,
  where: string,
  issues: IssueCollector,
): BenchmarkQuestion | undefined {
  const item = issues.validate(qaSchema, raw, where, ['qa', qaIndex]);
  if (item === undefined) return undefined;
  const adversarial = item.category === 5;
  if (item.answer === undefined && !(adversarial && item.adversarial_answer !== undefined)) {
    issues.add(where, `qa[${qaIndex}].answer`, 'missing (expected string or number)');
    return undefined;
  }
  const evidenceTurns = normalizeLocomoEvidence(item.evidence);
  const question: BenchmarkQuestion = {
    id: `${sampleId}#${qaIndex}`,
    conversationId: sampleId,
    question: item.question,
    category: locomoCategories[item.category] ?? String(item.category),
    evidenceTurns,
    // `D8:6` was said in `session_8`: session-level recall needs no separate annotation.
    evidenceSessions: [...new Set(evidenceTurns.map((turnId) => `session_${turnId.slice(1, turnId.indexOf(':'))}`))],
  };
  if (item.answer !== undefined) question.answer = answerText(item.answer);
  if (item.adversarial_answer !== undefined) question.adversarialAnswer = answerText(item.adversarial_answer);
  if (adversarial) question.abstention = true;
  return question;
}
