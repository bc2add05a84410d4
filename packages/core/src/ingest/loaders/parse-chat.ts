import { z } from 'zod';
import { formatPath } from '../../errors/index.js';
import type { Conversation, ConversationSession, ConversationTurn } from '../conversation.js';
import { isPlainObject, type LoadedConversations, type LoaderOptions } from './loaded-conversations.js';
import { IssueCollector, describeRecord, joinWhere, throwInputError } from './loader-issues.js';
import { tryParseJson } from './parse-json-text.js';
import { normalizeTimestamp } from './parse-session-date-time.js';

/** Options of the chat-log parsers. */
export interface ChatLoaderOptions extends LoaderOptions {
  /** Id of the conversation; @default the object's `id`, else the source file name without extensions, else `chat` */
  conversationId?: string;
}

const timestampFormat = 'expected an ISO date-time or epoch number';
const timestampSchema = z
  .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined ? undefined : timestampFormat) })
  .transform((value, context) => {
    const normalized = normalizeTimestamp(value);
    if (normalized === undefined) {
      context.addIssue({ code: 'custom', message: `${timestampFormat}, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return normalized;
  });

const idSchema = z
  .union([z.string().min(1, 'must not be empty'), z.number()], {
    error: (issue) => (issue.input === undefined ? undefined : 'expected non-empty string or number'),
  })
  .transform(String);

// A blank message has nothing to remember, and `engram.add` refuses it: say so here, with its line.
const words = z.string().refine((text) => text.trim().length > 0, 'must not be empty');

const messageSchema = z
  .looseObject({
    role: z.string().min(1, 'must not be empty').optional(),
    speaker: z.string().min(1, 'must not be empty').optional(),
    content: words.optional(),
    text: words.optional(),
    timestamp: timestampSchema.optional(),
    sessionId: idSchema.optional(),
    id: idSchema.optional(),
  })
  .superRefine((message, context) => {
    if (message.role === undefined && message.speaker === undefined) {
      context.addIssue({ code: 'custom', path: ['role'], message: 'missing (expected `role` or `speaker`: string)' });
    }
    if (message.content === undefined && message.text === undefined) {
      context.addIssue({ code: 'custom', path: ['content'], message: 'missing (expected `content` or `text`: string)' });
    }
  });

type ChatMessage = z.output<typeof messageSchema>;

const sessionSchema = z.looseObject({
  id: idSchema.optional(),
  date: timestampSchema.optional(),
  messages: z.array(z.unknown()),
});

/** A message read from the input with the place it came from, for error messages. */
interface LocatedMessage {
  message: ChatMessage;
  where: string;
  path: string;
}

/**
 * Parses a chat log held as JSON: an array of messages `{ role | speaker, content | text, timestamp?,
 * sessionId?, id? }`, `{ id?, messages: [...] }`, or `{ id?, sessions: [{ id?, date?, messages: [...] }] }`.
 *
 * Messages are grouped into sessions by `sessionId` (one session `default` without it), in order of
 * first appearance; sessions are put in date order when every one has a date. A session's date is its
 * own `date`, else its first message's timestamp. Turn ids are the message `id`, else
 * `<session id>#<index>` (0-based). The speaker is `speaker`, else `role`; `role` is kept.
 *
 * All-or-nothing: any bad message raises one InvalidInputError naming the record and field.
 */
export function parseChatJson(value: unknown, options: ChatLoaderOptions = {}): LoadedConversations {
  const issues = new IssueCollector();
  const source = options.source;
  const located: LocatedMessage[] = [];
  const declared: Array<{ id: string; date?: string }> = [];
  let objectId: string | undefined;

  // A bare array names its records (`record 3`); messages nested in an object are named by their path.
  const readMessages = (list: ReadonlyArray<unknown>, basePath: ReadonlyArray<PropertyKey>, sessionId?: string): void => {
    list.forEach((raw, index) => {
      const nested = basePath.length > 0;
      const where = joinWhere(source, nested ? '' : describeRecord(index, undefined));
      const path = nested ? [...basePath, index] : [];
      const message = issues.validate(messageSchema, raw, where, path);
      if (message === undefined) return;
      if (sessionId !== undefined) message.sessionId = sessionId;
      located.push({ message, where, path: nested ? formatPath(path) : '' });
    });
  };

  if (Array.isArray(value)) {
    readMessages(value, []);
  } else if (isPlainObject(value) && (Array.isArray(value.messages) || Array.isArray(value.sessions))) {
    objectId = typeof value.id === 'string' && value.id.length > 0 ? value.id : undefined;
    if (Array.isArray(value.messages)) readMessages(value.messages, ['messages']);
    else if (Array.isArray(value.sessions)) {
      value.sessions.forEach((raw, sessionIndex) => {
        const session = issues.validate(sessionSchema, raw, joinWhere(source), ['sessions', sessionIndex]);
        if (session === undefined) return;
        const id = session.id ?? `session_${sessionIndex + 1}`;
        if (declared.some((entry) => entry.id === id)) {
          issues.add(joinWhere(source), ['sessions', sessionIndex, 'id'], `duplicate session id "${id}"`);
          return;
        }
        declared.push(session.date === undefined ? { id } : { id, date: session.date });
        readMessages(session.messages, ['sessions', sessionIndex, 'messages'], id);
      });
    }
  } else {
    throwInputError(
      joinWhere(source),
      'unrecognised chat log: expected an array of messages, { messages: [...] } or { sessions: [{ messages: [...] }] }',
    );
  }

  issues.throwIfAny();
  const id = options.conversationId ?? objectId ?? conversationIdFromSource(source);
  const conversation = buildConversation(id, located, declared, issues);
  issues.throwIfAny();
  return { conversations: conversation === undefined ? [] : [conversation], questions: [] };
}

/**
 * Parses a JSONL chat log: one message object per line, blank lines skipped; otherwise as
 * {@link parseChatJson} for an array of messages. Errors name the line: `chat.jsonl:17: invalid content: …`.
 */
export function parseChatJsonl(text: string, options: ChatLoaderOptions = {}): LoadedConversations {
  const issues = new IssueCollector();
  const source = options.source ?? 'input';
  const located: LocatedMessage[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim().length === 0) return;
    const where = `${source}:${index + 1}`;
    const parsed = tryParseJson(line);
    if (!('value' in parsed)) {
      // Keep going so one error lists every bad line; nothing is returned anyway.
      issues.add(`${where}:${parsed.error.column}`, '', `malformed JSON: ${parsed.error.reason}`);
      return;
    }
    const message = issues.validate(messageSchema, parsed.value, where);
    if (message !== undefined) located.push({ message, where, path: '' });
  });
  issues.throwIfAny();
  const id = options.conversationId ?? conversationIdFromSource(options.source);
  const conversation = buildConversation(id, located, [], issues);
  issues.throwIfAny();
  return { conversations: conversation === undefined ? [] : [conversation], questions: [] };
}

/** `logs/chat.jsonl.gz` → `chat`. */
function conversationIdFromSource(source: string | undefined): string {
  const base = (source ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/(\.[a-z0-9]+)+$/i, '');
  return stem.length > 0 ? stem : 'chat';
}

function buildConversation(
  id: string,
  located: ReadonlyArray<LocatedMessage>,
  declared: ReadonlyArray<{ id: string; date?: string }>,
  issues: IssueCollector,
): Conversation | undefined {
  const sessions = new Map<string, ConversationSession>();
  for (const entry of declared) {
    sessions.set(entry.id, entry.date === undefined ? { id: entry.id, turns: [] } : { id: entry.id, date: entry.date, turns: [] });
  }
  const speakers: string[] = [];
  const turnIds = new Map<string, string>();
  for (const { message, where, path } of located) {
    const sessionId = message.sessionId ?? 'default';
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { id: sessionId, turns: [] };
      sessions.set(sessionId, session);
    }
    const turnId = message.id ?? `${sessionId}#${session.turns.length}`;
    const idPath = path.length > 0 ? `${path}.id` : 'id';
    const first = turnIds.get(turnId);
    if (first !== undefined) {
      issues.add(where, idPath, `duplicate turn id "${turnId}" (first at ${first})`);
      continue;
    }
    turnIds.set(turnId, joinWhere(where, path));
    const speaker = message.speaker ?? message.role ?? '';
    if (!speakers.includes(speaker)) speakers.push(speaker);
    const turn: ConversationTurn = { id: turnId, speaker, text: message.content ?? message.text ?? '' };
    if (message.role !== undefined) turn.role = message.role;
    if (message.timestamp !== undefined) {
      turn.timestamp = message.timestamp;
      session.date ??= message.timestamp;
    }
    session.turns.push(turn);
  }
  if (sessions.size === 0) return undefined;
  const ordered = [...sessions.values()];
  const times = ordered.map((session) => (session.date === undefined ? Number.NaN : Date.parse(session.date)));
  if (times.every((time) => !Number.isNaN(time))) {
    const position = new Map(ordered.map((session, index) => [session, index]));
    const timeOf = new Map(ordered.map((session, index) => [session, times[index] ?? 0]));
    ordered.sort(
      (left, right) => (timeOf.get(left) ?? 0) - (timeOf.get(right) ?? 0) || (position.get(left) ?? 0) - (position.get(right) ?? 0),
    );
  }
  return { id, speakers, sessions: ordered };
}
