import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchInputError } from './__fixtures__/catch-input-error.js';
import { parseLongMemEval } from './parse-longmemeval.js';

const fixture = (): Array<Record<string, unknown>> =>
  JSON.parse(readFileSync(new URL('./__fixtures__/longmemeval-mini.json', import.meta.url), 'utf8')) as Array<
    Record<string, unknown>
  >;

describe('parseLongMemEval', () => {
  it('makes one conversation per record with sessions in date order (stable on ties)', () => {
    const { conversations } = parseLongMemEval(fixture());
    const [first] = conversations;
    expect(conversations.map((conversation) => conversation.id)).toEqual(['q-001', 'q-002_abs']);
    expect(first?.speakers).toEqual(['user', 'assistant']);
    expect(first?.sessions.map((session) => [session.id, session.date])).toEqual([
      ['answer_q001_1', '2023-05-20T09:00:00'],
      ['chat_a~2', '2023-05-21T10:30:00'],
      ['chat_a', '2023-05-23T19:11:00'],
      ['chat_c', '2023-05-23T19:11:00'],
    ]);
  });

  it('gives a repeated session id a suffix and keeps the given id as sourceId', () => {
    const sessions = parseLongMemEval(fixture()).conversations[0]?.sessions ?? [];
    const repeat = sessions.find((session) => session.id === 'chat_a~2');
    expect(repeat?.sourceId).toBe('chat_a');
    expect(repeat?.turns.map((turn) => turn.id)).toEqual(['chat_a~2#0', 'chat_a~2#1']);
    expect(sessions.find((session) => session.id === 'chat_a')?.sourceId).toBeUndefined();
  });

  it('numbers turns within their session and keeps the role', () => {
    const session = parseLongMemEval(fixture()).conversations[0]?.sessions[0];
    expect(session?.turns).toEqual([
      { id: 'answer_q001_1#0', speaker: 'user', role: 'user', text: 'I just bought a blue bike.' },
      { id: 'answer_q001_1#1', speaker: 'assistant', role: 'assistant', text: 'Blue bikes are great.' },
      { id: 'answer_q001_1#2', speaker: 'assistant', role: 'assistant', text: 'Your blue bike needs a lock.' },
    ]);
  });

  it('builds the question with evidence turns of every role and of the user alone', () => {
    const { questions } = parseLongMemEval(fixture());
    expect(questions[0]).toEqual({
      id: 'q-001',
      conversationId: 'q-001',
      question: 'What colour is my bike?',
      answer: 'Blue',
      category: 'single-session-user',
      abstention: false,
      evidenceTurns: ['answer_q001_1#0', 'answer_q001_1#2'],
      evidenceUserTurns: ['answer_q001_1#0'],
      evidenceSessions: ['answer_q001_1'],
      questionDate: '2023-05-30T08:00:00',
    });
    expect(questions[1]).toMatchObject({ id: 'q-002_abs', answer: '3', abstention: true, category: 'knowledge-update' });
  });

  it('accepts a single record object', () => {
    expect(parseLongMemEval(fixture()[1]).questions.map((question) => question.id)).toEqual(['q-002_abs']);
  });

  it('reports length mismatches, bad dates and wrong types with their paths', () => {
    const records = fixture();
    const first = records[0];
    const second = records[1];
    if (first === undefined || second === undefined) throw new Error('fixture');
    first.haystack_session_ids = ['only-one'];
    second.haystack_dates = ['May 1st'];
    (second.haystack_sessions as Array<Array<Record<string, unknown>>>)[0]?.push({ role: 'user', content: null });
    const error = catchInputError(() => parseLongMemEval(records, { source: 'lme.json' }));
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'lme.json: record 1 (q-001): invalid haystack_session_ids: expected 4 items (one per haystack session), got 1',
      'lme.json: record 2 (q-002_abs): invalid haystack_dates[0]: expected a date like "2023/05/23 (Tue) 19:11", got "May 1st"',
      'lme.json: record 2 (q-002_abs): invalid haystack_sessions[0][2].content: expected string, received null',
    ]);
    expect(error.path).toBe('haystack_session_ids');
  });

  it('leaves out turns with blank content, keeping the index of the others in their ids', () => {
    const records = fixture();
    const sessions = records[0]?.haystack_sessions as Array<Array<Record<string, unknown>>>;
    sessions[1]?.splice(1, 0, { role: 'user', content: '' }, { role: 'user', content: ' \n' });
    const session = parseLongMemEval(records).conversations[0]?.sessions.find((entry) => entry.id === 'answer_q001_1');
    expect(session?.turns.map((turn) => [turn.id, turn.text])).toEqual([
      ['answer_q001_1#0', 'I just bought a blue bike.'],
      ['answer_q001_1#3', 'Blue bikes are great.'],
      ['answer_q001_1#4', 'Your blue bike needs a lock.'],
    ]);
  });

  it('accepts only the roles user and assistant', () => {
    const records = fixture();
    (records[1]?.haystack_sessions as Array<Array<Record<string, unknown>>>)[0]?.push({ role: 'User', content: 'I have three cats now.' });
    expect(catchInputError(() => parseLongMemEval(records, { source: 'lme.json' })).message).toBe(
      'lme.json: record 2 (q-002_abs): invalid haystack_sessions[0][2].role: expected "user" or "assistant", got "User"',
    );
  });

  it('rejects duplicate question ids', () => {
    const record = fixture()[0];
    expect(catchInputError(() => parseLongMemEval([record, record])).message).toBe(
      'record 2 (q-001): invalid question_id: duplicate question_id "q-001" (also record 1)',
    );
  });
});
