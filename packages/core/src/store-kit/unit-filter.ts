import { intervalBounds, intervalsOverlap } from '../model/time.js';
import { scopeMatches, type ScopeFilter } from '../model/scope.js';
import type { Unit } from '../model/units.js';
import type { TimeField, TimeWindow, UnitFilter } from '../ports/memory-store.js';

const farPast = '0000-01-01';
const farFuture = '9999-12-31';

/** The intervals of a unit that a time window over `field` is tested against. */
export function unitIntervals(unit: Unit, field: TimeField = 'any'): Array<{ start: string; end: string }> {
  const { eventTime, mentionTimes, session } = unit.context;
  const out: Array<{ start: string; end: string }> = [];
  if ((field === 'event' || field === 'any') && eventTime) out.push(eventTime);
  if (field === 'any') out.push(...mentionTimes);
  if ((field === 'session' || field === 'any') && session) out.push(session);
  return out;
}

/** True when one of the unit's intervals on `window.field` overlaps the window. */
export function unitInWindow(unit: Unit, window: TimeWindow): boolean {
  const range = { start: window.start ?? farPast, end: window.end ?? farFuture };
  return unitIntervals(unit, window.field ?? 'any').some((interval) => intervalsOverlap(interval, range));
}

/** Sort key of a unit on the timeline: the earliest start among its intervals on `field`. */
export function unitTimeKey(unit: Unit, field: TimeField = 'any'): number {
  let best = Number.POSITIVE_INFINITY;
  for (const interval of unitIntervals(unit, field)) best = Math.min(best, intervalBounds(interval)[0]);
  return best;
}

/** True when the unit is inside the scope and passes the kind and time filters. */
export function unitMatches(scope: ScopeFilter, filter: UnitFilter, unit: Unit): boolean {
  if (!scopeMatches(scope, unit.scope)) return false;
  if (filter.kinds && filter.kinds.length > 0 && !filter.kinds.includes(unit.kind)) return false;
  if (filter.time && !unitInWindow(unit, filter.time)) return false;
  return true;
}

/** Cosine similarity of two equal-length vectors (0 when either is all zeros). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Orders hits by score descending, then id ascending (the tie-break every store uses). */
export function compareHits(a: { score: number; unit: { id: string } }, b: { score: number; unit: { id: string } }): number {
  return b.score - a.score || (a.unit.id < b.unit.id ? -1 : a.unit.id > b.unit.id ? 1 : 0);
}
