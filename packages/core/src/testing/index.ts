export { runStoreConformance } from './store-conformance.js';
export { createHarness, standardUniverse, standardWorld, type ConformanceHarness, type StoreConformanceOptions } from './conformance-harness.js';
export { sameValue } from './same-value.js';
export { createReferenceMemoryStore, type ReferenceMemoryStoreOptions } from './reference-memory-store.js';
export { ReferenceStore, compareIds, compareRelations, rankScores } from './reference-store.js';
export { analyzeUnit, referenceBm25Statistics, referenceLexicalScores, type AnalyzedUnit } from './reference-bm25.js';
export { expectHits, type HitExpectation } from './compare-hits.js';
export {
  collectAnswers,
  coverageQueries,
  describeQuery,
  expectAnswer,
  expectEqual,
  expectQuery,
  expectStoreMatchesReference,
  expectWithinScope,
  probeTexts,
  probeVectors,
  queryArbitrary,
  referenceAnswer,
  runQuery,
  type AnswerOptions,
  type CoverageDepth,
  type StoreQuery,
} from './store-queries.js';
export { applyOperation, deleteTarget, injectFault, operationArbitrary, resolveBatch, writeBoth, type BatchFault, type Operation } from './operations.js';
export {
  batchArbitrary,
  compact,
  cueAliases,
  cueArbitrary,
  cueId,
  cueNameQueryArbitrary,
  cueNames,
  dayDate,
  defaultUniverse,
  intervalArbitrary,
  lexicalQueryArbitrary,
  relationArbitrary,
  sampleWorld,
  scopeArbitrary,
  scopeFilterArbitrary,
  smallBatchSizes,
  tagArbitrary,
  tagId,
  tagLabels,
  textArbitrary,
  unitArbitrary,
  unitId,
  universeCueIds,
  universeTagIds,
  universeUnitIds,
  vectorArbitrary,
  vocabulary,
  windowArbitrary,
  worldArbitrary,
  type BatchSizes,
  type Universe,
} from './generators.js';
export { createRandom, normalSample, randomVectors } from './random.js';
export { vectorUnits } from './conformance-search.js';
export { deletionFixture } from './conformance-mutation.js';
export { disjointBatches, everyCall } from './conformance-lifecycle.js';
