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
 * The distiller's read view of one tenant's memory in a store. Current facts are found by listing
 * the tenant's facts, which stays cheap because facts are few next to turns and episodes.
 */
export function storeMemoryView(store: MemoryStore, tenant: Scope): DistillMemoryView {
  let facts: Promise<Fact[]> | undefined;
  return {
    findCues: async (names) => (names.length === 0 ? [] : (await store.findCues(tenant, names)).filter((cue) => sameTenant(tenant, cue.scope))),
    currentFacts: async (entity) => {
      facts ??= listAll<Fact>(store, tenant, 'fact');
      return (await facts).filter((fact) => fact.entity === entity && fact.validTo === undefined);
    },
    getUnits: async (ids) => (ids.length === 0 ? [] : (await store.getUnits(tenant, ids)).map((unit) => (unit !== undefined && sameTenant(tenant, unit.scope) ? unit : undefined))),
    listTopics: (options = {}) => listAll<Topic>(store, tenant, 'topic', options.limit ?? 1000),
  };
}
