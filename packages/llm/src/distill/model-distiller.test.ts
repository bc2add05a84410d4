import { APICallError } from 'ai';
import { createEngram, createOfflineDistiller, cueId, ModelError, stableId, tagId, topicIdOf, turnUnitId, type Fact, type Unit } from '@engram/core';
import { createMemoryStore } from '@engram/store-memory';
import { describe, expect, it } from 'vitest';
import { anaAndBen, jsonReply, promptText, scriptedModel, sessionOneBatch, sessionTwoBatch } from '../__fixtures__/mock-replies.js';
import { createUsageMeter } from '../usage-meter.js';
import { createModelDistiller, type DistillerEvent } from './model-distiller.js';

const scope = { userId: 'ana' };
const noSleep = async () => undefined;

async function all(store: ReturnType<typeof createMemoryStore>, kind: Unit['kind']): Promise<Unit[]> {
  return store.listUnits(scope, { kinds: [kind], limit: 1000 });
}

describe('model distiller', () => {
  it('writes the model of the offline distiller: episodes on their turns, cues, tags, relations, facts, topics and supersessions', async () => {
    const model = scriptedModel([jsonReply(sessionOneBatch, [300, 120]), jsonReply(sessionTwoBatch, [280, 90])]);
    const meter = createUsageMeter();
    const store = createMemoryStore();
    const engram = createEngram({ store, distiller: createModelDistiller({ model, meter }) });
    await engram.add(anaAndBen, scope);

    // One structured call per session, with the JSON schema of the batch sent to the provider.
    expect(model.doGenerateCalls).toHaveLength(2);
    const format = model.doGenerateCalls[0]?.responseFormat;
    expect(format?.type).toBe('json');
    expect(JSON.stringify(format)).toContain('"episodes"');
    expect(promptText(model.doGenerateCalls[0]!)).toContain('[2] Ana: Yes, a blue bowl.');
    expect(meter.of('distill')).toEqual({ calls: 2, inputTokens: 580, outputTokens: 210 });

    const turns = await all(store, 'turn');
    expect(turns).toHaveLength(6);
    const episodes = await all(store, 'episode');
    const firstTurnIds = anaAndBen.sessions[0]!.turns.map((turn) => turnUnitId(scope, anaAndBen.id, 'session-1', turn));
    const pottery = episodes.find((episode) => episode.id === stableId('episode', scope, ...firstTurnIds));
    expect(pottery?.text).toBe(`[2024-03-10] ${sessionOneBatch.episodes[0]!.text}`);
    expect(pottery?.context.eventTime).toMatchObject({ start: '2024-03-03', end: '2024-03-09', granularity: 'week' });
    expect(pottery?.sources.map((source) => source.turnId)).toEqual(['s1:1', 's1:2', 's1:3']);
    expect(pottery?.context.topicId).toBe(topicIdOf(scope, 'pottery'));

    // Cues and tags carry the offline distiller's ids; relations reach both the episode and the turns.
    const porto = cueId(scope, 'porto');
    const relations = await store.relationsOfCues(scope, [porto]);
    expect(relations.map((relation) => relation.tagId)).toContain(tagId(scope, 'lives in'));
    expect(relations.map((relation) => relation.contentId)).toEqual(expect.arrayContaining([pottery?.id, firstTurnIds[0]]));
    const [march] = await store.findCues(scope, ['march 2024']);
    expect(march?.kind).toBe('time');
    const [annie] = await store.findCues(scope, ['annie']);
    expect(annie?.name).toBe('ana');

    // The turn is enriched with its time and entities.
    const first = turns.find((turn) => turn.id === firstTurnIds[0]);
    expect(first?.context.mentionTimes[0]?.text).toBe('last week');
    expect(first?.context.entities).toEqual(expect.arrayContaining(['porto', 'pottery']));

    // The second session's home supersedes Porto, which is kept with its end; the topic gained an episode.
    const facts = (await all(store, 'fact')) as Fact[];
    const oldHome = facts.find((fact) => fact.aspect === 'home' && fact.value === 'porto');
    const newHome = facts.find((fact) => fact.aspect === 'home' && fact.value === 'lyon');
    expect(newHome?.validTo).toBeUndefined();
    expect(oldHome?.validTo).toBe('2024-06-02');
    expect(oldHome?.supersededBy).toBe(newHome?.id);
    const [topic] = (await store.getUnits(scope, [topicIdOf(scope, 'pottery') as string])) as Array<Extract<Unit, { kind: 'topic' }>>;
    expect(topic?.episodeIds).toHaveLength(2);
  });

  it('adds nothing and calls no model when the same turns come again', async () => {
    const model = scriptedModel([jsonReply(sessionOneBatch), jsonReply(sessionTwoBatch)]);
    const store = createMemoryStore();
    const engram = createEngram({ store, distiller: createModelDistiller({ model }) });
    await engram.add(anaAndBen, scope);
    const again = await engram.add(anaAndBen, scope);
    expect(again.turns).toBe(0);
    expect(again.skippedTurns).toBe(6);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('repairs a reply that fails its schema once, sending the problem back', async () => {
    const broken = { ...sessionOneBatch, episodes: [{ ...sessionOneBatch.episodes[0], turns: [0, 7] }] };
    const model = scriptedModel([jsonReply(broken), jsonReply(sessionOneBatch)]);
    const events: DistillerEvent[] = [];
    const distiller = createModelDistiller({ model, onEvent: (event) => events.push(event) });
    const store = createMemoryStore();
    await createEngram({ store, distiller }).add({ ...anaAndBen, sessions: [anaAndBen.sessions[0]!] }, scope);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model.doGenerateCalls[1]!)).toContain('message 7 does not exist');
    expect(distiller.stats).toEqual({ batches: 1, repairs: 1, fallbacks: 0 });
    expect(events.map((event) => event.type)).toEqual(['repair']);
    expect((await all(store, 'episode'))[0]?.text).toContain('blue bowl');
  });

  it('falls back to the offline distiller for a batch that fails twice, losing no turn', async () => {
    const model = scriptedModel([jsonReply({ episodes: 'none' }), jsonReply({ nothing: true })]);
    const events: DistillerEvent[] = [];
    const distiller = createModelDistiller({ model, onEvent: (event) => events.push(event) });
    const store = createMemoryStore();
    await createEngram({ store, distiller }).add(anaAndBen, scope);
    expect(distiller.stats.fallbacks).toBe(2);
    expect(events.filter((event) => event.type === 'fallback')).toHaveLength(2);
    expect(await all(store, 'turn')).toHaveLength(6);

    // What it wrote is exactly what the offline distiller writes.
    const offline = createMemoryStore();
    await createEngram({ store: offline, distiller: createOfflineDistiller() }).add(anaAndBen, scope);
    const ids = async (target: ReturnType<typeof createMemoryStore>) => (await target.listUnits(scope, { limit: 1000 })).map((unit) => unit.id).sort();
    expect(await ids(store)).toEqual(await ids(offline));
  });

  it('batches a long session and falls back only for the batch that failed', async () => {
    const session = { id: 'long', date: '2024-01-01T09:00:00', turns: Array.from({ length: 5 }, (_, index) => ({ id: `t${index}`, speaker: index % 2 ? 'Ben' : 'Ana', text: `Message number ${index} about gardening.` })) };
    const batch = (count: number) => ({ episodes: [{ turns: Array.from({ length: count }, (_, index) => index), tag: 'talked about gardening', text: 'Ana and Ben talked about gardening.', eventTime: null, times: [], location: null, cues: [{ name: 'gardening', kind: 'thing', tag: null, turns: [0] }], topic: null }], facts: [], aliases: [] });
    const model = scriptedModel([jsonReply(batch(2)), jsonReply({ bad: 1 }), jsonReply({ bad: 2 }), jsonReply(batch(1))]);
    const distiller = createModelDistiller({ model, batchTurns: 2 });
    const store = createMemoryStore();
    await createEngram({ store, distiller }).add({ id: 'garden', speakers: ['Ana', 'Ben'], sessions: [session] }, scope);
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(promptText(model.doGenerateCalls[1]!)).toContain('Earlier messages (context only)');
    expect(distiller.stats).toEqual({ batches: 3, repairs: 1, fallbacks: 1 });
    const turns = await all(store, 'turn');
    expect(turns.map((turn) => turn.sources[0]?.turnId).sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    const episodes = await all(store, 'episode');
    expect(episodes.filter((episode) => episode.text.includes('Ana and Ben talked about gardening.'))).toHaveLength(2);
    expect(episodes.some((episode) => episode.sources.some((source) => source.turnId === 't2'))).toBe(true);
  });

  it('retries 429 and 5xx with growing backoff, counting each attempt', async () => {
    const limited = (status: number) => new APICallError({ message: `status ${status}`, url: 'http://model', requestBodyValues: {}, statusCode: status, isRetryable: true });
    const model = scriptedModel([limited(429), limited(503), jsonReply(sessionOneBatch)]);
    const delays: number[] = [];
    const meter = createUsageMeter();
    const distiller = createModelDistiller({ model, meter, backoffMs: 100, sleep: async (ms) => void delays.push(ms) });
    const store = createMemoryStore();
    await createEngram({ store, distiller }).add({ ...anaAndBen, sessions: [anaAndBen.sessions[0]!] }, scope);
    expect(delays).toEqual([100, 200]);
    expect(meter.of('distill')).toEqual({ calls: 3, inputTokens: 100, outputTokens: 20 });
    expect(await all(store, 'episode')).toHaveLength(1);
  });

  it('gives up with a clear ModelError after bounded retries, writing nothing', async () => {
    const model = scriptedModel([new APICallError({ message: 'upstream down', url: 'http://model', requestBodyValues: {}, statusCode: 500, isRetryable: true })]);
    const distiller = createModelDistiller({ model, maxRetries: 2, sleep: noSleep });
    const store = createMemoryStore();
    const error = await createEngram({ store, distiller }).add(anaAndBen, scope).catch((caught: unknown) => caught);
    expect(ModelError.isInstance(error)).toBe(true);
    expect((error as ModelError).message).toMatch(/^mock\/scripted: distill call failed after 3 attempts \(HTTP 500\)/);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(await store.listUnits(scope, { limit: 10 })).toHaveLength(0);
  });

  it('retries a timed-out call and does not retry a 401', async () => {
    const timeout = new DOMException('no answer', 'TimeoutError');
    const model = scriptedModel([timeout, jsonReply(sessionOneBatch)]);
    const store = createMemoryStore();
    await createEngram({ store, distiller: createModelDistiller({ model, sleep: noSleep }) }).add({ ...anaAndBen, sessions: [anaAndBen.sessions[0]!] }, scope);
    expect(model.doGenerateCalls).toHaveLength(2);

    const denied = scriptedModel([new APICallError({ message: 'bad key', url: 'http://model', requestBodyValues: {}, statusCode: 401, isRetryable: false })]);
    const error = await createEngram({ store: createMemoryStore(), distiller: createModelDistiller({ model: denied, sleep: noSleep }) }).add(anaAndBen, scope).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('(HTTP 401)');
    expect(denied.doGenerateCalls).toHaveLength(1);
  });

  it('times out a call that never answers', async () => {
    const hanging = scriptedModel([(call) => new Promise((_, reject) => call.abortSignal?.addEventListener('abort', () => reject(call.abortSignal?.reason))) as never]);
    const distiller = createModelDistiller({ model: hanging, timeoutMs: 5, maxRetries: 1, sleep: noSleep });
    const error = await createEngram({ store: createMemoryStore(), distiller }).add(anaAndBen, scope).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('after 2 attempts (timed out)');
  });

  it('gives a message the model left out of every episode an episode of its own', async () => {
    const partial = { ...sessionOneBatch, episodes: [{ ...sessionOneBatch.episodes[0]!, turns: [0] }] };
    const store = createMemoryStore();
    await createEngram({ store, distiller: createModelDistiller({ model: scriptedModel([jsonReply(partial)]) }) }).add({ ...anaAndBen, sessions: [anaAndBen.sessions[0]!] }, scope);
    const episodes = await all(store, 'episode');
    expect(episodes).toHaveLength(3);
    expect(episodes.map((episode) => episode.sources.map((source) => source.turnId).join()).sort()).toEqual(['s1:1', 's1:2', 's1:3']);
    expect(episodes.map((episode) => episode.text)).toContain('[2024-03-10] Ben: Pottery! Did you make a bowl yet?');
  });
});
