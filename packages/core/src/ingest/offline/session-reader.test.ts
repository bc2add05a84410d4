import { MessageChannel } from 'node:worker_threads';
import { MockEmbeddingModelV4 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { embedderFromAiSdk } from '../../embed/ai-sdk-embedder.js';
import { createEngram } from '../../engram/create-engram.js';
import { annaAndBenjamin } from '../__fixtures__/anna-and-benjamin.js';
import { createTestMemoryStore } from '../__fixtures__/test-memory-store.js';
import { hashedVector } from '../../embed/hashed-embedder.js';
import type { ConversationSession, ConversationTurn } from '../conversation.js';
import { episodeText } from './build-episodes.js';
import { loadLexicon, type Lexicon } from './lexicon.js';
import { offlineDistillerWith } from './offline-distiller.js';
import { planEpisodes, readSession, segmentTurns, type SessionReadingInput } from './read-session.js';
import { segmentEpisodes } from './segment.js';
import { answerRequest, createWorkerSessionReader, decodeReadings, localSessionReader, warmUpRequests, type ReaderRequest, type ReaderResponse, type ReaderWorker } from './session-reader.js';
import { sampleConversation as warmUpConversation } from '../../demo/sample-conversation.js';
import { warmUpSession } from './warm-up-session.js';

let lexicon: Lexicon;
beforeAll(async () => {
  lexicon = await loadLexicon();
});

const inputOf = (session: ConversationSession): SessionReadingInput => ({ turns: session.turns, speakerNames: annaAndBenjamin.speakers, reference: session.date });

/**
 * A worker in this thread on a real channel (so readings are structured-cloned as between
 * threads); `answer: false` leaves requests unanswered until `exit()`.
 */
function fakeWorker(options: { answer: boolean }) {
  const channel = new MessageChannel();
  const requests: ReaderRequest[] = [];
  const exits: Array<() => void> = [];
  channel.port2.on('message', (request: ReaderRequest) => {
    requests.push(request);
    if (!options.answer) return;
    const { response, transfer } = answerRequest(request, lexicon);
    channel.port2.postMessage(response, transfer);
  });
  channel.port2.postMessage({ type: 'ready' } satisfies ReaderResponse);
  const worker: ReaderWorker = {
    port: channel.port1,
    onExit: (listener) => exits.push(listener),
    terminate: () => channel.port2.close(),
  };
  return { worker, requests, exit: () => exits.forEach((listener) => listener()) };
}

describe('session readers', () => {
  it('read ahead in a worker exactly what is read here', async () => {
    const fake = fakeWorker({ answer: true });
    const reader = createWorkerSessionReader({ spawn: () => fake.worker });
    expect(await reader.ready()).toBe(true);
    const [first, ...rest] = annaAndBenjamin.sessions as [ConversationSession, ...ConversationSession[]];
    reader.prefetch(rest.map((session) => ({ session, input: inputOf(session) })));
    for (const session of [first, ...rest]) {
      expect(await reader.read(session, inputOf(session))).toEqual(await localSessionReader.read(session, inputOf(session)));
    }
    expect(fake.requests.map((request) => (JSON.parse(request.input) as SessionReadingInput).turns[0]?.id)).toEqual(rest.map((session) => session.turns[0]?.id));
  });

  it('read here what the worker was not given, and what it held when it failed', async () => {
    const fake = fakeWorker({ answer: false });
    const reader = createWorkerSessionReader({ spawn: () => fake.worker, inFlight: 1 });
    await reader.ready();
    const [, second, third] = annaAndBenjamin.sessions as [ConversationSession, ConversationSession, ConversationSession];
    reader.prefetch([second, third].map((session) => ({ session, input: inputOf(session) })));
    await new Promise((resolve) => setImmediate(resolve));
    // With one session in flight, the third is not the worker's yet: it is read here at once.
    expect(fake.requests).toHaveLength(1);
    expect(await reader.read(third, inputOf(third))).toEqual({ turns: readSession(inputOf(third), lexicon) });
    const pending = reader.read(second, inputOf(second));
    fake.exit();
    expect(await pending).toEqual({ turns: readSession(inputOf(second), lexicon) });
    expect(await reader.ready()).toBe(false);
  });

  it('keep two sessions in flight by default, so the worker moves on without waiting to be asked', async () => {
    const fake = fakeWorker({ answer: false });
    const reader = createWorkerSessionReader({ spawn: () => fake.worker });
    await reader.ready();
    const [, second, third, fourth] = annaAndBenjamin.sessions as [ConversationSession, ConversationSession, ConversationSession, ConversationSession];
    reader.prefetch([second, third, fourth].map((session) => ({ session, input: inputOf(session) })));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests.map((request) => (JSON.parse(request.input) as SessionReadingInput).turns[0]?.id)).toEqual([second, third].map((session) => session.turns[0]?.id));
    const pending = reader.read(third, inputOf(third));
    fake.exit();
    expect(await pending).toEqual({ turns: readSession(inputOf(third), lexicon) });
  });

  it('give the distiller the same memory whichever thread reads', async () => {
    const fake = fakeWorker({ answer: true });
    const build = async (withWorker: boolean) => {
      const store = createTestMemoryStore();
      const reader = withWorker ? createWorkerSessionReader({ spawn: () => fake.worker }) : localSessionReader;
      if (withWorker) await (reader as ReturnType<typeof createWorkerSessionReader>).ready();
      await createEngram({ store, distiller: offlineDistillerWith(reader) }).add(annaAndBenjamin, { userId: 'u1' });
      return { units: [...store.reference.units.values()].map((entry) => entry.unit), relations: [...store.reference.relations.keys()].sort() };
    };
    expect(await build(true)).toEqual(await build(false));
    expect(fake.requests.length).toBeGreaterThan(0);
    // With the default (hashed) embedder the worker embeds the turns and plans and embeds the
    // episodes too: the vectors above are its.
    expect(fake.requests.every((request) => (JSON.parse(request.input) as SessionReadingInput).embed?.dimensions === 256)).toBe(true);
    expect(fake.requests.every((request) => (JSON.parse(request.input) as SessionReadingInput).episodes !== undefined)).toBe(true);
  });

  it('leave every vector to an AI SDK embedding model when the engram has one', async () => {
    const fake = fakeWorker({ answer: true });
    const reader = createWorkerSessionReader({ spawn: () => fake.worker });
    await reader.ready();
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 64,
      doEmbed: async ({ values }) => ({ embeddings: values.map((value) => [value.length, value.includes('pottery') ? 1 : 0, 1]), warnings: [] }),
    });
    const store = createTestMemoryStore();
    const engram = createEngram({ store, embedder: embedderFromAiSdk(model), distiller: offlineDistillerWith(reader) });
    await engram.add(annaAndBenjamin, { userId: 'u1' });
    expect(fake.requests.length).toBeGreaterThan(0);
    const units = [...store.reference.units.values()].map((entry) => entry.unit);
    const embedded = new Set(model.doEmbedCalls.flatMap((call) => call.values));
    for (const unit of units) {
      expect(unit.vector?.length, unit.id).toBe(3);
      expect(embedded.has(unit.text), unit.id).toBe(true);
    }
    const result = await engram.recall('pottery', { scope: { userId: 'u1' }, strategy: 'similarity', k: 3 });
    expect(result.evidence.length).toBeGreaterThan(0);
  });
});

