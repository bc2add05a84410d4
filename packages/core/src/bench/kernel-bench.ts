// Vector kernel benchmark: top-10 cosine over 100,000 × 256 random f32 rows, the WASM SIMD kernel
// against the loop a user would write in plain JS, plus the machine's copy bandwidth measured in
// the same run. `node dist/bench/kernel-bench.js --json` prints one JSON object; without `--json`
// a readable summary (which also times the kernel's JS fallback and the two-pass WASM strategy).
import { performance } from 'node:perf_hooks';
import { createVectorMatrix, kernelSupport } from '../kernel/index.js';
import type { VectorMatrix } from '../kernel/index.js';
import { WasmVectorMatrix } from '../kernel/wasm-matrix.js';

const rows = 100_000;
const dims = 256;
const k = 10;
const json = process.argv.includes('--json');

/** Deterministic PRNG (mulberry32), so every run scans the same data. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomMatrix(count: number, random: () => number): Float32Array {
  const data = new Float32Array(count * dims);
  for (let index = 0; index < data.length; index++) data[index] = random() * 2 - 1;
  return data;
}

/** The straightforward version: nested loop, dot and row norm per row, sorted insertion top-k. */
function plainJsTopK(data: Float32Array, query: Float32Array, count: number): number[] {
  let queryNorm = 0;
  for (let index = 0; index < dims; index++) queryNorm += (query[index] as number) * (query[index] as number);
  queryNorm = Math.sqrt(queryNorm);
  const best: Array<{ row: number; score: number }> = [];
  for (let row = 0; row < count; row++) {
    let dot = 0;
    let norm = 0;
    const offset = row * dims;
    for (let index = 0; index < dims; index++) {
      const value = data[offset + index] as number;
      dot += value * (query[index] as number);
      norm += value * value;
    }
    const denominator = queryNorm * Math.sqrt(norm);
    const score = denominator === 0 ? 0 : dot / denominator;
    if (best.length < k || score > (best[best.length - 1] as { score: number }).score) {
      let at = best.length;
      while (at > 0 && (best[at - 1] as { score: number }).score < score) at--;
      best.splice(at, 0, { row, score });
      if (best.length > k) best.pop();
    }
  }
  return best.map((hit) => hit.row);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Something timed by the bench: `run(round, repeat)` is one call. */
interface Contestant {
  name: string;
  /** Calls per round. */
  perRound: number;
  run: (round: number, repeat: number) => void;
  times: number[];
}

/**
 * Times every contestant in interleaved rounds (one round = each contestant `perRound` times,
 * after `warmupRounds` untimed rounds; the order flips every round), so a slow phase of a shared
 * machine hits all of them alike instead of whichever happened to run then; returns the medians
 * in milliseconds.
 */
function timeInterleaved(contestants: Contestant[], rounds: number, warmupRounds: number): Map<string, number> {
  const reversed = [...contestants].reverse();
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (const contestant of round % 2 === 0 ? contestants : reversed) {
      for (let repeat = 0; repeat < contestant.perRound; repeat++) {
        const start = performance.now();
        contestant.run(round, repeat);
        const elapsed = performance.now() - start;
        if (round >= warmupRounds) contestant.times.push(elapsed);
      }
    }
  }
  return new Map(contestants.map((contestant) => [contestant.name, median(contestant.times)]));
}

/** 256 MB Float32Arrays for the copy-bandwidth measurement (`Float32Array.prototype.set`). */
function copyArrays(): { source: Float32Array; target: Float32Array; bytes: number } {
  const bytes = 256 * 1024 * 1024;
  const source = new Float32Array(bytes / 4).fill(1);
  const target = new Float32Array(bytes / 4);
  target.set(source); // touch every page of both before timing
  return { source, target, bytes };
}

function fill(matrix: VectorMatrix, data: Float32Array): VectorMatrix {
  for (let row = 0; row < rows; row++) matrix.append(data.subarray(row * dims, (row + 1) * dims));
  return matrix;
}

