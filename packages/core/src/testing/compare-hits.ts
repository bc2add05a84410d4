import { expect } from 'vitest';
import type { Unit } from '../model/units.js';
import type { ScoredUnit } from '../ports/memory-store.js';
import { compareHits } from '../store-kit/unit-filter.js';
import { rankScores } from './reference-store.js';
import { sameValue } from './same-value.js';

/** How a store's hits are held against the brute-force scores. */
export interface HitExpectation {
  /** Message prefix naming the query. */
  label: string;
  /** Requested `k`. */
  k: number;
  /** Score of every eligible unit (unit id → exact score). */
  eligible: ReadonlyMap<string, number>;
  /** The expected stored unit of an id. */
  unitOf: (id: string) => Unit | undefined;
  /** `true`: the hits must be the exact top-k (up to score ties); `false`: any correct subset. */
  exact: boolean;
  /** Largest accepted score difference, scaled by `max(1, |score|)`. */
  tolerance: number;
}

const close = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

/**
 * Checks hits against exact scores: every hit is an eligible unit with its true score and stored
 * value, hits are distinct, ordered by score then id, at most `k`; for an exact search the i-th
 * score equals the i-th best score (so ids may only differ among tied scores). Returns recall@k
 * counted up to ties: the share of the true top-k matched by hits scoring at least the k-th best.
 */
export function expectHits(actual: ReadonlyArray<ScoredUnit>, expectation: HitExpectation): number {
  const { label, k, eligible, tolerance } = expectation;
  expect(Array.isArray(actual), `${label}: returns an array`).toBe(true);
  expect(actual.length, `${label}: at most k hits`).toBeLessThanOrEqual(Math.max(0, k));
  const seen = new Set<string>();
  actual.forEach((hit, index) => {
    const id = hit.unit.id;
    if (seen.has(id)) expect.fail(`${label}: ${id} returned twice`);
    seen.add(id);
    const trueScore = eligible.get(id);
    if (trueScore === undefined) expect.fail(`${label}: ${id} is not eligible (other scope, filtered out, no vector or no matching term)`);
    if (!close(hit.score, trueScore, tolerance)) expect.fail(`${label}: score of ${id} is ${hit.score}, expected ${trueScore}`);
    const stored = expectation.unitOf(id);
    if (!sameValue(hit.unit, stored)) expect(hit.unit, `${label}: stored value of ${id}`).toEqual(stored);
    const previous = actual[index - 1];
    if (previous !== undefined && compareHits(previous, hit) >= 0) expect.fail(`${label}: hits ${previous.unit.id} and ${id} are not ordered by score, then id`);
  });
  const expected = rankScores(eligible, k);
  if (expectation.exact) {
    expect(actual.length, `${label}: number of hits`).toBe(expected.length);
    expected.forEach((best, index) => {
      const score = actual[index]?.score ?? Number.NaN;
      if (!close(score, best.score, tolerance)) expect.fail(`${label}: hit ${index} scores ${score}, the exact top-k has ${best.id} at ${best.score}`);
    });
  }
  const last = expected[expected.length - 1];
  if (last === undefined) return 1;
  const floor = last.score - tolerance * Math.max(1, Math.abs(last.score));
  const found = actual.filter((hit) => (eligible.get(hit.unit.id) ?? Number.NEGATIVE_INFINITY) >= floor).length;
  return Math.min(found, expected.length) / expected.length;
}
