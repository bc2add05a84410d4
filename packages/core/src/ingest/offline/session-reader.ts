import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { cueKindSchema, type CueKind } from '../../model/graph.js';
import type { ConversationSession } from '../conversation.js';
import { loadLexicon } from './lexicon.js';
import type { Lexicon } from './lexicon.js';
import { createHashedEmbedder, hashedEmbeddingOf } from '../../embed/hashed-embedder.js';
import { attachTurnVectors, embedTurns, planEpisodes, readingInput, readSession, type EpisodePlan, type SessionReadingInput, type TurnReading } from './read-session.js';
import { sampleConversation as warmUpConversation } from '../../demo/sample-conversation.js';
import { warmUpSession } from './warm-up-session.js';

/** What reading a session gives the distiller. */
export interface SessionReading {
  /** The readings of the session's messages, in order. */
  turns: TurnReading[];
  /** The episodes planned ahead, when the input asked for them and the reader made them (see {@link planEpisodes}). */
  episodes?: EpisodePlan;
}

/** Reads sessions for the offline distiller: in this thread, or ahead of time in a worker. */
export interface SessionReader {
  /** The readings of `session`'s messages. */
  read(session: ConversationSession, input: SessionReadingInput): Promise<SessionReading>;
  /** Hints that these sessions will be read next, in this order (a reader may start on them). */
  prefetch(sessions: ReadonlyArray<{ session: ConversationSession; input: SessionReadingInput }>): void;
}

/** Reads each session when the distiller asks, in this thread. */
export const localSessionReader: SessionReader = {
  read: async (_session, input) => ({ turns: readSession(input, await loadLexicon()) }),
  prefetch: () => undefined,
};

/** A request to the reader worker: the input as JSON. */
export interface ReaderRequest {
  id: number;
  input: string;
}
/** A message from the reader worker: readings as JSON (see {@link encodeReadings}). */
export type ReaderResponse =
  | { type: 'ready' }
  | { type: 'read'; id: number; readings: string; vectors?: ArrayBuffer; episodes?: { ranges: Array<[number, number]>; vectors: ArrayBuffer } }
  | { type: 'failed'; id: number; message: string };

// Readings cross threads as JSON: one string is cheaper to pass and parse than thousands of small
// cloned objects. JSON has no sets and no `undefined` in arrays; `decodeReadings` puts them back.
// (Stems are the only set: turned into arrays first, as a replacer function would cost a call per value.)

/** Readings as JSON, for {@link decodeReadings}. */
export function encodeReadings(readings: ReadonlyArray<TurnReading>): string {
  return JSON.stringify(readings.map((reading) => ({ ...reading, stems: [...reading.stems] })));
}

/**
 * The cue and mention kinds as this thread's own literals. `JSON.parse` interns strings of up to
 * ten characters only, so a parsed 'organisation' is another kind of string than the literal the
 * distiller compares it with: the first one to arrive would throw away the optimised code of
 * every function comparing kinds (and again for a reading made in this thread).
 */
const kindLiterals: Readonly<Record<string, CueKind>> = Object.fromEntries(cueKindSchema.options.map((kind) => [kind, kind]));
const literalKind = <T extends string>(kind: T): T => (kindLiterals[kind] as T | undefined) ?? kind;

/** Readings from {@link encodeReadings}, equal to the ones encoded. */
export function decodeReadings(text: string): TurnReading[] {
  const readings = JSON.parse(text) as Array<Omit<TurnReading, 'stems' | 'sentenceTags'> & { stems: string[] | Set<string>; sentenceTags: Array<string | undefined | null> }>;
  // Fixed in place: the parsed objects are fresh, and their keys keep their order.
  for (const reading of readings) {
    reading.stems = new Set(reading.stems);
    const tags = reading.sentenceTags;
    for (let index = 0; index < tags.length; index++) if (tags[index] === null) tags[index] = undefined;
    for (const cue of reading.cues) cue.kind = literalKind(cue.kind);
    for (const mention of reading.mentions) mention.kind = literalKind(mention.kind);
  }
  return readings as TurnReading[];
}

/**
 * What the reader worker answers to a request, with the buffers to transfer: the readings, and
 * when the input asks for them the turn texts' vectors and the planned episodes with their
 * vectors (made there: that thread has the time).
 */
export function answerRequest(request: ReaderRequest, lexicon: Lexicon): { response: ReaderResponse; transfer: ArrayBuffer[] } {
  try {
    const input = JSON.parse(request.input) as SessionReadingInput;
    const turns = readSession(input, lexicon);
    const readings = encodeReadings(turns);
    const vectors = embedTurns(input);
    if (vectors === undefined) return { response: { type: 'read', id: request.id, readings }, transfer: [] };
    const plan = planEpisodes(input, turns);
    if (plan === undefined) return { response: { type: 'read', id: request.id, readings, vectors: vectors.buffer }, transfer: [vectors.buffer] };
    const episodes = { ranges: plan.ranges, vectors: plan.vectors.buffer };
    return { response: { type: 'read', id: request.id, readings, vectors: vectors.buffer, episodes }, transfer: [vectors.buffer, plan.vectors.buffer] };
  } catch (error) {
    return { response: { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }, transfer: [] };
  }
}

