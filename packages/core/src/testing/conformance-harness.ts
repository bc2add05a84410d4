import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { WriteBatchInput } from '../model/batch.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { defaultUniverse, sampleWorld, type BatchSizes, type Universe } from './generators.js';
import { writeBoth, resolveBatch } from './operations.js';
import { ReferenceStore } from './reference-store.js';
import type { AnswerOptions } from './store-queries.js';

/** Options of {@link runStoreConformance}. */
export interface StoreConformanceOptions {
  /** Store name shown in every test title, e.g. `store-memory`. */
  name: string;
  /** Opens a store keeping its files (if any) in `directory`, an existing directory owned by the test. */
  createStore: (context: { directory: string }) => Promise<MemoryStore>;
  /** The store survives `dispose()` and reopening the same directory. @default false */
  persistent?: boolean;
  /** Vector top-k is exact. @default true */
  exactVector?: boolean;
  /** Minimum mean recall@10 of an approximate vector search. @default 0.95 */
  vectorRecallAt10?: number;
  /** Runs of the scoping property test. @default 40 */
  propertyRuns?: number;
  /** Seed of the property test. @default 20240601 */
  seed?: number;
}

/** What every conformance test gets: temp directories, tracked stores, the standard data set. */
export interface ConformanceHarness {
  /** The suite's options with defaults applied. */
  readonly options: Required<StoreConformanceOptions>;
  /** Options for comparing answers with the reference. */
  readonly answerOptions: AnswerOptions;
  /** Universe of the standard data set. */
  readonly universe: Universe;
  /** A fresh empty directory inside this test's temp directory. */
  directory(): Promise<string>;
  /** Opens a store (in a fresh directory unless one is given); disposed after the test if still open. */
  open(directory?: string): Promise<MemoryStore>;
  /** Disposes a store opened with {@link open}. */
  close(store: MemoryStore): Promise<void>;
  /** Writes the standard data set to `store` and returns the matching reference. */
  writeWorld(store: MemoryStore, reference?: ReferenceStore): Promise<ReferenceStore>;
}

/** The standard data set: 6 multi-tenant batches over a 12-id pool. */
export const standardUniverse: Universe = { ...defaultUniverse, poolSize: 12 };
const standardSizes: BatchSizes = { units: [25, 35], cues: [8, 12], tags: [5, 8], relations: [25, 40] };

/** The standard data set's batches (generated once, seeded). */
export function standardWorld(seed = 20240601): WriteBatchInput[] {
  return sampleWorld(seed, standardUniverse, 6, standardSizes);
}

/** Registers the per-test temp directory and store tracking; call inside a `describe`. */
export function createHarness(input: StoreConformanceOptions): ConformanceHarness {
  const options: Required<StoreConformanceOptions> = {
    persistent: false,
    exactVector: true,
    vectorRecallAt10: 0.95,
    propertyRuns: 40,
    seed: 20240601,
    ...input,
  };
  let root: string | undefined;
  let counter = 0;
  const open = new Set<MemoryStore>();
  const world = standardWorld(options.seed);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'engram-conformance-'));
    counter = 0;
  });
  afterEach(async () => {
    for (const store of open) await store.dispose().catch(() => undefined);
    open.clear();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  const harness: ConformanceHarness = {
    options,
    answerOptions: { exactVector: options.exactVector },
    universe: standardUniverse,
    async directory() {
      if (root === undefined) throw new Error('conformance harness used outside a test');
      counter += 1;
      const directory = join(root, `store-${counter}`);
      await mkdir(directory, { recursive: true });
      return directory;
    },
    async open(directory) {
      const store = await options.createStore({ directory: directory ?? (await harness.directory()) });
      open.add(store);
      return store;
    },
    async close(store) {
      open.delete(store);
      await store.dispose();
    },
    async writeWorld(store, reference = new ReferenceStore()) {
      for (const batch of world) await writeBoth(store, reference, resolveBatch(batch, reference));
      return reference;
    },
  };
  return harness;
}
