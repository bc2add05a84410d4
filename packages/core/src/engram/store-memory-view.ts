import type { Scope } from '../model/scope.js';
import type { Fact, Topic, Unit } from '../model/units.js';
import type { DistillMemoryView } from '../ports/distiller.js';
import type { MemoryStore } from '../ports/memory-store.js';

const PAGE = 500;

/** True when a stored record belongs to exactly this tenant (a user-only filter also matches the user's agents). */
function sameTenant(tenant: Scope, scope: Scope): boolean {
  return scope.userId === tenant.userId && scope.agentId === tenant.agentId;
}

async function listAll<T extends Unit>(store: MemoryStore, tenant: Scope, kind: T['kind'], limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  while (out.length < limit) {
    const page = await store.listUnits(tenant, { kinds: [kind], limit: PAGE, ...(after === undefined ? {} : { after }) });
    for (const unit of page) if (unit.kind === kind && sameTenant(tenant, unit.scope)) out.push(unit as T);
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.id;
  }
  return out.slice(0, limit);
}

/**
 * A tenant's facts for the length of one `add()` call: listed from the store once, then kept
 * current with the facts the call writes. Calls on one tenant are serialised, so nothing else of
 * the engram's writes the tenant's facts in between; this spares listing them for every session.
 */
export class TenantFacts {
  private facts: Promise<Map<string, Fact>> | undefined;

  constructor(
    private readonly store: MemoryStore,
    private readonly tenant: Scope,
  ) {}

  /** The tenant's facts by id. */
  all(): Promise<Map<string, Fact>> {
    this.facts ??= listAll<Fact>(this.store, this.tenant, 'fact').then((facts) => new Map(facts.map((fact) => [fact.id, fact])));
    return this.facts;
  }

  /** Records what a batch wrote. */
  async written(units: ReadonlyArray<Unit>): Promise<void> {
    if (this.facts === undefined) return;
    const facts = await this.facts;
    for (const unit of units) if (unit.kind === 'fact' && sameTenant(this.tenant, unit.scope)) facts.set(unit.id, unit);
  }
}

/**
 * The distiller's read view of one tenant's memory in a store. Current facts are found among the
 * tenant's facts (see {@link TenantFacts}), which stays cheap because facts are few next to turns
 * and episodes.
 */
export function storeMemoryView(store: MemoryStore, tenant: Scope, facts = new TenantFacts(store, tenant)): DistillMemoryView {
  return {
    findCues: async (names) => (names.length === 0 ? [] : (await store.findCues(tenant, names)).filter((cue) => sameTenant(tenant, cue.scope))),
    currentFacts: async (entity) => {
      const out: Fact[] = [];
      for (const fact of (await facts.all()).values()) if (fact.entity === entity && fact.validTo === undefined) out.push(fact);
      // In id order, as the store lists them.
      return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    getUnits: async (ids) => (ids.length === 0 ? [] : (await store.getUnits(tenant, ids)).map((unit) => (unit !== undefined && sameTenant(tenant, unit.scope) ? unit : undefined))),
    listTopics: (options = {}) => listAll<Topic>(store, tenant, 'topic', options.limit ?? 1000),
  };
}
