// Deterministic ingest batches shared by the child processes and the tests that check them.

/** Tenant of every fixture record. */
export const tenant = 'crash-tenant';
/** Vector dimension of the fixture units. */
export const dims = 16;

/** Ids of batch `index`: its units, its cue and its tag. */
export function batchIds(index, unitsPerBatch) {
  return {
    units: Array.from({ length: unitsPerBatch }, (_, unit) => `b${String(index).padStart(4, '0')}-u${String(unit).padStart(3, '0')}`),
    cue: `b${String(index).padStart(4, '0')}-cue`,
    tag: `b${String(index).padStart(4, '0')}-tag`,
  };
}

/** A vector that identifies one unit (cosine 1 only with itself). */
export function unitVector(index, unit) {
  const vector = new Float32Array(dims);
  let state = (index * 7919 + unit * 104729 + 1) >>> 0;
  for (let d = 0; d < dims; d++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    vector[d] = state / 4294967296 - 0.5;
  }
  return vector;
}

/** Batch `index`: units with text, vectors and a date, one cue, one tag, a relation per unit. */
export function ingestBatch(index, unitsPerBatch) {
  const ids = batchIds(index, unitsPerBatch);
  const scope = { userId: tenant };
  const day = `2023-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 27) + 1).padStart(2, '0')}`;
  return {
    units: ids.units.map((id, unit) => ({
      id,
      kind: 'episode',
      scope,
      text: `memory marker${index} number${unit} caroline painted a sunset by the lake`,
      vector: unitVector(index, unit),
      context: { eventTime: { start: day, end: day, granularity: 'day' } },
    })),
    cues: [{ id: ids.cue, scope, name: `marker ${index}` }],
    tags: [{ id: ids.tag, scope, label: 'painted' }],
    relations: ids.units.map((contentId) => ({ scope, cueId: ids.cue, tagId: ids.tag, contentId })),
  };
}
