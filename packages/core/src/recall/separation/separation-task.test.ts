import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../embed/index.js';
import { createReferenceMemoryStore } from '../../testing/reference-memory-store.js';
import { createGraphStrategy } from '../passive/graph.js';
import { createSimilarityStrategy } from '../passive/similarity.js';
import { buildSeparationTree } from './separation-tree.js';
import { runSeparationTask } from './run-separation.js';

const embedder = createHashedEmbedder();
const embed = (texts: string[]) => embedder.embed(texts);

describe('separation task (MRAgent)', () => {
  it('builds a tree whose path names each next branch', () => {
    const tree = buildSeparationTree({ depth: 4, seed: 7, scope: { userId: 'u' } });
    expect(tree.leafIds).toHaveLength(16);
    expect(tree.pathIds).toHaveLength(5);
    expect(tree.pathIds[4]).toBe(tree.targetLeafId);
  });

  for (const depth of [3, 4, 5, 6]) {
    it(`depth ${depth}: active reaches the leaf in d+1 rounds; passive stays near T/2^d`, async () => {
      const trials = 12;
      const outcome = await runSeparationTask({
        depth,
        trials,
        createStore: async () => createReferenceMemoryStore(),
        embed,
        passive: { similarity: createSimilarityStrategy, graph: createGraphStrategy },
      });
      console.log(`separation d=${depth} T=${outcome.budget}: active ${outcome.activeAccuracy} in ${outcome.activeRounds} rounds; passive ${JSON.stringify(outcome.passiveAccuracy)}; chance ${outcome.chance.toFixed(3)}`);
      expect(outcome.activeAccuracy).toBe(1);
      expect(outcome.activeRounds).toBeLessThanOrEqual(depth + 1);
      for (const accuracy of Object.values(outcome.passiveAccuracy)) {
        // "About T / 2^d": allow sampling noise over the trials, never near-perfect.
        expect(accuracy).toBeLessThanOrEqual(Math.min(1, outcome.chance + 0.35));
      }
    });
  }
});
