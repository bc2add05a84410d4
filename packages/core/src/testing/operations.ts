import fc from 'fast-check';
import { expect } from 'vitest';
import { InvalidInputError } from '../errors/engram-error.js';
import type { ScopeFilter } from '../model/scope.js';
import type { WriteBatchInput } from '../model/batch.js';
import type { UnitInput } from '../model/units.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ReferenceStore } from './reference-store.js';
import { batchArbitrary, cueId, scopeFilterArbitrary, smallBatchSizes, tagId, universeUnitIds, type BatchSizes, type Universe } from './generators.js';
import { expectQuery, queryArbitrary, type AnswerOptions, type StoreQuery } from './store-queries.js';

/** What a bad batch gets wrong. */
export type BatchFault = 'dangling-content' | 'cross-tenant-cue' | 'empty-text' | 'foreign-id' | 'bad-date';

/** One step of a generated scenario. */
export type Operation =
  | { type: 'write'; batch: WriteBatchInput }
  | { type: 'bad-write'; batch: WriteBatchInput; fault: BatchFault; position: number }
  | {
      type: 'delete';
      /** Pool id to delete, unless `pick` chooses an existing unit. */
      id: string;
      /** When set, deletes the `pick % n`-th existing unit (in id order) instead. */
      pick?: number;
      /** Who deletes: the owner tenant, the owner narrowed to an agent or a session, or `tenant`. */
      mode: 'owner' | 'agent' | 'session' | 'other';
      tenant: string;
      agentId: string;
      sessionId: string;
    }
  | { type: 'forget'; scope: ScopeFilter }
  | { type: 'query'; query: StoreQuery };

/** A random scenario step: writes, bad writes, deletes, forgets and queries of every method. */
export function operationArbitrary(universe: Universe, sizes: BatchSizes = smallBatchSizes): fc.Arbitrary<Operation> {
  return fc.oneof(
    { weight: 5, arbitrary: batchArbitrary(universe, sizes).map((batch): Operation => ({ type: 'write', batch })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          batch: batchArbitrary(universe, sizes),
          fault: fc.constantFrom<BatchFault>('dangling-content', 'cross-tenant-cue', 'empty-text', 'foreign-id', 'bad-date'),
          position: fc.nat(10),
        })
        .map((operation): Operation => ({ type: 'bad-write', ...operation })),
    },
    { weight: 2, arbitrary: deleteArbitrary(universe) },
    { weight: 1, arbitrary: narrowScopeArbitrary(universe).map((scope): Operation => ({ type: 'forget', scope })) },
    { weight: 6, arbitrary: queryArbitrary(universe).map((query): Operation => ({ type: 'query', query })) },
  );
}

/** A tenant narrowed to an agent or a session more often than not (the interesting `forget`s). */
function narrowScopeArbitrary(universe: Universe): fc.Arbitrary<ScopeFilter> {
  return fc
    .record({ userId: fc.constantFrom(...universe.tenants), narrow: fc.constantFrom('tenant', 'agent', 'agent', 'session'), agentId: fc.constantFrom(...universe.agents), sessionId: fc.constantFrom(...universe.sessions) })
    .map(({ userId, narrow, agentId, sessionId }) => (narrow === 'agent' ? { userId, agentId } : narrow === 'session' ? { userId, sessionId } : { userId }));
}

/** A delete, mostly of an existing unit by its own tenant, sometimes narrowed, sometimes by another tenant. */
function deleteArbitrary(universe: Universe): fc.Arbitrary<Operation> {
  return fc.record({
    type: fc.constant('delete' as const),
    id: fc.constantFrom(...universeUnitIds(universe)),
    pick: fc.option(fc.nat(), { nil: undefined, freq: 4 }),
    mode: fc.constantFrom('owner' as const, 'owner' as const, 'owner' as const, 'agent' as const, 'session' as const, 'other' as const),
    tenant: fc.constantFrom(...universe.tenants),
    agentId: fc.constantFrom(...universe.agents),
    sessionId: fc.constantFrom(...universe.sessions),
  });
}

/** The unit id and scope a delete operation targets, given what the reference holds. */
export function deleteTarget(operation: Extract<Operation, { type: 'delete' }>, reference: ReferenceStore): { scope: ScopeFilter; id: string } {
  const existing = [...reference.units.keys()].sort();
  const id = operation.pick !== undefined && existing.length > 0 ? (existing[operation.pick % existing.length] as string) : operation.id;
  const owner = reference.unit(id)?.scope.userId ?? operation.tenant;
  const userId = operation.mode === 'other' ? operation.tenant : owner;
  const scope = operation.mode === 'agent' ? { userId, agentId: operation.agentId } : operation.mode === 'session' ? { userId, sessionId: operation.sessionId } : { userId };
  return { scope, id };
}

type Owned = { id: string; scope: { userId: string } };

/** Owner of an id in the batch or, failing that, in the reference. */
function ownerOf(reference: ReferenceStore, records: ReadonlyArray<Owned>, kind: 'unit' | 'cue' | 'tag', id: string): string | undefined {
  return reference.lookup.ownerOf(kind, id) ?? records.find((record) => record.id === id)?.scope.userId;
}

