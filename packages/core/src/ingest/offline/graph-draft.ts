import { normalizeName, relationKey, type Cue, type CueKind, type Relation, type Tag } from '../../model/graph.js';
import { stableId } from '../../model/ids.js';
import type { Scope } from '../../model/scope.js';
import { remembered } from '../../util/remembered.js';

interface CueDraft {
  id: string;
  name: string;
  kind: CueKind;
  aliases: Set<string>;
  changed: boolean;
}

/**
 * Memoises stable ids (cue, tag and topic ids repeat across sessions); bounded so a long-lived
 * distiller does not grow without limit.
 */
export class IdCache {
  private readonly ids = new Map<string, string>();
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = 100_000) {}

  /** The id for `key`, computed by `make` on a miss. */
  get(key: string, make: () => string): string {
    return remembered(this.ids, this.limit, key, make);
  }

  /** `normalizeName(name)`, memoised: the same names come up in every message of every session. */
  normal(name: string): string {
    return remembered(this.names, this.limit, name, normalizeName);
  }
}

/** The stable id of a cue: one per normalised name within a tenant, so sessions share cues. */
export function cueId(tenant: Scope, name: string): string {
  return stableId('cue', tenant, normalizeName(name));
}

/** The stable id of a tag: one per label within a tenant. */
export function tagId(tenant: Scope, label: string): string {
  return stableId('tag', tenant, normalizeName(label));
}

/**
 * Collects the cues, tags and relations of one session. Names are resolved through aliases to
 * their canonical cue — the ones already in memory first — so that "Mel" lands on "melanie".
 */
export class GraphDraft {
  private readonly cues = new Map<string, CueDraft>();
  private readonly byName = new Map<string, CueDraft>();
  private readonly tags = new Map<string, Tag>();
  private readonly relations = new Map<string, Relation>();
  private readonly used = new Set<string>();
  private readonly stored = new Set<string>();
  private readonly tagIds = new Map<string, string>();

  private readonly tenantKey: string;

  constructor(
    private readonly tenant: Scope,
    existing: ReadonlyArray<Cue>,
    private readonly idCache: IdCache = new IdCache(),
  ) {
    this.tenantKey = `${tenant.userId}\u0000${tenant.agentId ?? ''}`;
    for (const cue of existing) {
      const draft: CueDraft = { id: cue.id, name: cue.name, kind: cue.kind, aliases: new Set(cue.aliases), changed: false };
      this.cues.set(cue.id, draft);
      this.byName.set(cue.name, draft);
      this.stored.add(cue.name);
    }
    for (const draft of this.cues.values()) for (const alias of draft.aliases) if (!this.byName.has(alias)) this.byName.set(alias, draft);
  }

  /** `normalizeName`, memoised (across sessions, in the id cache). */
  normal(name: string): string {
    return this.idCache.normal(name);
  }

  /** True when memory held the cue (by canonical name) before this session. */
  wasStored(name: string): boolean {
    return this.stored.has(this.canonical(name));
  }

  /** The canonical name a name resolves to (itself when unknown). */
  canonical(name: string): string {
    const normalised = this.normal(name);
    return this.byName.get(normalised)?.name ?? normalised;
  }

  /** Records `alias` as another name of the cue `name` (creating it as a person when new). */
  alias(name: string, alias: string, kind: CueKind = 'person'): void {
    const normalisedAlias = this.normal(alias);
    const owner = this.draft(name, kind);
    if (normalisedAlias === owner.name || this.byName.get(normalisedAlias)?.id === owner.id) return;
    if (this.byName.has(normalisedAlias)) return;
    owner.aliases.add(normalisedAlias);
    owner.changed = true;
    this.byName.set(normalisedAlias, owner);
  }

  private draft(name: string, kind: CueKind): CueDraft {
    const normalised = this.normal(name);
    let draft = this.byName.get(normalised);
    if (draft === undefined) {
      draft = { id: this.idCache.get(`c\u0000${this.tenantKey}\u0000${normalised}`, () => cueId(this.tenant, normalised)), name: normalised, kind, aliases: new Set(), changed: true };
      this.cues.set(draft.id, draft);
      this.byName.set(normalised, draft);
    }
    return draft;
  }

  /** The id of the cue called `name` (resolved through aliases), creating it when new. */
  cue(name: string, kind: CueKind): string {
    const draft = this.draft(name, kind);
    this.used.add(draft.id);
    return draft.id;
  }

  /** A memoised stable id under this tenant (`kind` keeps id spaces apart). */
  stableId(kind: string, key: string, make: () => string): string {
    return this.idCache.get(`${kind}\u0000${this.tenantKey}\u0000${key}`, make);
  }

  /** The id of the tag labelled `label`, creating it when new. */
  tag(label: string): string {
    let id = this.tagIds.get(label);
    if (id === undefined) {
      const normalised = this.normal(label);
      id = this.idCache.get(`g\u0000${this.tenantKey}\u0000${normalised}`, () => tagId(this.tenant, normalised));
      this.tagIds.set(label, id);
      if (!this.tags.has(id)) this.tags.set(id, { id, scope: this.tenant, label: normalised });
    }
    return id;
  }

  /** Adds the relation `(cue, tag, content)` under the content's scope. */
  relate(cue: string, tag: string, contentId: string, scope: Scope): void {
    const relation: Relation = { scope, cueId: cue, tagId: tag, contentId };
    this.relations.set(relationKey(relation), relation);
  }

  /** The cues used or changed in this session, the tags and the relations. */
  output(): { cues: Cue[]; tags: Tag[]; relations: Relation[] } {
    const cues: Cue[] = [];
    for (const draft of this.cues.values()) {
      if (!this.used.has(draft.id) && !draft.changed) continue;
      cues.push({ id: draft.id, scope: this.tenant, name: draft.name, kind: draft.kind, aliases: [...draft.aliases].sort() });
    }
    return { cues, tags: [...this.tags.values()], relations: [...this.relations.values()] };
  }
}
