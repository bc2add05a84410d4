// MRAgent's separation task as a benchmark: for each depth d, `trials` complete binary trees of
// depth d are stored as memory (each path node's payload names the next branch; the label is only
// at the target leaf). Active reconstruction gets T = d + 1 rounds; the passive strategies return
// T items. Prints, per depth, active's accuracy and rounds against each passive strategy's accuracy
// and the chance level T / 2^d. `node dist/bench/separation-bench.js [--depths 3,4,5,6,7,8]
// [--trials 20] [--json]` (or `pnpm -s run bench:separation` from the repository root).
import { parseArgs } from 'node:util';
import { createHashedEmbedder } from '../embed/index.js';
import { createGraphStrategy } from '../recall/passive/graph.js';
import { createSimilarityStrategy } from '../recall/passive/similarity.js';
import { runSeparationTask, type SeparationOutcome } from '../recall/separation/run-separation.js';
import { createReferenceMemoryStore } from '../testing/reference-memory-store.js';

const { values } = parseArgs({
  options: {
    depths: { type: 'string', default: '3,4,5,6,7,8' },
    trials: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});

function positiveIntegers(text: string, flag: string, largest: number): number[] {
  const numbers = text.split(',').map((part) => Number(part.trim()));
  if (numbers.length === 0 || numbers.some((value) => !Number.isInteger(value) || value < 1 || value > largest)) {
    process.stderr.write(`bench:separation: --${flag} must be whole numbers from 1 to ${largest}, got "${text}"\n`);
    process.exit(2);
  }
  return numbers;
}

// A tree of depth 12 holds 8,191 nodes; deeper ones only make the run long.
const depths = positiveIntegers(values.depths, 'depths', 12);
const [trials] = positiveIntegers(values.trials, 'trials', 1000);
const embedder = createHashedEmbedder();
const embed = (texts: string[]) => embedder.embed(texts);

const outcomes: SeparationOutcome[] = [];
for (const depth of depths) {
  const started = performance.now();
  const outcome = await runSeparationTask({
    depth,
    trials: trials as number,
    createStore: async () => createReferenceMemoryStore(),
    embed,
    passive: { similarity: createSimilarityStrategy, graph: createGraphStrategy },
  });
  outcomes.push(outcome);
  process.stderr.write(`[bench:separation] depth ${depth}: ${trials} trees in ${Math.round(performance.now() - started)} ms\n`);
}

const round = (value: number) => Number(value.toFixed(3));
if (values.json) {
  const rows = outcomes.map((outcome) => ({
    depth: outcome.depth,
    trials: outcome.trials,
    budget: outcome.budget,
    activeAccuracy: round(outcome.activeAccuracy),
    activeRounds: round(outcome.activeRounds),
    passiveAccuracy: Object.fromEntries(Object.entries(outcome.passiveAccuracy).map(([name, value]) => [name, round(value)])),
    chance: round(outcome.chance),
  }));
  process.stdout.write(`${JSON.stringify({ benchmark: 'separation', depths: rows })}\n`);
} else {
  const passiveNames = Object.keys(outcomes[0]?.passiveAccuracy ?? {});
  const header = ['depth', 'T', 'active', 'rounds', ...passiveNames, 'chance T/2^d'];
  const lines = outcomes.map((outcome) => [
    String(outcome.depth),
    String(outcome.budget),
    outcome.activeAccuracy.toFixed(3),
    outcome.activeRounds.toFixed(2),
    ...passiveNames.map((name) => (outcome.passiveAccuracy[name] ?? 0).toFixed(3)),
    outcome.chance.toFixed(3),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] as string).length)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] as number)).join('  ');
  process.stdout.write(`separation task (MRAgent), ${trials} trees per depth; accuracy = target leaf found within the budget T = d + 1\n`);
  process.stdout.write(`${format(header)}\n${lines.map(format).join('\n')}\n`);
}
