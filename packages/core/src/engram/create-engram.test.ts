import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/engram-error.js';
import type { Episode, Fact, Topic, Turn, Unit } from '../model/units.js';
import { distillResultSchema, type Distiller } from '../ports/distiller.js';
import { annaAndBenjamin } from '../ingest/__fixtures__/anna-and-benjamin.js';
import { createTestMemoryStore, type TestMemoryStore } from '../ingest/__fixtures__/test-memory-store.js';
import { createOfflineDistiller } from '../ingest/offline/offline-distiller.js';
import { createEngram } from './create-engram.js';

const scope = { userId: 'user-1' };

function units(store: TestMemoryStore): Unit[] {
  return [...store.reference.units.values()].map((entry) => entry.unit);
}
const episodes = (store: TestMemoryStore) => units(store).filter((unit): unit is Episode => unit.kind === 'episode');
const facts = (store: TestMemoryStore) => units(store).filter((unit): unit is Fact => unit.kind === 'fact');
const topics = (store: TestMemoryStore) => units(store).filter((unit): unit is Topic => unit.kind === 'topic');
const episodeOf = (store: TestMemoryStore, turnId: string) =>
  episodes(store).find((episode) => episode.sources.some((source) => source.turnId === turnId)) as Episode;

async function ingested(): Promise<TestMemoryStore> {
  const store = createTestMemoryStore();
  await createEngram({ store }).add(annaAndBenjamin, scope);
  return store;
}

