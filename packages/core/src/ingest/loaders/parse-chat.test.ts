import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchInputError } from './__fixtures__/catch-input-error.js';
import { parseChatJson, parseChatJsonl } from './parse-chat.js';

const read = (name: string): string => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('parseChatJson', () => {
  it('groups an array of messages into sessions by sessionId, in date order', () => {
    const { conversations, questions } = parseChatJson(JSON.parse(read('chat-messages.json')), { source: 'logs/chat-messages.json' });
    expect(questions).toEqual([]);
    const [conversation] = conversations;
    expect(conversation?.id).toBe('chat-messages');
    expect(conversation?.speakers).toEqual(['user', 'assistant', 'Maya']);
    expect(conversation?.sessions.map((session) => [session.id, session.date])).toEqual([
      ['s1', '2024-02-01T18:30:00'],
      ['s2', '2024-03-02T10:00:00Z'],
    ]);
    expect(conversation?.sessions[0]?.turns).toEqual([
      { id: 'msg-7', speaker: 'Maya', role: 'user', text: 'My sister is visiting.', timestamp: '2024-02-01T18:30:00' },
      { id: 's1#1', speaker: 'assistant', role: 'assistant', text: 'Have fun!' },
    ]);
    expect(conversation?.sessions[1]?.turns.map((turn) => turn.id)).toEqual(['s2#0', 's2#1']);
  });

  it('reads { sessions } with their ids and dates, and { messages } into one default session', () => {
    const { conversations } = parseChatJson(JSON.parse(read('chat-sessions.json')));
    const [conversation] = conversations;
    expect(conversation?.id).toBe('support-log');
    expect(conversation?.sessions.map((session) => [session.id, session.date, session.turns.length])).toEqual([
      ['monday', '2024-01-08', 2],
      ['session_2', '2024-01-09T09:00:00.000Z', 1],
    ]);
    expect(conversation?.sessions[1]?.turns[0]?.id).toBe('session_2#0');

    const single = parseChatJson({ messages: [{ speaker: 'Ana', text: 'Hi' }] }, { conversationId: 'ana' });
    expect(single.conversations).toEqual([
      { id: 'ana', speakers: ['Ana'], sessions: [{ id: 'default', turns: [{ id: 'default#0', speaker: 'Ana', text: 'Hi' }] }] },
    ]);
  });

  it('keeps first-appearance order when some session has no date', () => {
    const { conversations } = parseChatJson([
      { role: 'user', content: 'later', sessionId: 'b', timestamp: '2024-05-02T00:00:00' },
      { role: 'user', content: 'undated', sessionId: 'a' },
    ]);
    expect(conversations[0]?.sessions.map((session) => session.id)).toEqual(['b', 'a']);
  });

  it('names the record and field of a bad message', () => {
    const messages = [
      { role: 'user', content: 'fine' },
      { role: 'user', content: 'fine too' },
      { role: 'user', content: ['not', 'text'] },
    ];
    const error = catchInputError(() => parseChatJson(messages, { source: 'chat.json' }));
    expect(error.message).toBe('chat.json: record 3: invalid content: expected string, received array');
    expect(error.path).toBe('content');
  });

  it('reports missing speaker and text, bad timestamps and duplicate ids inside { sessions }', () => {
    const value = {
      sessions: [
        { id: 'x', messages: [{ content: 'who?' }, { role: 'user' }] },
        { id: 'y', messages: [{ role: 'user', content: 'when?', timestamp: 'last Tuesday' }] },
        { id: 'x', messages: [] },
      ],
    };
    const error = catchInputError(() => parseChatJson(value, { source: 'log.json' }));
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'log.json: invalid sessions[0].messages[0].role: missing (expected `role` or `speaker`: string)',
      'log.json: invalid sessions[0].messages[1].content: missing (expected `content` or `text`: string)',
      'log.json: invalid sessions[1].messages[0].timestamp: expected an ISO date-time or epoch number, got "last Tuesday"',
      'log.json: invalid sessions[2].id: duplicate session id "x"',
    ]);
    const duplicate = catchInputError(() =>
      parseChatJson([
        { role: 'user', content: 'a', id: 'm1' },
        { role: 'user', content: 'b', id: 'm1' },
      ]),
    );
    expect(duplicate.message).toBe('record 2: invalid id: duplicate turn id "m1" (first at record 1)');
  });

  it('rejects a value that is no chat log', () => {
    expect(catchInputError(() => parseChatJson({ title: 'x' }, { source: 'x.json' })).message).toBe(
      'x.json: unrecognised chat log: expected an array of messages, { messages: [...] } or { sessions: [{ messages: [...] }] }',
    );
  });
});

describe('parseChatJsonl', () => {
  it('reads one message per line, skipping blank lines', () => {
    const { conversations } = parseChatJsonl(read('chat.jsonl'), { source: 'chat.jsonl' });
    const [conversation] = conversations;
    expect(conversation?.id).toBe('chat');
    expect(conversation?.sessions.map((session) => [session.id, session.date, session.turns.map((turn) => turn.id)])).toEqual([
      ['default', '2024-05-01T09:00:00', ['default#0', 'default#1']],
      ['later', '2024-05-03T20:15:00', ['later#0']],
    ]);
  });

  it('names the line of every bad message and of malformed JSON', () => {
    const error = catchInputError(() => parseChatJsonl(read('bad-chat.jsonl'), { source: 'chat.jsonl' }));
    expect(error.message).toBe('chat.jsonl:3: invalid content: expected string, received number (and 2 more issues)');
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'chat.jsonl:3: invalid content: expected string, received number',
      'chat.jsonl:5:26: malformed JSON: unterminated string',
      'chat.jsonl:6: invalid role: missing (expected `role` or `speaker`: string)',
    ]);
  });

  it('names the line of a blank message', () => {
    const log = ['{"speaker":"Ana","text":"Hi"}', '{"speaker":"Ben","text":"  "}', '{"speaker":"Ana","content":""}'].join('\n');
    const error = catchInputError(() => parseChatJsonl(log, { source: 'chat.jsonl' }));
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'chat.jsonl:2: invalid text: must not be empty',
      'chat.jsonl:3: invalid content: must not be empty',
    ]);
  });

  it('returns no conversation for an empty log', () => {
    expect(parseChatJsonl('\n\n')).toEqual({ conversations: [], questions: [] });
  });
});