/**
 * Requests for the sessions of the built-in warm-up sample (the demo's conversation, five sessions
 * of relative dates, names, places, a pet, jobs, a move and questions, then the extra session of
 * `warm-up-session.ts`), as the distiller makes them
 * with the default embedder: the worker answers them once at start (and drops the answers), so that the
 * sessions it is sent first do not run cold code.
 */
export function warmUpRequests(): ReaderRequest[] {
  const embed = hashedEmbeddingOf(createHashedEmbedder());
  return [...warmUpConversation.sessions, warmUpSession].map((session, index) => ({ id: -1 - index, input: JSON.stringify(readingInput(warmUpConversation, session, embed, undefined)) }));
}

/** A started reader worker: the port it answers on, and how to stop it. */
export interface ReaderWorker {
  /** This side of the worker's channel (requests go out, responses come in). */
  port: MessagePort;
  /** Calls `listener` when the worker fails or exits. */
  onExit(listener: () => void): void;
  /** Stops the worker. */
  terminate(): void;
}

interface Job {
  input: SessionReadingInput;
  state: 'queued' | 'sent' | 'done';
  readings: Promise<SessionReading>;
  settle(readings: SessionReading | undefined): void;
}

/** Options of {@link createWorkerSessionReader}. */
export interface WorkerReaderOptions {
  /** Starts the worker. */
  spawn: () => ReaderWorker;
  /** Sessions queued ahead at most. @default 4 */
  depth?: number;
  /**
   * Sessions handed to the worker at once. With two, it starts on the next one as soon as it is
   * done with one, instead of idling until this thread asks again. @default 2
   */
  inFlight?: number;
  /** Stops an idle worker after this many ms (it starts again when needed). @default 30000 */
  idleMs?: number;
}

/** A {@link SessionReader} backed by a worker, with a way to wait until the worker is ready. */
export interface WorkerSessionReader extends SessionReader {
  /** Starts the worker if needed; resolves `true` once it can read, `false` if it cannot start. */
  ready(): Promise<boolean>;
}

/**
 * A reader that reads the sessions it is told come next in a worker thread while this thread
 * distils the current one. A session the worker has not been given is read here instead, so this
 * thread never waits behind a busy or starting worker; readings are the same wherever they are
 * made. Responses are also drained synchronously at every call, so the pipeline keeps moving
 * while this thread never yields to the event loop. If the worker fails, everything is read here.
 */
