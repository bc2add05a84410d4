import { describe, expect, it } from 'vitest';
import { createEngram } from '../../engram/create-engram.js';
import { createReferenceMemoryStore } from '../../testing/reference-memory-store.js';
import { buildQueryModel } from '../relevance/query-model.js';
import { MemoryView } from '../view/memory-view.js';
import { induceFrame } from './induce-frame.js';

const scope = { userId: 'sam' };

/** A user–assistant memory of three sessions in May 2023 (the 26th is a Friday, the 27th a Saturday). */
async function memory() {
  const store = createReferenceMemoryStore();
  const engram = createEngram({ store });
  const line = (id: string, speaker: string, text: string) => ({ id, speaker, text });
  await engram.add(
    {
      id: 'sam-chats',
      speakers: ['user', 'assistant'],
      sessions: [
        { id: 's1', date: '2023-05-12T10:00:00', turns: [line('s1:1', 'user', 'I picked cherry tomatoes from my garden.'), line('s1:2', 'assistant', 'Lovely!')] },
        { id: 's2', date: '2023-05-20T10:00:00', turns: [line('s2:1', 'user', 'I cooked a risotto for my friends.'), line('s2:2', 'assistant', 'Sounds tasty.')] },
        { id: 's3', date: '2023-05-27T18:00:00', turns: [line('s3:1', 'user', 'I started listening to a bluegrass band today.'), line('s3:2', 'assistant', 'Great genre.')] },
      ],
    },
    scope,
  );
  const view = await MemoryView.load(store, scope);
  return { store, view, engram };
}

describe('induceFrame: time', () => {
  it('resolves a past expression against the question date and says so', async () => {
    const { store, view, engram } = await memory();
    const frame = await induceFrame('What band did I start listening to last Friday?', { store, scope, view, questionDate: '2023-05-30T09:00:00' });
    expect(frame.time?.value).toMatchObject({ start: '2023-05-26', end: '2023-05-26' });
    expect(frame.time?.anchor).toBe('question-date');
    // Exactly grounded, the window's words are a condition, not words to look for.
    const terms = buildQueryModel(frame, view).terms;
    expect(terms.has('band')).toBe(true);
    expect(terms.has('fridai')).toBe(false);
    expect(terms.has('last')).toBe(false);
    await engram.dispose();
  });

  it('keeps the words of a window estimated from the memory’s last date', async () => {
    const { store, view, engram } = await memory();
    const frame = await induceFrame('What band did I start listening to last Friday?', { store, scope, view });
    expect(frame.time?.anchor).toBe('memory-end');
    expect(buildQueryModel(frame, view).terms.has('fridai')).toBe(true);
    await engram.dispose();
  });

  it('reads a request for advice as looking ahead, so its "this weekend" is not a window into the past', async () => {
    const { store, view, engram } = await memory();
    const ahead = await induceFrame('What should I cook this weekend with my homegrown tomatoes?', { store, scope, view, questionDate: '2023-05-30T09:00:00' });
    expect(ahead.time).toBeUndefined();
    expect(ahead.dropped).toEqual([{ text: 'this weekend', reason: 'outside the memory’s date range' }]);
    // A tense marker still wins over the default: this asks what happened.
    const past = await induceFrame('What did I cook last weekend?', { store, scope, view, questionDate: '2023-05-23T09:00:00' });
    expect(past.time?.value).toMatchObject({ start: '2023-05-20', end: '2023-05-21' });
    await engram.dispose();
  });
});