describe('engram.add on a four-session conversation', () => {
  it('writes every turn, one batch per session, and counts what it wrote', async () => {
    const store = createTestMemoryStore();
    const counts = await createEngram({ store }).add(annaAndBenjamin, scope);
    expect(store.writes).toBe(4);
    expect(counts).toMatchObject({ turns: 13, skippedTurns: 0 });
    expect(counts.episodes).toBe(episodes(store).length);
    expect(counts.facts).toBe(facts(store).length);
    expect(counts.topics).toBe(topics(store).length);
    expect(counts.cues).toBe(store.reference.cues.size);
    expect(counts.tags).toBe(store.reference.tags.size);
    // The pottery topic and the pottery fact come back in later sessions with relations they already had.
    expect(counts.relations).toBe(store.reference.relations.size);
    expect(counts.supersededFacts).toBe(1);
    expect(counts.timeExpressionsResolved).toBeGreaterThanOrEqual(6);
  });

  it('counts each relation once, also from a distiller that repeats them', async () => {
    const offline = createOfflineDistiller();
    const repeating: Distiller = {
      specificationVersion: offline.specificationVersion,
      name: 'repeating',
      distill: async (request) => {
        const result = await offline.distill(request);
        const relations = result.relations ?? [];
        return { ...result, relations: [...relations, ...relations] };
      },
    };
    const store = createTestMemoryStore();
    const counts = await createEngram({ store, distiller: repeating }).add(annaAndBenjamin, scope);
    expect(counts.relations).toBe(store.reference.relations.size);
  });

  it('gives every unit a vector', async () => {
    const store = await ingested();
    for (const unit of units(store)) expect(unit.vector?.length).toBe(256);
  });

  it('restates episodes self-contained: speaker named, pronouns resolved, relative dates absolute', async () => {
    const store = await ingested();
    const pottery = episodeOf(store, 's1:3');
    expect(pottery.text).toContain("Anna went to Anna's first pottery class yesterday (2023-03-09)");
    expect(pottery.text).toContain("Benjamin's sister has a studio in Cambridge");
    expect(pottery.text.startsWith('[2023-03-10]')).toBe(true);
    expect(pottery.sources.map((source) => source.turnId)).toContain('s1:3');
    expect(pottery.sources.length).toBeLessThanOrEqual(4);
    const puppy = episodeOf(store, 's2:3');
    expect(puppy.text).toContain('Benjamin adopted a puppy named Rex last Saturday (2023-05-13)');
  });

  it('resolves a pronoun to a person named after a kinship word ("my brother Tom" is one person)', async () => {
    const store = createTestMemoryStore();
    await createEngram({ store }).add(
      [
        { speaker: 'Ana', text: 'My brother Tom called. He got a new job at the port.', timestamp: '2024-04-02T10:00:00', sessionId: 'k1' },
        { speaker: 'Ben', text: 'Good for him!', timestamp: '2024-04-02T10:01:00', sessionId: 'k1' },
      ],
      scope,
    );
    expect(episodes(store).map((episode) => episode.text).join('\n')).toContain("Ana's brother Tom called. Tom got a new job at the port.");
  });

  it('keeps event time apart from session time', async () => {
    const store = await ingested();
    const pottery = episodeOf(store, 's1:3');
    expect(pottery.context.eventTime).toMatchObject({ start: '2023-03-09', end: '2023-03-09', granularity: 'day' });
    expect(pottery.context.session).toMatchObject({ id: 's1', start: '2023-03-10T10:00:00' });
    const moved = episodeOf(store, 's3:1');
    expect(moved.context.eventTime).toMatchObject({ start: '2023-07-17', granularity: 'week' });
    expect(moved.context.session?.start).toBe('2023-08-02T09:15:00');
    expect(moved.context.location).toBe('seattle');
    const turn = units(store).find((unit): unit is Turn => unit.kind === 'turn' && unit.sources[0]?.turnId === 's4:2');
    expect(turn?.context.mentionTimes.map((time) => time.text)).toEqual(['next week']);
    expect(turn?.context.eventTime?.start).toBe('2023-11-20');
  });

  it('builds cues shared across sessions, aliases, and tagged relations to episodes and turns', async () => {
    const store = await ingested();
    const cues = [...store.reference.cues.values()];
    const byName = new Map(cues.map((cue) => [cue.name, cue]));
    expect(byName.get('benjamin')).toMatchObject({ kind: 'person', aliases: ['ben'] });
    expect(byName.get('boston')?.kind).toBe('place');
    expect(byName.get('march 2023')?.kind).toBe('time');
    const pottery = byName.get('pottery');
    expect(pottery).toBeDefined();
    const relations = [...store.reference.relations.values()].filter((relation) => relation.cueId === pottery?.id);
    const sessions = new Set(relations.map((relation) => store.reference.units.get(relation.contentId)?.unit.context.session?.id).filter(Boolean));
    expect(sessions.size).toBeGreaterThanOrEqual(3);
    expect(relations.some((relation) => relation.contentId.startsWith('turn_'))).toBe(true);
    const tagOf = (cueName: string, contentId: string) => {
      const cue = byName.get(cueName);
      const relation = [...store.reference.relations.values()].find((entry) => entry.cueId === cue?.id && entry.contentId === contentId);
      return relation === undefined ? undefined : store.reference.tags.get(relation.tagId)?.label;
    };
    expect(tagOf('puppy', episodeOf(store, 's2:3').id)).toBe('adopted puppy');
    expect(tagOf('seattle', episodeOf(store, 's3:1').id)).toBe('moved to seattle');
  });

  it('keeps facts with aspects, supersedes the old home and updates a fact seen again', async () => {
    const store = await ingested();
    const all = facts(store);
    const boston = all.find((fact) => fact.aspect === 'home' && fact.value === 'boston') as Fact;
    const seattle = all.find((fact) => fact.aspect === 'home' && fact.value === 'seattle') as Fact;
    expect(boston).toMatchObject({ entity: 'anna', validFrom: '2023-02-01', validTo: '2023-07-17', supersededBy: seattle.id, firstSeenSession: 's1' });
    expect(seattle.validTo).toBeUndefined();
    expect(seattle.firstSeenSession).toBe('s3');
    const pottery = all.filter((fact) => fact.aspect === 'hobby' && fact.value === 'pottery');
    expect(pottery).toHaveLength(1);
    expect(pottery[0]).toMatchObject({ firstSeenSession: 's1', lastSeenSession: 's3' });
    expect(pottery[0]?.sources.map((source) => source.turnId)).toEqual(['s1:3', 's3:3']);
    expect(all.find((fact) => fact.aspect === 'job')?.value).toBe('nurse');
    expect(all.find((fact) => fact.aspect === 'pet')).toMatchObject({ entity: 'benjamin', value: 'puppy' });
    // Each fact hangs off its entity cue by its aspect tag.
    const anna = [...store.reference.cues.values()].find((cue) => cue.name === 'anna');
    const homeTag = [...store.reference.tags.values()].find((tag) => tag.label === 'home');
    const linked = [...store.reference.relations.values()].filter((relation) => relation.cueId === anna?.id && relation.tagId === homeTag?.id);
    expect(linked.map((relation) => relation.contentId).sort()).toEqual([boston.id, seattle.id].sort());
  });

  it('groups episodes of several sessions under one topic', async () => {
    const store = await ingested();
    const pottery = topics(store).find((topic) => topic.label === 'pottery') as Topic;
    const sessions = new Set(pottery.episodeIds.map((id) => store.reference.units.get(id)?.unit.context.session?.id));
    expect(sessions).toEqual(new Set(['s1', 's2', 's3']));
    for (const id of pottery.episodeIds) expect(store.reference.units.get(id)?.unit.context.topicId).toBe(pottery.id);
  });

  it('is idempotent: adding the same conversation again writes nothing', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    const first = await engram.add(annaAndBenjamin, scope);
    const before = store.snapshot();
    const writes = store.writes;
    const second = await engram.add(annaAndBenjamin, scope);
    expect(second).toMatchObject({ turns: 0, episodes: 0, facts: 0, topics: 0, cues: 0, tags: 0, relations: 0, skippedTurns: first.turns });
    expect(store.writes).toBe(writes);
    expect(store.snapshot()).toBe(before);
  });

  it('is incremental: sessions added in later calls build the same memory as all at once', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    const [s1, s2, s3] = annaAndBenjamin.sessions;
    const first = await engram.add({ ...annaAndBenjamin, sessions: [s1!, s2!] }, scope);
    const later = await engram.add({ ...annaAndBenjamin, sessions: [s1!, s2!, s3!] }, scope);
    expect(later).toMatchObject({ turns: 3, skippedTurns: 8, supersededFacts: 1 });
    const last = await engram.add(annaAndBenjamin, scope);
    expect(store.snapshot()).toBe((await ingested()).snapshot());
    expect(first.relations + later.relations + last.relations).toBe(store.reference.relations.size);
  });

  it('separates tenants', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    await engram.add(annaAndBenjamin, { userId: 'a' });
    const counts = await engram.add(annaAndBenjamin, { userId: 'b' });
    expect(counts.turns).toBe(13);
    expect(await store.listUnits({ userId: 'a' }, { kinds: ['fact'] })).toHaveLength(facts(store).length / 2);
  });
});

