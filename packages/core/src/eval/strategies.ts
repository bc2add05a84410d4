import { baselineStrategies } from '../recall/baselines/index.js';
import { recallStrategies } from '../recall/registry.js';
import type { RecallStrategyFactory } from '../recall/strategy.js';

/**
 * Every strategy the eval can score, by name: the raw-turn baselines and the strategies over
 * distilled memory.
 */
export const evalStrategies: Record<string, RecallStrategyFactory> = {
  ...baselineStrategies,
  ...recallStrategies,
};

/**
 * The strategies named by `spec` (`bm25-turns`, `bm25-turns,orama-turns` or `all`), in the order
 * given, from `registry`. Throws an `Error` naming the unknown names and the known ones.
 */
export function selectStrategies(
  spec: string,
  registry: Readonly<Record<string, RecallStrategyFactory>> = evalStrategies,
): Record<string, RecallStrategyFactory> {
  const names = spec.trim() === 'all' ? Object.keys(registry) : spec.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  if (names.length === 0) throw new Error(`no strategy given; known: ${Object.keys(registry).join(', ')}`);
  const unknown = names.filter((name) => !Object.hasOwn(registry, name));
  if (unknown.length > 0) {
    throw new Error(`unknown strateg${unknown.length === 1 ? 'y' : 'ies'} ${unknown.join(', ')}; known: ${Object.keys(registry).join(', ')}`);
  }
  const selected: Record<string, RecallStrategyFactory> = {};
  for (const name of names) selected[name] = registry[name] as RecallStrategyFactory;
  return selected;
}
