import fc from 'fast-check';
import { expect } from 'vitest';
import { scopeMatches, type ScopeFilter } from '../model/scope.js';
import { unitKinds, type UnitKind } from '../model/units.js';
import type { ListOptions, MemoryStore, ScoredUnit, TimeWindow, UnitFilter } from '../ports/memory-store.js';
import { expectHits } from './compare-hits.js';
import { compareIds, type ReferenceStore } from './reference-store.js';
import {
  cueId,
  cueNameQueryArbitrary,
  lexicalQueryArbitrary,
  scopeFilterArbitrary,
  tagId,
  universeCueIds,
  universeTagIds,
  universeUnitIds,
  windowArbitrary,
  type Universe,
} from './generators.js';
import { createRandom } from './random.js';
import { sameValue } from './same-value.js';

type Page = { limit?: number; after?: string };

/** One call of a query method of the store port, as data: run against a store or the reference. */
export type StoreQuery =
  | { method: 'getUnits' | 'getCues' | 'getTags'; scope: ScopeFilter; ids: string[] }
  | { method: 'findCues'; scope: ScopeFilter; names: string[] }
  | { method: 'relationsOfCues'; scope: ScopeFilter; cueIds: string[] }
  | { method: 'relationsOfPairs'; scope: ScopeFilter; pairs: Array<{ cueId: string; tagId: string }> }
  | { method: 'relationsOfContents'; scope: ScopeFilter; contentIds: string[] }
  | { method: 'episodesOfTopics'; scope: ScopeFilter; topicIds: string[] }
  | { method: 'timeline'; scope: ScopeFilter; window: TimeWindow; options?: { kinds?: UnitKind[]; limit?: number } }
  | { method: 'vectorSearch'; scope: ScopeFilter; vector: Float32Array; options: UnitFilter & { k: number } }
  | { method: 'lexicalSearch'; scope: ScopeFilter; query: string; options: UnitFilter & { k: number } }
  | { method: 'listUnits'; scope: ScopeFilter; options?: ListOptions }
  | { method: 'listCues' | 'listTags'; scope: ScopeFilter; options?: Page };

function argumentsOf(query: StoreQuery): unknown[] {
  switch (query.method) {
    case 'getUnits':
    case 'getCues':
    case 'getTags':
      return [query.scope, query.ids];
    case 'findCues':
      return [query.scope, query.names];
    case 'relationsOfCues':
      return [query.scope, query.cueIds];
    case 'relationsOfPairs':
      return [query.scope, query.pairs];
    case 'relationsOfContents':
      return [query.scope, query.contentIds];
    case 'episodesOfTopics':
      return [query.scope, query.topicIds];
    case 'timeline':
      return query.options === undefined ? [query.scope, query.window] : [query.scope, query.window, query.options];
    case 'vectorSearch':
      return [query.scope, query.vector, query.options];
    case 'lexicalSearch':
      return [query.scope, query.query, query.options];
    default:
      return query.options === undefined ? [query.scope] : [query.scope, query.options];
  }
}

/** Runs a query against a store. */
export function runQuery(store: MemoryStore, query: StoreQuery): Promise<unknown> {
  const method = store[query.method] as (...parameters: unknown[]) => Promise<unknown>;
  return method.apply(store, argumentsOf(query));
}

/** The reference answer of a query. */
export function referenceAnswer(reference: ReferenceStore, query: StoreQuery): unknown {
  const method = reference[query.method] as (...parameters: unknown[]) => unknown;
  return method.apply(reference, argumentsOf(query));
}

