import { StoreError } from '../errors/engram-error.js';
import { parseInput } from '../errors/parse-input.js';
import { scopeSchema, tenantOf, type Scope, type ScopeFilter } from '../model/scope.js';
import type { Distiller } from '../ports/distiller.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore } from '../ports/memory-store.js';
import { createHashedEmbedder } from '../embed/hashed-embedder.js';
import { createOfflineDistiller, trustedDistillerOutput } from '../ingest/offline/offline-distiller.js';
import { parseAddInput, type AddInput } from './add-input.js';
import type { Navigator } from '../ports/navigator.js';
import type { RecallResult } from '../recall/recall-types.js';
import { createEngramRecall, type EngramRecallOptions } from './engram-recall.js';
import { addCounts, emptyCounts, ingestSession, type AddCounts } from './ingest-session.js';
import { TenantFacts } from './store-memory-view.js';

/** Options of {@link createEngram}. */
export interface EngramOptions {
  /** Where memory lives. */
  store: MemoryStore;
  /** Embeds every unit written. @default the offline hashed embedder (256 dimensions) */
  embedder?: Embedder;
  /** Builds the memory graph of each session. @default the offline distiller */
  distiller?: Distiller;
  /** Clock used to date messages given without a timestamp, and sessions without a date. @default () => new Date() */
  now?: () => Date;
  /** The policy of `active` recall. @default the offline navigator */
  navigator?: Navigator;
}

/** Options of one {@link Engram.add} call. */
export interface AddOptions {
  /** Cancels the call between sessions (sessions already written stay written). */
  signal?: AbortSignal;
}

/** A memory engine bound to one store. */
export interface Engram {
  /** The store it writes to. */
  readonly store: MemoryStore;
  /** The embedder it uses. */
  readonly embedder: Embedder;
  /** The distiller it uses. */
  readonly distiller: Distiller;
  /**
   * Ingests a conversation, a session or an array of messages into the scope's memory: one
   * atomic batch per session, sessions in order. Turns already stored are skipped, so adding the
   * same input twice writes nothing the second time. Invalid input raises an `InvalidInputError`
   * before anything is written.
   */
  add(input: AddInput, scope: Scope, options?: AddOptions): Promise<AddCounts>;
  /**
   * Recalls evidence for a query from the scope's memory with a strategy (`active` by default):
   * ranked evidence with coordinates and reasons, plus the trace of what was done.
   */
  recall(query: string, options: EngramRecallOptions): Promise<RecallResult>;
  /** Removes every record in the scope (a whole user, an agent, or one session). */
  forget(scope: ScopeFilter): Promise<void>;
  /** Deletes one unit with its relations; returns whether it existed. */
  delete(id: string, scope: ScopeFilter): Promise<boolean>;
  /** Waits for running calls, then disposes the store. */
  dispose(): Promise<void>;
}

/**
 * Creates a memory engine. Calls on one user are serialised (an `add` and a `forget` of the same
 * user never interleave); different users proceed concurrently. All state lives in the store.
 */
export function createEngram(options: EngramOptions): Engram {
  const { store } = options;
  const embedder = options.embedder ?? createHashedEmbedder();
  const distiller = options.distiller ?? createOfflineDistiller();
  const trustDistiller = (distiller as unknown as Record<symbol, unknown>)[trustedDistillerOutput] === true;
  const now = options.now ?? (() => new Date());
  const queues = new Map<string, Promise<unknown>>();
  let disposed = false;

  const serialise = <T>(userId: string, task: () => Promise<T>): Promise<T> => {
    if (disposed) return Promise.reject(new StoreError({ store: store.name, code: 'disposed', message: 'the engram has been disposed' }));
    const previous = queues.get(userId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.then(() => undefined, () => undefined);
    queues.set(userId, tail);
    void tail.then(() => {
      if (queues.get(userId) === tail) queues.delete(userId);
    });
    return run;
  };

  const recaller = createEngramRecall({ store, embedder, ...(options.navigator ? { navigator: options.navigator } : {}) });

  return {
    store,
    embedder,
    distiller,
    recall: (query, recallOptions) => {
      if (disposed) return Promise.reject(new StoreError({ store: store.name, code: 'disposed', message: 'the engram has been disposed' }));
      return recaller.recall(query, recallOptions);
    },
    add: async (input, scope, addOptions = {}) => {
      const parsedScope = parseInput(scopeSchema, scope, { label: 'scope' });
      const conversation = parseAddInput(input, { now, ...(parsedScope.sessionId === undefined ? {} : { defaultSession: parsedScope.sessionId }) });
      const tenant = tenantOf(parsedScope) as Scope;
      return serialise(tenant.userId, async () => {
        let counts = emptyCounts();
        const context = { store, embedder, distiller, trustDistiller, facts: new TenantFacts(store, tenant) };
        for (const session of conversation.sessions) {
          addOptions.signal?.throwIfAborted();
          counts = addCounts(counts, await ingestSession(context, tenant, conversation, session, addOptions.signal));
          recaller.invalidate(tenant.userId);
        }
        return counts;
      });
    },
    forget: async (scope) => {
      const parsed = parseInput(scopeSchema, scope, { label: 'scope' });
      return serialise(parsed.userId, async () => {
        await store.forget(parsed);
        recaller.invalidate(parsed.userId);
      });
    },
    delete: async (id, scope) => {
      const parsed = parseInput(scopeSchema, scope, { label: 'scope' });
      return serialise(parsed.userId, async () => {
        const deleted = await store.delete(parsed, id);
        recaller.invalidate(parsed.userId);
        return deleted;
      });
    },
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await Promise.all([...queues.values()]);
      await store.dispose();
    },
  };
}
