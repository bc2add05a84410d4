import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/engram-error.js';
import { sampleConversation } from '../demo/sample-conversation.js';
import { createReferenceMemoryStore } from '../testing/reference-memory-store.js';
import { renderEvidence } from '../recall/render-evidence.js';
import { createEngram } from './create-engram.js';

async function sampleEngram() {
  const engram = createEngram({ store: createReferenceMemoryStore() });
  await engram.add(sampleConversation, { userId: 'maya' });
  return engram;
}

describe('engram.recall', () => {
  it('finds the turn that answers a question, with coordinates, reasons and a trace', async () => {
    const engram = await sampleEngram();
    const result = await engram.recall('When did Tom sign the lease for the bakery?', { scope: { userId: 'maya' }, k: 5 });
    expect(result.strategy).toBe('active');
    expect(result.evidence[0]?.sources.map((source) => source.turnId)).toContain('s2:1');
    expect(result.evidence[0]?.coordinates.session?.start).toBe('2024-03-02T10:05:00');
    expect(result.evidence[0]?.reasons.length).toBeGreaterThan(0);
    expect(renderEvidence(result.evidence[0]!)).toContain('[2 March 2024');
    const actions = result.trace.map((step) => step.action);
    expect(actions[0]).toBe('induce-frame');
    expect(actions).toContain('select');
    expect(actions).toContain('route');
    // Every reconstruction ends with a stop step that says why, the turn budget included.
    expect(result.trace.at(-1)?.action).toBe('stop');
    expect(result.trace.at(-1)?.reason).toMatch(/\w{4}/);
  });

  it('answers a question about a changed fact with the current value first', async () => {
    const engram = await sampleEngram();
    const result = await engram.recall('Where does Maya live now?', { scope: { userId: 'maya' }, k: 3 });
    expect(result.evidence[0]?.sources.map((source) => source.turnId)).toContain('s4:1');
    expect(result.evidence[0]?.reasons.some((reason) => reason.operator === 'query_personal_aspect')).toBe(true);
  });

  it('answers a question asking for a list of activities with each activity, not one activity many times', async () => {
    const engram = createEngram({ store: createReferenceMemoryStore() });
    const line = (id: string, speaker: string, text: string) => ({ id, speaker, text });
    await engram.add(
      {
        id: 'ana-and-ben',
        speakers: ['Ana', 'Ben'],
        sessions: [
          { id: 'a1', date: '2024-05-04T10:00:00', turns: [line('a1:1', 'Ana', "Right, I'm off to go swimming with my nephews. See you!"), line('a1:2', 'Ben', 'Have fun at the pool!')] },
          {
            id: 'a2',
            date: '2024-05-11T10:00:00',
            turns: [
              line('a2:1', 'Ana', 'Yesterday I signed up for a pottery class, an activity all of my own.'),
              line('a2:2', 'Ben', 'A pottery class! What do you make in the pottery class?'),
              line('a2:3', 'Ana', 'Bowls and cups in pottery class, and the pottery calms me.'),
              line('a2:4', 'Ben', 'Pottery sounds calming for you, Ana.'),
              line('a2:5', 'Ana', 'It is! Pottery class is my favourite part of the week.'),
              line('a2:6', 'Ben', 'Send me a photo of your pottery.'),
            ],
          },
          { id: 'a3', date: '2024-05-25T10:00:00', turns: [line('a3:1', 'Ana', 'We went camping by the lake last weekend, the kids loved the tent.'), line('a3:2', 'Ben', 'The lake must have been beautiful.')] },
        ],
      },
      { userId: 'ana' },
    );
    const result = await engram.recall('What activities does Ana partake in?', { scope: { userId: 'ana' }, k: 3 });
    const turns = result.evidence.flatMap((item) => item.sources.map((source) => source.turnId));
    expect(turns).toEqual(expect.arrayContaining(['a1:1', 'a2:1', 'a3:1']));
  });

  it('grounds "last weekend" in the question against the memory, not today', async () => {
    const engram = await sampleEngram();
    const result = await engram.recall('Where did Maya and Pepper go hiking?', { scope: { userId: 'maya' }, strategy: 'ramem', k: 3 });
    expect(result.evidence.flatMap((item) => item.sources.map((source) => source.turnId))).toContain('s5:2');
  });

  it('never returns another tenant’s memory', async () => {
    const engram = await sampleEngram();
    await engram.add({ id: 'other', speakers: ['Zed'], sessions: [{ id: 'z1', date: '2024-01-01T10:00:00', turns: [{ id: 'z:1', speaker: 'Zed', text: 'I signed the lease for a bakery too.' }] }] }, { userId: 'zed' });
    for (const strategy of ['active', 'ramem', 'similarity', 'graph', 'bm25-turns'] as const) {
      const result = await engram.recall('bakery lease', { scope: { userId: 'maya' }, strategy, k: 20 });
      expect(result.evidence.every((item) => item.unit.scope.userId === 'maya')).toBe(true);
    }
  });

  it('sees new memory after add and nothing after forget', async () => {
    const engram = await sampleEngram();
    await engram.add([{ speaker: 'Tom', text: 'We opened a second bakery in Porto.', timestamp: '2024-12-01T09:00:00', sessionId: 'session-6' }], { userId: 'maya' });
    const found = await engram.recall('second bakery Porto', { scope: { userId: 'maya' }, k: 3 });
    expect(found.evidence[0]?.unit.text).toContain('Porto');
    await engram.forget({ userId: 'maya' });
    const gone = await engram.recall('second bakery Porto', { scope: { userId: 'maya' }, k: 3 });
    expect(gone.evidence).toHaveLength(0);
  });

  it('rejects bad options with the path of the bad field', async () => {
    const engram = await sampleEngram();
    await expect(engram.recall('x', { scope: { userId: 'maya' }, strategy: 'nope' as never })).rejects.toSatisfy((error: unknown) => InvalidInputError.isInstance(error) && error.path === 'options.strategy');
    await expect(engram.recall('', { scope: { userId: 'maya' } })).rejects.toSatisfy((error: unknown) => InvalidInputError.isInstance(error) && error.path === 'query');
    await expect(engram.recall('x', { scope: { userId: '' } })).rejects.toSatisfy((error: unknown) => InvalidInputError.isInstance(error) && error.path === 'options.scope.userId');
  });
});