/** A short readable form of a query for failure messages. */
export function describeQuery(query: StoreQuery): string {
  const text = JSON.stringify(query, (_key, value: unknown) => (value instanceof Float32Array ? `<${Array.from(value).join(',')}>` : value));
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** How answers are compared. */
export interface AnswerOptions {
  /** Vector top-k must be exact (otherwise hits are only checked for correctness). */
  exactVector: boolean;
  /** Message prefix. */
  label?: string;
}

/** Every scoped record an answer holds, with an id for messages. */
function scopedRecords(answer: unknown, reference: ReferenceStore): Array<{ id: string; scope: ScopeFilter | undefined }> {
  if (!Array.isArray(answer)) return [];
  return answer.flatMap((item: unknown) => {
    if (item === undefined || item === null || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    if ('unit' in record) {
      const unit = record.unit as { id: string; scope: ScopeFilter };
      return [{ id: unit.id, scope: unit.scope }];
    }
    if ('topicId' in record && 'episodeId' in record) {
      return [record.topicId, record.episodeId].map((id) => ({ id: String(id), scope: reference.unit(String(id))?.scope }));
    }
    const id = String(record.id ?? `${String(record.cueId)}/${String(record.tagId)}/${String(record.contentId)}`);
    return [{ id, scope: record.scope as ScopeFilter | undefined }];
  });
}

/** Asserts every record in an answer falls inside the query's scope (topic/episode ids are looked up in the reference). */
export function expectWithinScope(query: StoreQuery, actual: unknown, reference: ReferenceStore, label = describeQuery(query)): void {
  expect(Array.isArray(actual), `${label}: answers an array`).toBe(true);
  for (const record of scopedRecords(actual, reference)) {
    if (record.scope === undefined || !scopeMatches(query.scope, record.scope)) expect.fail(`${label}: returned ${record.id}, outside the queried scope`);
  }
}

/** Asserts a store's answer to `query` equals the reference's (search scores within a tolerance). */
export function expectAnswer(query: StoreQuery, actual: unknown, reference: ReferenceStore, options: AnswerOptions): void {
  const label = `${options.label ?? ''}${describeQuery(query)}`;
  expectWithinScope(query, actual, reference, label);
  if (query.method === 'vectorSearch' || query.method === 'lexicalSearch') {
    const vector = query.method === 'vectorSearch';
    const eligible = vector
      ? reference.vectorScores(query.scope, query.vector, query.options)
      : reference.lexicalScores(query.scope, query.query, query.options);
    expectHits(actual as ScoredUnit[], {
      label,
      k: query.options.k,
      eligible,
      unitOf: (id) => reference.unit(id),
      exact: vector ? options.exactVector : true,
      tolerance: vector ? 1e-4 : 1e-6,
    });
    return;
  }
  if (query.method === 'findCues') {
    const cues = actual as Array<{ id: string }>;
    expect(new Set(cues.map((cue) => cue.id)).size, `${label}: no cue twice`).toBe(cues.length);
    expectEqual([...cues].sort((a, b) => compareIds(a.id, b.id)), referenceAnswer(reference, query), label);
    return;
  }
  expectEqual(actual, referenceAnswer(reference, query), label);
}

/** `expect(actual, label).toEqual(expected)`, with a fast path when they are equal. */
export function expectEqual(actual: unknown, expected: unknown, label: string): void {
  if (!sameValue(actual, expected)) expect(actual, label).toEqual(expected);
}

/** Runs `query` on the store and compares it with the reference. */
export async function expectQuery(store: MemoryStore, reference: ReferenceStore, query: StoreQuery, options: AnswerOptions): Promise<void> {
  expectAnswer(query, await runQuery(store, query), reference, options);
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
const kindsArbitrary = optional(fc.subarray([...unitKinds], { minLength: 1 }));
const filterArbitrary = fc.record({ kinds: kindsArbitrary, time: optional(windowArbitrary) });
const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

/** A random query of any method over the universe's ids. */
export function queryArbitrary(universe: Universe): fc.Arbitrary<StoreQuery> {
  const scope = scopeFilterArbitrary(universe);
  const ids = (pool: string[]) => fc.array(fc.constantFrom(...pool), { maxLength: 6 });
  const unitIds = universeUnitIds(universe);
  const index = fc.integer({ min: 0, max: universe.poolSize - 1 });
  const pair = fc.tuple(fc.constantFrom(...universe.tenants), index, index).map(([tenant, cue, tag]) => ({ cueId: cueId(tenant, cue), tagId: tagId(tenant, tag) }));
  const k = fc.integer({ min: 1, max: 12 });
  const page = fc.record({ limit: optional(fc.integer({ min: 1, max: 10 })), after: optional(fc.constantFrom(...unitIds, ...universeCueIds(universe))) }).map(withoutUndefined);
  const vector = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: universe.dims, maxLength: universe.dims }).map((values) => Float32Array.from(values));
  return fc.oneof(
    fc.record({ method: fc.constantFrom('getUnits' as const), scope, ids: ids(unitIds) }),
    fc.record({ method: fc.constantFrom('getCues' as const), scope, ids: ids(universeCueIds(universe)) }),
    fc.record({ method: fc.constantFrom('getTags' as const), scope, ids: ids(universeTagIds(universe)) }),
    fc.record({ method: fc.constant('findCues' as const), scope, names: fc.array(cueNameQueryArbitrary, { minLength: 1, maxLength: 3 }) }),
    fc.record({ method: fc.constant('relationsOfCues' as const), scope, cueIds: ids(universeCueIds(universe)) }),
    fc.record({ method: fc.constant('relationsOfPairs' as const), scope, pairs: fc.array(pair, { maxLength: 6 }) }),
    fc.record({ method: fc.constant('relationsOfContents' as const), scope, contentIds: ids(unitIds) }),
    fc.record({ method: fc.constant('episodesOfTopics' as const), scope, topicIds: ids(universeUnitIds(universe, ['topic', 'episode'])) }),
    fc.record({
      method: fc.constant('timeline' as const),
      scope,
      window: windowArbitrary,
      options: fc.record({ kinds: kindsArbitrary, limit: optional(fc.integer({ min: 1, max: 20 })) }).map(withoutUndefined),
    }),
    fc.record({ method: fc.constant('vectorSearch' as const), scope, vector, options: fc.tuple(filterArbitrary, k).map(([filter, count]) => withoutUndefined({ ...filter, k: count })) }),
    fc.record({ method: fc.constant('lexicalSearch' as const), scope, query: lexicalQueryArbitrary, options: fc.tuple(filterArbitrary, k).map(([filter, count]) => withoutUndefined({ ...filter, k: count })) }),
    fc.record({ method: fc.constant('listUnits' as const), scope, options: fc.tuple(filterArbitrary, page).map(([filter, paging]) => withoutUndefined({ ...filter, ...paging })) }),
    fc.record({ method: fc.constantFrom('listCues' as const, 'listTags' as const), scope, options: page }),
  );
}

/** Fixed query vectors of the universe's dimension (seeded). */
export function probeVectors(universe: Universe, count: number, seed = 7): Float32Array[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: universe.dims }, () => Math.round(random() * 8 - 4)));
}

