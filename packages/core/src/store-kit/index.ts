export { prepareBatch, type BatchLookup } from './prepare-batch.js';
export { parseScope } from './parse-write-batch.js';
export { unitMatches, unitInWindow, unitIntervals, unitTimeKey, cosineSimilarity, compareHits } from './unit-filter.js';
export { checkCount, checkQueryVector } from './query-checks.js';
