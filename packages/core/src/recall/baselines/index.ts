import type { RecallStrategyFactory } from '../strategy.js';
import { bm25TurnsName, createBm25TurnsStrategy } from './bm25-turns.js';
import { createOramaTurnsStrategy, oramaTurnsName } from './orama-turns.js';

export { createBm25TurnsStrategy, bm25TurnsName, turnEvidence } from './bm25-turns.js';
export { createOramaTurnsStrategy, oramaTurnsName, type OramaTurnsStrategy, type OramaTurnsOptions } from './orama-turns.js';

/** The two passive baselines over raw turns, by name. */
export const baselineStrategies: Record<'bm25-turns' | 'orama-turns', RecallStrategyFactory> = {
  [bm25TurnsName]: createBm25TurnsStrategy,
  [oramaTurnsName]: (context) => createOramaTurnsStrategy(context),
};
