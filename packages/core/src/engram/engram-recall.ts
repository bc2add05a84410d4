import { z } from 'zod';
import { InvalidInputError } from '../errors/engram-error.js';
import { parseInput } from '../errors/parse-input.js';
import { scopeSchema } from '../model/scope.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Navigator } from '../ports/navigator.js';
import { createActiveStrategy } from '../recall/active/active-reconstruction.js';
import { baselineStrategies } from '../recall/baselines/index.js';
import type { RecallResult } from '../recall/recall-types.js';
import { recallStrategies } from '../recall/registry.js';
import type { RecallContext, RecallStrategy } from '../recall/strategy.js';
import { MemoryViewCache } from '../recall/view/memory-view.js';

/** Names `engram.recall` accepts. */
export const engramStrategyNames = ['active', 'ramem', 'similarity', 'graph', 'bm25-turns', 'orama-turns'] as const;

const recallOptionsSchema = z.strictObject({
  /** Whose memory: `userId` (required), optional `agentId` / `sessionId`. */
  scope: scopeSchema,
  /** The strategy. @default 'active' */
  strategy: z.enum(engramStrategyNames).default('active'),
  /** Evidence items to return. @default 10 */
  k: z.number().int().min(1).max(1000).default(10),
  /** When the question is asked (ISO); relative times are grounded against the memory's dates otherwise. */
  questionDate: z.string().min(1).optional(),
  /** Cancels the recall. */
  signal: z.instanceof(AbortSignal).optional(),
});

/** Options of `engram.recall`. */
export type EngramRecallOptions = z.input<typeof recallOptionsSchema>;

/**
 * The recall side of an engram: one strategy instance per name over shared per-tenant memory
 * views, which the engram invalidates whenever it writes to a tenant.
 */
export function createEngramRecall(options: { store: MemoryStore; embedder: Embedder; navigator?: Navigator }) {
  const views = new MemoryViewCache(options.store);
  const context: RecallContext = { store: options.store, embed: (texts) => options.embedder.embed(texts), views };
  const strategies = new Map<string, RecallStrategy>();
  const strategy = (name: (typeof engramStrategyNames)[number]): RecallStrategy => {
    let instance = strategies.get(name);
    if (!instance) {
      if (name === 'active') instance = createActiveStrategy(context, options.navigator ? { navigator: options.navigator } : {});
      else if (name === 'bm25-turns' || name === 'orama-turns') instance = baselineStrategies[name](context);
      else instance = recallStrategies[name](context);
      strategies.set(name, instance);
    }
    return instance;
  };
  return {
    /** Recalls evidence for `query`. */
    async recall(query: string, input: EngramRecallOptions): Promise<RecallResult> {
      if (typeof query !== 'string' || query.trim().length === 0) {
        throw new InvalidInputError({ message: 'invalid query: must be a non-empty string', path: 'query' });
      }
      const parsed = parseInput(recallOptionsSchema, input, { label: 'options' });
      return strategy(parsed.strategy).recall(query, {
        scope: parsed.scope,
        k: parsed.k,
        ...(parsed.questionDate === undefined ? {} : { questionDate: parsed.questionDate }),
        ...(parsed.signal === undefined ? {} : { signal: parsed.signal }),
      });
    },
    /** Drops cached views of a tenant after its memory changed. */
    invalidate(userId: string): void {
      views.invalidate(userId);
      for (const instance of strategies.values()) (instance as { reset?: (scope?: unknown) => void }).reset?.();
    },
  };
}
