import type { UnitInput } from '@engram/core';

/** A seeded generator (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const names = ['Caroline', 'Melanie', 'Jon', 'Gina', 'Audrey', 'Andrew', 'John', 'Maria', 'Tim', 'Evan', 'Sam', 'Joanna', 'Nate', 'Deborah', 'Jolene', 'Calvin', 'Dave', 'James', 'Priya', 'Yuki'];
const verbs = ['went', 'visited', 'painted', 'bought', 'cooked', 'adopted', 'started', 'finished', 'joined', 'watched', 'read', 'played', 'planned', 'booked', 'moved', 'fixed', 'learned', 'taught', 'lost', 'found', 'celebrated', 'ran', 'hiked', 'wrote', 'sold'];
const things = ['a puppy', 'the guitar', 'a pottery class', 'a marathon', 'the garden', 'a new job', 'a road trip', 'the concert', 'a birthday party', 'a painting', 'a novel', 'the piano', 'a camping trip', 'a cooking class', 'the tournament', 'a support group', 'an apartment', 'a yoga retreat', 'the museum', 'a hackathon'];
const places = ['at the lake', 'in Paris', 'near the beach', 'at the community center', 'in the park', 'downtown', 'at school', 'at the office', 'in the mountains', 'at the library', 'in Tokyo', 'at home', 'by the river', 'in Boston', 'at the cafe'];
const times = ['yesterday', 'last weekend', 'last August', 'this morning', 'two weeks ago', 'on Friday', 'last year', 'in the spring', 'after work', 'during the holidays'];
const fillers = ['and', 'because', 'so', 'but', 'really', 'finally', 'again', 'with friends', 'with the kids', 'for the first time'];
const feelings = ['happy', 'tired', 'excited', 'nervous', 'proud', 'relaxed', 'grateful', 'stressed', 'curious', 'inspired'];
const syllables = ['ka', 'ro', 'mi', 'len', 'tor', 'vi', 'sa', 'ne', 'lo', 'qu', 'bri', 'dan', 'el', 'fi', 'gor', 'ha', 'is', 'jun', 'ko', 'mar'];

/** Rare words (entity-like names) so the vocabulary has a long tail, as chat text does. */
const rareWords = Array.from({ length: 4000 }, (_, index) => {
  let word = '';
  let rest = index + 400;
  while (rest > 0) {
    word += syllables[rest % syllables.length];
    rest = Math.floor(rest / syllables.length);
  }
  return word;
});

/** Zipf-like pick: low ranks much more often. */
function zipf<T>(random: () => number, items: ReadonlyArray<T>, exponent = 1.1): T {
  const rank = Math.floor(Math.pow(random(), exponent * 2) * items.length);
  return items[Math.min(rank, items.length - 1)] as T;
}

/** A chat-like sentence (10–25 words): who did what, where, when, with a feeling and a rare entity. */
export function sentence(random: () => number): string {
  const parts = [
    zipf(random, names),
    zipf(random, verbs),
    zipf(random, things),
    zipf(random, places),
    zipf(random, times),
    zipf(random, fillers),
    'felt',
    zipf(random, feelings),
    'about',
    zipf(random, rareWords, 1.6),
  ];
  if (random() < 0.5) parts.push('with', zipf(random, names), 'and', zipf(random, rareWords, 1.6));
  return `${parts.join(' ')}.`;
}

/** A lexical query of 2–3 words drawn like the text. */
export function lexicalQuery(random: () => number): string {
  const pools = [names, verbs, things, places, feelings, rareWords] as const;
  const count = 2 + Math.floor(random() * 2);
  return Array.from({ length: count }, () => zipf(random, pools[Math.floor(random() * pools.length)] as ReadonlyArray<string>)).join(' ');
}

/** Cluster centres of the benchmark vectors (seeded). */
export function centres(count: number, dims: number): Float32Array {
  const random = seeded(7);
  return Float32Array.from({ length: count * dims }, () => normal(random));
}

/** Vector `index` (deterministic): a random centre plus noise, so nearest neighbours are meaningful. */
export function benchVector(index: number, dims: number, centreMatrix: Float32Array, out = new Float32Array(dims)): Float32Array {
  const random = seeded(1_000_003 + index * 7919);
  const clusterCount = centreMatrix.length / dims;
  const centre = Math.floor(random() * clusterCount) * dims;
  for (let d = 0; d < dims; d++) out[d] = (centreMatrix[centre + d] as number) + 0.6 * normal(random);
  return out;
}

/** Query vector `index`: a centre plus more noise (a new point near the data). */
export function queryVector(index: number, dims: number, centreMatrix: Float32Array): Float32Array {
  return benchVector(50_000_000 + index, dims, centreMatrix);
}

/** Id of unit `index`. */
export const benchUnitId = (index: number) => `u${String(index).padStart(8, '0')}`;

/** Units `[from, from + count)` of the benchmark (tenants round-robin). */
export function benchUnits(from: number, count: number, dims: number, centreMatrix: Float32Array, tenants: number): UnitInput[] {
  const units: UnitInput[] = [];
  for (let index = from; index < from + count; index++) {
    const random = seeded(index * 31 + 17);
    const day = 1 + Math.floor(random() * 365);
    const date = new Date(Date.UTC(2023, 0, day)).toISOString().slice(0, 10);
    const session = `s${Math.floor(index / 20)}`;
    units.push({
      id: benchUnitId(index),
      kind: index % 5 === 0 ? 'episode' : 'turn',
      ...(index % 5 === 0 ? {} : { speaker: names[index % names.length] as string, index: index % 20 }),
      scope: { userId: `user-${index % tenants}`, sessionId: session },
      text: sentence(random),
      vector: benchVector(index, dims, centreMatrix),
      context: { session: { id: session, start: `${date}T10:00:00Z`, end: `${date}T11:00:00Z` }, eventTime: { start: date, end: date, granularity: 'day' } },
    } as UnitInput);
  }
  return units;
}