describe('episode plans', () => {
  it('cut and embed the episodes as the distiller does with every message new', async () => {
    const session = annaAndBenjamin.sessions[0] as ConversationSession;
    const input: SessionReadingInput = { ...inputOf(session), embed: { dimensions: 64, charNgram: 3, bigrams: true }, episodes: { maxTurns: 2, day: '2024-03-15' } };
    const turns = readSession(input, lexicon);
    const plan = planEpisodes(input, turns);
    const read = turns.map((reading) => ({ turn: session.turns[reading.index] as ConversationTurn, reading }));
    expect(plan?.ranges).toEqual(segmentEpisodes(segmentTurns(read), { maxTurns: 2 }));
    expect(plan?.ranges.every(([start, end]) => end - start <= 2)).toBe(true);
    const texts = (plan?.ranges ?? []).map(([start, end]) => episodeText('2024-03-15', read.slice(start, end).map(({ turn, reading }) => ({ speaker: turn.speaker, restated: reading.restated }))));
    expect(texts[0]?.startsWith('[2024-03-15] ')).toBe(true);
    expect(plan?.vectors).toEqual(new Float32Array(texts.flatMap((text) => [...hashedVector(text, { dimensions: 64 })])));
    expect(planEpisodes({ ...input, episodes: undefined }, turns)).toBeUndefined();
  });
});

describe('the warm-up sample', () => {
  it('is read by the worker like any session, and takes the branches it is there to warm', () => {
    const requests = warmUpRequests();
    // The demo's sessions, then the team's extra warm-up session.
    expect(requests).toHaveLength(warmUpConversation.sessions.length + 1);
    const readings = requests.flatMap((request) => {
      const { response } = answerRequest(request, lexicon);
      if (response.type !== 'read') throw new Error(`warm-up session not read: ${JSON.stringify(response)}`);
      // Turn vectors and planned episodes, as for a session the distiller sends.
      expect(response.vectors).toBeDefined();
      expect(response.episodes?.ranges.length).toBeGreaterThan(0);
      return decodeReadings(response.readings);
    });
    expect(readings).toHaveLength(warmUpConversation.sessions.reduce((sum, session) => sum + session.turns.length, warmUpSession.turns.length));
    expect(readings.some((reading) => reading.times.length > 0)).toBe(true);
    expect(readings.some((reading) => reading.facts.length > 0)).toBe(true);
    expect(readings.some((reading) => reading.asks)).toBe(true);
    const kinds = new Set(readings.flatMap((reading) => reading.cues.map((cue) => cue.kind)));
    for (const kind of ['person', 'place', 'time'] as const) expect(kinds.has(kind)).toBe(true);
    // The extra session's third person is resolved: "She says her students…" names Sarah.
    expect(readings.some((reading) => reading.restated.includes("Sarah says Sarah's students"))).toBe(true);
    expect(readings.some((reading) => reading.sentenceTags.length > 1 && reading.restated.includes('\n'))).toBe(true);
  });
});
