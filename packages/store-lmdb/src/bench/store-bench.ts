/**
 * Store benchmark: `node dist/bench/store-bench.js --units 100000 [--json]` (or `pnpm -s run
 * bench:store --units 100000 --json` from the repository root).
 *
 * Each store runs in its own child process (clean memory numbers): insert `units` chat-like
 * units with clustered 256-dimensional vectors in batches, reopen (store-lmdb), then time vector
 * and lexical top-10 queries. This process computes vector recall@10 against exact search.
 * Progress goes to stderr; the result is one JSON object on stdout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { MemoryStore } from '@engram/core';
import { exactSearch, MetricKind } from 'usearch';
import { createLmdbStore } from '../index.js';
import type { HnswOptions } from '../vector/index-file.js';
import { benchUnitId, benchUnits, benchVector, centres, lexicalQuery, queryVector, seeded } from './bench-data.js';

const dims = 256;
const storeNames = ['store-lmdb', 'store-memory'] as const;
type StoreName = (typeof storeNames)[number];

interface StoreResult {
  /** Units per second of `write` calls (durable LMDB commits; store-lmdb builds its HNSW graph in the background). */
  insertPerSec: number;
  /**
   * store-lmdb: ms until the HNSW graph covers every unit and is saved: time in `write` plus the
   * wait in `flush()` after the last write (the background thread also works while the benchmark
   * generates the next batch, so this is slightly optimistic; `flushWaitMs` is the wait alone).
   */
  indexMs?: number;
  flushWaitMs?: number;
  /** store-lmdb: units / indexMs — end-to-end throughput including the background graph. */
  indexPerSec?: number;
  reopenMs: number | null;
  vectorP50Ms: number;
  vectorP95Ms: number;
  vectorRecallAt10: number;
  lexicalP50Ms: number;
  lexicalP95Ms: number;
  rssMB: number;
  diskMB: number | null;
  forgetMs?: number;
  /** `--beams`: the vector queries again at each fixed search beam (store-lmdb, reopened read-only). */
  beamSweep?: BeamResult[];
}

/** What a store's child process reports: hits instead of recall (the parent holds the exact top 10). */
type ChildResult = Omit<StoreResult, 'vectorRecallAt10' | 'beamSweep'> & { hits: string[][]; beamHits?: Array<Omit<BeamResult, 'vectorRecallAt10'> & { hits: string[][] }> };

interface BeamResult {
  beam: number;
  vectorP50Ms: number;
  vectorP95Ms: number;
  vectorRecallAt10: number;
}

const { values: args } = parseArgs({
  options: {
    units: { type: 'string', default: '100000' },
    json: { type: 'boolean', default: false },
    queries: { type: 'string', default: '200' },
    batch: { type: 'string', default: '10000' },
    tenants: { type: 'string', default: '1' },
    stores: { type: 'string', default: storeNames.join(',') },
    store: { type: 'string' },
    directory: { type: 'string' },
    forget: { type: 'boolean', default: false },
    hnsw: { type: 'string' },
    beams: { type: 'string' },
  },
});
const units = Number(args.units);
const queries = Number(args.queries);
const batch = Number(args.batch);
const tenants = Number(args.tenants);
const clusters = Math.max(16, Math.round(Math.sqrt(units)));
/** `--hnsw '{"connectivity":32,"expansionAdd":128}'`: store-lmdb's HNSW options (defaults otherwise). */
const hnsw = args.hnsw === undefined ? {} : (JSON.parse(args.hnsw) as Partial<HnswOptions>);
/** `--beams 64,128,256`: search beams to time after the default run. */
const beams = (args.beams ?? '').split(',').filter((beam) => beam !== '').map(Number);
const progress = (message: string) => process.stderr.write(`[bench:store] ${message}\n`);
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN;
}

function directorySize(path: string): number {
  let bytes = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    bytes += entry.isDirectory() ? directorySize(full) : statSync(full).blocks * 512;
  }
  return bytes;
}

/** Opens `name` at `path`; with `beam`, store-lmdb read-only with that fixed search beam. */
async function openStore(name: StoreName, path: string, beam?: number): Promise<MemoryStore> {
  if (name === 'store-lmdb') {
    const options = beam === undefined ? { hnsw } : { hnsw: { ...hnsw, expansionSearch: beam }, readOnly: true };
    return (await createLmdbStore({ path, dims, ...options })) as unknown as MemoryStore;
  }
  const memory = (await import('@engram/store-memory').catch((error: unknown) => {
    throw new Error(`store-memory is not available (build it: pnpm --filter @engram/store-memory build): ${String(error)}`);
  })) as { createMemoryStore(): MemoryStore };
  return memory.createMemoryStore();
}