export function createWorkerSessionReader(options: WorkerReaderOptions): WorkerSessionReader {
  const depth = options.depth ?? 4;
  const inFlight = Math.max(1, options.inFlight ?? 2);
  const idleMs = options.idleMs ?? 30_000;
  const jobs = new WeakMap<ConversationSession, Job>();
  const queue: Job[] = [];
  const sent = new Map<number, Job>();
  let worker: ReaderWorker | undefined;
  let ready: Promise<boolean> | undefined;
  let announceReady: ((ok: boolean) => void) | undefined;
  let isReady = false;
  let failed = false;
  let nextId = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const readHere = async (input: SessionReadingInput): Promise<SessionReading> => ({ turns: readSession(input, await loadLexicon()) });

  /** A queued job; settled with readings, or with `undefined` to be read here. */
  const newJob = (input: SessionReadingInput): Job => {
    let settle!: (readings: SessionReading | undefined) => void;
    const settled = new Promise<SessionReading | undefined>((resolve) => {
      settle = resolve;
    });
    const job: Job = {
      input,
      state: 'queued',
      readings: settled.then((result) => result ?? readHere(input)),
      settle: (result) => {
        job.state = 'done';
        settle(result);
      },
    };
    return job;
  };

  const stop = () => {
    const current = worker;
    worker = undefined;
    ready = undefined;
    isReady = false;
    // Whatever the worker still held is read here; queued jobs are read here when asked for.
    for (const job of sent.values()) void readHere(job.input).then((readings) => job.settle(readings));
    sent.clear();
    queue.length = 0;
    current?.port.close();
    current?.terminate();
  };

  // The port keeps the process alive only while an answer is awaited (the worker starting, or a
  // session it reads); an idle worker never holds the process open.
  const holdOpen = () => {
    if (worker === undefined) return;
    if (!isReady || sent.size > 0) worker.port.ref();
    else worker.port.unref();
  };

  const pump = () => {
    if (idle !== undefined) clearTimeout(idle);
    idle = undefined;
    while (worker !== undefined && isReady && sent.size < inFlight && queue.length > 0) {
      const job = queue.shift() as Job;
      if (job.state === 'queued') send(job);
    }
    if (worker !== undefined && sent.size === 0 && queue.length === 0) {
      idle = setTimeout(stop, idleMs);
      idle.unref?.();
    }
    holdOpen();
  };

  /** Hands a job to the worker (which must be ready). */
  const send = (job: Job): Job => {
    job.state = 'sent';
    const id = nextId++;
    sent.set(id, job);
    (worker as ReaderWorker).port.postMessage({ id, input: JSON.stringify(job.input) } satisfies ReaderRequest);
    holdOpen();
    return job;
  };

  const receive = (response: ReaderResponse) => {
    if (response.type === 'ready') {
      isReady = true;
      announceReady?.(true);
    } else {
      const job = sent.get(response.id);
      sent.delete(response.id);
      if (job !== undefined) {
        if (response.type === 'read') job.settle(readingOf(response, job.input));
        else void readHere(job.input).then((readings) => job.settle(readings));
      }
    }
    pump();
  };

  /** Takes in every response already waiting, without yielding to the event loop. */
  const poll = () => {
    for (;;) {
      const port = worker?.port;
      const message = port === undefined ? undefined : receiveMessageOnPort(port);
      if (message === undefined) return;
      receive(message.message as ReaderResponse);
    }
  };

  const start = (): Promise<boolean> => {
    if (failed) return Promise.resolve(false);
    if (ready !== undefined) return ready;
    ready = new Promise<boolean>((resolve) => {
      announceReady = resolve;
    });
    let spawned: ReaderWorker;
    try {
      spawned = options.spawn();
    } catch {
      failed = true;
      announceReady?.(false);
      return ready;
    }
    worker = spawned;
    spawned.port.on('message', (response: ReaderResponse) => receive(response));
    holdOpen();
    spawned.onExit(() => {
      if (worker !== spawned) return;
      failed = true;
      announceReady?.(false);
      stop();
    });
    return ready;
  };

  return {
    ready: start,
    read: async (session, input) => {
      poll();
      const job = jobs.get(session);
      jobs.delete(session);
      if (job !== undefined && job.state !== 'queued') return job.readings;
      if (job !== undefined) job.state = 'done';
      // An idle worker reads it (its reading code is warm, this thread's is not); a busy or
      // starting one would make this thread wait, so it is read here.
      if (worker !== undefined && isReady && sent.size === 0) return send(newJob(input)).readings;
      return readHere(input);
    },
    prefetch: (sessions) => {
      if (failed) return;
      poll();
      for (const { session, input } of sessions.slice(0, depth)) {
        if (jobs.has(session)) continue;
        const job = newJob(input);
        jobs.set(session, job);
        queue.push(job);
      }
      void start();
      pump();
    },
  };
}

/** A session's reading from the worker's answer (vectors as views into the buffers it transferred). */
function readingOf(response: Extract<ReaderResponse, { type: 'read' }>, input: SessionReadingInput): SessionReading {
  const turns = decodeReadings(response.readings);
  const dimensions = input.embed?.dimensions;
  if (response.vectors === undefined || dimensions === undefined) return { turns };
  attachTurnVectors(turns, new Float32Array(response.vectors), dimensions);
  const planned = response.episodes;
  if (planned === undefined || input.episodes === undefined) return { turns };
  const rows = new Float32Array(planned.vectors);
  const vectors = planned.ranges.map((_, index) => rows.subarray(index * dimensions, (index + 1) * dimensions));
  return { turns, episodes: { settings: input.episodes, ranges: planned.ranges, vectors } };
}

/** The built worker entry next to the bundled reader, or `undefined` (running from sources, or bundled elsewhere). */
function workerEntry(): URL | undefined {
  for (const candidate of ['./offline-reader-worker.js', '../offline-reader-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Starts the worker of `reader-worker.ts` on a fresh channel. */
function spawnReaderWorker(entry: URL): ReaderWorker {
  const channel = new MessageChannel();
  const worker = new Worker(entry, { workerData: { port: channel.port2 }, transferList: [channel.port2] });
  worker.unref();
  return {
    port: channel.port1,
    onExit: (listener) => {
      worker.on('error', listener);
      worker.on('exit', listener);
    },
    terminate: () => void worker.terminate(),
  };
}

let shared: WorkerSessionReader | undefined;

/**
 * The process-wide reader of the offline distiller: a worker reader when the worker entry is
 * built (`offline-reader-worker.js` beside the bundle), else one reading in this thread.
 */
export function sharedSessionReader(): WorkerSessionReader {
  if (shared === undefined) {
    const entry = workerEntry();
    shared = entry === undefined ? { ...localSessionReader, ready: async () => false } : createWorkerSessionReader({ spawn: () => spawnReaderWorker(entry) });
  }
  return shared;
}

/**
 * Starts the offline distiller's reader worker and waits until it has loaded its lexicon (about a
 * second); `false` when there is none. Optional: without it the worker starts on first use.
 */
export function warmUpSessionReader(): Promise<boolean> {
  return sharedSessionReader().ready();
}
