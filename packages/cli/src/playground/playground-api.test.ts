import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixture } from '../__fixtures__/run-engram.js';
import type { AskPayload, GraphPayload, IngestJobPayload, NodePayload, StatusPayload, TimelinePayload } from './playground-types.js';
import { startPlayground, type RunningPlayground } from './start-playground.js';

let directory: string;
let playground: RunningPlayground;

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, playground.url));
  return { status: response.status, body: (await response.json()) as T };
}

async function post<T>(path: string, body: string, type = 'application/json'): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, playground.url), { method: 'POST', body, headers: { 'content-type': type } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Waits for an ingest job to finish (done or failed), polling its status. */
async function finished(job: IngestJobPayload): Promise<IngestJobPayload> {
  return vi.waitFor(
    async () => {
      const { body } = await get<IngestJobPayload>(`/api/jobs/${job.id}`);
      if (body.status === 'reading' || body.status === 'ingesting') throw new Error(`still ${body.status}`);
      return body;
    },
    { timeout: 60_000, interval: 50 },
  );
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'engram-playground-api-'));
  const app = join(directory, 'app');
  await mkdir(app);
  await writeFile(join(app, 'index.html'), '<!doctype html><title>app</title>');
  playground = await startPlayground({ store: join(directory, 'store'), port: 0, appDir: app, sampleFiles: [fixture('two-friends-locomo.json')] });
  const sample = await post<IngestJobPayload>('/api/load', JSON.stringify({ sample: 'maya-and-tom' }));
  expect(sample.status).toBe(202);
  expect(await finished(sample.body)).toMatchObject({ status: 'done', done: 5, total: 5, users: ['maya-and-tom'] });
});

