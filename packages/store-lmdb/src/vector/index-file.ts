import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { Index, MetricKind, ScalarKind } from 'usearch';

/** Parameters of the HNSW graph. */
export interface HnswOptions {
  /**
   * Edges per node (usearch `connectivity`, HNSW's M). Changing it rebuilds the graph once (in the
   * background; the old graph serves searches meanwhile). 16 (the default before) left recall@10
   * at ≈0.95 on the bench's 1 000 000 vectors however wide the beam. @default 24
   */
  connectivity: number;
  /** Candidate list size while inserting (HNSW's efConstruction); not recorded in the index file, so changing it alone rebuilds nothing. @default 96 */
  expansionAdd: number;
  /**
   * Candidate list size while searching (HNSW's ef); a search-time setting (changing it rebuilds
   * nothing). 0 scales it with the graph: 96 up to 100 000 vectors, rising linearly to 256 at
   * 1 000 000 and on at the same slope up to 512 (a fixed beam finds less of the true top k as
   * the graph grows); for a graph of connectivity below 24 it rises to 512 at 1 000 000, as it did
   * when 16 was the default. @default 0
   */
  expansionSearch: number;
  /**
   * How the graph stores vectors; exact scores are always recomputed from LMDB's float32 copy.
   * `i8` (each vector scaled to unit length, then to −127…127) builds the graph several times
   * faster than `f16` on CPUs without native half-precision arithmetic, in half the memory, and
   * ranks neighbours as well once the candidates are re-scored exactly. @default 'i8'
   */
  quantization: 'f32' | 'f16' | 'bf16' | 'i8';
  /**
   * Threads that insert into the graph; 0 lets usearch choose (all cores). Concurrent insertion is
   * faster but not deterministic and now and then leaves a node poorly linked (an approximate
   * search may then miss it); 1 builds the same graph from the same vectors every time and leaves
   * the other cores to the writer. @default 1
   */
  addThreads?: number;
}

/** What the sidecar `vectors.json` records about the saved index file. */
export interface Sidecar {
  /** Sidecar format. */
  formatVersion: 1;
  /** Store generation the file reflects. */
  generation: number;
  /** File name inside the store directory. */
  file: string;
  /** File size in bytes (a torn or truncated file is caught by this). */
  bytes: number;
  /** Vectors in the file, tombstones included. */
  count: number;
  /** Vectors in the file that were removed since it was built (never returned; dropped by compaction). */
  tombstones?: number;
  /** Vector dimension. */
  dims: number;
  /** Graph connectivity. */
  connectivity: number;
  /** Stored scalar kind. */
  quantization: HnswOptions['quantization'];
  /** SHA-256 of the file (whole up to 4 MiB, else 64 sampled 64 KiB blocks including both ends). */
  checksum: string;
}

const sampleBlock = 64 * 1024;
const sampleCount = 64;

/**
 * A checksum of the index file that costs a few milliseconds even for gigabytes: the whole file
 * when small, else evenly spaced blocks. It catches torn, truncated and overwritten files (which
 * the native loader would otherwise map and crash on); a flipped bit between samples goes unseen.
 */