/** Lexical probes used by the coverage queries. */
export const probeTexts = ['painting pottery', "Caroline's dogs", 'the zebra runs', 'video games tournament', 'CAFE naive'] as const;

/**
 * How many coverage queries to run: `full` (every probe), `lean` (fewer search probes and time
 * windows), `state` (what pins down the stored state: every id through every lookup and operator,
 * the lists, one timeline, one vector and one lexical probe).
 */
export type CoverageDepth = 'full' | 'lean' | 'state';

/**
 * A deterministic set of queries touching every method, every id of the universe and the main
 * filters, for each tenant, each tenant narrowed to an agent and each narrowed to a session.
 */
export function coverageQueries(universe: Universe, options: { depth?: CoverageDepth } = {}): StoreQuery[] {
  const depth = options.depth ?? 'full';
  const unitIds = universeUnitIds(universe);
  const cueIds = universeCueIds(universe);
  const allPairs = universe.tenants.flatMap((tenant) =>
    Array.from({ length: universe.poolSize * universe.poolSize }, (_, index) => ({
      cueId: cueId(tenant, Math.floor(index / universe.poolSize)),
      tagId: tagId(tenant, index % universe.poolSize),
    })),
  );
  const everyName = ['CAROLINE', 'Video  Game', ' nyc ', 'Café', 'ｃａｆｅ', 'The Big Apple', 'puppy', 'nobody'];
  const windows: TimeWindow[] = [{}, { start: '2023-04-01', end: '2023-06-30', field: 'event' }, { start: '2023-03-01', end: '2023-03-31', field: 'session' }, { end: '2023-02-15' }];
  const filters: Array<UnitFilter & { k: number }> = [
    { k: 1000 },
    { k: 4, kinds: ['fact', 'turn'], time: { start: '2023-03-01', end: '2023-08-31' } },
    { k: 5 },
    { k: 3, kinds: ['episode'] },
    { k: 6, time: { start: '2023-05-01', field: 'session' } },
  ];
  const counts = { full: [4, 5, 2, probeTexts.length], lean: [2, 2, 1, 2], state: [1, 1, 1, 1] }[depth];
  const [windowCount, filterCount, vectorCount, textCount] = counts as [number, number, number, number];
  const scopes = universe.tenants.flatMap((userId): ScopeFilter[] => [
    { userId },
    { userId, agentId: universe.agents[0] ?? 'agent' },
    { userId, sessionId: universe.sessions[0] ?? 'session' },
  ]);
  const searchFilters = filters.slice(0, filterCount);
  return scopes.flatMap((scope): StoreQuery[] => [
    { method: 'getUnits', scope, ids: unitIds },
    { method: 'getCues', scope, ids: cueIds },
    { method: 'getTags', scope, ids: universeTagIds(universe) },
    { method: 'findCues', scope, names: everyName },
    ...(depth === 'state' ? [] : [{ method: 'findCues', scope, names: ['  MELANIE '] } as StoreQuery]),
    { method: 'relationsOfCues', scope, cueIds },
    { method: 'relationsOfPairs', scope, pairs: allPairs },
    { method: 'relationsOfContents', scope, contentIds: unitIds },
    { method: 'episodesOfTopics', scope, topicIds: universeUnitIds(universe, ['topic']) },
    ...windows.slice(0, windowCount).map((window, index): StoreQuery => ({ method: 'timeline', scope, window, ...(index === 3 ? { options: { kinds: ['episode', 'fact'], limit: 5 } } : {}) })),
    { method: 'listUnits', scope, options: { limit: 1000 } },
    ...(depth === 'state'
      ? []
      : ([
          { method: 'listUnits', scope, options: { limit: 1000, kinds: ['episode', 'topic'] } },
          { method: 'listUnits', scope, options: { limit: 1000, time: { start: '2023-06-01', field: 'any' } } },
          { method: 'listUnits', scope, options: { limit: 3, after: `${scope.userId}-e3` } },
        ] as StoreQuery[])),
    { method: 'listCues', scope, options: { limit: 1000 } },
    { method: 'listTags', scope, options: { limit: 1000 } },
    ...probeVectors(universe, vectorCount).flatMap((vector) => searchFilters.map((filter): StoreQuery => ({ method: 'vectorSearch', scope, vector, options: filter }))),
    ...probeTexts.slice(0, textCount).flatMap((query) => searchFilters.map((filter): StoreQuery => ({ method: 'lexicalSearch', scope, query, options: filter }))),
  ]);
}

/** Every coverage query answered by the store as the reference answers it. */
export async function expectStoreMatchesReference(
  store: MemoryStore,
  reference: ReferenceStore,
  universe: Universe,
  options: AnswerOptions & { depth?: CoverageDepth },
): Promise<void> {
  for (const query of coverageQueries(universe, options)) await expectQuery(store, reference, query, options);
}

/** Answers to the coverage queries, for comparing a store with itself (idempotence, reopen). */
export async function collectAnswers(store: MemoryStore, universe: Universe, depth: CoverageDepth = 'full', options: { skipVector?: boolean } = {}): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const query of coverageQueries(universe, { depth })) {
    // An approximate index may legitimately answer differently after unrelated removals; its quality is the recall test's job.
    if (options.skipVector && query.method === 'vectorSearch') continue;
    const answer = await runQuery(store, query);
    answers.push(query.method === 'findCues' ? [...(answer as Array<{ id: string }>)].sort((a, b) => compareIds(a.id, b.id)) : answer);
  }
  return answers;
}
