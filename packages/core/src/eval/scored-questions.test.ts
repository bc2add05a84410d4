import { describe, expect, it } from 'vitest';
import type { BenchmarkQuestion, Conversation } from '../ingest/conversation.js';
import { isAbstention, locomoCategoryName, selectScoredQuestions } from './scored-questions.js';

function question(overrides: Partial<BenchmarkQuestion> & Pick<BenchmarkQuestion, 'id'>): BenchmarkQuestion {
  return { conversationId: 'c1', question: 'q?', category: 'single-hop', evidenceTurns: [], evidenceSessions: [], ...overrides };
}

const locomoConversation: Conversation = { id: 'c1', speakers: ['A', 'B'], sessions: [] };

describe('LoCoMo question selection', () => {
  it('scores categories 1–4 with evidence, skips adversarial and evidence-less items', () => {
    const { scored, skipped } = selectScoredQuestions(
      'locomo',
      [locomoConversation],
      [
        question({ id: 'c1#0', category: 'multi-hop', evidenceTurns: ['D8:6; D9:17', 'D'] }),
        question({ id: 'c1#1', category: 'adversarial', evidenceTurns: ['D1:1'] }),
        question({ id: 'c1#2', category: 'open-domain', evidenceTurns: [] }),
        question({ id: 'c1#3', category: 'temporal', evidenceTurns: ['D:11:26'] }),
        question({ id: 'c1#4', category: '4', evidenceTurns: ['D2:1', 'D2:1'] }),
        question({ id: 'c9#0', conversationId: 'c9', evidenceTurns: ['D1:1'] }),
      ],
    );
    expect(scored.map((item) => [item.question.id, item.category, item.goldTurns])).toEqual([
      ['c1#0', 'multi-hop', ['D8:6', 'D9:17']],
      ['c1#4', 'single-hop', ['D2:1']],
    ]);
    expect(skipped).toEqual({ adversarial: 1, 'no evidence': 2 });
  });

  it('names categories given as ids or long names', () => {
    expect(locomoCategoryName('3')).toBe('open-domain');
    expect(locomoCategoryName('open-domain / commonsense')).toBe('open-domain');
    expect(locomoCategoryName('5')).toBe('adversarial');
  });
});

describe('LongMemEval question selection', () => {
  const conversation: Conversation = {
    id: 'q1',
    speakers: ['user', 'assistant'],
    sessions: [
      {
        id: 'answer_1',
        turns: [
          { id: 'answer_1#0', speaker: 'user', role: 'user', text: 'I bought a red bike.' },
          { id: 'answer_1#1', speaker: 'assistant', role: 'assistant', text: 'Nice bike.' },
        ],
      },
    ],
  };
  const base = { conversationId: 'q1', category: 'single-session-user', evidenceSessions: ['answer_1'] };

  it('skips abstention items and keeps user-side has_answer turns apart', () => {
    const { scored, skipped } = selectScoredQuestions(
      'longmemeval',
      [conversation, { ...conversation, id: 'q1_abs' }, { ...conversation, id: 'q2' }],
      [
        question({ id: 'q1', ...base, evidenceTurns: ['answer_1#0', 'answer_1#1'] }),
        question({ id: 'q1_abs', ...base, conversationId: 'q1_abs', evidenceTurns: ['answer_1#0'] }),
        question({ id: 'q2', ...base, conversationId: 'q2', category: 'single-session-assistant', evidenceTurns: ['answer_1#1'], evidenceUserTurns: [] }),
      ],
    );
    expect(skipped).toEqual({ abstention: 1 });
    expect(scored.map((item) => [item.question.id, item.goldSessions, item.goldUserTurns])).toEqual([
      ['q1', ['answer_1'], ['answer_1#0']],
      ['q2', ['answer_1'], []],
    ]);
  });

  it('recognises abstention by flag or by the _abs id', () => {
    expect(isAbstention(question({ id: 'x_abs' }))).toBe(true);
    expect(isAbstention(question({ id: 'x', abstention: true }))).toBe(true);
    expect(isAbstention(question({ id: 'x' }))).toBe(false);
  });
});
