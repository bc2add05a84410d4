import type { Unit } from '../../model/units.js';

/** Reciprocal-rank fusion constant (Cormack et al.). */
export const rrfConstant = 60;

/**
 * Weighted reciprocal-rank fusion of ranked lists: score = Σ w / (c + rank). Robust to the lists'
 * score scales being incomparable (BM25 vs cosine); the weight says how much a list is trusted.
 * Ties keep the order of first appearance.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<{ name: string; units: ReadonlyArray<Unit>; weight?: number }>): Array<{ unit: Unit; score: number; from: string[] }> {
  const fused = new Map<string, { unit: Unit; score: number; from: string[]; first: number }>();
  let order = 0;
  for (const list of lists) {
    list.units.forEach((unit, rank) => {
      const entry = fused.get(unit.id) ?? { unit, score: 0, from: [], first: order++ };
      entry.score += (list.weight ?? 1) / (rrfConstant + rank + 1);
      entry.from.push(`${list.name}#${rank + 1}`);
      fused.set(unit.id, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first).map(({ unit, score, from }) => ({ unit, score, from }));
}
