import { createActiveStrategy } from './active/active-reconstruction.js';
import { createGraphStrategy } from './passive/graph.js';
import { createSimilarityStrategy } from './passive/similarity.js';
import { createRamemStrategy } from './ramem/ramem-strategy.js';
import type { RecallStrategyFactory } from './strategy.js';

/** The strategies over distilled memory, by name (the raw-turn baselines live in `baselines/`). */
export const recallStrategies: Record<'similarity' | 'graph' | 'ramem' | 'active', RecallStrategyFactory> = {
  similarity: createSimilarityStrategy,
  graph: createGraphStrategy,
  ramem: createRamemStrategy,
  active: createActiveStrategy,
};