describe('engram.add input', () => {
  it('rejects bad input with the path of the bad field and writes nothing', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    const bad = structuredClone(annaAndBenjamin);
    (bad.sessions[2]!.turns[1] as { speaker?: string }).speaker = undefined;
    const error = await engram.add(bad, scope).catch((caught: unknown) => caught);
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).path).toBe('input.sessions[2].turns[1].speaker');
    expect(store.writes).toBe(0);
    await expect(engram.add([{ role: 'user' }] as never, scope)).rejects.toMatchObject({ path: 'input[0].content' });
    await expect(engram.add([{ role: 'user', content: 'hi' }, { role: 'user', content: 7 }] as never, scope)).rejects.toThrow(
      /^invalid input\[1\]\.content: expected string, received number$/,
    );
    await expect(engram.add({ id: 'x' } as never, scope)).rejects.toThrow(InvalidInputError);
    await expect(engram.add(annaAndBenjamin, { userId: '' })).rejects.toMatchObject({ path: 'scope.userId' });
    const badDate = { id: 's', date: 'yesterday', turns: [{ id: 't', speaker: 'A', text: 'hi' }] };
    await expect(engram.add(badDate, scope)).rejects.toMatchObject({ path: 'input.date' });
    expect(store.writes).toBe(0);
  });

  it('accepts an array of messages, grouped by session, and skips them when added again', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store, now: () => new Date('2024-01-01T12:00:00Z') });
    const messages = [
      { role: 'user', content: 'I moved to Denver yesterday.', timestamp: '2024-02-02T10:00:00', sessionId: 'a' },
      { role: 'assistant', content: 'Congratulations on the move!', timestamp: '2024-02-02T10:00:05', sessionId: 'a' },
      { speaker: 'user', text: 'I adopted a cat named Luna.' },
    ];
    const first = await engram.add(messages, scope);
    expect(first.turns).toBe(3);
    expect(store.writes).toBe(2);
    const denver = facts(store).find((fact) => fact.aspect === 'home');
    expect(denver).toMatchObject({ entity: 'user', value: 'denver', validFrom: '2024-02-01' });
    const undated = units(store).find((unit): unit is Turn => unit.kind === 'turn' && unit.text.includes('Luna'));
    expect(undated?.context.session?.start.startsWith('2024-01-01')).toBe(true);
    const again = await engram.add(messages, scope);
    expect(again).toMatchObject({ turns: 0, skippedTurns: 3 });
  });

  it('dates a session given without a date or timestamps now, so it has its coordinate and its relative times resolve', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store, now: () => new Date('2024-05-01T12:00:00Z') });
    const session = { id: 'undated', turns: [{ id: 'u:1', speaker: 'Ana', text: 'I moved to Rome yesterday.' }] };
    await engram.add(session, scope);
    const turn = units(store).find((unit): unit is Turn => unit.kind === 'turn');
    expect(turn?.context.session).toMatchObject({ id: 'undated', start: '2024-05-01T12:00:00.000Z' });
    expect(turn?.context.eventTime).toMatchObject({ start: '2024-04-30', granularity: 'day' });
    // Added again on another day, it is the same session: nothing is written.
    const later = await createEngram({ store, now: () => new Date('2024-06-01T12:00:00Z') }).add(session, scope);
    expect(later).toMatchObject({ turns: 0, skippedTurns: 1 });
  });
});

