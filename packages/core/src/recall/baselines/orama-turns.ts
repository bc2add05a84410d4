import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { ScopeFilter } from '../../model/scope.js';
import type { Unit } from '../../model/units.js';
import type { RecallOptions, RecallResult } from '../recall-types.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { defaultBaselineK, turnEvidence } from './bm25-turns.js';

/** Name of the Orama baseline. */
export const oramaTurnsName = 'orama-turns';

/** The Orama baseline; `reset()` drops the cached indexes (call it after writing more turns). */
export interface OramaTurnsStrategy extends RecallStrategy {
  /** Forgets the index of one scope, or of every scope when none is given. */
  reset(scope?: ScopeFilter): void;
}

/** Options of {@link createOramaTurnsStrategy}; the registered baseline uses none of them. */
export interface OramaTurnsOptions {
  /** Orama tokenizer configuration (e.g. `{ stemming: true, stopWords: [...] }`). @default Orama's defaults: no stemming, no stop words */
  tokenizer?: { stemming?: boolean; stopWords?: string[] | false };
}

interface ScopeIndex {
  db: AnyOrama;
  units: Map<string, Unit>;
  size: number;
}

const pageSize = 1000;

function scopeKey(scope: ScopeFilter): string {
  return JSON.stringify([scope.userId, scope.agentId ?? null, scope.sessionId ?? null]);
}

async function listTurns(context: RecallContext, scope: ScopeFilter): Promise<Unit[]> {
  const out: Unit[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await context.store.listUnits(scope, { kinds: ['turn'], limit: pageSize, ...(after === undefined ? {} : { after }) });
    out.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || last === undefined) return out;
    after = last.id;
  }
}

async function buildIndex(context: RecallContext, scope: ScopeFilter, options: OramaTurnsOptions): Promise<ScopeIndex> {
  const turns = await listTurns(context, scope);
  // Orama as it comes (English tokenizer without stemming or stop words, BM25, prefix matching):
  // what a user who picks the library up gets.
  const schema = { text: 'string' } as const;
  const db = options.tokenizer === undefined ? create({ schema }) : create({ schema, components: { tokenizer: options.tokenizer } });
  await insertMultiple(
    db,
    turns.map((unit) => ({ id: unit.id, text: unit.text })),
  );
  return { db, units: new Map(turns.map((unit) => [unit.id, unit])), size: turns.length };
}

/**
 * The off-the-shelf baseline: `@orama/orama` full-text search over the raw turn units. The index of a
 * scope is built on its first recall from `store.listUnits` and kept until {@link OramaTurnsStrategy.reset}.
 */
export function createOramaTurnsStrategy(context: RecallContext, strategyOptions: OramaTurnsOptions = {}): OramaTurnsStrategy {
  const indexes = new Map<string, Promise<ScopeIndex>>();
  return {
    name: oramaTurnsName,
    reset(scope?: ScopeFilter): void {
      if (scope === undefined) indexes.clear();
      else indexes.delete(scopeKey(scope));
    },
    async recall(query: string, options: RecallOptions): Promise<RecallResult> {
      options.signal?.throwIfAborted();
      const k = options.k ?? defaultBaselineK;
      const key = scopeKey(options.scope);
      let pending = indexes.get(key);
      const built = pending === undefined;
      if (pending === undefined) {
        pending = buildIndex(context, options.scope, strategyOptions);
        indexes.set(key, pending);
        pending.catch(() => indexes.delete(key));
      }
      const index = await pending;
      const results = await search(index.db, { term: query, properties: ['text'], limit: k });
      const evidence = [];
      for (const hit of results.hits) {
        const unit = index.units.get(String(hit.id));
        if (unit) evidence.push(turnEvidence(unit, hit.score, 'orama'));
      }
      return {
        strategy: oramaTurnsName,
        query,
        evidence,
        trace: [
          { step: 0, action: built ? 'build-index' : 'reuse-index', output: { turns: index.size } },
          { step: 1, action: 'full-text', input: { query, k }, output: { hits: evidence.length } },
        ],
      };
    },
  };
}
