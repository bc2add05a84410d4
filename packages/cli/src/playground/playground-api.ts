import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EngramError, loadConversationFile, type Unit } from '@engram/core';
import { describeError } from '../cli-errors.js';
import { cueNeighbourhood, unitNeighbourhood, unitView } from '../memory/neighbourhood.js';
import type { OpenMemory } from '../memory/open-memory.js';
import { readUsers } from '../memory/user-registry.js';
import { evidenceReasons } from '../output/render-recall.js';
import { BenchmarkQuestions } from './benchmark-questions.js';
import { IngestJobs, type Sample } from './ingest-jobs.js';
import { graphView, loadMemoryGraph, summarize, timelineView, type GraphFilter, type MemoryGraph } from './memory-graph.js';
import {
  graphLayers,
  playgroundStrategies,
  type AskPayload,
  type GraphLayer,
  type NodePayload,
  type PlaygroundStrategy,
  type StatusPayload,
  type StrategyResultPayload,
  type UnitPayload,
} from './playground-types.js';

/** Contents listed per tag of a cue before `more`. */
const contentsPerTag = 20;
/** Largest request body accepted as JSON. */
const maxJsonBody = 1 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link createPlaygroundApi}. */
export interface PlaygroundApiOptions {
  /** The open store (held for writing: the playground ingests). */
  memory: OpenMemory;
  /** Conversations offered without an upload. */
  samples: ReadonlyArray<Sample>;
}

