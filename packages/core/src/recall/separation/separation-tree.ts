import type { WriteBatchInput } from '../../model/batch.js';
import type { Scope } from '../../model/scope.js';
import type { Turn } from '../../model/units.js';

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same tree. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The memory of one separation-task instance and what a correct recall must find. */
export interface SeparationTree {
  /** Everything to write, in one batch. */
  batch: WriteBatchInput;
  /** The question asked of it. */
  query: string;
  /** Id of the target leaf (the only leaf the path leads to). */
  targetLeafId: string;
  /** Ids of every leaf. */
  leafIds: string[];
  /** Ids of the path nodes, root first, target leaf last (d + 1 of them). */
  pathIds: string[];
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'qu', 'fe'];

function code(random: () => number): string {
  let out = '';
  for (let index = 0; index < 3; index++) out += syllables[Math.floor(random() * syllables.length)];
  return `${out}${Math.floor(random() * 900 + 100)}`;
}

/**
 * The separation task of MRAgent: a complete binary tree of depth `d` stored as memory. Every
 * internal node's payload names one child to continue at — on the path, the next path node — and
 * only the leaf at the end of the path is the target; every leaf carries a label of the same form,
 * so nothing but following the path tells the target apart. A passive top-T lookup finds it with
 * probability about T / 2^d; an active navigator that follows the named branch needs d + 1 rounds.
 */
export function buildSeparationTree(options: { depth: number; seed: number; scope: Scope }): SeparationTree {
  const { depth, scope } = options;
  const random = seededRandom(options.seed);
  const used = new Set<string>();
  const fresh = () => {
    let value = code(random);
    while (used.has(value)) value = code(random);
    used.add(value);
    return value;
  };
  // Level-order codes: node i has children 2i+1, 2i+2.
  const count = 2 ** (depth + 1) - 1;
  const codes = Array.from({ length: count }, (_, index) => (index === 0 ? 'root' : fresh()));
  const firstLeaf = 2 ** depth - 1;
  const targetIndex = firstLeaf + Math.floor(random() * 2 ** depth);
  const onPath = new Set<number>();
  for (let index = targetIndex; ; index = Math.floor((index - 1) / 2)) {
    onPath.add(index);
    if (index === 0) break;
  }
  const tag = { id: `sep-tag-branch-${options.seed}`, scope, label: 'branch' };
  const units: Turn[] = [];
  const cues = [];
  const relations = [];
  for (let index = 0; index < count; index++) {
    const name = codes[index] as string;
    let text: string;
    if (index >= firstLeaf) {
      text = `Marker ${name}: the trail ends here, with label ${fresh().toUpperCase()}.`;
    } else {
      const left = 2 * index + 1;
      const right = left + 1;
      const next = onPath.has(left) ? left : onPath.has(right) ? right : random() < 0.5 ? left : right;
      text = `Marker ${name}: the trail continues at marker ${codes[next]}.`;
    }
    const id = `sep-${options.seed}-${index}`;
    const sessionId = `tree-${name}`;
    units.push({
      id,
      kind: 'turn',
      scope: { ...scope, sessionId },
      text,
      speaker: 'map',
      index: 0,
      context: { mentionTimes: [], participants: [], entities: [name], session: { id: sessionId, start: '2024-01-01', end: '2024-01-01' } },
      sources: [{ sessionId, turnId: name }],
    });
    cues.push({ id: `sep-cue-${options.seed}-${index}`, scope, name, kind: 'thing' as const, aliases: [] });
    relations.push({ scope, cueId: `sep-cue-${options.seed}-${index}`, tagId: tag.id, contentId: id });
  }
  const pathIds = [...onPath].sort((a, b) => a - b).map((index) => `sep-${options.seed}-${index}`);
  return {
    batch: { units, cues, tags: [tag], relations },
    query: 'Start at the root marker and follow the trail: which label is at its end?',
    targetLeafId: `sep-${options.seed}-${targetIndex}`,
    leafIds: Array.from({ length: 2 ** depth }, (_, offset) => `sep-${options.seed}-${firstLeaf + offset}`),
    pathIds,
  };
}
