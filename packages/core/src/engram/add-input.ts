import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseInput } from '../errors/parse-input.js';
import { isoDateSchema } from '../model/time.js';
import type { Conversation, ConversationSession, ConversationTurn } from '../ingest/conversation.js';
import { normalizeTimestamp } from '../ingest/loaders/index.js';

const name = z.string().trim().min(1, 'must not be empty');

const turnSchema = z.strictObject({
  id: name,
  speaker: name,
  role: name.optional(),
  text: z.string().min(1, 'must not be empty'),
  timestamp: isoDateSchema.optional(),
  imageCaption: z.string().optional(),
});

const sessionSchema = z
  .strictObject({
    id: name,
    sourceId: name.optional(),
    date: isoDateSchema.optional(),
    turns: z.array(turnSchema),
  })
  .superRefine((session, context) => {
    const seen = new Set<string>();
    session.turns.forEach((turn, index) => {
      if (seen.has(turn.id)) context.addIssue({ code: 'custom', message: `duplicate turn id ${turn.id}`, path: ['turns', index, 'id'] });
      seen.add(turn.id);
    });
  });

const conversationSchema = z
  .strictObject({
    id: name,
    speakers: z.array(name).default([]),
    sessions: z.array(sessionSchema),
  })
  .superRefine((conversation, context) => {
    const seen = new Set<string>();
    conversation.sessions.forEach((session, index) => {
      if (seen.has(session.id)) context.addIssue({ code: 'custom', message: `duplicate session id ${session.id}`, path: ['sessions', index, 'id'] });
      seen.add(session.id);
    });
  });

const timestampSchema = z
  .union([z.string(), z.number()])
  .transform((value, context) => {
    const normalised = normalizeTimestamp(value);
    if (normalised === undefined) {
      context.addIssue({ code: 'custom', message: 'must be an ISO date-time or epoch number' });
      return z.NEVER;
    }
    return normalised;
  });

const messageSchema = z
  .strictObject({
    id: name.optional(),
    role: name.optional(),
    speaker: name.optional(),
    content: z.string().min(1, 'must not be empty').optional(),
    text: z.string().min(1, 'must not be empty').optional(),
    timestamp: timestampSchema.optional(),
    sessionId: name.optional(),
    imageCaption: z.string().optional(),
  })
  .superRefine((message, context) => {
    if (message.speaker === undefined && message.role === undefined) context.addIssue({ code: 'custom', message: 'needs a speaker or a role', path: ['speaker'] });
    if (message.content === undefined && message.text === undefined) context.addIssue({ code: 'custom', message: 'needs content or text', path: ['content'] });
  });

/** One chat message as `add()` accepts it. */
export type MessageInput = z.input<typeof messageSchema>;
/** What `add()` accepts: a whole conversation, one session, or an array of chat messages. */
export type AddInput = z.input<typeof conversationSchema> | z.input<typeof sessionSchema> | MessageInput[];

function shortHash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 12);
}

function fromMessages(messages: ReadonlyArray<z.output<typeof messageSchema>>, defaultSession: string | undefined, now: () => Date): Conversation {
  const sessions = new Map<string, ConversationSession>();
  const occurrences = new Map<string, number>();
  const fallbackTime = messages.some((message) => message.timestamp === undefined) ? now().toISOString() : undefined;
  for (const message of messages) {
    const timestamp = message.timestamp ?? fallbackTime;
    // Undated messages share one session id, so adding them again on another day finds them.
    const sessionId = message.sessionId ?? defaultSession ?? (message.timestamp === undefined ? 'chat' : `chat-${message.timestamp.slice(0, 10)}`);
    let session = sessions.get(sessionId);
    if (session === undefined) {
      session = { id: sessionId, turns: [], ...(timestamp === undefined ? {} : { date: timestamp }) };
      sessions.set(sessionId, session);
    }
    const speaker = (message.speaker ?? message.role) as string;
    const text = (message.content ?? message.text) as string;
    // Content-derived ids: the same message added again maps to the same turn, wherever it sits.
    const base = `${sessionId}\u0000${speaker}\u0000${text}\u0000${message.timestamp ?? ''}`;
    const occurrence = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, occurrence);
    const turn: ConversationTurn = {
      id: message.id ?? `${sessionId}#${shortHash(speaker, text, message.timestamp ?? '', String(occurrence))}`,
      speaker,
      text,
      ...(message.role === undefined ? {} : { role: message.role }),
      ...(timestamp === undefined ? {} : { timestamp }),
      ...(message.imageCaption === undefined ? {} : { imageCaption: message.imageCaption }),
    };
    session.turns.push(turn);
  }
  const speakers = [...new Set(messages.map((message) => (message.speaker ?? message.role) as string))];
  return { id: 'chat', speakers, sessions: [...sessions.values()] };
}

/**
 * A session that gives no date and no turn timestamp is dated `now`, as undated messages are: it
 * is being said as it is added, and without a date it would have no session coordinate and its
 * relative times ("yesterday") nothing to be resolved against.
 */
function dated(session: ConversationSession, now: () => Date): ConversationSession {
  if (session.date !== undefined || session.turns.some((turn) => turn.timestamp !== undefined)) return session;
  return { ...session, date: now().toISOString() };
}

/**
 * Validates what `add()` was given and turns it into one conversation. Messages are grouped into
 * sessions by `sessionId` (else the scope's session, else `chat-<day of their timestamp>`, else
 * `chat`); a message without a timestamp, and a session without a date or timestamps, is dated
 * now. Throws an `InvalidInputError` naming the bad field.
 */
export function parseAddInput(input: unknown, options: { defaultSession?: string; now: () => Date }): Conversation {
  if (Array.isArray(input)) {
    const messages = parseInput(z.array(messageSchema).min(1, 'must hold at least one message'), input, { label: 'input' });
    return fromMessages(messages, options.defaultSession, options.now);
  }
  if (typeof input === 'object' && input !== null && 'sessions' in input) {
    const conversation = parseInput(conversationSchema, input, { label: 'input' }) as Conversation;
    return { ...conversation, sessions: conversation.sessions.map((session) => dated(session, options.now)) };
  }
  if (typeof input === 'object' && input !== null && 'turns' in input) {
    const session = parseInput(sessionSchema, input, { label: 'input' }) as ConversationSession;
    return { id: 'chat', speakers: [...new Set(session.turns.map((turn) => turn.speaker))], sessions: [dated(session, options.now)] };
  }
  return parseInput(z.custom<Conversation>(() => false, 'expected a conversation ({ id, speakers, sessions }), a session ({ id, turns }) or an array of messages'), input, { label: 'input' });
}
