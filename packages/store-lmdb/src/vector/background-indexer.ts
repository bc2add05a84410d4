import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Databases } from '../layout.js';
import type { HnswOptions, Sidecar } from './index-file.js';
import type { IndexMaintenance } from './vector-index.js';

/** How the indexer thread starts: load the saved file (and catch up), rebuild from LMDB, or start empty. */
export type IndexPlan = { kind: 'load'; sidecar: Sidecar; behind: boolean } | { kind: 'rebuild' } | { kind: 'empty'; generation: number };

/** What the indexer thread starts from: the store, its HNSW settings, the plan and the generation to reach. */
export interface IndexerStart {
  path: string;
  dims: number;
  options: HnswOptions;
  maintenance: IndexMaintenance;
  lmdb: { mapSize?: number; maxReaders?: number };
  plan: IndexPlan;
  generation: number;
}

/** Messages to the indexer thread. */
export type ToIndexer =
  | ({ type: 'start' } & IndexerStart)
  | { type: 'sync'; generation: number }
  | { type: 'flush'; id: number; generation: number }
  | { type: 'stop' };

/** Messages from the indexer thread. */
export type FromIndexer =
  | { type: 'saved'; sidecar: Sidecar; pruneThrough: number }
  | { type: 'progress'; generation: number }
  | { type: 'flushed'; id: number; generation: number }
  | { type: 'warning'; message: string }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

/** The worker script: next to the bundle in `dist/`; from the sources (tests) the built one. */
function workerScript(): URL {
  for (const candidate of ['./index-worker.js', '../../dist/index-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error('store-lmdb: dist/index-worker.js is missing; build the package (pnpm --filter @engram/store-lmdb build)');
}

/**
 * Main-thread handle on the background indexer (`index-worker.ts`). Commits only tell it the new
 * generation; it catches up on its own. When it saves a file this side prunes the vector log (one
 * write transaction) and marks the mapped view stale, so the next search re-maps the new file.
 */
export class BackgroundIndexer {
  private readonly worker: Worker;
  private nextFlush = 1;
  private readonly pending = new Map<number, () => void>();
  private failed = false;
  private stopped: Promise<void>;
  /** Generation the graph covers (as last reported). */
  generation = 0;

  constructor(
    parameters: IndexerStart & { databases: Databases },
    private readonly handlers: { warn: (message: string) => void; saved: (sidecar: Sidecar) => void; prune: (through: number) => void },
  ) {
    const { databases: _databases, ...start } = parameters;
    this.worker = new Worker(workerScript());
    let resolveStopped: () => void = () => undefined;
    this.stopped = new Promise((resolve) => (resolveStopped = resolve));
    this.worker.on('message', (message: FromIndexer) => this.receive(message));
    this.worker.on('error', (error) => {
      this.fail(`store-lmdb: the background vector indexer failed (${String(error)}); the index is rebuilt or caught up from LMDB at the next open`);
    });
    this.worker.on('exit', () => {
      this.failed = true;
      for (const resolve of this.pending.values()) resolve();
      this.pending.clear();
      resolveStopped();
    });
    // A process that never disposes must still exit; the next open catches up from LMDB. (After
    // the listeners: adding a 'message' listener refs the worker's port again.)
    this.worker.unref();
    this.post({ type: 'start', ...start });
  }

  private post(message: ToIndexer): void {
    if (!this.failed) this.worker.postMessage(message);
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.handlers.warn(message);
    for (const resolve of this.pending.values()) resolve();
    this.pending.clear();
  }

  private receive(message: FromIndexer): void {
    switch (message.type) {
      case 'saved':
        if (message.pruneThrough > 0) this.handlers.prune(message.pruneThrough);
        this.handlers.saved(message.sidecar);
        break;
      case 'progress':
        this.generation = Math.max(this.generation, message.generation);
        break;
      case 'flushed': {
        this.generation = Math.max(this.generation, message.generation);
        const resolve = this.pending.get(message.id);
        this.pending.delete(message.id);
        resolve?.();
        break;
      }
      case 'warning':
        this.handlers.warn(message.message);
        break;
      case 'failed':
        this.fail(`store-lmdb: the background vector indexer failed (${message.message}); the index is rebuilt or caught up from LMDB at the next open`);
        break;
      case 'stopped':
        break;
    }
  }

  /** A commit reached `generation`. */
  notify(generation: number): void {
    this.post({ type: 'sync', generation });
  }

  /** Resolves once the graph covers `generation` and is saved (or the indexer is gone). */
  flush(generation: number): Promise<void> {
    if (this.failed) return Promise.resolve();
    const id = this.nextFlush++;
    const done = new Promise<void>((resolve) => this.pending.set(id, resolve));
    // Keep the process alive while someone waits.
    this.worker.ref();
    this.post({ type: 'flush', id, generation });
    return done.finally(() => {
      if (this.pending.size === 0 && !this.failed) this.worker.unref();
    });
  }

  /** Indexes everything up to `generation`, saves, and ends the thread. */
  async stop(generation: number): Promise<void> {
    if (!this.failed) {
      this.worker.ref();
      this.post({ type: 'sync', generation });
      this.post({ type: 'stop' });
    }
    await this.stopped;
  }
}