/** The playground's JSON API over one store. */
export interface PlaygroundApi {
  /** Answers a request under `/api/`; resolves to false for any other path. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** Waits for running ingests. */
  idle(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxJsonBody) throw new HttpError(413, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new HttpError(400, `bad request body: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function payload(unit: Unit): UnitPayload {
  return unitView(unit) as UnitPayload;
}

function integer(value: string | null, fallback: number, min: number, max: number): number {
  if (value === null || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new HttpError(400, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return number;
}

function filterOf(params: URLSearchParams): GraphFilter {
  const layers = params.get('layers');
  const filter: GraphFilter = {};
  if (layers !== null) {
    const list = layers.split(',').filter((layer) => layer !== '');
    const unknown = list.find((layer) => !(graphLayers as ReadonlyArray<string>).includes(layer));
    if (unknown !== undefined) throw new HttpError(400, `unknown layer ${JSON.stringify(unknown)}: expected ${graphLayers.join(', ')}`);
    filter.layers = list as GraphLayer[];
  }
  for (const key of ['entity', 'from', 'to'] as const) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    if (key !== 'entity' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new HttpError(400, `${key} must be a date (YYYY-MM-DD), got ${JSON.stringify(value)}`);
    filter[key] = value;
  }
  return filter;
}

/**
 * Creates the playground's API: status and samples, ingest jobs (bundled samples and uploaded
 * files, with progress), the graph of a memory (filtered and limited), its timeline, one node's
 * neighbourhood, and recall of one question under several strategies with their traces.
 */
export async function createPlaygroundApi(options: PlaygroundApiOptions): Promise<PlaygroundApi> {
  const { memory } = options;
  const questions = await BenchmarkQuestions.open(memory.path);
  const graphs = new Map<string, Promise<MemoryGraph>>();
  const invalidate = (users: ReadonlyArray<string>) => {
    for (const user of users) graphs.delete(user);
  };
  const jobs = new IngestJobs(memory, questions, invalidate);
  const graphOf = (user: string) => {
    let graph = graphs.get(user);
    if (graph === undefined) {
      graph = loadMemoryGraph(memory.store, user);
      graphs.set(user, graph);
      graph.catch(() => graphs.delete(user));
    }
    return graph;
  };
  const knownUser = async (user: string) => {
    if (!(await readUsers(memory.path)).includes(user)) throw new HttpError(404, `no memory named ${JSON.stringify(user)} in ${memory.path}`);
  };

  const status = async (): Promise<StatusPayload> => {
    const users = await readUsers(memory.path);
    const job = jobs.active();
    return {
      store: memory.path,
      memories: users.map((user) => ({ user, questions: questions.of(user).length })),
      samples: options.samples.map((sample) => sample.info),
      ...(job === undefined ? {} : { job }),
    };
  };

  const upload = async (request: IncomingMessage, params: URLSearchParams) => {
    const name = basename(params.get('name') ?? '').replace(/[^\w.@+-]/g, '_');
    if (name === '' || name === '.' || name === '..') throw new HttpError(400, 'upload: give the file name as ?name=');
    const directory = await mkdtemp(join(tmpdir(), 'engram-playground-'));
    const path = join(directory, name);
    await pipeline(request, createWriteStream(path));
    // The loaders name the file in their errors; the app shows its own name, not the temporary path.
    const explain = (error: unknown) => describeError(error).split(`${directory}/`).join('');
    return jobs.start(name, () => loadConversationFile(path), explain, () => rm(directory, { recursive: true, force: true }));
  };

  const ask = async (body: Record<string, unknown>): Promise<AskPayload> => {
    const user = String(body.user ?? '');
    const question = String(body.question ?? '').trim();
    if (question === '') throw new HttpError(400, 'ask: the question is empty');
    await knownUser(user);
    const k = typeof body.k === 'number' && Number.isInteger(body.k) && body.k >= 1 && body.k <= 100 ? body.k : 10;
    const requested = Array.isArray(body.strategies) ? body.strategies.map(String) : ['similarity', 'ramem', 'active'];
    const unknown = requested.find((name) => !(playgroundStrategies as ReadonlyArray<string>).includes(name));
    if (unknown !== undefined) throw new HttpError(400, `unknown strategy ${JSON.stringify(unknown)}: expected ${playgroundStrategies.join(', ')}`);
    const benchmark = questions.find(user, typeof body.questionId === 'string' && body.questionId !== '' ? body.questionId : question);
    const gold = new Set(benchmark?.evidenceTurns ?? []);
    const results: StrategyResultPayload[] = [];
    for (const strategy of requested as PlaygroundStrategy[]) {
      const started = performance.now();
      const result = await memory.engram.recall(question, {
        scope: { userId: user },
        strategy,
        k,
        ...(benchmark?.questionDate === undefined ? {} : { questionDate: benchmark.questionDate }),
      });
      const ms = performance.now() - started;
      const found = new Set<string>();
      const evidence = result.evidence.map((item, index) => {
        const goldTurns = [...new Set(item.sources.map((source) => source.turnId).filter((turnId) => gold.has(turnId)))];
        for (const turnId of goldTurns) found.add(turnId);
        return {
          rank: index + 1,
          unit: payload(item.unit),
          score: item.score,
          sources: item.sources,
          coordinates: item.coordinates as Record<string, unknown>,
          reasons: evidenceReasons(item),
          goldTurns,
        };
      });
      results.push({
        strategy,
        evidence,
        trace: result.trace,
        ms,
        ...(benchmark === undefined ? {} : { gold: { found: [...found], missed: [...gold].filter((turnId) => !found.has(turnId)) } }),
      });
    }
    let goldTurnTexts: Record<string, string> = {};
    if (benchmark !== undefined && gold.size > 0) {
      const turns = await memory.store.listUnits({ userId: user }, { kinds: ['turn'], limit: 100_000 });
      goldTurnTexts = Object.fromEntries(
        turns.flatMap((turn) => turn.sources.filter((source) => gold.has(source.turnId)).map((source) => [source.turnId, turn.text] as const)),
      );
    }
    return { user, question, k, ...(benchmark === undefined ? {} : { benchmark: { ...benchmark, goldTurnTexts } }), results };
  };

  const node = async (user: string, id: string): Promise<NodePayload> => {
    const scope = { userId: user };
    if (id.startsWith('pair:')) {
      const [cueId = '', tagId = ''] = id.slice(5).split('|');
      const [cue] = await memory.store.getCues(scope, [cueId]);
      if (cue === undefined) throw new HttpError(404, `no cue ${cueId}`);
      const neighbourhood = await cueNeighbourhood(memory.store, user, cue);
      return { ...neighbourhood, tags: neighbourhood.tags.filter((tag) => tag.id === tagId).map((tag) => ({ ...tag, contents: tag.contents.slice(0, contentsPerTag) as UnitPayload[], more: Math.max(0, tag.contents.length - contentsPerTag) })) };
    }
    const [cue] = await memory.store.getCues(scope, [id]);
    if (cue !== undefined) {
      const neighbourhood = await cueNeighbourhood(memory.store, user, cue);
      return { ...neighbourhood, tags: neighbourhood.tags.map((tag) => ({ ...tag, contents: tag.contents.slice(0, contentsPerTag) as UnitPayload[], more: Math.max(0, tag.contents.length - contentsPerTag) })) };
    }
    const [unit] = await memory.store.getUnits(scope, [id]);
    if (unit === undefined) throw new HttpError(404, `no cue or unit ${JSON.stringify(id)} in the memory of ${user}`);
    return (await unitNeighbourhood(memory.store, user, unit)) as NodePayload;
  };

  const route = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const method = request.method ?? 'GET';
    const parts = url.pathname.split('/').filter((part) => part !== '').map(decodeURIComponent);
    const params = url.searchParams;
    if (method === 'GET' && url.pathname === '/api/status') return sendJson(response, 200, await status());
    if (method === 'POST' && url.pathname === '/api/load') {
      const body = await readJson(request);
      const sample = options.samples.find((candidate) => candidate.info.id === body.sample);
      if (sample === undefined) throw new HttpError(404, `no sample ${JSON.stringify(body.sample)}`);
      return sendJson(response, 202, jobs.start(sample.info.label, () => sample.load(), describeError));
    }
    if (method === 'POST' && url.pathname === '/api/upload') return sendJson(response, 202, await upload(request, params));
    if (method === 'GET' && parts[1] === 'jobs' && parts.length === 3) {
      const job = jobs.get(parts[2] as string);
      if (job === undefined) throw new HttpError(404, `no ingest job ${parts[2]}`);
      return sendJson(response, 200, job);
    }
    if (method === 'POST' && url.pathname === '/api/ask') return sendJson(response, 200, await ask(await readJson(request)));
    if (method === 'GET' && parts[1] === 'memories' && parts.length >= 4) {
      const user = parts[2] as string;
      await knownUser(user);
      const what = parts[3];
      if (what === 'summary' && parts.length === 4) return sendJson(response, 200, summarize(await graphOf(user)));
      if (what === 'graph' && parts.length === 4) return sendJson(response, 200, graphView(await graphOf(user), filterOf(params), integer(params.get('limit'), 300, 1, 5000)));
      if (what === 'timeline' && parts.length === 4) {
        return sendJson(response, 200, timelineView(await graphOf(user), filterOf(params), integer(params.get('offset'), 0, 0, 10_000_000), integer(params.get('limit'), 50, 1, 500)));
      }
      if (what === 'questions' && parts.length === 4) return sendJson(response, 200, questions.of(user));
      if (what === 'nodes' && parts.length === 5) return sendJson(response, 200, await node(user, parts[4] as string));
    }
    throw new HttpError(404, `no API route ${method} ${url.pathname}`);
  };

  return {
    handle: async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (!url.pathname.startsWith('/api/')) return false;
      try {
        await route(request, response, url);
      } catch (error) {
        const status = error instanceof HttpError ? error.status : EngramError.isInstance(error) ? 400 : 500;
        if (!response.headersSent) sendJson(response, status, { error: error instanceof HttpError ? error.message : describeError(error) });
        else response.end();
      }
      return true;
    },
    idle: () => jobs.idle(),
  };
}