describe('engram lifecycle', () => {
  it('serialises concurrent adds of one user without duplicating anything', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    const [a, b] = await Promise.all([engram.add(annaAndBenjamin, scope), engram.add(annaAndBenjamin, scope)]);
    expect(a.turns + b.turns).toBe(13);
    expect(a.skippedTurns + b.skippedTurns).toBe(13);
    expect(store.snapshot()).toBe((await ingested()).snapshot());
  });

  it('forgets a user, deletes a unit and disposes the store', async () => {
    const store = createTestMemoryStore();
    const engram = createEngram({ store });
    await engram.add(annaAndBenjamin, { userId: 'a' });
    await engram.add(annaAndBenjamin, { userId: 'b' });
    const [episode] = await store.listUnits({ userId: 'b' }, { kinds: ['episode'], limit: 1 });
    expect(await engram.delete(episode!.id, { userId: 'b' })).toBe(true);
    expect(await engram.delete(episode!.id, { userId: 'b' })).toBe(false);
    await engram.forget({ userId: 'a' });
    expect(await store.listUnits({ userId: 'a' })).toHaveLength(0);
    expect((await store.listUnits({ userId: 'b' }, { limit: 1000 })).length).toBeGreaterThan(0);
    await engram.dispose();
    await expect(engram.add(annaAndBenjamin, { userId: 'c' })).rejects.toMatchObject({ code: 'disposed' });
    await expect(store.listUnits({ userId: 'b' })).rejects.toThrow();
  });
});

describe('offline distiller', () => {
  it('returns output that satisfies the port schema and nothing for known turns', async () => {
    const distiller = createOfflineDistiller();
    const memory = { findCues: async () => [], currentFacts: async () => [], getUnits: async (ids: ReadonlyArray<string>) => ids.map(() => undefined), listTopics: async () => [] };
    const session = annaAndBenjamin.sessions[0]!;
    const request = { scope, conversation: annaAndBenjamin, session, memory };
    const result = await distiller.distill({ ...request, knownTurnIds: new Set() });
    expect(() => distillResultSchema.parse(result)).not.toThrow();
    const known = await distiller.distill({ ...request, knownTurnIds: new Set(session.turns.map((turn) => turn.id)) });
    expect(distillResultSchema.parse(known)).toMatchObject({ turns: [], episodes: [], relations: [] });
  });
});
