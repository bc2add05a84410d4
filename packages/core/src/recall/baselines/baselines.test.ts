import { describe, expect, it } from 'vitest';
import { createTinyStore } from '../../eval/__fixtures__/tiny-store.js';
import type { Conversation } from '../../ingest/conversation.js';
import { sessionTurnUnits } from '../../ingest/turn-units.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import type { RecallContext } from '../strategy.js';
import { baselineStrategies, createOramaTurnsStrategy } from './index.js';

const conversation: Conversation = {
  id: 'conv',
  speakers: ['Ada', 'Bo'],
  sessions: [
    {
      id: 'session_1',
      date: '2023-05-08T13:56',
      turns: [
        { id: 'D1:1', speaker: 'Ada', text: 'I adopted a beagle puppy named Pixel.' },
        { id: 'D1:2', speaker: 'Bo', text: 'I started pottery classes downtown.' },
        { id: 'D1:3', speaker: 'Ada', text: 'Pixel chewed my running shoes.' },
      ],
    },
  ],
};

async function seed(store: MemoryStore, userId: string, source: Conversation = conversation): Promise<void> {
  for (const session of source.sessions) await store.write({ units: sessionTurnUnits({ userId }, source, session) });
}

function contextOf(store: MemoryStore): RecallContext {
  return { store, embed: async (texts) => texts.map(() => new Float32Array([1])) };
}

describe.each(['bm25-turns', 'orama-turns'] as const)('%s', (name) => {
  it('ranks raw turns and returns them as evidence with sources, coordinates and a reason', async () => {
    const store = createTinyStore();
    await seed(store, 'u1');
    await seed(store, 'u2', { ...conversation, sessions: [{ id: 'other', turns: [{ id: 'X:1', speaker: 'Cy', text: 'My pottery puppy is a pottery beagle.' }] }] });
    const strategy = baselineStrategies[name](contextOf(store));
    const result = await strategy.recall('What is the name of the beagle puppy?', { scope: { userId: 'u1' }, k: 2 });
    expect(result.strategy).toBe(name);
    expect(result.evidence.length).toBeGreaterThan(0);
    expect(result.evidence.length).toBeLessThanOrEqual(2);
    const [top] = result.evidence;
    expect(top?.sources).toEqual([{ sessionId: 'session_1', turnId: 'D1:1' }]);
    expect(top?.coordinates.session?.id).toBe('session_1');
    expect(top?.reasons).toEqual([{ operator: name === 'bm25-turns' ? 'bm25' : 'orama' }]);
    // Another tenant's turns never show up.
    expect(result.evidence.every((item) => item.unit.scope.userId === 'u1')).toBe(true);
    expect(result.trace.length).toBeGreaterThan(0);
  });
});

describe('orama-turns index cache', () => {
  it('builds the index once per scope and sees new turns after reset()', async () => {
    const store = createTinyStore();
    await seed(store, 'u1');
    const strategy = createOramaTurnsStrategy(contextOf(store));
    const first = await strategy.recall('kiln', { scope: { userId: 'u1' } });
    expect(first.trace[0]?.action).toBe('build-index');
    expect(first.evidence).toEqual([]);
    const more: Conversation = { ...conversation, sessions: [{ id: 'session_2', turns: [{ id: 'D2:1', speaker: 'Bo', text: 'The bowl came out of the kiln.' }] }] };
    await seed(store, 'u1', more);
    const cached = await strategy.recall('kiln', { scope: { userId: 'u1' } });
    expect(cached.trace[0]?.action).toBe('reuse-index');
    expect(cached.evidence).toEqual([]);
    strategy.reset({ userId: 'u1' });
    const rebuilt = await strategy.recall('kiln', { scope: { userId: 'u1' } });
    expect(rebuilt.trace[0]).toMatchObject({ action: 'build-index', output: { turns: 4 } });
    expect(rebuilt.evidence.map((item) => item.sources[0]?.turnId)).toEqual(['D2:1']);
  });
});