const scopeOf = (index: number) => ({ userId: `user-${index % tenants}` });

/** The bench's vector top-10 queries: time and hits of each. */
async function vectorQueries(store: MemoryStore, centreMatrix: Float32Array): Promise<{ times: number[]; hits: string[][] }> {
  const times: number[] = [];
  const hits: string[][] = [];
  for (let index = 0; index < queries; index++) {
    const vector = queryVector(index, dims, centreMatrix);
    const before = performance.now();
    const found = await store.vectorSearch(scopeOf(index), vector, { k: 10 });
    times.push(performance.now() - before);
    hits.push(found.map((hit) => hit.unit.id));
  }
  return { times, hits };
}

/** Runs one store in this process; prints its numbers and query hits as JSON. */
async function runStore(name: StoreName): Promise<void> {
  const path = args.directory ?? mkdtempSync(join(tmpdir(), `engram-bench-${name}-`));
  const centreMatrix = centres(clusters, dims);
  let store = await openStore(name, path);
  let writing = 0;
  const started = performance.now();
  for (let from = 0; from < units; from += batch) {
    const slice = benchUnits(from, Math.min(batch, units - from), dims, centreMatrix, tenants);
    const before = performance.now();
    await store.write({ units: slice });
    writing += performance.now() - before;
    if (from === 0 || Math.floor((from + batch) / (units / 10)) > Math.floor(from / (units / 10))) {
      progress(`${name}: ${Math.min(units, from + batch)}/${units} units, ${Math.round(((from + batch) / writing) * 1000)}/s, ${Math.round((performance.now() - started) / 1000)}s`);
    }
  }
  let reopenMs: number | null = null;
  let indexMs: number | undefined;
  let flushWaitMs: number | undefined;
  if (name === 'store-lmdb') {
    const waiting = performance.now();
    await (store as unknown as { flush(): Promise<void> }).flush();
    flushWaitMs = performance.now() - waiting;
    indexMs = writing + flushWaitMs;
    progress(`${name}: graph covers all ${units} units after waiting ${Math.round(flushWaitMs / 1000)}s more (${Math.round((performance.now() - started) / 1000)}s wall)`);
    const closing = performance.now();
    await store.dispose();
    progress(`${name}: disposed (index saved) in ${Math.round(performance.now() - closing)} ms`);
    const opening = performance.now();
    store = await openStore(name, path);
    reopenMs = performance.now() - opening;
  }
  for (let index = 0; index < 20; index++) {
    await store.vectorSearch(scopeOf(index), queryVector(queries + index, dims, centreMatrix), { k: 10 });
    await store.lexicalSearch(scopeOf(index), lexicalQuery(seeded(900_000 + index)), { k: 10 });
  }
  const { times: vectorTimes, hits } = await vectorQueries(store, centreMatrix);
  const lexicalTimes: number[] = [];
  for (let index = 0; index < queries; index++) {
    const query = lexicalQuery(seeded(700_000 + index));
    const before = performance.now();
    await store.lexicalSearch(scopeOf(index), query, { k: 10 });
    lexicalTimes.push(performance.now() - before);
  }
  const rssMB = process.memoryUsage().rss / 2 ** 20;
  const result: ChildResult = {
    insertPerSec: Math.round((units / writing) * 1000),
    ...(indexMs === undefined ? {} : { indexMs: Math.round(indexMs), indexPerSec: Math.round((units / indexMs) * 1000), flushWaitMs: Math.round(flushWaitMs ?? 0) }),
    reopenMs: reopenMs === null ? null : round(reopenMs, 1),
    vectorP50Ms: round(percentile(vectorTimes, 0.5)),
    vectorP95Ms: round(percentile(vectorTimes, 0.95)),
    lexicalP50Ms: round(percentile(lexicalTimes, 0.5)),
    lexicalP95Ms: round(percentile(lexicalTimes, 0.95)),
    rssMB: Math.round(rssMB),
    diskMB: name === 'store-lmdb' ? round(directorySize(path) / 2 ** 20, 1) : null,
    hits,
  };
  if (name === 'store-lmdb' && beams.length > 0) {
    await store.dispose();
    result.beamHits = [];
    for (const beam of beams) {
      const reader = await openStore(name, path, beam);
      for (let index = 0; index < 20; index++) await reader.vectorSearch(scopeOf(index), queryVector(queries + index, dims, centreMatrix), { k: 10 });
      const sweep = await vectorQueries(reader, centreMatrix);
      await reader.dispose();
      result.beamHits.push({ beam, vectorP50Ms: round(percentile(sweep.times, 0.5)), vectorP95Ms: round(percentile(sweep.times, 0.95)), hits: sweep.hits });
      progress(`${name}: beam ${beam}: p50 ${round(percentile(sweep.times, 0.5))} ms, p95 ${round(percentile(sweep.times, 0.95))} ms`);
    }
    store = await openStore(name, path);
  }
  if (args.forget) {
    const before = performance.now();
    for (let tenant = 0; tenant < tenants; tenant++) await store.forget({ userId: `user-${tenant}` });
    result.forgetMs = Math.round(performance.now() - before);
  }
  await store.dispose();
  if (args.directory === undefined) rmSync(path, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(name: StoreName): Promise<ChildResult> {
  const script = fileURLToPath(import.meta.url);
  const passed = ['--units', String(units), '--queries', String(queries), '--batch', String(batch), '--tenants', String(tenants), ...(args.forget ? ['--forget'] : []), ...(args.hnsw === undefined ? [] : ['--hnsw', args.hnsw]), ...(args.beams === undefined ? [] : ['--beams', args.beams])];
  // A given directory keeps the store-lmdb store for inspection (it must be empty or absent).
  if (args.directory !== undefined && name === 'store-lmdb') passed.push('--directory', args.directory);
  const child = spawn(process.execPath, ['--max-old-space-size=16384', script, '--store', name, ...passed], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${name} benchmark exited with ${code}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}'));
    });
  });
}

