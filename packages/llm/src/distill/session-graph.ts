import { cueId, normalizeName, relationKey, tagId, type Cue, type CueKind, type Relation, type Scope, type Tag } from '@engram/core';

interface CueDraft {
  id: string;
  name: string;
  kind: CueKind;
  aliases: Set<string>;
  changed: boolean;
  used: boolean;
}

/**
 * The cues, tags and relations of one session as the model distiller builds them: the same ids as
 * the offline distiller's (`cueId`, `tagId` of the tenant), names resolved through the aliases of
 * cues already in memory, and only used or changed cues returned.
 */
export class SessionGraph {
  private readonly byName = new Map<string, CueDraft>();
  private readonly drafts: CueDraft[] = [];
  private readonly tags = new Map<string, Tag>();
  private readonly relations = new Map<string, Relation>();

  constructor(private readonly tenant: Scope, stored: ReadonlyArray<Cue>) {
    for (const cue of stored) {
      const draft: CueDraft = { id: cue.id, name: cue.name, kind: cue.kind, aliases: new Set(cue.aliases), changed: false, used: false };
      this.drafts.push(draft);
      this.byName.set(cue.name, draft);
    }
    for (const draft of this.drafts) for (const alias of draft.aliases) if (!this.byName.has(alias)) this.byName.set(alias, draft);
  }

  /** The canonical name of `name` (itself, normalised, when unknown). */
  canonical(name: string): string {
    const normalised = normalizeName(name);
    return this.byName.get(normalised)?.name ?? normalised;
  }

  private draft(name: string, kind: CueKind): CueDraft {
    const normalised = normalizeName(name);
    let draft = this.byName.get(normalised);
    if (draft === undefined) {
      draft = { id: cueId(this.tenant, normalised), name: normalised, kind, aliases: new Set(), changed: true, used: false };
      this.drafts.push(draft);
      this.byName.set(normalised, draft);
    }
    return draft;
  }

  /** Records `alias` as another name of `name` (unless it already names another cue). */
  alias(name: string, alias: string, kind: CueKind = 'person'): void {
    const normalisedAlias = normalizeName(alias);
    const owner = this.draft(name, kind);
    if (normalisedAlias.length === 0 || normalisedAlias === owner.name || this.byName.has(normalisedAlias)) return;
    owner.aliases.add(normalisedAlias);
    owner.changed = true;
    this.byName.set(normalisedAlias, owner);
  }

  /** The id of the cue `name`, created when new. */
  cue(name: string, kind: CueKind): string {
    const draft = this.draft(name, kind);
    draft.used = true;
    return draft.id;
  }

  /** The id of the tag `label`, created when new. */
  tag(label: string): string {
    const normalised = normalizeName(label);
    const id = tagId(this.tenant, normalised);
    if (!this.tags.has(id)) this.tags.set(id, { id, scope: this.tenant, label: normalised });
    return id;
  }

  /** Adds `(cue, tag, content)` under the content's scope. */
  relate(cue: string, tag: string, contentId: string, scope: Scope): void {
    const relation: Relation = { scope, cueId: cue, tagId: tag, contentId };
    this.relations.set(relationKey(relation), relation);
  }

  /** The cues used or changed, the tags and the relations. */
  output(): { cues: Cue[]; tags: Tag[]; relations: Relation[] } {
    const cues = this.drafts
      .filter((draft) => draft.used || draft.changed)
      .map((draft) => ({ id: draft.id, scope: this.tenant, name: draft.name, kind: draft.kind, aliases: [...draft.aliases].sort() }));
    return { cues, tags: [...this.tags.values()], relations: [...this.relations.values()] };
  }
}