function sameRows(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function main(): void {
  if (!kernelSupport().wasmSimd) throw new Error('kernel-bench: this engine has no WebAssembly SIMD');
  const random = createRandom(20_240_601);
  const data = randomMatrix(rows, random);
  const queries = Array.from({ length: 64 }, () => randomMatrix(1, random));
  const queryOf = (index: number): Float32Array => queries[index % queries.length] as Float32Array;
  const plainQueries = queries.slice(0, 8);

  const wasm = fill(createVectorMatrix(dims, { backend: 'wasm', initialCapacity: rows }), data);
  let mismatches = 0;
  for (const query of plainQueries) {
    if (!sameRows(wasm.topK(query, k).rows, plainJsTopK(data, query, rows))) mismatches++;
  }

  const copy = copyArrays();
  const wasmRun = (matrix: VectorMatrix) => (round: number, repeat: number) => matrix.topK(queryOf(round * 3 + repeat), k);
  const contestants: Contestant[] = [
    { name: 'copy', perRound: 1, run: () => copy.target.set(copy.source), times: [] },
    { name: 'wasm', perRound: 3, run: wasmRun(wasm), times: [] },
  ];
  if (!json) {
    // Same queries as `wasm` and next to it in every round, so the strategies compare pairwise.
    const twoPass = fill(new WasmVectorMatrix(dims, rows, 'two-pass'), data);
    contestants.push({ name: 'two-pass', perRound: 3, run: wasmRun(twoPass), times: [] });
  }
  contestants.push({ name: 'plain', perRound: 1, run: (round) => plainJsTopK(data, queryOf(round), rows), times: [] });
  if (!json) {
    const fallback = fill(createVectorMatrix(dims, { backend: 'js', initialCapacity: rows }), data);
    contestants.push({ name: 'fallback', perRound: 1, run: (round) => fallback.topK(queryOf(round), k), times: [] });
  }
  const medians = timeInterleaved(contestants, 20, 3);
  const ms = (name: string): number => medians.get(name) as number;
  const copyGBps = copy.bytes / (ms('copy') / 1000) / 1e9;
  const wasmGBps = (rows * dims * 4) / (ms('wasm') / 1000) / 1e9;
  const result = {
    rows,
    dims,
    wasmMsPerQuery: round(ms('wasm')),
    jsMsPerQuery: round(ms('plain')),
    speedup: round(ms('plain') / ms('wasm')),
    wasmGBps: round(wasmGBps),
    copyGBps: round(copyGBps),
  };
  if (mismatches > 0) console.error(`kernel-bench: top-${k} differs from the plain JS loop on ${mismatches} queries`);
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  const timesOf = (name: string): number[] => contestants.find((contestant) => contestant.name === name)?.times ?? [];
  const fastest = (name: string): number => round(Math.min(...timesOf(name)));
  const twoPassRatio = median(timesOf('two-pass').map((time, index) => time / (timesOf('wasm')[index] as number)));
  const lines = [
    `vector kernel: top-${k} cosine over ${rows.toLocaleString('en')} × ${dims} f32 rows (${((rows * dims * 4) / 1e6).toFixed(1)} MB); medians (fastest)`,
    `  WASM SIMD, fused scan + heap  : ${result.wasmMsPerQuery} ms/query (${fastest('wasm')})  ${result.wasmGBps} GB/s scanned`,
    `  WASM SIMD, scores then select : ${round(ms('two-pass'))} ms/query (${fastest('two-pass')})  two-pass/fused per query ${round(twoPassRatio)}`,
    `  plain JS loop (user's version): ${result.jsMsPerQuery} ms/query (${fastest('plain')})  speedup ${result.speedup}×`,
    `  kernel's JS fallback          : ${round(ms('fallback'))} ms/query (${fastest('fallback')})`,
    `  memory copy, 256 MB set       : ${round(ms('copy'))} ms (${fastest('copy')})  ${result.copyGBps} GB/s copied; scan/copy ${round(wasmGBps / copyGBps)}`,
    `  top-${k} rows equal to the plain JS loop on ${plainQueries.length - mismatches}/${plainQueries.length} queries`,
  ];
  console.log(lines.join('\n'));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

main();