afterAll(async () => {
  await playground?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

describe('the playground API', () => {
  it('lists the store, its memories and the samples (the bundled one and the file given)', async () => {
    const { body } = await get<StatusPayload>('/api/status');
    expect(body.memories).toEqual([{ user: 'maya-and-tom', questions: 0 }]);
    expect(body.samples.map((sample) => sample.id)).toEqual(['maya-and-tom', 'file:two-friends-locomo.json']);
    expect(body.samples[1]?.description).toMatch(/^locomo: 2 conversations/);
  });

  it('cuts the graph to the limit, best-connected first, and says so', async () => {
    const full = (await get<GraphPayload>('/api/memories/maya-and-tom/graph?limit=5000')).body;
    expect(full.truncated).toBe(false);
    const small = (await get<GraphPayload>('/api/memories/maya-and-tom/graph?limit=20')).body;
    expect(small.nodes.length).toBeLessThanOrEqual(20);
    expect(small.truncated).toBe(true);
    expect(small.matching).toEqual(full.matching);
    const ids = new Set(small.nodes.map((node) => node.id));
    for (const edge of small.edges) expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
    // A tag node is one cue's relation: cue → tag → content.
    const tagEdges = full.edges.filter((edge) => edge.kind === 'cue-tag');
    expect(tagEdges.length).toBeGreaterThan(0);
    for (const edge of tagEdges) expect(edge.target).toBe(`pair:${edge.source}|${edge.target.split('|')[1]}`);
  });

  it('filters by layer, entity and time', async () => {
    const episodes = (await get<GraphPayload>('/api/memories/maya-and-tom/graph?layers=episode,topic')).body;
    expect(new Set(episodes.nodes.map((node) => node.layer))).toEqual(new Set(['episode', 'topic']));
    expect(episodes.edges.every((edge) => edge.kind === 'topic-episode')).toBe(true);

    const all = (await get<TimelinePayload>('/api/memories/maya-and-tom/timeline')).body;
    const pepper = (await get<TimelinePayload>('/api/memories/maya-and-tom/timeline?entity=Pepper')).body;
    expect(pepper.total).toBeGreaterThan(0);
    expect(pepper.total).toBeLessThan(all.total);
    const may = (await get<TimelinePayload>('/api/memories/maya-and-tom/timeline?from=2024-05-01&to=2024-05-31')).body;
    expect(may.sessions.map((session) => session.id)).toEqual(['session-3']);

    const page = (await get<TimelinePayload>(`/api/memories/maya-and-tom/timeline?offset=2&limit=3`)).body;
    expect(page.items.map((item) => item.id)).toEqual(all.items.slice(2, 5).map((item) => item.id));
    // Time order: sessions in date order.
    const said = all.items.map((item) => item.said ?? '');
    expect([...said].sort()).toEqual(said);
  });

  it('shows a node with its content, coordinates, (cue, tag) pairs and source turns', async () => {
    const { items } = (await get<TimelinePayload>('/api/memories/maya-and-tom/timeline?entity=boston')).body;
    const episode = items[0];
    expect(episode).toBeDefined();
    const node = (await get<NodePayload>(`/api/memories/maya-and-tom/nodes/${encodeURIComponent(episode!.id)}`)).body;
    expect(node.kind).toBe('episode');
    if (node.kind === 'cue') throw new Error('expected a unit');
    expect(node.unit.text).toBe(episode!.text);
    expect(node.unit.context).toMatchObject({ session: { id: episode!.sessionId } });
    expect(node.unit.vector).toBeUndefined();
    expect(node.pairs.length).toBeGreaterThan(0);
    expect(node.sources.length).toBeGreaterThan(0);
    for (const source of node.sources) expect(source.turn?.text.length).toBeGreaterThan(0);

    const pair = node.pairs[0]!;
    const tag = (await get<NodePayload>(`/api/memories/maya-and-tom/nodes/${encodeURIComponent(`pair:${pair.cue.id}|${pair.tag.id}`)}`)).body;
    expect(tag.kind).toBe('cue');
    if (tag.kind !== 'cue') throw new Error('expected a cue');
    expect(tag.tags.map((entry) => entry.id)).toEqual([pair.tag.id]);
    expect(tag.tags[0]?.contents.map((content) => content.id)).toContain(episode!.id);
  });

  it('asks one question under several strategies, each with evidence, coordinates and trace', async () => {
    const { status, body } = await post<AskPayload>('/api/ask', JSON.stringify({ user: 'maya-and-tom', question: 'Where does Maya live now?', strategies: ['similarity', 'ramem', 'active'], k: 5 }));
    expect(status).toBe(200);
    expect(body.results.map((result) => result.strategy)).toEqual(['similarity', 'ramem', 'active']);
    for (const result of body.results) {
      expect(result.evidence.length).toBeGreaterThan(0);
      expect(result.evidence.length).toBeLessThanOrEqual(5);
      expect(result.evidence[0]?.unit.rendered).toMatch(/^\[\d{1,2} [A-Z][a-z]+ 2024[;\]]/);
      expect(result.gold).toBeUndefined();
    }
    const active = body.results[2]!;
    expect(active.trace.map((step) => step.action)).toEqual(expect.arrayContaining(['select', 'expand', 'route', 'stop']));
  });

  it('marks gold evidence of a loaded LoCoMo file: every found turn is on an evidence item, the rest are missed', async () => {
    const job = (await post<IngestJobPayload>('/api/load', JSON.stringify({ sample: 'file:two-friends-locomo.json' }))).body;
    expect(await finished(job)).toMatchObject({ status: 'done', format: 'locomo', users: ['june-and-omar', 'rita-and-ken'], questions: 2 });
    const { body } = await post<AskPayload>('/api/ask', JSON.stringify({ user: 'june-and-omar', question: 'What did June bake?' }));
    expect(body.benchmark).toMatchObject({ answer: 'A lemon tart', evidenceTurns: ['D1:1'] });
    expect(body.benchmark?.goldTurnTexts['D1:1']).toMatch(/lemon tart/);
    for (const result of body.results) {
      const marked = result.evidence.flatMap((item) => item.goldTurns);
      expect(new Set(marked)).toEqual(new Set(result.gold?.found));
      expect([...(result.gold?.found ?? []), ...(result.gold?.missed ?? [])].sort()).toEqual(['D1:1']);
    }
    expect(body.results.some((result) => result.gold?.found.includes('D1:1'))).toBe(true);
  });

  it('a bad upload fails with an error naming the file (not a temporary path), and writes nothing', async () => {
    const before = (await get<StatusPayload>('/api/status')).body.memories;
    const job = (await post<IngestJobPayload>('/api/upload?name=notes.json', '{"messages": [ {"role": "user", "content": "hi"}, ', 'application/octet-stream')).body;
    const failed = await finished(job);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^notes\.json:1:\d+: malformed JSON/);
    expect((await get<StatusPayload>('/api/status')).body.memories).toEqual(before);
  });

  it('answers bad requests with a readable 4xx', async () => {
    expect(await get('/api/memories/nobody/graph')).toMatchObject({ status: 404, body: { error: expect.stringMatching(/no memory named "nobody"/) } });
    expect(await get('/api/memories/maya-and-tom/graph?layers=cue,planet')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/unknown layer "planet"/) } });
    expect(await get('/api/memories/maya-and-tom/timeline?from=May')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/from must be a date/) } });
    expect(await post('/api/ask', JSON.stringify({ user: 'maya-and-tom', question: 'x', strategies: ['psychic'] }))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/unknown strategy "psychic"/) } });
    expect(await post('/api/ask', '{not json')).toMatchObject({ status: 400 });
  });

  it('serves the app for any other path, never a file outside it, and only to local host names', async () => {
    const page = await fetch(new URL('/some/route', playground.url));
    expect(await page.text()).toMatch(/<title>app<\/title>/);
    const escaped = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(new URL(playground.url), { path: '/../../store/users.json' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(escaped.body).not.toMatch(/maya-and-tom/);
    const foreign = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(new URL('/api/status', playground.url), { headers: { host: 'attacker.example:80' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(foreign).toBe(403);
  });
});
