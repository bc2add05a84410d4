import type { SourceRef } from '../model/context.js';

/** One ranked evidence item reduced to what the metrics need. */
export interface RankedItem {
  /** Source turns of the item. */
  sources: ReadonlyArray<SourceRef>;
  /** Size of the item as rendered for the answerer, in tokens. */
  tokens: number;
}

/** Source turn ids of a ranking, in rank order, each kept at its first appearance. */
export function rankedTurns(items: ReadonlyArray<Pick<RankedItem, 'sources'>>): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const source of item.sources) seen.add(source.turnId);
  return [...seen];
}

/** Source session ids of a ranking, in rank order, each kept at its first appearance. */
export function rankedSessions(items: ReadonlyArray<Pick<RankedItem, 'sources'>>): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const source of item.sources) seen.add(source.sessionId);
  return [...seen];
}

/** Share of the distinct `gold` ids found among the first `k` entries of `ranked` (0 when there is no gold). */
export function recallAt(ranked: ReadonlyArray<string>, gold: ReadonlyArray<string>, k: number): number {
  const wanted = new Set(gold);
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const id of ranked.slice(0, k)) if (wanted.has(id)) found++;
  return found / wanted.size;
}

/** True when at least one gold id is among the first `k` entries. */
export function anyAt(ranked: ReadonlyArray<string>, gold: ReadonlyArray<string>, k: number): boolean {
  const wanted = new Set(gold);
  return ranked.slice(0, k).some((id) => wanted.has(id));
}

/** True when every gold id is among the first `k` entries (false when there is no gold). */
export function allAt(ranked: ReadonlyArray<string>, gold: ReadonlyArray<string>, k: number): boolean {
  const top = new Set(ranked.slice(0, k));
  const wanted = new Set(gold);
  if (wanted.size === 0) return false;
  for (const id of wanted) if (!top.has(id)) return false;
  return true;
}

/**
 * The items that fit a token budget: walking in rank order, tokens accumulate and the walk stops
 * before the first item that would exceed `budget` (that item and all after it are left out, even
 * if a later one would still fit — the context is a prefix of the ranking).
 */
export function itemsWithinBudget<T extends Pick<RankedItem, 'tokens'>>(items: ReadonlyArray<T>, budget: number): T[] {
  const out: T[] = [];
  let used = 0;
  for (const item of items) {
    if (used + item.tokens > budget) break;
    used += item.tokens;
    out.push(item);
  }
  return out;
}

/** Evidence-turn recall within a token budget (R@400tok for `budget` = 400). */
export function recallWithinTokens(items: ReadonlyArray<RankedItem>, gold: ReadonlyArray<string>, budget: number): number {
  const turns = rankedTurns(itemsWithinBudget(items, budget));
  return recallAt(turns, gold, turns.length);
}

/**
 * Tokens of the rendered context needed to reach the first `turns` distinct source turns: items are
 * summed in rank order and the item that reaches the count is included whole. When the ranking has
 * fewer distinct turns, the whole ranking is counted.
 */
export function contextTokensToTurns(items: ReadonlyArray<RankedItem>, turns: number): number {
  const seen = new Set<string>();
  let tokens = 0;
  for (const item of items) {
    if (seen.size >= turns) break;
    tokens += item.tokens;
    for (const source of item.sources) seen.add(source.turnId);
  }
  return tokens;
}

/** Nearest-rank percentile of `values` (`p` in 0..100); 0 for no values. */
export function percentile(values: ReadonlyArray<number>, p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}
