import { describe, expect, it } from 'vitest';
import type { Conversation } from '../ingest/conversation.js';
import { createTinyStore } from './__fixtures__/tiny-store.js';
import { createEvalIngestion, withoutEmptyTurns } from './eval-ingestion.js';

const conversation: Conversation = {
  id: 'q1',
  speakers: ['user', 'assistant'],
  sessions: [
    {
      id: 's1',
      date: '2023-05-01T09:00',
      turns: [
        { id: 's1#0', speaker: 'user', role: 'user', text: 'I bought a red bike.' },
        { id: 's1#1', speaker: 'assistant', role: 'assistant', text: '' },
        { id: 's1#2', speaker: 'user', role: 'user', text: 'It is for commuting.' },
      ],
    },
  ],
};

describe('createEvalIngestion', () => {
  it('ingests through createEngram, leaving blank turns out and keeping the given turn ids', async () => {
    expect(withoutEmptyTurns(conversation).sessions[0]?.turns.map((turn) => turn.id)).toEqual(['s1#0', 's1#2']);
    const store = createTinyStore();
    const ingestion = createEvalIngestion(store);
    await ingestion.ingest(conversation, { userId: 'q1' });
    const turns = await store.listUnits({ userId: 'q1' }, { kinds: ['turn'] });
    expect(turns.flatMap((turn) => turn.sources.map((source) => source.turnId)).sort()).toEqual(['s1#0', 's1#2']);
    const [vector] = await ingestion.embed(['red bike']);
    expect(vector?.length).toBe(ingestion.engram.embedder.dimensions);
  });
});
