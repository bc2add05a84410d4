import type { UnitInput } from '../../model/units.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import { createActiveStrategy } from '../active/active-reconstruction.js';
import type { RecallContext, RecallStrategy } from '../strategy.js';
import { buildSeparationTree } from './separation-tree.js';

/** Outcome of the separation task at one depth. */
export interface SeparationOutcome {
  /** Tree depth d. */
  depth: number;
  /** Trees tried. */
  trials: number;
  /** Retrieval budget T = d + 1. */
  budget: number;
  /** Share of trees where active reconstruction ranked the target leaf first among leaves. */
  activeAccuracy: number;
  /** Mean retrieval rounds active reconstruction used. */
  activeRounds: number;
  /** Share of trees where each passive strategy had the target leaf in its top T. */
  passiveAccuracy: Record<string, number>;
  /** The chance level T / 2^d. */
  chance: number;
}

/**
 * Runs MRAgent's separation task: `trials` trees of depth `depth`, each in its own tenant; active
 * reconstruction with T = d + 1 rounds against passive strategies returning T items.
 */
export async function runSeparationTask(options: {
  depth: number;
  trials: number;
  createStore: () => Promise<MemoryStore>;
  embed: RecallContext['embed'];
  passive: Record<string, (context: RecallContext) => RecallStrategy>;
}): Promise<SeparationOutcome> {
  const { depth, trials } = options;
  const budget = depth + 1;
  let activeHits = 0;
  let rounds = 0;
  const passiveHits: Record<string, number> = Object.fromEntries(Object.keys(options.passive).map((name) => [name, 0]));
  for (let trial = 0; trial < trials; trial++) {
    const scope = { userId: `separation-${depth}-${trial}` };
    const tree = buildSeparationTree({ depth, seed: 1000 * depth + trial, scope });
    const store = await options.createStore();
    try {
      const vectors = await options.embed((tree.batch.units ?? []).map((unit) => unit.text));
      await store.write({ ...tree.batch, units: (tree.batch.units ?? []).map((unit, index) => ({ ...unit, vector: vectors[index] as Float32Array }) as UnitInput) });
      const context: RecallContext = { store, embed: options.embed };
      const active = createActiveStrategy(context, { turns: budget, expansionsPerTurn: 4 });
      const result = await active.recall(tree.query, { scope, k: 2 ** (depth + 1) });
      rounds += result.trace.filter((step) => step.action === 'select' && (step.output?.actions as unknown[] | undefined)?.length).length;
      const leaves = new Set(tree.leafIds);
      const firstLeaf = result.evidence.find((item) => leaves.has(item.unit.id));
      if (firstLeaf?.unit.id === tree.targetLeafId) activeHits++;
      for (const [name, factory] of Object.entries(options.passive)) {
        const passive = await factory(context).recall(tree.query, { scope, k: budget });
        if (passive.evidence.slice(0, budget).some((item) => item.unit.id === tree.targetLeafId)) passiveHits[name] = (passiveHits[name] ?? 0) + 1;
      }
    } finally {
      await store.dispose();
    }
  }
  return {
    depth,
    trials,
    budget,
    activeAccuracy: activeHits / trials,
    activeRounds: rounds / trials,
    passiveAccuracy: Object.fromEntries(Object.entries(passiveHits).map(([name, hits]) => [name, hits / trials])),
    chance: budget / 2 ** depth,
  };
}