/** The batch without relations whose cue, tag or content exists neither in it nor in the reference. */
export function resolveBatch(batch: WriteBatchInput, reference: ReferenceStore): WriteBatchInput {
  const relations = (batch.relations ?? []).filter(
    (relation) =>
      ownerOf(reference, batch.cues ?? [], 'cue', relation.cueId) === relation.scope.userId &&
      ownerOf(reference, batch.tags ?? [], 'tag', relation.tagId) === relation.scope.userId &&
      ownerOf(reference, batch.units ?? [], 'unit', relation.contentId) === relation.scope.userId,
  );
  return { ...batch, relations };
}

const insertAt = <T>(items: ReadonlyArray<T>, position: number, item: T): T[] => {
  const at = position % (items.length + 1);
  return [...items.slice(0, at), item, ...items.slice(at)];
};

/** A valid batch with exactly one fault injected at `position`. */
export function injectFault(batch: WriteBatchInput, fault: BatchFault, position: number, reference: ReferenceStore, universe: Universe): WriteBatchInput {
  const valid = resolveBatch(batch, reference);
  const [tenant = 'ua', other = 'ub'] = universe.tenants;
  const cues = valid.cues ?? [];
  const tags = valid.tags ?? [];
  const units = valid.units ?? [];
  // Every faulty relation uses a cue and a tag the batch itself supplies, so the only error is the fault.
  const ownCue = { id: cueId(tenant, 0), scope: { userId: tenant }, name: 'fault cue' };
  const ownTag = { id: tagId(tenant, 0), scope: { userId: tenant }, label: 'fault tag' };
  const ownUnit: UnitInput = { id: `${tenant}-e0`, kind: 'episode', scope: { userId: tenant }, text: 'fault unit' };
  const withOwn = { ...valid, cues: [...cues, ownCue], tags: [...tags, ownTag], units: [...units, ownUnit] };
  const relations = withOwn.relations ?? [];
  switch (fault) {
    case 'dangling-content':
      return { ...withOwn, relations: insertAt(relations, position, { scope: { userId: tenant }, cueId: ownCue.id, tagId: ownTag.id, contentId: `${tenant}-never-written` }) };
    case 'cross-tenant-cue': {
      const foreignCue = { id: cueId(other, 0), scope: { userId: other }, name: 'foreign cue' };
      const foreign = { ...withOwn, cues: [...withOwn.cues.filter((cue) => cue.id !== foreignCue.id), foreignCue] };
      return { ...foreign, relations: insertAt(relations, position, { scope: { userId: tenant }, cueId: foreignCue.id, tagId: ownTag.id, contentId: ownUnit.id }) };
    }
    case 'empty-text':
      return { ...withOwn, units: insertAt(withOwn.units, position, { ...ownUnit, id: `${tenant}-e1`, text: '' }) };
    case 'foreign-id':
      // The id is taken by the other tenant (in the store or, failing that, by this very batch).
      return { ...withOwn, units: insertAt([...withOwn.units, { ...ownUnit, id: `${other}-e0`, scope: { userId: other } }], position, { ...ownUnit, id: `${other}-e0` }) };
    case 'bad-date':
      return {
        ...withOwn,
        units: insertAt(withOwn.units, position, { ...ownUnit, id: `${tenant}-e1`, context: { eventTime: { start: '2023-13-45', end: '2023-12-31', granularity: 'day' } } }),
      };
  }
}

/**
 * Writes `batch` to both. When the reference rejects it, the store must reject it too, with an
 * `InvalidInputError` naming the same path; when the reference accepts it, so must the store.
 */
export async function writeBoth(store: MemoryStore, reference: ReferenceStore, batch: WriteBatchInput): Promise<void> {
  let expected: InvalidInputError | undefined;
  try {
    reference.write(batch);
  } catch (error) {
    if (!InvalidInputError.isInstance(error)) throw error;
    expected = error;
  }
  let actual: unknown;
  try {
    await store.write(batch);
  } catch (error) {
    actual = error;
  }
  if (expected === undefined) {
    expect(actual, 'a valid batch is accepted').toBeUndefined();
    return;
  }
  expect(InvalidInputError.isInstance(actual), `a bad batch (${expected.path}) is rejected with an InvalidInputError, got ${String(actual)}`).toBe(true);
  expect((actual as InvalidInputError).path, 'the error names the first bad field').toBe(expected.path);
}

/** Applies one scenario step to the store and the reference, checking answers and outcomes. */
export async function applyOperation(store: MemoryStore, reference: ReferenceStore, operation: Operation, universe: Universe, options: AnswerOptions): Promise<void> {
  switch (operation.type) {
    case 'write':
      return writeBoth(store, reference, resolveBatch(operation.batch, reference));
    case 'bad-write':
      return writeBoth(store, reference, injectFault(operation.batch, operation.fault, operation.position, reference, universe));
    case 'delete': {
      const { scope, id } = deleteTarget(operation, reference);
      expect(await store.delete(scope, id), `delete(${JSON.stringify(scope)}, ${id})`).toBe(reference.delete(scope, id));
      return;
    }
    case 'forget':
      await store.forget(operation.scope);
      reference.forget(operation.scope);
      return;
    case 'query':
      return expectQuery(store, reference, operation.query, options);
  }
}