export function fileChecksum(path: string): string {
  const hash = createHash('sha256');
  const size = statSync(path).size;
  const descriptor = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(sampleBlock);
    const offsets: number[] = [];
    if (size <= sampleCount * sampleBlock) for (let offset = 0; offset < size; offset += sampleBlock) offsets.push(offset);
    else for (let index = 0; index < sampleCount; index++) offsets.push(Math.floor(((size - sampleBlock) * index) / (sampleCount - 1)));
    for (const offset of offsets) {
      const read = readSync(descriptor, buffer, 0, Math.min(sampleBlock, size - offset), offset);
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
  return hash.update(String(size)).digest('hex');
}

const sidecarName = 'vectors.json';
const scalarKinds: Record<HnswOptions['quantization'], ScalarKind> = { f32: ScalarKind.F32, f16: ScalarKind.F16, bf16: ScalarKind.BF16, i8: ScalarKind.I8 };

/** The search beam for a graph of `count` vectors (see {@link HnswOptions.expansionSearch}). */
export function searchExpansion(options: Pick<HnswOptions, 'connectivity' | 'expansionSearch'>, count: number): number {
  if (options.expansionSearch > 0) return options.expansionSearch;
  // At 1 000 000 bench vectors connectivity 24 reaches recall@10 0.9965 at 256; 16 needs 512 for 0.9525 (0.934 at 256).
  const atMillion = options.connectivity >= 24 ? 256 : 512;
  return Math.round(Math.min(512, Math.max(96, 96 + ((count - 100_000) * (atMillion - 96)) / 900_000)));
}

/** A new empty cosine HNSW index; `count` (the vectors it will hold) sets an automatic search beam. */
export function createIndex(dims: number, options: HnswOptions, count = 0): Index {
  return new Index(dims, MetricKind.Cos, scalarKinds[options.quantization], options.connectivity, options.expansionAdd, searchExpansion(options, count), false);
}

/**
 * Frees an index now instead of at garbage collection: the binding has no `close`, but `load`
 * resets the index first, so loading a saved empty index unmaps a viewed file and frees memory.
 */
export function releaseIndex(index: Index, options: HnswOptions): void {
  const dims = index.dimensions();
  const empty = join(tmpdir(), `engram-usearch-empty-${dims}-${options.quantization}-${options.connectivity}.usearch`);
  if (!existsSync(empty)) {
    // The writer's indexing thread shares the pid: the thread id keeps their temporary files apart.
    const temporary = `${empty}.${process.pid}.${threadId}.tmp`;
    createIndex(dims, options).save(temporary);
    renameSync(temporary, empty);
  }
  index.load(empty);
}

/** Whether the saved graph was built with `options`' connectivity and quantization (else it is rebuilt by the writer, though still searchable). */
export function builtWith(sidecar: Sidecar, options: HnswOptions): boolean {
  return sidecar.connectivity === options.connectivity && sidecar.quantization === options.quantization;
}

/**
 * Reads and checks the sidecar; returns it, or why it cannot be used. A file built with other
 * HNSW options is usable (usearch takes connectivity and quantization from the file): see
 * {@link builtWith}.
 */
export function readSidecar(directory: string, dims: number): { sidecar: Sidecar } | { problem: string } {
  const path = join(directory, sidecarName);
  if (!existsSync(path)) return { problem: 'the vector index sidecar is missing' };
  let sidecar: Sidecar;
  try {
    sidecar = JSON.parse(readFileSync(path, 'utf8')) as Sidecar;
  } catch (error) {
    return { problem: `the vector index sidecar is unreadable (${String(error)})` };
  }
  if (sidecar.formatVersion !== 1 || typeof sidecar.generation !== 'number' || typeof sidecar.file !== 'string') return { problem: 'the vector index sidecar has an unknown format' };
  if (sidecar.dims !== dims) return { problem: `the vector index holds ${sidecar.dims}-dimensional vectors, the store ${dims}` };
  const file = join(directory, sidecar.file);
  if (!existsSync(file)) return { problem: `the vector index file ${sidecar.file} is missing` };
  const bytes = statSync(file).size;
  if (bytes !== sidecar.bytes) return { problem: `the vector index file ${sidecar.file} has ${bytes} bytes, its sidecar says ${sidecar.bytes}` };
  if (fileChecksum(file) !== sidecar.checksum) return { problem: `the vector index file ${sidecar.file} does not match its checksum (corrupt)` };
  return { sidecar };
}

/**
 * Opens a saved index file: memory-mapped read-only (`view`, near-instant) or loaded into memory
 * (`load`, needed to change it). Throws when the file is corrupt.
 */
export function openIndexFile(directory: string, sidecar: Sidecar, options: HnswOptions, mode: 'view' | 'load'): Index {
  // The file brings its own connectivity (a graph built with other options is searched as it is): the beam follows it.
  const index = createIndex(sidecar.dims, { ...options, connectivity: sidecar.connectivity }, sidecar.count);
  const file = join(directory, sidecar.file);
  if (mode === 'view') index.view(file);
  else index.load(file);
  if (index.size() !== sidecar.count || index.dimensions() !== sidecar.dims) {
    const message = `the vector index file ${sidecar.file} holds ${index.size()} vectors of ${index.dimensions()} dimensions, its sidecar says ${sidecar.count} of ${sidecar.dims}`;
    releaseIndex(index, options);
    throw new Error(message);
  }
  return index;
}

/** Replaces the sidecar atomically (write, flush, rename, flush the directory). */
export function writeSidecar(directory: string, sidecar: Sidecar): void {
  const sidecarPath = join(directory, sidecarName);
  writeFileSync(`${sidecarPath}.tmp`, `${JSON.stringify(sidecar, null, 2)}\n`);
  syncFile(`${sidecarPath}.tmp`);
  renameSync(`${sidecarPath}.tmp`, sidecarPath);
  syncFile(directory);
}

function syncFile(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Saves `index` as the file of `generation`: the file is written and flushed under a temporary
 * name, renamed, then the sidecar is replaced atomically. A crash at any point leaves the previous
 * sidecar pointing at a complete previous file. Files older than the previous one are removed
 * (readers may still have the previous one mapped).
 */
export function saveIndexFile(directory: string, index: Index, state: { generation: number; tombstones: number }, options: HnswOptions, previous: Sidecar | undefined): Sidecar {
  const { generation } = state;
  const file = `vectors-${generation}.usearch`;
  const path = join(directory, file);
  const temporary = `${path}.tmp`;
  index.save(temporary);
  syncFile(temporary);
  const checksum = fileChecksum(temporary);
  renameSync(temporary, path);
  const sidecar: Sidecar = {
    formatVersion: 1,
    generation,
    file,
    bytes: statSync(path).size,
    count: index.size(),
    tombstones: state.tombstones,
    dims: index.dimensions(),
    connectivity: options.connectivity,
    quantization: options.quantization,
    checksum,
  };
  writeSidecar(directory, sidecar);
  for (const name of readdirSync(directory)) {
    if (!/^vectors-\d+\.usearch(\.tmp)?$/.test(name) || name === file || name === previous?.file) continue;
    try {
      unlinkSync(join(directory, name));
    } catch {
      // Another process may have removed it already; stale files are harmless.
    }
  }
  return sidecar;
}