/** Exact top-10 ids of every query within its tenant (usearch's brute-force search). */
function exactTopTen(): string[][] {
  const centreMatrix = centres(clusters, dims);
  const truth: string[][] = [];
  for (let tenant = 0; tenant < tenants; tenant++) {
    const members: number[] = [];
    for (let index = tenant; index < units; index += tenants) members.push(index);
    const dataset = new Float32Array(members.length * dims);
    members.forEach((index, row) => benchVector(index, dims, centreMatrix, dataset.subarray(row * dims, (row + 1) * dims)));
    const tenantQueries = Array.from({ length: queries }, (_, index) => index).filter((index) => index % tenants === tenant);
    if (tenantQueries.length === 0) continue;
    const matrix = new Float32Array(tenantQueries.length * dims);
    tenantQueries.forEach((index, row) => matrix.set(queryVector(index, dims, centreMatrix), row * dims));
    const result = exactSearch(dataset, matrix, dims, Math.min(10, members.length), MetricKind.Cos, 0);
    tenantQueries.forEach((query, row) => {
      const matches = 'get' in result ? result.get(row) : result;
      truth[query] = Array.from(matches.keys, (key) => benchUnitId(members[Number(key)] as number));
    });
  }
  return truth;
}

/** Mean share of each query's exact top 10 found. */
function recallAt10(hits: string[][], truth: string[][]): number {
  let recall = 0;
  hits.forEach((found, index) => {
    const expected = new Set(truth[index]);
    recall += found.filter((id) => expected.has(id)).length / Math.max(1, expected.size);
  });
  return round(recall / hits.length, 4);
}

async function main(): Promise<void> {
  if (args.store !== undefined) {
    await runStore(args.store as StoreName);
    return;
  }
  const selected = (args.stores ?? '').split(',').filter((name): name is StoreName => (storeNames as ReadonlyArray<string>).includes(name));
  progress(`${units} units, ${dims} dims, ${clusters} clusters, ${tenants} tenant(s), batches of ${batch}, ${queries} queries`);
  progress('computing exact top-10 for recall…');
  const truth = exactTopTen();
  const stores: Record<string, StoreResult> = {};
  for (const name of selected) {
    progress(`running ${name}…`);
    const { hits, beamHits, ...numbers } = await runChild(name);
    const beamSweep = beamHits?.map(({ hits: beamHits, ...beam }) => ({ ...beam, vectorRecallAt10: recallAt10(beamHits, truth) }));
    stores[name] = { ...numbers, vectorRecallAt10: recallAt10(hits, truth), ...(beamSweep === undefined ? {} : { beamSweep }) };
    progress(`${name}: ${JSON.stringify(stores[name])}`);
  }
  const report = { units, dims, stores };
  if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
