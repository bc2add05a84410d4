import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catchInputError } from './__fixtures__/catch-input-error.js';
import { normalizeLocomoEvidence, parseLocomo } from './parse-locomo.js';

const fixture = (): unknown[] =>
  JSON.parse(readFileSync(new URL('./__fixtures__/locomo-mini.json', import.meta.url), 'utf8')) as unknown[];

describe('parseLocomo', () => {
  it('reads sessions from the session_N keys in numeric order, with wall-clock dates', () => {
    const { conversations } = parseLocomo(fixture());
    const [first, second] = conversations;
    expect(conversations).toHaveLength(2);
    expect(first?.id).toBe('mini-1');
    expect(first?.speakers).toEqual(['Alice', 'Bob']);
    // session_3 has a date key but no turns, so it is not a session.
    expect(first?.sessions.map((session) => [session.id, session.date])).toEqual([
      ['session_1', '2023-05-08T13:56:00'],
      ['session_2', '2023-06-03T00:15:00'],
      ['session_10', '2023-07-01T09:05:00'],
    ]);
    expect(second?.sessions[0]?.date).toBe('2024-02-29T23:30:00');
  });

  it('keeps dia_id, speaker, text and the image caption of each turn', () => {
    const session = parseLocomo(fixture()).conversations[0]?.sessions[0];
    expect(session?.turns[0]).toEqual({ id: 'D1:1', speaker: 'Alice', text: 'Hi Bob! How was your week?' });
    expect(session?.turns[2]).toEqual({
      id: 'D1:3',
      speaker: 'Alice',
      text: 'Look at this lake I saw.',
      imageCaption: 'a photo of a lake surrounded by trees',
    });
  });

  it('leaves out a turn with blank text and no image', () => {
    const samples = fixture() as Array<{ conversation: Record<string, Array<Record<string, unknown>>> }>;
    samples[0]?.conversation.session_1?.splice(1, 0, { speaker: 'Bob', dia_id: 'D1:9', text: ' ' }, { speaker: 'Bob', dia_id: 'D1:8', text: '', blip_caption: 'a photo of a dog' });
    const turns = parseLocomo(samples).conversations[0]?.sessions[0]?.turns ?? [];
    expect(turns.map((turn) => turn.id)).toEqual(['D1:1', 'D1:8', 'D1:2', 'D1:3']);
  });

  it('turns qa items into questions with category names, string answers and clean evidence', () => {
    const { questions } = parseLocomo(fixture());
    expect(questions).toHaveLength(8);
    expect(questions.map((question) => question.category)).toEqual([
      'single-hop',
      'temporal',
      'multi-hop',
      'open-domain',
      'single-hop',
      'adversarial',
      'adversarial',
      'single-hop',
    ]);
    expect(questions[1]).toEqual({
      id: 'mini-1#1',
      conversationId: 'mini-1',
      question: 'When did Alice adopt the puppy?',
      answer: 'The week before 3 June 2023',
      category: 'temporal',
      evidenceTurns: ['D2:1', 'D10:2'],
      evidenceSessions: ['session_2', 'session_10'],
    });
    expect(questions[2]?.evidenceTurns).toEqual(['D1:2']);
    expect(questions[3]?.evidenceTurns).toEqual([]);
    expect(questions[4]?.answer).toBe('2019');
    expect(questions[7]?.id).toBe('mini-2#0');
  });

  it('keeps the adversarial answer apart from the expected answer and marks abstention', () => {
    const { questions } = parseLocomo(fixture());
    expect(questions[5]).toMatchObject({ adversarialAnswer: 'Biscuit', abstention: true });
    expect(questions[5]?.answer).toBeUndefined();
    expect(questions[6]).toMatchObject({ answer: 'No', adversarialAnswer: 'Yes', abstention: true });
    expect(questions[0]?.abstention).toBeUndefined();
  });

  it('accepts a single sample object', () => {
    const single = fixture()[1];
    expect(parseLocomo(single).conversations.map((conversation) => conversation.id)).toEqual(['mini-2']);
  });

  it('names the file, record and field path of a wrong type', () => {
    const samples = fixture() as Array<{ conversation: Record<string, Array<Record<string, unknown>>> }>;
    const turn = samples[1]?.conversation.session_1?.[1];
    if (turn !== undefined) turn.text = 7;
    const error = catchInputError(() => parseLocomo(samples, { source: 'data.json' }));
    expect(error.message).toBe('data.json: record 2 (mini-2): invalid conversation.session_1[1].text: expected string, received number');
    expect(error.path).toBe('conversation.session_1[1].text');
    expect(error.source).toBe('data.json: record 2 (mini-2)');
  });

  it('reports missing fields, bad dates and every issue, and returns nothing', () => {
    const samples = fixture() as Array<Record<string, unknown> & { conversation: Record<string, unknown>; qa: unknown[] }>;
    delete samples[0]?.conversation.speaker_b;
    if (samples[1] !== undefined) samples[1].conversation.session_1_date_time = 'yesterday';
    samples[1]?.qa.push({ question: 'No answer?', evidence: [], category: 2 });
    const error = catchInputError(() => parseLocomo(samples, { source: 'data.json' }));
    expect(error.message).toBe('data.json: record 1 (mini-1): invalid conversation.speaker_b: missing (expected string) (and 2 more issues)');
    expect(error.issues.map((issue) => issue.message)).toEqual([
      'data.json: record 1 (mini-1): invalid conversation.speaker_b: missing (expected string)',
      'data.json: record 2 (mini-2): invalid conversation.session_1_date_time: expected a date like "1:56 pm on 8 May, 2023", got "yesterday"',
      'data.json: record 2 (mini-2): invalid qa[1].answer: missing (expected string or number)',
    ]);
  });

  it('rejects duplicate turn ids, duplicate samples, samples without sessions and bad categories', () => {
    const base = fixture()[1] as { conversation: Record<string, unknown>; qa: Array<Record<string, unknown>> };
    const duplicateTurn = structuredClone(base);
    duplicateTurn.conversation.session_2 = [{ speaker: 'Dan', dia_id: 'D1:1', text: 'again' }];
    expect(catchInputError(() => parseLocomo(duplicateTurn)).message).toBe(
      'mini-2: invalid conversation.session_2[0].dia_id: duplicate turn id "D1:1" (first at conversation.session_1[0].dia_id)',
    );
    expect(catchInputError(() => parseLocomo([base, base])).message).toBe(
      'record 2 (mini-2): invalid sample_id: duplicate sample_id "mini-2" (also record 1)',
    );
    const noSessions = { sample_id: 'empty', conversation: { speaker_a: 'A', speaker_b: 'B' } };
    expect(catchInputError(() => parseLocomo(noSessions)).message).toBe(
      'empty: invalid conversation: no sessions (expected session_1, session_2, … keys)',
    );
    const badCategory = structuredClone(base);
    if (badCategory.qa[0] !== undefined) badCategory.qa[0].category = 9;
    expect(catchInputError(() => parseLocomo(badCategory)).path).toBe('qa[0].category');
  });

  it('says what it expected when a record is not an object', () => {
    expect(catchInputError(() => parseLocomo(['oops'], { source: 'x.json' })).message).toBe(
      'x.json: record 1: expected object, received string',
    );
  });
});

describe('normalizeLocomoEvidence', () => {
  it('splits joined ids, drops malformed tokens and duplicates', () => {
    expect(normalizeLocomoEvidence(['D8:6; D9:17', 'D', 'D:11:26', 'D3:1 D3:2', 'D8:6'])).toEqual([
      'D8:6',
      'D9:17',
      'D3:1',
      'D3:2',
    ]);
  });
});
