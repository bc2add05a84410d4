import {
  checkCount,
  checkQueryVector,
  InvalidInputError,
  StoreError,
  memoryStoreSpecificationVersion,
  parseInput,
  parseScope,
  prepareBatch,
  scopeFilterSchema,
  scopeMatches,
  unitMatches,
  type Cue,
  type ListOptions,
  type MemoryStore,
  type Relation,
  type ScopeFilter,
  type ScoredUnit,
  type StoreCapabilities,
  type Tag,
  type TimeWindow,
  type Unit,
  type UnitFilter,
  type UnitKind,
  type WriteBatchInput,
} from '@engram/core';
import { cloneRecord } from './clone-record.js';
import { compareIds, type SortedIds } from './sorted-ids.js';
import { TenantState, type Owners } from './tenant-state.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Vector kernel implementation: WASM SIMD where available (`auto`), forced `wasm`, or plain `js`. @default 'auto' */
  vectorBackend?: 'auto' | 'wasm' | 'js';
  /** Rows each tenant's vector matrix reserves before it first grows. @default 256 */
  initialVectorCapacity?: number;
}

/** What {@link MemoryStore.getInstance} returns: the live state. Read it, don't change it. */
export interface MemoryStoreInstance {
  /** Per-tenant records and indexes, by `userId`. */
  readonly tenants: ReadonlyMap<string, TenantState>;
  /** Owner `userId` of every unit, cue and tag id. */
  readonly owners: Readonly<Owners>;
}

/** The in-memory store, with its escape hatch typed. */
export type MemoryStoreWithInstance = Omit<MemoryStore, 'getInstance'> & { getInstance(): MemoryStoreInstance };

const storeName = 'store-memory';
const capabilities: StoreCapabilities = Object.freeze({ persistent: false, exactVector: true, multiProcess: false });
const copy = cloneRecord;

/** True when only the tenant is asked for, so search needs no row mask. */
const onlyTenant = (scope: ScopeFilter, filter: UnitFilter) =>
  scope.agentId === undefined && scope.sessionId === undefined && (filter.kinds === undefined || filter.kinds.length === 0) && filter.time === undefined;

class InMemoryStore implements MemoryStoreWithInstance {
  readonly specificationVersion = memoryStoreSpecificationVersion;
  readonly name = storeName;
  readonly capabilities = capabilities;
  private readonly tenants = new Map<string, TenantState>();
  private readonly owners: Owners = { unit: new Map(), cue: new Map(), tag: new Map() };
  private disposed = false;

  constructor(private readonly options: MemoryStoreOptions) {}

  /** Checks the store is open and the scope valid; returns the tenant, if it holds anything. */
  private assertOpen(): void {
    if (this.disposed) throw new StoreError({ store: storeName, code: 'disposed', message: `${storeName}: the store was disposed` });
  }

  private enter(scope: ScopeFilter): TenantState | undefined {
    this.assertOpen();
    // The common, valid scope without zod; anything else gets zod's answer (and error).
    if (parseScope(scope) === undefined) parseInput(scopeFilterSchema, scope, { label: 'scope' });
    return this.tenants.get(scope.userId);
  }

  private tenantFor(userId: string): TenantState {
    let tenant = this.tenants.get(userId);
    if (tenant === undefined) {
      tenant = new TenantState(userId, this.owners, {
        backend: this.options.vectorBackend ?? 'auto',
        initialCapacity: this.options.initialVectorCapacity ?? 256,
      });
      this.tenants.set(userId, tenant);
    }
    return tenant;
  }

  private dropIfEmpty(tenant: TenantState): void {
    if (!tenant.empty) return;
    tenant.dispose();
    this.tenants.delete(tenant.userId);
  }

  async write(input: WriteBatchInput): Promise<void> {
    this.assertOpen();
    // Everything is validated before anything changes, and nothing below can throw: atomic.
    const batch = prepareBatch(input, { ownerOf: (kind, id) => this.owners[kind].get(id) });
    // `prepareBatch` returns fresh records; only a vector given as a Float32Array is still the caller's.
    for (const unit of batch.units) {
      if (unit.vector !== undefined) (unit as { vector?: Float32Array }).vector = new Float32Array(unit.vector);
      this.tenantFor(unit.scope.userId).putUnit(unit);
    }
    for (const cue of batch.cues) this.tenantFor(cue.scope.userId).putCue(cue);
    for (const tag of batch.tags) this.tenantFor(tag.scope.userId).putTag(tag);
    for (const relation of batch.relations) this.tenantFor(relation.scope.userId).putRelation(relation);
  }

  async getUnits(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Unit | undefined>> {
    const tenant = this.enter(scope);
    return ids.map((id) => visible(scope, tenant?.units.get(id)));
  }

  async getCues(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Cue | undefined>> {
    const tenant = this.enter(scope);
    return ids.map((id) => visible(scope, tenant?.cues.get(id)));
  }

  async getTags(scope: ScopeFilter, ids: ReadonlyArray<string>): Promise<Array<Tag | undefined>> {
    const tenant = this.enter(scope);
    return ids.map((id) => visible(scope, tenant?.tags.get(id)));
  }

  async findCues(scope: ScopeFilter, names: ReadonlyArray<string>): Promise<Cue[]> {
    const tenant = this.enter(scope);
    if (tenant === undefined) return [];
    const cues: Cue[] = [];
    for (const id of tenant.cueIdsNamed(names)) {
      const cue = visible(scope, tenant.cues.get(id));
      if (cue !== undefined) cues.push(cue);
    }
    return cues.sort((a, b) => compareIds(a.id, b.id));
  }

  async relationsOfCues(scope: ScopeFilter, cueIds: ReadonlyArray<string>): Promise<Relation[]> {
    return (this.enter(scope)?.relationsBy('cue', cueIds, scope) ?? []).map(copy);
  }

  async relationsOfPairs(scope: ScopeFilter, pairs: ReadonlyArray<{ cueId: string; tagId: string }>): Promise<Relation[]> {
    return (this.enter(scope)?.relationsOfPairs(pairs, scope) ?? []).map(copy);
  }

  async relationsOfContents(scope: ScopeFilter, contentIds: ReadonlyArray<string>): Promise<Relation[]> {
    return (this.enter(scope)?.relationsBy('content', contentIds, scope) ?? []).map(copy);
  }

  async episodesOfTopics(scope: ScopeFilter, topicIds: ReadonlyArray<string>): Promise<Array<{ topicId: string; episodeId: string }>> {
    const tenant = this.enter(scope);
    const pairs: Array<{ topicId: string; episodeId: string }> = [];
    if (tenant === undefined) return pairs;
    for (const topicId of new Set(topicIds)) {
      const topic = tenant.units.get(topicId);
      if (topic?.kind !== 'topic' || !scopeMatches(scope, topic.scope)) continue;
      // Episode ids of another tenant are simply absent from this tenant's map.
      for (const episodeId of new Set(topic.episodeIds)) {
        const episode = tenant.units.get(episodeId);
        if (episode?.kind === 'episode' && scopeMatches(scope, episode.scope)) pairs.push({ topicId, episodeId });
      }
    }
    return pairs.sort((a, b) => compareIds(a.topicId, b.topicId) || compareIds(a.episodeId, b.episodeId));
  }

  async timeline(scope: ScopeFilter, window: TimeWindow, options: { kinds?: ReadonlyArray<UnitKind>; limit?: number } = {}): Promise<Unit[]> {
    const tenant = this.enter(scope);
    checkCount(options.limit, 'options.limit');
    return (tenant?.timeline(scope, window, options.kinds, options.limit ?? Number.POSITIVE_INFINITY) ?? []).map(copy);
  }

  async vectorSearch(scope: ScopeFilter, vector: Float32Array, options: UnitFilter & { k: number }): Promise<ScoredUnit[]> {
    const tenant = this.enter(scope);
    checkCount(options.k, 'options.k');
    const query = checkQueryVector(vector);
    if (tenant === undefined) return [];
    const accept = onlyTenant(scope, options) ? undefined : (id: string) => unitMatches(scope, options, tenant.units.get(id) as Unit);
    return tenant.vectors.search(query, options.k, accept).map((hit) => ({ unit: copy(tenant.units.get(hit.id) as Unit), score: hit.score }));
  }

  async lexicalSearch(scope: ScopeFilter, query: string, options: UnitFilter & { k: number }): Promise<ScoredUnit[]> {
    const tenant = this.enter(scope);
    checkCount(options.k, 'options.k');
    if (typeof query !== 'string') throw new InvalidInputError({ message: 'invalid query: must be a string', path: 'query' });
    if (tenant === undefined) return [];
    const hits = tenant.lexical.search(query, options.kinds, (id) => unitMatches(scope, options, tenant.units.get(id) as Unit));
    return hits
      .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
      .slice(0, options.k)
      .map((hit) => ({ unit: copy(tenant.units.get(hit.id) as Unit), score: hit.score }));
  }

  async listUnits(scope: ScopeFilter, options: ListOptions = {}): Promise<Unit[]> {
    const tenant = this.enter(scope);
    checkCount(options.limit, 'options.limit');
    if (tenant === undefined) return [];
    const only = options.kinds?.length === 1 ? options.kinds[0] : undefined;
    return page(only === undefined ? tenant.sortedUnits : tenant.sortedOfKind(only), options, (id) => {
      const unit = tenant.units.get(id);
      return unit !== undefined && unitMatches(scope, options, unit) ? unit : undefined;
    });
  }

  async listCues(scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Promise<Cue[]> {
    const tenant = this.enter(scope);
    checkCount(options.limit, 'options.limit');
    if (tenant === undefined) return [];
    return page(tenant.sortedCues, options, (id) => inScope(scope, tenant.cues.get(id)));
  }

  async listTags(scope: ScopeFilter, options: { limit?: number; after?: string } = {}): Promise<Tag[]> {
    const tenant = this.enter(scope);
    checkCount(options.limit, 'options.limit');
    if (tenant === undefined) return [];
    return page(tenant.sortedTags, options, (id) => inScope(scope, tenant.tags.get(id)));
  }

  async delete(scope: ScopeFilter, id: string): Promise<boolean> {
    const tenant = this.enter(scope);
    const unit = tenant?.units.get(id);
    if (tenant === undefined || unit === undefined || !scopeMatches(scope, unit.scope)) return false;
    tenant.deleteUnit(id);
    this.dropIfEmpty(tenant);
    return true;
  }

  async forget(scope: ScopeFilter): Promise<void> {
    const tenant = this.enter(scope);
    if (tenant === undefined) return;
    if (scope.agentId === undefined && scope.sessionId === undefined) {
      for (const id of tenant.units.keys()) this.owners.unit.delete(id);
      for (const id of tenant.cues.keys()) this.owners.cue.delete(id);
      for (const id of tenant.tags.keys()) this.owners.tag.delete(id);
      tenant.dispose();
      this.tenants.delete(tenant.userId);
      return;
    }
    tenant.forget(scope);
    this.dropIfEmpty(tenant);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const tenant of this.tenants.values()) tenant.dispose();
    this.tenants.clear();
    for (const owners of Object.values(this.owners)) owners.clear();
  }

  getInstance(): MemoryStoreInstance {
    return { tenants: this.tenants, owners: this.owners };
  }
}

function inScope<T extends { scope: ScopeFilter }>(scope: ScopeFilter, record: T | undefined): T | undefined {
  return record !== undefined && scopeMatches(scope, record.scope) ? record : undefined;
}

function visible<T extends { scope: ScopeFilter }>(scope: ScopeFilter, record: T | undefined): T | undefined {
  const found = inScope(scope, record);
  return found === undefined ? undefined : copy(found);
}

function page<T>(ids: SortedIds, options: { limit?: number; after?: string }, pick: (id: string) => T | undefined): T[] {
  const limit = options.limit ?? 100;
  const sorted = ids.get();
  const out: T[] = [];
  for (let index = ids.startAfter(options.after); index < sorted.length && out.length < limit; index++) {
    const record = pick(sorted[index] as string);
    if (record !== undefined) out.push(copy(record));
  }
  return out;
}

/**
 * Creates an in-memory store: the full store port, exact vector search with core's WASM kernel
 * (one matrix per tenant and dimension), BM25 postings per tenant and unit kind, and indexes for
 * every graph operator. Nothing survives `dispose()` or the process.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStoreWithInstance {
  return new InMemoryStore(options);
}
